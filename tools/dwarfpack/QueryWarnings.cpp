//===- QueryWarnings.cpp - Printing the warnings of query sessions --------===//

#include "QueryWarnings.h"

#include "Command.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

void QueryWarningPrinter::operator()(const QueryWarning &W) {
  if (Quiet)
    return;
  if (!W.Once.empty()) {
    auto [It, New] = Seen.try_emplace(W.Once);
    Problem &P = It->second;
    if (New) {
      P.Repeats = W.Repeats;
    } else if (!P.Repeats.empty() && P.Count == 1) {
      Repeated.push_back(W.Once);
    }
    P.Count += W.Count;
    if (!New)
      return;
  }
  if (!W.Message.empty())
    reportWarning(W.Message);
}

void QueryWarningPrinter::finish() {
  if (Repeated.empty())
    return;
  // reportWarning() flushes stdout first: the totals follow the answers
  // they count.
  for (const std::string &Key : Repeated) {
    const Problem &P = Seen[Key];
    reportWarning(P.Repeats + ": " + Twine(P.Count) + " in all");
  }
  Repeated.clear();
}

} // namespace tool
} // namespace dwarfpack
