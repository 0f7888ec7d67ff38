//===- Compression.h - zlib streams written in parallel -------------------===//
//
// One zlib stream (RFC 1950) made of independently compressed chunks, as
// pigz makes them: each chunk is deflated on its own, primed with the 32 KiB
// that precede it, and ends on a byte boundary (sync flush), so the pieces
// concatenate into one stream any inflater reads. Chunk boundaries depend
// only on the input size, so the bytes do not depend on the thread count.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_COMPRESSION_H
#define DWARFPACK_SUPPORT_COMPRESSION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace dwarfpack {

/// Bytes of input per independently compressed chunk.
constexpr size_t ZlibChunkSize = 256 * 1024;

/// Compresses Data at zlib level Level (1..9) into Out (replacing its
/// contents), on up to Threads threads (0: all cores).
llvm::Error compressZlib(llvm::ArrayRef<uint8_t> Data, unsigned Threads,
                         llvm::SmallVectorImpl<uint8_t> &Out, int Level = 9);

} // namespace dwarfpack

#endif
