//===- compact-open.cpp - Time opening a compact address table ------------===//
//
// dwarfpack-compact-open FILE [--opens N]: for a compact table (read into
// memory first, so no disk or page-fault time is counted), the RSS a
// held CompactReader adds and the best and median time of N opens
// (CompactReader::create: header checks, token tables, whose version 2 is
// decoded here, paths and files expanded, name tokens located).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

// One file per process: a second reader would reuse the heap the first
// one's opens freed, and its RSS would read 0.
static cl::opt<std::string> File(cl::Positional, cl::Required,
                                 cl::desc("<compact table>"));
static cl::opt<unsigned> Opens("opens", cl::desc("Opens to time per file"),
                               cl::init(200));

/// VmRSS of this process in KiB (0 when /proc is not there).
static long rssKiB() {
  std::ifstream Status("/proc/self/status");
  std::string Line;
  while (std::getline(Status, Line))
    if (Line.rfind("VmRSS:", 0) == 0)
      return std::stol(Line.substr(6));
  return 0;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "times compact table opens\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileAsStream(File);
  if (!Buf) {
    errs() << File << ": " << Buf.getError().message() << '\n';
    return 1;
  }
  MemoryBufferRef Ref = (*Buf)->getMemBufferRef();
  // The first reader is held while RSS is read, before the timed opens
  // have grown the heap.
  long Before = rssKiB();
  Expected<std::unique_ptr<compact::CompactReader>> Held =
      compact::CompactReader::create(Ref);
  long After = rssKiB();
  if (!Held) {
    logAllUnhandledErrors(Held.takeError(), errs(), File + ": ");
    return 1;
  }
  std::vector<double> Micros;
  for (unsigned I = 0; I < std::max(1u, unsigned(Opens)); ++I) {
    auto Start = std::chrono::steady_clock::now();
    Expected<std::unique_ptr<compact::CompactReader>> R =
        compact::CompactReader::create(Ref);
    auto End = std::chrono::steady_clock::now();
    if (!R) {
      logAllUnhandledErrors(R.takeError(), errs(), File + ": ");
      return 1;
    }
    Micros.push_back(
        std::chrono::duration<double, std::micro>(End - Start).count());
  }
  std::sort(Micros.begin(), Micros.end());
  outs() << File << ": open best " << format("%.0f", Micros.front())
         << " us, median " << format("%.0f", Micros[Micros.size() / 2])
         << " us; a held reader adds " << (After - Before) << " KiB RSS\n";
  return 0;
}
