#include "dwarfpack/Support/Compression.h"

#include "llvm/Support/Compression.h"
#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

/// Text-like bytes (repetitive, as dicts are) with some noise.
std::vector<uint8_t> sample(size_t Size, unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::vector<uint8_t> D(Size);
  for (size_t I = 0; I < Size; ++I)
    D[I] = Rng() % 8 == 0 ? uint8_t(Rng()) : uint8_t("struct_member"[I % 13]);
  return D;
}

// The chunks concatenate into one stream a plain inflater reads back, at
// every size around the chunk boundaries, and the bytes do not depend on
// the thread count.
TEST(Compression, ChunkedStreamRoundTripsAndIgnoresThreads) {
  const size_t C = ZlibChunkSize;
  for (size_t Size : {size_t(0), size_t(1), size_t(100), C - 1, C, C + 1, 2 * C,
                      3 * C + 12345}) {
    std::vector<uint8_t> Data = sample(Size, unsigned(Size));
    SmallVector<uint8_t, 0> One, Four, Back;
    for (int Level : {1, 6, 9}) {
      ASSERT_FALSE(bool(compressZlib(Data, 1, One, Level)));
      ASSERT_FALSE(bool(compressZlib(Data, 4, Four, Level)));
      EXPECT_EQ(One, Four) << Size;
      ASSERT_GE(One.size(), 6u);
      EXPECT_EQ(One[0], 0x78);
      EXPECT_EQ((One[0] * 256 + One[1]) % 31, 0);
      EXPECT_EQ(One[1] >> 6, Level == 1 ? 0 : Level == 6 ? 2 : 3);
      Error E = compression::zlib::decompress(One, Back, Size);
      ASSERT_FALSE(bool(E)) << toString(std::move(E));
      EXPECT_TRUE(
          std::equal(Back.begin(), Back.end(), Data.begin(), Data.end()))
          << Size;
    }
  }
}

// Priming each chunk with the preceding window keeps the stream about as
// small as one deflate call over the whole input: here 20 KB of random bytes
// repeated, which an unprimed chunk would have to spell out again.
TEST(Compression, PrimedChunksCostLittle) {
  std::vector<uint8_t> Block(20000);
  std::mt19937 Rng(5);
  for (uint8_t &B : Block)
    B = uint8_t(Rng());
  std::vector<uint8_t> Data;
  while (Data.size() < 4 * ZlibChunkSize)
    Data.insert(Data.end(), Block.begin(), Block.end());
  SmallVector<uint8_t, 0> Chunked, Whole;
  ASSERT_FALSE(bool(compressZlib(Data, 2, Chunked)));
  compression::zlib::compress(Data, Whole,
                              compression::zlib::BestSizeCompression);
  EXPECT_LE(Chunked.size(), Whole.size() + Whole.size() / 20);
}

TEST(Compression, RejectsBadLevels) {
  SmallVector<uint8_t, 0> Out;
  for (int Level : {0, 10, -1}) {
    Error E = compressZlib(sample(100, 1), 1, Out, Level);
    EXPECT_TRUE(bool(E));
    consumeError(std::move(E));
  }
}

} // namespace
