//===- SectionOffsets.h - Offsets in one section of an ELF object ---------===//
//
// GNU addr2line -j NAME reads offsets in section NAME instead of addresses:
// the address is the section's plus the offset, and an offset past the
// section's end is in no function.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_SECTIONOFFSETS_H
#define DWARFPACK_SYMBOLIZE_SECTIONOFFSETS_H

#include "dwarfpack/AddressTable/FunctionModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace dwarfpack {

/// The addresses of the section named Name in the ELF object in Object.
/// Errors: not an ELF object (a table records no sections), no such
/// section, section headers that cannot be read.
llvm::Expected<AddressRange> findElfSection(llvm::MemoryBufferRef Object,
                                            llvm::StringRef Name);

} // namespace dwarfpack

#endif
