//===- BreakpadParserTest.cpp - Breakpad .sym parser ----------------------===//

#include "dwarfpack/Breakpad/BreakpadParser.h"

#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace dwarfpack;
using namespace llvm;

namespace {

/// Interns like the model, without depending on its implementation.
class TestSink : public BreakpadSink {
public:
  StringRef saveString(StringRef S) override { return Saver.save(S); }
  FileId addFilePath(StringRef Path) override {
    for (size_t I = 0; I < Paths.size(); ++I)
      if (Paths[I] == Path)
        return FileId(I + 1);
    Paths.push_back(Path.str());
    return FileId(Paths.size());
  }
  std::string path(FileId Id) const { return Id ? Paths[Id - 1] : ""; }

  BumpPtrAllocator Alloc;
  UniqueStringSaver Saver{Alloc};
  std::vector<std::string> Paths;
};

struct Parsed {
  TestSink Sink;
  WarningLog Log;
  BreakpadSymbols Syms;
  std::string Error;
};

std::unique_ptr<Parsed> parse(StringRef Text) {
  auto P = std::make_unique<Parsed>();
  Expected<BreakpadSymbols> S = parseBreakpad(Text, "t.sym", P->Sink, P->Log);
  if (S)
    P->Syms = std::move(*S);
  else
    P->Error = toString(S.takeError());
  return P;
}

const FunctionEntry *find(const Parsed &P, uint64_t Start) {
  for (const FunctionEntry &F : P.Syms.Functions)
    if (F.Range.Start == Start)
      return &F;
  return nullptr;
}

std::string firstExample(const WarningLog &Log, StringRef Kind) {
  for (const auto &S : Log.summary())
    if (S.Kind == Kind && !S.Examples.empty())
      return S.Examples[0];
  return "";
}

TEST(BreakpadParserTest, Detection) {
  EXPECT_TRUE(looksLikeBreakpad("MODULE Linux x86_64 0 a\n"));
  EXPECT_FALSE(looksLikeBreakpad("\x7f"
                                 "ELF"));
  EXPECT_FALSE(looksLikeBreakpad("FILE 0 a\nMODULE Linux x86_64 0 a\n"));
}

TEST(BreakpadParserTest, FunctionsLinesPublicsAndModule) {
  auto P =
      parse("MODULE Linux x86_64 B334ACDE67454BA8DA6B660A6264ABBF0 my prog\n"
            "INFO CODE_ID DEAC34B34567A84BDA6B660A6264ABBFDE3E9B99 my prog\n"
            "INFO GENERATOR something\n"
            "FILE 0 /src/a dir/a.c\n"
            "FILE 3 /src/b.c\r\n"
            "FUNC m 1000 30 0 operator()(int, char) const\n"
            "1000 4 10 0\n"
            "1004 4 10 0\n"
            "1010 8 12 3\r\n"
            "FUNC 1030 10 4 g\n"
            "PUBLIC m 2000 0 pub one\n"
            "PUBLIC 2100 0 pub_two\n"
            "STACK CFI INIT 1000 30 .cfa: $rsp 8 +\n"
            "STACK CFI 1001 .cfa: $rsp 16 +\n"
            "STACK WIN 4 1000 30 0 0 0 0 0 0 1 $eip\n");
  ASSERT_EQ(P->Error, "");
  EXPECT_EQ(P->Log.total(), 0u);
  const BreakpadModuleInfo &M = P->Syms.Module;
  EXPECT_EQ(M.OS, "Linux");
  EXPECT_EQ(M.Arch, "x86_64");
  EXPECT_EQ(M.Name, "my prog");
  EXPECT_EQ(M.CodeId, "DEAC34B34567A84BDA6B660A6264ABBFDE3E9B99");
  ASSERT_EQ(M.UUID.size(), 20u);
  EXPECT_EQ(M.UUID[0], 0xde);
  EXPECT_EQ(M.UUID[19], 0x99);
  EXPECT_EQ(P->Syms.Stats.StackRecords, 3u);
  EXPECT_EQ(P->Syms.Stats.InfoSkipped, 1u);

  // Code no line record covers becomes name-only entries (GSYM readers
  // refuse rows without a file); equal contiguous rows merge.
  ASSERT_EQ(P->Syms.Functions.size(), 7u);
  const std::vector<FunctionEntry> &Fs = P->Syms.Functions;
  const FunctionEntry &F = Fs[0];
  EXPECT_EQ(F.Name, "operator()(int, char) const");
  EXPECT_EQ(F.Range, (AddressRange{0x1000, 0x1008}));
  ASSERT_EQ(F.Lines.size(), 1u);
  EXPECT_EQ(F.Lines[0], (LineEntry{0x1000, 1, 10}));
  EXPECT_EQ(P->Sink.path(1), "/src/a dir/a.c");
  EXPECT_EQ(P->Sink.path(2), "/src/b.c");
  EXPECT_FALSE(F.Inline.has_value());
  EXPECT_EQ(Fs[1].Range, (AddressRange{0x1008, 0x1010}));
  EXPECT_EQ(Fs[1].Name, F.Name);
  EXPECT_FALSE(Fs[1].hasDebugInfo());
  EXPECT_EQ(Fs[2].Range, (AddressRange{0x1010, 0x1018}));
  ASSERT_EQ(Fs[2].Lines.size(), 1u);
  EXPECT_EQ(Fs[2].Lines[0], (LineEntry{0x1010, 2, 12}));
  EXPECT_EQ(Fs[3].Range, (AddressRange{0x1018, 0x1030}));
  EXPECT_FALSE(Fs[3].hasDebugInfo());

  const FunctionEntry &G = P->Syms.Functions[4];
  EXPECT_EQ(G.Name, "g");
  EXPECT_TRUE(G.Lines.empty());
  // PUBLIC: up to the next PUBLIC; the last one has no size.
  const FunctionEntry &P1 = P->Syms.Functions[5];
  EXPECT_EQ(P1.Name, "pub one");
  EXPECT_EQ(P1.Range.Start, 0x2000u);
  EXPECT_EQ(P1.Range.End, 0x2100u);
  EXPECT_FALSE(P1.hasDebugInfo());
  const FunctionEntry &P2 = P->Syms.Functions[6];
  EXPECT_EQ(P2.Name, "pub_two");
  EXPECT_EQ(P2.Range.size(), 1u);
}

TEST(BreakpadParserTest, UUIDFromModuleId) {
  auto P = parse("MODULE Linux x86_64 B334ACDE67454BA8DA6B660A6264ABBF0 m\n"
                 "PUBLIC 10 0 f\n");
  ASSERT_EQ(P->Error, "");
  SmallVector<uint8_t, 20> Want = {0xde, 0xac, 0x34, 0xb3, 0x45, 0x67,
                                   0xa8, 0x4b, 0xda, 0x6b, 0x66, 0x0a,
                                   0x62, 0x64, 0xab, 0xbf};
  EXPECT_EQ(P->Syms.Module.UUID, Want);
  // A CODE_ID that is not hex is rejected; the MODULE id stands in.
  auto Q = parse("MODULE Linux x86_64 B334ACDE67454BA8DA6B660A6264ABBF0 m\n"
                 "INFO CODE_ID XYZ\n"
                 "PUBLIC 10 0 f\n");
  ASSERT_EQ(Q->Error, "");
  EXPECT_EQ(Q->Log.count("breakpad-bad-record"), 1u);
  EXPECT_EQ(Q->Syms.Module.UUID, Want);
  // Other systems: digits in order.
  SmallVector<uint8_t, 20> Mac = {0xb3, 0x34, 0xac, 0xde};
  EXPECT_EQ(uuidFromBreakpadModuleId("mac", "B334ACDE"), Mac);
  EXPECT_TRUE(uuidFromBreakpadModuleId("Linux", "xyz").empty());
}

TEST(BreakpadParserTest, PublicSizedByNextFuncAndShadowedByFunc) {
  auto P = parse("MODULE Linux x86_64 0 m\n"
                 "FUNC 1000 10 0 f\n"
                 "PUBLIC 800 0 before\n"
                 "PUBLIC 1004 0 inside\n"
                 "PUBLIC 0 0 zero\n");
  ASSERT_EQ(P->Error, "");
  ASSERT_EQ(P->Syms.Functions.size(), 2u);
  EXPECT_EQ(P->Syms.Functions[0].Name, "before");
  EXPECT_EQ(P->Syms.Functions[0].Range.End, 0x1000u);
  EXPECT_EQ(P->Syms.Functions[1].Name, "f");
  EXPECT_EQ(P->Syms.Stats.PublicsInFunctions, 1u);
  EXPECT_EQ(P->Syms.Stats.PublicsAtZero, 1u);
}

TEST(BreakpadParserTest, SplitFunctionStaysSeveralEntries) {
  auto P = parse("MODULE Linux x86_64 0 m\n"
                 "FILE 0 a.c\n"
                 "FUNC 1000 10 0 f\n"
                 "1000 10 1 0\n"
                 "FUNC 3000 8 0 f\n"
                 "3000 8 9 0\n");
  ASSERT_EQ(P->Error, "");
  ASSERT_EQ(P->Syms.Functions.size(), 2u);
  EXPECT_EQ(P->Syms.Functions[0].Name, "f");
  EXPECT_EQ(P->Syms.Functions[1].Name, "f");
  EXPECT_EQ(P->Syms.Functions[1].Lines[0].Line, 9u);
}

TEST(BreakpadParserTest, InlineTreeCurrentForm) {
  auto P = parse("MODULE Linux x86_64 0 m\n"
                 "FILE 0 a.c\n"
                 "FILE 1 b.h\n"
                 "INLINE_ORIGIN 0 outer inl\n"
                 "INLINE_ORIGIN 1 inner\n"
                 "INLINE_ORIGIN 2 other\n"
                 "FUNC 1000 100 0 f\n"
                 "INLINE 0 20 0 0 1040 10 1010 10\n"
                 "INLINE 1 30 1 1 1018 4\n"
                 "INLINE 2 31 -1 2 1019 1\n"
                 "INLINE 0 22 0 2 1000 8\n"
                 "1000 100 5 0\n");
  ASSERT_EQ(P->Error, "");
  EXPECT_EQ(P->Log.total(), 0u);
  const FunctionEntry *F = find(*P, 0x1000);
  ASSERT_TRUE(F && F->Inline);
  const InlineNode &Root = *F->Inline;
  EXPECT_EQ(Root.Name, "f");
  ASSERT_EQ(Root.Ranges.size(), 1u);
  EXPECT_EQ(Root.Ranges[0], (AddressRange{0x1000, 0x1100}));
  ASSERT_EQ(Root.Children.size(), 2u);
  // Children sorted by start.
  EXPECT_EQ(Root.Children[0].Name, "other");
  EXPECT_EQ(Root.Children[0].CallLine, 22u);
  const InlineNode &O = Root.Children[1];
  EXPECT_EQ(O.Name, "outer inl");
  ASSERT_EQ(O.Ranges.size(), 2u);
  EXPECT_EQ(O.Ranges[0], (AddressRange{0x1010, 0x1020}));
  EXPECT_EQ(O.Ranges[1], (AddressRange{0x1040, 0x1050}));
  EXPECT_EQ(P->Sink.path(O.CallFile), "a.c");
  EXPECT_EQ(O.CallLine, 20u);
  ASSERT_EQ(O.Children.size(), 1u);
  const InlineNode &I = O.Children[0];
  EXPECT_EQ(I.Name, "inner");
  EXPECT_EQ(P->Sink.path(I.CallFile), "b.h");
  ASSERT_EQ(I.Children.size(), 1u);
  EXPECT_EQ(P->Sink.path(I.Children[0].CallFile), "??"); // -1: no file
  EXPECT_EQ(I.Children[0].CallLine, 31u);
  EXPECT_EQ(P->Syms.Stats.Inlines, 4u);
}

TEST(BreakpadParserTest, InlineOlderForms) {
  auto P = parse("MODULE Linux x86_64 0 m\n"
                 "FILE 0 a.c\n"
                 "FILE 1 b.h\n"
                 "INLINE_ORIGIN 0 1 outer\n"
                 "INLINE_ORIGIN 1 -1 inner fn\n"
                 "FUNC 1000 100 0 f\n"
                 "INLINE 0 20 0 1010 10\n"
                 "INLINE 1 30 1 1018 4\n"
                 "1000 100 5 0\n");
  ASSERT_EQ(P->Error, "");
  EXPECT_EQ(P->Log.total(), 0u);
  const FunctionEntry *F = find(*P, 0x1000);
  ASSERT_TRUE(F && F->Inline);
  const InlineNode &O = F->Inline->Children[0];
  EXPECT_EQ(O.Name, "outer");
  // Depth 0: the function's own file (its first line record).
  EXPECT_EQ(P->Sink.path(O.CallFile), "a.c");
  const InlineNode &I = O.Children[0];
  EXPECT_EQ(I.Name, "inner fn");
  // Deeper: the declaration file of the parent's origin.
  EXPECT_EQ(P->Sink.path(I.CallFile), "b.h");
  EXPECT_EQ(I.CallLine, 30u);
}

TEST(BreakpadParserTest, BadRecordsAreRejectedOneByOne) {
  auto P = parse("MODULE Linux x86_64 0 m\n"     // 1
                 "FILE 0 a.c\n"                  // 2
                 "INLINE_ORIGIN 0 o\n"           // 3
                 "1000 4 1 0\n"                  // 4 no FUNC
                 "FUNC 1000 40 0 f\n"            // 5
                 "1000 4 1 0\n"                  // 6
                 "1010 4 2 0\n"                  // 7
                 "1008 4 3 0\n"                  // 8 order
                 "1020 4 3 7\n"                  // 9 file
                 "10zz 4 3 0\n"                  // 10 hex
                 "1024 4\n"                      // 11 trunc
                 "1030 40 3 0\n"                 // 12 outside
                 "INLINE 0 1 0 9 1000 4\n"       // 13 origin
                 "INLINE 0 1 0 0 2000 4\n"       // 14 outside
                 "INLINE 1 1 0 0 1000 4\n"       // 15 depth
                 "INLINE 0 1 0 0 1000 8\n"       // 16 ok
                 "INLINE 2 1 0 0 1000 2\n"       // 17 depth
                 "INLINE 0 1 0 0 1004 8\n"       // 18 overlap
                 "FUNC 1020 10 0 overlapping\n"  // 19
                 "FUNC 2000 10 0 bad\xff name\n" // 20
                 "2000 4 1 0\n"                  // 21 dropped
                 "FUNC 3000 zz 0 h\n"            // 22
                 "WHAT is this\n"                // 23
                 "PUBLIC 4000 0 p\n"             // 24
                 "PUBLIC 4000 0 q\n"             // 25
                 "MODULE Linux x86_64 0 again\n" // 26
                 "FUNC 5000 10 0 last\n"         // 27
                 "5000 4 1");                    // 28 trunc
  ASSERT_EQ(P->Error, "");
  const WarningLog &L = P->Log;
  EXPECT_EQ(L.count("breakpad-no-function"), 1u);
  EXPECT_EQ(L.count("breakpad-out-of-order"), 1u);
  EXPECT_EQ(L.count("breakpad-unknown-file"), 1u);
  EXPECT_EQ(L.count("breakpad-outside-function"), 1u);
  EXPECT_EQ(L.count("breakpad-unknown-origin"), 1u);
  EXPECT_EQ(L.count("breakpad-inline-outside"), 1u);
  EXPECT_EQ(L.count("breakpad-inline-depth"), 2u);
  EXPECT_EQ(L.count("breakpad-inline-overlap"), 1u);
  EXPECT_EQ(L.count("breakpad-overlapping-func"), 1u);
  EXPECT_EQ(L.count("breakpad-bad-utf8"), 1u);
  EXPECT_EQ(L.count("breakpad-unknown-record"), 1u);
  EXPECT_EQ(L.count("breakpad-duplicate-public"), 1u);
  // 10zz, 1024 4, FUNC zz, second MODULE, trailing 5000 4 1.
  EXPECT_EQ(L.count("breakpad-bad-record"), 5u);
  EXPECT_EQ(P->Syms.Stats.Rejected, L.total());
  EXPECT_EQ(P->Syms.Stats.DroppedWithFunction, 1u); // line 21
  EXPECT_EQ(firstExample(L, "breakpad-out-of-order").substr(0, 8), "t.sym:8:");
  EXPECT_EQ(firstExample(L, "breakpad-overlapping-func").substr(0, 9),
            "t.sym:19:");

  const FunctionEntry *F = find(*P, 0x1000);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Name, "f");
  ASSERT_TRUE(F->Inline);
  EXPECT_EQ(F->Inline->Children.size(), 1u);
  EXPECT_TRUE(find(*P, 0x4000));
  EXPECT_EQ(find(*P, 0x4000)->Name, "p");
  EXPECT_TRUE(find(*P, 0x5000));
  EXPECT_FALSE(find(*P, 0x1020));
  EXPECT_FALSE(find(*P, 0x2000));
}

