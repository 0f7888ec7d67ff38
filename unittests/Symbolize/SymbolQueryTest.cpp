//===- SymbolQueryTest.cpp - Reading queries by symbol name ---------------===//

#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "FunctionListTable.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

void expectSymbol(llvm::StringRef Token, llvm::StringRef Name, uint64_t Offset,
                  std::optional<uint64_t> Size = std::nullopt) {
  ParsedQuery Q = parseQuery(Token);
  ASSERT_FALSE(Q.Address) << Token.str();
  ASSERT_TRUE(Q.Symbol) << Token.str();
  EXPECT_EQ(Q.Symbol->Name, Name.str()) << Token.str();
  EXPECT_EQ(Q.Symbol->Offset, Offset) << Token.str();
  EXPECT_EQ(Q.Symbol->Size, Size) << Token.str();
}

TEST(SymbolQuery, AddressesAsLlvmSymbolizerReadsThem) {
  EXPECT_EQ(parseQuery("4096").Address, 4096u);
  EXPECT_EQ(parseQuery("0x10").Address, 16u);
  EXPECT_EQ(parseQuery("010").Address, 8u);
  // Hex of every length up to 16 digits, either case, as getAsInteger(0)
  // reads it; past 64 bits, none.
  EXPECT_EQ(parseQuery("0XfFfF").Address, 0xffffu);
  EXPECT_EQ(parseQuery("0xffffffff81000000").Address, 0xffffffff81000000u);
  EXPECT_EQ(parseQuery("0x0000000000000000001").Address, 1u);
  // A digit first but no number, or nothing: neither.
  for (const char *Bad :
       {"1abc", "0x", "12+4", "", "0x1g", "0x10000000000000000"}) {
    ParsedQuery Q = parseQuery(Bad);
    EXPECT_FALSE(Q.Address) << Bad;
    EXPECT_FALSE(Q.Symbol) << Bad;
  }
}

TEST(SymbolQuery, NamesAndOffsets) {
  expectSymbol("main", "main", 0);
  expectSymbol("main+4", "main", 4);
  expectSymbol("main+0x1f", "main", 0x1f);
  expectSymbol("_ZN2ns3Acc3addEi+010", "_ZN2ns3Acc3addEi", 8);
  // Only the last '+' can start an offset, and only a number is one.
  expectSymbol("a+b+3", "a+b", 3);
  expectSymbol("operator+", "operator+", 0);
  expectSymbol("f+08", "f+08", 0);
  expectSymbol("f+", "f+", 0);
  expectSymbol("+5", "+5", 0);
  expectSymbol("f+-1", "f+-1", 0);
}

TEST(SymbolQuery, KernelTraceForm) {
  expectSymbol("schedule+0x24/0x80", "schedule", 0x24, 0x80);
  expectSymbol("f+1/", "f+1/", 0);
  expectSymbol("f+/4", "f+/4", 0);
  expectSymbol("f+1/x", "f+1/x", 0);
  SymbolQuery Q;
  parseModuleWord("  [xfs] more", Q);
  EXPECT_EQ(Q.Module, std::optional<std::string>("xfs"));
  for (const char *NoModule : {"", "xfs", "[]", "[xfs", " junk [xfs]"}) {
    SymbolQuery R;
    parseModuleWord(NoModule, R);
    EXPECT_FALSE(R.Module) << NoModule;
  }
}

using FakeTable = test::FunctionListTable;

std::vector<uint64_t> addresses(llvm::Expected<std::vector<LookupResult>> L) {
  EXPECT_TRUE(bool(L));
  std::vector<uint64_t> Addresses;
  if (!L) {
    llvm::consumeError(L.takeError());
    return Addresses;
  }
  for (const LookupResult &X : *L)
    Addresses.push_back(X.Address);
  return Addresses;
}

std::vector<uint64_t> answered(SymbolResolver &R, llvm::StringRef Token) {
  return addresses(R.resolve(*parseQuery(Token).Symbol));
}

TEST(SymbolQuery, ResolvedInTheFunctionsItFallsIn) {
  // "f" twice: a function and its cold part (or two static functions).
  FakeTable T;
  T.Functions = {{0x100, 0x40, "f"}, {0x140, 0x20, "g"}, {0x1000, 0x10, "f"}};
  SymbolResolver R(T);
  using V = std::vector<uint64_t>;
  EXPECT_EQ(answered(R, "f"), (V{0x100, 0x1000}));
  EXPECT_EQ(answered(R, "f+8"), (V{0x108, 0x1008}));
  // Inside the first only: the other does not answer at its start.
  EXPECT_EQ(answered(R, "f+0x20"), (V{0x120}));
  // Inside none: every one at its start, as llvm-symbolizer does.
  EXPECT_EQ(answered(R, "f+0x80"), (V{0x100, 0x1000}));
  EXPECT_EQ(answered(R, "g+0x1f"), (V{0x15f}));
  EXPECT_EQ(answered(R, "h"), V{});
  // The names are gathered once.
  EXPECT_EQ(T.Listings, 1u);
}

TEST(SymbolQuery, DwarfNamesAnswerToo) {
  // glibc's strnlen is DWARF's __strnlen_ifunc (perf's name for it); "g"
  // is a function's name and, at a lower address, another's DWARF name.
  FakeTable T;
  T.Functions = {
      {0x10, 0x10, "k"}, {0x50, 0x10, "g"}, {0x100, 0x40, "strnlen"}};
  T.DwarfNames = {{0x10, "g"}, {0x100, "__strnlen_ifunc"}};
  SymbolResolver R(T);
  using V = std::vector<uint64_t>;
  EXPECT_EQ(answered(R, "__strnlen_ifunc+4"), (V{0x104}));
  EXPECT_EQ(answered(R, "strnlen+4"), (V{0x104}));
  EXPECT_EQ(answered(R, "g"), (V{0x10, 0x50}));
  EXPECT_EQ(answered(R, "k"), (V{0x10}));
}

std::vector<uint64_t>
answeredDemangled(SymbolResolver &R, const std::string &Name, uint64_t Offset) {
  return addresses(R.resolveDemangled(SymbolQuery{Name, Offset, {}, {}}));
}

TEST(SymbolQuery, DemangledAsProfilersShowThem) {
  FakeTable T;
  T.Functions = {{0x100, 0x40, "_ZN3app4workEi"},
                 {0x200, 0x40, "_ZN3app4workEd"},
                 {0x300, 0x20, "_ZNK3app3BoxINS0_IiEEE4spinEv"},
                 {0x400, 0x10, "main"}};
  SymbolResolver R(T);
  using V = std::vector<uint64_t>;
  // Without parameters, overloads share the name; with them, they do not.
  EXPECT_EQ(answeredDemangled(R, "app::work", 4), (V{0x104, 0x204}));
  EXPECT_EQ(answeredDemangled(R, "app::work(double)", 4), (V{0x204}));
  EXPECT_EQ(answeredDemangled(R, "app::Box<app::Box<int> >::spin", 2),
            (V{0x302}));
  EXPECT_EQ(answeredDemangled(R, "app::Box<app::Box<int>>::spin() const", 2),
            (V{0x302}));
  // Names that are not mangled are not among the demangled ones.
  EXPECT_EQ(answeredDemangled(R, "main", 0), V{});
  EXPECT_EQ(answeredDemangled(R, "app::play", 0), V{});
  // The exact names still answer as they are.
  EXPECT_EQ(answered(R, "_ZN3app4workEi+4"), (V{0x104}));
  EXPECT_EQ(answered(R, "app::work"), V{});
}

} // namespace
