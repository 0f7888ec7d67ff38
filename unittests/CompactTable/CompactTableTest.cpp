//===- CompactTableTest.cpp - Tests of the compact address table ----------===//
//
// The oracle is the GSYM writer and reader: for models built by hand (and
// random ones), every address must get the same answer from both files.
// Damaged files must give errors, never crashes.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/AddressTable/FunctionNames.h"
#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <random>
#include <thread>

using namespace llvm;
using namespace dwarfpack;

namespace {

std::string describe(Expected<LookupResult> R) {
  if (!R) {
    if (getenv("COMPACT_TEST_VERBOSE"))
      errs() << toString(R.takeError()) << '\n';
    else
      consumeError(R.takeError());
    return "error";
  }
  std::string S;
  raw_string_ostream OS(S);
  for (const SourceFrame &F : R->Frames)
    OS << F.FunctionName << '@' << F.FileName << ':' << F.Line << '/'
       << F.StartAddress << ';';
  return S;
}

/// Every member of the frames, for comparisons.
std::string describeViews(ArrayRef<FrameView> Frames) {
  std::string S;
  raw_string_ostream OS(S);
  for (const FrameView &F : Frames)
    OS << F.FunctionName << '@' << F.FileName << ':' << F.Line << ':'
       << F.Column << '/' << F.Discriminator << " decl " << F.StartFileName
       << ':' << F.StartLine << " start " << F.StartAddress << ' '
       << F.HasStartAddress << " short " << F.ShortName << ' ' << F.HasShortName
       << " dwarf " << F.DwarfName << ' ' << F.HasDwarfName << ' '
       << F.HasDwarfStart << " symbol file " << F.SymbolFileName << " size "
       << F.Size.value_or(0) << ' ' << F.Size.has_value() << " module "
       << F.Module << ' ' << int(F.SymbolType) << ';';
  return S;
}

/// lookupViews answers as lookup() does, without the copies.
void expectViewsAsLookup(const compact::CompactReader &R, uint64_t A) {
  Expected<LookupResult> L = R.lookup(A);
  FrameViews V;
  Error E = R.lookupViews(A, V);
  ASSERT_EQ(bool(L), !E) << "address 0x" << utohexstr(A);
  if (!L) {
    EXPECT_EQ(toString(L.takeError()), toString(std::move(E)));
    return;
  }
  SmallVector<FrameView, 8> Want(L->Frames.begin(), L->Frames.end());
  EXPECT_EQ(describeViews(V.Frames), describeViews(Want))
      << "address 0x" << utohexstr(A);
  EXPECT_EQ(V.HasDetails, L->HasDetails);
}

/// The nodes of F's inline tree on the path to Address, the root first:
/// at each level the first child with a range holding it.
std::vector<const InlineNode *> inlinePath(const FunctionEntry &F,
                                           uint64_t Address) {
  std::vector<const InlineNode *> Path;
  for (const InlineNode *N = F.Inline ? &*F.Inline : nullptr; N;) {
    Path.push_back(N);
    const InlineNode *Next = nullptr;
    for (const InlineNode &C : N->Children)
      if (llvm::any_of(C.Ranges, [&](const AddressRange &R) {
            return R.contains(Address);
          })) {
        Next = &C;
        break;
      }
    N = Next;
  }
  return Path;
}

/// Whether the path to Address in M's inline trees passes a call without a
/// call file, which a compact table makes a frame of and GSYM's readers
/// leave out (the one place where the two answer differently).
bool callWithoutFileAt(const FunctionModel &M, uint64_t Address) {
  for (const FunctionEntry &F : M.functions()) {
    if (!F.Range.contains(Address))
      continue;
    std::vector<const InlineNode *> Path = inlinePath(F, Address);
    if (Path.size() > 1 &&
        llvm::any_of(llvm::drop_begin(Path),
                     [](const InlineNode *N) { return !N->CallFile; }))
      return true;
  }
  return false;
}

/// Encodes M both ways and compares lookups over [Lo, Hi), but for calls
/// without a call file (callWithoutFileAt).
/// Every address of a lookup's span (FrameViews::SameFrom and SameTo)
/// answers what the lookup answered, with the same span; a lookup that
/// finds nothing has an empty span. Each span is walked once.
/// (lookupViews asks for spans; a FrameBuffer of one's own does not.)
void expectSpansAnswerAlike(const compact::CompactReader &R, uint64_t Lo,
                            uint64_t Hi) {
  FrameViews V, W;
  for (uint64_t A = Lo; A < Hi;) {
    if (Error E = R.lookupViews(A, V)) {
      consumeError(std::move(E));
      ++A;
      continue;
    }
    if (V.Frames.empty()) {
      EXPECT_EQ(V.SameFrom, V.SameTo) << "address 0x" << utohexstr(A);
      ++A;
      continue;
    }
    ASSERT_TRUE(V.answersSame(A)) << "address 0x" << utohexstr(A);
    // A buffer not asked for more gives the address alone.
    compact::FrameBuffer Alone;
    ASSERT_FALSE(bool(R.lookupFrames(A, Alone)));
    EXPECT_EQ(Alone.sameFrom(), A);
    EXPECT_EQ(Alone.sameTo(), A + 1);
    const std::string Want = describeViews(V.Frames);
    const uint64_t From = V.SameFrom, To = V.SameTo;
    for (uint64_t B = std::max(From, Lo); B < std::min(To, Hi); ++B) {
      ASSERT_FALSE(bool(R.lookupViews(B, W)));
      ASSERT_EQ(describeViews(W.Frames), Want)
          << "address 0x" << utohexstr(B) << " in the span of 0x"
          << utohexstr(A);
      ASSERT_EQ(W.SameFrom, From) << "address 0x" << utohexstr(B);
      ASSERT_EQ(W.SameTo, To) << "address 0x" << utohexstr(B);
    }
    A = std::min(To, Hi);
  }
}

void expectSameAnswers(
    const FunctionModel &M, uint64_t Lo, uint64_t Hi, unsigned BlockShift = 4,
    bool Details = true,
    unsigned RowStopShift = compact::WriteOptions().RowStopShift) {
  Expected<std::string> G = gsym::encodeGsym(M);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  compact::WriteOptions WO;
  WO.BlockShift = BlockShift;
  WO.Details = Details;
  WO.RowStopShift = RowStopShift;
  Expected<std::string> C = compact::encodeCompact(M, nullptr, WO);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  auto GR = gsym::GsymReader::create(MemoryBufferRef(*G, "g"));
  ASSERT_TRUE(bool(GR)) << toString(GR.takeError());
  auto CR = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(CR)) << toString(CR.takeError());
  for (uint64_t A = Lo; A < Hi; ++A) {
    expectViewsAsLookup(**CR, A);
    // There the compact answer has the call's frame too, which
    // DetailsAreWhatTheModelSays checks.
    if (callWithoutFileAt(M, A))
      continue;
    ASSERT_EQ(describe((*GR)->lookup(A)), describe((*CR)->lookup(A)))
        << "address 0x" << utohexstr(A);
  }
  expectSpansAnswerAlike(**CR, Lo, Hi);
  std::string Dump;
  raw_string_ostream OS(Dump);
  EXPECT_FALSE(bool(compact::dumpCompact(**CR, OS)));
}

