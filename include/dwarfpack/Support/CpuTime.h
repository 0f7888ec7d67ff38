//===- CpuTime.h - CPU time of the calling thread
//--------------------------===//
//
// Benchmarks time lookups by the CPU time of their thread: on a shared
// machine, wall time also counts the time other processes hold the cores.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_CPUTIME_H
#define DWARFPACK_SUPPORT_CPUTIME_H

#include <ctime>

namespace dwarfpack {

/// Seconds of CPU time the calling thread has used.
inline double threadCpuSeconds() {
  timespec TS;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS);
  return double(TS.tv_sec) + double(TS.tv_nsec) * 1e-9;
}

} // namespace dwarfpack

#endif
