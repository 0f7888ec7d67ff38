//===- LocationLists.cpp - The expressions of a location value -----------===//
//
// A location value is a DWARF expression, or the offset (DWARF 5: also the
// index) of a list of expressions for ranges of addresses. The rules are
// LLVM 19's (DWARFDie::getLocations, DWARFUnit::findLoclistFromOffset and
// getLoclistOffset, DWARFDebugLoc, DWARFDebugLoclists and
// DWARFLocationInterpreter), so that the expressions LLVM finds are found
// here, in the same order, and a list LLVM rejects whole is rejected too.
// Only the expressions are kept: no consumer needs their ranges yet.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/Dwarf.h"

#include "Bytes.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {
namespace input {

namespace {

using Expressions = SmallVector<ArrayRef<uint8_t>, 4>;

Error listError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string hexOf(uint64_t V) { return "0x" + utohexstr(V, true); }

ArrayRef<uint8_t> asBytes(StringRef S) {
  return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(S.data()),
                           S.size());
}

/// Whether a DW_LLE entry of Kind carries an expression; false with
/// Known false for a kind DWARF 5 does not define.
bool hasExpression(uint8_t Kind, bool &Known) {
  using namespace dwarf;
  Known = true;
  switch (Kind) {
  case DW_LLE_base_addressx:
  case DW_LLE_base_address:
    return false;
  case DW_LLE_startx_endx:
  case DW_LLE_startx_length:
  case DW_LLE_offset_pair:
  case DW_LLE_default_location:
  case DW_LLE_start_end:
  case DW_LLE_start_length:
    return true;
  default:
    Known = false;
    return false;
  }
}

} // namespace

Expected<Expressions> Unit::locationExpressions(const FormValue &V) const {
  using namespace dwarf;
  const dwarf::Form F = V.getForm();
  // A split unit's lists are in its part of its file's section, from the
  // start of which its offsets count.
  StringRef Section =
      File->section(Header.Version >= 5 ? Sec::LocLists : Sec::Loc);
  if (File->isDwo())
    Section = Section.drop_front(
        std::min<uint64_t>(Header.Contrib.LocLists, Section.size()));
  if (F == DW_FORM_loclistx) {
    // An index into the offsets that follow the list table's header: at
    // DW_AT_loclists_base, or, in a split unit, after the header at the
    // start of its part.
    const uint64_t HeaderSize = Header.OffsetSize == 8 ? 20 : 12;
    std::optional<uint64_t> Base;
    if (File->isDwo())
      Base = HeaderSize;
    else
      Base = unitSectionOffset(DW_AT_loclists_base);
    if (!Base || Header.Version < 5 || *Base < HeaderSize ||
        *Base > Section.size())
      return listError("Loclist table not found");
    // The header's last field: how many offsets follow it.
    uint64_t Count = read(Section.data() + *Base - 4, 4);
    uint64_t Index = uint32_t(V.raw());
    uint8_t Size = Header.OffsetSize;
    if (Index >= Count || (Section.size() - *Base) / Size <= Index)
      return listError("Loclist table not found");
    uint64_t Off = read(Section.data() + *Base + Index * Size, Size) + *Base;
    return locationList(Section, Off);
  }
  // DWARF 2 and 3 gave list offsets as data4 or data8.
  if (F == DW_FORM_sec_offset ||
      ((F == DW_FORM_data4 || F == DW_FORM_data8) && Header.Version <= 3))
    return locationList(Section, V.raw());
  if (std::optional<ArrayRef<uint8_t>> Block = V.getAsBlock())
    return Expressions{*Block};
  return listError("Unsupported location encoding: " + FormEncodingString(F));
}

