#include "dwarfpack/Support/HashIdMap.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace dwarfpack;

TEST(HashIdMap, KeepsTheFirstIdOfEachKey) {
  HashIdMap M;
  EXPECT_EQ(M.tryEmplace(42, 7), std::make_pair(7u, true));
  EXPECT_EQ(M.tryEmplace(42, 9), std::make_pair(7u, false));
  // Key 0 and the largest key are keys like any other.
  EXPECT_EQ(M.tryEmplace(0, 1), std::make_pair(1u, true));
  EXPECT_EQ(M.tryEmplace(UINT64_MAX, 2), std::make_pair(2u, true));
  EXPECT_EQ(M.tryEmplace(0, 5), std::make_pair(1u, false));
  EXPECT_EQ(M.size(), 3u);
}

/// Through many growths, with keys that share their low or their high
/// bits, every key keeps its id, as a std::map does.
TEST(HashIdMap, AgreesWithAMapThroughGrowth) {
  HashIdMap M;
  std::map<uint64_t, uint32_t> Want;
  std::mt19937_64 Rng(1);
  for (uint32_t I = 0; I < 200000; ++I) {
    uint64_t Key = I % 3 == 0   ? uint64_t(I) << 40
                   : I % 3 == 1 ? I
                                : Rng() % 150000;
    M.prefetch(Key);
    auto Got = M.tryEmplace(Key, I);
    auto [It, New] = Want.try_emplace(Key, I);
    ASSERT_EQ(Got, std::make_pair(It->second, New)) << "key " << Key;
  }
  EXPECT_EQ(M.size(), Want.size());
  M.clear();
  EXPECT_EQ(M.size(), 0u);
  EXPECT_EQ(M.tryEmplace(5, 3), std::make_pair(3u, true));
}
