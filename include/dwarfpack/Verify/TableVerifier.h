//===- TableVerifier.h - Check an address table against DWARF ------------===//
//
// Compares what an address table (GSYM or the compact table) answers with
// what LLVM's DWARFContext answers for the binary it was made from. Rather
// than every byte (llvm-gsymutil --verify: ~40x the conversion time), it
// checks the addresses where the answer can change: the start of each
// function, each DWARF and table line row and each inline range boundary
// inside it. Between two such addresses neither side can change its answer,
// so this covers every byte of every function at a fraction of the cost. It
// also checks the other direction: every DWARF subprogram range inside a
// text section must start a function of the table.
//
// The verifier sees a table through VerifiableTable, which each format
// implements with its own reader (makeGsymTable, makeCompactTable): the
// answers compared are the reader's lookup answers.
//
// Mismatches are counted by kind in a WarningLog (with a few examples); the
// library never prints. Kinds (docs/UserGuide.md, "dwarfpack verify"):
//   uuid             the table's UUID is not the binary's build-id
//   segments         the table's load segments are not the binary's PT_LOADs
//   lookup-error     the table's lookup failed (corrupt record)
//   not-in-gsym      a DWARF subprogram range starts no function of the table
//   symbol-only      ... starts only a symbol-table entry (no line table)
//   no-dwarf         the table has line info where DWARF has none at all
//   frame-count      different inline depth
//   function-name    a frame's function name differs
//   file             a frame's file differs
//   line             a frame's line differs
// and for tables with details (the compact table's columns, ...):
//   column           a frame's column differs
//   discriminator    a frame's discriminator differs
//   declaration      a frame's declaration (file or line) differs
//   start-address    an inlined frame's start (DW_AT_low_pc, or none)
//                    differs
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_VERIFY_TABLEVERIFIER_H
#define DWARFPACK_VERIFY_TABLEVERIFIER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/SmallVector.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace dwarfpack {
namespace gsym {
class GsymReader;
}
namespace compact {
class CompactReader;
}
namespace verify {

/// One function of a table, as the verifier walks it.
struct TableFunction {
  AddressRange Range;
  bool HasLineTable = false;
  bool HasInline = false;
  /// Addresses inside Range where the table's answer may change: its line
  /// rows and the starts and ends of its inline ranges (in any order).
  llvm::SmallVector<uint64_t, 64> Boundaries;
  /// The reader's own decoding of the record, for lookupIn().
  std::shared_ptr<const void> Decoded;
};

/// One frame of a table's answer, without copies where the table stores
/// the strings (GSYM).
struct TableFrame {
  llvm::StringRef Name;
  /// The file as gsym::joinPath(Dir, Base) joins it: Dir may be empty, Base
  /// being then the whole path. Both empty: no file.
  llvm::StringRef Dir, Base;
  uint32_t Line = 0;
  /// Only from tables with details (VerifiableTable::hasDetails).
  uint32_t Column = 0;
  uint32_t Discriminator = 0;
  llvm::StringRef DeclFile;
  uint32_t DeclLine = 0;
  std::optional<uint64_t> Start;
};

/// What the verifier needs of an address table. Functions are numbered in
/// address order from 0. Implementations are used from several threads at
/// once and must not change state in these calls.
class VerifiableTable {
public:
  virtual ~VerifiableTable();
  /// How messages name the table's format ("GSYM", "compact").
  virtual llvm::StringRef kind() const = 0;
  /// The build-id the table records; empty when none.
  virtual llvm::ArrayRef<uint8_t> uuid() const = 0;
  /// Whether the frames carry columns, discriminators, declarations and
  /// inlined frames' starts as llvm-symbolizer prints them (then checked).
  virtual bool hasDetails() const { return false; }
  /// Whether an inlined call without a call file (DWARF 2 has no
  /// DW_AT_call_file) is a frame, its caller at no file, as
  /// llvm-symbolizer gives it; GSYM's readers leave such a call out.
  virtual bool keepsCallsWithoutFile() const { return false; }
  /// The load segments the table records; std::nullopt when its format
  /// has no place for them (GSYM).
  virtual std::optional<llvm::ArrayRef<LoadSegment>> loadSegments() const {
    return std::nullopt;
  }
  virtual uint32_t numFunctions() const = 0;
  virtual uint64_t functionStart(uint32_t Index) const = 0;
  /// Decodes function Index.
  virtual llvm::Error function(uint32_t Index, TableFunction &Out) const = 0;
  /// Whether function Index has a line table.
  virtual llvm::Expected<bool> hasLineTable(uint32_t Index) const = 0;
  /// The function lookup() answers from at Address, if any.
  virtual llvm::Expected<std::optional<uint32_t>>
  findFunction(uint64_t Address) const = 0;
  /// The frames lookup(Address) answers, innermost first. F, when given, is
  /// the function findFunction() maps Address to, decoded by function(); a
  /// reader may answer from it. Frames point into the table or into
  /// Storage, which the call may fill.
  virtual llvm::Error frames(const TableFunction *F, uint64_t Address,
                             llvm::SmallVectorImpl<TableFrame> &Out,
                             LookupResult &Storage) const = 0;
};

/// GSYM through GsymReader (which must outlive the view).
std::unique_ptr<VerifiableTable> makeGsymTable(const gsym::GsymReader &R);
/// The compact table through CompactReader (which must outlive the view);
/// fails when an address block cannot be decoded.
llvm::Expected<std::unique_ptr<VerifiableTable>>
makeCompactTable(const compact::CompactReader &R);

struct TableVerifyStats {
  /// Functions of the table compared with DWARF (those with a line table or
  /// inline info), and those left out because they come from the symbol table
  /// only.
  uint64_t FunctionsChecked = 0;
  uint64_t SymbolOnlyFunctions = 0;
  /// Addresses at which both lookups were compared.
  uint64_t AddressesChecked = 0;
  /// DWARF subprogram ranges checked for a function of the table.
  uint64_t DwarfRangesChecked = 0;
  /// Addresses (or ranges) with at least one mismatch.
  uint64_t Mismatches = 0;
  /// Addresses where the table's frames differ in names only, at a function
  /// whose start several subprograms describe (identical code folding,
  /// COMDAT copies); DWARFContext picks one of them: not mismatches.
  uint64_t FoldedAddresses = 0;
  /// Process CPU seconds spent loading DWARF (DIEs, address maps, line
  /// tables) and comparing.
  double LoadSeconds = 0;
  double CompareSeconds = 0;
};

struct TableVerifyOptions {
  /// Worker threads; 0 means all cores. The report does not depend on it.
  unsigned NumThreads = 1;
  /// Called after each batch of functions: (functions done, total).
  ProgressFn Progress;
  /// The .dwp package of the object's split units, when not its path with
  /// .dwp added.
  std::string Package;
};

/// Checks Table against the DWARF in DICtx (made from Obj). Mismatches go to
/// Log by kind. An Error only when the check itself cannot run. With more
/// than one thread DICtx must have been created thread-safe
/// (DWARFContext::create(..., ThreadSafe=true)); the verifier first builds
/// everything DWARFContext parses lazily, then only reads it in parallel.
llvm::Expected<TableVerifyStats>
verifyTable(const VerifiableTable &Table, const llvm::object::ObjectFile &Obj,
            llvm::DWARFContext &DICtx, WarningLog &Log,
            const TableVerifyOptions &Opts = {});

/// Same, making the DWARF context from Obj as the converter read it (a
/// relocatable object's sections placed where the converter lays them out).
llvm::Expected<TableVerifyStats>
verifyTableAgainst(const VerifiableTable &Table,
                   const llvm::object::ObjectFile &Obj, WarningLog &Log,
                   const TableVerifyOptions &Opts = {});

/// Same, over the bytes of both files (`dwarfpack verify` and `gsym
/// --verify`; the latter checks the table it has just encoded, and either
/// input may have come from a pipe). TableBytes is GSYM or a compact table,
/// told apart by its magic; the buffers' identifiers name them in errors.
llvm::Expected<TableVerifyStats>
verifyTableBuffer(llvm::MemoryBufferRef TableBytes,
                  llvm::MemoryBufferRef ObjectBytes, WarningLog &Log,
                  const TableVerifyOptions &Opts = {});

} // namespace verify
} // namespace dwarfpack

#endif
