//===- FunctionModelTest.cpp - finalize() rules ---------------------------===//

#include "dwarfpack/AddressTable/FunctionModel.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace dwarfpack;

namespace {

FunctionEntry sym(uint64_t Start, uint64_t End, llvm::StringRef Name) {
  FunctionEntry F;
  F.Range = {Start, End};
  F.Name = Name;
  return F;
}

FunctionEntry dwarf(uint64_t Start, uint64_t End, llvm::StringRef Name,
                    FileId File,
                    std::vector<std::pair<uint64_t, uint32_t>> Rows) {
  FunctionEntry F = sym(Start, End, Name);
  for (auto [A, L] : Rows)
    F.Lines.push_back({A, File, L});
  return F;
}

std::vector<std::pair<AddressRange, std::string>>
ranges(const FunctionModel &M) {
  std::vector<std::pair<AddressRange, std::string>> R;
  for (const FunctionEntry &F : M.functions())
    R.push_back({F.Range, F.Name.str()});
  return R;
}

using Ranges = std::vector<std::pair<AddressRange, std::string>>;

TEST(FunctionModel, ZeroSizeSymbolsReachNextStartOrSectionEnd) {
  FunctionModel M;
  M.ExecutableRanges = {{0x1000, 0x1100}, {0x2000, 0x2040}};
  M.addFunction(sym(0x1000, 0x1000, "a")); // to b
  M.addFunction(sym(0x1010, 0x1020, "b"));
  M.addFunction(sym(0x1030, 0x1030, "c"));    // last in its section: to 0x1100
  M.addFunction(sym(0x2000, 0x2000, "d"));    // to e, same start skipped
  M.addFunction(sym(0x2000, 0x2000, "d2"));   // alias of d (same range)
  M.addFunction(sym(0x2008, 0x2008, "e"));    // to the end of 0x2000 section
  M.addFunction(sym(0x9000, 0x9000, "lost")); // no section, no successor
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M), (Ranges{{{0x1000, 0x1010}, "a"},
                               {{0x1010, 0x1020}, "b"},
                               {{0x1030, 0x1100}, "c"},
                               {{0x2000, 0x2008}, "d"},
                               {{0x2008, 0x2040}, "e"}}));
  EXPECT_EQ(Log.count("zero-size-dropped"), 1u);
}

TEST(FunctionModel, DebugInfoWinsEqualRangeAndTakesSymbolName) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c");
  M.addFunction(sym(0x10, 0x20, "foo.part.0"));
  M.addFunction(dwarf(0x10, 0x20, "foo", F, {{0x10, 3}, {0x14, 4}}));
  WarningLog Log;
  M.finalize(Log);
  ASSERT_EQ(M.functions().size(), 1u);
  const FunctionEntry &E = M.functions()[0];
  EXPECT_EQ(E.Name, "foo.part.0");
  EXPECT_EQ(E.Lines.size(), 2u);
  EXPECT_EQ(Log.total(), 0u);
}

TEST(FunctionModel, EqualDebugRangesKeepSmallerNameAndWarn) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c");
  M.addFunction(dwarf(0x10, 0x20, "zeta", F, {{0x10, 7}}));
  M.addFunction(dwarf(0x10, 0x20, "alpha", F, {{0x10, 9}}));
  // An identical copy (same function from two units) is dropped silently.
  M.addFunction(dwarf(0x30, 0x40, "same", F, {{0x30, 1}}));
  M.addFunction(dwarf(0x30, 0x40, "same", F, {{0x30, 1}}));
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M),
            (Ranges{{{0x10, 0x20}, "alpha"}, {{0x30, 0x40}, "same"}}));
  EXPECT_EQ(M.functions()[0].Lines[0].Line, 9u);
  EXPECT_EQ(Log.count("duplicate-range"), 1u);
}

