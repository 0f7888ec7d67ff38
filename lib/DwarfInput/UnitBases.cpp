//===- UnitBases.cpp - What a unit's values lead to -----------------------===//
//
// The parts of a unit's values that lie outside .debug_info: its address
// table, string offsets table and range lists (for a split unit, through its
// skeleton), and the DIEs references lead to. The rules are LLVM 19's
// (DWARFUnit::extractDIEsIfNeeded, getAddrOffsetSectionItem,
// getStringOffsetSectionItem, findRnglistFromOffset/Index,
// DWARFDebugRangeList and DWARFDebugRnglist), so both give the same
// answers; every offset is checked before it is read.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/Dwarf.h"

#include "Bytes.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {
namespace input {

namespace {
Error rangeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string hexOf(uint64_t V) { return "0x" + utohexstr(V, true); }
} // namespace

std::optional<uint64_t> Unit::dwoId() const {
  if (Header.HasDwoId)
    return Header.DwoId;
  if (Die CU = getUnitDIE())
    if (std::optional<FormValue> V = CU.find(dwarf::DW_AT_GNU_dwo_id))
      return V->getAsUnsignedConstant();
  return std::nullopt;
}

bool Unit::isSkeleton() const {
  if (Header.UnitType == dwarf::DW_UT_skeleton)
    return true;
  Die CU = getUnitDIE();
  return Header.Version < 5 && !File->isDwo() && CU &&
         CU.find(dwarf::DW_AT_GNU_dwo_name).has_value();
}

std::optional<uint64_t> Unit::unitSectionOffset(dwarf::Attribute A) const {
  if (std::optional<FormValue> V = getUnitDIE().find(A))
    return V->getAsSectionOffset();
  return std::nullopt;
}

void Unit::setUpBases(const Unit *Skel) {
  using namespace dwarf;
  setUpAddressTable(Skel);
  // The base address: the unit DIE's (a split unit's skeleton's); an
  // addrx form reads the address table just set up.
  const Unit &BaseUnit = Skel ? *Skel : *this;
  if (Die D = BaseUnit.getUnitDIE())
    if (std::optional<FormValue> PC = D.find({DW_AT_low_pc, DW_AT_entry_pc})) {
      BaseAddress = PC->getAsAddress();
      BaseAddressPlacement = PC->placement();
    }
  setUpStrOffsets();
  setUpRanges(Skel);
}

void Unit::setUpAddressTable(const Unit *Skel) {
  if (!File->isDwo()) {
    AddrFile = File;
    AddrSection = File->section(Sec::Addr);
    AddrBase = unitSectionOffset(dwarf::DW_AT_addr_base);
    if (!AddrBase)
      AddrBase = unitSectionOffset(dwarf::DW_AT_GNU_addr_base);
  } else if (Skel) {
    AddrFile = Skel->AddrFile;
    AddrSection = Skel->AddrSection;
    AddrBase = Skel->AddrBase;
  }
}

/// String offsets: DW_AT_str_offsets_base in DWARF 5; a split unit's
/// contribution starts at its package offset (DWARF 4) or after the
/// contribution's header there (DWARF 5).
void Unit::setUpStrOffsets() {
  StringRef SO = File->section(Sec::StrOffsets);
  if (File->isDwo()) {
    uint64_t Start = Header.Contrib.StrOffsets;
    if (Header.Version < 5) {
      StrOffsetsBase = Start;
      StrOffsetSize = 4;
    } else if (Start < SO.size() && SO.size() - Start >= 8) {
      uint64_t Len = readFixed(SO.data() + Start, 4, isLittleEndian());
      if (Len == 0xffffffff && SO.size() - Start >= 16) {
        StrOffsetsBase = Start + 16;
        StrOffsetSize = 8;
      } else if (Len < 0xfffffff0) {
        StrOffsetsBase = Start + 8;
        StrOffsetSize = 4;
      }
    }
  } else if (Header.Version >= 5) {
    if (std::optional<uint64_t> B =
            unitSectionOffset(dwarf::DW_AT_str_offsets_base))
      setUpStrOffsetsBase(*B);
  }
}

void Unit::setUpStrOffsetsBase(uint64_t B) {
  // The table's header sits just before the base: accepted when it is a
  // version 5 header that fits, as LLVM accepts it.
  StringRef SO = File->section(Sec::StrOffsets);
  bool LE = isLittleEndian();
  if (B >= 8 && B <= SO.size()) {
    uint64_t Len = readFixed(SO.data() + B - 8, 4, LE);
    uint64_t Version = readFixed(SO.data() + B - 4, 2, LE);
    if (Len >= 4 && Len < 0xfffffff0 && Version == 5 &&
        alignTo(Len - 4, 4) <= SO.size() - B) {
      StrOffsetsBase = B;
      StrOffsetSize = 4;
    }
  }
  if (!StrOffsetsBase && B >= 16 && B <= SO.size()) {
    uint64_t Esc = readFixed(SO.data() + B - 16, 4, LE);
    uint64_t Len = readFixed(SO.data() + B - 12, 8, LE);
    uint64_t Version = readFixed(SO.data() + B - 4, 2, LE);
    if (Esc == 0xffffffff && Len >= 4 && Version == 5 &&
        Len - 4 <= SO.size() - B) {
      StrOffsetsBase = B;
      StrOffsetSize = 8;
    }
  }
}

void Unit::setUpRanges(const Unit *Skel) {
  using namespace dwarf;
  const uint64_t ListHeaderSize = Header.OffsetSize == 8 ? 20 : 12;
  if (Header.Version >= 5) {
    RangesFile = File;
    RangesSection = File->section(Sec::RngLists);
    if (File->isDwo())
      RngListsBase = Header.Contrib.RngLists + ListHeaderSize;
    else
      RngListsBase =
          unitSectionOffset(DW_AT_rnglists_base).value_or(ListHeaderSize);
  } else if (File->isDwo() && Skel) {
    // DWARF 4 split units use the skeleton's .debug_ranges, from its
    // DW_AT_GNU_ranges_base.
    RangesFile = Skel->File;
    RangesSection = Skel->File->section(Sec::Ranges);
    Die SkelCU = Skel->getUnitDIE();
    if (std::optional<FormValue> V =
            SkelCU.find({DW_AT_rnglists_base, DW_AT_GNU_ranges_base}))
      RangesBase = V->getAsSectionOffset().value_or(0);
  } else {
    RangesFile = File;
    RangesSection = File->section(Sec::Ranges);
  }
}

std::optional<uint64_t> Unit::addrEntry(uint64_t Index) const {
  // LLVM reads the index as 32 bits.
  Index = uint32_t(Index);
  if (!AddrBase)
    return std::nullopt;
  uint8_t Size = Header.AddrSize;
  if (*AddrBase > AddrSection.size() ||
      Index > (AddrSection.size() - *AddrBase) / Size)
    return std::nullopt;
  uint64_t Off = *AddrBase + Index * Size;
  if (AddrSection.size() - Off < Size)
    return std::nullopt;
  return read(AddrSection.data() + Off, Size);
}

Expected<uint64_t> Unit::strOffset(uint64_t Index) const {
  // LLVM reads the index as 32 bits.
  Index = uint32_t(Index);
  if (!StrOffsetsBase)
    return createStringError(inconvertibleErrorCode(),
                             "DW_FORM_strx used without a valid string "
                             "offsets table");
  StringRef SO = File->section(Sec::StrOffsets);
  uint64_t Off = *StrOffsetsBase + Index * StrOffsetSize;
  if (Off < *StrOffsetsBase || Off > SO.size() ||
      SO.size() - Off < StrOffsetSize)
    return createStringError(inconvertibleErrorCode(),
                             "string offsets table entry " + Twine(Index) +
                                 " at " + hexOf(Off) + " is past the end of " +
                                 sectionName(Sec::StrOffsets, File->isDwo()));
  return read(SO.data() + Off, StrOffsetSize);
}

void Unit::strOffsetsTable(StringRef &Section, uint64_t &Base,
                           uint8_t &Size) const {
  Section = File->section(Sec::StrOffsets);
  Base = StrOffsetsBase.value_or(0);
  Size = StrOffsetsBase ? StrOffsetSize : 0;
}

Die Unit::refTarget(const FormValue &V) const {
  using namespace dwarf;
  Die Target;
  switch (V.getForm()) {
  case DW_FORM_ref1:
  case DW_FORM_ref2:
  case DW_FORM_ref4:
  case DW_FORM_ref8:
  case DW_FORM_ref_udata:
    if (V.raw() < Bytes.size() || V.raw() < Header.Size)
      Target = getDIEForOffset(Header.Offset + V.raw());
    break;
  case DW_FORM_ref_addr: {
    if (!Header.InTypesSection && containsOffset(V.raw())) {
      Target = getDIEForOffset(V.raw());
      break;
    }
    if (const UnitHeader *H = File->infoUnitAt(V.raw()))
      if (const Unit *Other = File->sharedUnit(*H))
        Target = Other->getDIEForOffset(V.raw());
    break;
  }
  case DW_FORM_ref_sig8:
    if (const UnitHeader *H = File->typeUnit(V.raw()))
      if (const Unit *TU = File->sharedUnit(*H))
        Target = TU->getDIEForOffset(H->Offset + H->TypeOffset);
    break;
  case DW_FORM_GNU_ref_alt:
  case DW_FORM_ref_sup4:
  case DW_FORM_ref_sup8:
    if (const DwarfFile *Sup = File->Sup)
      if (const UnitHeader *H = Sup->infoUnitAt(V.raw()))
        if (const Unit *Other = Sup->sharedUnit(*H))
          Target = Other->getDIEForOffset(V.raw());
    break;
  default:
    break;
  }
  // A reference may land on a null entry (the end of a list of children),
  // which is no DIE.
  if (Target && Target.getDwarfUnit()->Dies[Target.index()].Abbrev == 0)
    return Die();
  return Target;
}

//===----------------------------------------------------------------------===//
// Address ranges
//===----------------------------------------------------------------------===//

Expected<SmallVector<DieRange, 2>> Unit::ranges(const Die &D) const {
  return rangesFrom(D.find(dwarf::DW_AT_low_pc), D.find(dwarf::DW_AT_high_pc),
                    D.find(dwarf::DW_AT_ranges));
}

Expected<SmallVector<DieRange, 2>>
Unit::rangesFrom(std::optional<FormValue> LowPC,
                 std::optional<FormValue> HighPC,
                 std::optional<FormValue> Ranges) const {
  if (LowPC && HighPC) {
    std::optional<uint64_t> Low = LowPC->getAsAddress();
    uint64_t Tomb = dwarf::computeTombstoneAddress(Header.AddrSize);
    if (Low && *Low != Tomb) {
      std::optional<uint64_t> High = HighPC->getAsAddress();
      if (!High)
        if (std::optional<uint64_t> Off = HighPC->getAsUnsignedConstant())
          High = *Low + *Off;
      if (High)
        return SmallVector<DieRange, 2>{{*Low, *High, LowPC->placement()}};
    }
  }
  if (!Ranges)
    return SmallVector<DieRange, 2>();
  std::optional<uint64_t> Off;
  if (Ranges->getForm() == dwarf::DW_FORM_rnglistx) {
    // An offset from the unit's offsets table.
    uint32_t Index = uint32_t(Ranges->raw());
    uint8_t Size = Header.OffsetSize;
    if (RngListsBase && *RngListsBase <= RangesSection.size() &&
        (RangesSection.size() - *RngListsBase) / Size > Index) {
      uint64_t At = *RngListsBase + uint64_t(Index) * Size;
      Off = read(RangesSection.data() + At, Size) + *RngListsBase;
    }
    if (!Off)
      return rangeError("invalid range list table index " + Twine(Index) +
                        " (possibly missing the entire range list table)");
    return rngList(*Off);
  }
  Off = Ranges->getAsSectionOffset();
  if (!Off)
    return rangeError("DW_AT_ranges of an unexpected form");
  if (Header.Version <= 4)
    return rangeList(*Off);
  return rngList(*Off);
}

Placement Unit::addrEntryPlacement(uint64_t Index) const {
  if (!AddrFile || !AddrFile->isRelocatable())
    return Placement::Linked;
  const RelocatedOffsets *R = AddrFile->relocated(Sec::Addr);
  if (!R || !AddrBase)
    return Placement::None;
  return R->placementAt(*AddrBase +
                        uint64_t(uint32_t(Index)) * Header.AddrSize);
}

namespace {
/// Where the values of a list section point (relocatable objects).
class ListPlacement {
public:
  ListPlacement(const DwarfFile *F, Sec S)
      : Relocatable(F && F->isRelocatable()), R(F ? F->relocated(S) : nullptr) {
  }
  Placement at(uint64_t Offset) const {
    if (!Relocatable)
      return Placement::Linked;
    return R ? R->placementAt(Offset) : Placement::None;
  }

private:
  bool Relocatable;
  const RelocatedOffsets *R;
};

/// The placement of base + offset: the base's, unless only the offset
/// was relocated.
Placement combine(Placement Base, Placement Own) {
  return Own == Placement::None ? Base : Own;
}
} // namespace

Expected<SmallVector<DieRange, 2>> Unit::rangeList(uint64_t Offset) const {
  // DWARF 2-4: pairs of addresses in .debug_ranges until (0, 0); a pair
  // starting with the largest address sets the base of those after it.
  StringRef S = RangesSection;
  uint64_t Off = RangesBase + Offset;
  if (Off < Offset || Off >= S.size())
    return rangeError("invalid range list offset " + hexOf(Off));
  uint8_t Size = Header.AddrSize;
  uint64_t Max = Size == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * Size)) - 1;
  uint64_t Tomb = Max - 1;
  std::optional<uint64_t> Base = BaseAddress;
  ListPlacement Where(RangesFile, Sec::Ranges);
  Placement BasePlacement = BaseAddressPlacement;
  SmallVector<DieRange, 2> Out;
  while (true) {
    if (S.size() - Off < 2u * Size)
      return rangeError("invalid range list entry at offset " + hexOf(Off));
    uint64_t Start = read(S.data() + Off, Size);
    uint64_t End = read(S.data() + Off + Size, Size);
    // LLVM takes an entry's section from its end address's relocation.
    Placement P = Where.at(Off + Size);
    Off += 2u * Size;
    if (Start == 0 && End == 0)
      break;
    if (Start == Max) {
      Base = End;
      BasePlacement = P;
      continue;
    }
    if (Start == Tomb)
      continue;
    if (Base) {
      if (*Base == Tomb)
        continue;
      Start += *Base;
      End += *Base;
      P = combine(BasePlacement, P);
    }
    Out.push_back({Start, End, P});
  }
  return Out;
}

