//===- StdinLines.cpp - Query lines from stdin, answers flushed when needed
//===//

#include "StdinLines.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace dwarfpack {
namespace tool {

bool StdinLines::next(std::vector<llvm::StringRef> &Lines) {
  Lines.clear();
  while (true) {
    const char *B = Buf.data() + Begin, *E = Buf.data() + End;
    while (B < E) {
      const char *NL = static_cast<const char *>(std::memchr(B, '\n', E - B));
      if (!NL)
        break;
      Lines.emplace_back(B, NL - B);
      B = NL + 1;
    }
    Begin = B - Buf.data();
    if (!Lines.empty())
      return true;
    if (AtEnd || !fill()) {
      if (Begin == End)
        return false;
      Lines.emplace_back(Buf.data() + Begin, End - Begin);
      Begin = End;
      Unended = true;
      return true;
    }
  }
}

/// Whether stdin has input that a read would return without waiting.
static bool inputWaiting() {
  pollfd P{STDIN_FILENO, POLLIN, 0};
  int R;
  do
    R = ::poll(&P, 1, 0);
  while (R < 0 && errno == EINTR);
  return R > 0;
}

/// Reads more of stdin after what is left of the buffer; false at the end.
bool StdinLines::fill() {
  // Every line read so far has its answer: if no more has come, let
  // whoever waits for it see it. (Until then, answers still being written
  // are left to finish while the next lines are answered.)
  if (!inputWaiting()) {
    if (BeforeWait)
      BeforeWait();
    Out.flush();
  }
  if (Begin > 0) {
    std::memmove(Buf.data(), Buf.data() + Begin, End - Begin);
    End -= Begin;
    Begin = 0;
  }
  // A batch takes all the input that has arrived, up to MaxBatch bytes: a
  // large one is answered in address order, with far fewer cache misses
  // (QueryBatch), but a program that writes a query and waits for its
  // answer must never wait for a batch to fill.
  const size_t MaxBatch = 1 << 20;
  bool Got = false;
  while (true) {
    if (Buf.size() - End < 4096)
      Buf.resize(std::max<size_t>(64 * 1024, Buf.size() * 2));
    ssize_t N;
    do
      N = ::read(STDIN_FILENO, Buf.data() + End, Buf.size() - End);
    while (N < 0 && errno == EINTR);
    if (N <= 0) {
      AtEnd = true;
      return Got;
    }
    End += N;
    Got = true;
    if (End >= MaxBatch || !inputWaiting())
      return true;
  }
}

} // namespace tool
} // namespace dwarfpack
