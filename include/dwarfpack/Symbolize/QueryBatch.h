//===- QueryBatch.h - Answering batches of query lines on threads ---------===//
//
// A profiler's batch of a million addresses spends its time in lookups and
// in printing their answers, and both can run on several threads when every
// query is answered from one table, which readers share between threads
// (tables opened as queries name them are not: those lines are answered on
// the caller's thread). Each thread answers a contiguous part of the batch
// through a session and printer of its own; the answers are then written
// in the order of the lines, so that the output is byte for byte what one
// session answering the lines in turn prints, at any thread count, and the
// warnings are passed on in that order too.
//
// A thread answers its lines in the order of the addresses they ask about
// when the caller says what they are: a million random addresses answered
// in turn miss the processor's caches at every step through a table of
// megabytes, where in address order each lookup finds the table where the
// one before it left it (half the time of a batch of the kernel's
// addresses). The output does not change.
//
// Writing a large batch's answers (half a gigabyte of JSON for a million
// kernel addresses) would leave the other threads idle; it happens on a
// thread of its own instead, while the caller reads and answers the next
// batch.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_QUERYBATCH_H
#define DWARFPACK_SYMBOLIZE_QUERYBATCH_H

#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/QuerySession.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <future>
#include <memory>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace dwarfpack {

class QueryBatch {
public:
  /// Answers one line through a thread's session (which prints to that
  /// thread's part of the output).
  using AnswerFn = std::function<void(QuerySession &, llvm::StringRef Line)>;
  /// Where a line goes in the order of answering.
  struct LineKey {
    /// The address (or file offset) the line asks about; UINT64_MAX for a
    /// line that asks none (answered after the others).
    uint64_t Order = UINT64_MAX;
    /// The line is a CODE query of Order and nothing else: it is answered
    /// by QuerySession::answerAddress() with the one table's module (its
    /// name that of the answers), without being read again.
    bool JustAddress = false;
  };
  using OrderFn = std::function<LineKey(llvm::StringRef Line)>;

  /// Threads: 0 for every core. The sessions answer through Tables (which
  /// must outlive this), with Printer's and Session's options.
  QueryBatch(SessionTables &Tables, const PrinterOptions &Printer,
             SessionOptions Session, unsigned Threads);
  ~QueryBatch();

  /// Answers every line of Lines through Answer (in the order of Order's
  /// keys when given and every query has the same table), then writes the
  /// answers to OS and passes the warnings to Warn, both in the order of
  /// the lines. The sessions live from one batch to the next, as one
  /// session would.
  ///
  /// When one table answers every line, a batch of setWriteBehind() lines
  /// or more is written on another thread after this returns: until
  /// finishWriting() (or the next answer(), or the destructor) has
  /// returned, the caller must leave OS and what Warn writes to alone, and
  /// keep both alive.
  void answer(llvm::ArrayRef<llvm::StringRef> Lines, const AnswerFn &Answer,
              llvm::raw_ostream &OS, const QueryWarningFn &Warn,
              const OrderFn &Order = nullptr);

  /// Waits until every batch answered is written.
  void finishWriting();

  /// From how many lines a batch is written behind (by default, enough
  /// that a program waiting for each answer never has one).
  void setWriteBehind(size_t MinLines) { WriteBehind = MinLines; }

  /// Says that the OS given to answer() writes to file descriptor FD (-1:
  /// none), so that the answers may go there straight from where they
  /// were printed, in gathered writes, after OS is flushed: a batch
  /// answered in address order is then not copied into line order first.
  void setOutputFile(int FD) { DirectFD = FD; }

  /// How many threads answer a large batch.
  unsigned threads() const { return Workers.size(); }

private:
  struct Worker;
  std::vector<std::unique_ptr<Worker>> Workers;
  std::unique_ptr<llvm::ThreadPoolInterface> Pool;
  /// Whether answers are independent of the order of the queries.
  bool Reorder = false;
  size_t WriteBehind = 4096;
  /// How many ranges of addresses answerByRanges() makes per thread.
  static constexpr size_t RangesPerThread = 16;
  int DirectFD = -1;
  /// A batch's answers and warnings, taken from the workers, until they
  /// are written (by Writer, when written behind).
  struct Answers;
  std::unique_ptr<Answers> Unwritten;
  /// answer() for a batch written behind, answered in address order: each
  /// thread answers the ranges of addresses it takes, the next one free.
  void answerByRanges(llvm::ArrayRef<llvm::StringRef> Lines,
                      const AnswerFn &Answer, llvm::raw_ostream &OS,
                      const QueryWarningFn &Warn, const OrderFn &Order,
                      size_t Parts);
  /// Where the answer of a line lies: in the text of a batch's part Part.
  struct Slice {
    uint32_t Part = 0;
    size_t Begin = 0, End = 0;
  };
  /// The slices of the batch answerByRanges() answers, while Unwritten
  /// holds the one written meanwhile.
  std::vector<Slice> NextSlices;
  /// Writes Unwritten on the writer thread.
  void startWriting(llvm::raw_ostream &OS, const QueryWarningFn &Warn);
  std::unique_ptr<llvm::ThreadPoolInterface> Writer;
  std::shared_future<void> Writing;
};

/// The key QueryBatch orders a query line (InputLine.h) by: the address or
/// file offset a CODE or DATA query asks about; UINT64_MAX for the rest.
/// A line of `0x` (or `0X`) and hexadecimal digits only is JustAddress.
QueryBatch::LineKey queryLineOrder(llvm::StringRef Line, LineModules Modules);

} // namespace dwarfpack

#endif
