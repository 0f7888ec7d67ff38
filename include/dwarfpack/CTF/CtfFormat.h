//===- CtfFormat.h - CTF version 3 on-disk constants ------------*- C++ -*-===//
//
// The subset of the CTF v3 format (binutils include/ctf.h; docs/CTF.md) that
// dwarfpack writes and reads. Dicts are stored in the producer's byte order;
// we write and read little-endian only.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTF_CTFFORMAT_H
#define DWARFPACK_CTF_CTFFORMAT_H

#include <cstdint>

namespace dwarfpack {
namespace ctf {

constexpr uint16_t Magic = 0xdff2;
constexpr uint8_t Version3 = 4; ///< CTF_VERSION_3
constexpr uint32_t HeaderSize = 52;

enum HeaderFlags : uint8_t {
  FlagCompress = 0x1,
  FlagNewFuncInfo = 0x2,
  FlagIdxSorted = 0x4,
  FlagDynStr = 0x8,
};
constexpr uint8_t KnownFlags = 0x1f; // 0x10 is CTF_F_ARRNELEMS

/// Byte offsets of the header fields after the 4-byte preamble.
enum HeaderField : unsigned {
  ParLabel,
  ParName,
  CuName,
  LblOff,
  ObjtOff,
  FuncOff,
  ObjtIdxOff,
  FuncIdxOff,
  VarOff,
  TypeOff,
  StrOff,
  StrLen,
  NumHeaderFields
};

enum Kind : uint8_t {
  KUnknown = 0,
  KInteger = 1,
  KFloat = 2,
  KPointer = 3,
  KArray = 4,
  KFunction = 5,
  KStruct = 6,
  KUnion = 7,
  KEnum = 8,
  KForward = 9,
  KTypedef = 10,
  KVolatile = 11,
  KConst = 12,
  KRestrict = 13,
  KSlice = 14,
  KMax = 14,
};

constexpr uint32_t MaxVlen = 0xffffff;
constexpr uint32_t MaxSize = 0xfffffffe;
constexpr uint32_t LSizeSentinel = 0xffffffff;
/// Structs at least this large use 64-bit member offsets (ctf_lmember_t).
constexpr uint64_t LStructThreshold = 536870912;
/// GNU ld compresses dicts from this size up.
constexpr uint64_t CompressionThreshold = 4096;

inline uint32_t typeInfo(unsigned K, bool Root, uint32_t Vlen) {
  return (uint32_t(K) << 26) | (uint32_t(Root) << 25) | (Vlen & MaxVlen);
}
inline unsigned infoKind(uint32_t Info) { return Info >> 26; }
inline bool infoRoot(uint32_t Info) { return (Info >> 25) & 1; }
inline uint32_t infoVlen(uint32_t Info) { return Info & MaxVlen; }

/// CTF archive (what ld writes when one dict cannot hold all types).
constexpr uint64_t ArchiveMagic = 0x8b47f2a4d7623eeb;

} // namespace ctf
} // namespace dwarfpack

#endif
