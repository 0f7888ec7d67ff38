//===- CompareTablesCommand.cpp - dwarfpack compare-tables ----------------===//
//
// Checks and measures an address table against the GSYM file of the same
// content: the same answer for every address (or a random sample), the
// sizes of both broken down by part, and the lookup speed of both readers
// in one process. Used by the compact table's tests and by
// utils/bench/compact-bench.sh.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Support/CpuTime.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <random>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static const char *CompareSubDetails =
    "dwarfpack compare-tables REFERENCE.gsym OTHER [options]\n"
    "  dwarfpack compare-tables --convert INPUT [options]\n"
    "\n"
    "  Looks addresses up in both files and reports every difference\n"
    "  (exit status 1 when there is one): every function's first and last\n"
    "  byte and the address after it, or every address (--all-addresses),\n"
    "  or N random ones (--random N, which also times both readers). With\n"
    "  --convert, INPUT (ELF or Breakpad .sym) is converted in memory to\n"
    "  GSYM and to the compact table, which are then compared.\n";

cl::SubCommand CompareSub(
    "compare-tables",
    "Compare an address table with the GSYM file of the same content");
static cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                                   cl::desc("<files>"), cl::sub(CompareSub),
                                   cl::cat(category()));
static cl::opt<bool> Convert("convert",
                             cl::desc("Convert the single INPUT in memory"),
                             cl::sub(CompareSub), cl::cat(category()));
static cl::opt<bool>
    AllAddresses("all-addresses",
                 cl::desc("Compare every address of every function of the "
                          "reference, and the address after each"),
                 cl::sub(CompareSub), cl::cat(category()));
static cl::opt<uint64_t>
    Random("random",
           cl::desc("Compare and time N random addresses inside "
                    "functions (uniform function, then offset)"),
           cl::init(0), cl::sub(CompareSub), cl::cat(category()));
static cl::opt<uint64_t> Seed("seed", cl::desc("Seed of --random (default 1)"),
                              cl::init(1), cl::sub(CompareSub),
                              cl::cat(category()));
static cl::opt<bool> Sizes("sizes",
                           cl::desc("Print the size of each part of both"),
                           cl::sub(CompareSub), cl::cat(category()));
static cl::opt<std::string>
    SavePrefix("save-prefix",
               cl::desc("With --convert, also write PREFIX.gsym and "
                        "PREFIX.dpat"),
               cl::sub(CompareSub), cl::cat(category()));
static cl::opt<unsigned>
    BlockShift("block-shift",
               cl::desc("With --convert: functions per address block of the "
                        "compact table, as a power of two (default 4)"),
               cl::init(compact::WriteOptions().BlockShift),
               cl::sub(CompareSub), cl::cat(category()));
static cl::opt<unsigned> MaxReports("max-reports",
                                    cl::desc("Differences to print (default "
                                             "10; all are counted)"),
                                    cl::init(10), cl::sub(CompareSub),
                                    cl::cat(category()));

static std::string describe(Expected<LookupResult> R) {
  if (!R) {
    consumeError(R.takeError());
    return "error";
  }
  std::string S;
  raw_string_ostream OS(S);
  for (const SourceFrame &F : R->Frames)
    OS << F.FunctionName << " @ " << F.FileName << ':' << F.Line << " start "
       << format_hex(F.StartAddress, 10) << "; ";
  if (R->Frames.empty())
    OS << "not found";
  return S;
}

namespace {
struct Parts {
  uint64_t Header = 0, Address = 0, Framing = 0, Lines = 0, Inline = 0,
           Names = 0, Paths = 0, Total = 0;
};
} // namespace

static void printParts(const char *Title, const Parts &P, const Parts *Ref) {
  auto Row = [&](const char *Name, uint64_t V, uint64_t R) {
    outs() << "  " << left_justify(Name, 14) << format("%12llu", V);
    if (Ref && R)
      outs() << format("   %5.2fx", double(V) / double(R));
    outs() << '\n';
  };
  outs() << Title << ":\n";
  Row("line tables", P.Lines, Ref ? Ref->Lines : 0);
  Row("inline trees", P.Inline, Ref ? Ref->Inline : 0);
  Row("names", P.Names, Ref ? Ref->Names : 0);
  Row("paths", P.Paths, Ref ? Ref->Paths : 0);
  Row("framing", P.Framing, Ref ? Ref->Framing : 0);
  Row("address table", P.Address, Ref ? Ref->Address : 0);
  Row("header", P.Header, Ref ? Ref->Header : 0);
  Row("total", P.Total, Ref ? Ref->Total : 0);
}

