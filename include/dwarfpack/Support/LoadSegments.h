//===- LoadSegments.h - Where an ELF file's bytes are loaded ---*- C++ -*-===//
//
// Profilers that record a sample as (build-id, file offset), as BPF's
// build-id stacks and perf do, need the map from file offsets to addresses
// that an ELF file's PT_LOAD program headers give. Address tables record it
// so that such samples resolve without the binary.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_LOADSEGMENTS_H
#define DWARFPACK_SUPPORT_LOADSEGMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dwarfpack {

/// File bytes [FileOffset, FileOffset + FileSize) are loaded at Address.
struct LoadSegment {
  uint64_t FileOffset = 0;
  uint64_t Address = 0;
  uint64_t FileSize = 0;

  bool operator==(const LoadSegment &O) const {
    return FileOffset == O.FileOffset && Address == O.Address &&
           FileSize == O.FileSize;
  }
  bool operator!=(const LoadSegment &O) const { return !(*this == O); }
};

/// The PT_LOAD segments of O that have file bytes, sorted by file offset.
/// A segment whose file bytes overlap an earlier one's is left out (counted
/// in Dropped): a file offset must name one address. Empty for relocatable
/// objects and files without program headers; an error when the program
/// headers cannot be read.
llvm::Expected<std::vector<LoadSegment>>
readLoadSegments(const llvm::object::ObjectFile &O,
                 unsigned *Dropped = nullptr);

/// Checks what a reader found in a file: sorted by file offset, file ranges
/// disjoint, sizes non-zero, no range or address that wraps around.
llvm::Error checkLoadSegments(llvm::ArrayRef<LoadSegment> Segments);

/// The address at which file offset Offset is loaded, or std::nullopt when
/// no segment holds it. Segments must pass checkLoadSegments.
std::optional<uint64_t>
addressOfFileOffset(llvm::ArrayRef<LoadSegment> Segments, uint64_t Offset);

} // namespace dwarfpack

#endif
