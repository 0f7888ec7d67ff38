//===- LoadSegments.h - Where an ELF file's bytes are loaded ---*- C++ -*-===//
//
// Profilers that record a sample as (build-id, file offset), as BPF's
// build-id stacks and perf do, need the map from file offsets to addresses
// that an ELF file's PT_LOAD program headers give. Address tables record it
// so that such samples resolve without the binary.
//
// A separate debug file (objcopy --only-keep-debug, the files of
// distributions' debug packages) keeps the program headers' addresses and
// sizes but not the file offsets: objcopy makes every loaded section
// NOBITS and writes segments without file bytes at offsets of its own.
// The offsets the linker gave are put back from the addresses, as linkers
// lay a file out (see readLoadSegments).
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

/// What readLoadSegments did beyond copying program headers.
struct LoadSegmentNotes {
  /// Segments left out because their file bytes overlap an earlier one's.
  unsigned Dropped = 0;
  /// The file is a separate debug file whose program headers objcopy
  /// rewrote (hasRewrittenLoadSegments): the offsets were reconstructed.
  bool Reconstructed = false;
};

/// The PT_LOAD segments of O that have file bytes, sorted by file offset.
/// A segment whose file bytes overlap an earlier one's is left out (counted
/// in Notes->Dropped): a file offset must name one address. Empty for
/// relocatable objects and files without program headers; an error when the
/// program headers cannot be read.
///
/// In a debug file whose program headers objcopy rewrote, the segments are
/// those of the binary it was split from, reconstructed as linkers (GNU ld,
/// gold, lld) lay a file out: in program-header order, each segment at the
/// first offset past the previous one's file bytes (past the ELF and
/// program headers for the first segment, unless it holds them: then at 0)
/// that is congruent to its address modulo its alignment. A segment's file
/// bytes end with its last section that is not zero-fill by name (.bss,
/// .tbss, .sbss, .lbss and their .name suffixes, .dynbss, .relro_padding,
/// __libc_freeres_ptrs): a debug file's sections are all NOBITS, their
/// names and addresses kept.
llvm::Expected<std::vector<LoadSegment>>
readLoadSegments(const llvm::object::ObjectFile &O,
                 LoadSegmentNotes *Notes = nullptr);

/// Whether O is a separate debug file whose program headers objcopy
/// rewrote: an executable section (SHF_ALLOC and SHF_EXECINSTR) lies in a
/// PT_LOAD segment's memory but past its file bytes. No loader could run
/// such a file (code is mapped from the file), and `objcopy
/// --only-keep-debug` (GNU and LLVM) writes exactly that; `eu-strip -f`
/// keeps the original headers, which are then used as they are.
bool hasRewrittenLoadSegments(const llvm::object::ObjectFile &O);

/// Checks what a reader found in a file: sorted by file offset, file ranges
/// disjoint, sizes non-zero, no range or address that wraps around.
llvm::Error checkLoadSegments(llvm::ArrayRef<LoadSegment> Segments);

/// The address at which file offset Offset is loaded, or std::nullopt when
/// no segment holds it. Segments must pass checkLoadSegments.
std::optional<uint64_t>
addressOfFileOffset(llvm::ArrayRef<LoadSegment> Segments, uint64_t Offset);

} // namespace dwarfpack

#endif