TEST(FunctionModel, EqualDebugRangesKeepTheEarliestUnit) {
  // Two units describe one COMDAT copy: the earlier unit's description
  // wins over the one that sorts first by content, whatever the order of
  // insertion; a symbol for the range does not count.
  for (bool Reversed : {false, true}) {
    FunctionModel M;
    FileId F = M.addFile("/src", "a.h");
    FunctionEntry Kept = dwarf(0x10, 0x20, "f", F, {{0x10, 9}, {0x18, 0}});
    Kept.InputOrder = 3;
    FunctionEntry Discarded = dwarf(0x10, 0x20, "f", F, {{0x10, 9}});
    Discarded.InputOrder = 7;
    M.addFunction(sym(0x10, 0x20, "f"));
    M.addFunction(Reversed ? Discarded : Kept);
    M.addFunction(Reversed ? Kept : Discarded);
    WarningLog Log;
    M.finalize(Log);
    ASSERT_EQ(M.functions().size(), 1u);
    EXPECT_EQ(M.functions()[0].Lines.size(), 2u);
    EXPECT_EQ(Log.total(), 0u);
  }
}

TEST(FunctionModel, NestedDebugEntryOwnsItsRangeOuterKeepsTheRest) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c");
  M.addFunction(dwarf(0x100, 0x200, "outer", F,
                      {{0x100, 1}, {0x110, 2}, {0x150, 3}, {0x180, 4}}));
  M.addFunction(dwarf(0x120, 0x160, "inner", F, {{0x120, 50}}));
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M), (Ranges{{{0x100, 0x120}, "outer"},
                               {{0x120, 0x160}, "inner"},
                               {{0x160, 0x200}, "outer"}}));
  // The piece after inner starts with the row in effect at 0x160 (line 3).
  const auto &After = M.functions()[2].Lines;
  ASSERT_EQ(After.size(), 2u);
  EXPECT_EQ(After[0].Address, 0x160u);
  EXPECT_EQ(After[0].Line, 3u);
  EXPECT_EQ(After[1].Address, 0x180u);
  EXPECT_EQ(Log.count("overlapping-functions"), 1u);
}

TEST(FunctionModel, SymbolsOnlyFillGapsBetweenDebugEntries) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c");
  M.addFunction(sym(0x0, 0x100, "big_asm"));
  M.addFunction(dwarf(0x20, 0x40, "c_func", F, {{0x20, 5}}));
  M.addFunction(sym(0x50, 0x58, "label")); // inner symbol wins from 0x50
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M), (Ranges{{{0x0, 0x20}, "big_asm"},
                               {{0x20, 0x40}, "c_func"},
                               {{0x40, 0x50}, "big_asm"},
                               {{0x50, 0x58}, "label"},
                               {{0x58, 0x100}, "big_asm"}}));
  EXPECT_EQ(Log.total(), 0u);
}

TEST(FunctionModel, SymbolsInsideDebugEntriesNameTheCodeAfterThem) {
  // An assembly function with DWARF (gas makes subprograms for function
  // symbols) and a global label inside it, as in kernel entry code.
  FunctionModel M;
  M.ExecutableRanges = {{0x0, 0x1000}};
  FileId F = M.addFile("/src", "entry.S");
  M.addFunction(sym(0x100, 0x180, "entry_asm"));
  M.addFunction(sym(0x140, 0x140, "entry_after_frame")); // NOTYPE, no size
  M.addFunction(sym(0x180, 0x190, "next_fn"));
  M.addFunction(dwarf(0x100, 0x180, "entry_asm", F,
                      {{0x100, 10}, {0x130, 20}, {0x150, 30}}));
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M), (Ranges{{{0x100, 0x140}, "entry_asm"},
                               {{0x140, 0x180}, "entry_after_frame"},
                               {{0x180, 0x190}, "next_fn"}}));
  // The label's piece keeps the line rows: the row of 0x130 moved to 0x140.
  const auto &L = M.functions()[1].Lines;
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].Address, 0x140u);
  EXPECT_EQ(L[0].Line, 20u);
  EXPECT_EQ(L[1].Line, 30u);
}

