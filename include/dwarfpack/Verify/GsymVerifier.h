//===- GsymVerifier.h - Check a GSYM file against DWARF -------------------===//
//
// Compares what a GSYM file answers with what LLVM's DWARFContext answers for
// the binary it was made from. Rather than every byte (llvm-gsymutil
// --verify: ~40x the conversion time), it checks the addresses where the
// answer can change: the start of each function, each DWARF and GSYM line
// row and each inline range boundary inside it. Between two such addresses
// neither side can change its answer, so this covers every byte of
// every function at a fraction of the cost. It also checks the other
// direction: every DWARF subprogram range inside a text section must start a
// GSYM function.
//
// Mismatches are counted by kind in a WarningLog (with a few examples); the
// library never prints. Kinds (docs/UserGuide.md, "dwarfpack verify"):
//   uuid             the GSYM UUID is not the binary's build-id
//   lookup-error     the GSYM lookup failed (corrupt record)
//   not-in-gsym      a DWARF subprogram range starts no GSYM function
//   symbol-only      ... starts only a symbol-table entry (no line table)
//   no-dwarf         GSYM has line info where DWARF has none at all
//   frame-count      different inline depth
//   function-name    a frame's function name differs
//   file             a frame's file differs
//   line             a frame's line differs
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_VERIFY_GSYMVERIFIER_H
#define DWARFPACK_VERIFY_GSYMVERIFIER_H

#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace dwarfpack {
namespace verify {

struct GsymVerifyStats {
  /// GSYM functions compared with DWARF (those with a line table or inline
  /// info), and those left out because they come from the symbol table only.
  uint64_t FunctionsChecked = 0;
  uint64_t SymbolOnlyFunctions = 0;
  /// Addresses at which both lookups were compared.
  uint64_t AddressesChecked = 0;
  /// DWARF subprogram ranges checked for a GSYM function.
  uint64_t DwarfRangesChecked = 0;
  /// Addresses (or ranges) with at least one mismatch.
  uint64_t Mismatches = 0;
  /// Process CPU seconds spent loading DWARF (DIEs, address maps, line
  /// tables) and comparing.
  double LoadSeconds = 0;
  double CompareSeconds = 0;
};

struct GsymVerifyOptions {
  /// Worker threads; 0 means all cores. The report does not depend on it.
  unsigned NumThreads = 1;
  /// Called after each batch of functions: (functions done, total).
  ProgressFn Progress;
};

/// Checks Gsym against the DWARF in DICtx (made from Obj). Mismatches go to
/// Log by kind. An Error only when the check itself cannot run. With more
/// than one thread DICtx must have been created thread-safe
/// (DWARFContext::create(..., ThreadSafe=true)); the verifier first builds
/// everything DWARFContext parses lazily, then only reads it in parallel.
llvm::Expected<GsymVerifyStats> verifyGsym(const gsym::GsymReader &Gsym,
                                           const llvm::object::ObjectFile &Obj,
                                           llvm::DWARFContext &DICtx,
                                           WarningLog &Log,
                                           const GsymVerifyOptions &Opts = {});

/// Same, opening both files (what `dwarfpack verify` and `gsym --verify`
/// use).
llvm::Expected<GsymVerifyStats>
verifyGsymFile(llvm::StringRef GsymPath, llvm::StringRef ObjectPath,
               WarningLog &Log, const GsymVerifyOptions &Opts = {});

} // namespace verify
} // namespace dwarfpack

#endif
