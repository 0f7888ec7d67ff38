//===- KallsymsTest.cpp - Parsers, writers and readers of kallsyms --------===//

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;

namespace {

enum class Fmt { Compact, Blob };

std::string parseErr(StringRef Text, ParseOptions Opts = {}) {
  SymbolList L;
  Error E = parseSymbolList(Text, "in", Opts, L);
  return E ? toString(std::move(E)) : "";
}

std::unique_ptr<SymbolReader> writeAndOpen(const SymbolList &L, Fmt F,
                                           std::string &Storage) {
  Error E =
      F == Fmt::Compact ? writeCompact(L, Storage) : writeKsymBlob(L, Storage);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "t", false));
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  return std::move(*R);
}

std::string dumpOf(const SymbolReader &R) {
  std::string S;
  raw_string_ostream OS(S);
  Error E = R.dump(OS);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  return S;
}

TEST(KallsymsParse, Formats) {
  StringRef Text = "ffffffff81000000 T _stext\n"
                   "ffffffff81000000 t alias_b\r\n"
                   "ffffffff81000010 D data_sym\n"
                   "                 U undefined_in_nm\n"
                   "\n"
                   "ffffffff81000020 t $x.12\n"
                   "ffffffff81000020 T foo(int, char const*)\n"
                   "ffffffffc0001000 t mod_fn\t[ext4]\n";
  SymbolList L;
  WarningLog W;
  ASSERT_FALSE(bool(parseSymbolList(Text, "in", {}, L, &W)));
  ASSERT_EQ(L.Symbols.size(), 4u);
  EXPECT_EQ(L.Symbols[1].Name, "alias_b");
  EXPECT_EQ(L.Symbols[2].Name, "foo(int, char const*)");
  EXPECT_EQ(L.Symbols[3].Module, "ext4");
  EXPECT_EQ(L.Symbols[3].Address, 0xffffffffc0001000u);
  EXPECT_EQ(W.count("mapping-symbol"), 1u);

  SymbolList All;
  ParseOptions O;
  O.AllTypes = true;
  ASSERT_FALSE(bool(parseSymbolList(Text, "in", O, All)));
  EXPECT_EQ(All.Symbols.size(), 5u);
}

TEST(KallsymsParse, MappingSymbols) {
  EXPECT_TRUE(isMappingSymbol("$x"));
  EXPECT_TRUE(isMappingSymbol("$d.123"));
  EXPECT_TRUE(isMappingSymbol("$a"));
  EXPECT_FALSE(isMappingSymbol("$xyz"));
  EXPECT_FALSE(isMappingSymbol("x$"));
  EXPECT_FALSE(isMappingSymbol("$"));
}