namespace {

/// A DWARF 5 range list entry as read.
struct RleEntry {
  uint8_t Kind = 0;
  uint64_t V0 = 0, V1 = 0;
  Placement P = Placement::None; ///< Of its fixed-size address operand.
};

/// Reads the operands of an entry of kind E.Kind at C; false for a kind
/// DWARF 5 does not define.
bool readRleOperands(Cursor &C, uint8_t Size, const ListPlacement &Where,
                     RleEntry &E) {
  using namespace dwarf;
  switch (E.Kind) {
  case DW_RLE_base_addressx:
    E.V0 = C.uleb();
    return true;
  case DW_RLE_startx_endx:
  case DW_RLE_startx_length:
  case DW_RLE_offset_pair:
    E.V0 = C.uleb();
    E.V1 = C.uleb();
    return true;
  case DW_RLE_base_address:
    E.P = Where.at(C.offset());
    E.V0 = C.fixed(Size);
    return true;
  case DW_RLE_start_end:
    E.P = Where.at(C.offset());
    E.V0 = C.fixed(Size);
    E.V1 = C.fixed(Size);
    return true;
  case DW_RLE_start_length:
    E.P = Where.at(C.offset());
    E.V0 = C.fixed(Size);
    E.V1 = C.uleb();
    return true;
  default:
    return false;
  }
}

/// The state of a range list being read: its base address.
class RleState {
public:
  RleState(const Unit &U, std::optional<uint64_t> Base, Placement BaseP,
           const ListPlacement &Where, uint64_t Tomb)
      : U(U), Where(Where), Tomb(Tomb), Base(Base), BasePlacement(BaseP) {}

