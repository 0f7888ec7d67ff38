//===- Tables.h - Opening tables, each failure with its status ------------===//
//
// lib/Symbolize opens any of our formats by content; the C API opens them
// the same way, step by step, so that each failure gets its own status:
// a missing file, an unreadable one, bytes of no format of ours, a reader
// that refuses them.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CAPI_TABLES_H
#define DWARFPACK_CAPI_TABLES_H

#include "Status.h"

#include "dwarfpack/Symbolize/Debuginfod.h"
#include "dwarfpack/Symbolize/OpenTable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace dwarfpack {
namespace capi {

/// The readers' options for the DWARFPACK_OPEN_* flags of a call.
OpenOptions openOptions(uint32_t Flags);

/// A debuginfod client for DWARFPACK_OPEN_DEBUGINFOD: _UNSUPPORTED without
/// libdebuginfod in this build, _INVALID_ARGUMENT when DEBUGINFOD_URLS
/// names no server.
llvm::Expected<std::unique_ptr<DebuginfodClient>> debuginfodClient();

/// Opens Buffer for lookups; errors (StatusErrors) name Name:
/// UNKNOWN_FORMAT, CORRUPT.
llvm::Expected<OpenedTable>
openTableBuffer(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                llvm::StringRef Name, const OpenOptions &Opts);

/// Maps the file at Path (never standard input) and opens it; errors
/// (StatusErrors) name the file: NOT_FOUND, IO, and those of
/// openTableBuffer.
llvm::Expected<OpenedTable> openTablePath(llvm::StringRef Path,
                                          const OpenOptions &Opts);

/// Reads the whole file at Path, whose size need not be known beforehand
/// (/proc and /sys files); errors (StatusErrors) name it: NOT_FOUND, IO.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readTextFile(llvm::StringRef Path);

} // namespace capi
} // namespace dwarfpack

#endif
