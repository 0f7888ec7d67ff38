//===- LineTableCheck.h - Line tables against LLVM's parser -----*- C++ -*-===//
//
// LineTable promises what LLVM 19's DWARFDebugLine::LineTable::parse gives.
// This decodes one table with both and names the first difference: the
// outcome (fatal or not, the number of warnings), every row, every sequence
// and every file path. The unit tests, the fuzz target and the differential
// tool (utils/bench/line-table-diff.cpp) all check through it.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_LINETABLECHECK_H
#define DWARFPACK_DWARFINPUT_LINETABLECHECK_H

#include "dwarfpack/DwarfInput/LineTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class DWARFContext;
class DWARFDataExtractor;
class DWARFUnit;
} // namespace llvm

namespace dwarfpack::input {

struct LineCheckResult {
  enum class Outcome {
    Same,
    Different,
    /// Not given to LLVM: our decoder refused the header, or stopped at a
    /// length LLVM would follow back (LineTable.h).
    Skipped,
  } Result = Outcome::Same;
  std::string Difference; ///< the first one, when Different
  std::string SkipReason; ///< when Skipped
  uint64_t Rows = 0, Sequences = 0, Files = 0;
};

/// Decodes the table at Offset with LineTable (from S) and with LLVM (from
/// Data, over the same bytes, in Ctx for U, as the converter calls it) and
/// compares them; file paths are compared against each directory of
/// CompDirs.
LineCheckResult checkLineTable(const LineSections &S, uint64_t Offset,
                               const llvm::DWARFDataExtractor &Data,
                               const llvm::DWARFContext &Ctx,
                               const llvm::DWARFUnit *U,
                               llvm::ArrayRef<llvm::StringRef> CompDirs);

} // namespace dwarfpack::input

#endif
