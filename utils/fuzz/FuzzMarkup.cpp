//===- FuzzMarkup.cpp - Symbolizer markup, as lookup --filter-markup reads it
//
// The input is text, filtered line by line (each given a line end, as
// `lookup --filter-markup` gives it) by MarkupFilter, with colours on even
// sizes, over a symbolizer that answers by the address: no frames, an
// error, a frame without a location, or an inlined chain; data by name or
// none. Checked: the nodes of each line are the line, in order; each
// diagnostic's column lies in its line; a line without `{{{` or ESC, while
// no module is declared, comes out unchanged (after the reset of a colour
// the line before left set).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Symbolize/Markup.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

namespace {

class ByAddress : public MarkupSymbolizer {
public:
  Expected<std::vector<MarkupFrame>> code(ArrayRef<uint8_t>, uint64_t A,
                                          bool Inlines) override {
    std::vector<MarkupFrame> F;
    switch (A % 4) {
    case 0:
      return F;
    case 1:
      return createStringError(inconvertibleErrorCode(), "no table");
    case 2:
      F.push_back({"f" + utohexstr(A), "", 0, 0});
      return F;
    default:
      for (unsigned I = 0; I < (Inlines ? 3 : 1); ++I)
        F.push_back({"g" + utostr(I), "/src/a.c", uint32_t(A) + I, I});
      return F;
    }
  }
  Expected<std::string> data(ArrayRef<uint8_t>, uint64_t A,
                             std::string &Why) override {
    if (A % 2)
      return "v" + utohexstr(A);
    Why = "none";
    return "";
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Bytes), Size);
  ByAddress S;
  std::string Out;
  raw_string_ostream OS(Out);
  OS.enable_colors(true);
  bool Declared = false;
  const bool Colors = Size % 2 == 0;
  MarkupFilter Filter(OS, S, Colors, [&](const MarkupDiagnostic &D) {
    if (D.Column && *D.Column > D.Line.size())
      fail("a diagnostic's column past its line: '" + D.Message + "'");
  });
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  std::vector<MarkupNode> Nodes;
  for (StringRef L : Lines) {
    std::string Line = L.str() + "\n";
    parseMarkupLine(Line, Nodes);
    std::string Joined;
    for (const MarkupNode &N : Nodes) {
      if (!Joined.empty() && N.Text.begin() != Line.data() + Joined.size())
        fail("the nodes of a line are not in order");
      Joined += N.Text;
    }
    if (Joined != Line)
      fail("the nodes of a line are not the line");
    Declared |= StringRef(Line).contains("{{{module:");
    size_t Before = Out.size();
    Filter.filter(Line);
    // With colours, a line starts by resetting the colour a line before
    // it left set.
    StringRef Written = StringRef(Out).drop_front(Before);
    if (Colors)
      Written.consume_front("\033[0m");
    if (!Declared && !StringRef(Line).contains("{{{") &&
        !StringRef(Line).contains('\033') && Written != Line)
      fail("a line without markup changed");
  }
  Filter.finish();
  return 0;
}