TEST(KallsymsParse, Demangle) {
  EXPECT_EQ(demangleSymbol("_ZN3foo3barEv"), "foo::bar()");
  EXPECT_EQ(demangleSymbol("_ZN4core3fmt5write17h0123456789abcdefE"),
            "core::fmt::write");
  // Rust's escapes decoded, as rustc-demangle decodes them.
  EXPECT_EQ(demangleSymbol("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$"
                           "$u7d$17h168e94e611939a97E"),
            "std::rt::lang_start::{{closure}}");
  EXPECT_EQ(demangleSymbol("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
  EXPECT_EQ(demangleSymbol("plain_c_name"), "plain_c_name");
  SymbolList L;
  ParseOptions O;
  O.Demangle = true;
  ASSERT_FALSE(bool(parseSymbolList("1000 T _ZN3foo3barEv\n", "in", O, L)));
  EXPECT_EQ(L.Symbols[0].Name, "foo::bar()");
}

// /proc/kallsyms lists module symbols in symbol-table order and modules
// in load order: they are sorted in (aliases in input order, modules below
// the core kernel too, as on arm64); core symbols must stay in order.
TEST(KallsymsParse, ModuleSymbolsAreSortedIn) {
  SymbolList L;
  ASSERT_FALSE(bool(parseSymbolList("2000 T core_a\n"
                                    "2100 T core_b\n"
                                    "9000 t m2_x\t[m2]\n"
                                    "8040 t m1_local\t[m1]\n"
                                    "8000 T m1_fn\t[m1]\n"
                                    "8000 t m1_alias\t[m1]\n"
                                    "1000 t low\t[m0]\n",
                                    "in", {}, L)));
  std::vector<std::string> Order;
  for (const KernelSymbol &S : L.Symbols)
    Order.push_back((S.Name + "/" + S.Module).str());
  EXPECT_EQ(Order, (std::vector<std::string>{"low/m0", "core_a/", "core_b/",
                                             "m1_fn/m1", "m1_alias/m1",
                                             "m1_local/m1", "m2_x/m2"}));
  EXPECT_EQ(parseErr("2000 T a\n9000 t m\t[m]\n1fff T b\n"),
            "in:3: address 0x0000000000001fff goes backwards (previous "
            "symbol is at 0x0000000000002000)");
}

// A list keeps its saved names, and takes new ones, after being moved: the
// names live in its own storage, never in that of the list moved from.
// (Fails under AddressSanitizer when save() writes into a dead allocator.)
TEST(KallsymsParse, ListMovesWithItsNames) {
  auto A = std::make_unique<SymbolList>();
  ParseOptions Opts;
  Opts.Demangle = true;
  ASSERT_FALSE(bool(parseSymbolList("1000 T _ZN2ns1fEv\n", "in", Opts, *A)));
  StringRef Before = A->save("saved before the move");
  SymbolList B(std::move(*A));
  A.reset();
  StringRef After = B.save("saved after the move");
  ASSERT_EQ(B.Symbols.size(), 1u);
  EXPECT_EQ(B.Symbols[0].Name, "ns::f()");
  EXPECT_EQ(Before, "saved before the move");
  EXPECT_EQ(After, "saved after the move");
}
TEST(KallsymsParse, Errors) {
  EXPECT_EQ(parseErr("1000 T a\nzz00 T b\n"), "in:2: bad address 'zz00'");
  EXPECT_EQ(parseErr("1000 T a\n1000\n"),
            "in:2: expected '<address> <type> <name>'");
  EXPECT_EQ(parseErr("1000 T \n"), "in:1: missing symbol name");
  EXPECT_EQ(parseErr("1000 T a\n0fff T b\n"),
            "in:2: address 0x0000000000000fff goes backwards (previous "
            "symbol is at 0x0000000000001000)");
  EXPECT_EQ(parseErr(""), "in: no symbols of type 't' or 'T'");
  EXPECT_EQ(parseErr("1000 D a\n"), "in: no symbols of type 't' or 'T'");
  EXPECT_EQ(parseErr("11112222333344445 T a\n"),
            "in:1: bad address '11112222333344445'");
  EXPECT_EQ(parseErr("1000 T a\tmodule\n"),
            "in:1: expected '[module]' after the tab");
  ParseOptions O;
  O.MaxLineLength = 10;
  EXPECT_EQ(parseErr("1000 T a\n1000 T abcdefghijk\n", O),
            "in:2: line is longer than 10 bytes");
  EXPECT_EQ(parseErr(StringRef("1000 T a\n1100 T fo\0o\n", 21)),
            "in:2: NUL byte at column 10");
  EXPECT_EQ(parseErr(StringRef("\0", 1)), "in:1: NUL byte at column 1");
  EXPECT_NE(parseErr("0 T a\n0 T b\n").find("every address is zero"),
            std::string::npos);
}

class KallsymsFormats : public ::testing::TestWithParam<Fmt> {};

SymbolList sampleList(StringRef Text, std::optional<uint64_t> End = {}) {
  SymbolList L;
  Error E = parseSymbolList(Text, "in", {}, L);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  L.EndAddress = End;
  return L;
}

constexpr const char *Sample = "ffffffff81000000 t __local_alias\n"
                               "ffffffff81000000 T _text\n"
                               "ffffffff81000000 T startup\n"
                               "ffffffff81000100 t dup_name\n"
                               "ffffffff81000180 T do_fork\n"
                               "ffffffff81000200 t dup_name\n"
                               "ffffffff81000300 T last_fn\n";

TEST_P(KallsymsFormats, Lookups) {
  SymbolList L = sampleList(Sample, 0xffffffff81000400);
  std::string Storage;
  auto R = writeAndOpen(L, GetParam(), Storage);
  if (GetParam() == Fmt::Blob) // the layout has no end address
    R = std::move(*openKsymBlob(MemoryBuffer::getMemBuffer(Storage, "t", false),
                                0xffffffff81000400));
  EXPECT_EQ(dumpOf(*R), Sample);
  EXPECT_EQ(R->numSymbols(), 7u);

  auto S = R->lookupAddress(0xffffffff81000050);
  ASSERT_TRUE(S && *S);
  // Global first, then fewer leading underscores, then table order.
  EXPECT_EQ((*S)->Name, "startup");
  EXPECT_EQ((*S)->Address, 0xffffffff81000000u);
  EXPECT_EQ((*S)->Size, 0x100u);
  EXPECT_EQ((*S)->Type, 'T');

  S = R->lookupAddress(0xffffffff81000180);
  ASSERT_TRUE(S && *S);
  EXPECT_EQ((*S)->Name, "do_fork");
  EXPECT_EQ((*S)->Size, 0x80u);

  S = R->lookupAddress(0xffffffff810003ff);
  ASSERT_TRUE(S && *S);
  EXPECT_EQ((*S)->Name, "last_fn");
  EXPECT_EQ((*S)->Size, 0x100u);

  S = R->lookupAddress(0xffffffff81000400); // past the end
  ASSERT_TRUE(bool(S));
  EXPECT_FALSE(*S);
  S = R->lookupAddress(0xffffffff80ffffff); // below the first
  ASSERT_TRUE(bool(S));
  EXPECT_FALSE(*S);

  auto N = R->lookupName("dup_name");
  ASSERT_TRUE(bool(N));
  ASSERT_EQ(N->size(), 2u);
  EXPECT_EQ((*N)[0].Address, 0xffffffff81000100u);
  EXPECT_EQ((*N)[0].Size, 0x80u);
  EXPECT_EQ((*N)[1].Address, 0xffffffff81000200u);
  N = R->lookupName("_text");
  ASSERT_TRUE(N && N->size() == 1);
  EXPECT_EQ((*N)[0].Size, 0x100u);
  for (StringRef Missing : {"", "dup", "dup_name_", "zzz", "_", "a"}) {
    N = R->lookupName(Missing);
    ASSERT_TRUE(bool(N));
    EXPECT_TRUE(N->empty()) << Missing.str();
  }

  Expected<LookupResult> LR = R->lookup(0xffffffff81000210);
  ASSERT_TRUE(bool(LR));
  ASSERT_EQ(LR->Frames.size(), 1u);
  EXPECT_EQ(LR->Frames[0].FunctionName, "dup_name");
  EXPECT_EQ(LR->Frames[0].StartAddress, 0xffffffff81000200u);
  EXPECT_EQ(LR->Frames[0].SymbolType, 't');
  EXPECT_EQ(LR->Frames[0].Size, 0x100u);
}

TEST_P(KallsymsFormats, OneSymbolNoEnd) {
  SymbolList L = sampleList("1000 T only\n");
  std::string Storage;
  auto R = writeAndOpen(L, GetParam(), Storage);
  auto S = R->lookupAddress(0x123456);
  ASSERT_TRUE(S && *S);
  EXPECT_EQ((*S)->Name, "only");
  EXPECT_FALSE((*S)->Size);
}

// Random tables checked against a simple oracle.
TEST_P(KallsymsFormats, RandomAgainstOracle) {
  std::mt19937_64 Rng(11);
  std::string Text;
  uint64_t A = 0xffffffff81000000;
  std::vector<std::pair<uint64_t, std::string>> Syms;
  const char *Words[] = {"ext4",  "get", "set", "xattr", "",   "a",
                         "inode", "rcu", "do",  "x86",   "__", "init"};
  for (int I = 0; I < 20000; ++I) {
    if (Rng() % 8)
      A += (Rng() % 4 ? 16 : 1) * (1 + Rng() % 200);
    std::string N;
    unsigned K = 1 + Rng() % 5;
    for (unsigned J = 0; J < K; ++J)
      N += (J ? "_" : "") + std::string(Words[Rng() % 12]);
    if (Rng() % 3 == 0)
      N += "_" + std::to_string(Rng() % 50000);
    if (N.empty())
      N = "e";
    Syms.push_back({A, N});
    Text += utohexstr(A, true) + (Rng() % 2 ? " T " : " t ") + N;
    Text += (Rng() % 50 == 0) ? "\t[mod" + std::to_string(I % 3) + "]\n" : "\n";
  }
  SymbolList L = sampleList(Text);
  std::string Storage;
  auto R = writeAndOpen(L, GetParam(), Storage);
  std::string Expected = dumpOf(*R);
  if (GetParam() == Fmt::Compact) {
    EXPECT_TRUE(Expected == Text);
  }
  std::multimap<std::string, uint64_t> ByName;
  for (auto &[Addr, N] : Syms)
    ByName.insert({N, Addr});
  for (int I = 0; I < 3000; ++I) {
    auto &[Addr, N] = Syms[Rng() % Syms.size()];
    auto Found = R->lookupName(N);
    ASSERT_TRUE(bool(Found));
    ASSERT_EQ(Found->size(), ByName.count(N)) << N;
    bool Has = false;
    for (auto &S : *Found)
      Has |= S.Address == Addr && S.Name == N;
    ASSERT_TRUE(Has) << N;
    uint64_t Q = Addr + Rng() % 16;
    auto S = R->lookupAddress(Q);
    ASSERT_TRUE(S && *S);
    // The oracle: the last address <= Q.
    auto It =
        std::upper_bound(Syms.begin(), Syms.end(), Q,
                         [](uint64_t V, const auto &P) { return V < P.first; });
    --It;
    ASSERT_EQ((*S)->Address, It->first);
    if (std::next(It) != Syms.end() && Q - It->first >= 16)
      continue;
  }
}

TEST_P(KallsymsFormats, CorruptInputNeverCrashes) {
  SymbolList L = sampleList(Sample, 0xffffffff81000400);
  std::string Good;
  writeAndOpen(L, GetParam(), Good);
  auto Exercise = [](StringRef Bytes) {
    for (bool Portable : {false, true}) {
      ReaderOptions RO;
      RO.Portable = Portable;
      auto R =
          openSymbolTable(MemoryBuffer::getMemBuffer(Bytes, "t", false), RO);
      if (!R) {
        consumeError(R.takeError());
        continue;
      }
      std::string S;
      raw_string_ostream OS(S);
      consumeError((*R)->dump(OS));
      for (uint64_t A = 0xffffffff80fffff0; A < 0xffffffff81000420; A += 8) {
        auto X = (*R)->lookupAddress(A);
        if (!X)
          consumeError(X.takeError());
      }
      for (StringRef N : {"dup_name", "startup", "zz", ""}) {
        auto X = (*R)->lookupName(N);
        if (!X)
          consumeError(X.takeError());
      }
    }
  };
  for (size_t Len = 0; Len < Good.size(); ++Len)
    Exercise(StringRef(Good).take_front(Len));
  std::mt19937 Rng(3);
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Bad = Good;
    for (int K = 0; K < 1 + Round % 4; ++K)
      Bad[Rng() % Bad.size()] ^= char(1 + Rng() % 255);
    Exercise(Bad);
  }
}

TEST_P(KallsymsFormats, Deterministic) {
  SymbolList L = sampleList(Sample);
  std::string A, B;
  writeAndOpen(L, GetParam(), A);
  writeAndOpen(L, GetParam(), B);
  EXPECT_EQ(A, B);
}

// The back-pointer stride is read from the header: 16 in small tables, and
// a table rewritten with another valid stride reads the same; 0 is refused.
TEST(Compact, BackPointerStride) {
  SymbolList L = sampleList(Sample);
  std::string Good;
  auto R = writeAndOpen(L, Fmt::Compact, Good);
  EXPECT_EQ(uint8_t(Good[42]), 16u);
  // Cycles of 7 symbols are shorter than any stride from 8 on: no marks.
  std::string Wide = Good;
  Wide[42] = 64;
  auto RW = openSymbolTable(MemoryBuffer::getMemBuffer(Wide, "w", false));
  ASSERT_TRUE(bool(RW));
  EXPECT_EQ(dumpOf(**RW), dumpOf(*R));
  auto N = (*RW)->lookupName("do_fork");
  ASSERT_TRUE(N && N->size() == 1);
  std::string Bad = Good;
  Bad[42] = 0;
  auto RB = openSymbolTable(MemoryBuffer::getMemBuffer(Bad, "b", false));
  ASSERT_FALSE(bool(RB));
  EXPECT_NE(toString(RB.takeError()).find("unsupported block sizes"),
            std::string::npos);
}

// Alias groups of every size (some cross the 32-symbol address blocks),
// mixed types, leading underscores and modules: every group is looked up
// inside its range and checked against an oracle of the canonical rule, and
// the loop APIs reuse one SymbolInfo / one vector across lookups.
TEST_P(KallsymsFormats, AliasesAndSizesAgainstOracle) {
  std::mt19937_64 Rng(7);
  struct Group {
    uint64_t Addr;
    std::vector<std::tuple<char, std::string, std::string>> Syms;
  };
  std::vector<Group> Groups;
  std::string Text;
  uint64_t A = 0xffffffff81000000;
  const char *Stems[] = {"x", "_x", "__x", "___x", "x_", "_", "__", ".x"};
  for (int G = 0; G < 3000; ++G) {
    Group Gr{A, {}};
    unsigned Size = Rng() % 10 ? 1 + Rng() % 3 : 1 + Rng() % 70;
    std::string Mod = Rng() % 5 == 0 ? "mod" + std::to_string(G % 4) : "";
    for (unsigned K = 0; K < Size; ++K) {
      char Type = Rng() % 3 ? 't' : 'T';
      std::string Name = std::string(Stems[Rng() % 8]) + "_" +
                         std::to_string(G) + "_" + std::to_string(K);
      Gr.Syms.emplace_back(Type, Name, Mod);
      Text += utohexstr(A, true) + " " + Type + " " + Name +
              (Mod.empty() ? "" : "\t[" + Mod + "]") + "\n";
    }
    Groups.push_back(Gr);
    A += 16 * (1 + Rng() % 40);
  }
  uint64_t End = A;
  SymbolList L = sampleList(Text, End);
  std::string Storage;
  auto R = writeAndOpen(L, GetParam(), Storage);
  // A ksym-blob holds neither modules nor the end of the last symbol.
  bool Compact = GetParam() == Fmt::Compact;
  bool HasModules = Compact;
  auto SizeOf = [&](size_t G, uint64_t Size) -> std::optional<uint64_t> {
    if (!Compact && G + 1 == Groups.size())
      return std::nullopt;
    return Size;
  };
  auto Under = [](StringRef S) { return S.size() - S.ltrim('_').size(); };
  SymbolInfo Info;
  std::vector<SymbolInfo> Matches;
  uint32_t Index = 0;
  for (size_t G = 0; G < Groups.size(); ++G) {
    const Group &Gr = Groups[G];
    uint64_t Next = G + 1 < Groups.size() ? Groups[G + 1].Addr : End;
    size_t Best = 0;
    for (size_t K = 1; K < Gr.Syms.size(); ++K) {
      bool CG = isUpper(std::get<0>(Gr.Syms[K]));
      bool BG = isUpper(std::get<0>(Gr.Syms[Best]));
      if (CG != BG ? CG
                   : Under(std::get<1>(Gr.Syms[K])) <
                         Under(std::get<1>(Gr.Syms[Best])))
        Best = K;
    }
    for (uint64_t Q : {Gr.Addr, Gr.Addr + Rng() % (Next - Gr.Addr), Next - 1}) {
      Expected<bool> Found = R->lookupAddressInto(Q, Info);
      ASSERT_TRUE(Found && *Found) << G;
      EXPECT_EQ(Info.Address, Gr.Addr);
      EXPECT_EQ(Info.Size, SizeOf(G, Next - Gr.Addr));
      EXPECT_EQ(Info.Name, std::get<1>(Gr.Syms[Best])) << G;
      EXPECT_EQ(Info.Type, std::get<0>(Gr.Syms[Best]));
      EXPECT_EQ(Info.Index, Index + Best);
      EXPECT_EQ(Info.Module, HasModules ? std::get<2>(Gr.Syms[Best]) : "");
    }
    const std::string &Name = std::get<1>(Gr.Syms[Rng() % Gr.Syms.size()]);
    ASSERT_FALSE(bool(R->lookupNameInto(Name, Matches)));
    ASSERT_EQ(Matches.size(), 1u);
    EXPECT_EQ(Matches[0].Name, Name);
    EXPECT_EQ(Matches[0].Address, Gr.Addr);
    EXPECT_EQ(Matches[0].Size, SizeOf(G, Next - Gr.Addr));
    Index += Gr.Syms.size();
  }
  Expected<bool> Past = R->lookupAddressInto(End, Info);
  ASSERT_TRUE(bool(Past));
  EXPECT_EQ(*Past, !Compact);
  ASSERT_FALSE(bool(R->lookupNameInto("no_such_name", Matches)));
  EXPECT_TRUE(Matches.empty());
}

// Names of more than 64 tokens, and near the end of the name data, leave
// the compact reader's fast decoder for its checked one: same answers.
TEST_P(KallsymsFormats, LongNamesTakeTheCheckedPath) {
  std::string Text;
  std::vector<std::string> Names;
  for (int I = 0; I < 40; ++I) {
    std::string N = "f" + std::to_string(I);
    for (int K = 0; K < (I % 3 ? 3 : 70 + I); ++K)
      N += "_w" + std::to_string(K % 7);
    Names.push_back(N);
    Text += utohexstr(0x1000 + 16 * I) + " t " + N + "\n";
  }
  SymbolList L = sampleList(Text, 0x1000 + 16 * 40);
  std::string Storage;
  auto R = writeAndOpen(L, GetParam(), Storage);
  SymbolInfo Info;
  std::vector<SymbolInfo> Matches;
  for (int I = 0; I < 40; ++I) {
    Expected<bool> Found = R->lookupAddressInto(0x1000 + 16 * I + 3, Info);
    ASSERT_TRUE(Found && *Found);
    EXPECT_EQ(Info.Name, Names[I]);
    ASSERT_FALSE(bool(R->lookupNameInto(Names[I], Matches)));
    ASSERT_EQ(Matches.size(), 1u);
    EXPECT_EQ(Matches[0].Address, uint64_t(0x1000 + 16 * I));
  }
  std::string Want;
  for (int I = 0; I < 40; ++I)
    Want += utohexstr(0x1000 + 16 * I, true, 16) + " t " + Names[I] + "\n";
  EXPECT_EQ(dumpOf(*R), Want);
}

// A table large enough that lookups run on the readers' fast paths
// (unchecked reads away from the section ends), corrupted at random: every
// lookup gives an answer or an error, never a crash (run under ASan too).
TEST_P(KallsymsFormats, CorruptLargeTableNeverCrashes) {
  std::mt19937_64 Rng(5);
  std::string Text;
  std::vector<std::string> Names;
  uint64_t A = 0xffffffff81000000;
  for (int I = 0; I < 3000; ++I) {
    std::string N = "w" + std::to_string(Rng() % 40) + "_x" +
                    std::to_string(Rng() % 300) + "_" + std::to_string(I % 17);
    Names.push_back(N);
    Text += utohexstr(A, true) + (Rng() % 2 ? " T " : " t ") + N + "\n";
    A += Rng() % 8 ? 16 * (1 + Rng() % 50) : 0;
  }
  SymbolList L = sampleList(Text, A + 16);
  std::string Good;
  writeAndOpen(L, GetParam(), Good);
  SymbolInfo Info;
  std::vector<SymbolInfo> Matches;
  for (int Round = 0; Round < 400; ++Round) {
    std::string Bad = Good;
    for (int K = 0; K < 1 + Round % 8; ++K)
      Bad[Rng() % Bad.size()] ^= char(1 + Rng() % 255);
    // Alternate rounds take the portable paths of the compact reader.
    ReaderOptions RO;
    RO.Portable = Round % 2;
    auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Bad, "t", false), RO);
    if (!R) {
      consumeError(R.takeError());
      continue;
    }
    for (int Q = 0; Q < 40; ++Q) {
      Expected<bool> F = (*R)->lookupAddressInto(
          0xffffffff81000000 + Rng() % (A - 0xffffffff81000000 + 64), Info);
      if (!F)
        consumeError(F.takeError());
      if (Error E = (*R)->lookupNameInto(Names[Rng() % Names.size()], Matches))
        consumeError(std::move(E));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Both, KallsymsFormats,
                         ::testing::Values(Fmt::Compact, Fmt::Blob));

TEST(KsymBlob, ExactLayout) {
  // Three symbols from the layout document's example.
  SymbolList L = sampleList("0000000000001000 T _start\n"
                            "0000000000001100 T do_fork\n"
                            "0000000000001200 T cpu_startup_entry\n");
  std::string B;
  ASSERT_FALSE(bool(writeKsymBlob(L, B)));
  auto U64 = [&](size_t Off) {
    return support::endian::read64le(B.data() + Off);
  };
  auto U32 = [&](size_t Off) {
    return support::endian::read32le(B.data() + Off);
  };
  EXPECT_EQ(U64(0), 3u);
  EXPECT_EQ(U64(8), 0x1000u);
  EXPECT_EQ(U64(24), 0x1200u);
  // offsets at 32, seqs at 44, names_len at 56 (8-aligned).
  EXPECT_EQ(U32(32), 0u);
  EXPECT_EQ(U32(36), 3u + 6);
  EXPECT_EQ(U32(40), 3u + 6 + 3 + 7);
  EXPECT_EQ(U32(44), 0u); // _start
  EXPECT_EQ(U32(48), 2u); // cpu_startup_entry
  EXPECT_EQ(U32(52), 1u); // do_fork
  uint64_t NamesLen = U64(56);
  EXPECT_EQ(NamesLen, 3u * 3 + 6 + 7 + 17);
  EXPECT_EQ(B.substr(64, 9), std::string("T\x06\x00_start", 9));
  size_t TT = alignTo(64 + NamesLen, 8);
  EXPECT_EQ(U64(TT), 0u); // no name prefix repeats: no tokens
  EXPECT_EQ(U64(TT + 8), 0u);
  EXPECT_EQ(B.size(), TT + 16);
}

// A table of module symbols only has one module run, and it is not the core
// kernel's (fuzz-kallsyms-text: the reader took one run for id 0 and lost
// the module).
TEST(Compact, OneModuleRun) {
  SymbolList L = sampleList("ffffffffc0001000 T foo\t[xfs]\n"
                            "ffffffffc0001010 t bar\t[xfs]\n");
  for (bool Portable : {false, true}) {
    std::string Storage;
    ASSERT_FALSE(bool(writeCompact(L, Storage)));
    ReaderOptions O;
    O.Portable = Portable;
    auto R = openCompact(MemoryBuffer::getMemBuffer(Storage, "t", false), O);
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    for (uint32_t I = 0; I < 2; ++I) {
      SymbolInfo S;
      ASSERT_FALSE(bool((*R)->describe(I, S)));
      EXPECT_EQ(S.Module, "xfs");
    }
    auto Found = (*R)->lookupAddress(0xffffffffc0001010);
    ASSERT_TRUE(Found && *Found);
    EXPECT_EQ((*Found)->Module, "xfs");
    EXPECT_EQ(dumpOf(**R), "ffffffffc0001000 T foo\t[xfs]\n"
                           "ffffffffc0001010 t bar\t[xfs]\n");
  }
}

// describe() past the last symbol is an error in both formats, never a read
// of the offset table past its end (fuzz-ksyms: the ksym-blob reader read
// the name order table as name offsets, then bytes outside the file).
TEST(KsymBlob, DescribeOutOfRange) {
  SymbolList L = sampleList("0000000000001000 T _start\n"
                            "0000000000001100 T do_fork\n");
  for (Fmt F : {Fmt::Compact, Fmt::Blob}) {
    std::string Storage;
    std::unique_ptr<SymbolReader> R = writeAndOpen(L, F, Storage);
    ASSERT_TRUE(R);
    for (uint32_t I : {2u, 3u}) {
      SymbolInfo S;
      Error E = R->describe(I, S);
      EXPECT_TRUE(bool(E)) << I;
      consumeError(std::move(E));
    }
  }
}

TEST(KsymBlob, TokensAndReaderOfForeignBlob) {
  // A blob as another writer could produce it: a two-byte token id.
  std::string Names;
  auto Rec = [&](char T, StringRef P) {
    size_t Off = Names.size();
    Names.push_back(T);
    Names.push_back(char(P.size()));
    Names.push_back(char(P.size() >> 8));
    Names += P;
    return Off;
  };
  size_t O0 = Rec('T', StringRef("\xff\x01\x02\xff"
                                 "fn",
                                 6));
  size_t O1 = Rec('t', StringRef("\xff\x00\xff"
                                 "x",
                                 4));
  std::string B;
  auto U64 = [&](uint64_t V) {
    char C[8];
    support::endian::write64le(C, V);
    B.append(C, 8);
  };
  auto U32 = [&](uint32_t V) {
    char C[4];
    support::endian::write32le(C, V);
    B.append(C, 4);
  };
  U64(2);
  U64(0x10);
  U64(0x20);
  U32(O0);
  U32(O1);
  U32(1);
  U32(0);
  U64(Names.size());
  B += Names;
  B.resize(alignTo(B.size(), 8));
  std::string Table;
  std::vector<uint32_t> Index;
  for (int I = 0; I < 259; ++I) {
    Index.push_back(Table.size());
    Table += "tok" + std::to_string(I) + "_";
  }
  U64(Table.size());
  B += Table;
  B.resize(alignTo(B.size(), 8));
  U64(Index.size());
  for (uint32_t I : Index)
    U32(I);
  ASSERT_TRUE(isKsymBlob(B));
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(B, "b", false));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(dumpOf(**R), "0000000000000010 T tok258_fn\n"
                         "0000000000000020 t tok0_x\n");
  auto N = (*R)->lookupName("tok0_x");
  ASSERT_TRUE(N && N->size() == 1);
  EXPECT_EQ((*N)[0].Address, 0x20u);
}