/// Finalizes M and opens its compact table, whose bytes Bytes keeps; null
/// (with a test failure) when either step fails.
std::unique_ptr<compact::CompactReader> finalizeAndOpen(FunctionModel &M,
                                                        std::string &Bytes) {
  WarningLog Log;
  M.finalize(Log);
  Expected<std::string> C = compact::encodeCompact(M);
  if (!C) {
    ADD_FAILURE() << toString(C.takeError());
    return nullptr;
  }
  Bytes = std::move(*C);
  auto R = compact::CompactReader::create(MemoryBufferRef(Bytes, "c"));
  if (!R) {
    ADD_FAILURE() << toString(R.takeError());
    return nullptr;
  }
  return std::move(*R);
}

/// A model with what real inputs have: several files (more than the line
/// decoder's file history holds), file switches, big line jumps, nested and
/// multi-range inline calls, a function without lines, a row without a
/// file, an explicitly stored inline root, a first row after the start.
/// With Details, what llvm-symbolizer prints besides: columns (some rows
/// differ only there), discriminators, declarations, call columns and
/// discriminators, start addresses (none, the first range's, another).
void buildModel(FunctionModel &M, bool Reverse = false, bool Details = false) {
  M.BaseAddress = 0x1000;
  M.UUID = {1, 2, 3, 4};
  M.LoadSegments = {{0, 0, 0x800}, {0x800, 0x1000, 0x4000}};
  std::vector<FileId> Files;
  for (int I = 0; I < 40; ++I)
    Files.push_back(M.addFile("/src/dir" + std::to_string(I % 3),
                              "file" + std::to_string(I) + ".c"));
  FileId Empty = M.addFile("", "");
  std::vector<FunctionEntry> Fs;
  uint64_t Addr = 0x1000;
  for (int I = 0; I < 37; ++I) {
    FunctionEntry F;
    F.Name = M.saveString("func_" + std::to_string(I % 30) + "_x");
    uint64_t Size = 40 + (I * 7) % 90;
    F.Range = {Addr, Addr + Size};
    if (I % 5 != 3) {
      uint64_t A = Addr + (I % 7 == 6 ? 3 : 0);
      uint32_t Line = 10 + I * 13;
      for (int R = 0; A < Addr + Size; ++R) {
        FileId File = Files[(I + (R % 4 == 3 ? R * 5 : 0)) % Files.size()];
        if (I == 8 && R == 2)
          File = Empty;
        if (I == 9 && R == 1)
          File = 0;
        LineEntry Row{A, File, Line};
        if (Details) {
          Row.Column = uint16_t((R * 7 + I) % 23 == 0 ? 65535 : R % 9);
          Row.Discriminator = R % 5 == 1 ? uint32_t(R * 3) : 0;
          // Same line, other column: a row of its own.
          if (R % 6 == 2 && !F.Lines.empty() &&
              F.Lines.back().Address + 1 < A) {
            LineEntry Before = F.Lines.back();
            Before.Address = A - 1;
            Before.Column = uint16_t(Before.Column + 40);
            F.Lines.push_back(Before);
          }
        }
        F.Lines.push_back(Row);
        A += 1 + (R * 3 + I) % 11;
        Line = R % 6 == 5 ? Line + 3000 : R % 7 == 4 ? Line - 5 : Line + 1;
      }
    }
    if (Details && I % 4 != 1)
      F.Decl = {Files[(I * 3) % Files.size()], uint32_t(I % 4 == 2 ? 0 : I)};
    if (I % 3 == 0) {
      InlineNode Root;
      Root.Ranges = {F.Range};
      Root.Name = F.Name;
      Root.Decl = F.Decl;
      InlineNode A;
      A.Ranges = {{Addr + 4, Addr + 20}};
      A.Name = M.saveString("inlined_a");
      A.CallFile = Files[I % 40];
      A.CallLine = 100 + I;
      InlineNode B;
      B.Ranges = {{Addr + 6, Addr + 9}, {Addr + 12, Addr + 18}};
      B.Name = M.saveString("inlined_b_" + std::to_string(I % 4));
      B.CallFile = Files[(I + 1) % 40];
      B.CallLine = 7;
      if (Details) {
        A.CallColumn = 3 + I;
        A.Decl = {Files[(I + 5) % Files.size()], 40};
        A.LowPC = A.Ranges.front().Start;
        B.CallColumn = 70000;
        B.CallDiscriminator = I % 2 ? 9 : 0;
        B.Decl = {0, 12};
        B.LowPC = Addr + 2; // before its first range, as after a slice
      }
      A.Children.push_back(B);
      Root.Children.push_back(A);
      InlineNode C;
      C.Ranges = {{Addr + 24, Addr + 30}};
      C.Name = M.saveString("inlined_c");
      C.CallFile = I == 6 ? Empty : Files[I % 40];
      C.CallLine = 90 + I;
      Root.Children.push_back(C);
      if (I == 12) {
        // A root that is not the function itself is stored explicitly.
        Root.Ranges = {{Addr, Addr + 32}};
        Root.CallLine = 5;
      }
      F.Inline = std::move(Root);
    }
    Fs.push_back(std::move(F));
    Addr += Size + (I % 4 == 0 ? 16 : 0);
  }
  if (Reverse)
    std::reverse(Fs.begin(), Fs.end());
  for (FunctionEntry &F : Fs)
    M.addFunction(std::move(F));
  WarningLog Log;
  M.finalize(Log);
}

