//===- MarkupTables.cpp - Markup answered from a session's tables ---------===//
//
// The markup filter names modules by build-id; a session's tables answer
// them as they answer `BUILDID:` queries, and the printer's rules choose
// which frames are shown and what they are called, so that a pc and a
// backtrace frame name what llvm-symbolizer's --no-inlines and --inlines
// answers would.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Markup.h"
#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/QuerySession.h"

using namespace llvm;

namespace dwarfpack {

namespace {

class TableMarkupSymbolizer : public MarkupSymbolizer {
public:
  TableMarkupSymbolizer(SessionTables &Tables, PrinterOptions Opts)
      : Tables(Tables), Inlined(nulls(), withInlines(Opts, true)),
        Single(nulls(), withInlines(Opts, false)),
        Names(Opts.Functions != FunctionNames::None) {}

  Expected<std::vector<MarkupFrame>>
  code(ArrayRef<uint8_t> BuildId, uint64_t Address, bool Inlines) override {
    Expected<QueryModule &> M = Tables.findBuildId(BuildId);
    if (!M)
      return M.takeError();
    if (Error E = M->Table->lookupViews(Address, Answer))
      return std::move(E);
    const ResultPrinter &P = Inlines ? Inlined : Single;
    P.printedFrames(Answer.Frames, Answer.HasDetails, Printed);
    std::vector<MarkupFrame> Out;
    for (const SourceFrame &F : Printed) {
      MarkupFrame &O = Out.emplace_back();
      // llvm-symbolizer --functions=none knows no function names.
      if (Names)
        O.Function = P.displayName(F.FunctionName);
      O.File = P.displayPath(F.FileName, F.FileNameWhole);
      O.Line = F.Line;
      O.Column = F.Column;
    }
    return Out;
  }

  Expected<std::string> data(ArrayRef<uint8_t> BuildId, uint64_t Address,
                             std::string &Why) override {
    Expected<QueryModule &> M = Tables.findBuildId(BuildId);
    if (!M)
      return M.takeError();
    std::vector<std::string> Problems;
    bool FromObject;
    Expected<std::optional<DataSymbol>> S =
        M->dataAt(Address, Problems, FromObject);
    if (!S)
      return S.takeError();
    if (!*S) {
      Why = FromObject ? "in no symbol or variable of the object"
                       : "in no function of the table (tables record no "
                         "variables)";
      return "";
    }
    return Single.dataName((*S)->Name);
  }

private:
  static PrinterOptions withInlines(PrinterOptions Opts, bool Inlines) {
    Opts.Style = OutputStyle::LLVM;
    Opts.Inlines = Inlines;
    return Opts;
  }

  SessionTables &Tables;
  ResultPrinter Inlined, Single;
  bool Names;
  FrameViews Answer;
  std::vector<SourceFrame> Printed;
};

} // namespace

std::unique_ptr<MarkupSymbolizer>
tableMarkupSymbolizer(SessionTables &Tables, const PrinterOptions &Opts) {
  return std::make_unique<TableMarkupSymbolizer>(Tables, Opts);
}

} // namespace dwarfpack