TEST(KsymBlob, RejectsUnrepresentableNames) {
  SymbolList L = sampleList("1000 T ok\n");
  std::string Long(70000, 'x');
  L.Symbols.push_back({0x2000, 'T', Long, ""});
  std::string B;
  Error E = writeKsymBlob(L, B);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("too long"), std::string::npos);
  std::string Compact;
  ASSERT_FALSE(bool(writeCompact(L, Compact)));
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Compact, "c", false));
  ASSERT_TRUE(bool(R));
  auto S = (*R)->lookupAddress(0x2000);
  ASSERT_TRUE(S && *S);
  EXPECT_EQ((*S)->Name, Long);
}

TEST(Compact, MillionSymbols) {
  std::string Text;
  Text.reserve(40u << 20);
  uint64_t A = 0xffffffff81000000;
  for (unsigned I = 0; I < 1000000; ++I) {
    A += (I % 7 == 0) ? 0 : 16 * (1 + I % 97);
    Text += utohexstr(A, true, 16) + (I % 3 ? " t " : " T ") + "fn_" +
            std::to_string(I % 5000) + "_" + std::to_string(I) + "\n";
  }
  SymbolList L = sampleList(Text);
  ASSERT_EQ(L.Symbols.size(), 1000000u);
  for (Fmt F : {Fmt::Compact, Fmt::Blob}) {
    std::string Storage;
    auto R = writeAndOpen(L, F, Storage);
    // Large tables get back pointers every 4 steps (header byte 42).
    if (F == Fmt::Compact) {
      EXPECT_EQ(uint8_t(Storage[42]), 4u);
    }
    EXPECT_TRUE(dumpOf(*R) == Text);
    auto N = R->lookupName("fn_4999_999999");
    ASSERT_TRUE(N && N->size() == 1);
    EXPECT_EQ((*N)[0].Address, A);
    auto S = R->lookupAddress(A + 5);
    ASSERT_TRUE(S && *S);
    EXPECT_EQ((*S)->Name, "fn_4999_999999");
  }
}