TEST(CompactTable, SameAnswersAsGsym) {
  FunctionModel M;
  buildModel(M);
  uint64_t End = M.functions().back().Range.End;
  for (unsigned Shift : {0u, 1u, 2u, 4u, 8u})
    expectSameAnswers(M, 0xf00, End + 0x20, Shift);
}

/// Rows that step by 19 bytes and 4 lines back, by 1 byte and 8 lines on,
/// and by 1 byte on the same line: only the special-opcode window of line
/// deltas -4 to 8 codes all three in one byte, and it is the window the
/// writer tries first. The records then take the rows as that trial coded
/// them, where other windows code them again: either way, lookups answer as
/// GSYM's (more than a chunk of 1,024 functions, with details and without,
/// some with row stops).
TEST(CompactTable, RowsCodedUnderTheTriedWindow) {
  FunctionModel M;
  M.BaseAddress = 0x1000;
  FileId Files[] = {M.addFile("/src", "a.c"), M.addFile("/src", "b.h")};
  uint64_t Addr = 0x1000;
  for (int I = 0; I < 1100; ++I) {
    FunctionEntry F;
    F.Name = M.saveString("f" + std::to_string(I));
    uint64_t A = Addr;
    uint32_t Line = 100 + I;
    // Every tenth function is long enough for row stops: their index
    // holds the column codes' offsets, which a trial coding must know.
    for (int R = 0; R < (I % 10 ? 6 : 70); ++R) {
      LineEntry Row{A, Files[R == 4 && I % 3 == 0], Line};
      Row.Column = uint16_t(R);
      F.Lines.push_back(Row);
      A += R % 3 == 0 ? 19 : 1;
      Line = R % 3 == 0 ? Line - 4 : R % 3 == 1 ? Line + 8 : Line;
    }
    F.Range = {Addr, A + 2};
    Addr = A + 2;
    M.addFunction(std::move(F));
  }
  WarningLog Log;
  M.finalize(Log);
  for (bool Details : {true, false}) {
    compact::WriteOptions WO;
    WO.Details = Details;
    Expected<std::string> C = compact::encodeCompact(M, nullptr, WO);
    ASSERT_TRUE(bool(C)) << toString(C.takeError());
    auto CR = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
    ASSERT_TRUE(bool(CR)) << toString(CR.takeError());
    EXPECT_EQ((*CR)->header().LineBase, -4);
    EXPECT_EQ((*CR)->header().LineRange, 13u);
    EXPECT_TRUE((*CR)->header().Flags & compact::RowStops);
    expectSameAnswers(M, 0x1000, Addr + 4, 4, Details);
  }
}

/// The frames llvm-symbolizer prints at Address, from the model itself
/// (what a table with details must answer), described as describeAll does.
std::string modelFrames(const FunctionModel &M, uint64_t Address) {
  auto It = llvm::partition_point(M.functions(), [&](const FunctionEntry &F) {
    return F.Range.End <= Address;
  });
  if (It == M.functions().end() || !It->Range.contains(Address))
    return "";
  const FunctionEntry &F = *It;
  auto Path = [&](FileId Id) {
    const FileEntry &E = M.file(Id);
    return E.Dir.empty() ? E.Base.str() : (E.Dir + "/" + E.Base).str();
  };
  struct Frame {
    std::string Name, File, DeclFile;
    uint32_t Line = 0, Column = 0, Disc = 0, DeclLine = 0;
    std::optional<uint64_t> Start;
  };
  Frame Top;
  Top.Name = F.Name.empty() ? "??" : F.Name.str();
  Top.DeclFile = Path(F.Decl.File);
  Top.DeclLine = F.Decl.Line;
  Top.Start = F.Range.Start;
  if (F.Lines.empty())
    return "";
  auto Row = std::prev(
      llvm::upper_bound(F.Lines, Address, [](uint64_t A, const LineEntry &L) {
        return A < L.Address;
      }));
  if (Row->File == 0)
    return ""; // GSYM's error, which both formats give
  Top.File = Path(Row->File);
  Top.Line = Row->Line;
  Top.Column = Row->Column;
  Top.Disc = Row->Discriminator;
  std::vector<Frame> Frames{Top};
  std::vector<const InlineNode *> Chain = inlinePath(F, Address);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const InlineNode &N = **It;
    // The root without a call file is the function itself; any other node
    // is a call, with a file or not (DWARF 2: its caller at no file).
    if (!N.CallFile && &N == Chain.front())
      continue;
    Frame Caller = Frames.back();
    Caller.File = Path(N.CallFile);
    Caller.Line = N.CallLine;
    Caller.Column = N.CallColumn;
    Caller.Disc = N.CallDiscriminator;
    Frame &Callee = Frames.back();
    Callee.Name = N.Name.str();
    Callee.DeclFile = Path(N.Decl.File);
    Callee.DeclLine = N.Decl.Line;
    Callee.Start = N.LowPC;
    Frames.push_back(Caller);
  }
  std::string S;
  for (const Frame &Fr : Frames)
    S += Fr.Name + "@" + Fr.File + ":" + std::to_string(Fr.Line) + ":" +
         std::to_string(Fr.Column) + "/" + std::to_string(Fr.Disc) + " decl " +
         Fr.DeclFile + ":" + std::to_string(Fr.DeclLine) + " start " +
         (Fr.Start ? utohexstr(*Fr.Start) : std::string("none")) + ";";
  return S;
}

