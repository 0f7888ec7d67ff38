//===- StdinLines.h - Query lines from stdin, answers flushed when needed -===//
//
// lookup and addr2line answer the lines of stdin. A program that writes one
// query and waits must get its answer at once, so answers are flushed; but
// a write per answer costs more than the lookup itself in a batch of a
// million. So the output is flushed only before a read of stdin that has
// to wait, that is, when every line already read has been answered and no
// more has come. A batch is all the input that has arrived (up to 1 MiB):
// never waiting for more, but large enough
// when a file or a busy pipe is read for answering in address order to pay.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_STDINLINES_H
#define DWARFPACK_TOOLS_STDINLINES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <vector>

namespace dwarfpack {
namespace tool {

class StdinLines {
public:
  /// Out is flushed before each read of stdin that would wait, after
  /// BeforeWait (which finishes answers still being written) is called.
  explicit StdinLines(llvm::raw_ostream &Out,
                      std::function<void()> BeforeWait = nullptr)
      : Out(Out), BeforeWait(std::move(BeforeWait)) {}
  /// The lines that have arrived (at least one, reading stdin if none
  /// has), without their '\n' (the last line may have none), one after
  /// the other in one buffer (each line ends one byte before the next
  /// begins), valid until the next call; false at the end of stdin or when
  /// it cannot be read.
  bool next(std::vector<llvm::StringRef> &Lines);
  /// Whether the last line next() gave ended stdin without a line break.
  bool lastLineUnended() const { return Unended; }

private:
  bool fill();

  llvm::raw_ostream &Out;
  std::function<void()> BeforeWait;
  std::vector<char> Buf;
  size_t Begin = 0, End = 0;
  bool AtEnd = false, Unended = false;
};

} // namespace tool
} // namespace dwarfpack

#endif
