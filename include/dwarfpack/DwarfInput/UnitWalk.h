//===- UnitWalk.h - One walk over the units, many visitors ------*- C++ -*-===//
//
// The walk every model is built from: each compile unit of an object is
// decoded once (for split DWARF, its skeleton and its full unit), on a pool
// of threads, and handed to every visitor; the visitors' per-unit results
// are merged strictly in unit order on the calling thread, so the output
// never depends on the schedule. A bounded window of units in flight keeps
// memory proportional to the thread count, and the pages of .debug_info a
// merged unit used are handed back to the kernel as the walk moves on.
//
// This is pahole's loader / encoder split (dwarf_loader.c hands each unit
// to the encoders through conf_load->steal): the walk knows nothing of the
// models, a visitor nothing of threads or files.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_UNITWALK_H
#define DWARFPACK_DWARFINPUT_UNITWALK_H

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace input {

class InputObject;

/// One unit as the visitors see it.
struct UnitContext {
  const InputObject &Object;
  /// The unit of the walked file: for split DWARF the skeleton, which has
  /// the line table and the compilation directory.
  const Unit &Skel;
  /// The unit whose DIEs describe code and types: Skel, or the full unit
  /// of its .dwo file (null when that could not be read; see SplitError).
  const Unit *Full;
  /// Why the full unit of a skeleton is missing: the visitor says what it
  /// loses (kind missing-dwo).
  std::optional<std::string> SplitError;
  /// The .dwo or .dwp file Full comes from (empty for Skel itself).
  llvm::StringRef SplitPath;
  /// Position of the unit in the walk.
  size_t Index;
  /// The visitor's warnings about this unit, merged into the walk's log in
  /// unit order when the visitor keeps the unit (UnitVisitor::merge).
  WarningLog &Log;
};

/// A visitor's result for one unit, handed back to it in unit order.
struct UnitResult {
  virtual ~UnitResult() = default;
};

class UnitVisitor {
public:
  virtual ~UnitVisitor() = default;
  /// Converts one unit; runs on a worker thread, for several units at
  /// once (distinct units).
  virtual std::unique_ptr<UnitResult> visit(const UnitContext &C) = 0;
  /// Takes a unit's result; called on the walking thread, in unit order.
  /// The visitor moves out what it keeps; the walk frees the rest on the
  /// thread that made it. False drops the unit, and the warnings its visit
  /// reported with it (a unit another input already brought).
  virtual bool merge(size_t Index, UnitResult &R) = 0;
};

/// A unit to walk: one of File's units.
struct WalkItem {
  const DwarfFile *File;
  const UnitHeader *Header;
};

/// The compile, partial and skeleton units of Obj's .debug_info, in order
/// (type units are reached through references).
std::vector<WalkItem> compileUnits(const InputObject &Obj);

struct WalkOptions {
  /// Worker threads; 0: all cores. The output does not depend on it.
  unsigned Threads = 1;
  /// Called after each unit is merged: (units done, units in all).
  ProgressFn Progress;
  /// Units of the input converted with the item list given instead of
  /// compileUnits(): walkUnits still releases pages only of the input's
  /// own .debug_info.
  bool ReleasePages = true;
  /// Pages are released once the units merged since the last release span
  /// this many bytes, and at the end: each release makes the kernel
  /// interrupt every other core that runs the process to flush its TLB.
  uint64_t ReleaseStep = 4 << 20;
  /// Report the unit headers of the object that could not be read
  /// (InputObject::unitProblems) with the walk's warnings: once per object
  /// (a second walk over other units leaves it off).
  bool ReportUnitProblems = true;
  /// Visitors see each unit's DIE and no other (Unit::parse's
  /// UnitDieOnly), and no skeleton's .dwo unit (Full is null).
  bool UnitDiesOnly = false;
};

/// Walks Items of Obj with every visitor. Warnings of each unit go to its
/// own log, merged into Log in unit order. Fails only when a unit has DIE
/// values that run past the end of their section (the file is unusable,
/// as every command reports it); the first such unit in order is named.
llvm::Error walkUnits(const InputObject &Obj, llvm::ArrayRef<WalkItem> Items,
                      llvm::ArrayRef<UnitVisitor *> Visitors,
                      const WalkOptions &Opts, WarningLog &Log);

} // namespace input
} // namespace dwarfpack

#endif
