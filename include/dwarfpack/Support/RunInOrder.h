//===- RunInOrder.h - Parallel work, merged in order ------------*- C++ -*-===//
//
// The scheduling every parallel pipeline uses (the unit walk, the kernel's
// modules, the compact writer's chunks): items are converted on a pool of
// threads and merged one by one, in item order, by one thread at a time. The
// output therefore does not depend on the thread count or the schedule, and
// a bounded window of items in flight keeps memory proportional to the
// threads rather than to the input.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_RUNINORDER_H
#define DWARFPACK_SUPPORT_RUNINORDER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstddef>

namespace dwarfpack {

/// Runs Convert(I) for I in [0, N) on Threads threads (0: all cores; 1:
/// the calling thread alone) and Merge(I) strictly in order, each item once
/// its Convert is done, on whichever of those threads is free (never two at
/// once, so Merge needs no lock of its own). Convert runs at most
/// WindowPerThread items a thread ahead of Merge. The first error Merge
/// returns ends the run: no later item is merged, the conversions in
/// flight are waited for, and that error is returned.
llvm::Error runInOrder(size_t N, unsigned Threads, size_t WindowPerThread,
                       llvm::function_ref<void(size_t)> Convert,
                       llvm::function_ref<llvm::Error(size_t)> Merge);

} // namespace dwarfpack

#endif
