//===- GroupedBuild.h - One object's units split among modules -*- C++ -*-===//
//
// vmlinux (or vmlinux.o) holds the units of the core kernel and of every
// built-in module. convertUnitsInto() converts an object's compile units in
// parallel and merges each into the TypeMerger of the module the classifier
// names, strictly in unit order, so the result never depends on the thread
// count (as types::buildTypeTable).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTFKERNEL_GROUPEDBUILD_H
#define DWARFPACK_CTFKERNEL_GROUPEDBUILD_H

#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "dwarfpack/Types/ElfSymbols.h"

#include <functional>

namespace dwarfpack {
namespace ctfkernel {

using types::collectElfSymbols;
using types::ElfSymbolNames;

/// Where a unit goes: the merger of its module (null: skip the unit, e.g.
/// already seen elsewhere), and the names whose extern declarations it
/// keeps (types::convertCompileUnit; null: none).
struct UnitTarget {
  types::TypeMerger *Merger = nullptr;
  const llvm::StringSet<> *Declared = nullptr;
};

/// Called once per compile unit, in unit order, on the calling thread, with
/// the unit's DW_AT_comp_dir and DW_AT_name.
using UnitClassifier =
    std::function<UnitTarget(llvm::StringRef CompDir, llvm::StringRef Name)>;

struct GroupedStats {
  uint64_t NumUnits = 0, NumSkipped = 0, NumInputTypes = 0;
};

/// Fails only when the object has no DWARF compile units. The merged types
/// refer to the object's strings: keep Obj and Ctx alive until the mergers
/// are finished.
llvm::Expected<GroupedStats> convertUnitsInto(llvm::DWARFContext &Ctx,
                                              const types::BuildOptions &Opts,
                                              const UnitClassifier &Classify,
                                              WarningLog &Log);

} // namespace ctfkernel
} // namespace dwarfpack

#endif
