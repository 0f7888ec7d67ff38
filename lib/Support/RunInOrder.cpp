//===- RunInOrder.cpp - Parallel work, merged in order
//---------------------===//

#include "dwarfpack/Support/RunInOrder.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

using namespace llvm;

namespace dwarfpack {

namespace {

/// The items of one run: which may be converted (those below the window's
/// limit), which are claimed and which are done.
class Schedule {
public:
  Schedule(size_t N, function_ref<void(size_t)> Convert)
      : N(N), Convert(Convert), Done(new bool[N]()) {}

  /// Lets items below Limit be claimed.
  void open(size_t NewLimit) {
    {
      std::lock_guard<std::mutex> L(M);
      Limit = std::min(N, NewLimit);
    }
    Changed.notify_all();
  }
  /// No item is claimed any more (the merge failed, or all are done).
  void close() {
    {
      std::lock_guard<std::mutex> L(M);
      Closed = true;
    }
    Changed.notify_all();
  }

  /// A worker thread: converts the items it claims until the run is over.
  void work() {
    std::unique_lock<std::mutex> L(M);
    while (true) {
      Changed.wait(L, [&] { return Closed || Next < Limit; });
      if (Closed)
        return;
      convertClaimed(L);
    }
  }

  /// The merging thread: waits until item I is done, converting items
  /// itself meanwhile when some may be claimed.
  void await(size_t I) {
    std::unique_lock<std::mutex> L(M);
    while (!Done[I]) {
      if (Next < Limit)
        convertClaimed(L);
      else
        Changed.wait(L);
    }
  }

private:
  /// Claims the next item and converts it with the lock released.
  void convertClaimed(std::unique_lock<std::mutex> &L) {
    const size_t J = Next++;
    L.unlock();
    Convert(J);
    L.lock();
    Done[J] = true;
    Changed.notify_all();
  }

  const size_t N;
  function_ref<void(size_t)> Convert;
  std::mutex M;
  std::condition_variable Changed;
  size_t Next = 0, Limit = 0;
  bool Closed = false;
  std::unique_ptr<bool[]> Done;
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
  // Threads - 1 workers, and the merging thread converts items whenever
  // the next one to merge is not done: Threads threads have work, not one
  // more (a merging thread that shared the cores with Threads workers ran
  // at a fraction of a core, and the whole run waited on its merges).
  Schedule S(N, Convert);
  // Items differ a lot in size: with only 2 per thread in flight, a large
  // one at the head of the window stalls the others.
  const size_t Window = std::max<size_t>(1, WindowPerThread) * Threads;
  DefaultThreadPool Pool(hardware_concurrency(Threads - 1));
  for (unsigned T = 0; T + 1 < Threads; ++T)
    Pool.async([&S] { S.work(); });
  auto MergeAll = [&]() -> Error {
    for (size_t I = 0; I < N; ++I) {
      S.open(I + Window);
      S.await(I);
      if (Error E = Merge(I))
        return E;
    }
    return Error::success();
  };
  Error Failure = MergeAll();
  // The conversions still running use the caller's state.
  S.close();
  Pool.wait();
  return Failure;
}

} // namespace dwarfpack
