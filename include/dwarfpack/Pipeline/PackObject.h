//===- PackObject.h - Every output of one object from one walk --*- C++ -*-===//
//
// The pipeline behind `dwarfpack pack`, `gsym` and `ctf` (one object): the
// object's DWARF is walked once (DwarfInput/UnitWalk.h) with a visitor per
// model asked for (the address model, the type model), then each model is
// finished and encoded (the address table as GSYM or compact, the types as
// a CTF dict), the two in parallel. The single-purpose commands ask for
// one model, `pack` for both: each output is byte-identical either way.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_PIPELINE_PACKOBJECT_H
#define DWARFPACK_PIPELINE_PACKOBJECT_H

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CTF/SymtabOrder.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {
namespace input {
class InputObject;
}
namespace pipeline {

/// The formats of an address table.
enum class TableFormat { Compact, Gsym };

/// Encodes a finalized model in Format, with Threads threads (GSYM's
/// records; 0: all cores). Stats: what went in (compact's figures mapped
/// onto GSYM's), when given. Details: a compact table keeps what
/// llvm-symbolizer prints beyond GSYM's content (compact::WriteOptions).
llvm::Expected<std::string> encodeTable(const FunctionModel &Model,
                                        TableFormat Format,
                                        unsigned Threads = 1,
                                        gsym::WriteStats *Stats = nullptr,
                                        compact::WriteStats *Compact = nullptr,
                                        bool Details = true);

struct PackOptions {
  /// Worker threads of the walk and the writers; 0: all cores. The outputs
  /// do not depend on it.
  unsigned NumThreads = 0;
  /// Which models to build.
  bool AddressTable = true;
  bool Types = false;
  TableFormat Format = TableFormat::Compact;
  /// A compact table keeps columns, discriminators and declarations.
  bool TableDetails = true;
  /// The CTF writer's options (Threads and Symtab are set here).
  ctf::WriteOptions Ctf;
  /// Name data objects and functions in index sections (no SymtabOrder).
  bool IndexedSymbols = false;
  /// Called after each compile unit: (units done, units in all).
  ProgressFn Progress;
};

/// Seconds spent in each phase.
struct PackTimes {
  double Walk = 0;     ///< Reading DWARF and symbols into the models.
  double Finalize = 0; ///< The address model's finalize().
  double Types = 0;    ///< Deduplicating and finishing the type table.
  /// Everything after the walk: both models' finishing and their writers,
  /// side by side.
  double Tail = 0;
};

struct PackResult {
  /// The address model, finalized (AddressTable).
  FunctionModel Model;
  ConvertStats Convert;
  std::string Table;
  gsym::WriteStats TableStats;
  compact::WriteStats CompactStats;
  /// The type model (Types, when the object has DWARF units).
  std::optional<types::BuildResult> Types;
  std::string Ctf;
  ctf::WriteStats CtfStats;
  /// Whether the object has any DWARF compile unit.
  bool HasDwarf = false;
  PackTimes Times;
};

/// Builds and encodes the models Opts asks for from Obj, which must
/// outlive the result (names point into it). An address model without any
/// function, or types asked for of an object without DWARF, is not an
/// error here (the table or dict is then left empty): the caller says what
/// that means for its outputs. Errors: DIEs whose values run past their
/// section, a writer's limit exceeded; they name the object.
llvm::Expected<std::unique_ptr<PackResult>>
packObject(const input::InputObject &Obj, const PackOptions &Opts,
           WarningLog &Log);

} // namespace pipeline
} // namespace dwarfpack

#endif
