//===- SplitUnitSearch.h - Where a split unit's DIEs may be -----*- C++ -*-===//
//
// With split DWARF a skeleton unit names the .dwo file that holds its DIEs,
// or a .dwp package beside the linked file holds them all. Both readers of
// split DWARF (DwarfInput's, and the LLVM contexts the verifier compares
// with) look in the same places, in the same order, and explain a miss in
// the same words: this is that search, apart from how a file is opened.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_SPLITUNITSEARCH_H
#define DWARFPACK_SUPPORT_SPLITUNITSEARCH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dwarfpack {

/// The places of one skeleton's DIEs, in the order LLVM's tools look: the
/// package (InputPath.dwp, or the one given), the .dwo the skeleton names
/// (under its compilation directory when the name is relative), and the same
/// name beside the input (the file name of an absolute one: a build tree moved
/// with its binary).
class SplitUnitSearch {
public:
  /// The search for a skeleton at SkeletonOffset whose DW_AT_dwo_name is
  /// DwoName; std::nullopt when there is nothing to load: no name, or an
  /// empty one (which LLVM still takes from a package by DWO id) without a
  /// DWO id or a package. Package: the input's .dwp package, when not
  /// InputPath.dwp (llvm-symbolizer --dwp); empty: that one.
  static std::optional<SplitUnitSearch>
  forSkeleton(llvm::StringRef InputPath, llvm::StringRef Package,
              const char *DwoName, const char *CompDir,
              std::optional<uint64_t> DwoId, uint64_t SkeletonOffset);

  enum class Outcome {
    Found,    ///< The file holds the unit of the DWO id.
    NoUnit,   ///< The file was read; no unit has the DWO id.
    NotOpened ///< No such file, or one that could not be read.
  };
  /// Opens Path and looks for the unit of dwoId() in it. OpenError is set
  /// for an existing file that could not be read. ReportOpenError: the
  /// package, whose problems are worth a warning of their own.
  using TryFn = llvm::function_ref<Outcome(
      llvm::StringRef Path, bool ReportOpenError, std::string &OpenError)>;

  /// Tries the places in order until one holds the unit; the error names
  /// every place looked at and why each did not do.
  llvm::Error run(TryFn Try) const;

  std::optional<uint64_t> dwoId() const { return Id; }

private:
  SplitUnitSearch() = default;

  std::string Dwp;
  llvm::SmallString<256> Where, Beside;
  bool NoName = false;
  std::optional<uint64_t> Id;
  uint64_t SkeletonOffset = 0;
};

} // namespace dwarfpack

#endif // DWARFPACK_SUPPORT_SPLITUNITSEARCH_H
