//===- FastDwarf.h - A small DWARF reader for type conversion ---*- C++ -*-===//
//
// Reads one stand-alone compile unit of a linked object (no relocations, no
// references out of the unit, no type units) with flat abbreviation tables
// and a compact DIE index, for the type converter: LLVM's general reader
// decodes every DIE into a 24-byte entry and every attribute into a
// DWARFFormValue through several layers of calls, which was most of the
// time of a kernel conversion.
//
// The classes mimic the parts of DWARFDie / DWARFFormValue the converter
// uses, with the same results on every unit they accept. A unit is accepted
// only when all of it parses: any malformed DIE, unknown abbreviation code,
// form this reader does not know or missing string offsets table makes
// FastUnit::parse() fail, and the caller converts the unit with LLVM's
// reader instead (which then reports the problem as it always did).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_TYPES_FASTDWARF_H
#define DWARFPACK_LIB_TYPES_FASTDWARF_H

#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/Dwarf.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dwarfpack {
namespace types {
namespace fast {

class Unit;

/// An attribute value, with DWARFFormValue's accessors (same results).
class FormValue {
public:
  FormValue() = default;
  FormValue(const Unit *U, uint16_t Form, uint64_t V, const char *Data)
      : U(U), Form(Form), V(V), Data(Data) {}
  llvm::dwarf::Form getForm() const { return llvm::dwarf::Form(Form); }
  /// The value as stored (constant, offset, index or block length).
  uint64_t raw() const { return V; }
  std::optional<uint64_t> getAsUnsignedConstant() const {
    switch (Form) {
    case llvm::dwarf::DW_FORM_data1:
    case llvm::dwarf::DW_FORM_data2:
    case llvm::dwarf::DW_FORM_data4:
    case llvm::dwarf::DW_FORM_data8:
    case llvm::dwarf::DW_FORM_udata:
    case llvm::dwarf::DW_FORM_implicit_const:
    case llvm::dwarf::DW_FORM_flag:
    case llvm::dwarf::DW_FORM_flag_present:
      return V;
    default:
      return std::nullopt;
    }
  }
  std::optional<int64_t> getAsSignedConstant() const;
  std::optional<const char *> getAsCString() const;
  std::optional<llvm::ArrayRef<uint8_t>> getAsBlock() const;
  /// DW_FORM_addr, or an addrx form resolved through the unit's
  /// DW_AT_addr_base (nothing when it has none or the entry is outside
  /// .debug_addr).
  std::optional<uint64_t> getAsAddress() const;
  std::optional<uint64_t> getAsRelativeReference() const {
    switch (Form) {
    case llvm::dwarf::DW_FORM_ref1:
    case llvm::dwarf::DW_FORM_ref2:
    case llvm::dwarf::DW_FORM_ref4:
    case llvm::dwarf::DW_FORM_ref8:
    case llvm::dwarf::DW_FORM_ref_udata:
      return V;
    default:
      return std::nullopt;
    }
  }
  /// Never a signature: units with DW_FORM_ref_sig8 are not accepted.
  std::optional<uint64_t> getAsSignatureReference() const {
    return std::nullopt;
  }

private:
  const Unit *U = nullptr;
  uint16_t Form = 0;
  uint64_t V = 0;             ///< constant, offset, index or block length
  const char *Data = nullptr; ///< DW_FORM_string, blocks
};

/// A DIE of a Unit (or none), with DWARFDie's accessors.
class Die {
public:
  Die() = default;
  Die(const Unit *U, uint32_t Idx) : U(U), Idx(Idx) {}
  explicit operator bool() const { return U != nullptr; }
  bool isValid() const { return U != nullptr; }
  const Unit *getDwarfUnit() const { return U; }
  uint32_t index() const { return Idx; }
  /// Offset from the start of the unit (the unit's header).
  uint64_t getOffset() const;
  inline llvm::dwarf::Tag getTag() const;
  std::optional<FormValue> find(llvm::dwarf::Attribute A) const;
  Die getAttributeValueAsReferencedDie(llvm::dwarf::Attribute A) const;
  Die getAttributeValueAsReferencedDie(const FormValue &V) const;
  /// DWARFDie::getName(DINameKind::LinkageName): the linkage name, else the
  /// name, looked up through abstract origins and specifications.
  const char *getLinkageNameOrName() const;

  class ChildIterator {
  public:
    ChildIterator(const Unit *U, uint32_t Idx) : U(U), Idx(Idx) {}
    Die operator*() const { return Die(U, Idx); }
    inline ChildIterator &operator++();
    bool operator!=(const ChildIterator &O) const { return Idx != O.Idx; }