// Records whose shared or new token counts do not fit the record header
// table (256 or more) spell their headers out; blocks holding them take
// the reader's general path: same answers as the others.
TEST(Compact, SpelledOutHeaders) {
  std::string Text;
  std::vector<std::string> Names;
  std::string Long;
  for (int K = 0; K < 300; ++K)
    Long += "w" + std::to_string(K % 5) + "_";
  for (int I = 0; I < 70; ++I) {
    // Groups of names sharing 300 tokens, and short ones between them.
    std::string N =
        I % 3 ? Long + "end" + std::to_string(I) : "short_" + std::to_string(I);
    Names.push_back(N);
    Text += utohexstr(0x10000 + 32 * I) + (I % 2 ? " T " : " t ") + N + "\n";
  }
  SymbolList L = sampleList(Text, 0x10000 + 32 * 70);
  std::string Storage;
  auto R = writeAndOpen(L, Fmt::Compact, Storage);
  SymbolInfo Info;
  std::vector<SymbolInfo> Matches;
  for (int I = 0; I < 70; ++I) {
    Expected<bool> Found = R->lookupAddressInto(0x10000 + 32 * I + 5, Info);
    ASSERT_TRUE(Found && *Found);
    EXPECT_EQ(Info.Name, Names[I]);
    ASSERT_FALSE(bool(R->lookupNameInto(Names[I], Matches)));
    ASSERT_EQ(Matches.size(), 1u) << I;
    EXPECT_EQ(Matches[0].Address, uint64_t(0x10000 + 32 * I));
  }
  std::string Want;
  for (int I = 0; I < 70; ++I)
    Want += utohexstr(0x10000 + 32 * I, true, 16) + (I % 2 ? " T " : " t ") +
            Names[I] + "\n";
  EXPECT_EQ(dumpOf(*R), Want);
}