/// Every field of a lookup, as modelFrames describes them.
std::string describeAll(Expected<LookupResult> R) {
  if (!R) {
    consumeError(R.takeError());
    return "error";
  }
  std::string S;
  for (const SourceFrame &F : R->Frames)
    S += F.FunctionName + "@" + F.FileName + ":" + std::to_string(F.Line) +
         ":" + std::to_string(F.Column) + "/" +
         std::to_string(F.Discriminator) + " decl " + F.StartFileName + ":" +
         std::to_string(F.StartLine) + " start " +
         (F.HasStartAddress ? utohexstr(F.StartAddress) : std::string("none")) +
         ";";
  return S;
}

TEST(CompactTable, DetailsAreWhatTheModelSays) {
  FunctionModel M;
  buildModel(M, /*Reverse=*/false, /*Details=*/true);
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  auto R = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE((*R)->hasDetails());
  EXPECT_FALSE((*R)->columnCode().empty());
  unsigned Compared = 0;
  for (uint64_t A = 0xff0; A < M.functions().back().Range.End + 8; ++A) {
    std::string Want = modelFrames(M, A);
    if (Want.empty())
      continue; // not found, or GSYM's no-line-table error
    ++Compared;
    ASSERT_EQ(describeAll((*R)->lookup(A)), Want) << "0x" << utohexstr(A);
    expectViewsAsLookup(**R, A);
  }
  EXPECT_GT(Compared, 1000u);
  std::string Dump;
  raw_string_ostream OS(Dump);
  EXPECT_FALSE(bool(compact::dumpCompact(**R, OS)));
  EXPECT_NE(Dump.find(" discriminator 9 decl "), std::string::npos);
}

TEST(CompactTable, CodeBeforeTheFirstRowWhenEveryRowHasAColumn) {
  // The row written for code before a function's first line row has column
  // 0; no row of the model has: the column code must still have one for it
  // (a kernel module's table crashed the writer).
  FunctionModel M;
  FunctionEntry F;
  F.Name = M.saveString("f");
  F.Range = {0x100, 0x200};
  LineEntry L;
  L.Address = 0x110;
  L.Line = 7;
  L.Column = 5;
  F.Lines = {L};
  F.LinesFrom = 0x110; // the rows start there, not at the function
  M.addFunction(std::move(F));
  std::string Bytes;
  auto R = finalizeAndOpen(M, Bytes);
  ASSERT_TRUE(R);
  Expected<LookupResult> Before = R->lookup(0x104);
  Expected<LookupResult> At = R->lookup(0x110);
  ASSERT_TRUE(Before && At);
  ASSERT_EQ(Before->Frames.size(), 1u);
  EXPECT_EQ(Before->Frames[0].Line, 0u);
  EXPECT_EQ(Before->Frames[0].Column, 0u);
  ASSERT_EQ(At->Frames.size(), 1u);
  EXPECT_EQ(At->Frames[0].Line, 7u);
  EXPECT_EQ(At->Frames[0].Column, 5u);
}

TEST(CompactTable, WithoutDetailsAnswersAsGsym) {
  // Rows that differ only in column or discriminator are merged, every
  // detail is dropped, and GSYM's answers (which have none) come out.
  FunctionModel M;
  buildModel(M, /*Reverse=*/false, /*Details=*/true);
  uint64_t End = M.functions().back().Range.End;
  expectSameAnswers(M, 0xf00, End + 0x20, 4, /*Details=*/false);
  compact::WriteOptions Plain;
  Plain.Details = false;
  compact::WriteStats WithStats, PlainStats;
  Expected<std::string> A = compact::encodeCompact(M, &WithStats);
  Expected<std::string> B = compact::encodeCompact(M, &PlainStats, Plain);
  ASSERT_TRUE(A && B);
  EXPECT_LT(B->size(), A->size());
  EXPECT_LT(PlainStats.LineRows, WithStats.LineRows);
  EXPECT_EQ(PlainStats.ColumnBytes, 0u);
  auto R = compact::CompactReader::create(MemoryBufferRef(*B, "b"));
  ASSERT_TRUE(bool(R));
  EXPECT_FALSE((*R)->hasDetails());
}

TEST(CompactTable, ModelWithoutDetailsIsWrittenWithout) {
  FunctionModel M;
  buildModel(M);
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C));
  auto R = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(R));
  EXPECT_FALSE((*R)->hasDetails());
}