  /// The range entry E gives, if any (a base entry sets the base).
  std::optional<DieRange> apply(const RleEntry &E);

private:
  /// An address from the unit's address table; {0, None} when there is
  /// no such entry, as LLVM takes it.
  std::pair<uint64_t, Placement> pooled(uint64_t Index) const {
    if (std::optional<uint64_t> A = U.addrEntry(Index))
      return {*A, U.addrEntryPlacement(Index)};
    return {0, Placement::None};
  }

  const Unit &U;
  const ListPlacement &Where;
  const uint64_t Tomb;
  std::optional<uint64_t> Base;
  Placement BasePlacement;
};

std::optional<DieRange> RleState::apply(const RleEntry &E) {
  using namespace dwarf;
  DieRange R;
  switch (E.Kind) {
  case DW_RLE_base_addressx:
    if (std::optional<uint64_t> A = U.addrEntry(E.V0)) {
      Base = *A;
      BasePlacement = U.addrEntryPlacement(E.V0);
    } else {
      Base = E.V0;
      BasePlacement = Placement::None;
    }
    return std::nullopt;
  case DW_RLE_base_address:
    Base = E.V0;
    BasePlacement = E.P;
    return std::nullopt;
  case DW_RLE_offset_pair:
    R = {E.V0, E.V1, BasePlacement};
    if (Base) {
      if (*Base == Tomb)
        return std::nullopt;
      R.LowPC += *Base;
      R.HighPC += *Base;
    } else {
      R.P = Where.at(0) == Placement::Linked ? Placement::Linked
                                             : Placement::None;
    }
    break;
  case DW_RLE_start_end:
    R = {E.V0, E.V1, E.P};
    break;
  case DW_RLE_start_length:
    R = {E.V0, E.V0 + E.V1, E.P};
    break;
  case DW_RLE_startx_length: {
    auto [A, AP] = pooled(E.V0);
    R = {A, A + E.V1, AP};
    break;
  }
  case DW_RLE_startx_endx: {
    auto [A, AP] = pooled(E.V0);
    R = {A, pooled(E.V1).first, AP};
    break;
  }
  }
  if (R.LowPC == Tomb)
    return std::nullopt;
  return R;
}

} // namespace

