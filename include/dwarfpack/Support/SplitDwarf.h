//===- SplitDwarf.h - Units whose DIEs live in .dwo files -------*- C++ -*-===//
//
// With split DWARF (-gsplit-dwarf) a linked file keeps only skeleton units:
// the line table, the address ranges and the name of a .dwo file, which
// holds the unit's DIEs (or a .dwp package beside the file holds them all).
// Both DWARF walks (address tables and types) read the DIEs through this.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_SPLITDWARF_H
#define DWARFPACK_SUPPORT_SPLITDWARF_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {

/// True for a skeleton unit: a DWARF 5 skeleton, or a DWARF 4 unit with
/// the GNU extension's DW_AT_GNU_dwo_name.
bool isSkeletonUnit(llvm::DWARFUnit &U);

/// Finds and opens the .dwo files, or the package InputPath.dwp, that hold
/// the DIEs of skeleton units. LLVM can load them itself, but reports their
/// problems through its default handlers: on stderr, without the file's
/// name. Each file opened here gets a context whose handlers name it and
/// pass the problem on to the handlers of the skeleton's context.
///
/// The loader owns what it opens: the units it returns live as long as it
/// does, and it must not outlive the skeletons' contexts. fullUnit must be
/// called from one thread at a time; the units it returns may be read by
/// several threads when ThreadSafe is set (their contexts then guard their
/// lazily built state, as LLVM's thread-safe contexts do).
class SplitDwarfLoader {
public:
  /// Package: the .dwp package, when not InputPath.dwp.
  explicit SplitDwarfLoader(llvm::StringRef InputPath,
                            llvm::StringRef Package = "",
                            bool ThreadSafe = false);
  ~SplitDwarfLoader();
  SplitDwarfLoader(const SplitDwarfLoader &) = delete;
  SplitDwarfLoader &operator=(const SplitDwarfLoader &) = delete;

  /// The unit whose DIEs describe U's code and types: U itself, or for a
  /// skeleton, the full unit with U's DWO id, looked for in InputPath.dwp,
  /// then where the skeleton says (DW_AT_comp_dir / DW_AT_dwo_name), then
  /// beside InputPath (the same relative path, or the file name of an
  /// absolute one: a build tree moved with its binary). With ExtractAll,
  /// all its DIEs are read. Fails with a message naming the .dwo file when
  /// none can be read or matches the skeleton's DWO id.
  llvm::Expected<llvm::DWARFUnit *> fullUnit(llvm::DWARFUnit &U,
                                             bool ExtractAll);

  /// The file a unit returned by fullUnit was read from, and how many
  /// problems its context has reported so far.
  struct Source {
    llvm::StringRef Path;
    unsigned Problems = 0;
  };
  /// Full's file; nullopt for a unit not loaded here.
  std::optional<Source> sourceOf(const llvm::DWARFUnit &Full) const;

private:
  struct File;
  /// The file at Path, opened once (null when it cannot be).
  File *open(llvm::StringRef Path, llvm::DWARFContext &Parent,
             bool ReportOpenError);

  std::string InputPath;
  std::string Package;
  bool ThreadSafe;
  llvm::StringMap<std::unique_ptr<File>> Files;
};

} // namespace dwarfpack

#endif
