//===- lookup-bench.cpp - Compact reader against LLVM's GsymReader --------===//
//
// dwarfpack-lookup-bench TABLE.dpat TABLE.gsym [options]: in one process,
// over the same addresses (uniform function of the compact table, then a
// uniform offset inside it), the time per lookup of LLVM 19's
// llvm::gsym::GsymReader::lookup on the GSYM file and of the compact
// reader on the compact table, each answer's full inline chain with names,
// files and lines consumed. Both GSYM files of the same input do: the one
// `dwarfpack gsym --format=gsym` writes (same content as the compact
// table) or llvm-gsymutil's.
//
// Runs alternate (LLVM, ours, LLVM, ...) and each reader's best run counts
// (thread CPU time, so other load on the machine costs little). Ours is
// timed through CompactReader::lookupFrames (StringRefs into the table's
// decoded paths and a reused buffer) and, for reference, through
// CompactReader::lookup (std::strings per frame, as `dwarfpack lookup`
// uses it).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/GSYM/GsymReader.h"

#include "llvm/DebugInfo/GSYM/GsymReader.h"
#include "llvm/DebugInfo/GSYM/LookupResult.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

static cl::opt<std::string> CompactPath(cl::Positional, cl::Required,
                                        cl::desc("<compact table>"));
static cl::opt<std::string> GsymPath(cl::Positional, cl::Required,
                                     cl::desc("<GSYM file>"));
static cl::opt<unsigned> NumAddresses("addresses",
                                      cl::desc("Addresses to look up"),
                                      cl::init(1000000));
static cl::opt<unsigned> Seed("seed", cl::desc("Random seed"), cl::init(1));
static cl::opt<unsigned> Runs("runs", cl::desc("Timed runs of each reader"),
                              cl::init(3));
static cl::opt<std::string>
    Only("only",
         cl::desc("Time one reader alone (llvm, frames or lookup; best of "
                  "--runs), for profiling"),
         cl::init(""));
static cl::opt<bool>
    Sorted("sorted", cl::desc("Look the addresses up in address order: the "
                              "readers' cost with few cache misses"));
static cl::opt<bool> Check("check",
                           cl::desc("First compare the answers (function, "
                                    "file, line of every frame)"));

/// CPU time of this thread, in seconds.
static double threadSeconds() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}

/// Uniform function, then uniform offset inside it.
static std::vector<uint64_t> makeAddresses(const compact::CompactReader &R) {
  std::vector<compact::FunctionLocation> All, Block;
  for (uint32_t B = 0; B < R.header().NumBlocks; ++B) {
    if (Error E = R.decodeBlock(B, Block)) {
      logAllUnhandledErrors(std::move(E), errs(), "compact table: ");
      exit(1);
    }
    All.insert(All.end(), Block.begin(), Block.end());
  }
  std::mt19937_64 Gen(Seed);
  std::vector<uint64_t> Out;
  Out.reserve(NumAddresses);
  for (unsigned I = 0; I < NumAddresses; ++I) {
    const compact::FunctionLocation &F = All[Gen() % All.size()];
    Out.push_back(F.Start + Gen() % F.Size);
  }
  if (Sorted)
    std::sort(Out.begin(), Out.end());
  return Out;
}

/// What is consumed of an answer, so that no reader can skip work.
static uint64_t consume(StringRef Name, StringRef Dir, StringRef Base,
                        uint32_t Line) {
  return Name.size() + Dir.size() + Base.size() + Line +
         (Name.empty() ? 0 : uint8_t(Name.back()));
}

static uint64_t runLlvm(const llvm::gsym::GsymReader &G,
                        const std::vector<uint64_t> &Addrs) {
  uint64_t Sum = 0;
  for (uint64_t A : Addrs) {
    Expected<llvm::gsym::LookupResult> R = G.lookup(A);
    if (!R) {
      consumeError(R.takeError());
      continue;
    }
    for (const llvm::gsym::SourceLocation &L : R->Locations)
      Sum += consume(L.Name, L.Dir, L.Base, L.Line);
  }
  return Sum;
}

static uint64_t runFrames(const compact::CompactReader &C,
                          const std::vector<uint64_t> &Addrs) {
  uint64_t Sum = 0;
  compact::FrameBuffer Buf;
  for (uint64_t A : Addrs) {
    if (Error E = C.lookupFrames(A, Buf)) {
      consumeError(std::move(E));
      continue;
    }
    for (const compact::FrameRef &F : Buf.frames())
      Sum += consume(F.Name, F.Dir, F.Base, F.Line);
  }
  return Sum;
}