// Clusters of symbols far apart (as kernel text and module space are) give
// the address guide several segments; lookups in each cluster, in the gaps
// and past the end find the right symbol or none.
TEST(Compact, AddressGuideSegments) {
  std::mt19937_64 Rng(9);
  std::vector<uint64_t> Addrs;
  std::string Text;
  uint64_t A = 0xffffffff81000000;
  for (int Cluster = 0; Cluster < 4; ++Cluster) {
    for (int I = 0; I < 500; ++I) {
      Addrs.push_back(A);
      Text += utohexstr(A, true) + " t f" + std::to_string(Addrs.size()) + "\n";
      A += 16 * (1 + Rng() % 64);
    }
    // 32 MiB, 1 GiB, 100 MiB.
    A += Cluster == 0 ? (32u << 20) : Cluster == 1 ? (1u << 30) : (100u << 20);
  }
  uint64_t End = Addrs.back() + 64;
  SymbolList L = sampleList(Text, End);
  std::string Storage;
  auto R = writeAndOpen(L, Fmt::Compact, Storage);
  SymbolInfo Info;
  for (size_t I = 0; I < Addrs.size(); ++I) {
    uint64_t Next = I + 1 < Addrs.size() ? Addrs[I + 1] : End;
    for (uint64_t Q : {Addrs[I], Addrs[I] + (Next - Addrs[I]) / 2, Next - 1}) {
      Expected<bool> Found = R->lookupAddressInto(Q, Info);
      ASSERT_TRUE(Found && *Found) << I;
      EXPECT_EQ(Info.Address, Addrs[I]);
      EXPECT_EQ(Info.Name, "f" + std::to_string(I + 1));
    }
  }
  for (uint64_t Q : {Addrs[0] - 1, End, End + (1u << 30)}) {
    Expected<bool> Found = R->lookupAddressInto(Q, Info);
    ASSERT_TRUE(bool(Found));
    EXPECT_FALSE(*Found);
  }
}

