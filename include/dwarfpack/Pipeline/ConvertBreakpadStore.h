//===- ConvertBreakpadStore.h - Breakpad stores to tables -------*- C++ -*-===//
//
// `dwarfpack gsym --breakpad-store`: every <debug_file>/<ID>/<name>.sym of a
// Breakpad symbol store converted, in parallel, into the same tree of
// address tables.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_PIPELINE_CONVERTBREAKPADSTORE_H
#define DWARFPACK_PIPELINE_CONVERTBREAKPADSTORE_H

#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace pipeline {

/// Where a store's <debug_file>/<ID>/<name>.sym goes below the output
/// directory: <debug_file>/<ID>/<name>.dpat (compact) or <name>.gsym (GSYM).
std::string storeOutputPath(llvm::StringRef SymRelPath, TableFormat Format);

struct BreakpadStoreResult {
  size_t SymFiles = 0;   ///< .sym files found.
  size_t OtherFiles = 0; ///< Other files, skipped.
  /// Why each file that failed did, in path order.
  std::vector<std::string> Failures;
  uint64_t BytesRead = 0, BytesWritten = 0;
};

/// Converts every <debug_file>/<ID>/<name>.sym under InDir into
/// OutDir/storeOutputPath(...) in Format with NumThreads threads (0: all
/// cores), continuing past bad files (counted in Failures). Every file's
/// warnings go to Log, in path order. An error when InDir cannot be listed.
llvm::Expected<BreakpadStoreResult>
convertBreakpadStore(llvm::StringRef InDir, llvm::StringRef OutDir,
                     unsigned NumThreads, TableFormat Format, WarningLog &Log);

} // namespace pipeline
} // namespace dwarfpack

#endif
