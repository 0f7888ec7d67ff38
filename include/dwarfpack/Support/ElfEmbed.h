//===- ElfEmbed.h - Copy an ELF file with sections added --------*- C++ -*-===//
//
// A post-link step carries its outputs in the program itself: a .ctf section
// for GDB and libctf readers, an address table in a section of its own
// (docs/EmbeddedTable.md). llvm-objcopy's library does the rewriting.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_ELFEMBED_H
#define DWARFPACK_SUPPORT_ELFEMBED_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

namespace dwarfpack {

/// The section `dwarfpack pack --embed` puts a program's address table in
/// (docs/EmbeddedTable.md); `dwarfpack lookup` given the program reads it.
constexpr const char *EmbeddedTableSection = ".dwarfpack.table";

/// A section to put in a copy of an ELF file: added, or its contents
/// replaced when the file has a section of that name already.
struct EmbeddedSection {
  llvm::StringRef Name;
  llvm::StringRef Data;
};

/// Writes to OS a copy of the ELF file In with Sections added (non-alloc
/// sections, as `llvm-objcopy --add-section` or `--update-section` writes
/// them).
llvm::Error embedSections(llvm::MemoryBufferRef In,
                          llvm::ArrayRef<EmbeddedSection> Sections,
                          llvm::raw_ostream &OS);

} // namespace dwarfpack

#endif