// Names cut at '.' and '_' in every odd place, types other than t/T, and
// names that are not in the table.
// Section 0 is a front-coded token table whose ids are sorted by bytes
// inside each range of one id code length; a version-3 table is refused.
TEST(Compact, TokenTiersSortedAndFrontCoded) {
  // Word I is used about 4000 / (I + 1) times: every id code length occurs.
  std::mt19937 Rng(21);
  std::string Text;
  std::vector<std::string> Names;
  for (int I = 0; I < 20000; ++I) {
    std::string N;
    for (int W = 0, NW = 1 + Rng() % 4; W < NW; ++W) {
      unsigned R = Rng() % 5000;
      N += (W ? "_w" : "w") + std::to_string(5000 / (R + 1) + R % 7);
    }
    Names.push_back(N);
    Text += utohexstr(0x10000 + 16 * I) + " t " + N + "\n";
  }
  SymbolList L = sampleList(Text, 0x10000 + 16 * 20000);
  std::string Storage;
  auto R = writeAndOpen(L, Fmt::Compact, Storage);
  ASSERT_TRUE(R);
  EXPECT_EQ(support::endian::read32le(&Storage[8]), 5u);
  uint32_t Off = support::endian::read32le(&Storage[64]);
  uint32_t Size = support::endian::read32le(&Storage[68]);
  StringRef Sec0 = StringRef(Storage).substr(Off, Size);
  ASSERT_EQ(Sec0[4], char(token::FrontCodedVersion));
  Expected<token::TokenTable> T = token::TokenTable::create(Sec0);
  ASSERT_TRUE(bool(T)) << toString(T.takeError());
  ASSERT_TRUE(T->ownsText());
  unsigned A = Storage[52], B = Storage[53], C = Storage[54];
  uint32_t Base2 = A, Base3 = A + 16 * B, Base4 = Base3 + 256 * C,
           Base7 = Base4 + 4096 * (15 - A - B - C);
  uint32_t N = T->numTokens();
  ASSERT_GT(N, Base3 + 2) << "the test needs three tiers";
  for (uint32_t Id = 1; Id < N; ++Id) {
    if (Id != Base2 && Id != Base3 && Id != Base4 && Id != Base7) {
      ASSERT_LT(T->token(Id - 1), T->token(Id)) << "id " << Id;
    }
  }
  SymbolInfo Info;
  for (int I = 0; I < 20000; I += 97) {
    Expected<bool> Found = R->lookupAddressInto(0x10000 + 16 * I, Info);
    ASSERT_TRUE(Found && *Found);
    EXPECT_EQ(Info.Name, Names[I]);
  }
  // The previous version is refused.
  std::string Old = Storage;
  support::endian::write32le(&Old[8], 3);
  auto Bad = openSymbolTable(MemoryBuffer::getMemBuffer(Old, "t", false));
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("version 3 is not supported"),
            std::string::npos);
}

TEST(Compact, NameEdgeCases) {
  const char *Names[] = {"a..b",     "_.x",  ".a",    "a.",      "x_.y",
                         "__",       "_",    "a_b.c", "a_b",     "a_b_",
                         "a.b.c",    "a._b", "ab",    "a",       ".",
                         "z.isra.0", "z",    "z_",    "zz.cold", "y"};
  std::string Text;
  uint64_t A = 0x1000;
  const char Types[] = {'t', 'T', 'd', 'D', 'r', 'W'};
  for (size_t I = 0; I < std::size(Names); ++I) {
    Text += utohexstr(A, true) + " " + Types[I % 6] + " " + Names[I] + "\n";
    A += 0x10;
  }
  SymbolList L;
  ParseOptions O;
  O.AllTypes = true;
  ASSERT_FALSE(bool(parseSymbolList(Text, "in", O, L)));
  L.EndAddress = A;
  std::string Storage;
  auto R = writeAndOpen(L, Fmt::Compact, Storage);
  std::string Want;
  for (size_t I = 0; I < std::size(Names); ++I)
    Want += utohexstr(0x1000 + 0x10 * I, true, 16) + " " + Types[I % 6] + " " +
            Names[I] + "\n";
  EXPECT_EQ(dumpOf(*R), Want);
  std::vector<SymbolInfo> Matches;
  for (size_t I = 0; I < std::size(Names); ++I) {
    ASSERT_FALSE(bool(R->lookupNameInto(Names[I], Matches)));
    ASSERT_EQ(Matches.size(), 1u) << Names[I];
    EXPECT_EQ(Matches[0].Address, 0x1000 + 0x10 * I) << Names[I];
    EXPECT_EQ(Matches[0].Type, Types[I % 6]) << Names[I];
  }
  for (const char *Absent : {"", "a_", "a.b", "b", "zzz", "_.", "..", "a__b"}) {
    ASSERT_FALSE(bool(R->lookupNameInto(Absent, Matches)));
    EXPECT_TRUE(Matches.empty()) << Absent;
  }
}

TEST(Compact, RejectsWideAddressSpan) {
  SymbolList L = sampleList("1000 T a\n200000000 T b\n");
  std::string Out;
  Error E = writeCompact(L, Out);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
}

// Both real inputs round-trip through both formats (when present).
void checkRealInput(StringRef Path) {
  auto Buf = MemoryBuffer::getFileAsStream(Path);
  if (!Buf || (*Buf)->getBufferSize() == 0)
    GTEST_SKIP() << Path.str() << " not available";
  SymbolList L;
  Error E = parseSymbolList((*Buf)->getBuffer(), Path, {}, L);
  if (E) {
    std::string M = toString(std::move(E));
    if (M.find("every address is zero") != std::string::npos)
      GTEST_SKIP() << M;
    FAIL() << M;
  }
  std::string Expected;
  for (const KernelSymbol &S : L.Symbols) {
    Expected +=
        utohexstr(S.Address, true, 16) + " " + S.Type + " " + S.Name.str();
    if (!S.Module.empty())
      Expected += ("\t[" + S.Module + "]").str();
    Expected += "\n";
  }
  std::string C;
  auto R = writeAndOpen(L, Fmt::Compact, C);
  EXPECT_EQ(dumpOf(*R), Expected);
  std::string B;
  auto RB = writeAndOpen(L, Fmt::Blob, B);
  std::string NoModules;
  for (const KernelSymbol &S : L.Symbols)
    NoModules += utohexstr(S.Address, true, 16) + " " + S.Type + " " +
                 S.Name.str() + "\n";
  EXPECT_EQ(dumpOf(*RB), NoModules);
}

