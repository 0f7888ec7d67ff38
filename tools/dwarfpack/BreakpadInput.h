//===- BreakpadInput.h - Reports on Breakpad input of `dwarfpack gsym` ----===//
//
// What `dwarfpack gsym` prints about Breakpad symbol files: a .sym's
// records (--stats), a symbol store's conversion
// (pipeline::convertBreakpadStore).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_BREAKPADINPUT_H
#define DWARFPACK_TOOLS_BREAKPADINPUT_H

#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/Pipeline/ConvertBreakpadStore.h"

#include "llvm/Support/raw_ostream.h"

namespace dwarfpack {
namespace tool {

/// The --stats lines about a .sym's records: kept by kind, skipped,
/// rejected.
void printBreakpadStats(const BreakpadStats &S, llvm::raw_ostream &OS);

/// A store's conversion: files converted, failed and skipped; warnings by
/// kind unless Quiet; with ShowStats the bytes read and written and the
/// wall time.
void printBreakpadStoreReport(const pipeline::BreakpadStoreResult &R,
                              const WarningLog &Log, bool Quiet, bool ShowStats,
                              double Seconds, llvm::raw_ostream &OS);

} // namespace tool
} // namespace dwarfpack

#endif
