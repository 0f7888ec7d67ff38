//===- FormatRegistry.h - Our file formats, recognised by content ---------===//
//
// The formats and the functions that open any of them by content live in
// lib/Symbolize (dwarfpack/Symbolize/OpenTable.h), where programs that embed
// the readers reach them too; commands include this header for them.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_FORMATREGISTRY_H
#define DWARFPACK_TOOLS_FORMATREGISTRY_H

#include "dwarfpack/Symbolize/OpenTable.h"

namespace dwarfpack {
namespace tool {

using dwarfpack::mapInputFile;

/// How the readers of the tool run: with the portable code paths when
/// DWARFPACK_PORTABLE_READER=1 (portableReaders(), Command.h).
OpenOptions openOptions();

/// Maps Path and opens it for lookups, whatever our format it is; errors
/// name the file, and one about an ELF file says to make its table first.
llvm::Expected<OpenedTable> openLookupTable(llvm::StringRef Path);

} // namespace tool
} // namespace dwarfpack

#endif