/// GSYM parts: payloads of line and inline records; strings split into
/// names and paths is not possible (one table), so all strings count as
/// names and the file table as paths.
static Parts gsymParts(const gsym::GsymReader &R) {
  Parts P;
  StringRef D = R.data();
  auto E = R.isLittleEndian() ? endianness::little : endianness::big;
  auto U32 = [&](uint64_t O) -> uint32_t {
    return O + 4 <= D.size() ? support::endian::read<uint32_t>(D.data() + O, E)
                             : 0;
  };
  const uint32_t N = R.getNumAddresses();
  P.Total = D.size();
  P.Header = gsym::HeaderSize + R.header().UUIDSize * 0;
  P.Address = R.getFileTableOffset() - R.getAddrOffsetsOffset();
  P.Paths = 4 + uint64_t(R.getNumFiles()) * 8;
  P.Names = R.header().StrtabSize;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t Off = uint64_t(R.getFunctionInfoOffset(I)) + 8;
    while (Off + 8 <= D.size()) {
      uint32_t Type = U32(Off), Len = U32(Off + 4);
      Off += 8 + uint64_t(Len);
      if (Type == gsym::EndOfList)
        break;
      if (Type == gsym::LineTableInfo)
        P.Lines += Len;
      else if (Type == gsym::InlineInfo)
        P.Inline += Len;
    }
  }
  P.Framing =
      P.Total - P.Header - P.Address - P.Paths - P.Names - P.Lines - P.Inline;
  return P;
}

static Expected<Parts> compactParts(const compact::CompactReader &R) {
  using namespace compact;
  Parts P;
  P.Total = R.data().size();
  P.Address =
      R.section(SecBlockIndex).second + R.section(SecAddressBlocks).second;
  P.Names = R.section(SecNameTokens).second + R.section(SecNames).second;
  P.Paths = R.section(SecPathTokens).second + R.section(SecPaths).second +
            R.section(SecFiles).second;
  std::vector<FunctionLocation> Locs;
  for (uint32_t B = 0; B < R.header().NumBlocks; ++B) {
    if (Error E = R.decodeBlock(B, Locs))
      return std::move(E);
    for (const FunctionLocation &L : Locs) {
      Expected<DecodedFunction> D = R.decodeFunction(L);
      if (!D)
        return D.takeError();
      P.Framing += D->HeadBytes;
      P.Lines += D->LineBytes;
      P.Inline += D->InlineBytes;
    }
  }
  P.Header =
      P.Total - P.Address - P.Names - P.Paths - P.Framing - P.Lines - P.Inline;
  return P;
}

