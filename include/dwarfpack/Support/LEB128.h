//===- LEB128.h - ULEB128 decoding bounded for untrusted bytes ------------===//
//
// LLVM's decodeULEB128 shifts a zero slice by 70 bits and more (undefined
// behaviour) when a run of continuation bytes is longer than a uint64_t
// needs; corrupt files hold such runs. Readers of untrusted bytes use this
// instead: it reads at most the 10 bytes of the longest uint64_t. The
// writers append their LEB128 values to strings through the helpers below.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_LEB128_H
#define DWARFPACK_SUPPORT_LEB128_H

#include "llvm/Support/LEB128.h"

#include <cstdint>
#include <string>

namespace dwarfpack {

/// Longest ULEB128 encoding of a uint64_t.
constexpr unsigned MaxULEB128Size = 10;

/// decodeULEB128 reading at most MaxULEB128Size bytes: a longer value is an
/// error, as one running past End is.
inline uint64_t decodeULEB128Bounded(const uint8_t *P, unsigned *N,
                                     const uint8_t *End, const char **Error) {
  if (End - P > MaxULEB128Size)
    End = P + MaxULEB128Size;
  return llvm::decodeULEB128(P, N, End, Error);
}

/// Appends V as ULEB128.
inline void appendULEB128(std::string &Out, uint64_t V) {
  uint8_t Bytes[MaxULEB128Size];
  Out.append(reinterpret_cast<const char *>(Bytes),
             llvm::encodeULEB128(V, Bytes));
}

/// Appends V as SLEB128.
inline void appendSLEB128(std::string &Out, int64_t V) {
  uint8_t Bytes[MaxULEB128Size];
  Out.append(reinterpret_cast<const char *>(Bytes),
             llvm::encodeSLEB128(V, Bytes));
}

} // namespace dwarfpack

#endif
