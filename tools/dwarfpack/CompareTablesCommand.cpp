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
static cl::opt<unsigned> RowStopShift(
    "row-stop-shift",
    cl::desc("With --convert: rows between row stops of the compact table, "
             "as a power of two (default 5; 0: no row stops)"),
    cl::init(compact::WriteOptions().RowStopShift), cl::sub(CompareSub),
    cl::cat(category()));
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

namespace {
/// The two tables compared: the reference GSYM and the other file.
struct TablePair {
  std::unique_ptr<MemoryBuffer> Ref, Other;
  std::string RefName, OtherName;
  /// With --convert: the input's size, and whether it is a Breakpad file.
  uint64_t SourceSize = 0;
  bool SourceIsBreakpad = false;
};

/// Looks addresses up in both readers and counts (and prints the first
/// MaxReports of) the differences.
class Comparison {
public:
  Comparison(const gsym::GsymReader &G, const AddressSymbolizer &O)
      : G(G), O(O) {}

  void check(uint64_t Addr) {
    ++Compared;
    std::string A = describe(G.lookup(Addr));
    std::string B = describe(O.lookup(Addr));
    if (A == B)
      return;
    if (Differences++ < MaxReports)
      errs() << format_hex(Addr, 18) << ":\n  reference: " << A
             << "\n  other:     " << B << '\n';
  }

  const gsym::GsymReader &G;
  const AddressSymbolizer &O;
  uint64_t Compared = 0, Differences = 0;
};
} // namespace

/// --convert: the single input converted in memory to GSYM and to the
/// compact table (and saved with --save-prefix).
static Expected<TablePair> convertInMemory() {
  if (Files.size() != 1)
    return createStringError(inconvertibleErrorCode(),
                             "--convert takes exactly one input");
  TablePair P;
  P.RefName = Files[0] + " (gsym)";
  P.OtherName = Files[0] + " (compact)";
  auto In = mapInputFile(Files[0]);
  if (!In)
    return In.takeError();
  P.SourceSize = (*In)->getBufferSize();
  FunctionModel Model;
  WarningLog Log;
  if (looksLikeBreakpad((*In)->getBuffer())) {
    P.SourceIsBreakpad = true;
    auto S = parseBreakpadIntoModel((*In)->getBuffer(), Files[0], Model, Log);
    if (!S)
      return createFileError(Files[0], S.takeError());
  } else {
    Expected<std::unique_ptr<input::InputObject>> O =
        input::InputObject::open((*In)->getMemBufferRef(), Log);
    if (!O)
      return O.takeError();
    if (Error E = convertObject(**O, Model, {}, Log))
      return std::move(E);
  }
  Model.finalize(Log);
  Expected<std::string> G = gsym::encodeGsym(Model);
  if (!G)
    return G.takeError();
  compact::WriteOptions WO;
  WO.BlockShift = BlockShift;
  WO.RowStopShift = RowStopShift;
  Expected<std::string> C = compact::encodeCompact(Model, nullptr, WO);
  if (!C)
    return C.takeError();
  if (!SavePrefix.empty())
    for (auto [Ext, Bytes] :
         {std::pair<const char *, std::string *>(".gsym", &*G), {".dpat", &*C}})
      if (Error E = writeOutputFile(SavePrefix + Ext, *Bytes))
        return std::move(E);
  P.Ref = MemoryBuffer::getMemBufferCopy(*G, P.RefName);
  P.Other = MemoryBuffer::getMemBufferCopy(*C, P.OtherName);
  return std::move(P);
}

static Expected<TablePair> openPair() {
  if (Files.size() != 2)
    return createStringError(inconvertibleErrorCode(),
                             "expected REFERENCE.gsym and another file");
  TablePair P;
  P.RefName = Files[0];
  P.OtherName = Files[1];
  auto A = mapInputFile(Files[0]);
  if (!A)
    return A.takeError();
  auto B = mapInputFile(Files[1]);
  if (!B)
    return B.takeError();
  P.Ref = std::move(*A);
  P.Other = std::move(*B);
  return std::move(P);
}

/// --sizes: both tables' parts, side by side.
static Error printSizes(const TablePair &P, const gsym::GsymReader &G,
                        const AddressSymbolizer &O) {
  Parts GP = gsymParts(G);
  printParts("gsym", GP, nullptr);
  if (auto *C = dynamic_cast<const compact::CompactReader *>(&O)) {
    Expected<Parts> CP = compactParts(*C);
    if (!CP)
      return createFileError(P.OtherName, CP.takeError());
    printParts("compact (ratio to gsym)", *CP, &GP);
    outs() << format("size ratio compact/gsym: %.3f\n",
                     double(CP->Total) / double(GP.Total));
  }
  if (P.SourceIsBreakpad)
    outs() << "breakpad .sym bytes: " << P.SourceSize
           << format(" (gsym %.3f, other %.3f of it)\n",
                     double(GP.Total) / P.SourceSize,
                     double(P.Other->getBufferSize()) / P.SourceSize);
  return Error::success();
}

