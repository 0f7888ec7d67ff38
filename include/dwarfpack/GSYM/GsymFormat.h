//===- GsymFormat.h - Constants of LLVM's GSYM V1 format ------------------===//
//
// Shared by the GSYM writer and reader. The layout is specified byte by byte
// in docs/GSYM.md.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_GSYM_GSYMFORMAT_H
#define DWARFPACK_GSYM_GSYMFORMAT_H

#include <cstdint>

namespace dwarfpack {
namespace gsym {

constexpr uint32_t Magic = 0x4753594d;        // "GSYM" read in file byte order
constexpr uint32_t SwappedMagic = 0x4d595347; // the other byte order
constexpr uint16_t Version = 1;
constexpr uint32_t HeaderSize = 48;
constexpr uint32_t MaxUUIDSize = 20;

enum InfoType : uint32_t {
  EndOfList = 0,
  LineTableInfo = 1,
  InlineInfo = 2,
};

enum LineTableOpcode : uint8_t {
  EndSequence = 0x00,
  SetFile = 0x01,
  AdvancePC = 0x02,
  AdvanceLine = 0x03,
  FirstSpecial = 0x04,
};

/// Widest line-delta window of special opcodes LLVM's encoder uses.
constexpr int64_t MaxLineRange = 14;

} // namespace gsym
} // namespace dwarfpack

#endif