// The vector fast paths and the portable paths of the compact reader give
// the same answers: every symbol's start, middle and last byte, the gaps,
// and every name, on tables made to reach the rare cases (aliases over
// block boundaries, spelled-out headers, long names, modules, large gaps).
void expectPathsAgree(StringRef Storage) {
  ReaderOptions Portable;
  Portable.Portable = true;
  auto F = openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "f", false));
  auto P = openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "p", false),
                           Portable);
  ASSERT_TRUE(F && P);
  const SymbolReader &RF = **F, &RP = **P;
  ASSERT_EQ(RF.numSymbols(), RP.numSymbols());
  SymbolInfo SF, SP;
  auto Same = [&](uint64_t A) {
    Expected<bool> XF = RF.lookupAddressInto(A, SF);
    Expected<bool> XP = RP.lookupAddressInto(A, SP);
    ASSERT_TRUE(XF && XP);
    ASSERT_EQ(*XF, *XP) << utohexstr(A);
    if (!*XF)
      return;
    ASSERT_EQ(SF.Name, SP.Name) << utohexstr(A);
    ASSERT_EQ(SF.Address, SP.Address);
    ASSERT_EQ(SF.Size, SP.Size);
    ASSERT_EQ(SF.Type, SP.Type);
    ASSERT_EQ(SF.Module, SP.Module);
    ASSERT_EQ(SF.Index, SP.Index);
  };
  std::vector<SymbolInfo> MF, MP;
  for (uint32_t I = 0; I < RP.numSymbols(); ++I) {
    SymbolInfo S;
    ASSERT_FALSE(bool(RP.fillAddressAndSize(I, S)));
    Same(S.Address - 1);
    Same(S.Address);
    if (S.Size && *S.Size > 1) {
      Same(S.Address + *S.Size / 2);
      Same(S.Address + *S.Size - 1);
    }
    SymbolInfo DF, DP;
    ASSERT_FALSE(bool(RF.describe(I, DF)));
    ASSERT_FALSE(bool(RP.describe(I, DP)));
    ASSERT_EQ(DF.Name, DP.Name);
    ASSERT_EQ(DF.Type, DP.Type);
    ASSERT_EQ(DF.Module, DP.Module);
    if (I % 7 == 0) {
      ASSERT_FALSE(bool(RF.lookupNameInto(DP.Name, MF)));
      ASSERT_FALSE(bool(RP.lookupNameInto(DP.Name, MP)));
      ASSERT_EQ(MF.size(), MP.size());
      for (size_t K = 0; K < MF.size(); ++K)
        ASSERT_EQ(MF[K].Index, MP[K].Index);
    }
  }
  Same(0);
  Same(UINT64_MAX);
}

TEST(Compact, VectorAndPortablePathsAgree) {
  std::mt19937_64 Rng(5);
  const char *Words[] = {"ext4",  "get", "set", "xattr", "",       "a",
                         "inode", "rcu", "do",  "x86",   "__",     "init",
                         ".isra", ".0",  "é",   "long_", "q.cold", "z"};
  for (unsigned Round = 0; Round < 6; ++Round) {
    std::string Text;
    uint64_t A = 0xffffffff00000000;
    unsigned Count = Round < 3 || Round == 4 ? 3000 : 40000;
    for (unsigned I = 0; I < Count; ++I) {
      // Runs of aliases (some over block boundaries), unaligned addresses,
      // a module-space jump.
      if (I == Count / 2)
        A += uint64_t(1) << 30;
      else if (Rng() % (Round % 3 == 0 ? 3 : 12))
        A += (Rng() % 4 ? 16 : 1) * (1 + Rng() % (Round == 4 ? 20000 : 300));
      std::string N;
      unsigned K = 1 + Rng() % (Round == 5 ? 12 : 5);
      for (unsigned J = 0; J < K; ++J)
        N += (J ? "_" : "") + std::string(Words[Rng() % 18]);
      if (Rng() % 3 == 0)
        N += "_" + std::to_string(Rng() % 90000);
      if (Rng() % 500 == 0)
        N += std::string(300 + Rng() % 3000, 'w');
      if (N.empty())
        N = "e";
      Text += utohexstr(A, true) + (Rng() % 2 ? " T " : " t ") + N;
      Text +=
          I >= Count / 2 ? "\t[mod" + std::to_string(I / 97 % 5) + "]\n" : "\n";
    }
    SymbolList L = sampleList(Text, A + 64);
    std::string Storage;
    ASSERT_FALSE(bool(writeCompact(L, Storage)));
    expectPathsAgree(Storage);
  }
}

// Record escapes (counts of 15 or more tokens new or dropped), many type
// letters in several type planes, repeated names (nothing new): the dump
// round-trips and both reader paths agree.
TEST(Compact, EscapesAndTypePlanes) {
  std::mt19937_64 Rng(9);
  const char Types[] = "tTdDbBrRwWvVaAgG";
  std::string Text;
  uint64_t A = 0xffffffff81000000;
  std::string Prev = "a";
  for (unsigned I = 0; I < 5000; ++I) {
    A += 16 * (1 + Rng() % 40);
    std::string N;
    switch (Rng() % 6) {
    case 0: // many tokens: a long escape for new and dropped counts
      for (unsigned K = 0, E = 15 + Rng() % 40; K < E; ++K)
        N += "w" + std::to_string(Rng() % 7) + "_";
      N += "end";
      break;
    case 1: // the previous name again
      N = Prev;
      break;
    default:
      N = "f" + std::to_string(Rng() % 300) + "_" + std::to_string(Rng() % 9);
    }
    Prev = N;
    Text += utohexstr(A, true) + " " + Types[Rng() % 16] + " " + N + "\n";
  }
  SymbolList L;
  ParseOptions O;
  O.AllTypes = true;
  ASSERT_FALSE(bool(parseSymbolList(Text, "in", O, L)));
  L.EndAddress = A + 16;
  std::string Storage;
  ASSERT_FALSE(bool(writeCompact(L, Storage)));
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "t", false));
  ASSERT_TRUE(bool(R));
  EXPECT_TRUE(dumpOf(**R) == Text);
  expectPathsAgree(Storage);
}