TEST(FunctionModel, LineOnlyCodeGoesToCoveringSymbols) {
  FunctionModel M;
  FileId F = M.addFile("/src", "entry.S");
  M.addFunction(sym(0x100, 0x140, "entry_asm"));
  M.LineOnlyCode.push_back(
      dwarf(0x110, 0x130, "", F, {{0x110, 10}, {0x120, 11}}));
  WarningLog Log;
  M.finalize(Log);
  EXPECT_EQ(ranges(M), (Ranges{{{0x100, 0x110}, "entry_asm"},
                               {{0x110, 0x130}, "entry_asm"},
                               {{0x130, 0x140}, "entry_asm"}}));
  EXPECT_TRUE(M.functions()[0].Lines.empty());
  EXPECT_EQ(M.functions()[1].Lines.size(), 2u);
  EXPECT_TRUE(M.LineOnlyCode.empty());
}

TEST(FunctionModel, SliceClipsLinesAndInlineTree) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c");
  FunctionEntry E = dwarf(0x0, 0x100, "f", F, {{0x0, 1}, {0x40, 2}, {0x80, 3}});
  InlineNode Root;
  Root.Ranges = {{0x0, 0x100}};
  Root.Name = "f";
  InlineNode Early;
  Early.Ranges = {{0x10, 0x20}};
  Early.Name = "early";
  InlineNode Late;
  Late.Ranges = {{0x50, 0x70}, {0x90, 0xa0}};
  Late.Name = "late";
  Root.Children = {Early, Late};
  E.Inline = Root;

  FunctionEntry S = sliceFunction(E, {0x60, 0x95});
  EXPECT_EQ(S.Range, (AddressRange{0x60, 0x95}));
  ASSERT_EQ(S.Lines.size(), 2u);
  EXPECT_EQ(S.Lines[0].Address, 0x60u); // row of 0x40 moved to the start
  EXPECT_EQ(S.Lines[0].Line, 2u);
  EXPECT_EQ(S.Lines[1].Address, 0x80u);
  ASSERT_TRUE(S.Inline.has_value());
  ASSERT_EQ(S.Inline->Children.size(), 1u);
  EXPECT_EQ(S.Inline->Children[0].Name, "late");
  EXPECT_EQ(S.Inline->Children[0].Ranges,
            (std::vector<AddressRange>{{0x60, 0x70}, {0x90, 0x95}}));

  // Nothing inlined in the slice: no inline tree at all.
  EXPECT_FALSE(sliceFunction(E, {0x30, 0x40}).Inline.has_value());
}

TEST(FunctionModel, SliceKeepsColumnsDeclarationsAndStarts) {
  FunctionModel M;
  FileId F = M.addFile("/src", "a.c"), H = M.addFile("/src", "h.h");
  FunctionEntry E = dwarf(0x0, 0x100, "f", F, {{0x0, 1}, {0x40, 2}});
  E.Lines[1].Column = 7;
  E.Lines[1].Discriminator = 3;
  E.Decl = {F, 10};
  InlineNode Root;
  Root.Ranges = {{0x0, 0x100}};
  Root.Name = "f";
  InlineNode Call;
  Call.Ranges = {{0x30, 0x70}};
  Call.Name = "g";
  Call.CallFile = F;
  Call.CallLine = 12;
  Call.CallColumn = 5;
  Call.CallDiscriminator = 2;
  Call.Decl = {H, 4};
  Call.LowPC = 0x30;
  Root.Children = {Call};
  E.Inline = Root;

  FunctionEntry S = sliceFunction(E, {0x50, 0x60});
  EXPECT_EQ(S.Decl, (Declaration{F, 10}));
  ASSERT_EQ(S.Lines.size(), 1u);
  EXPECT_EQ(S.Lines[0].Column, 7u);
  EXPECT_EQ(S.Lines[0].Discriminator, 3u);
  ASSERT_TRUE(S.Inline.has_value());
  const InlineNode &C = S.Inline->Children.at(0);
  EXPECT_EQ(C.Ranges, (std::vector<AddressRange>{{0x50, 0x60}}));
  // The start llvm-symbolizer prints is the DIE's, not the slice's.
  EXPECT_EQ(C.LowPC, std::optional<uint64_t>(0x30));
  EXPECT_EQ(C.CallColumn, 5u);
  EXPECT_EQ(C.CallDiscriminator, 2u);
  EXPECT_EQ(C.Decl, (Declaration{H, 4}));
}

