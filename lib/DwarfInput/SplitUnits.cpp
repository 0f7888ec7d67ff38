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

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {
namespace input {

struct SplitUnits::File {
  std::unique_ptr<InputObject> Object;
  /// Why an existing file could not be opened (empty when it was, or when
  /// there is no such file).
  std::string OpenError;
};

SplitUnits::SplitUnits(std::string InputPath)
    : InputPath(std::move(InputPath)) {}

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
  std::optional<FormValue> NameValue =
      CU ? CU.find({dwarf::DW_AT_dwo_name, dwarf::DW_AT_GNU_dwo_name})
         : std::nullopt;
  const char *Name = NameValue ? NameValue->cstr() : nullptr;
  if (!Name)
    return std::nullopt; // nothing to load: the skeleton is all there is
  std::optional<uint64_t> Id = Skel.dwoId();
  std::string Dwp = InputPath + ".dwp";
  // An empty name: LLVM still takes the unit of this DWO id from a package
  // beside the binary, so it is found (and vetted) there, as a named one
  // is; without a package there is nothing to load.
  bool NoName = !*Name;
  if (NoName && (!Id || !sys::fs::exists(Dwp)))
    return std::nullopt;
  SmallString<256> Where;
  if (sys::path::is_relative(Name))
    if (std::optional<FormValue> Dir = CU.find(dwarf::DW_AT_comp_dir))
      if (const char *D = Dir->cstr())
        Where = D;
  sys::path::append(Where, Name);
  SmallString<256> Beside = sys::path::parent_path(InputPath);
  if (sys::path::is_relative(Name))
    sys::path::append(Beside, Name);
  else
    sys::path::append(Beside, sys::path::filename(Name));
  sys::fs::make_absolute(Beside); // one spelling per file, for the cache

  std::lock_guard<std::mutex> Lock(Mutex);
  // Why the files that exist did not do, for the message.
  std::string Why;
  if (Id) {
    for (StringRef Path :
         {StringRef(Dwp), StringRef(Where), StringRef(Beside)}) {
      if (NoName && Path != Dwp)
        continue;
      File *F = open(Path, Log, /*ReportOpenError=*/Path == Dwp);
      if (F)
        if (const UnitHeader *H = F->Object->dwarf().splitUnit(*Id))
          return Found{&F->Object->dwarf(), H, Files.find(Path)->getKey()};
      std::string Reason;
      if (F)
        Reason = "no unit with DWO id 0x" + utohexstr(*Id);
      else if (const std::unique_ptr<File> &G = Files[Path])
        Reason = G->OpenError;
      if (!Reason.empty() && !StringRef(Why).contains("'" + Path.str() + "'"))
        Why += "; '" + Path.str() + "': " + Reason;
    }
  } else {
    Why = "; the skeleton has no DWO id";
  }
  if (NoName)
    return createStringError(
        inconvertibleErrorCode(),
        "split DWARF unit at 0x" + utohexstr(Skel.getOffset()) +
            ": its skeleton names no .dwo file, and '" + Dwp +
            "' has no usable unit for it" +
            (Why.empty() ? std::string() : " (" + Why.substr(2) + ")"));
  return createStringError(
      inconvertibleErrorCode(),
      "split DWARF unit at 0x" + utohexstr(Skel.getOffset()) +
          ": its DIEs are in '" + Where +
          "', which is missing, unreadable or from another build (also "
          "looked for " +
          (Beside == Where ? "" : "'" + Beside.str() + "' and ") + "'" + Dwp +
          "'" + Why + ")");
}

} // namespace input
} // namespace dwarfpack