// Address blocks of every shape, on the vector and the portable paths,
// against the symbol list: short last blocks (1, 2, 31 symbols), one
// width without escapes, a few or many escapes, escaped values at the
// vector path's widest (25 bits) and past it (the portable path takes
// those blocks), alias groups at block edges, runs of aliases, and
// addresses in the gaps and past the end.
TEST(Compact, AddressBlocksAgainstOracle) {
  std::mt19937_64 Rng(11);
  ReaderOptions Portable;
  Portable.Portable = true;
  for (unsigned Count : {1u, 2u, 31u, 32u, 33u, 63u, 64u, 65u, 97u, 1025u}) {
    for (unsigned Shape = 0; Shape < 9; ++Shape) {
      std::string Text;
      std::vector<uint64_t> Addrs;
      std::vector<std::string> Mods;
      uint64_t A = 0xffffffff00000000;
      for (unsigned I = 0; I < Count; ++I) {
        uint64_t D = 0;
        switch (Shape) {
        case 0:
          D = 16;
          break;
        case 1:
          D = 16 * (1 + Rng() % 40);
          break;
        case 2:
          D = Rng() % 3 ? 16 : 16 * (1 + Rng() % 100000);
          break;
        case 3:
          D = I % 32 == 0 || I % 32 == 31 ? 0 : 1 + Rng() % 64;
          break;
        case 4:
          D = Rng() % 16 == 0 ? (uint64_t(1) << 25) + Rng() % 1000 : Rng() % 5;
          break;
        case 5:
          D = Rng() % 4 == 0 ? 0 : 1 + Rng() % 3;
          break;
        case 6:
          D = Rng() % 8 == 0 ? (uint64_t(1) << 24) + Rng() % (1 << 24)
                             : 1 + Rng() % 3;
          break;
        case 7:
          // Offsets 1 .. 24 then aliases: 31 elements whose high parts
          // (low parts of no bits) fill all 56 bits of the unary.
          D = I % 32 && I % 32 <= 24 ? 1 : 0;
          break;
        case 8:
          // 4 KiB aligned: the shift stops at 7.
          D = 4096 * (1 + Rng() % 4);
          break;
        }
        A += I ? D : 0;
        Addrs.push_back(A);
        // Shapes 5 and 6: runs of modules, many short ones.
        std::string Mod;
        if (Shape >= 5 && I % 11 > 3)
          Mod = "m" + std::to_string(I / 3 % 4);
        Mods.push_back(Mod);
        Text += utohexstr(A, true) + (Rng() % 2 ? " T " : " t ") + "s" +
                std::to_string(I) + (Mod.empty() ? "" : "\t[" + Mod + "]") +
                "\n";
      }
      uint64_t End = A + 16;
      SymbolList L = sampleList(Text, End);
      std::string Storage;
      ASSERT_FALSE(bool(writeCompact(L, Storage)));
      expectPathsAgree(Storage);
      for (bool P : {false, true}) {
        auto R =
            openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "t", false),
                            P ? Portable : ReaderOptions());
        ASSERT_TRUE(bool(R));
        auto Check = [&](uint64_t X) {
          SCOPED_TRACE("count " + std::to_string(Count) + " shape " +
                       std::to_string(Shape) + " at " + utohexstr(X) +
                       (P ? " portable" : " vector"));
          auto It = std::upper_bound(Addrs.begin(), Addrs.end(), X);
          auto Found = (*R)->findLastAtOrBelow(X);
          ASSERT_TRUE(bool(Found));
          if (It == Addrs.begin()) {
            EXPECT_FALSE(Found->has_value());
          } else {
            ASSERT_TRUE(Found->has_value());
            EXPECT_EQ(**Found, uint32_t(It - Addrs.begin() - 1));
          }
          SymbolInfo Info;
          Expected<bool> Hit = (*R)->lookupAddressInto(X, Info);
          ASSERT_TRUE(bool(Hit));
          uint64_t Next = It == Addrs.end() ? End : *It;
          if (It == Addrs.begin() || X >= Next) {
            EXPECT_FALSE(*Hit);
            return;
          }
          ASSERT_TRUE(*Hit);
          uint64_t At = *std::prev(It);
          auto First = std::lower_bound(Addrs.begin(), Addrs.end(), At);
          EXPECT_EQ(Info.Address, At);
          EXPECT_EQ(Info.Size, std::optional<uint64_t>(Next - At));
          EXPECT_GE(Info.Index, uint32_t(First - Addrs.begin()));
          EXPECT_LT(Info.Index, uint32_t(It - Addrs.begin()));
          EXPECT_EQ(Info.Name, "s" + std::to_string(Info.Index));
          EXPECT_EQ(Info.Module, Mods[Info.Index]);
        };
        for (size_t I = 0; I < Addrs.size(); ++I) {
          Check(Addrs[I]);
          Check(Addrs[I] + 1);
          Check(Addrs[I] - 1);
          if (I + 1 < Addrs.size())
            Check(Addrs[I] + (Addrs[I + 1] - Addrs[I]) / 2);
        }
        Check(End - 1);
        Check(End);
        Check(UINT64_MAX);
      }
    }
  }
}

// Name blocks the vector name path leaves to the general one: more than
// 128 token ids in a block, a record of more than 64 tokens, counts of 15
// and more spelled out in escapes, tokens longer than a span holds. Every
// lookup still gives the written name, on both paths.
TEST(Compact, NameBlocksOffTheVectorPath) {
  std::mt19937_64 Rng(5);
  std::string Text;
  std::vector<std::string> Names;
  for (unsigned I = 0; I < 400; ++I) {
    std::string N = "n" + std::to_string(I);
    unsigned Words = I < 100 ? 6 : I < 200 ? (I % 5 ? 2 : 20) : 3;
    for (unsigned K = 0; K < Words; ++K)
      N += "_" + std::to_string(Rng() % 100000);
    if (I >= 300 && I % 3 == 0)
      N += "_" + std::string(70 + I % 9, 'q');
    Names.push_back(N);
    Text += utohexstr(0x100000 + 32 * I) + " t " + N + "\n";
  }
  for (unsigned I = 0; I < 2; ++I) {
    std::string N = "m";
    for (unsigned K = 0; K < 80; ++K)
      N += "_" + std::to_string(K);
    N += std::to_string(I);
    Names.push_back(N);
    Text += utohexstr(0x100000 + 32 * (400 + I)) + " t " + N + "\n";
  }
  SymbolList L = sampleList(Text, 0x100000 + 32 * 402);
  std::string Storage;
  ASSERT_FALSE(bool(writeCompact(L, Storage)));
  expectPathsAgree(Storage);
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Storage, "t", false));
  ASSERT_TRUE(bool(R));
  SymbolInfo Info;
  for (unsigned I = 0; I < Names.size(); ++I) {
    Expected<bool> Found = (*R)->lookupAddressInto(0x100000 + 32 * I + 5, Info);
    ASSERT_TRUE(Found && *Found);
    EXPECT_EQ(Info.Name, Names[I]);
  }
}

TEST(RealInputs, VectorAndPortablePathsAgree) {
  for (StringRef Path : {"/var/tmp/dwarfpack-bench/kdbg/usr/lib/debug/boot/"
                         "System.map-6.1.0-56-cloud-amd64",
                         "/proc/kallsyms"}) {
    auto Buf = MemoryBuffer::getFileAsStream(Path);
    if (!Buf || (*Buf)->getBufferSize() == 0)
      continue;
    SymbolList L;
    if (Error E = parseSymbolList((*Buf)->getBuffer(), Path, {}, L)) {
      consumeError(std::move(E));
      continue;
    }
    std::string Storage;
    ASSERT_FALSE(bool(writeCompact(L, Storage)));
    expectPathsAgree(Storage);
  }
}

TEST(RealInputs, SystemMap) {
  checkRealInput("/var/tmp/dwarfpack-bench/kdbg/usr/lib/debug/boot/"
                 "System.map-6.1.0-56-cloud-amd64");
}

TEST(RealInputs, ProcKallsyms) { checkRealInput("/proc/kallsyms"); }

} // namespace
