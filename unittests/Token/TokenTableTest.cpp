//===- TokenTableTest.cpp - Tests of the shared token encoder -------------===//

#include "dwarfpack/Token/TokenTable.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include "TokenTestUtil.h"

#include <random>

using namespace llvm;
using namespace dwarfpack::token;

using dwarfpack::token::testing::randomNames;

namespace {

struct Built {
  TokenEncoder Enc;
  TokenTable Table;
};

Built build(ArrayRef<std::string> Names, Separators Seps = {}) {
  TokenTableBuilder B(Seps);
  for (const std::string &N : Names)
    B.addName(N);
  Expected<TokenEncoder> Enc = B.finish();
  EXPECT_TRUE(bool(Enc)) << toString(Enc.takeError());
  Expected<TokenTable> T = TokenTable::create(Enc->serialized());
  EXPECT_TRUE(bool(T)) << toString(T.takeError());
  return {std::move(*Enc), *T};
}

// Encodes every name, then decodes each one alone from its own offset.
void expectRoundTrip(ArrayRef<std::string> Names) {
  Built B = build(Names);
  SmallVector<uint8_t, 0> Data;
  std::vector<size_t> Offsets;
  for (const std::string &N : Names) {
    Offsets.push_back(Data.size());
    ASSERT_TRUE(B.Enc.encodeName(N, Data));
  }
  for (size_t I = 0; I < Names.size(); ++I) {
    const uint8_t *P = Data.data() + Offsets[I];
    SmallVector<uint32_t, 16> Ids;
    ASSERT_FALSE(bool(B.Table.readName(P, Data.end(), Ids)));
    std::string Out;
    B.Table.expand(Ids, Out);
    ASSERT_EQ(Out, Names[I]);
    ASSERT_EQ(B.Table.compare(Ids, Names[I]), 0);
    if (I + 1 < Names.size()) {
      ASSERT_EQ(P, Data.data() + Offsets[I + 1]);
    }
  }
}

int sign(int V) { return (V > 0) - (V < 0); }

TEST(TokenTable, EdgeCases) {
  std::vector<std::string> Names = {"",
                                    "_",
                                    "__",
                                    "____",
                                    "_a",
                                    "a_",
                                    "__a__b___",
                                    "a__b",
                                    "plain",
                                    ".",
                                    "..",
                                    "a.",
                                    ".a_b._.c",
                                    "\xc3\xbc_\xe5\x90\x8d\xe5\xad\x97",
                                    std::string("nul\0in_it", 9),
                                    "\xff\xfe_\x80",
                                    "foo::bar<int>(char const*)",
                                    std::string(65536, 'x'),
                                    std::string(300, '_'),
                                    "x_" + std::string(70000, 'y')};
  expectRoundTrip(Names);
}

TEST(TokenTable, OneName) { expectRoundTrip({"do_fork"}); }

TEST(TokenTable, GeneratedCorpus) {
  expectRoundTrip(randomNames(5000, "_abcdef.", 40, 1));
  expectRoundTrip(randomNames(2000, "_ab\x01\xff:<> ", 200, 2));
}

TEST(TokenTable, MillionNames) {
  std::vector<std::string> Names;
  Names.reserve(1000000);
  for (unsigned I = 0; I < 1000000; ++I)
    Names.push_back("sym_" + std::to_string(I % 1000) + "_" +
                    std::to_string(I) + (I % 3 ? "_cold" : ""));
  expectRoundTrip(Names);
}

TEST(TokenTable, FrequentWordsGetSmallIds) {
  Built B = build({"get_a", "get_b", "get_c", "set_a", "x"});
  SmallVector<uint32_t, 4> Ids;
  ASSERT_TRUE(B.Enc.tokenize("get_zz", Ids) == false);
  Ids.clear();
  ASSERT_TRUE(B.Enc.tokenize("get", Ids));
  EXPECT_EQ(Ids[0], 0u); // 3 uses
  EXPECT_EQ(B.Table.token(0), "get");
  EXPECT_EQ(B.Table.token(1), "a"); // 2 uses
  EXPECT_EQ(B.Table.numTokens(), 6u);
}

TEST(TokenTable, IdCodes) {
  for (unsigned OneByte : {1u, 0x80u, 0xC0u, 0xFEu}) {
    IdCode C{uint8_t(OneByte)};
    for (uint32_t Id :
         {0u, OneByte - 1, OneByte, OneByte + 255, C.twoByteLimit() - 1,
          C.twoByteLimit(), C.twoByteLimit() + 123456, MaxTokens - 1}) {
      SmallVector<uint8_t, 4> Out;
      C.encode(Id, Out);
      EXPECT_EQ(Out.size(), C.size(Id));
      const uint8_t *P = Out.data();
      uint32_t Back;
      ASSERT_TRUE(C.decode(P, Out.end(), Back));
      EXPECT_EQ(Back, Id);
      EXPECT_EQ(P, Out.end());
      // A truncated code is rejected.
      P = Out.data();
      if (Out.size() > 1) {
        EXPECT_FALSE(C.decode(P, Out.end() - 1, Back));
      }
    }
  }
}

TEST(TokenTable, SubSeparator) {
  SmallVector<StringRef, 8> T;
  splitTokens("get.isra.0_x..y_.z", {'_', '.'}, T);
  std::vector<std::string> Got(T.begin(), T.end());
  std::vector<std::string> Want = {"get", ".isra", ".0", "x",
                                   ".",   ".y",    "",   ".z"};
  EXPECT_EQ(Got, Want);
  T.clear();
  splitTokens("a__b", {'_', 0}, T);
  EXPECT_EQ(T.size(), 3u);
  // ".isra" is one shared token across names.
  Built B = build({"f.isra.0", "g.isra.0"});
  EXPECT_EQ(B.Table.numTokens(), 4u);
}

TEST(TokenTable, WeightsChooseIdsAndCode) {
  TokenTableBuilder B;
  SmallVector<uint32_t, 4> P;
  B.addName("often_rare", &P);
  std::vector<uint64_t> W(B.numTokens());
  W[P[0]] = 1;
  W[P[1]] = 100; // "rare" is written most, so it gets id 0
  Expected<TokenEncoder> E = B.finish(W);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(E->finalId(P[1]), 0u);
  EXPECT_EQ(E->finalId(P[0]), 1u);
  // Wrong number of weights is an error.
  Expected<TokenEncoder> Bad = B.finish(ArrayRef<uint64_t>(W).drop_back());
  EXPECT_FALSE(bool(Bad));
  consumeError(Bad.takeError());
  // With 300 equally used tokens, two-byte codes for the tail are cheaper
  // than shrinking the one-byte range: every id must still round-trip.
  TokenTableBuilder Many;
  for (int I = 0; I < 300; ++I)
    Many.addName("t" + std::to_string(I));
  Expected<TokenEncoder> M = Many.finish();
  ASSERT_TRUE(bool(M));
  EXPECT_GE(M->code().OneByte, 1u);
}

TEST(TokenTable, CompareMatchesMemcmp) {
  std::vector<std::string> Names = randomNames(3000, "_ab.\x7f\x80", 12, 3);
  Built B = build(Names);
  std::vector<std::string> Probes = randomNames(300, "_ab.\x7f\x80", 12, 4);
  Probes.push_back("");
  for (const std::string &N : Names) {
    SmallVector<uint32_t, 16> Ids;
    ASSERT_TRUE(B.Enc.tokenize(N, Ids));
    for (const std::string &P : Probes)
      ASSERT_EQ(B.Table.compare(Ids, P), sign(StringRef(N).compare(P)))
          << "'" << N << "' vs '" << P << "'";
  }
}

TEST(TokenTable, Deterministic) {
  std::vector<std::string> Names = randomNames(4000, "_abcdefg", 30, 5);
  std::string First = build(Names).Enc.serialized().str();
  std::reverse(Names.begin(), Names.end());
  EXPECT_EQ(First, build(Names).Enc.serialized().str());
}

// addToken counts like addName: tokens added one by one (in any order)
// give the same table and provisional ids that finalId maps alike.
TEST(TokenTable, AddTokenMatchesAddName) {
  std::vector<std::string> Names = randomNames(3000, "_.abcdefg", 30, 9);
  TokenTableBuilder ByName, ByToken;
  SmallVector<uint32_t, 0> NameIds, TokenIds;
  for (const std::string &N : Names)
    ByName.addName(N, &NameIds);
  for (size_t I = Names.size(); I-- > 0;) {
    SmallVector<StringRef, 16> Toks;
    splitTokens(Names[I], {}, Toks);
    for (StringRef T : Toks)
      TokenIds.push_back(ByToken.addToken(T));
  }
  EXPECT_EQ(ByName.numTokens(), ByToken.numTokens());
  Expected<TokenEncoder> A = ByName.finish(), B = ByToken.finish();
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->serialized(), B->serialized());
  // Same names, reversed: the last name's tokens come first.
  SmallVector<uint32_t, 16> Want;
  ASSERT_TRUE(A->tokenize(Names.back(), Want));
  for (size_t K = 0; K < Want.size(); ++K)
    EXPECT_EQ(B->finalId(TokenIds[K]), Want[K]);
}

