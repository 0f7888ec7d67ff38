//===- UnitIndex.h - Package unit indexes LLVM can parse --------*- C++ -*-===//
//
// A .dwp package finds its units through .debug_cu_index and
// .debug_tu_index. LLVM 19's DWARFUnitIndex::parse trusts them: a bucket
// naming a unit past the unit count writes outside its table, a unit no
// bucket names is written through a null pointer, a count whose table
// size overflows 32 bits passes the size check and sizes huge
// allocations, and a bucket count that is not a power of two, or a table
// without a free bucket, makes a search for a missing signature loop
// forever. Every DWARF file dwarfpack hands to LLVM is checked here
// before LLVM reads its units (checkDieExtents does it first).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_UNITINDEX_H
#define DWARFPACK_SUPPORT_UNITINDEX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class DWARFContext;
} // namespace llvm

namespace dwarfpack {

/// Checks one index section (its bytes, as in the file). IsTypeIndex
/// selects the info column of a version 2 index (DW_SECT_TYPES, not
/// DW_SECT_INFO). An empty section, or one whose version LLVM does not
/// read (it then ignores the index), passes; the error names the section
/// and what is wrong.
llvm::Error checkUnitIndex(llvm::StringRef Bytes, bool IsLittleEndian,
                           bool IsTypeIndex);

/// checkUnitIndex for Ctx's .debug_cu_index and .debug_tu_index.
llvm::Error checkUnitIndexes(const llvm::DWARFContext &Ctx);

} // namespace dwarfpack

#endif
