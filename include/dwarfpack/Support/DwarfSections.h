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

/// A section in the legacy GNU compression (.zdebug_*: gcc -gz=zlib-gnu,
/// and GNU as' --compress-debug-sections before binutils 2.26): "ZLIB",
/// the size of the bytes it expands to as 8 big-endian bytes, then one
/// zlib stream.
struct GnuCompressedSection {
  uint64_t Size = 0;
  llvm::StringRef Stream;
};

/// Reads the header of Data, the contents of the section named Name.
llvm::Expected<GnuCompressedSection>
readGnuCompressedSection(llvm::StringRef Name, llvm::StringRef Data);

/// The S.Size bytes S's stream expands to, in a buffer of their own; the
/// error says how the stream disagrees with the size. Bound S.Size first
/// (checkDebugSectionsReadable): this allocates it.
llvm::Expected<std::unique_ptr<char[]>>
decompressGnuSection(const GnuCompressedSection &S);

/// Fails when the compression headers of Obj's compressed debug sections
/// (SHF_COMPRESSED, and .zdebug_* with ReadsGnuCompression) declare more
/// bytes than their data can expand to (zlib at most 1,032 times, zstd
/// 32,768 times) or, together, more than this machine's memory: each is
/// decompressed into a buffer of the declared size (DWARFContext::create
/// aborts, "out of memory", when it cannot have one). Without
/// ReadsGnuCompression, for readers that go through LLVM 19, which no
/// longer reads .zdebug_* sections, also fails when there are any: the
/// DWARF would otherwise look like none at all. Call it before reading
/// Obj's DWARF.
llvm::Error checkDebugSectionsReadable(const llvm::object::ObjectFile &Obj,
                                       bool ReadsGnuCompression = false);

} // namespace dwarfpack

#endif
