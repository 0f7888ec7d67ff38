//===- ColumnCodeTest.cpp - The compact table's column code ---------------===//

#include "dwarfpack/CompactTable/ColumnCode.h"

#include "gtest/gtest.h"

#include <random>

using namespace llvm;
using namespace dwarfpack::compact;

namespace {

using Counts = std::vector<std::pair<uint16_t, uint64_t>>;

/// "" when E succeeded, else its message.
template <typename T> std::string errorOf(Expected<T> &E) {
  return E ? std::string() : toString(E.takeError());
}

/// Encodes Values, reads them back through a parsed copy of the code.
void roundTrip(const ColumnCode &C, const std::vector<uint16_t> &Values) {
  std::string Section;
  C.serialize(Section);
  Expected<ColumnCode> Parsed = ColumnCode::parse(Section);
  ASSERT_EQ(errorOf(Parsed), "");
  BitWriter W;
  for (uint16_t V : Values)
    C.encode(V, W);
  std::string Bits = W.finish();
  const uint8_t *P = reinterpret_cast<const uint8_t *>(Bits.data());
  BitReader R(P, P + Bits.size());
  for (size_t I = 0; I < Values.size(); ++I) {
    uint16_t V = 0;
    ASSERT_TRUE(Parsed->decode(R, V)) << "value " << I;
    ASSERT_EQ(V, Values[I]) << "value " << I;
  }
  EXPECT_FALSE(R.overran());
  EXPECT_TRUE(R.atEnd());
}

TEST(ColumnCode, FrequentValuesGetShortCodes) {
  ColumnCode C = ColumnCode::fromCounts({{5, 1000}, {9, 10}, {1, 10}, {2, 1}});
  ASSERT_EQ(C.symbols().size(), 4u);
  // Canonical order: by length, then value.
  EXPECT_EQ(C.symbols()[0].Value, 5);
  EXPECT_EQ(C.symbols()[0].Length, 1);
  EXPECT_EQ(C.symbols()[3].Length, 3);
  roundTrip(C, {5, 9, 1, 2, 5, 5, 2, 9});
}

TEST(ColumnCode, DependsOnCountsOnly) {
  Counts A = {{3, 7}, {1, 7}, {2, 7}, {8, 1}};
  Counts B(A.rbegin(), A.rend());
  std::string SA, SB;
  ColumnCode::fromCounts(A).serialize(SA);
  ColumnCode::fromCounts(B).serialize(SB);
  EXPECT_EQ(SA, SB);
}

TEST(ColumnCode, LargestValues) {
  // 65535 and 65534 are DenseMap's reserved keys of a 16-bit key type.
  ColumnCode C = ColumnCode::fromCounts({{65535, 5}, {65534, 5}, {0, 1}});
  roundTrip(C, {65535, 0, 65534, 65535});
}

TEST(ColumnCode, OneValueTakesOneBit) {
  ColumnCode C = ColumnCode::fromCounts({{42, 3}});
  ASSERT_EQ(C.symbols().size(), 1u);
  EXPECT_EQ(C.symbols()[0].Length, 1);
  roundTrip(C, {42, 42, 42, 42, 42, 42, 42, 42, 42});
  EXPECT_TRUE(ColumnCode::fromCounts({}).empty());
}

TEST(ColumnCode, LengthsAreLimited) {
  // Fibonacci counts make a Huffman code as deep as it has values.
  Counts Fib;
  uint64_t A = 1, B = 1;
  for (uint16_t V = 0; V < 40; ++V) {
    Fib.push_back({V, A});
    std::tie(A, B) = std::make_pair(B, A + B);
  }
  ColumnCode C = ColumnCode::fromCounts(Fib);
  for (const ColumnCode::Symbol &S : C.symbols())
    EXPECT_LE(S.Length, ColumnCode::MaxLength);
  std::vector<uint16_t> Values;
  for (uint16_t V = 0; V < 40; ++V)
    Values.push_back(V);
  roundTrip(C, Values);
}

TEST(ColumnCode, EveryValue) {
  Counts All;
  std::mt19937 Rng(7);
  for (uint32_t V = 0; V <= UINT16_MAX; ++V)
    All.push_back({uint16_t(V), 1 + Rng() % 1000});
  ColumnCode C = ColumnCode::fromCounts(All);
  EXPECT_EQ(C.symbols().size(), 65536u);
  std::vector<uint16_t> Values;
  for (int I = 0; I < 5000; ++I)
    Values.push_back(uint16_t(Rng()));
  roundTrip(C, Values);
}

TEST(ColumnCode, ParseRejectsWhatIsNoPrefixCode) {
  // The error of parsing Bytes, "" when it parses.
  auto Parse = [](std::vector<uint8_t> Bytes) {
    Expected<ColumnCode> C = ColumnCode::parse(
        StringRef(reinterpret_cast<const char *>(Bytes.data()), Bytes.size()));
    return errorOf(C);
  };
  EXPECT_EQ(Parse({}), ""); // no columns
  EXPECT_EQ(Parse({2, 1, 1, 2, 1}), "");
  // Three codes of one bit.
  EXPECT_NE(Parse({3, 1, 1, 2, 1, 3, 1}).find("prefix code"),
            std::string::npos);
  // Not in canonical order (value 2 before 1 at one length).
  EXPECT_NE(Parse({2, 2, 1, 1, 1}).find("canonical"), std::string::npos);
  // One value twice.
  EXPECT_NE(Parse({2, 1, 1, 1, 2}).find("two codes"), std::string::npos);
  // Lengths 0 and 21, values past 16 bits, counts past the section.
  EXPECT_NE(Parse({1, 1, 0}), "");
  EXPECT_NE(Parse({1, 1, 21}), "");
  EXPECT_NE(Parse({1, 0x80, 0x80, 0x04, 1}), "");
  EXPECT_NE(Parse({9, 1, 1}), "");
  EXPECT_NE(Parse({1, 1, 1, 0}).find("trailing"), std::string::npos);
}

TEST(ColumnCode, UnassignedBitsAndShortStreamsFail) {
  // An incomplete code: "0" is 1, "10" is 2, "11" is none.
  const uint8_t Bytes[] = {2, 1, 1, 2, 2};
  Expected<ColumnCode> C = ColumnCode::parse(
      StringRef(reinterpret_cast<const char *>(Bytes), sizeof(Bytes)));
  ASSERT_EQ(errorOf(C), "");
  const uint8_t Ones[] = {0xff};
  BitReader R(Ones, Ones + 1);
  uint16_t V;
  EXPECT_FALSE(C->decode(R, V));
  // Zero bytes: the reader reads zero bits past the end, and says so.
  BitReader Empty(Ones, Ones);
  EXPECT_TRUE(C->decode(Empty, V));
  EXPECT_TRUE(Empty.overran());
}

/// Reading past N codes with skip() and then one code gives what decoding
/// N + 1 codes one by one gives: the same success, value, position and
/// overrun, on any bits.
void expectSkipAsDecodes(const ColumnCode &C, const uint8_t *Begin,
                         const uint8_t *End, uint64_t N) {
  BitReader One(Begin, End), Skipped(Begin, End);
  uint16_t Want = 0, Got = 0;
  bool WantOK = true;
  for (uint64_t I = 0; I <= N && WantOK; ++I)
    WantOK = C.decode(One, Want);
  bool GotOK = C.skip(Skipped, N) && C.decode(Skipped, Got);
  ASSERT_EQ(GotOK, WantOK) << "after " << N;
  if (!WantOK)
    return;
  EXPECT_EQ(Got, Want) << "after " << N;
  EXPECT_EQ(Skipped.overran(), One.overran()) << "after " << N;
  EXPECT_EQ(Skipped.peek(32), One.peek(32)) << "after " << N;
}

TEST(ColumnCode, SkipAgreesWithDecodingOneByOne) {
  std::mt19937 Rng(11);
  Counts Fib; // codes up to MaxLength bits
  for (uint64_t V = 0, A = 1, B = 1; V < 30; ++V) {
    Fib.push_back({uint16_t(V), A});
    std::tie(A, B) = std::make_pair(B, A + B);
  }
  Counts Skewed = {{4, 1000}, {8, 500}, {0, 300}, {12, 100}, {2, 1}};
  Counts Wide;
  for (uint16_t V = 0; V < 3000; ++V)
    Wide.push_back({V, 1 + Rng() % 50});
  for (const Counts &K : {Fib, Skewed, Wide, Counts{{7, 1}}}) {
    ColumnCode C = ColumnCode::fromCounts(K);
    // Encoded values, then the same bits cut short.
    BitWriter W;
    for (int I = 0; I < 400; ++I)
      C.encode(K[Rng() % K.size()].first, W);
    std::string Bits = W.finish();
    const uint8_t *P = reinterpret_cast<const uint8_t *>(Bits.data());
    for (uint64_t N : {0, 1, 2, 3, 5, 8, 13, 50, 200, 399, 400, 1000})
      for (size_t Size : {Bits.size(), Bits.size() / 2, size_t(1)})
        expectSkipAsDecodes(C, P, P + Size, N);
  }
  // Bits of an incomplete code, some of which are no code.
  const uint8_t Section[] = {2, 1, 1, 2, 2}; // "0" 1, "10" 2, "11" none
  Expected<ColumnCode> Incomplete = ColumnCode::parse(
      StringRef(reinterpret_cast<const char *>(Section), sizeof(Section)));
  ASSERT_EQ(errorOf(Incomplete), "");
  std::vector<uint8_t> Random(64);
  for (int Round = 0; Round < 200; ++Round) {
    for (uint8_t &B : Random)
      B = uint8_t(Rng() & Rng()); // mostly zero bits: long valid runs
    for (uint64_t N : {0, 1, 4, 9, 30, 100})
      expectSkipAsDecodes(*Incomplete, Random.data(),
                          Random.data() + Random.size(), N);
  }
}

TEST(ColumnCode, SkipBitsLandsWhereTheWriterCounted) {
  std::mt19937 Rng(12);
  Counts K = {{0, 40}, {3, 30}, {9, 20}, {17, 5}, {200, 1}, {4000, 1}};
  ColumnCode C = ColumnCode::fromCounts(K);
  BitWriter W;
  std::vector<std::pair<uint64_t, uint16_t>> At; // bit offset, value
  for (int I = 0; I < 300; ++I) {
    const uint16_t V = K[Rng() % K.size()].first;
    At.push_back({W.bits(), V});
    C.encode(V, W);
  }
  const uint64_t Total = W.bits();
  std::string Bits = W.finish();
  const uint8_t *P = reinterpret_cast<const uint8_t *>(Bits.data());
  for (auto [Offset, Value] : At) {
    BitReader R(P, P + Bits.size());
    ASSERT_TRUE(R.skipBits(Offset));
    uint16_t Got = 0;
    ASSERT_TRUE(C.decode(R, Got));
    EXPECT_EQ(Got, Value) << "at bit " << Offset;
    EXPECT_FALSE(R.overran());
  }
  // A reader that has read already skips from where it is.
  BitReader Used(P, P + Bits.size());
  uint16_t First = 0;
  ASSERT_TRUE(C.decode(Used, First));
  ASSERT_TRUE(Used.skipBits(At[5].first - Used.consumed()));
  uint16_t Fifth = 0;
  ASSERT_TRUE(C.decode(Used, Fifth));
  EXPECT_EQ(Fifth, At[5].second);
  // Past the end: refused, nothing consumed.
  BitReader Short(P, P + Bits.size());
  EXPECT_FALSE(Short.skipBits(8 * Bits.size() + 1));
  EXPECT_EQ(Short.consumed(), 0u);
  EXPECT_TRUE(Short.skipBits(Total));
}

} // namespace
