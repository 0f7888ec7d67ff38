//===- KallsymsCommand.cpp - dwarfpack kallsyms ---------------------------===//
//
// Builds a kernel symbol table (compact or ksym-blob) from /proc/kallsyms,
// System.map or `nm -n` output, and answers name -> address queries on a
// table (--lookup-name). docs/UserGuide.md, section "dwarfpack kallsyms".
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/CpuTime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/RandomNumberGenerator.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <malloc.h>
#include <random>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::tool;

namespace {

enum class OutFormat { Compact, KsymBlob };

cl::SubCommand Sub("kallsyms",
                   "Build a compact kernel symbol table from /proc/kallsyms, "
                   "System.map or 'nm -n' output");
cl::opt<std::string> Input(cl::Positional, cl::desc("<input | - for stdin>"),
                           cl::Required, cl::sub(Sub), cl::cat(category()));
cl::opt<std::string> Output("o", cl::desc("Output file"),
                            cl::value_desc("file"), cl::sub(Sub),
                            cl::cat(category()));
cl::opt<OutFormat>
    Format("format", cl::desc("Output format"), cl::init(OutFormat::Compact),
           cl::values(clEnumValN(OutFormat::Compact, "compact",
                                 "dwarfpack's compact table (default)"),
                      clEnumValN(OutFormat::KsymBlob, "ksym-blob",
                                 "the zero-copy ksym-blob layout")),
           cl::sub(Sub), cl::cat(category()));
cl::opt<bool> AllTypes("all-types",
                       cl::desc("Keep every symbol type, not only t/T"),
                       cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Do not print warnings about skipped lines"),
                    cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Demangle("demangle",
                       cl::desc("Demangle C++ and Rust (legacy, v0) names"),
                       cl::sub(Sub), cl::cat(category()));
cl::opt<std::string>
    Etext("etext",
          cl::desc("End address of the last symbol (hex), for its size"),
          cl::value_desc("address"), cl::sub(Sub), cl::cat(category()));
cl::list<std::string>
    LookupName("lookup-name",
               cl::desc("Treat INPUT as a table and print the symbols with "
                        "this name (repeatable)"),
               cl::value_desc("name"), cl::sub(Sub), cl::cat(category()));
cl::opt<unsigned> BenchLookups(
    "bench-lookups", cl::Hidden,
    cl::desc("Treat INPUT as a table; time N random address and name lookups"),
    cl::sub(Sub), cl::cat(category()));
cl::opt<bool> BenchAddressOnly("bench-address-only", cl::Hidden,
                               cl::desc("With --bench-lookups: addresses only"),
                               cl::sub(Sub), cl::cat(category()));
cl::opt<unsigned> BenchRepeat(
    "bench-repeat", cl::Hidden,
    cl::desc("With --bench-lookups: look each random address up N times in "
             "a row (then its data is cached and its branches predicted: "
             "what the lookup's work itself costs)"),
    cl::sub(Sub), cl::cat(category()));
cl::opt<unsigned>
    BenchBuild("bench-build", cl::Hidden,
               cl::desc("Time N in-memory builds (parse + write) of INPUT"),
               cl::sub(Sub), cl::cat(category()));

StringRef displayName(StringRef Path) {
  return Path == "-" ? StringRef("<stdin>") : Path;
}

Error build(StringRef Text, std::string &Out, WarningLog &Warnings) {
  ParseOptions Opts;
  Opts.AllTypes = AllTypes;
  Opts.Demangle = Demangle;
  SymbolList List;
  if (Error E =
          parseSymbolList(Text, displayName(Input), Opts, List, &Warnings))
    return E;
  if (Etext.getNumOccurrences()) {
    uint64_t End;
    StringRef S(Etext);
    S.consume_front("0x");
    if (S.getAsInteger(16, End))
      return createStringError(inconvertibleErrorCode(),
                               "--etext: bad address '" + Etext + "'");
    List.EndAddress = End;
  }
  Error E = Format == OutFormat::Compact ? writeCompact(List, Out)
                                         : writeKsymBlob(List, Out);
  if (E)
    return createStringError(inconvertibleErrorCode(),
                             displayName(Input) + ": " +
                                 toString(std::move(E)));
  return Error::success();
}

int runLookupName() {
  if (Output.getNumOccurrences() || Format.getNumOccurrences() ||
      Etext.getNumOccurrences() || AllTypes || Demangle)
    return reportError("--lookup-name reads a table: -o, --format, --etext, "
                       "--all-types and --demangle do not apply");
  auto Buf = readFileOrStdin(Input, false);
  if (!Buf)
    return reportError(Buf.takeError());
  ReaderOptions RO;
  RO.Portable = portableReaders();
  auto Reader = openSymbolTable(std::move(*Buf), RO);
  if (!Reader)
    return reportError(createFileError(Input, Reader.takeError()));
  for (const std::string &Name : LookupName) {
    auto Found = (*Reader)->lookupName(Name);
    if (!Found)
      return reportError(createFileError(Input, Found.takeError()));
    if (Found->empty())
      outs() << "?? " << Name << '\n';
    for (const SymbolInfo &S : *Found) {
      outs() << format_hex_no_prefix(S.Address, 16) << ' ' << S.Type << ' '
             << S.Name;
      if (!S.Module.empty())
        outs() << "\t[" << S.Module << ']';
      outs() << '\n';
    }
  }
  return 0;
}

/// What opening costs: the time (best of a few opens of the same bytes)
/// and the memory the reader allocates beside the table (its checks and
/// decoded views).
struct OpenCost {
  double Microseconds = 1e30;
  uint64_t HeapBytes = 0;
};

Expected<OpenCost> measureOpen(const MemoryBuffer &Buf,
                               const ReaderOptions &RO) {
  OpenCost C;
  for (int K = 0; K < 5; ++K) {
    auto Copy = MemoryBuffer::getMemBuffer(Buf.getBuffer(), "", false);
    uint64_t Heap0 = mallinfo2().uordblks;
    auto T0 = std::chrono::steady_clock::now();
    auto Opened = openSymbolTable(std::move(Copy), RO);
    auto T1 = std::chrono::steady_clock::now();
    if (!Opened)
      return createFileError(Input, Opened.takeError());
    C.HeapBytes = mallinfo2().uordblks - Heap0;
    C.Microseconds =
        std::min(C.Microseconds,
                 std::chrono::duration<double, std::micro>(T1 - T0).count());
  }
  return C;
}

/// Addresses inside random symbols (as a profiler's samples are), not
/// uniform over the span, where a module gap would dominate; each repeated
/// --bench-repeat times.
Expected<std::vector<uint64_t>> sampleAddresses(const SymbolReader &R,
                                                std::mt19937_64 &Rng) {
  std::vector<uint64_t> Addrs(BenchLookups);
  std::uniform_int_distribution<uint32_t> SymD(0, R.numSymbols() - 1);
  for (size_t I = 0; I < Addrs.size(); ++I) {
    uint64_t &A = Addrs[I];
    if (BenchRepeat > 1 && I % BenchRepeat) {
      A = Addrs[I - I % BenchRepeat];
      continue;
    }
    SymbolInfo S;
    if (Error E = R.fillAddressAndSize(SymD(Rng), S))
      return std::move(E);
    A = S.Address +
        (S.Size && *S.Size ? Rng() % std::min<uint64_t>(*S.Size, 1 << 20) : 0);
  }
  return std::move(Addrs);
}

/// Names of up to 65,536 random symbols.
Expected<std::vector<std::string>> sampleNames(const SymbolReader &R,
                                               std::mt19937_64 &Rng) {
  std::vector<std::string> Names;
  std::uniform_int_distribution<uint32_t> ID(0, R.numSymbols() - 1);
  for (unsigned I = 0; I < std::min(BenchLookups.getValue(), 65536u); ++I) {
    SymbolInfo Info;
    if (Error E = R.describe(ID(Rng), Info))
      return std::move(E);
    Names.push_back(std::string(Info.Name));
  }
  return std::move(Names);
}

/// Wall and CPU nanoseconds per lookup.
struct LookupTimes {
  double Ns = 0, CpuNs = 0;
};

/// The loop API a profiler uses: one SymbolInfo, its strings reused.
Expected<LookupTimes> timeAddressLookups(const SymbolReader &R,
                                         ArrayRef<uint64_t> Addrs,
                                         uint64_t &Check) {
  double C0 = threadCpuSeconds();
  auto T0 = std::chrono::steady_clock::now();
  SymbolInfo Found;
  for (uint64_t A : Addrs) {
    Expected<bool> S = R.lookupAddressInto(A, Found);
    if (!S)
      return S.takeError();
    Check += *S ? Found.Name.size() : 0;
  }
  auto T1 = std::chrono::steady_clock::now();
  return LookupTimes{std::chrono::duration<double, std::nano>(T1 - T0).count() /
                         BenchLookups,
                     (threadCpuSeconds() - C0) * 1e9 / BenchLookups};
}

Expected<LookupTimes> timeNameLookups(const SymbolReader &R,
                                      ArrayRef<std::string> Names,
                                      uint64_t &Check) {
  double C0 = threadCpuSeconds();
  auto T0 = std::chrono::steady_clock::now();
  std::vector<SymbolInfo> Matches;
  for (unsigned I = 0; I < BenchLookups && !BenchAddressOnly; ++I) {
    if (Error E = R.lookupNameInto(Names[I % Names.size()], Matches))
      return std::move(E);
    if (Matches.empty())
      return createStringError(inconvertibleErrorCode(),
                               "name lookup failed for '" +
                                   Names[I % Names.size()] + "'");
    Check += Matches.size() + Matches[0].Address;
  }
  auto T1 = std::chrono::steady_clock::now();
  return LookupTimes{std::chrono::duration<double, std::nano>(T1 - T0).count() /
                         BenchLookups,
                     (threadCpuSeconds() - C0) * 1e9 / BenchLookups};
}

int runBenchLookups() {
  auto Buf = readFileOrStdin(Input, false);
  if (!Buf)
    return reportError(Buf.takeError());
  uint64_t FileSize = (*Buf)->getBufferSize();
  ReaderOptions RO;
  RO.Portable = portableReaders();
  Expected<OpenCost> Open = measureOpen(**Buf, RO);
  if (!Open)
    return reportError(Open.takeError());
  auto ReaderOr = openSymbolTable(std::move(*Buf), RO);
  if (!ReaderOr)
    return reportError(createFileError(Input, ReaderOr.takeError()));
  SymbolReader &R = **ReaderOr;
  uint32_t N = R.numSymbols();
  std::mt19937_64 Rng(42);
  auto First = R.address(0), Last = R.address(N - 1);
  if (!First || !Last)
    return reportError(joinErrors(First.takeError(), Last.takeError()));
  Expected<std::vector<uint64_t>> Addrs = sampleAddresses(R, Rng);
  if (!Addrs)
    return reportError(Addrs.takeError());
  Expected<std::vector<std::string>> Names = sampleNames(R, Rng);
  if (!Names)
    return reportError(Names.takeError());
  uint64_t Check = 0;
  Expected<LookupTimes> ByAddress = timeAddressLookups(R, *Addrs, Check);
  if (!ByAddress)
    return reportError(ByAddress.takeError());
  Expected<LookupTimes> ByName = timeNameLookups(R, *Names, Check);
  if (!ByName)
    return reportError(ByName.takeError());
  outs() << "symbols: " << N << "\nbytes: " << FileSize
         << "\nopen-us: " << format("%.0f", Open->Microseconds)
         << "\nopen-heap-bytes: " << Open->HeapBytes
         << "\nbytes-per-symbol: " << format("%.2f", double(FileSize) / N)
         << "\naddress-lookup-ns: " << format("%.1f", ByAddress->Ns)
         << "\nname-lookup-ns: " << format("%.1f", ByName->Ns)
         << "\naddress-lookup-cpu-ns: " << format("%.1f", ByAddress->CpuNs)
         << "\nname-lookup-cpu-ns: " << format("%.1f", ByName->CpuNs)
         << "\nchecksum: " << Check << '\n';
  return 0;
}

int runBenchBuild(StringRef Text) {
  using Clock = std::chrono::steady_clock;
  double Best = 1e30, BestCpu = 1e30;
  size_t Size = 0;
  for (unsigned I = 0; I < BenchBuild; ++I) {
    WarningLog W;
    std::string Out;
    auto T0 = Clock::now();
    double C0 = threadCpuSeconds();
    if (Error E = build(Text, Out, W))
      return reportError(std::move(E));
    Best = std::min(
        Best,
        std::chrono::duration<double, std::milli>(Clock::now() - T0).count());
    BestCpu = std::min(BestCpu, (threadCpuSeconds() - C0) * 1e3);
    Size = Out.size();
  }
  outs() << "build-ms: " << format("%.2f", Best)
         << "\nbuild-cpu-ms: " << format("%.2f", BestCpu) << "\nbytes: " << Size
         << '\n';
  return 0;
}

int run() {
  if (!LookupName.empty())
    return runLookupName();
  if (BenchLookups)
    return runBenchLookups();
  auto Buf = readFileOrStdin(Input, true);
  if (!Buf)
    return reportError(Buf.takeError());
  StringRef Text = (*Buf)->getBuffer();
  if (BenchBuild)
    return runBenchBuild(Text);
  if (Output.empty())
    return reportError("no output file given (-o)");
  if (Error E = checkOutputIsNotInput(Output, {Input}))
    return reportError(std::move(E));
  WarningLog Warnings;
  std::string Out;
  if (Error E = build(Text, Out, Warnings))
    return reportError(std::move(E));
  if (!Quiet)
    reportWarningSummary(Warnings);
  if (Error E = writeOutputFile(Output, Out))
    return reportError(std::move(E));
  return 0;
}

const char *KallsymsDetails =
    "dwarfpack kallsyms INPUT -o OUTPUT [options]\n"
    "\n"
    "  INPUT ('-': stdin) is /proc/kallsyms, a System.map or 'nm -n'\n"
    "  output; its text symbols (t/T, or every type with --all-types) become\n"
    "  a kernel symbol table: dwarfpack's compact table (docs/Kallsyms.md)\n"
    "  or, with --format=ksym-blob, the ksym-blob layout. 'dwarfpack lookup'\n"
    "  and 'dump' read both; --lookup-name=NAME looks names up in one.\n";

CommandRegistration Registration(Sub, run, KallsymsDetails);

} // namespace