TEST(FunctionModel, ColumnsAndDeclarationsAreDebugInfo) {
  // Entries that differ only in a column, or in a declaration, are not the
  // same debug info: dropping one is reported.
  for (int Variant = 0; Variant < 2; ++Variant) {
    FunctionModel M;
    FileId F = M.addFile("/src", "a.c");
    FunctionEntry A = dwarf(0x10, 0x20, "alpha", F, {{0x10, 7}});
    FunctionEntry B = dwarf(0x10, 0x20, "beta", F, {{0x10, 7}});
    if (Variant == 0)
      B.Lines[0].Column = 4;
    else
      B.Decl = {F, 3};
    M.addFunction(A);
    M.addFunction(B);
    WarningLog Log;
    M.finalize(Log);
    ASSERT_EQ(M.functions().size(), 1u);
    EXPECT_EQ(Log.count("duplicate-range"), 1u) << "variant " << Variant;
  }
}

TEST(FunctionModel, ResultDoesNotDependOnInsertionOrder) {
  auto Build = [](unsigned Seed) {
    FunctionModel M;
    M.ExecutableRanges = {{0x0, 0x1000}};
    std::vector<std::pair<std::string, std::string>> FileNames = {
        {"/b", "x.c"}, {"/a", "y.c"}, {"/a", "x.c"}};
    std::shuffle(FileNames.begin(), FileNames.end(), std::mt19937(Seed));
    for (auto &[D, B] : FileNames)
      M.addFile(D, B);
    FileId X = M.addFile("/a", "x.c"), Y = M.addFile("/a", "y.c");
    std::vector<FunctionEntry> Fs = {
        dwarf(0x10, 0x20, "dup", X, {{0x10, 1}}),
        dwarf(0x10, 0x20, "dup", Y, {{0x10, 1}}),
        sym(0x10, 0x10, "alias_b"),
        sym(0x10, 0x10, "alias_a"),
        dwarf(0x40, 0x80, "outer", X, {{0x40, 4}, {0x60, 6}}),
        dwarf(0x50, 0x58, "inner", Y, {{0x50, 5}}),
        sym(0x90, 0x90, "z"),
        sym(0x90, 0xa0, "y"),
    };
    std::shuffle(Fs.begin(), Fs.end(), std::mt19937(Seed));
    for (FunctionEntry &F : Fs)
      M.addFunction(F);
    WarningLog Log;
    M.finalize(Log);
    std::string Out;
    for (const FunctionEntry &F : M.functions()) {
      Out += F.Name.str() + "@" + std::to_string(F.Range.Start) + "-" +
             std::to_string(F.Range.End);
      for (const LineEntry &L : F.Lines)
        Out += " " + M.file(L.File).Dir.str() + "/" +
               M.file(L.File).Base.str() + ":" + std::to_string(L.Line);
      Out += "\n";
    }
    return Out;
  };
  std::string First = Build(1);
  for (unsigned Seed = 2; Seed < 30; ++Seed)
    EXPECT_EQ(Build(Seed), First) << "seed " << Seed;
}

TEST(FunctionModel, FilesAndStringsAreInterned) {
  FunctionModel M;
  EXPECT_EQ(M.addFilePath(""), 0u);
  FileId A = M.addFilePath("/usr/include/stdio.h");
  EXPECT_EQ(M.file(A).Dir, "/usr/include");
  EXPECT_EQ(M.file(A).Base, "stdio.h");
  EXPECT_EQ(M.addFile("/usr/include", "stdio.h"), A);
  FileId Root = M.addFilePath("/x.c");
  EXPECT_EQ(M.file(Root).Dir, "/");
  FileId Rel = M.addFilePath("y.c");
  EXPECT_EQ(M.file(Rel).Dir, "");
  EXPECT_EQ(M.file(Rel).Base, "y.c");
  llvm::StringRef S1 = M.saveString("name"), S2 = M.saveString("name");
  EXPECT_EQ(S1.data(), S2.data());
}

} // namespace
