//===- UnitIndex.cpp - Package unit indexes LLVM can parse ----------------===//
//
// The layout (DWARF 5 section 7.3.5.3; version 2 is GCC's DebugFission
// form): a 16-byte header (version, columns, units, buckets), a signature
// per bucket, a row index per bucket (0: free, else 1 .. units), a section
// id per column, then an offset and a size per unit and column.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Support/UnitIndex.h"

#include "llvm/ADT/Twine.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFObject.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace dwarfpack {

Error checkUnitIndex(StringRef Bytes, bool IsLittleEndian, bool IsTypeIndex) {
  const char *Name = IsTypeIndex ? ".debug_tu_index" : ".debug_cu_index";
  auto Bad = [&](const Twine &What) {
    return createStringError(inconvertibleErrorCode(),
                             Twine(Name) + ": " + What);
  };
  auto U32 = [&](uint64_t At) {
    return IsLittleEndian ? support::endian::read32le(Bytes.data() + At)
                          : support::endian::read32be(Bytes.data() + At);
  };
  auto U16 = [&](uint64_t At) {
    return IsLittleEndian ? support::endian::read16le(Bytes.data() + At)
                          : support::endian::read16be(Bytes.data() + At);
  };
  if (Bytes.size() < 16)
    return Error::success(); // LLVM reads no header: no index
  // Version 2 is a 32-bit field; version 5 a 16-bit one and padding.
  unsigned Version = U32(0) == 2 ? 2 : U16(0) == 5 ? 5 : 0;
  if (!Version)
    return Error::success(); // LLVM ignores the index
  uint64_t Columns = U32(4), Units = U32(8), Buckets = U32(12);
  if (!Buckets && !Units)
    return Error::success();
  // Exact sizes (LLVM's sum is in 32 bits): each count is bounded by the
  // bytes it needs, so nothing below overflows.
  uint64_t Avail = Bytes.size() - 16;
  if (Columns == 0)
    return Bad("no columns for " + Twine(Units) + " units");
  if (Buckets > Avail / 12 || Columns > Avail / 4 ||
      Units > Avail / (8 * Columns) ||
      Buckets * 12 + (2 * Units + 1) * 4 * Columns > Avail)
    return Bad(Twine(Buckets) + " buckets, " + Twine(Units) + " units and " +
               Twine(Columns) + " columns do not fit in its " +
               Twine(Bytes.size()) + " bytes");
  // Searches probe with an odd step modulo the bucket count: they visit
  // every bucket, and end, only with a power of two and a free bucket.
  if (!isPowerOf2_64(Buckets))
    return Bad(Twine(Buckets) + " buckets, not a power of two");
  std::vector<uint8_t> Named(Units, 0);
  uint64_t Used = 0;
  const uint64_t Rows = 16 + Buckets * 8;
  for (uint64_t I = 0; I < Buckets; ++I) {
    uint32_t Row = U32(Rows + I * 4);
    if (!Row)
      continue;
    if (Row > Units)
      return Bad("bucket " + Twine(I) + " names unit " + Twine(Row) + " of " +
                 Twine(Units));
    if (Named[Row - 1]++)
      return Bad("unit " + Twine(Row) + " is named by two buckets");
    ++Used;
  }
  if (Used == Buckets)
    return Bad("no free bucket among " + Twine(Buckets));
  if (Used != Units)
    return Bad(
        "unit " +
        Twine(std::find(Named.begin(), Named.end(), 0) - Named.begin() + 1) +
        " of " + Twine(Units) + " is named by no bucket");
  // The column of the units themselves: DW_SECT_INFO, or in a version 2
  // type index DW_SECT_TYPES (2).
  uint32_t InfoId = Version == 2 && IsTypeIndex ? 2 : 1;
  unsigned InfoColumns = 0;
  for (uint64_t C = 0; C < Columns; ++C)
    InfoColumns += U32(Rows + Buckets * 4 + C * 4) == InfoId;
  if (InfoColumns != 1)
    return Bad(Twine(InfoColumns) + " columns of section id " + Twine(InfoId) +
               ", not one");
  return Error::success();
}

Error checkUnitIndexes(const DWARFContext &Ctx) {
  const DWARFObject &Obj = Ctx.getDWARFObj();
  if (Error E = checkUnitIndex(Obj.getCUIndexSection(), Ctx.isLittleEndian(),
                               /*IsTypeIndex=*/false))
    return E;
  return checkUnitIndex(Obj.getTUIndexSection(), Ctx.isLittleEndian(),
                        /*IsTypeIndex=*/true);
}

} // namespace dwarfpack
