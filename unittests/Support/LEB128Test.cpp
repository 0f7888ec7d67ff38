//===- LEB128Test.cpp - Bounded ULEB128 decoding
//---------------------------===//

#include "dwarfpack/Support/LEB128.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

uint64_t decode(std::initializer_list<uint8_t> Bytes, unsigned &N,
                const char *&Err) {
  std::vector<uint8_t> V(Bytes);
  N = 0;
  Err = nullptr;
  return decodeULEB128Bounded(V.data(), &N, V.data() + V.size(), &Err);
}

TEST(LEB128, Bounded) {
  unsigned N;
  const char *Err;
  EXPECT_EQ(decode({0x7f}, N, Err), 127u);
  EXPECT_EQ(Err, nullptr);
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(
      decode({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x55},
             N, Err),
      UINT64_MAX);
  EXPECT_EQ(Err, nullptr);
  EXPECT_EQ(N, 10u);
  // Zero slices past the 10th byte (fuzz-token: LLVM's decoder shifted them
  // by 70 bits) are an error, not a value.
  decode(
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
      N, Err);
  EXPECT_NE(Err, nullptr);
  decode({0x80, 0x80}, N, Err);
  EXPECT_NE(Err, nullptr);
}

} // namespace