Expected<Expressions> Unit::locationList(StringRef Section,
                                         uint64_t Offset) const {
  using namespace dwarf;
  const uint8_t Size = Header.AddrSize;
  Cursor C(Section, Offset, Section.size(), isLittleEndian());
  std::optional<uint64_t> Base = BaseAddress;
  Expressions Out;
  auto Truncated = [&] {
    return listError("location list at offset " + hexOf(Offset) +
                     " runs past the end of its section");
  };
  auto NoBase = [] {
    return listError("Unable to resolve location list offset pair: Base "
                     "address not defined");
  };
  if (Header.Version <= 4 && !File->isDwo()) {
    // .debug_loc: pairs of addresses until (0, 0), a pair starting with the
    // largest address setting the base, else a 2-byte length and an
    // expression for the range the pair gives from the base.
    const uint64_t Max =
        Size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * Size)) - 1;
    while (true) {
      uint64_t Start = C.fixed(Size), End = C.fixed(Size);
      if (C.failed())
        return Truncated();
      if (Start == 0 && End == 0)
        return Out;
      if (Start == Max) {
        Base = End;
        continue;
      }
      StringRef Expr = C.bytes(C.fixed(2));
      if (C.failed())
        return Truncated();
      if (!Base)
        return NoBase();
      Out.push_back(asBytes(Expr));
    }
  }
  // DW_LLE entries until the end of the list. A DWARF 4 split unit's
  // (GCC's pre-standard encoding) have 4-byte lengths for startx_length
  // and 2-byte lengths for their expressions.
  const bool Gnu = Header.Version < 5;
  auto Unresolved = [](uint64_t Index, uint8_t Kind) {
    return listError("Unable to resolve indirect address " +
                     Twine(uint32_t(Index)) +
                     " for: " + LocListEncodingString(Kind));
  };
  while (true) {
    uint64_t EntryOff = C.offset();
    uint8_t Kind = C.fixed(1);
    if (C.failed())
      return Truncated();
    if (Kind == DW_LLE_end_of_list)
      return Out;
    bool Known;
    bool WithExpr = hasExpression(Kind, Known);
    if (!Known)
      return listError("LLE of kind " + hexOf(Kind) +
                       " not supported (at offset " + hexOf(EntryOff) + ")");
    uint64_t V0 = 0;
    switch (Kind) {
    case DW_LLE_base_addressx:
    case DW_LLE_startx_endx:
    case DW_LLE_startx_length:
    case DW_LLE_offset_pair:
      V0 = C.uleb();
      break;
    case DW_LLE_base_address:
    case DW_LLE_start_end:
    case DW_LLE_start_length:
      V0 = C.fixed(Size);
      break;
    }
    uint64_t V1 = 0;
    if (Kind == DW_LLE_startx_endx || Kind == DW_LLE_offset_pair ||
        (Kind == DW_LLE_startx_length && !Gnu) || Kind == DW_LLE_start_length)
      V1 = C.uleb();
    else if (Kind == DW_LLE_startx_length)
      V1 = C.fixed(4);
    else if (Kind == DW_LLE_start_end)
      V1 = C.fixed(Size);
    StringRef Expr;
    if (WithExpr)
      Expr = C.bytes(Gnu ? C.fixed(2) : C.uleb());
    if (C.failed())
      return Truncated();
    // What LLVM's interpreter refuses: an address it cannot resolve, an
    // offset pair without a base.
    switch (Kind) {
    case DW_LLE_base_addressx:
      Base = addrEntry(V0);
      if (!Base)
        return Unresolved(V0, Kind);
      continue;
    case DW_LLE_base_address:
      Base = V0;
      continue;
    case DW_LLE_startx_endx:
    case DW_LLE_startx_length:
      if (!addrEntry(V0))
        return Unresolved(V0, Kind);
      if (Kind == DW_LLE_startx_endx && !addrEntry(V1))
        return Unresolved(V1, Kind);
      break;
    case DW_LLE_offset_pair:
      if (!Base)
        return NoBase();
      break;
    }
    Out.push_back(asBytes(Expr));
  }
}

} // namespace input
} // namespace dwarfpack
