//===- CompactLayout.h - Constants of the compact kernel symbol table -----===//
//
// Private to lib/Kallsyms; docs/Kallsyms.md is the specification.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H
#define DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H

#include "llvm/Support/Compiler.h"
#include "llvm/Support/Endian.h"

#include <cstdint>
#include <cstring>
#include <string>

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
  SecCombos,
  NumSections
};

constexpr uint32_t HeaderSize = 64 + NumSections * 8;
constexpr uint32_t FlagHasEnd = 1;
/// Symbols per address block (one index entry each).
constexpr unsigned AddrBlockShift = 5;
/// Names per front-coding block.
constexpr unsigned NameBlockShift = 4;
/// Distance between back pointers on a cycle of the permutation.
constexpr unsigned InvStride = 32;
/// Type codes of a name record.
constexpr unsigned TypeLocalText = 0, TypeGlobalText = 1, TypeExplicit = 2;

/// Name records are nibble streams: nibble K is the low half of byte K/2
/// when K is even, the high half otherwise.
/// Writes a nibble stream (see NibbleReader for the order).
class NibbleWriter {
public:
  void put(unsigned V) {
    if ((Pos & 1) == 0)
      Bytes.push_back(char(V & 15));
    else
      Bytes.back() = char(uint8_t(Bytes.back()) | ((V & 15) << 4));
    ++Pos;
  }
  /// N nibbles of V, most significant first.
  void putN(unsigned N, uint32_t V) {
    for (unsigned I = N; I-- > 0;)
      put((V >> (4 * I)) & 15);
  }
  void putVarint(uint64_t V) {
    do {
      unsigned X = V & 7;
      V >>= 3;
      put(X | (V ? 8 : 0));
    } while (V);
  }
  /// The nibble at position P (< Pos).
  unsigned get(uint64_t P) const {
    return (uint8_t(Bytes[P >> 1]) >> ((P & 1) * 4)) & 15;
  }
  uint64_t Pos = 0;
  std::string Bytes;
};

class NibbleReader {
public:
  NibbleReader(const uint8_t *Data, uint64_t Size, uint64_t Pos)
      : Data(Data), Size(Size), Limit(Size * 2), Pos(Pos) {}
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool get(unsigned &V) {
    if (LLVM_UNLIKELY(Avail == 0) && !refill())
      return false;
    V = unsigned(Buf & 15);
    Buf >>= 4;
    --Avail;
    ++Pos;
    return true;
  }
  /// Appends N nibbles to V, most significant first.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool getN(unsigned N, uint32_t &V) {
    for (unsigned I = 0; I < N; ++I) {
      unsigned X;
      if (!get(X))
        return false;
      V = (V << 4) | X;
    }
    return true;
  }
  /// 3 value bits per nibble, least significant group first; bit 3 = more.
  bool getVarint(uint64_t &V) {
    V = 0;
    for (unsigned Shift = 0; Shift < 36; Shift += 3) {
      unsigned X;
      if (!get(X))
        return false;
      V |= uint64_t(X & 7) << Shift;
      if (!(X & 8))
        return true;
    }
    return false;
  }
  uint64_t position() const { return Pos; }
  uint64_t remaining() const { return Pos < Limit ? Limit - Pos : 0; }

private:
  /// Loads the next (up to) 16 nibbles into Buf.
  bool refill() {
    if (Pos >= Limit)
      return false;
    uint64_t Byte = Pos >> 1;
    if (Byte + 8 <= Size) {
      std::memcpy(&Buf, Data + Byte, 8);
      Buf =
          llvm::support::endian::byte_swap<uint64_t, llvm::endianness::little>(
              Buf);
      Avail = 16;
    } else {
      Buf = 0;
      for (uint64_t I = 0; Byte + I < Size; ++I)
        Buf |= uint64_t(Data[Byte + I]) << (8 * I);
      Avail = unsigned((Size - Byte) * 2);
    }
    if (Pos & 1) {
      Buf >>= 4;
      --Avail;
    }
    return true;
  }

  const uint8_t *Data;
  uint64_t Size;
  uint64_t Limit;
  uint64_t Pos;
  uint64_t Buf = 0;
  unsigned Avail = 0;
};

/// The nibble code of token ids. First nibble N: N < A is the id; then B
/// prefixes of two nibbles, C of three, the rest below 15 of four; 15 is
/// followed by six nibbles. Values after the first nibble are big-endian.
struct NibbleIdCode {
  uint8_t A = 8, B = 4, C = 2;

  uint32_t base2() const { return A; }
  uint32_t base3() const { return A + B * 16u; }
  uint32_t base4() const { return base3() + C * 256u; }
  uint32_t base7() const { return base4() + (15u - A - B - C) * 4096u; }
  bool valid() const { return A >= 1 && A + B + C <= 15; }
  unsigned size(uint32_t Id) const {
    return Id < base2()   ? 1
           : Id < base3() ? 2
           : Id < base4() ? 3
           : Id < base7() ? 4
                          : 7;
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool decode(NibbleReader &R,
                                           uint32_t &Id) const {
    unsigned N;
    if (!R.get(N))
      return false;
    uint32_t V = 0;
    if (N < A) {
      Id = N;
      return true;
    }
    if (N < unsigned(A + B)) {
      if (!R.getN(1, V))
        return false;
      Id = base2() + ((N - A) << 4 | V);
      return true;
    }
    if (N < unsigned(A + B + C)) {
      if (!R.getN(2, V))
        return false;
      Id = base3() + ((N - A - B) << 8 | V);
      return true;
    }
    if (N < 15) {
      if (!R.getN(3, V))
        return false;
      Id = base4() + ((N - A - B - C) << 12 | V);
      return true;
    }
    if (!R.getN(6, V))
      return false;
    Id = base7() + V;
    return true;
  }
};

/// One entry of the record header table: shared and new token counts and
/// the type code (local or global text).
struct Combo {
  uint8_t Shared, New, Type;
};

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
