//===- ReleaseDIEs.h - A unit's DIEs, freed and filled ---------*- C++ -*-===//
//
// Without freeing each unit's DIE array after use, a vmlinux conversion
// holds every DIE of the kernel (gigabytes) at once. LLVM 19 keeps
// DWARFUnit::clearDIEs private; see BuildTypeTable.cpp for how it is reached.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_RELEASEDIES_H
#define DWARFPACK_TYPES_RELEASEDIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class DWARFUnit;
} // namespace llvm

namespace dwarfpack {
namespace types {

/// Frees U's DIEs except the unit DIE. Only when nothing else (another
/// thread, a cross-unit reference) still uses them.
void releaseUnitDIEs(llvm::DWARFUnit &U);

/// Whether any abbreviation of .debug_abbrev uses a form that refers
/// outside its unit (DW_FORM_ref_addr: LTO, dwz) or may hide one
/// (DW_FORM_indirect). A malformed table counts as yes. When it does, a
/// unit's DIEs may be read while another unit is converted: they must not
/// be released.
bool abbrevsMayCrossUnits(llvm::StringRef Abbrev);

/// LLVM 19 fills a unit's abbreviations and DIEs lazily and without a lock:
/// a worker converting a unit and another following a reference into it
/// would both fill it, and crash. Before Units of one context are converted
/// on several threads, this fills them one at a time: their abbreviations,
/// and with AllDIEs (references may cross units) all their DIEs.
void fillUnitsForThreads(llvm::ArrayRef<llvm::DWARFUnit *> Units, bool AllDIEs);

} // namespace types
} // namespace dwarfpack

#endif