  private:
    const Unit *U;
    uint32_t Idx;
  };
  struct ChildRange {
    ChildIterator B, E;
    ChildIterator begin() const { return B; }
    ChildIterator end() const { return E; }
  };
  ChildRange children() const;

  bool operator==(const Die &O) const { return U == O.U && Idx == O.Idx; }

private:
  const Unit *U = nullptr;
  uint32_t Idx = 0;
};

/// One compile unit's abbreviations and DIE index.
class Unit {
public:
  struct Sections {
    llvm::StringRef Abbrev, Str, LineStr, StrOffsets, Addr;
  };
  /// Parses the unit whose bytes (header included) are Bytes, replacing
  /// whatever unit this object held. Returns false when the unit is
  /// anything this reader does not handle exactly like LLVM's (the caller
  /// then uses LLVM's).
  bool parse(llvm::StringRef Bytes, const Sections &S, bool LittleEndian);

  uint8_t getAddressByteSize() const { return AddrSize; }
  /// Entry Index of the unit's .debug_addr table (DW_OP_addrx, the addrx
  /// forms), as DWARFUnit::getAddrOffsetSectionItem.
  std::optional<uint64_t> addrEntry(uint64_t Index) const;
  bool isLittleEndian() const { return true; }
  size_t numDies() const { return DieOffset.size(); }
  Die getUnitDIE() const { return numDies() ? Die(this, 0) : Die(); }
  /// The DIE starting at Offset (from the unit's start), if any.
  Die getDIEForOffset(uint64_t Offset) const;
  /// Appends the attributes of DIE Idx to Out, but for source coordinates
  /// and siblings (never asked for).
  void
  readAttrs(uint32_t Idx,
            llvm::SmallVectorImpl<std::pair<llvm::dwarf::Attribute, FormValue>>
                &Out) const;

  /// An abbreviation's attribute.
  struct AttrSpec {
    uint16_t Attr;
    uint16_t Form;
    /// Bytes of the value when fixed, else -1.
    int16_t Size;
    /// Decoded by readAttrs (an attribute the converter may ask for).
    bool Wanted;
    /// Offset of the value from the DIE's first attribute when all the
    /// attributes before it have fixed sizes, else -1.
    int32_t FixedOffset;
    int64_t Const; ///< DW_FORM_implicit_const
  };
  struct Abbrev {
    uint16_t Tag = 0;
    bool HasChildren = false;
    uint32_t AttrBegin = 0, NumAttrs = 0;
    /// Sum of the attributes' sizes when all are fixed, else -1.
    int32_t FixedSize = -1;
  };

private:
  friend class Die;
  friend class FormValue;
  /// Reads the value of Spec at *Off (advanced past it) into *V, or skips
  /// it when V is null. False when it does not fit the unit.
  bool readValue(const AttrSpec &Spec, uint64_t &Off, FormValue *V) const;
  std::optional<FormValue> findAttr(uint32_t Idx,
                                    llvm::dwarf::Attribute A) const;
  const char *cstrAt(llvm::StringRef Section, uint64_t Off) const;
  bool parseAbbrevs(llvm::StringRef Abbrev, uint64_t Off);
  bool setUpStrOffsets();

  llvm::StringRef Bytes;
  Sections Secs;
  uint16_t Version = 0;
  uint8_t AddrSize = 0;
  uint64_t StrOffsetsBase = 0;
  std::optional<uint64_t> AddrBase;
  bool HasStrOffsets = false;
  bool UsesStrx = false;
  std::vector<Abbrev> Abbrevs; ///< by code; [0] is the null entry's
  std::vector<AttrSpec> Specs;
  /// Per DIE (null entries included, in order): offset, abbreviation code,
  /// tag and the index of the entry after its subtree.
  std::vector<uint32_t> DieOffset, DieCode, DieNext;
  std::vector<uint32_t> DieAttrs; ///< offset of the first attribute
  std::vector<uint16_t> DieTag;
  /// For each BlockBits-byte block of the unit, the first DIE starting in
  /// or after it: finds a DIE by offset in a few steps.
  static constexpr unsigned BlockBits = 4;
  std::vector<uint32_t> FirstDieInBlock;
};

inline llvm::dwarf::Tag Die::getTag() const {
  return llvm::dwarf::Tag(U->DieTag[Idx]);
}

inline Die::ChildIterator &Die::ChildIterator::operator++() {
  Idx = U->DieNext[Idx];
  return *this;
}

} // namespace fast

/// convertCompileUnit() for a unit the fast reader accepted: the same
/// types, warnings and hashes as with LLVM's reader.
UnitTypes convertCompileUnit(const fast::Unit &U, WarningLog &Log,
                             uint64_t OffsetBias,
                             const llvm::StringSet<> *Declared = nullptr);

} // namespace types
} // namespace dwarfpack

#endif
