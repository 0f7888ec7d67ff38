#include "dwarfpack/Support/RunInOrder.h"

#include "gtest/gtest.h"

#include <atomic>
#include <thread>
#include <vector>

using namespace dwarfpack;
using namespace llvm;

namespace {

/// Items converted in a scrambled pace, so that later ones often finish
/// first.
void slowly(size_t I) {
  std::this_thread::sleep_for(std::chrono::microseconds((I * 7919) % 300));
}

TEST(RunInOrderTest, MergesEveryItemInOrderAtAnyThreadCount) {
  for (unsigned Threads : {0u, 1u, 2u, 5u}) {
    const size_t N = 200;
    std::vector<size_t> Converted(N, 0), Merged;
    ASSERT_FALSE(errorToBool(runInOrder(
        N, Threads, /*WindowPerThread=*/2,
        [&](size_t I) {
          slowly(I);
          Converted[I] = I * I;
        },
        [&](size_t I) {
          // The item's conversion is complete.
          EXPECT_EQ(Converted[I], I * I);
          Merged.push_back(I);
          return Error::success();
        })));
    ASSERT_EQ(Merged.size(), N) << Threads;
    for (size_t I = 0; I < N; ++I)
      EXPECT_EQ(Merged[I], I);
  }
}

TEST(RunInOrderTest, KeepsTheWindowBounded) {
  const unsigned Threads = 3;
  const size_t Window = 2, N = 300;
  std::atomic<size_t> Highest{0};
  size_t NextMerge = 0;
  ASSERT_FALSE(errorToBool(runInOrder(
      N, Threads, Window,
      [&](size_t I) {
        // Never more than the window ahead of the next item
        // to merge.
        size_t H = Highest.load();
        while (I > H && !Highest.compare_exchange_weak(H, I))
          ;
        slowly(I);
      },
      [&](size_t I) {
        EXPECT_LT(Highest.load(), I + Window * Threads);
        NextMerge = I + 1;
        return Error::success();
      })));
  EXPECT_EQ(NextMerge, N);
}

/// A thread's long conversion does not stop the merges of the items the
/// other threads finished: here an item's conversion waits for every item
/// before it to be merged, which only a free thread can do. (When only the
/// calling thread merged, each such item it took stalled the run.)
TEST(RunInOrderTest, AnyFreeThreadMerges) {
  const size_t N = 100, Gate = 10;
  std::atomic<size_t> Merged{0};
  std::atomic<unsigned> Stuck{0};
  ASSERT_FALSE(errorToBool(runInOrder(
      N, /*Threads=*/2, /*WindowPerThread=*/4,
      [&](size_t I) {
        if (I % Gate)
          return slowly(I);
        // With a window of 8 and a gate every 10 items, one gate at most
        // is in flight: the other thread is free to merge.
        auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (Merged.load() < I)
          if (std::chrono::steady_clock::now() > Until) {
            ++Stuck;
            return;
          } else {
            std::this_thread::sleep_for(std::chrono::microseconds(100));
          }
      },
      [&](size_t I) {
        EXPECT_EQ(Merged.load(), I);
        Merged.store(I + 1);
        return Error::success();
      })));
  EXPECT_EQ(Merged.load(), N);
  EXPECT_EQ(Stuck.load(), 0u);
}

TEST(RunInOrderTest, FirstMergeErrorEndsTheRun) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    std::atomic<size_t> Converting{0};
    std::vector<size_t> Merged;
    Error E = runInOrder(
        1000, Threads, /*WindowPerThread=*/4,
        [&](size_t I) {
          ++Converting;
          slowly(I);
          --Converting;
        },
        [&](size_t I) -> Error {
          if (I == 37)
            return createStringError(inconvertibleErrorCode(), "item 37");
          Merged.push_back(I);
          return Error::success();
        });
    EXPECT_EQ(toString(std::move(E)), "item 37");
    EXPECT_EQ(Merged.size(), 37u);
    // Nothing still runs on the caller's state once the error is back.
    EXPECT_EQ(Converting.load(), 0u);
  }
}

TEST(RunInOrderTest, NoItems) {
  bool Called = false;
  EXPECT_FALSE(errorToBool(runInOrder(
      0, 4, 4, [&](size_t) { Called = true; },
      [&](size_t) {
        Called = true;
        return Error::success();
      })));
  EXPECT_FALSE(Called);
}

} // namespace