TEST(BreakpadParserTest, EmptyRangesAreIgnoredQuietly) {
  // dump_syms writes INLINE records (nested ones too) with size-0 ranges.
  auto P = parse("MODULE Linux x86_64 0 m\n"
                 "FILE 0 a.c\n"
                 "INLINE_ORIGIN 0 o\n"
                 "FUNC 1000 0 0 empty\n"
                 "FUNC 2000 10 0 f\n"
                 "INLINE 0 1 0 0 2004 0\n"
                 "INLINE 1 2 0 0 2004 0\n"
                 "INLINE 0 3 0 0 2008 4 200c 0\n"
                 "2000 0 1 0\n"
                 "2000 10 2 0\n");
  ASSERT_EQ(P->Error, "");
  EXPECT_EQ(P->Log.total(), 0u);
  EXPECT_EQ(P->Syms.Stats.EmptyRanges, 5u);
  EXPECT_EQ(P->Syms.Stats.EmptyInlines, 2u);
  EXPECT_EQ(P->Syms.Stats.Inlines, 1u);
  ASSERT_EQ(P->Syms.Functions.size(), 1u);
  const FunctionEntry &F = P->Syms.Functions[0];
  ASSERT_EQ(F.Lines.size(), 1u);
  EXPECT_EQ(F.Lines[0].Line, 2u);
  ASSERT_TRUE(F.Inline);
  ASSERT_EQ(F.Inline->Children.size(), 1u);
  EXPECT_EQ(F.Inline->Children[0].CallLine, 3u);
  EXPECT_EQ(F.Inline->Children[0].Ranges.size(), 1u);
}