TEST(TokenTable, OtherSeparator) {
  std::vector<std::string> Names = {"a/b/c", "a/b", "/x", "y/", "p.q/r::s"};
  Built B = build(Names, {'/', ':'});
  EXPECT_EQ(B.Table.separators().Word, '/');
  EXPECT_EQ(B.Table.separators().Sub, ':');
  for (const std::string &N : Names) {
    SmallVector<uint32_t, 8> Ids;
    ASSERT_TRUE(B.Enc.tokenize(N, Ids));
    std::string Out;
    B.Table.expand(Ids, Out);
    EXPECT_EQ(Out, N);
  }
}

// token() sums a group's length nibbles in one step and falls back to the
// long list; tokens must come out contiguous, in id order, whatever mix of
// short and long tokens precedes them in their group.
TEST(TokenTable, TokenOffsetsInEveryGroupPosition) {
  std::mt19937 Rng(11);
  std::vector<std::string> Names;
  for (int I = 0; I < 3000; ++I) {
    std::string N;
    for (int W = 0, NW = 1 + Rng() % 4; W < NW; ++W) {
      if (W)
        N += '_';
      // Mostly short words, some of 15 bytes or more (long tokens).
      unsigned Len = Rng() % 8 == 0 ? 15 + Rng() % 30 : Rng() % 15;
      for (unsigned C = 0; C < Len; ++C)
        N += char('a' + Rng() % 26);
    }
    Names.push_back(N);
  }
  Built B = build(Names);
  ASSERT_GT(B.Table.numTokens(), 100u);
  for (uint32_t I = 0; I + 1 < B.Table.numTokens(); ++I) {
    StringRef Tok = B.Table.token(I), Next = B.Table.token(I + 1);
    ASSERT_EQ(Tok.data() + Tok.size(), Next.data()) << "token " << I;
  }
  // And the round trip of every name.
  for (const std::string &N : Names) {
    SmallVector<uint32_t, 8> Ids;
    ASSERT_TRUE(B.Enc.tokenize(N, Ids));
    std::string Out;
    B.Table.expand(Ids, Out);
    ASSERT_EQ(Out, N);
  }
}

