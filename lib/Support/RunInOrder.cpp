//===- RunInOrder.cpp - Parallel work, merged in order --------------------===//

#include "dwarfpack/Support/RunInOrder.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>

using namespace llvm;

namespace dwarfpack {

namespace {

/// The items of one run: which are claimed, which are done, which are
/// merged. Every thread, the calling one included, runs work(): it merges
/// the items that are ready, in order, when no other thread is merging,
/// and otherwise converts the next item of the window.
///
/// Any thread merges, not only the calling one: when the calling thread
/// merged alone, a large item it was converting held up the merges of the
/// items other threads had finished, so the window stopped moving and the
/// other threads waited (on a vmlinux, one of two threads was idle 13 % of
/// the walk).
class Schedule {
public:
  Schedule(size_t N, size_t Window, function_ref<void(size_t)> Convert,
           function_ref<Error(size_t)> Merge)
      : N(N), Window(Window), Convert(Convert), Merge(Merge),
        Done(new bool[N]()) {}

  /// Runs until every item is merged or a merge failed.
  void work() {
    std::unique_lock<std::mutex> L(M);
    while (true) {
      Changed.wait(L, [&] { return Over || canMerge() || canClaim(); });
      if (Over)
        return;
      if (canMerge())
        mergeReady(L);
      else
        convertClaimed(L);
    }
  }

  /// The first error a merge returned.
  Error takeFailure() { return std::move(Failure); }

private:
  bool canMerge() const { return !Merging && Merged < N && Done[Merged]; }
  bool canClaim() const { return Next < N && Next < Merged + Window; }

  /// Claims the next item and converts it with the lock released.
  void convertClaimed(std::unique_lock<std::mutex> &L) {
    const size_t J = Next++;
    L.unlock();
    Convert(J);
    L.lock();
    Done[J] = true;
    Changed.notify_all();
  }

  /// Merges the done items at the head of the order, one at a time with
  /// the lock released; no other thread merges meanwhile.
  void mergeReady(std::unique_lock<std::mutex> &L) {
    Merging = true;
    while (!Over && Merged < N && Done[Merged]) {
      const size_t I = Merged;
      L.unlock();
      Error E = Merge(I);
      L.lock();
      ++Merged;
      if (E) {
        // Failure is still the success it started as: check it, or
        // LLVM's checked errors refuse to have it overwritten.
        cantFail(std::move(Failure));
        Failure = std::move(E);
        Over = true;
      } else if (Merged == N) {
        Over = true;
      }
      // The window moved: the other threads may claim.
      Changed.notify_all();
    }
    Merging = false;
    Changed.notify_all();
  }

  const size_t N, Window;
  function_ref<void(size_t)> Convert;
  function_ref<Error(size_t)> Merge;
  std::mutex M;
  std::condition_variable Changed;
  size_t Next = 0, Merged = 0;
  bool Merging = false, Over = false;
  std::unique_ptr<bool[]> Done;
  Error Failure = Error::success();
};

} // namespace

Error runInOrder(size_t N, unsigned Threads, size_t WindowPerThread,
                 function_ref<void(size_t)> Convert,
                 function_ref<Error(size_t)> Merge) {
  if (Threads == 0)
    Threads = hardware_concurrency().compute_thread_count();
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I) {
      Convert(I);
      if (Error E = Merge(I))
        return E;
    }
    return Error::success();
  }
  // Threads - 1 workers and the calling thread: Threads threads have work,
  // not one more.
  // Items differ a lot in size: with only 2 per thread in flight, a large
  // one at the head of the window stalls the others.
  const size_t Window = std::max<size_t>(1, WindowPerThread) * Threads;
  Schedule S(N, Window, Convert, Merge);
  {
    DefaultThreadPool Pool(hardware_concurrency(Threads - 1));
    for (unsigned T = 0; T + 1 < Threads; ++T)
      Pool.async([&S] { S.work(); });
    S.work();
    // The conversions still running use the caller's state.
    Pool.wait();
  }
  return S.takeFailure();
}

} // namespace dwarfpack