TEST(BreakpadParserTest, FatalErrors) {
  auto A = parse("FILE 0 a.c\nFUNC 1000 10 0 f\n");
  EXPECT_NE(A->Error.find("no MODULE"), std::string::npos) << A->Error;
  auto B = parse("MODULE Linux x86_64 0 m\nFILE 0 a.c\nFUNC 1000 0 0 f\n");
  EXPECT_NE(B->Error.find("no usable"), std::string::npos) << B->Error;
  auto C = parse("MODULE Linux\n");
  EXPECT_NE(C->Error.find("malformed MODULE"), std::string::npos) << C->Error;
}

} // namespace

namespace {

/// Mutated inputs (bytes changed, lines cut, records duplicated) must
/// parse or fail cleanly, and what they produce must obey the model's
/// contract: sorted disjoint entries, rows ascending inside their entry,
/// inline ranges inside their parents.
void checkContract(const InlineNode &N) {
  for (size_t I = 0; I < N.Ranges.size(); ++I) {
    EXPECT_LT(N.Ranges[I].Start, N.Ranges[I].End);
    if (I) {
      EXPECT_LE(N.Ranges[I - 1].End, N.Ranges[I].Start);
    }
  }
  for (const InlineNode &C : N.Children) {
    for (const AddressRange &R : C.Ranges)
      EXPECT_TRUE(llvm::any_of(
          N.Ranges, [&](const AddressRange &P) { return P.contains(R); }));
    checkContract(C);
  }
}

TEST(BreakpadParserTest, MutatedInputsKeepTheContract) {
  const std::string Base = "MODULE Linux x86_64 0 m\n"
                           "FILE 0 /a.c\n"
                           "FILE 1 /b.h\n"
                           "INLINE_ORIGIN 0 o\n"
                           "INLINE_ORIGIN 1 1 p\n"
                           "FUNC m 1000 40 0 f\n"
                           "INLINE 0 3 1 0 1004 8 1010 4\n"
                           "INLINE 1 4 0 1 1006 2\n"
                           "INLINE 0 5 1 1018 4\n"
                           "1000 10 1 0\n"
                           "1010 8 2 1\n"
                           "1020 20 3 0\n"
                           "PUBLIC 2000 0 p\n"
                           "FUNC 3000 10 0 g\n"
                           "3000 10 9 1\n"
                           "STACK CFI INIT 1000 40 .cfa: $rsp 8 +\n";
  uint32_t Seed = 12345;
  auto Rand = [&](uint32_t N) {
    Seed = Seed * 1103515245u + 12345u;
    return (Seed >> 8) % N;
  };
  const char Alphabet[] = "0123456789abcdefFINLEUCM -\n\r\xff";
  unsigned Parsed = 0, WithInline = 0;
  for (int Round = 0; Round < 3000; ++Round) {
    std::string S = Base;
    unsigned Edits = 1 + Rand(4);
    for (unsigned E = 0; E < Edits && !S.empty(); ++E) {
      size_t At = Rand(S.size());
      switch (Rand(4)) {
      case 0:
        S[At] = Alphabet[Rand(sizeof(Alphabet) - 1)];
        break;
      case 1:
        S.erase(At, 1 + Rand(8));
        break;
      case 2:
        S.resize(At);
        break;
      default: {
        size_t L = S.rfind('\n', At);
        L = L == std::string::npos ? 0 : L + 1;
        size_t R = S.find('\n', At);
        if (R != std::string::npos)
          S.insert(R + 1, S.substr(L, R + 1 - L));
      }
      }
    }
    auto P = parse(S);
    if (!P->Error.empty())
      continue;
    const std::vector<FunctionEntry> &Fs = P->Syms.Functions;
    ASSERT_FALSE(Fs.empty());
    ++Parsed;
    for (size_t I = 0; I < Fs.size(); ++I) {
      const FunctionEntry &F = Fs[I];
      EXPECT_LT(F.Range.Start, F.Range.End) << S;
      if (I) {
        EXPECT_LE(Fs[I - 1].Range.End, F.Range.Start) << S;
      }
      for (size_t J = 0; J < F.Lines.size(); ++J) {
        EXPECT_TRUE(F.Range.contains(F.Lines[J].Address)) << S;
        if (J) {
          EXPECT_LT(F.Lines[J - 1].Address, F.Lines[J].Address) << S;
        }
        EXPECT_NE(F.Lines[J].File, 0u) << S;
      }
      if (!F.Lines.empty()) {
        EXPECT_EQ(F.Lines[0].Address, F.Range.Start) << S;
      }
      if (F.Inline) {
        ++WithInline;
        EXPECT_TRUE(F.Inline->Ranges.size() == 1 &&
                    F.Range.contains(F.Inline->Ranges[0]))
            << S;
        checkContract(*F.Inline);
      }
    }
  }
  // Most mutations leave a usable file: the checks above did run.
  EXPECT_GT(Parsed, 2000u);
  EXPECT_GT(WithInline, 1000u);
}

} // namespace
