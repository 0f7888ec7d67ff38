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
#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace dwarfpack {
namespace tool {

/// What `dwarfpack gsym` writes (--format).
enum class TableFormat { Compact, Gsym };

/// True when Contents is a Breakpad .sym (a MODULE first line).
bool isBreakpadInput(llvm::StringRef Contents);

/// Fills Model from a .sym already read into Contents; Model is not
/// finalized. The parser's counts go to *Stats if given.
llvm::Error loadBreakpadInput(llvm::StringRef Contents, llvm::StringRef Path,
                              FunctionModel &Model, WarningLog &Log,
                              BreakpadStats *Stats = nullptr);

/// The --stats lines about a .sym's records: kept by kind, skipped,
/// rejected.
void printBreakpadStats(const BreakpadStats &S, llvm::raw_ostream &OS);

/// Encodes a finalized model in Format.
llvm::Expected<std::string> encodeTable(const FunctionModel &Model,
                                        TableFormat Format);

/// Where a store's <debug_file>/<ID>/<name>.sym goes below the output
/// directory: <debug_file>/<ID>/<name>.dpat (compact) or <name>.gsym (GSYM).
std::string storeOutputPath(llvm::StringRef SymRelPath, TableFormat Format);

/// Converts every <debug_file>/<ID>/<name>.sym under InDir into
/// OutDir/storeOutputPath(...) in Format with NumThreads threads (0: all
/// cores), continuing past bad files. Prints a summary to OS (files
/// converted, failed and skipped; warnings by kind unless Quiet) and each
/// failure as an error at the end; with ShowStats also the bytes read and
/// written and the wall time. Returns the exit status: 0 if every file
/// converted, 1 otherwise.
int convertBreakpadStore(llvm::StringRef InDir, llvm::StringRef OutDir,
                         unsigned NumThreads, bool Quiet, bool ShowStats,
                         TableFormat Format, llvm::raw_ostream &OS);

} // namespace tool
} // namespace dwarfpack

#endif