TEST(CompactTable, FrameBufferAcrossReadersAndThreads) {
  // Two tables whose names differ at the same name offsets: a buffer used
  // with one and then the other must not answer with the first's names.
  FunctionModel A, B;
  buildModel(A, false, true);
  buildModel(B, false, true);
  for (FunctionEntry &F : B.functions()) {
    F.Name = B.saveString(F.Name.str() + "_b");
    if (F.Inline)
      F.Inline->Name = F.Name;
  }
  Expected<std::string> CA = compact::encodeCompact(A);
  Expected<std::string> CB = compact::encodeCompact(B);
  ASSERT_TRUE(CA && CB);
  auto RA = compact::CompactReader::create(MemoryBufferRef(*CA, "a"));
  auto RB = compact::CompactReader::create(MemoryBufferRef(*CB, "b"));
  ASSERT_TRUE(RA && RB);
  const uint64_t Addr = A.functions().front().Range.Start;
  compact::FrameBuffer Buf;
  ASSERT_FALSE(bool((*RA)->lookupFrames(Addr, Buf)));
  ASSERT_FALSE(Buf.frames().empty());
  EXPECT_FALSE(Buf.frames().back().Name.ends_with("_b"));
  ASSERT_FALSE(bool((*RB)->lookupFrames(Addr, Buf)));
  ASSERT_FALSE(Buf.frames().empty());
  EXPECT_TRUE(Buf.frames().back().Name.ends_with("_b"));

  // lookup() keeps each thread's expanded names from one call to the next:
  // a reader made where a destroyed one was must not answer with the other
  // one's names.
  for (int I = 0; I < 8; ++I) {
    auto R =
        compact::CompactReader::create(MemoryBufferRef(I % 2 ? *CB : *CA, "x"));
    ASSERT_TRUE(bool(R));
    Expected<LookupResult> L = (*R)->lookup(Addr);
    ASSERT_TRUE(L && !L->Frames.empty());
    EXPECT_EQ(StringRef(L->Frames.back().FunctionName).ends_with("_b"),
              I % 2 == 1);
  }

  // One reader, several threads, a buffer each: the same answers as
  // lookup() (the first lookups race to build the function index).
  const compact::CompactReader &R = **RA;
  const uint64_t End = A.functions().back().Range.End;
  std::vector<std::string> Want;
  for (uint64_t X = 0xff0; X < End; ++X)
    Want.push_back(describeAll(R.lookup(X)));
  auto RC = compact::CompactReader::create(MemoryBufferRef(*CA, "a"));
  ASSERT_TRUE(bool(RC));
  std::vector<std::thread> Threads;
  std::atomic<unsigned> Differences{0};
  for (unsigned T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      compact::FrameBuffer Mine;
      for (uint64_t X = 0xff0 + T; X < End; X += 3) {
        Expected<LookupResult> L = (*RC)->lookup(X);
        if (describeAll(std::move(L)) != Want[X - 0xff0])
          ++Differences;
        if (Error E = (*RC)->lookupFrames(X, Mine))
          consumeError(std::move(E));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Differences, 0u);
}

TEST(CompactTable, SymbolAndDwarfNamesOfManyFunctions) {
  // Each lookup expands two new name entries (the symbol's and the DWARF
  // name's) into the buffer's cache: at some lookups the cache grows while
  // the second one is added, and the first one's declaration must still
  // be read right (under ASan: no use of the cache's old storage).
  FunctionModel M;
  const FileId File = M.addFilePath("/src/app.c");
  const FileId DeclFile = M.addFilePath("/src/decl.h");
  const unsigned N = 3000;
  for (unsigned I = 0; I < N; ++I) {
    FunctionEntry F;
    F.Range = {0x1000 + 16 * I, 0x1000 + 16 * I + 16};
    F.Name = M.saveString("sym_" + std::to_string(I));
    F.FromDwarf = true;
    F.DwarfName = M.saveString("fn_" + std::to_string(I));
    F.ShortName = F.DwarfName;
    F.Decl = {DeclFile, 100 + I};
    F.Lines.push_back({F.Range.Start, File, 10 + I, 3, 0});
    M.addFunction(std::move(F));
  }
  std::string Bytes;
  auto R = finalizeAndOpen(M, Bytes);
  ASSERT_TRUE(R);
  compact::FrameBuffer Buf;
  for (unsigned I = 0; I < N; ++I) {
    ASSERT_FALSE(bool(R->lookupFrames(0x1000 + 16 * I + 4, Buf)));
    ASSERT_EQ(Buf.frames().size(), 1u);
    const compact::FrameRef &F = Buf.frames()[0];
    ASSERT_EQ(F.Name, "sym_" + std::to_string(I));
    ASSERT_TRUE(F.HasDwarfName);
    ASSERT_EQ(F.DwarfName, "fn_" + std::to_string(I));
    ASSERT_EQ(F.DeclLine, 100 + I);
    ASSERT_EQ(F.DeclBase, "decl.h") << I;
    ASSERT_EQ(F.Line, 10 + I);
  }
  // Listed by name: the symbols' names, and apart the DWARF names.
  std::vector<std::pair<uint64_t, std::string>> Names, DwarfNames;
  ASSERT_FALSE(bool(R->forEachFunction([&](uint64_t Start, StringRef Name) {
    Names.push_back({Start, Name.str()});
  })));
  ASSERT_FALSE(bool(R->forEachDwarfName([&](uint64_t Start, StringRef Name) {
    DwarfNames.push_back({Start, Name.str()});
  })));
  ASSERT_EQ(Names.size(), N);
  ASSERT_EQ(DwarfNames.size(), N);
  for (unsigned I = 0; I < N; ++I) {
    EXPECT_EQ(Names[I], std::make_pair(uint64_t(0x1000 + 16 * I),
                                       "sym_" + std::to_string(I)));
    EXPECT_EQ(DwarfNames[I], std::make_pair(uint64_t(0x1000 + 16 * I),
                                            "fn_" + std::to_string(I)));
  }
}

TEST(CompactTable, Deterministic) {
  FunctionModel A, B;
  buildModel(A);
  buildModel(B, /*Reverse=*/true);
  Expected<std::string> EA = compact::encodeCompact(A);
  Expected<std::string> EB = compact::encodeCompact(B);
  ASSERT_TRUE(EA && EB);
  EXPECT_EQ(*EA, *EB);
}

/// Every figure of the statistics, to compare them.
std::vector<uint64_t> statsFigures(const compact::WriteStats &S) {
  return {S.Functions,    S.LineRows,     S.InlineNodes, S.Names,
          S.Paths,        S.Files,        S.Bytes,       S.HeaderBytes,
          S.AddressBytes, S.FramingBytes, S.LineBytes,   S.ColumnBytes,
          S.InlineBytes,  S.NameBytes,    S.PathBytes};
}

/// Functions f<I> for the threads' tests, with details, inlined calls and
/// names that derive their short names (C and mangled names) or record
/// them: 12 chunks of 1,024, more than the 8 the writer's 2 threads run
/// ahead of the chunk appended.
/// Functions in BrokenRows have rows out of order, those in BrokenInline
/// an inlined call without a range (named broken<I>).
void buildThreadsModel(FunctionModel &M, ArrayRef<size_t> BrokenRows = {},
                       ArrayRef<size_t> BrokenInline = {}) {
  FileId File = M.addFile("/src", "f.c");
  for (size_t I = 0; I < 12000; ++I) {
    FunctionEntry F;
    std::string Name = "f" + std::to_string(I);
    if (I % 3 == 0) {
      F.Name = M.saveString(Name); // its own short name
      F.ShortName = F.Name;
    } else if (I % 3 == 1) {
      F.Name = M.saveString("_ZN2ns" + std::to_string(Name.size()) + Name +
                            "Ev"); // derives ns::f<I>() to f<I>
      F.ShortName = M.saveString(Name);
    } else {
      F.Name = M.saveString("ns::" + Name + "(int)"); // does not derive g
      F.ShortName = M.saveString("g" + std::to_string(I % 7));
    }
    F.FromDwarf = true;
    uint64_t A = 0x1000 + I * 0x40;
    F.Range = {A, A + 0x40};
    F.LowPC = A;
    F.Decl = {File, uint32_t(I % 13)};
    F.Lines = {{A, File, uint32_t(I % 97 + 1)},
               {A + 8, File, uint32_t(I % 89 + 3)}};
    F.Lines[1].Column = uint16_t(I % 5);
    if (llvm::is_contained(BrokenRows, I))
      F.Lines.push_back({A + 4, File, 1}); // not ascending
    if (I % 2 == 0) {
      InlineNode Root;
      Root.Ranges = {F.Range};
      Root.Name = F.Name;
      Root.ShortName = F.ShortName;
      Root.Decl = F.Decl;
      InlineNode Call;
      Call.Ranges = {{A + 8, A + 0x10}};
      Call.Name = M.saveString("_ZN2ns4inl" + std::to_string(I % 5) + "Ev");
      Call.ShortName = M.saveString(I % 4 ? "inl" + std::to_string(I % 5)
                                          : std::string("other"));
      Call.CallFile = File;
      Call.CallLine = uint32_t(I % 50);
      if (llvm::is_contained(BrokenInline, I)) {
        Call.Ranges.clear();
        Call.Name = M.saveString("broken" + std::to_string(I));
      }
      Root.Children.push_back(std::move(Call));
      F.Inline = std::move(Root);
    }
    M.addFunction(std::move(F));
  }
  // Not finalized: that would sort the broken rows. The functions are
  // added in order.
}

TEST(CompactTable, ThreadsGiveTheSameBytesStatsAndFirstError) {
  // Rows and records are coded in chunks on other threads, and appended
  // (statistics too) in function order.
  FunctionModel Good;
  buildThreadsModel(Good);
  compact::WriteStats S1, S2, S4;
  compact::WriteOptions One, Two, Four;
  Two.Threads = 2;
  Four.Threads = 4;
  Expected<std::string> E1 = compact::encodeCompact(Good, &S1, One);
  Expected<std::string> E2 = compact::encodeCompact(Good, &S2, Two);
  Expected<std::string> E4 = compact::encodeCompact(Good, &S4, Four);
  ASSERT_TRUE(E1 && E2 && E4);
  EXPECT_EQ(*E1, *E2);
  EXPECT_EQ(*E1, *E4);
  EXPECT_EQ(statsFigures(S1), statsFigures(S2));
  EXPECT_EQ(statsFigures(S1), statsFigures(S4));
  // Every chunk's figures, not just one's.
  EXPECT_EQ(S4.LineRows, 2 * 12000u);
  EXPECT_EQ(S4.InlineNodes, 6000u);
  EXPECT_GE(S4.FramingBytes, 12000u);
  EXPECT_GT(S4.ColumnBytes, 0u);
  EXPECT_LT(S4.HeaderBytes, 1000u);

  // Names whose short names derive, and those whose do not, answer with
  // the model's short names.
  auto R = compact::CompactReader::create(MemoryBufferRef(*E4, "c"));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  auto ShortName = [](const compact::FrameRef &Fr) {
    return Fr.HasShortName ? Fr.ShortName.str() : shortFunctionName(Fr.Name);
  };
  compact::FrameBuffer Buf;
  for (size_t I : {0u, 1u, 2u, 4u, 10u, 5000u, 7001u, 11999u}) {
    const FunctionEntry &F = Good.functions()[I];
    ASSERT_FALSE(bool((*R)->lookupFrames(F.Range.Start + 9, Buf)));
    ArrayRef<compact::FrameRef> Frames = Buf.frames();
    ASSERT_EQ(Frames.size(), I % 2 ? 1u : 2u) << I;
    EXPECT_EQ(Frames.back().Name, F.Name) << I;
    EXPECT_EQ(Frames.back().HasShortName, I % 3 == 2) << I;
    EXPECT_EQ(ShortName(Frames.back()), F.ShortName) << I;
    if (I % 2 == 0) {
      EXPECT_EQ(Frames[0].HasShortName, I % 4 == 0) << I;
      EXPECT_EQ(ShortName(Frames[0]), F.Inline->Children[0].ShortName) << I;
    }
  }

  // The error of the first function in order, from the rows or the
  // records.
  FunctionModel BadRows, BadInline;
  buildThreadsModel(BadRows, {10100, 1500, 3000});
  buildThreadsModel(BadInline, {}, {10100, 1502, 3000, 8000});
  Expected<std::string> B = compact::encodeCompact(BadRows, nullptr, Four);
  ASSERT_FALSE(bool(B));
  EXPECT_NE(toString(B.takeError()).find("f1500"), std::string::npos);
  for (const compact::WriteOptions &O : {One, Two, Four}) {
    B = compact::encodeCompact(BadInline, nullptr, O);
    ASSERT_FALSE(bool(B));
    EXPECT_NE(toString(B.takeError()).find("'broken1502'"), std::string::npos);
  }
}

TEST(CompactTable, RandomModels) {
  std::mt19937 Gen(7);
  for (int Round = 0; Round < 20; ++Round) {
    FunctionModel M;
    std::vector<FileId> Files;
    for (int I = 0; I < 1 + int(Gen() % 50); ++I)
      Files.push_back(M.addFile("/d" + std::to_string(Gen() % 4),
                                "f" + std::to_string(I) + ".h"));
    uint64_t Addr = 0x400000 + Gen() % 100;
    for (int I = 0; I < 1 + int(Gen() % 60); ++I) {
      FunctionEntry F;
      F.Name = M.saveString("n_" + std::to_string(Gen() % 20));
      uint64_t Size = 1 + Gen() % 200;
      F.Range = {Addr, Addr + Size};
      uint64_t A = Addr;
      uint32_t Line = Gen() % 5000;
      while (Gen() % 4 && A < Addr + Size) {
        F.Lines.push_back({A, Files[Gen() % Files.size()], Line});
        A += Gen() % 40;
        Line += int(Gen() % 300) - 150;
      }
      Addr += Size + Gen() % 3 * 8;
      M.addFunction(std::move(F));
    }
    WarningLog Log;
    M.finalize(Log);
    expectSameAnswers(M, 0x400000, Addr + 4, Gen() % 5);
  }
}

/// Functions of long line tables: rows that switch among more files than
/// the file history holds, jump lines back and forth, and (with details)
/// carry columns and discriminators.
void buildLongTables(FunctionModel &M, std::mt19937 &Gen) {
  std::vector<FileId> Files;
  for (int I = 0; I < 40; ++I)
    Files.push_back(M.addFile("/src", "f" + std::to_string(I) + ".h"));
  uint64_t Addr = 0x10000;
  for (int I = 0; I < 6; ++I) {
    FunctionEntry F;
    F.Name = M.saveString("long" + std::to_string(I));
    const int Rows = 1 + int(Gen() % 300);
    uint64_t A = Addr;
    uint32_t Line = 100;
    for (int R = 0; R < Rows; ++R) {
      LineEntry L{A, Files[Gen() % 3 ? Gen() % 3 : Gen() % Files.size()], Line};
      L.Column = uint16_t(Gen() % 4 ? Gen() % 30 : 0);
      L.Discriminator = Gen() % 8 == 0 ? 1 + Gen() % 5 : 0;
      F.Lines.push_back(L);
      A += 1 + Gen() % 12;
      Line += int(Gen() % 40) - 20;
    }
    F.Range = {Addr, A + 4};
    Addr = A + 16;
    M.addFunction(std::move(F));
  }
}

// Row stops change no answer, at any interval, with details or without.
TEST(CompactTable, RowStopsChangeNoAnswer) {
  std::mt19937 Gen(5);
  for (int Round = 0; Round < 4; ++Round) {
    FunctionModel M;
    buildLongTables(M, Gen);
    WarningLog Log;
    M.finalize(Log);
    const uint64_t Hi = M.functions().back().Range.End + 4;
    for (unsigned Shift : {0u, 1u, 2u, 5u, 16u})
      for (bool Details : {true, false})
        expectSameAnswers(M, 0xfff0, Hi, 4, Details, Shift);
  }
}

TEST(CompactTable, RowStopShiftIsChecked) {
  std::mt19937 Gen(6);
  FunctionModel M;
  buildLongTables(M, Gen);
  WarningLog Log;
  M.finalize(Log);
  compact::WriteOptions WO;
  WO.RowStopShift = 17;
  Expected<std::string> E = compact::encodeCompact(M, nullptr, WO);
  ASSERT_FALSE(bool(E));
  EXPECT_EQ(toString(E.takeError()), "row stop shift not in 1..16");
}

TEST(CompactTable, RejectsMalformedModels) {
  FunctionModel M;
  FunctionEntry F;
  F.Name = M.saveString("f");
  F.Range = {0x100, 0x200};
  F.Lines = {{0x110, 0, 1}, {0x108, 0, 2}}; // not ascending
  M.addFunction(F);
  Expected<std::string> E = compact::encodeCompact(M);
  ASSERT_FALSE(bool(E));
  EXPECT_NE(toString(E.takeError()).find("not ascending"), std::string::npos);

  FunctionModel M2;
  F.Lines.clear();
  InlineNode Root;
  Root.Ranges = {F.Range};
  Root.Name = F.Name;
  InlineNode Child;
  Child.Ranges = {{0x1f0, 0x210}}; // leaves the parent
  Child.Name = M2.saveString("g");
  Root.Children.push_back(Child);
  F.Inline = Root;
  M2.addFunction(F);
  Expected<std::string> E2 = compact::encodeCompact(M2);
  ASSERT_FALSE(bool(E2));
  EXPECT_NE(toString(E2.takeError()).find("not contained"), std::string::npos);
}

/// Opens Bytes and exercises every reader entry point; must not crash.
void exercise(const std::string &Bytes, uint64_t Lo, uint64_t Hi) {
  auto R = compact::CompactReader::create(MemoryBufferRef(Bytes, "m"));
  if (!R) {
    consumeError(R.takeError());
    return;
  }
  FrameViews V;
  for (uint64_t A = Lo; A < Hi; A += 7) {
    describe((*R)->lookup(A));
    consumeError((*R)->lookupViews(A, V));
  }
  std::string Dump;
  raw_string_ostream OS(Dump);
  consumeError(compact::dumpCompact(**R, OS));
}

TEST(CompactTable, DamagedBytesNeverCrash) {
  for (bool Details : {false, true}) {
    FunctionModel M;
    buildModel(M, /*Reverse=*/false, Details);
    Expected<std::string> C = compact::encodeCompact(M);
    ASSERT_TRUE(bool(C));
    const uint64_t Lo = 0xff0, Hi = M.functions().back().Range.End + 8;
    // Every truncation.
    for (size_t Len = 0; Len < C->size(); Len += 1 + Len / 64)
      exercise(C->substr(0, Len), Lo, Hi);
    // Every byte, changed to a few values.
    for (size_t I = 0; I < C->size(); ++I)
      for (uint8_t V :
           {uint8_t(0), uint8_t(0xff), uint8_t(0x80), uint8_t((*C)[I] ^ 1)}) {
        std::string D = *C;
        D[I] = char(V);
        exercise(D, Lo, Hi);
      }
  }
}

// The same with row stops every other row: a damaged index, stop row or
// shift is an error or another answer, never a read out of bounds.
TEST(CompactTable, DamagedRowStopsNeverCrash) {
  std::mt19937 Gen(8);
  FunctionModel M;
  buildLongTables(M, Gen);
  WarningLog Log;
  M.finalize(Log);
  // Two functions keep the table small: every byte is changed.
  std::vector<FunctionEntry> Two(M.functions().begin(),
                                 M.functions().begin() + 2);
  FunctionModel Small;
  for (int I = 0; I < 40; ++I)
    Small.addFile("/src", "f" + std::to_string(I) + ".h");
  for (FunctionEntry &F : Two) {
    F.Name = Small.saveString(F.Name);
    Small.addFunction(std::move(F));
  }
  Small.finalize(Log);
  compact::WriteOptions WO;
  WO.RowStopShift = 1;
  Expected<std::string> C = compact::encodeCompact(Small, nullptr, WO);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  const uint64_t Lo = 0xfff0, Hi = Small.functions().back().Range.End + 8;
  for (size_t I = 0; I < C->size(); ++I)
    for (uint8_t V : {uint8_t(0), uint8_t(0xff), uint8_t((*C)[I] ^ 1)}) {
      std::string D = *C;
      D[I] = char(V);
      exercise(D, Lo, Hi);
    }
}

// Paths and files are expanded at open; a path list that does not decode
// must still open and make the lookups that need it fail, as before.
TEST(CompactTable, DamagedPathListFailsLookups) {
  FunctionModel M;
  buildModel(M);
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C));
  auto Good = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(Good)) << toString(Good.takeError());
  auto [Off, Size] = (*Good)->section(compact::SecPaths);
  const uint64_t FirstFunction = M.functions().front().Range.Start;
  EXPECT_NE(describe((*Good)->lookup(FirstFunction)), "error");
  // Keep the sparse index (checked at open), spoil the entries.
  uint32_t IndexSize = ((uint64_t((*Good)->header().NumPaths) +
                         (1u << compact::ListIndexShift) - 1) >>
                        compact::ListIndexShift) *
                       4;
  std::string Bad = *C;
  for (uint32_t I = std::min<uint32_t>(IndexSize, Size); I < Size; ++I)
    Bad[Off + I] = char(0xff);
  auto R = compact::CompactReader::create(MemoryBufferRef(Bad, "bad"));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  Expected<LookupResult> L = (*R)->lookup(FirstFunction);
  ASSERT_FALSE(bool(L));
  EXPECT_NE(toString(L.takeError()).find("corrupt path list"),
            std::string::npos);
  FrameViews V;
  Error E = (*R)->lookupViews(FirstFunction, V);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("corrupt path list"),
            std::string::npos);
}

