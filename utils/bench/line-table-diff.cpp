//===- line-table-diff.cpp - Line tables: ours against LLVM's parser ------===//
//
// dwarfpack-line-table-diff [--time] [--repeat N] FILE...: decodes every
// line table of each object (those its units name, skeletons and .dwo
// units included, then those of .debug_line no unit names) with
// dwarfpack's decoder
// (dwarfpack/DwarfInput/LineTable.h) and with LLVM 19's DWARFDebugLine, and
// compares rows, sequences, warnings and every file path (LineTableCheck.h).
// A relocatable object's tables are read in place with its relocations,
// through the decoder's relocation hook, as LLVM reads them. With --time,
// both decoders are timed on the same tables in the same run (best of N
// passes over all of them; a new table for each, then one table decoded
// into again and again, which saves the allocations and page faults) and
// the cost of a row reported.
//
// Exit status: 0 when every table is the same, 1 on a difference, 2 when a
// file cannot be read.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/LineTable.h"
#include "dwarfpack/DwarfInput/LineTableCheck.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack::input;

static cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                                   cl::desc("<object>..."));
static cl::opt<bool> Time("time", cl::desc("Time both decoders"));
static cl::opt<unsigned> Repeat("repeat", cl::desc("Timed passes (best kept)"),
                                cl::init(5));

