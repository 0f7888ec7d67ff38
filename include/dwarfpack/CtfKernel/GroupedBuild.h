//===- GroupedBuild.h - One object's units split among modules -*- C++ -*-===//
//
// vmlinux (or vmlinux.o) holds the units of the core kernel and of every
// built-in module. convertUnitsInto() converts an object's compile units in
// the DWARF walk (DwarfInput/UnitWalk.h) and merges each into the
// TypeMerger of the module the classifier names, strictly in unit order,
// so the result never depends on the thread count.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTFKERNEL_GROUPEDBUILD_H
#define DWARFPACK_CTFKERNEL_GROUPEDBUILD_H

#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Types/ElfSymbols.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace dwarfpack {
namespace ctfkernel {

using types::collectElfSymbols;
using types::ElfSymbolNames;

/// Where a unit goes: the merger of its module (null: skip the unit, e.g.
/// already seen elsewhere).
struct UnitTarget {
  types::TypeMerger *Merger = nullptr;
};

/// Called once per compile unit, in unit order, on the calling thread, with
/// the unit's DW_AT_comp_dir and DW_AT_name.
using UnitClassifier =
    std::function<UnitTarget(llvm::StringRef CompDir, llvm::StringRef Name)>;

struct GroupedStats {
  uint64_t NumUnits = 0, NumSkipped = 0, NumInputTypes = 0;
};

/// The unit types of one object's units as the classifier places them.
/// Declared: the names whose extern declarations the units keep
/// (types::convertCompileUnit; null: none). Fails when the object has no
/// DWARF compile units, or DIEs whose values run past their section. The
/// merged types refer to the object's strings: keep Obj alive until the
/// mergers are finished. Visitors: more visitors of the same walk (the
/// address model of `dwarfpack pack`).
llvm::Expected<GroupedStats>
convertUnitsInto(const input::InputObject &Obj, const types::BuildOptions &Opts,
                 const UnitClassifier &Classify,
                 const llvm::StringSet<> *Declared, WarningLog &Log,
                 llvm::ArrayRef<input::UnitVisitor *> Visitors = {});

} // namespace ctfkernel
} // namespace dwarfpack

#endif