// A short name entry can stand for a huge name (one long token repeated):
// the reader refuses to expand more than 16 MiB instead of allocating
// whatever a hostile file asks for.
TEST(CompactTable, HugeNameExpansionIsRefused) {
  FunctionModel M;
  M.BaseAddress = 0x1000;
  std::string Word(64 * 1024, 'w'), Name = Word;
  for (int I = 0; I < 300; ++I)
    Name += "_" + Word;
  FunctionEntry F;
  F.Range = {0x1000, 0x1010};
  F.Name = M.saveString(Name);
  M.addFunction(std::move(F));
  WarningLog Log;
  M.finalize(Log);
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_LT(C->size(), 200u * 1024); // one token, 301 references
  auto R = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  Expected<LookupResult> L = (*R)->lookup(0x1000);
  ASSERT_FALSE(bool(L));
  EXPECT_NE(toString(L.takeError()).find("expands to more than 16 MiB"),
            std::string::npos);
}

// File offsets resolve through the recorded segments, at their edges too;
// a table without segments says so rather than guessing.
TEST(CompactTable, LoadSegments) {
  FunctionModel M;
  buildModel(M);
  M.LoadSegments = {{0x10, 0x400010, 0x100}, {0x200, 0x601000, 0x8}};
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  auto R = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ((*R)->loadSegments(), ArrayRef<LoadSegment>(M.LoadSegments));
  auto At = [&](uint64_t Off) -> std::string {
    Expected<std::optional<uint64_t>> A = (*R)->fileOffsetToAddress(Off);
    if (!A)
      return toString(A.takeError());
    return *A ? utohexstr(**A) : "none";
  };
  EXPECT_EQ(At(0xf), "none");
  EXPECT_EQ(At(0x10), "400010");
  EXPECT_EQ(At(0x10f), "40010F");
  EXPECT_EQ(At(0x110), "none");
  EXPECT_EQ(At(0x1ff), "none");
  EXPECT_EQ(At(0x200), "601000");
  EXPECT_EQ(At(0x207), "601007");
  EXPECT_EQ(At(0x208), "none");
  EXPECT_EQ(At(UINT64_MAX), "none");

  M.LoadSegments.clear();
  C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C));
  R = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  ASSERT_TRUE(bool(R));
  EXPECT_NE(At(0x10).find("records no load segments"), std::string::npos);

  // The writer refuses segments a reader would refuse.
  M.LoadSegments = {{0x100, 0, 0x10}, {0x108, 0x1000, 0x10}};
  Expected<std::string> Bad = compact::encodeCompact(M);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("overlaps"), std::string::npos);
}

TEST(CompactTable, HeaderErrors) {
  FunctionModel M;
  buildModel(M);
  Expected<std::string> C = compact::encodeCompact(M);
  ASSERT_TRUE(bool(C));
  auto Open = [](std::string Bytes) {
    auto R = compact::CompactReader::create(MemoryBufferRef(Bytes, "m"));
    return R ? std::string("ok") : toString(R.takeError());
  };
  EXPECT_EQ(Open(*C), "ok");
  EXPECT_TRUE(compact::CompactReader::isCompact(*C));
  EXPECT_FALSE(gsym::GsymReader::isGsym(*C));
  std::string Bad = *C;
  Bad[0] = 'X';
  EXPECT_NE(Open(Bad).find("bad magic"), std::string::npos);
  Bad = *C;
  Bad[25] = 0; // line range
  EXPECT_EQ(Open(Bad), "invalid line range 0");
  Bad = *C;
  Bad[20] ^= 1; // block count
  EXPECT_NE(Open(Bad).find("does not match"), std::string::npos);
  EXPECT_NE(Open(C->substr(0, 100)).find("too small"), std::string::npos);
}

} // namespace
