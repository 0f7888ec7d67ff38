//===- FrontCodedTest.cpp - Tests of the front-coded token table ----------===//

#include "dwarfpack/Token/TokenTable.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

#include "gtest/gtest.h"

#include "TokenTestUtil.h"

#include <optional>
#include <random>

using namespace llvm;
using namespace dwarfpack::token;

using dwarfpack::token::testing::randomNames;

namespace {

Expected<TokenEncoder> encoderOf(ArrayRef<std::string> Names) {
  TokenTableBuilder B;
  for (const std::string &N : Names)
    B.addName(N);
  return B.finish();
}

// The version-2 form of Enc decodes to exactly the tokens of its version-1
// form, owns its text (padded with zeros), and copies outlive the original.
void expectFrontCodedRoundTrip(const TokenEncoder &Enc) {
  std::string V2 = Enc.frontCoded();
  ASSERT_GE(V2.size(), TableHeaderSize);
  ASSERT_EQ(V2[4], char(FrontCodedVersion));
  ASSERT_EQ(V2.size() % 4, 0u);
  Expected<TokenTable> V1 = TokenTable::create(Enc.serialized());
  ASSERT_TRUE(bool(V1)) << toString(V1.takeError());
  EXPECT_FALSE(V1->ownsText());
  uint64_t Size = 0;
  std::optional<TokenTable> Copy;
  {
    // Decode from a buffer that dies before the table is used.
    std::string Buffer = V2 + "trailing";
    Expected<TokenTable> T = TokenTable::create(Buffer, &Size);
    ASSERT_TRUE(bool(T)) << toString(T.takeError());
    EXPECT_TRUE(T->ownsText());
    Copy = *T;
    Buffer.assign(Buffer.size(), '\xAA');
  }
  EXPECT_EQ(Size, V2.size());
  const TokenTable &T = *Copy;
  ASSERT_EQ(T.numTokens(), V1->numTokens());
  EXPECT_EQ(T.separators().Word, V1->separators().Word);
  EXPECT_EQ(T.separators().Sub, V1->separators().Sub);
  EXPECT_EQ(T.code().OneByte, V1->code().OneByte);
  for (uint32_t I = 0; I < T.numTokens(); ++I) {
    ASSERT_EQ(T.token(I), V1->token(I)) << "token " << I;
    ASSERT_EQ(T.length(I), V1->length(I));
  }
  if (T.numTokens()) {
    StringRef Last = T.token(T.numTokens() - 1);
    for (uint64_t K = 0; K < OwnedTextPadding; ++K)
      ASSERT_EQ(Last.data()[Last.size() + K], 0);
  }
  // A moved table keeps its text too.
  TokenTable Moved = std::move(*Copy);
  Copy.reset();
  for (uint32_t I = 0; I < Moved.numTokens(); ++I)
    ASSERT_EQ(Moved.token(I), V1->token(I));
}

TEST(FrontCoded, RoundTripEdgeCases) {
  std::string P20(20, 'p');
  std::vector<std::string> Names = {
      "",                               // one empty token
      "a__b",                           // an empty token between two
      std::string(15, 'f'),             // exactly the first long length
      std::string(16, 'f'),             // shares 15 (a count of 15 + 0)
      std::string(300, 'f'),            // shares 16, 284 new bytes
      std::string(300, 'f') + "g",      // shares 300
      P20 + "1_" + P20 + "2_" + P20,    // shares more than 15
      "\xc3\xbc_\xc3\xbd_\xe5\x90\x8d", // UTF-8
      std::string("nul\0x_\xff\xfe_\x80", 11),
      ".isra_.cold_x.0"};
  Expected<TokenEncoder> Enc = encoderOf(Names);
  ASSERT_TRUE(bool(Enc));
  expectFrontCodedRoundTrip(*Enc);
  Enc->sortWithin({Enc->numTokens()});
  expectFrontCodedRoundTrip(*Enc);
}

TEST(FrontCoded, RoundTripSmallAndLarge) {
  for (auto Names :
       {std::vector<std::string>{"do_fork"}, std::vector<std::string>{"one"},
        std::vector<std::string>{""}}) {
    Expected<TokenEncoder> Enc = encoderOf(Names);
    ASSERT_TRUE(bool(Enc));
    expectFrontCodedRoundTrip(*Enc);
  }
  Expected<TokenEncoder> Random =
      encoderOf(randomNames(20000, "_abcdefgh.\x01\xff", 60, 3));
  ASSERT_TRUE(bool(Random));
  ASSERT_GT(Random->numTokens(), 10000u);
  expectFrontCodedRoundTrip(*Random);
  Random->sortWithin({100, 5000, 7000});
  expectFrontCodedRoundTrip(*Random);
  // Many similar tokens, sorted: front coding makes them much smaller.
  std::vector<std::string> Sym;
  for (unsigned I = 0; I < 50000; ++I)
    Sym.push_back("prefix" + std::to_string(I * 7919 % 50000) + "suffix_x");
  Expected<TokenEncoder> S = encoderOf(Sym);
  ASSERT_TRUE(bool(S));
  S->sortWithin({S->numTokens()});
  expectFrontCodedRoundTrip(*S);
  EXPECT_LT(S->frontCoded().size(), S->serialized().size() / 2);
}

// The ids of each range are the range's old tokens in byte order; names
// encode and decode with the new ids; provisional ids follow.
TEST(FrontCoded, SortWithin) {
  std::vector<std::string> Names = randomNames(3000, "_abcdef.", 25, 8);
  TokenTableBuilder B;
  SmallVector<uint32_t, 0> Prov;
  std::vector<size_t> NameStart;
  for (const std::string &N : Names) {
    NameStart.push_back(Prov.size());
    B.addName(N, &Prov);
  }
  NameStart.push_back(Prov.size());
  Expected<TokenEncoder> E = B.finish();
  ASSERT_TRUE(bool(E));
  uint32_t N = E->numTokens();
  ASSERT_GT(N, 500u);
  Expected<TokenTable> Before = TokenTable::create(E->serialized());
  ASSERT_TRUE(bool(Before));
  std::vector<std::string> Old;
  for (uint32_t I = 0; I < N; ++I)
    Old.push_back(Before->token(I).str());
  std::string OldSerialized = E->serialized().str();

  // Ranges [0,7), [7,7), [7,200), [200,N-50); the last 50 ids stay.
  std::vector<uint32_t> Ends = {7, 7, 200, N - 50};
  E->sortWithin(Ends);
  Expected<TokenTable> After = TokenTable::create(E->serialized());
  ASSERT_TRUE(bool(After));
  ASSERT_EQ(After->numTokens(), N);
  uint32_t Begin = 0;
  for (uint32_t End : Ends) {
    std::vector<std::string> Want(Old.begin() + Begin, Old.begin() + End);
    llvm::sort(Want);
    for (uint32_t I = Begin; I < End; ++I)
      ASSERT_EQ(After->token(I), Want[I - Begin]) << "id " << I;
    Begin = End;
  }
  for (uint32_t I = Begin; I < N; ++I)
    ASSERT_EQ(After->token(I), Old[I]);
  EXPECT_NE(OldSerialized, E->serialized());

  // Provisional ids map to the new ids of the same tokens; names round-trip
  // through tokenize / encodeName and the new table.
  for (size_t K = 0; K < Names.size(); ++K) {
    SmallVector<uint32_t, 16> Ids;
    ASSERT_TRUE(E->tokenize(Names[K], Ids));
    ASSERT_EQ(Ids.size(), NameStart[K + 1] - NameStart[K]);
    for (size_t J = 0; J < Ids.size(); ++J)
      ASSERT_EQ(E->finalId(Prov[NameStart[K] + J]), Ids[J]);
    std::string Out;
    After->expand(Ids, Out);
    ASSERT_EQ(Out, Names[K]);
    SmallVector<uint8_t, 32> Enc;
    ASSERT_TRUE(E->encodeName(Names[K], Enc));
    const uint8_t *P = Enc.data();
    SmallVector<uint32_t, 16> Back;
    ASSERT_FALSE(bool(After->readName(P, Enc.end(), Back)));
    ASSERT_EQ(ArrayRef<uint32_t>(Back), ArrayRef<uint32_t>(Ids));
  }

  // Deterministic: the same corpus sorted the same way gives the same bytes,
  // and sorting again changes nothing.
  TokenTableBuilder B2;
  for (size_t K = Names.size(); K-- > 0;)
    B2.addName(Names[K]);
  Expected<TokenEncoder> E2 = B2.finish();
  ASSERT_TRUE(bool(E2));
  E2->sortWithin(Ends);
  EXPECT_EQ(E->serialized(), E2->serialized());
  EXPECT_EQ(E->frontCoded(), E2->frontCoded());
  std::string Once = E->serialized().str();
  E->sortWithin(Ends);
  EXPECT_EQ(Once, E->serialized());
  // Ends past the table are clamped.
  E2->sortWithin({N + 1000});
  for (uint32_t I = 1; I < N; ++I)
    ASSERT_LT(TokenTable::create(E2->serialized())->token(I - 1),
              TokenTable::create(E2->serialized())->token(I));
}

/// A version-2 table from raw records.
std::string frontCodedTable(uint32_t NumTokens, StringRef Records,
                            uint32_t TextSize) {
  std::string S(TableHeaderSize, '\0');
  support::endian::write32le(&S[0], TableMagic);
  S[4] = char(FrontCodedVersion);
  S[5] = '_';
  S[6] = '.';
  S[8] = char(0xC0);
  support::endian::write32le(&S[12], NumTokens);
  support::endian::write32le(&S[16], Records.size());
  support::endian::write32le(&S[20], TextSize);
  S += Records;
  S.resize(alignTo(S.size(), 4), '\0');
  return S;
}

std::string errorOf(StringRef Bytes) {
  Expected<TokenTable> T = TokenTable::create(Bytes);
  if (T)
    return "";
  return toString(T.takeError());
}

TEST(FrontCoded, CorruptInputs) {
  // "abc", "abd", "" : records (0 shared, 3 new) (2, 1) (0, 0).
  std::string Rec("\x30"
                  "abc"
                  "\x12"
                  "d"
                  "\0",
                  7);
  std::string Good = frontCodedTable(3, Rec, 6);
  ASSERT_EQ(errorOf(Good), "");
  {
    Expected<TokenTable> T = TokenTable::create(Good);
    ASSERT_TRUE(bool(T));
    EXPECT_EQ(T->token(1), "abd");
    EXPECT_EQ(T->token(2), "");
  }
  // Every truncation is an error (the records are cut, or the header).
  for (size_t Len = 0; Len < TableHeaderSize + Rec.size(); ++Len)
    EXPECT_NE(errorOf(StringRef(Good).take_front(Len)), "") << Len;
  // Only the padding cut off: still read, and the size occupied does not
  // count the missing bytes.
  {
    uint64_t Size = 0;
    StringRef Cut = StringRef(Good).take_front(TableHeaderSize + Rec.size());
    ASSERT_LT(Cut.size(), Good.size());
    Expected<TokenTable> T = TokenTable::create(Cut, &Size);
    ASSERT_TRUE(bool(T)) << toString(T.takeError());
    EXPECT_EQ(Size, Cut.size());
  }

  // Shared more than the previous token's length.
  EXPECT_NE(errorOf(frontCodedTable(2,
                                    StringRef("\x10"
                                              "a\x02",
                                              3),
                                    3)),
            "");
  EXPECT_NE(errorOf(frontCodedTable(1, StringRef("\x01", 1), 1)), "");
  // New bytes past the end of the records.
  EXPECT_NE(errorOf(frontCodedTable(1,
                                    StringRef("\x50"
                                              "ab",
                                              3),
                                    5)),
            "");
  // A count of 15 whose ULEB128 is missing, or runs past the records.
  EXPECT_NE(errorOf(frontCodedTable(1, StringRef("\xF0", 1), 15)), "");
  EXPECT_NE(errorOf(frontCodedTable(1, StringRef("\xF0\x80", 2), 15)), "");
  // A huge ULEB128 count.
  EXPECT_NE(
      errorOf(frontCodedTable(
          1, StringRef("\xF0\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10), 15)),
      "");
  // TextSize too large, too small.
  EXPECT_NE(errorOf(frontCodedTable(3, Rec, 7)), "");
  EXPECT_NE(errorOf(frontCodedTable(3, Rec, 5)), "");
  // More tokens declared than records, fewer (bytes left over).
  EXPECT_NE(errorOf(frontCodedTable(4, Rec, 6)), "");
  EXPECT_NE(errorOf(frontCodedTable(2, Rec, 6)), "");
  // Records running past the given bytes.
  std::string Long = Good;
  support::endian::write32le(&Long[16], 1000);
  EXPECT_NE(errorOf(Long), "");
  // Bad separators, reserved byte.
  std::string Seps = Good;
  Seps[6] = '_';
  EXPECT_NE(errorOf(Seps), "");
  std::string Reserved = Good;
  Reserved[7] = 4;
  EXPECT_NE(errorOf(Reserved), "");

  // Random byte flips: errors or tables whose every token is readable.
  std::vector<std::string> Names = randomNames(400, "_abcdef", 30, 12);
  Names.push_back(std::string(400, 'L') + "_" + std::string(401, 'L'));
  Expected<TokenEncoder> Enc = encoderOf(Names);
  ASSERT_TRUE(bool(Enc));
  Enc->sortWithin({Enc->numTokens()});
  std::string V2 = Enc->frontCoded();
  ASSERT_EQ(V2[4], char(FrontCodedVersion));
  for (size_t Len = 0; Len < V2.size(); ++Len) {
    Expected<TokenTable> T = TokenTable::create(StringRef(V2).take_front(Len));
    if (!T)
      consumeError(T.takeError());
  }
  std::mt19937 Rng(5);
  size_t Accepted = 0;
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Bad = V2;
    for (int K = 0; K < 2; ++K)
      Bad[Rng() % Bad.size()] ^= char(1 + Rng() % 255);
    Expected<TokenTable> T = TokenTable::create(Bad);
    if (!T) {
      consumeError(T.takeError());
      continue;
    }
    ++Accepted;
    size_t Sum = 0;
    for (uint32_t I = 0; I < T->numTokens(); ++I)
      Sum += T->token(I).size();
    ASSERT_LE(Sum, MaxExpansion * Bad.size());
  }
  // Flips inside the new bytes keep the table valid.
  EXPECT_GT(Accepted, 0u);
}

// A table whose decoded image would exceed MaxExpansion times its size is
// refused before its text is allocated, and the writer keeps version 1 for
// such tokens.
TEST(FrontCoded, DecodingBound) {
  // Token 0 of 200 bytes, then tokens sharing 199 bytes and adding one:
  // 4 bytes a record (count byte, ULEB128 of 184 in 2 bytes, the new
  // byte), 200 bytes of text each.
  const unsigned Count = 1000;
  std::string Rec;
  Rec.push_back(char(0xF0));
  uint8_t Buf[16];
  Rec.append(reinterpret_cast<char *>(Buf), encodeULEB128(200 - 15, Buf));
  Rec.append(200, 'q');
  for (unsigned I = 1; I < Count; ++I) {
    Rec.push_back(char(0x1F));
    Rec.append(reinterpret_cast<char *>(Buf), encodeULEB128(199 - 15, Buf));
    Rec.push_back(char(I));
  }
  std::string Bomb = frontCodedTable(Count, Rec, 200 * Count);
  std::string Err = errorOf(Bomb);
  EXPECT_NE(Err.find("exceeds 16 times"), std::string::npos) << Err;
  // A bigger declared text is refused by the first check.
  support::endian::write32le(&Bomb[20], UINT32_MAX);
  Err = errorOf(Bomb);
  EXPECT_NE(Err.find("exceeds 16 times"), std::string::npos) << Err;

  // The same tokens through the writer: version 1, which reads in place.
  std::vector<std::string> Names;
  for (unsigned I = 1; I < Count; ++I)
    Names.push_back(std::string(199, 'q') + std::to_string(I));
  Expected<TokenEncoder> Enc = encoderOf(Names);
  ASSERT_TRUE(bool(Enc));
  Enc->sortWithin({Enc->numTokens()});
  std::string Out = Enc->frontCoded();
  EXPECT_EQ(Out[4], char(TableVersion));
  EXPECT_EQ(Out, Enc->serialized());
  Expected<TokenTable> T = TokenTable::create(Out);
  ASSERT_TRUE(bool(T));
  EXPECT_FALSE(T->ownsText());
}

} // namespace
