//===- CompactLayout.h - Constants of the compact kernel symbol table -----===//
//
// Private to lib/Kallsyms; docs/Kallsyms.md is the specification.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H
#define DWARFPACK_LIB_KALLSYMS_COMPACTLAYOUT_H

#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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
  SecGuide,
  SecNameKeys,
  NumSections
};

constexpr uint32_t HeaderSize = 64 + NumSections * 8;
constexpr uint32_t FlagHasEnd = 1;
/// Symbols per address block (one index entry each).
constexpr unsigned AddrBlockShift = 5;
/// Bytes of an address block's entry (section 1): u32 first address, u32
/// offset of its low parts, u64 word.
constexpr unsigned AddrEntryBytes = 16;
/// Bits of an address block's word that hold the high parts in unary; its
/// top byte holds the block's shift and low-part width.
constexpr unsigned UnaryBits = 56;
/// Names per front-coding block.
constexpr unsigned NameBlockShift = 5;
constexpr unsigned NameBlockRecords = 1u << NameBlockShift;
/// Bytes of a name block's header nibbles (one per record).
constexpr unsigned NameHeaderBytes = NameBlockRecords / 2;
/// Name blocks per name key (the sampled first bytes that narrow a name
/// search before it decodes any block).
constexpr unsigned NameKeyShift = 2;
/// Zero bytes after the last name block: every read of a block may load
/// 8 bytes.
constexpr unsigned NameDataSlack = 8;
/// A gap between two symbols at least this large starts a new segment of
/// the address guide (kernel text and module space are far apart).
constexpr uint64_t GuideSegmentGap = uint64_t(1) << 24;
/// Distance between back pointers on a cycle of the permutation: 16, or 4
/// in tables of more than LargeTable symbols, whose name lookups take
/// longer per step of the inverse and which have bytes to spare within the
/// size goal (readers take 1 .. MaxInvStride).
constexpr unsigned InvStride = 16, LargeInvStride = 4, MaxInvStride = 64;
constexpr uint32_t LargeTable = 1u << 16;

/// Writes a nibble stream: nibble K is the low half of byte K/2 when K is
/// even, the high half otherwise.
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

/// The nibble code of token ids. First nibble N: N < A is the id; then B
/// first nibbles take one tail nibble, C two, the rest below 15 three; 15
/// takes six (docs/Kallsyms.md says where the tails are).
struct NibbleIdCode {
  uint8_t A = 8, B = 4, C = 2;

  uint32_t base2() const { return A; }
  uint32_t base3() const { return A + B * 16u; }
  uint32_t base4() const { return base3() + C * 256u; }
  uint32_t base7() const { return base4() + (15u - A - B - C) * 4096u; }
  bool valid() const { return A >= 1 && A + B + C <= 15; }
  /// The first nibble of Id's code.
  unsigned firstNibble(uint32_t Id) const {
    return Id < base2()   ? Id
           : Id < base3() ? A + (Id - base2()) / 16
           : Id < base4() ? A + B + (Id - base3()) / 256
           : Id < base7() ? A + B + C + (Id - base4()) / 4096
                          : 15;
  }
  /// The smallest id whose code starts with nibble F: an id is this plus
  /// the value of its tail nibbles.
  uint32_t firstBase(unsigned F) const {
    const unsigned AB = A + B, ABC = AB + C;
    return F < A     ? F
           : F < AB  ? base2() + ((F - A) << 4)
           : F < ABC ? base3() + ((F - AB) << 8)
           : F < 15  ? base4() + ((F - ABC) << 12)
                     : base7();
  }
  unsigned size(uint32_t Id) const {
    return Id < base2()   ? 1
           : Id < base3() ? 2
           : Id < base4() ? 3
           : Id < base7() ? 4
                          : 7;
  }
};

/// Tail nibbles of a token id after its first nibble F (0, 1, 2, 3 or 6).
inline unsigned idTailLength(const NibbleIdCode &C, unsigned F) {
  return F < C.A                         ? 0
         : F < unsigned(C.A + C.B)       ? 1
         : F < unsigned(C.A + C.B + C.C) ? 2
         : F < 15                        ? 3
                                         : 6;
}

/// Record codes 0 .. RecordCodes-1 name entries of the table's code list;
/// RecordEscape spells the counts out after the type planes.
constexpr unsigned RecordCodes = 15, RecordEscape = 15;
/// At most this many type planes (256 type letters).
constexpr unsigned MaxTypeBits = 8;

/// The name key of a name: its first 8 bytes, zero-padded, big-endian, so
/// that keys compare as the names' prefixes do.
inline uint64_t nameKey(const char *Data, size_t Size) {
  uint64_t K = 0;
  for (size_t I = 0; I < 8; ++I)
    K = (K << 8) | (I < Size ? uint8_t(Data[I]) : 0);
  return K;
}

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

/// The name part of a compact table (docs/Kallsyms.md sections 0, 6, 7
/// and 10): token ids sorted inside their tiers, the record codes and type
/// letters, the name blocks. Shared by the writer and by the model that
/// dwarfpack-token-candidates measures other token schemes with.
struct EncodedNames {
  token::TokenEncoder Tokens; // section 0 is Tokens.frontCoded()
  NibbleIdCode IdCode;
  std::string CodeTable;             // section 10
  std::vector<uint64_t> NameOffsets; // each block's byte offset, then the end
  std::string NameData;              // section 7, with its slack
  unsigned TypeBits = 0;
  uint32_t NumTypes = 0;
};

/// Encodes names given in name order as provisional ids of Builder: slot
/// S has the tokens SlotTok[SlotStart[S] .. SlotStart[S + 1]) and the type
/// letter SlotType[S]. Fails as TokenTableBuilder::finish does, or when
/// the names exceed 4 GiB.
llvm::Expected<EncodedNames>
encodeNames(const token::TokenTableBuilder &Builder,
            llvm::ArrayRef<uint32_t> SlotTok,
            llvm::ArrayRef<uint32_t> SlotStart, llvm::ArrayRef<char> SlotType);

} // namespace compact
} // namespace kallsyms
} // namespace dwarfpack

#endif
