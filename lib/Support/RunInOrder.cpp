//===- RunInOrder.cpp - Parallel work, merged in order
//---------------------===//

#include "dwarfpack/Support/RunInOrder.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <deque>
#include <future>

using namespace llvm;

namespace dwarfpack {

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
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  std::deque<std::shared_future<void>> Pending;
  // Items differ a lot in size: with only 2 per thread in flight, a large
  // one at the head of the window stalls the pool.
  const size_t Window = std::max<size_t>(1, WindowPerThread) * Threads;
  size_t Next = 0;
  for (size_t I = 0; I < N; ++I) {
    while (Next < N && Next < I + Window) {
      size_t J = Next++;
      Pending.push_back(Pool.async([Convert, J] { Convert(J); }));
    }
    Pending.front().wait();
    Pending.pop_front();
    if (Error E = Merge(I)) {
      // The conversions still queued use the caller's state.
      Pool.wait();
      return E;
    }
  }
  Pool.wait();
  return Error::success();
}

} // namespace dwarfpack
