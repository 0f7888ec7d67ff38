//===- DieExtents.h - DIEs whose values LLVM can step over -----*- C++ -*-===//
//
// LLVM 19 steps over a DIE's attribute values (DWARFDebugInfoEntry::
// extractFast when it reads a unit's DIEs, and every attribute lookup
// after) without checking that they stay inside the section: a block
// whose length runs past the end of .debug_info, followed by an attribute
// read as LEB128, makes it decode bytes far outside the section (its
// DataExtractor checks that offset by assertion only). Every DWARF file
// dwarfpack hands to LLVM's DIE reader is walked here first, as LLVM will
// walk it.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_DIEEXTENTS_H
#define DWARFPACK_SUPPORT_DIEEXTENTS_H

#include "llvm/Support/Error.h"

namespace llvm {
class DWARFContext;
} // namespace llvm

namespace dwarfpack {

/// Walks the DIEs of every unit of Ctx (.debug_info and .debug_types, or
/// their .dwo forms) as LLVM's reader does, and fails naming the first DIE
/// whose values would make LLVM read past the end of its section. Damage
/// LLVM stops at safely (an unknown abbreviation or form, a unit that does
/// not fit) passes. Threads (0: all cores) walk units in parallel; the
/// answer does not depend on it. A package's unit indexes, which LLVM reads
/// with its first unit, are checked before (checkUnitIndexes).
llvm::Error checkDieExtents(llvm::DWARFContext &Ctx, unsigned Threads = 1);

} // namespace dwarfpack

#endif
