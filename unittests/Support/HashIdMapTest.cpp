#include "dwarfpack/Support/HashIdMap.h"

#include "../ProcessMemory.h"

#include "gtest/gtest.h"

#include <climits>
#include <fstream>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace dwarfpack;
using namespace dwarfpack::testutil;

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

TEST(HashIdMap, MovesItsSlots) {
  HashIdMap A;
  for (uint32_t I = 0; I < 100000; ++I)
    A.tryEmplace(I * 3, I);
  HashIdMap B = std::move(A);
  EXPECT_EQ(B.size(), 100000u);
  EXPECT_EQ(B.tryEmplace(300, 1), std::make_pair(100u, false));
  A = std::move(B);
  EXPECT_EQ(A.tryEmplace(300, 1), std::make_pair(100u, false));
}

#if defined(__GLIBC__) && defined(__linux__)
/// A large table's memory goes back to the system when it is cleared,
/// even when malloc keeps what is freed (as the dwarfpack tool tells it
/// to) and whichever thread grew the table: it is not malloc's.
TEST(HashIdMap, ClearingALargeTableGivesItsMemoryBack) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  HashIdMap M;
  void *After = nullptr;
  std::thread([&] {
    for (uint32_t I = 0; I < 700000; ++I) // 2^20 slots: 16 MB
      M.tryEmplace(uint64_t(I) * 0x10001, I);
    // Something the thread allocated after the table, still in use.
    After = malloc(64);
  }).join();
  uint64_t Before = processKiB("Rss:");
  M.clear();
  uint64_t Now = processKiB("Rss:");
  free(After);
  ASSERT_GT(Before, 0u);
  // 16 MB of slots, most of them written.
  EXPECT_GT(Before, Now + (12u << 10)) << Before << " " << Now;
}

/// A large table asks for 2 MB pages. Where the system gives them only
/// to memory that asks (transparent_hugepage "madvise", as here and on
/// Debian), a table of 32 MB gets at least one.
TEST(HashIdMap, LargeTablesAskForHugePages) {
  std::ifstream Mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string Modes;
  std::getline(Mode, Modes);
  if (Modes.find("[madvise]") == std::string::npos)
    GTEST_SKIP() << "transparent huge pages are not in madvise mode";
  uint64_t Before = processKiB("AnonHugePages:");
  HashIdMap M;
  for (uint32_t I = 0; I < 1500000; ++I) // 2^21 slots: 32 MB
    M.tryEmplace(uint64_t(I) * 0x10001, I);
  EXPECT_GE(processKiB("AnonHugePages:"), Before + 2048);
}
#endif
