//===- DwarfSections.h - DWARF sections shared by light contexts ----------===//
//
// Both DWARF walks (address tables and types) convert units with contexts of
// their own over sections a master context has already read (and
// decompressed), which bounds memory and shares no lazy state between
// threads. This builds the section map such a context is created from.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_DWARFSECTIONS_H
#define DWARFPACK_SUPPORT_DWARFSECTIONS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/DWARF/DWARFObject.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace dwarfpack {

/// The sections of O a unit conversion reads, without copies, named as
/// DWARFContext's section-map constructor expects; Info stands for
/// .debug_info (the whole section, or one unit's slice of it).
llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>>
dwarfSectionBuffers(const llvm::DWARFObject &O, llvm::StringRef Info);

/// Fails when Obj's DWARF is in sections LLVM 19 does not read: those of
/// the legacy GNU compression (.zdebug_*, gcc -gz=zlib-gnu), which would
/// otherwise look like no debug information at all. Also fails when the
/// compression headers of SHF_COMPRESSED sections declare more bytes than
/// their data can expand to (zlib at most 1,032 times, zstd 32,768 times)
/// or, together, more than this machine's memory: DWARFContext::create
/// decompresses every compressed section into a buffer of the declared
/// size, and aborts ("out of memory") when it cannot have one. Call it
/// before creating a context over Obj.
llvm::Error checkDebugSectionsReadable(const llvm::object::ObjectFile &Obj);

} // namespace dwarfpack

#endif
