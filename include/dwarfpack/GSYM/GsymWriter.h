//===- GsymWriter.h - FunctionModel to LLVM GSYM V1 bytes -----------------===//
//
// Writes a finalized FunctionModel as an LLVM GSYM V1 file (docs/GSYM.md),
// readable by llvm-gsymutil and LLVM's GsymReader. Line tables use LLVM's
// exact encoder, so identical rows give identical bytes. Strings and files
// are numbered in the order they are first used by the (sorted) function
// list, so the output depends only on the model's content.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_GSYM_GSYMWRITER_H
#define DWARFPACK_GSYM_GSYMWRITER_H

#include "dwarfpack/AddressTable/FunctionModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace dwarfpack {
namespace gsym {

/// What went into a GSYM file.
struct WriteStats {
  uint64_t Functions = 0;
  uint64_t LineRows = 0;
  uint64_t InlineNodes = 0; ///< Inlined calls, not counting the roots.
  uint64_t Strings = 0;
  uint64_t Files = 0;
  uint64_t Bytes = 0;
};

/// Encodes a finalized model (sorted, disjoint, non-empty entries) in the
/// model's byte order. Fails when the model breaks the format's limits
/// (4 GiB offsets, 32-bit sizes, more than 2^32 functions) or when an entry
/// is malformed (line rows out of order, inline range outside its parent).
/// Threads (0: all cores) encode the records; the bytes never depend on it.
llvm::Expected<std::string> encodeGsym(const FunctionModel &Model,
                                       WriteStats *Stats = nullptr,
                                       unsigned Threads = 1);

/// Appends the payload of a LineTable record (InfoType 1) for rows that
/// start at FuncStart, exactly as LLVM's LineTable::encode does. The rows'
/// File fields are GSYM file indexes.
llvm::Error encodeLineTable(llvm::ArrayRef<LineEntry> Rows, uint64_t FuncStart,
                            std::string &Out);

/// The narrowest address offset size (1, 2, 4 or 8) that holds MaxOffset, as
/// LLVM's GsymCreator selects it from the last function's start.
uint8_t addressOffsetSize(uint64_t MaxOffset);

} // namespace gsym
} // namespace dwarfpack

#endif
