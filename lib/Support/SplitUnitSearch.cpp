//===- SplitUnitSearch.cpp - Where a split unit's DIEs may be -------------===//

#include "dwarfpack/Support/SplitUnitSearch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

std::optional<SplitUnitSearch>
SplitUnitSearch::forSkeleton(StringRef InputPath, StringRef Package,
                             const char *DwoName, const char *CompDir,
                             std::optional<uint64_t> DwoId,
                             uint64_t SkeletonOffset) {
  if (!DwoName)
    return std::nullopt; // the skeleton is all there is
  SplitUnitSearch S;
  S.Id = DwoId;
  S.SkeletonOffset = SkeletonOffset;
  S.Dwp = Package.empty() ? (InputPath + ".dwp").str() : Package.str();
  S.NoName = !*DwoName;
  if (S.NoName && (!DwoId || !sys::fs::exists(S.Dwp)))
    return std::nullopt;
  bool Relative = sys::path::is_relative(DwoName);
  if (Relative && CompDir)
    S.Where = CompDir;
  sys::path::append(S.Where, DwoName);
  S.Beside = sys::path::parent_path(InputPath);
  sys::path::append(S.Beside, Relative ? StringRef(DwoName)
                                       : sys::path::filename(DwoName));
  sys::fs::make_absolute(S.Beside); // one spelling per file, for the caches
  return S;
}

Error SplitUnitSearch::run(TryFn Try) const {
  // Why the files that exist did not do, for the message.
  std::string Why;
  if (Id) {
    for (StringRef Path :
         {StringRef(Dwp), StringRef(Where), StringRef(Beside)}) {
      if (NoName && Path != Dwp)
        continue;
      std::string Reason;
      switch (Try(Path, /*ReportOpenError=*/Path == Dwp, Reason)) {
      case Outcome::Found:
        return Error::success();
      case Outcome::NoUnit:
        Reason = "no unit with DWO id 0x" + utohexstr(*Id);
        break;
      case Outcome::NotOpened:
        break;
      }
      if (!Reason.empty() && !StringRef(Why).contains("'" + Path.str() + "'"))
        Why += "; '" + Path.str() + "': " + Reason;
    }
  } else {
    Why = "; the skeleton has no DWO id";
  }
  std::string Unit = "split DWARF unit at 0x" + utohexstr(SkeletonOffset);
  if (NoName)
    return createStringError(
        inconvertibleErrorCode(),
        Unit + ": its skeleton names no .dwo file, and '" + Dwp +
            "' has no usable unit for it" +
            (Why.empty() ? std::string() : " (" + Why.substr(2) + ")"));
  return createStringError(
      inconvertibleErrorCode(),
      Unit + ": its DIEs are in '" + Where +
          "', which is missing, unreadable or from another build (also "
          "looked for " +
          (Beside == Where ? "" : "'" + Beside.str() + "' and ") + "'" + Dwp +
          "'" + Why + ")");
}

} // namespace dwarfpack