static uint64_t runLookup(const compact::CompactReader &C,
                          const std::vector<uint64_t> &Addrs) {
  uint64_t Sum = 0;
  for (uint64_t A : Addrs) {
    Expected<LookupResult> R = C.lookup(A);
    if (!R) {
      consumeError(R.takeError());
      continue;
    }
    for (const SourceFrame &F : R->Frames)
      Sum += consume(F.FunctionName, "", F.FileName, F.Line);
  }
  return Sum;
}

/// Differences between the two readers' frames (name, joined path, line).
static uint64_t compare(const llvm::gsym::GsymReader &G,
                        const compact::CompactReader &C,
                        const std::vector<uint64_t> &Addrs) {
  uint64_t Differences = 0;
  compact::FrameBuffer Buf;
  for (uint64_t A : Addrs) {
    std::string X, Y;
    if (Expected<llvm::gsym::LookupResult> R = G.lookup(A)) {
      for (const llvm::gsym::SourceLocation &L : R->Locations)
        X += (L.Name + "@" + dwarfpack::gsym::joinPath(L.Dir, L.Base) + ":" +
              Twine(L.Line) + ";")
                 .str();
    } else {
      consumeError(R.takeError());
      X = "error";
    }
    if (Error E = C.lookupFrames(A, Buf)) {
      consumeError(std::move(E));
      Y = "error";
    } else {
      for (const compact::FrameRef &F : Buf.frames())
        Y += (F.Name + "@" + dwarfpack::gsym::joinPath(F.Dir, F.Base) + ":" +
              Twine(F.Line) + ";")
                 .str();
    }
    if (X != Y && Differences++ < 5)
      errs() << format_hex(A, 18) << "\n  LLVM:    " << X
             << "\n  compact: " << Y << '\n';
  }
  return Differences;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "compact reader against LLVM's GsymReader\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      CompactPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) {
    errs() << CompactPath << ": " << Buf.getError().message() << '\n';
    return 1;
  }
  Expected<std::unique_ptr<compact::CompactReader>> C =
      compact::CompactReader::create(std::move(*Buf));
  if (!C) {
    logAllUnhandledErrors(C.takeError(), errs(), CompactPath + ": ");
    return 1;
  }
  Expected<llvm::gsym::GsymReader> G =
      llvm::gsym::GsymReader::openFile(GsymPath);
  if (!G) {
    logAllUnhandledErrors(G.takeError(), errs(), GsymPath + ": ");
    return 1;
  }
  std::vector<uint64_t> Addrs = makeAddresses(**C);
  if (Check) {
    uint64_t D = compare(*G, **C, Addrs);
    outs() << "answers compared: " << Addrs.size() << ", differences: " << D
           << '\n';
  }
  if (!Only.empty()) {
    double Best = 1e30;
    uint64_t Sum = 0;
    for (unsigned Run = 0; Run < Runs; ++Run) {
      double T0 = threadSeconds();
      Sum = Only == "llvm"     ? runLlvm(*G, Addrs)
            : Only == "frames" ? runFrames(**C, Addrs)
                               : runLookup(**C, Addrs);
      Best = std::min(Best, threadSeconds() - T0);
    }
    outs() << Only << format(": %.1f ns/lookup", Best / Addrs.size() * 1e9)
           << " (checksum " << Sum << ")\n";
    return 0;
  }
  double Llvm = 1e30, Frames = 1e30, Lookup = 1e30;
  uint64_t Sums[3] = {};
  for (unsigned Run = 0; Run < Runs; ++Run) {
    double T0 = threadSeconds();
    Sums[0] = runLlvm(*G, Addrs);
    double T1 = threadSeconds();
    Sums[1] = runFrames(**C, Addrs);
    double T2 = threadSeconds();
    Sums[2] = runLookup(**C, Addrs);
    double T3 = threadSeconds();
    Llvm = std::min(Llvm, T1 - T0);
    Frames = std::min(Frames, T2 - T1);
    Lookup = std::min(Lookup, T3 - T2);
  }
  const double N = double(Addrs.size());
  outs() << format("LLVM GsymReader::lookup:      %8.1f ns/lookup\n",
                   Llvm / N * 1e9);
  outs() << format("compact lookupFrames:         %8.1f ns/lookup   "
                   "ratio %.3f\n",
                   Frames / N * 1e9, Frames / Llvm);
  outs() << format("compact lookup (strings):     %8.1f ns/lookup   "
                   "ratio %.3f\n",
                   Lookup / N * 1e9, Lookup / Llvm);
  outs() << "checksums (work done): " << Sums[0] << ' ' << Sums[1] << ' '
         << Sums[2] << '\n';
  return 0;
}
