//===- CompactLayout.h - Constants of the compact kernel symbol table -----===//
//
// Private to lib/Kallsyms; docs/Kallsyms.md is the specification.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H
#define DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H

#include "llvm/Support/Endian.h"

#include <cstdint>
#include <cstring>

namespace dwarfpack {
namespace kallsyms {
namespace compact {

enum Section : unsigned {
  SecTokens,
  SecAddrIndex,
  SecAddrData,
  SecPerm,
  SecInvMarks,
  SecInvBack,
  SecNameIndex,
  SecNameData,
  SecModules,
  SecModuleRuns,
  NumSections
};

constexpr uint32_t HeaderSize = 64 + NumSections * 8;
constexpr uint32_t FlagHasEnd = 1;
/// Symbols per address block (one index entry each).
constexpr unsigned AddrBlockShift = 5;
/// Names per front-coding block.
constexpr unsigned NameBlockShift = 4;
/// Distance between back pointers on a cycle of the permutation.
constexpr unsigned InvStride = 16;
/// Type codes in the top bits of a name record header.
constexpr unsigned TypeLocalText = 0, TypeGlobalText = 1, TypeExplicit = 2;

/// Reads Width (<= 57) bits at bit offset Bit of a little-endian bit stream.
/// The caller has checked Bit + Width <= 8 * Size.
inline uint64_t readBits(const uint8_t *Data, uint64_t Size, uint64_t Bit,
                         unsigned Width) {
  if (Width == 0)
    return 0;
  uint64_t Byte = Bit >> 3;
  uint64_t V = 0;
  if (Byte + 8 <= Size) {
    std::memcpy(&V, Data + Byte, 8);
    V = llvm::support::endian::byte_swap<uint64_t, llvm::endianness::little>(V);
  } else {
    for (unsigned I = 0; Byte + I < Size; ++I)
      V |= uint64_t(Data[Byte + I]) << (8 * I);
  }
  return (V >> (Bit & 7)) & ((uint64_t(1) << Width) - 1);
}

} // namespace compact
} // namespace kallsyms
} // namespace dwarfpack

#endif
