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

} // namespace
