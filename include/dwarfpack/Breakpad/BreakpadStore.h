//===- BreakpadStore.h - Symbol stores of Breakpad .sym files -------------===//
//
// A symbol store (what Breakpad's SimpleSymbolSupplier, symbol servers and
// crash reporters read) keeps one file per module build as
// <debug_file>/<ID>/<debug_file without .pdb>.sym.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_BREAKPAD_BREAKPADSTORE_H
#define DWARFPACK_BREAKPAD_BREAKPADSTORE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dwarfpack {

struct BreakpadStoreListing {
  /// Paths relative to the store root, '/'-separated, sorted:
  /// "<debug_file>/<ID>/<name>.sym".
  std::vector<std::string> SymFiles;
  /// Regular files that do not fit the layout, relative and sorted.
  std::vector<std::string> Ignored;
};

/// Lists the .sym files of the store at Root. Error if Root is not a
/// readable directory.
llvm::Expected<BreakpadStoreListing> listBreakpadStore(llvm::StringRef Root);

/// "<debug_file>/<ID>/<name>.sym" -> "<debug_file>/<ID>/<name>.gsym".
std::string gsymPathForStoreEntry(llvm::StringRef SymRelPath);

} // namespace dwarfpack

#endif
