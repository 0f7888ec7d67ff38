//===- BuildId.h - The GNU build-id of an ELF file --------------*- C++ -*-===//

#ifndef DWARFPACK_SUPPORT_BUILDID_H
#define DWARFPACK_SUPPORT_BUILDID_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace dwarfpack {

/// The NT_GNU_BUILD_ID note of O, from its note sections (debug files such
/// as dwz's supplementary files have no program headers, where
/// llvm::object::getBuildID looks) or else its PT_NOTE segments; empty if
/// it has none.
llvm::ArrayRef<uint8_t> gnuBuildId(const llvm::object::ObjectFile &O);

/// gnuBuildId of the object file in Object; an error when it is none.
llvm::Expected<llvm::SmallVector<uint8_t, 20>>
readBuildId(llvm::MemoryBufferRef Object);

/// The NT_GNU_BUILD_ID note among the ELF notes in Notes (the contents of
/// a note section, as Linux shows them in /sys/kernel/notes and
/// /sys/module/<name>/notes/.note.gnu.build-id: 4-byte aligned,
/// little-endian); empty if there is none. An error, naming the offset,
/// when a note runs past the end.
llvm::Expected<llvm::ArrayRef<uint8_t>>
gnuBuildIdFromNotes(llvm::ArrayRef<uint8_t> Notes);

} // namespace dwarfpack

#endif
