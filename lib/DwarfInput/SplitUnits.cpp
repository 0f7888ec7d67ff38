//===- SplitUnits.cpp - Full units of split DWARF skeletons ---------------===//
//
// With split DWARF (-gsplit-dwarf) a linked file keeps skeleton units: the
// line table, the address ranges and the name of a .dwo file holding the
// unit's DIEs (or a .dwp package beside the file holds them all). The
// files are looked for as LLVM's tools look for them, in the package first,
// then where the skeleton says (DW_AT_comp_dir / DW_AT_dwo_name), then
// beside the input (a build tree moved with its binary).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/SplitUnitSearch.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace dwarfpack {
namespace input {

struct SplitUnits::File {
  std::unique_ptr<InputObject> Object;
  /// Why an existing file could not be opened (empty when it was, or when
  /// there is no such file).
  std::string OpenError;
};

SplitUnits::SplitUnits(std::string InputPath, std::string Package)
    : InputPath(std::move(InputPath)), Package(std::move(Package)) {}

SplitUnits::~SplitUnits() = default;

SplitUnits::File *SplitUnits::open(StringRef Path, WarningLog &Log,
                                   bool ReportOpenError) {
  auto [It, New] = Files.try_emplace(Path);
  if (!New)
    return It->second->Object ? It->second.get() : nullptr;
  It->second = std::make_unique<File>();
  File &F = *It->second;
  if (!sys::fs::exists(Path))
    return nullptr;
  OpenOptions Opts;
  Opts.DwoSections = true;
  Opts.Supplementary = false;
  Opts.CheckAllUnits = true;
  WarningLog FileLog;
  Expected<std::unique_ptr<InputObject>> O =
      InputObject::open(Path, FileLog, Opts);
  if (!O) {
    // The message names the file already.
    F.OpenError = toString(O.takeError());
    StringRef Reason = F.OpenError;
    Reason.consume_front("'" + Path.str() + "': ");
    F.OpenError = Reason.str();
    if (ReportOpenError)
      Log.report("dwarf-warning", "'" + Path + "': " + F.OpenError);
    return nullptr;
  }
  Log.merge(FileLog);
  for (const std::string &P : (*O)->unitProblems())
    Log.report("dwarf-warning", "'" + Path + "': " + P);
  F.Object = std::move(*O);
  return &F;
}

Expected<std::optional<SplitUnits::Found>> SplitUnits::find(const Unit &Skel,
                                                            WarningLog &Log) {
  Die CU = Skel.getUnitDIE();
  auto Text = [&](std::initializer_list<dwarf::Attribute> Attrs) {
    std::optional<FormValue> V = CU ? CU.find(Attrs) : std::nullopt;
    return V ? V->cstr() : nullptr;
  };
  std::optional<SplitUnitSearch> Search = SplitUnitSearch::forSkeleton(
      InputPath, Package,
      Text({dwarf::DW_AT_dwo_name, dwarf::DW_AT_GNU_dwo_name}),
      Text({dwarf::DW_AT_comp_dir}), Skel.dwoId(), Skel.getOffset());
  if (!Search)
    return std::nullopt; // nothing to load: the skeleton is all there is
  std::lock_guard<std::mutex> Lock(Mutex);
  std::optional<Found> Result;
  auto Try = [&](StringRef Path, bool ReportOpenError, std::string &OpenError) {
    File *F = open(Path, Log, ReportOpenError);
    if (!F) {
      if (const std::unique_ptr<File> &G = Files[Path])
        OpenError = G->OpenError;
      return SplitUnitSearch::Outcome::NotOpened;
    }
    const UnitHeader *H = F->Object->dwarf().splitUnit(*Search->dwoId());
    if (!H)
      return SplitUnitSearch::Outcome::NoUnit;
    Result = Found{&F->Object->dwarf(), H, Files.find(Path)->getKey()};
    return SplitUnitSearch::Outcome::Found;
  };
  if (Error E = Search->run(Try))
    return std::move(E);
  return Result;
}

} // namespace input
} // namespace dwarfpack