namespace {

/// One line table and how each decoder is called for it.
struct Job {
  DWARFUnit *Unit;
  uint64_t Offset;
  DWARFDataExtractor Data;
  LineSections Sections; // without its relocation hook
  std::string CompDir;
};

/// The tables of .debug_line no unit names (an assembler's without debug
/// information, say), found one after another as llvm-dwarfdump finds
/// them: without a unit, so of unknown address size.
void addUnnamedTables(DWARFContext &Ctx,
                      DenseSet<std::pair<const char *, uint64_t>> &Seen,
                      std::vector<Job> &Jobs) {
  const DWARFObject &Obj = Ctx.getDWARFObj();
  const DWARFSection &Line = Obj.getLineSection();
  uint64_t Offset = 0;
  while (Offset < Line.Data.size()) {
    LineSections S;
    S.Line = Line.Data;
    S.LineStr = Obj.getLineStrSection();
    S.Str = Obj.getStrSection();
    S.LittleEndian = Ctx.isLittleEndian();
    LineHeader H;
    Error E = LineHeader::parse(S, Offset, H,
                                [](Error W) { consumeError(std::move(W)); });
    bool Fatal = bool(E);
    consumeError(std::move(E));
    if (Seen.insert({Line.Data.data(), Offset}).second)
      Jobs.push_back({nullptr, Offset,
                      DWARFDataExtractor(Obj, Line, Ctx.isLittleEndian(), 0), S,
                      ""});
    uint64_t Next = Offset + H.UnitLength + H.unitLengthSize();
    if ((Fatal && H.UnitLength == 0) || H.UnitLength == 0 || Next <= Offset)
      break;
    Offset = Next;
  }
}

std::vector<Job> collectJobs(DWARFContext &Ctx) {
  std::vector<Job> Jobs;
  DenseSet<std::pair<const char *, uint64_t>> Seen;
  const DWARFObject &Obj = Ctx.getDWARFObj();
  auto Add = [&](DWARFUnit &U) {
    DWARFDie Die = U.getUnitDIE(/*ExtractUnitDIEOnly=*/true);
    std::optional<uint64_t> Offset =
        dwarf::toSectionOffset(Die.find(dwarf::DW_AT_stmt_list));
    const DWARFSection &Line = U.getLineSection();
    if (!Offset || !Seen.insert({Line.Data.data(), *Offset}).second)
      return;
    Job J{&U,
          *Offset,
          DWARFDataExtractor(Obj, Line, Ctx.isLittleEndian(),
                             U.getAddressByteSize()),
          {},
          ""};
    LineSections &S = J.Sections;
    S.Line = Line.Data;
    S.LineStr = Obj.getLineStrSection();
    S.Str = U.getStringSection();
    if (U.getStringOffsetsTableContribution()) {
      S.StrOffsets = U.getStringOffsetSection().Data;
      S.StrOffsetsBase = U.getStringOffsetsBase();
      S.StrOffsetSize = U.getDwarfStringOffsetsByteSize();
    }
    S.LittleEndian = Ctx.isLittleEndian();
    S.AddressSize = U.getAddressByteSize();
    if (const char *Dir = U.getCompilationDir())
      J.CompDir = Dir;
    Jobs.push_back(std::move(J));
  };
  for (const auto &U : Ctx.normal_units())
    Add(*U);
  for (const auto &U : Ctx.dwo_units())
    Add(*U);
  addUnnamedTables(Ctx, Seen, Jobs);
  return Jobs;
}

double seconds(std::chrono::steady_clock::duration D) {
  return std::chrono::duration<double>(D).count();
}

/// Best time of Repeat passes of Pass over all tables.
template <typename Fn> double best(Fn Pass) {
  double Best = 1e30;
  for (unsigned I = 0; I < std::max(1u, unsigned(Repeat)); ++I) {
    auto Start = std::chrono::steady_clock::now();
    Pass();
    Best = std::min(Best, seconds(std::chrono::steady_clock::now() - Start));
  }
  return Best;
}

/// Both decoders over all of Jobs, Repeat times: with a new table for each
/// (as the converter calls LLVM's today) and with one table reused.
void timeBoth(DWARFContext &Ctx, std::vector<Job> &Jobs, bool Relocatable,
              uint64_t Rows) {
  size_t Sink = 0;
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  auto Ours = [&](LineTable *Reused) {
    return best([&] {
      for (Job &J : Jobs) {
        LineSections S = J.Sections;
        auto Relocate = [&](uint64_t At, unsigned Size, uint64_t,
                            uint64_t &Section) {
          return J.Data.getRelocatedValue(Size, &At, &Section);
        };
        if (Relocatable)
          S.Relocate = Relocate;
        if (Reused) {
          consumeError(Reused->decode(S, J.Offset, Ignore));
          Sink += Reused->rows().size();
          continue;
        }
        Expected<LineTable> T = LineTable::parse(S, J.Offset, Ignore);
        if (T)
          Sink += T->rows().size();
        else
          consumeError(T.takeError());
      }
    });
  };
  auto Theirs = [&](DWARFDebugLine::LineTable *Reused) {
    return best([&] {
      for (Job &J : Jobs) {
        DWARFDebugLine::LineTable Fresh;
        DWARFDebugLine::LineTable &T = Reused ? *Reused : Fresh;
        uint64_t At = J.Offset;
        consumeError(T.parse(J.Data, &At, Ctx, J.Unit, Ignore));
        Sink += T.Rows.size();
      }
    });
  };
  double OursFresh = Ours(nullptr), TheirsFresh = Theirs(nullptr);
  LineTable OurTable;
  DWARFDebugLine::LineTable TheirTable;
  double OursReused = Ours(&OurTable), TheirsReused = Theirs(&TheirTable);
  if (Sink == 1) // keeps the loops
    outs() << "";
  double PerRow = Rows ? 1e9 / double(Rows) : 0;
  auto Line = [&](StringRef What, double A, double B) {
    outs() << format("  %s (best of %u): ours %.1f ms (%.2f ns/row), "
                     "LLVM %.1f ms (%.2f ns/row), ratio %.3f\n",
                     What.str().c_str(), unsigned(Repeat), A * 1e3, A * PerRow,
                     B * 1e3, B * PerRow, B > 0 ? A / B : 0.0);
  };
  Line("new tables", OursFresh, TheirsFresh);
  Line("one table reused", OursReused, TheirsReused);
}

/// Returns 0, 1 (a difference) or 2 (unreadable).
int diffFile(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Bin =
      object::ObjectFile::createObjectFile(Path);
  if (!Bin) {
    logAllUnhandledErrors(Bin.takeError(), errs(), Path + ": ");
    return 2;
  }
  const object::ObjectFile &Obj = *Bin->getBinary();
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  std::unique_ptr<DWARFContext> Ctx =
      DWARFContext::create(Obj, DWARFContext::ProcessDebugRelocations::Process,
                           nullptr, "", Ignore, Ignore);
  std::vector<Job> Jobs = collectJobs(*Ctx);
  const bool Relocatable = Obj.isRelocatableObject();

  uint64_t Rows = 0, Sequences = 0, Paths = 0, Refused = 0, Different = 0;
  std::string First;
  for (Job &J : Jobs) {
    LineSections S = J.Sections;
    auto Relocate = [&](uint64_t At, unsigned Size, uint64_t,
                        uint64_t &Section) {
      return J.Data.getRelocatedValue(Size, &At, &Section);
    };
    if (Relocatable)
      S.Relocate = Relocate;
    StringRef Dirs[] = {J.CompDir, ""};
    LineCheckResult R =
        checkLineTable(S, J.Offset, J.Data, *Ctx, J.Unit,
                       ArrayRef(Dirs).take_front(J.CompDir.empty() ? 1 : 2));
    switch (R.Result) {
    case LineCheckResult::Outcome::Same:
      Rows += R.Rows;
      Sequences += R.Sequences;
      Paths += R.Files;
      break;
    case LineCheckResult::Outcome::Skipped:
      ++Refused;
      break;
    case LineCheckResult::Outcome::Different:
      if (!Different++)
        First = "line table at 0x" + utohexstr(J.Offset, true) + ": " +
                R.Difference;
      break;
    }
  }
  outs() << Path << ": " << Jobs.size() << " line tables, " << Rows << " rows, "
         << Sequences << " sequences, " << Paths << " files; refused "
         << Refused << "; different " << Different << '\n';
  if (Different)
    outs() << "  first difference: " << First << '\n';
  if (Time)
    timeBoth(*Ctx, Jobs, Relocatable, Rows);
  return Different ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "compares dwarfpack's line-table decoder with "
                              "LLVM's\n");
  int Status = 0;
  for (const std::string &F : Files)
    Status = std::max(Status, diffFile(F));
  return Status;
}
