//===- MarkupMode.cpp - `dwarfpack lookup --filter-markup` ----------------===//
//
// Reads symbolizer markup from stdin and writes it out filtered
// (Markup.h), line by line as it arrives, as llvm-symbolizer
// --filter-markup does; its diagnostics go to stderr, each with the line
// and a caret under what it is about.
//
//===----------------------------------------------------------------------===//

#include "LookupModes.h"
#include "StdinLines.h"

#include "dwarfpack/Symbolize/Markup.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

int runMarkupFilter(SessionTables &Modules, const PrinterOptions &Opts,
                    bool Colors, bool Quiet) {
  std::unique_ptr<MarkupSymbolizer> Symbolizer =
      tableMarkupSymbolizer(Modules, Opts);
  // A module without a table fails every element of it the same way:
  // said once. Of addresses without an answer, the first of each kind is
  // shown, the others counted.
  StringSet<> Said;
  StringMap<uint64_t> Counts;
  std::vector<std::string> Kinds; // in the order of their first

  auto Diagnose = [&](const MarkupDiagnostic &D) {
    if (Quiet || (!D.Column && !Said.insert(D.Message).second))
      return;
    if (!D.Repeats.empty() && Counts[D.Repeats]++)
      return;
    if (!D.Repeats.empty())
      Kinds.push_back(D.Repeats);
    (D.IsWarning ? WithColor::warning(errs(), "dwarfpack")
                 : WithColor::error(errs(), "dwarfpack"))
        << D.Message << '\n';
    if (!D.Column)
      return;
    errs() << D.Line;
    errs().indent(*D.Column) << "^\n";
  };
  outs().enable_colors(Colors);
  MarkupFilter Filter(outs(), *Symbolizer, Colors, Diagnose);
  StdinLines In(outs());
  std::vector<StringRef> Lines;
  std::string Line;
  while (In.next(Lines))
    for (StringRef L : Lines) {
      // Every line ends with a line break, the last one too.
      Line.assign(L.begin(), L.end());
      Line.push_back('\n');
      Filter.filter(Line);
    }
  Filter.finish();
  outs().flush();
  for (const std::string &What : Kinds)
    if (uint64_t Count = Counts[What]; Count > 1)
      WithColor::warning(errs(), "dwarfpack")
          << What << ": " << Count << " in all\n";
  return 0;
}

} // namespace tool
} // namespace dwarfpack
