//===- CompactWriter.h - FunctionModel to a compact address table ---------===//
//
// Writes a finalized FunctionModel in dwarfpack's compact address table
// format (docs/CompactTable.md). Lookups in the result give the same answers
// as lookups in the GSYM file the GSYM writer makes from the same model.
// Names and paths go through the shared token encoder. Output depends only
// on the model's content.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_COMPACTTABLE_COMPACTWRITER_H
#define DWARFPACK_COMPACTTABLE_COMPACTWRITER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CompactTable/CompactFormat.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace dwarfpack {
namespace compact {

/// Bytes per part of a compact file, and what went into it.
struct WriteStats {
  uint64_t Functions = 0;
  uint64_t LineRows = 0;
  uint64_t InlineNodes = 0; ///< Inlined calls, not counting the roots.
  uint64_t Names = 0;
  uint64_t Paths = 0;
  uint64_t Files = 0;
  uint64_t Bytes = 0;

  uint64_t HeaderBytes = 0;  ///< Header, section table, UUID, segments.
  uint64_t AddressBytes = 0; ///< Block index and address blocks.
  uint64_t FramingBytes = 0; ///< Record heads.
  uint64_t LineBytes = 0;    ///< Line tables (row count and rows).
  uint64_t ColumnBytes = 0;  ///< Of LineBytes: column codes (and the code).
  uint64_t InlineBytes = 0;  ///< Inline trees.
  uint64_t NameBytes = 0;    ///< Name token table and name list.
  uint64_t PathBytes = 0;    ///< Path token table, path list, file table.
};

struct WriteOptions {
  /// Functions per address block is 1 << BlockShift.
  unsigned BlockShift = 4;
  /// Keep what llvm-symbolizer prints beyond GSYM's content: columns and
  /// discriminators of line rows, call columns, call discriminators and
  /// start addresses of inlined calls, declarations of functions. Without
  /// them lookups answer as from GSYM (column 0, no declaration), and rows
  /// that differ only there are merged. A model without any (Breakpad
  /// input) is written without them whatever this says.
  bool Details = true;
  /// Line tables of more than 1 << RowStopShift rows get a row stop every
  /// 1 << RowStopShift rows (docs/CompactTable.md, "Row stops"); 0: none.
  unsigned RowStopShift = DefaultRowStopShift;
  /// Threads that code the functions' line rows and encode their records
  /// (0: all cores). The bytes and the statistics do not depend on it.
  unsigned Threads = 1;
};

/// Encodes a finalized model (sorted, disjoint, non-empty entries). Fails
/// on a malformed entry (line rows out of order or before the function,
/// inline ranges unsorted or outside their parent) or a model beyond the
/// format's 4 GiB section limit.
llvm::Expected<std::string> encodeCompact(const FunctionModel &Model,
                                          WriteStats *Stats = nullptr,
                                          const WriteOptions &Options = {});

} // namespace compact
} // namespace dwarfpack

#endif
