//===- BreakpadInput.h - Breakpad .sym input of `dwarfpack gsym` ----------===//
//
// What `dwarfpack gsym` needs to read Breakpad symbol files: one .sym into a
// model, and a whole symbol store converted in parallel. Kept out of
// GsymCommand.cpp so that the command only gains two small hooks.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_BREAKPADINPUT_H
#define DWARFPACK_TOOLS_BREAKPADINPUT_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace dwarfpack {
namespace tool {

/// True when Contents is a Breakpad .sym (a MODULE first line).
bool isBreakpadInput(llvm::StringRef Contents);

/// Fills Model from a .sym already read into Contents; Model is not
/// finalized. Statistics go to Stats if given (one line, for --stats).
llvm::Error loadBreakpadInput(llvm::StringRef Contents, llvm::StringRef Path,
                              FunctionModel &Model, WarningLog &Log,
                              llvm::raw_ostream *Stats = nullptr);

/// Converts every <debug_file>/<ID>/<name>.sym under InDir into
/// OutDir/<debug_file>/<ID>/<name>.gsym with NumThreads threads (0: all
/// cores), continuing past bad files. Prints a summary to OS (files
/// converted, failed and skipped; warnings by kind unless Quiet) and each
/// failure as an error at the end. Returns the exit status: 0 if every file
/// converted, 1 otherwise.
int convertBreakpadStore(llvm::StringRef InDir, llvm::StringRef OutDir,
                         unsigned NumThreads, bool Quiet,
                         llvm::raw_ostream &OS);

} // namespace tool
} // namespace dwarfpack

#endif