TEST(TokenTable, CorruptTables) {
  std::vector<std::string> Names = randomNames(500, "_abcdef", 20, 6);
  Names.push_back(std::string(400, 'L'));
  std::string Good = build(Names).Enc.serialized().str();
  // Every truncation is either rejected or, when only padding is lost,
  // still reads every token inside the given bytes.
  for (size_t Len = 0; Len < Good.size(); ++Len) {
    uint64_t Size = 0;
    Expected<TokenTable> T =
        TokenTable::create(StringRef(Good).take_front(Len), &Size);
    if (!T) {
      consumeError(T.takeError());
      continue;
    }
    // The size occupied never counts padding that was cut off (callers
    // use it to find what follows the table).
    ASSERT_LE(Size, Len);
    for (uint32_t I = 0; I < T->numTokens(); ++I) {
      StringRef Tok = T->token(I);
      ASSERT_GE(Tok.data(), Good.data());
      ASSERT_LE(Tok.data() + Tok.size(), Good.data() + Len);
    }
  }
  // Random byte flips never produce out-of-bounds tokens.
  std::mt19937 Rng(7);
  for (int Round = 0; Round < 2000; ++Round) {
    std::string Bad = Good;
    for (int K = 0; K < 3; ++K)
      Bad[Rng() % Bad.size()] ^= char(1 + Rng() % 255);
    Expected<TokenTable> T = TokenTable::create(Bad);
    if (!T) {
      consumeError(T.takeError());
      continue;
    }
    for (uint32_t I = 0; I < T->numTokens(); ++I) {
      StringRef Tok = T->token(I);
      ASSERT_LE(Tok.data() + Tok.size(), Bad.data() + Bad.size());
    }
  }
  // A name referring to a token id past the table is rejected.
  Built B = build({"a"});
  uint8_t Rec[] = {1, 5};
  const uint8_t *P = Rec;
  SmallVector<uint32_t, 2> Ids;
  Error E = B.Table.readName(P, Rec + 2, Ids);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  // A token count with more continuation bytes than a uint64_t needs is an
  // error (fuzz-token: LLVM's decoder shifted a zero slice by 70 bits and
  // read it as 0).
  uint8_t Long[12] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                      0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  P = Long;
  Ids.clear();
  E = B.Table.readName(P, Long + sizeof(Long), Ids);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
}

// Every t/T name of the Debian 6.1 System.map, when the machine has it.
TEST(TokenTable, RealSystemMap) {
  auto Buf =
      MemoryBuffer::getFile("/var/tmp/dwarfpack-bench/kdbg/usr/lib/"
                            "debug/boot/System.map-6.1.0-56-cloud-amd64");
  if (!Buf)
    GTEST_SKIP() << "System.map not available";
  std::vector<std::string> Names;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    SmallVector<StringRef, 3> F;
    L.split(F, ' ', 2);
    if (F.size() == 3)
      Names.push_back(F[2].str());
  }
  ASSERT_GT(Names.size(), 80000u);
  expectRoundTrip(Names);
}

} // namespace
