//===- SplitDwarf.cpp - Units whose DIEs live in .dwo or .dwp files -------===//

#include "dwarfpack/Support/SplitDwarf.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

bool isSkeletonUnit(DWARFUnit &U) {
  if (U.isDWOUnit() || U.isTypeUnit())
    return false;
  if (U.getUnitType() == dwarf::DW_UT_skeleton)
    return true;
  if (U.getVersion() >= 5)
    return false;
  DWARFDie D = U.getUnitDIE(/*ExtractUnitDIEOnly=*/true);
  return D && D.find(dwarf::DW_AT_GNU_dwo_name);
}

bool mayHaveSkeletonUnits(DWARFContext &Ctx) {
  // Skeletons of DWARF 4 (the GNU extension) are known only from their
  // unit DIE, but they always come with a .debug_addr section.
  bool HasAddr = !Ctx.getDWARFObj().getAddrSection().Data.empty();
  for (const auto &U : Ctx.info_section_units()) {
    if (U->getUnitType() == dwarf::DW_UT_skeleton)
      return true;
    if (HasAddr && U->getVersion() < 5)
      return true;
  }
  return false;
}

Expected<DWARFUnit *> fullUnit(DWARFUnit &U, StringRef InputPath,
                               bool ExtractAll) {
  if (!isSkeletonUnit(U))
    return &U;
  DWARFDie CU = U.getUnitDIE();
  std::optional<const char *> Name = dwarf::toString(
      CU.find({dwarf::DW_AT_dwo_name, dwarf::DW_AT_GNU_dwo_name}));
  if (!Name || !**Name)
    return &U; // nothing to load: the skeleton is all there is
  // Where the build put it, unless the build tree moved: then beside the
  // input (the same relative path, or the file name of an absolute one).
  SmallString<256> Beside = sys::path::parent_path(InputPath);
  if (sys::path::is_relative(*Name))
    sys::path::append(Beside, *Name);
  else
    sys::path::append(Beside, sys::path::filename(*Name));
  DWARFDie Full = U.getNonSkeletonUnitDIE(!ExtractAll, Beside);
  if (Full && Full.getDwarfUnit() != &U)
    return Full.getDwarfUnit();
  SmallString<256> Where;
  if (sys::path::is_relative(*Name))
    if (const char *Dir = U.getCompilationDir())
      Where = Dir;
  sys::path::append(Where, *Name);
  return createStringError(
      inconvertibleErrorCode(),
      "split DWARF unit at 0x" + utohexstr(U.getOffset()) +
          ": its DIEs are in '" + Where +
          "', which is missing, unreadable or from another build (also "
          "looked for '" +
          Beside + "' and '" + InputPath + ".dwp')");
}

} // namespace dwarfpack
