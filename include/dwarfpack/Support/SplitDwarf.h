//===- SplitDwarf.h - Units whose DIEs live in .dwo files -------*- C++ -*-===//
//
// With split DWARF (-gsplit-dwarf) a linked file keeps only skeleton units:
// the line table, the address ranges and the name of a .dwo file, which
// holds the unit's DIEs (or a .dwp package beside the file holds them all).
// Both DWARF walks (address tables and types) read the DIEs through this.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_SPLITDWARF_H
#define DWARFPACK_SUPPORT_SPLITDWARF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/Error.h"

namespace dwarfpack {

/// True for a skeleton unit: a DWARF 5 skeleton, or a DWARF 4 unit with
/// the GNU extension's DW_AT_GNU_dwo_name.
bool isSkeletonUnit(llvm::DWARFUnit &U);

/// True when Ctx may hold skeleton units (decided from the unit headers and
/// sections, without reading any DIE): the caller then needs contexts that
/// can find the package InputPath.dwp, i.e. created from the object file.
bool mayHaveSkeletonUnits(llvm::DWARFContext &Ctx);

/// The unit whose DIEs describe U's code and types: U itself, or for a
/// skeleton, the full unit of its .dwo file, looked for where the skeleton
/// says (DW_AT_comp_dir / DW_AT_dwo_name), in the package InputPath.dwp,
/// then beside InputPath. With ExtractAll, all its DIEs are read (which
/// must then not race with other users of the .dwo's context). Fails with
/// a message naming the .dwo file when it cannot be read or does not match
/// the skeleton's DWO id.
llvm::Expected<llvm::DWARFUnit *>
fullUnit(llvm::DWARFUnit &U, llvm::StringRef InputPath, bool ExtractAll);

} // namespace dwarfpack

#endif
