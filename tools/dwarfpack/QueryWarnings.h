//===- QueryWarnings.h - Warnings of query sessions ------------*- C++ -*-===//

#ifndef DWARFPACK_TOOLS_QUERYWARNINGS_H
#define DWARFPACK_TOOLS_QUERYWARNINGS_H

#include "dwarfpack/Symbolize/QuerySession.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace dwarfpack {
namespace tool {

/// Prints the warnings of lookup's and addr2line's sessions: each problem
/// of a module once, and at the end (finish()) how many queries in all had
/// the problems that count their repeats. Nothing with Quiet.
class QueryWarningPrinter {
public:
  explicit QueryWarningPrinter(bool Quiet) : Quiet(Quiet) {}
  void operator()(const QueryWarning &W);
  /// The totals, in the order the problems first came.
  void finish();

private:
  struct Problem {
    std::string Repeats;
    uint64_t Count = 0;
  };
  bool Quiet;
  llvm::StringMap<Problem> Seen;
  std::vector<std::string> Repeated;
};

} // namespace tool
} // namespace dwarfpack

#endif
