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

/// openOptions() for the lookup commands: an ELF object given instead of a
/// table is converted in memory on Threads threads (its debug file looked
/// for under DebugDirs, then fetched from the servers DEBUGINFOD_URLS names
/// when this build has the debuginfod client), with a progress line on a
/// terminal unless Quiet, and its table cached in defaultTableCacheDir().
OpenOptions lookupOpenOptions(unsigned Threads,
                              llvm::ArrayRef<std::string> DebugDirs,
                              bool Quiet);

/// Maps Path and opens it for lookups, whatever our format it is (an ELF
/// object as Opts says); errors name the file. Unless Quiet, says what the
/// conversion of an object noted: its warnings, and that a binary without
/// DWARF is answered from its symbols alone.
llvm::Expected<OpenedTable>
openLookupTable(llvm::StringRef Path, const OpenOptions &Opts, bool Quiet);

} // namespace tool
} // namespace dwarfpack

#endif