Expected<SmallVector<DieRange, 2>> Unit::rngList(uint64_t Offset) const {
  using namespace dwarf;
  StringRef S = RangesSection;
  if (Offset >= S.size())
    return rangeError("invalid range list offset " + hexOf(Offset));
  const uint8_t Size = Header.AddrSize;
  ListPlacement Where(RangesFile, Sec::RngLists);
  RleState State(*this, BaseAddress, BaseAddressPlacement, Where,
                 computeTombstoneAddress(Size));
  SmallVector<DieRange, 2> Out;
  Cursor C(S, Offset, S.size(), isLittleEndian());
  while (!C.atEnd()) {
    uint64_t EntryOff = C.offset();
    RleEntry E;
    E.Kind = C.fixed(1);
    if (E.Kind == DW_RLE_end_of_list)
      return Out;
    if (!readRleOperands(C, Size, Where, E))
      return rangeError("unknown rnglists encoding " + hexOf(E.Kind) +
                        " at offset " + hexOf(EntryOff));
    if (C.failed())
      return rangeError("read past end of table when reading " +
                        RLEString(E.Kind) + " encoding at offset " +
                        hexOf(EntryOff));
    if (std::optional<DieRange> R = State.apply(E))
      Out.push_back(*R);
  }
  return rangeError("no end of list marker detected at end of " +
                    sectionName(Sec::RngLists, File->isDwo()) +
                    " table starting at offset 0x0");
}

} // namespace input
} // namespace dwarfpack
