//===- Stopwatch.h - Wall time of a pipeline's phases -----------*- C++ -*-===//
//
// The pipelines report how long each phase took (read, dedup, write, ...),
// so that a slow run says where its time went.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_STOPWATCH_H
#define DWARFPACK_SUPPORT_STOPWATCH_H

#include <chrono>

namespace dwarfpack {

/// Wall time since construction: a value, cheap to make one per phase.
class Stopwatch {
public:
  Stopwatch() : Start(Clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - Start).count();
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start;
};

} // namespace dwarfpack

#endif