static int runCompare() {
  if (!Convert &&
      (SavePrefix.getNumOccurrences() || BlockShift.getNumOccurrences()))
    return reportError("--save-prefix and --block-shift apply to --convert");
  std::unique_ptr<MemoryBuffer> RefBuf, OtherBuf;
  std::string RefName, OtherName;
  uint64_t SourceSize = 0;
  bool SourceIsBreakpad = false;
  if (Convert) {
    if (Files.size() != 1)
      return reportError("--convert takes exactly one input");
    RefName = Files[0] + " (gsym)";
    OtherName = Files[0] + " (compact)";
    auto In = mapInputFile(Files[0]);
    if (!In)
      return reportError(In.takeError());
    SourceSize = (*In)->getBufferSize();
    FunctionModel Model;
    WarningLog Log;
    if (looksLikeBreakpad((*In)->getBuffer())) {
      SourceIsBreakpad = true;
      auto S = parseBreakpadIntoModel((*In)->getBuffer(), Files[0], Model, Log);
      if (!S)
        return reportError(createFileError(Files[0], S.takeError()));
    } else {
      Expected<std::unique_ptr<input::InputObject>> O =
          input::InputObject::open((*In)->getMemBufferRef(), Log);
      if (!O)
        return reportError(O.takeError());
      if (Error E = convertObject(**O, Model, {}, Log))
        return reportError(std::move(E));
    }
    Model.finalize(Log);
    Expected<std::string> G = gsym::encodeGsym(Model);
    if (!G)
      return reportError(G.takeError());
    compact::WriteOptions WO;
    WO.BlockShift = BlockShift;
    Expected<std::string> C = compact::encodeCompact(Model, nullptr, WO);
    if (!C)
      return reportError(C.takeError());
    if (!SavePrefix.empty())
      for (auto [Ext, Bytes] :
           {std::pair<const char *, std::string *>(".gsym", &*G),
            {".dpat", &*C}})
        if (Error E = writeOutputFile(SavePrefix + Ext, *Bytes))
          return reportError(std::move(E));
    RefBuf = MemoryBuffer::getMemBufferCopy(*G, RefName);
    OtherBuf = MemoryBuffer::getMemBufferCopy(*C, OtherName);
  } else {
    if (Files.size() != 2)
      return reportError("expected REFERENCE.gsym and another file");
    RefName = Files[0];
    OtherName = Files[1];
    auto A = mapInputFile(Files[0]);
    if (!A)
      return reportError(A.takeError());
    auto B = mapInputFile(Files[1]);
    if (!B)
      return reportError(B.takeError());
    RefBuf = std::move(*A);
    OtherBuf = std::move(*B);
  }
  auto Ref = gsym::GsymReader::create(RefBuf->getMemBufferRef());
  if (!Ref)
    return reportError(createFileError(RefName, Ref.takeError()));
  const FileFormat *F = identifyFormat(OtherBuf->getBuffer());
  if (!F || !F->hasAddresses())
    return reportError("'" + OtherName + "': not a file with addresses");
  auto Other =
      F->Open(MemoryBuffer::getMemBuffer(OtherBuf->getMemBufferRef(), false),
              openOptions());
  if (!Other)
    return reportError(createFileError(OtherName, Other.takeError()));

  const gsym::GsymReader &G = **Ref;
  const AddressSymbolizer &O = **Other;
  uint64_t Compared = 0, Differences = 0;
  auto Check = [&](uint64_t Addr) {
    ++Compared;
    std::string A = describe(G.lookup(Addr));
    std::string B = describe(O.lookup(Addr));
    if (A == B)
      return;
    if (Differences++ < MaxReports)
      errs() << format_hex(Addr, 18) << ":\n  reference: " << A
             << "\n  other:     " << B << '\n';
  };

  if (Sizes) {
    Parts GP = gsymParts(G);
    printParts("gsym", GP, nullptr);
    if (auto *C = dynamic_cast<const compact::CompactReader *>(&O)) {
      Expected<Parts> CP = compactParts(*C);
      if (!CP)
        return reportError(createFileError(OtherName, CP.takeError()));
      printParts("compact (ratio to gsym)", *CP, &GP);
      outs() << format("size ratio compact/gsym: %.3f\n",
                       double(CP->Total) / double(GP.Total));
    }
    if (SourceIsBreakpad)
      outs() << "breakpad .sym bytes: " << SourceSize
             << format(" (gsym %.3f, other %.3f of it)\n",
                       double(GP.Total) / SourceSize,
                       double(OtherBuf->getBufferSize()) / SourceSize);
  }

  const uint32_t N = G.getNumAddresses();
  if (!AllAddresses && !Random) {
    for (uint32_t I = 0; I < N; ++I) {
      Expected<gsym::DecodedFunction> D = G.decodeFunction(I);
      if (!D)
        return reportError(createFileError(RefName, D.takeError()));
      const AddressRange &R = D->Entry.Range;
      Check(R.Start);
      if (R.End - R.Start > 1)
        Check(R.End - 1);
      Check(R.End);
    }
  }
  if (AllAddresses) {
    for (uint32_t I = 0; I < N; ++I) {
      Expected<gsym::DecodedFunction> D = G.decodeFunction(I);
      if (!D)
        return reportError(createFileError(RefName, D.takeError()));
      const AddressRange &R = D->Entry.Range;
      for (uint64_t A = R.Start; A < R.End; ++A)
        Check(A);
      Check(R.End);
    }
    if (N)
      Check(G.getAddress(0) - 1);
  }

  if (Random && N) {
    std::mt19937_64 Gen(Seed);
    std::vector<uint64_t> Addrs;
    Addrs.reserve(Random);
    std::vector<uint64_t> Sizes(N);
    for (uint32_t I = 0; I < N; ++I) {
      Expected<gsym::DecodedFunction> D = G.decodeFunction(I);
      Sizes[I] = D ? std::max<uint64_t>(D->Entry.Range.size(), 1) : 1;
      if (!D)
        consumeError(D.takeError());
    }
    for (uint64_t I = 0; I < Random; ++I) {
      uint32_t F = Gen() % N;
      Addrs.push_back(G.getAddress(F) + Gen() % Sizes[F]);
    }
    for (uint64_t A : Addrs)
      Check(A);
    // Timing: both readers over the same addresses, alternating, three
    // runs each; the best CPU time of the thread is kept (the machine may
    // be shared, wall time would count other processes).
    uint64_t Sink = 0;
    auto Time = [&](const AddressSymbolizer &S) {
      double T0 = threadCpuSeconds();
      for (uint64_t A : Addrs) {
        Expected<LookupResult> R = S.lookup(A);
        if (R)
          Sink += R->Frames.size();
        else
          consumeError(R.takeError());
      }
      return threadCpuSeconds() - T0;
    };
    double TG = 1e30, TO = 1e30;
    for (int Run = 0; Run < 3; ++Run) {
      TG = std::min(TG, Time(G));
      TO = std::min(TO, Time(O));
    }
    if (Sink == 42)
      outs() << "";
    outs() << format("lookup time over %llu addresses: gsym %.3f s (%.0f "
                     "ns/lookup), other %.3f s (%.0f ns/lookup), ratio %.3f\n",
                     (unsigned long long)Addrs.size(), TG,
                     TG * 1e9 / Addrs.size(), TO, TO * 1e9 / Addrs.size(),
                     TO / TG);
  }

  outs() << Compared << " addresses compared, " << Differences
         << " differences\n";
  return Differences ? 1 : 0;
}

static CommandRegistration RegisterCompare(CompareSub, runCompare,
                                           CompareSubDetails);