/// Every function's first and last byte and the address after it, or
/// with Every, each of its bytes and the address after it (and the
/// address before the first function).
static Error compareFunctions(Comparison &C, StringRef RefName, bool Every) {
  const gsym::GsymReader &G = C.G;
  const uint32_t N = G.getNumAddresses();
  for (uint32_t I = 0; I < N; ++I) {
    Expected<gsym::DecodedFunction> D = G.decodeFunction(I);
    if (!D)
      return createFileError(RefName, D.takeError());
    const AddressRange &R = D->Entry.Range;
    if (Every) {
      for (uint64_t A = R.Start; A < R.End; ++A)
        C.check(A);
    } else {
      C.check(R.Start);
      if (R.End - R.Start > 1)
        C.check(R.End - 1);
    }
    C.check(R.End);
  }
  if (Every && N)
    C.check(G.getAddress(0) - 1);
  return Error::success();
}

/// Count addresses: a uniform function of G, then a uniform offset in it.
static std::vector<uint64_t> randomAddresses(const gsym::GsymReader &G,
                                             uint64_t Count) {
  const uint32_t N = G.getNumAddresses();
  std::mt19937_64 Gen(Seed);
  std::vector<uint64_t> Sizes(N);
  for (uint32_t I = 0; I < N; ++I) {
    Expected<gsym::DecodedFunction> D = G.decodeFunction(I);
    Sizes[I] = D ? std::max<uint64_t>(D->Entry.Range.size(), 1) : 1;
    if (!D)
      consumeError(D.takeError());
  }
  std::vector<uint64_t> Addrs;
  Addrs.reserve(Count);
  for (uint64_t I = 0; I < Count; ++I) {
    uint32_t F = Gen() % N;
    Addrs.push_back(G.getAddress(F) + Gen() % Sizes[F]);
  }
  return Addrs;
}

/// Both readers over the same addresses, alternating, three runs each; the
/// best CPU time of the thread is kept (the machine may be shared, wall
/// time would count other processes).
static void timeReaders(const Comparison &C, ArrayRef<uint64_t> Addrs) {
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
    TG = std::min(TG, Time(C.G));
    TO = std::min(TO, Time(C.O));
  }
  if (Sink == 42)
    outs() << "";
  outs() << format("lookup time over %llu addresses: gsym %.3f s (%.0f "
                   "ns/lookup), other %.3f s (%.0f ns/lookup), ratio %.3f\n",
                   (unsigned long long)Addrs.size(), TG,
                   TG * 1e9 / Addrs.size(), TO, TO * 1e9 / Addrs.size(),
                   TO / TG);
}

static int runCompare() {
  if (!Convert &&
      (SavePrefix.getNumOccurrences() || BlockShift.getNumOccurrences() ||
       RowStopShift.getNumOccurrences()))
    return reportError(
        "--save-prefix, --block-shift and --row-stop-shift apply to --convert");
  Expected<TablePair> Pair = Convert ? convertInMemory() : openPair();
  if (!Pair)
    return reportError(Pair.takeError());
  TablePair &P = *Pair;
  auto Ref = gsym::GsymReader::create(P.Ref->getMemBufferRef());
  if (!Ref)
    return reportError(createFileError(P.RefName, Ref.takeError()));
  const FileFormat *F = identifyFormat(P.Other->getBuffer());
  if (!F || !F->hasAddresses())
    return reportError("'" + P.OtherName + "': not a file with addresses");
  auto Other =
      F->Open(MemoryBuffer::getMemBuffer(P.Other->getMemBufferRef(), false),
              openOptions());
  if (!Other)
    return reportError(createFileError(P.OtherName, Other.takeError()));

  Comparison C(**Ref, **Other);
  if (Sizes)
    if (Error E = printSizes(P, C.G, C.O))
      return reportError(std::move(E));
  if (!Random || AllAddresses)
    if (Error E = compareFunctions(C, P.RefName, AllAddresses))
      return reportError(std::move(E));
  if (Random && C.G.getNumAddresses()) {
    std::vector<uint64_t> Addrs = randomAddresses(C.G, Random);
    for (uint64_t A : Addrs)
      C.check(A);
    timeReaders(C, Addrs);
  }
  outs() << C.Compared << " addresses compared, " << C.Differences
         << " differences\n";
  return C.Differences ? 1 : 0;
}

static CommandRegistration RegisterCompare(CompareSub, runCompare,
                                           CompareSubDetails);
