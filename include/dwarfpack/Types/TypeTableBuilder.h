//===- TypeTableBuilder.h - The type model, a walk visitor ------*- C++ -*-===//
//
// Builds an object's type table from the DWARF walk (DwarfInput/UnitWalk.h):
// each unit's types are converted on the walk's threads
// (convertCompileUnit) and merged in unit order (TypeMerger); after the
// walk, the partial units of dwz's supplementary file that the units import
// are converted too, then the merger finishes the table against the
// object's ELF symbols. `dwarfpack ctf` runs it alone (buildTypeTable),
// `dwarfpack pack` beside the address model in the same walk.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_TYPETABLEBUILDER_H
#define DWARFPACK_TYPES_TYPETABLEBUILDER_H

#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include <future>
#include <set>

namespace dwarfpack {
namespace types {

class TypeTableBuilder : public input::UnitVisitor {
public:
  /// Obj must outlive the builder and its table (names point into it).
  /// With Threads > 1, the ELF symbols are read on a thread of their own,
  /// beside the first units' types.
  TypeTableBuilder(const input::InputObject &Obj, WarningLog &Log,
                   unsigned Threads = 1);
  ~TypeTableBuilder() override;

  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override;
  bool merge(size_t Index, input::UnitResult &R) override;

  /// After the walk: converts the supplementary file's partial units the
  /// walked units import, then deduplicates and finishes the table.
  llvm::Expected<BuildResult> finish(const BuildOptions &Opts, WarningLog &Log);

private:
  const input::InputObject &Obj;
  TypeUnitIndex Sigs;
  /// The object's ELF symbols: a unit's extern declarations are kept for
  /// the data objects among them, and finish() ties the table to them.
  std::shared_future<ElfSymbolNames> Names;
  TypeMerger Merger;
  BuildResult Result;
  /// Offsets of the supplementary file's units the units import.
  std::set<uint64_t> Imported;
  /// Whether a unit was converted before Names was read (its declarations
  /// are filtered by finish()).
  bool DeclarationsUnfiltered = false;
};

} // namespace types
} // namespace dwarfpack

#endif
