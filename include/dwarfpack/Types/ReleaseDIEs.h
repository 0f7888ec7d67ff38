//===- ReleaseDIEs.h - Free a unit's DIEs after conversion ----------------===//
//
// Without freeing each unit's DIE array after use, a vmlinux conversion
// holds every DIE of the kernel (gigabytes) at once. LLVM 19 keeps
// DWARFUnit::clearDIEs private; see BuildTypeTable.cpp for how it is reached.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_RELEASEDIES_H
#define DWARFPACK_TYPES_RELEASEDIES_H

namespace llvm {
class DWARFUnit;
} // namespace llvm

namespace dwarfpack {
namespace types {

/// Frees U's DIEs except the unit DIE. Only when nothing else (another
/// thread, a cross-unit reference) still uses them.
void releaseUnitDIEs(llvm::DWARFUnit &U);

} // namespace types
} // namespace dwarfpack

#endif
