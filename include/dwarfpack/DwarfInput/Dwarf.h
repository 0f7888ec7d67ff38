//===- Dwarf.h - One zero-copy reader of DWARF units ------------*- C++ -*-===//
//
// The DIE and attribute decoder every DWARF consumer of dwarfpack reads
// through (the address model, the type model, the checks run before LLVM's
// reader sees a file). It reads the bytes where they lie (the object's
// mapping, or the decompressed and relocated copies InputObject makes) and
// keeps per unit only a flat index of its DIEs: LLVM's reader decodes every
// DIE into a 24-byte entry and every attribute through DWARFFormValue's
// layers of calls, which was most of the time of a conversion.
//
//   DwarfFile   the sections of one file (an object, a .dwo, a .dwp, dwz's
//               supplementary file), its unit headers, its type units by
//               signature; units other units refer to, parsed once, shared.
//   Unit        one unit's abbreviations and DIE index (reusable buffers);
//               its bases (strings, addresses, range lists), for a split
//               unit taken from its skeleton.
//   Die         a DIE of a Unit; FormValue, an attribute value of one.
//
// A Unit only reads inside its file's sections: every value is checked
// against them when the unit is parsed, and every offset a value holds
// (strings, references, lists) when it is followed.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_DWARF_H
#define DWARFPACK_DWARFINPUT_DWARF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/Error.h"

#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace dwarfpack {
namespace input {

/// The sections a DWARF reader reads, by kind (for a .dwo or .dwp file,
/// their .dwo forms).
enum class Sec : uint8_t {
  Info,
  Types,
  Abbrev,
  Str,
  LineStr,
  StrOffsets,
  Addr,
  Ranges,
  RngLists,
  LocLists,
  Loc,
  Line,
  CuIndex,
  TuIndex,
  NumKinds
};

/// The bytes of each section (after decompression and relocation).
struct DwarfSections {
  std::array<llvm::StringRef, size_t(Sec::NumKinds)> Data;
  llvm::StringRef &operator[](Sec S) { return Data[size_t(S)]; }
  llvm::StringRef operator[](Sec S) const { return Data[size_t(S)]; }
};

/// Sections' names as ELF files name them (".debug_info"), for messages.
llvm::StringRef sectionName(Sec S, bool Dwo);

/// Where a .dwp package puts one unit's parts of its sections (all 0
/// outside packages).
struct Contributions {
  uint64_t Abbrev = 0, StrOffsets = 0, Line = 0, LocLists = 0, RngLists = 0;
  /// Size of the unit's .debug_str_offsets part (0: to the section's end).
  uint64_t StrOffsetsSize = 0;
};

/// A unit's header, read once when a file's units are listed.
struct UnitHeader {
  uint64_t Offset = 0; ///< Of the unit in its section.
  uint64_t Size = 0;   ///< All its bytes, the length field included.
  uint64_t AbbrevOffset = 0;
  uint64_t TypeSignature = 0; ///< Type units.
  uint64_t TypeOffset = 0;    ///< Type units: the type's DIE, unit-relative.
  uint64_t DwoId = 0;         ///< DWARF 5 skeleton and split units.
  Contributions Contrib;
  uint16_t Version = 0;
  /// DW_UT_*; DWARF 2-4 units are DW_UT_compile, or DW_UT_type in
  /// .debug_types.
  uint8_t UnitType = 0;
  uint8_t AddrSize = 0;
  uint8_t OffsetSize = 4; ///< 8 in 64-bit DWARF.
  uint8_t HeaderSize = 0; ///< Bytes before the first DIE.
  bool InTypesSection = false;
  bool HasDwoId = false;

  uint64_t end() const { return Offset + Size; }
  bool isTypeUnit() const {
    return UnitType == llvm::dwarf::DW_UT_type ||
           UnitType == llvm::dwarf::DW_UT_split_type;
  }
};

/// Reads the header of the unit at Offset of a section of SectionSize
/// bytes (.debug_info, or .debug_types when InTypes), as LLVM's
/// DWARFUnitHeader::extract; Bytes are the section's bytes from Offset on
/// (at least MaxUnitHeaderSize of them, or up to its end). The error is the
/// one LLVM reports for it.
constexpr size_t MaxUnitHeaderSize = 40;
llvm::Expected<UnitHeader> readUnitHeader(llvm::StringRef Bytes,
                                          uint64_t Offset, uint64_t SectionSize,
                                          bool LittleEndian, bool InTypes);

class Unit;
class Die;

/// Where an address value of a relocatable object points: the file has no
/// addresses until a relocation places the value in a section.
enum class Placement : uint8_t {
  Linked,       ///< A linked file: addresses are final.
  Executable,   ///< Relocated into an executable section (laid out).
  OtherSection, ///< Relocated into a section that holds no code.
  None,         ///< No relocation wrote it.
};

/// The offsets of one section that relocations wrote (relocatable
/// objects), and whether each points into an executable section.
class RelocatedOffsets {
public:
  void add(uint64_t Offset, bool Executable) {
    Entries.push_back({Offset, Executable});
  }
  /// Sorts the entries; call once, after the last add().
  void finish();
  Placement placementAt(uint64_t Offset) const;
  /// Adds Other's entries, Shift bytes further on.
  void appendShifted(const RelocatedOffsets &Other, uint64_t Shift);

private:
  struct Entry {
    uint64_t Offset;
    bool Executable;
  };
  std::vector<Entry> Entries;
};

/// The DWARF of one file.
class DwarfFile {
public:
  /// Name: the file's path, for messages. Dwo: the sections are the .dwo
  /// forms (a .dwo file or .dwp package).
  DwarfFile(const DwarfSections &S, bool LittleEndian, bool Dwo,
            std::string Name);
  ~DwarfFile();
  DwarfFile(const DwarfFile &) = delete;
  DwarfFile &operator=(const DwarfFile &) = delete;

  /// Reads the unit headers of .debug_info and .debug_types (and of a
  /// package, its unit indexes). A header that cannot be read ends its
  /// section's list, as LLVM's reader ends it; what was wrong is returned
  /// as warnings in LLVM's words (none: everything was read). Read, when
  /// given, fetches bytes of a section (a header is a few bytes of each
  /// page; reading them from the file keeps the pages out of memory).
  using ByteReader =
      llvm::function_ref<bool(Sec, uint64_t Offset, void *Buf, size_t Len)>;
  std::vector<std::string> scanUnits(ByteReader Read = nullptr);

  llvm::StringRef section(Sec S) const { return Sections[S]; }
  const DwarfSections &sections() const { return Sections; }
  bool isLittleEndian() const { return LittleEndian; }
  bool isDwo() const { return Dwo; }
  const std::string &name() const { return Name; }

  /// Units of .debug_info, then of .debug_types, in section order.
  llvm::ArrayRef<UnitHeader> units() const { return Units; }
  /// The unit of .debug_info whose bytes hold Offset.
  const UnitHeader *infoUnitAt(uint64_t Offset) const;
  const UnitHeader *typeUnit(uint64_t Signature) const;
  /// The split compile unit with DwoId (a .dwo file or package).
  const UnitHeader *splitUnit(uint64_t DwoId) const;

  /// H (one of units()) parsed once, for the DIEs other units refer to
  /// (DW_FORM_ref_addr, type units, dwz's partial units): kept until the
  /// file goes; safe to call from any thread. Null when it does not parse.
  const Unit *sharedUnit(const UnitHeader &H) const;

  /// dwz's supplementary file, where the DW_FORM_GNU_ref_alt and
  /// DW_FORM_GNU_strp_alt values (DWARF 5's ref_sup and strp_sup) lead.
  const DwarfFile *Sup = nullptr;
  /// Relocatable objects: the offsets relocations wrote, per section.
  const RelocatedOffsets *relocated(Sec S) const;
  void setRelocated(Sec S, RelocatedOffsets R);
  bool isRelocatable() const { return Relocatable; }

private:
  struct Shared;
  DwarfSections Sections;
  bool LittleEndian, Dwo, Relocatable = false;
  std::string Name;
  std::vector<UnitHeader> Units;
  size_t NumInfoUnits = 0;
  std::unordered_map<uint64_t, uint32_t> TypeUnits;  ///< Signature -> index.
  std::unordered_map<uint64_t, uint32_t> SplitUnits; ///< DWO id -> index.
  std::unique_ptr<Shared[]> SharedUnits;
  std::array<std::unique_ptr<RelocatedOffsets>, size_t(Sec::NumKinds)> Relocs;
};

/// Whether E says a DIE's values run past the end of their section, which
/// makes the whole file unusable (Unit::parse returns it).
bool isSectionOverrun(const llvm::Error &E);

/// A set of attributes a consumer reads; Unit::readAttrs decodes only
/// those (the rest are stepped over).
class AttrSet {
public:
  AttrSet(std::initializer_list<llvm::dwarf::Attribute> Attrs) {
    for (llvm::dwarf::Attribute A : Attrs)
      Bits.set(index(A));
  }
  bool contains(uint16_t A) const { return Bits.test(index(A)); }

private:
  // DWARF's attributes, then the vendor range (0x2000-0x3fff) folded in.
  static size_t index(uint16_t A) { return A & 0x3fff; }
  std::bitset<0x4000> Bits;
};

/// An attribute value, with DWARFFormValue's accessors (same results).
class FormValue {
public:
  FormValue() = default;
  FormValue(const Unit *U, uint16_t Form, uint64_t V, const char *Data,
            uint64_t SecOffset)
      : U(U), Data(Data), V(V), SecOffset(SecOffset), Form(Form) {}
  llvm::dwarf::Form getForm() const { return llvm::dwarf::Form(Form); }
  const Unit *unit() const { return U; }
  /// The value as stored (constant, offset, index or block length).
  uint64_t raw() const { return V; }
  /// Where the value lies in the unit's section.
  uint64_t sectionOffset() const { return SecOffset; }

  inline std::optional<uint64_t> getAsUnsignedConstant() const;
  inline std::optional<int64_t> getAsSignedConstant() const;
  /// The string of a string form; an error in LLVM's words for an offset
  /// or index outside its section or table.
  llvm::Expected<const char *> getAsCString() const;
  /// As getAsCString, nullptr for any problem.
  inline const char *cstr() const;
  /// As cstr(), with its length (empty for any problem): a DW_FORM_string
  /// value knows its length from being decoded.
  inline llvm::StringRef str() const;
  std::optional<llvm::ArrayRef<uint8_t>> getAsBlock() const;
  /// DW_FORM_addr, or an addrx form resolved through the unit's address
  /// table (nothing when it has none or the entry is outside it).
  std::optional<uint64_t> getAsAddress() const;
  /// A section offset (DW_FORM_sec_offset, and DWARF 2/3's data4/data8).
  std::optional<uint64_t> getAsSectionOffset() const;
  bool isReference() const;
  bool isStringForm() const;
  /// Where the address of an address form points (relocatable objects).
  Placement placement() const;

private:
  const char *cstrSlow() const;

  const Unit *U = nullptr;
  const char *Data = nullptr; ///< DW_FORM_string, blocks
  /// DW_FORM_string: the string's length.
  uint64_t V = 0;
  uint64_t SecOffset = 0;
  uint16_t Form = 0;
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
  /// Offset in the unit's section (.debug_info, as LLVM numbers DIEs).
  uint64_t getOffset() const;
  inline llvm::dwarf::Tag getTag() const;
  inline bool hasChildren() const;
  std::optional<FormValue> find(llvm::dwarf::Attribute A) const;
  /// Whether the DIE's abbreviation has A (nothing is decoded).
  bool hasAttribute(llvm::dwarf::Attribute A) const;
  /// The first of As that the DIE has.
  std::optional<FormValue>
  find(std::initializer_list<llvm::dwarf::Attribute> As) const;
  /// The DIE a reference value leads to: in this unit, another unit of the
  /// file (DW_FORM_ref_addr), a type unit (DW_FORM_ref_sig8) or dwz's
  /// supplementary file; none when there is no DIE there.
  Die getAttributeValueAsReferencedDie(llvm::dwarf::Attribute A) const;
  Die getAttributeValueAsReferencedDie(const FormValue &V) const;
  /// DWARFDie::getName(DINameKind::LinkageName): the linkage name, else the
  /// name, looked up through abstract origins and specifications.
  const char *getLinkageNameOrName() const;
  /// DWARFDie::findRecursively: the first of Attrs on this DIE, else on the
  /// DIEs its DW_AT_specification and DW_AT_abstract_origin lead to (the
  /// specification's first), each visited once.
  std::optional<FormValue>
  findRecursively(llvm::ArrayRef<llvm::dwarf::Attribute> Attrs) const;
  Die getParent() const;
  Die getFirstChild() const;
  /// The next DIE with the same parent (none after the last).
  Die getSibling() const;
  /// The index of the first entry after this DIE's subtree (its children
  /// and the null entry that closes them).
  uint32_t subtreeEnd() const;

  class ChildIterator {
  public:
    ChildIterator(const Unit *U, uint32_t Idx) : U(U), Idx(Idx) {}
    Die operator*() const { return Die(U, Idx); }
    inline ChildIterator &operator++();
    // Indexes only grow: a comparison by order ends even a list that a
    // damaged unit cut short.
    bool operator!=(const ChildIterator &O) const { return Idx < O.Idx; }

  private:
    const Unit *U;
    uint32_t Idx;
  };
  struct ChildRange {
    ChildIterator B, E;
    ChildIterator begin() const { return B; }
    ChildIterator end() const { return E; }
  };
  /// The children, without the null entry closing them.
  ChildRange children() const;

  bool operator==(const Die &O) const { return U == O.U && Idx == O.Idx; }
  bool operator!=(const Die &O) const { return !(*this == O); }

private:
  const Unit *U = nullptr;
  uint32_t Idx = 0;
};

/// An address range of a DIE; P as FormValue::placement.
struct DieRange {
  uint64_t LowPC = 0, HighPC = 0;
  Placement P = Placement::Linked;
};

/// One unit's abbreviations and DIEs.
class Unit {
public:
  Unit();
  ~Unit();
  /// Parses unit H of F, replacing whatever unit this object held (its
  /// buffers are reused). Skel: for a split unit (of a .dwo file or
  /// package), the skeleton unit, whose address table and range list base
  /// it uses. The error is in LLVM's words; the unit is then unusable.
  /// UnitDieOnly: the unit DIE is the only DIE read (its children are
  /// not), as LLVM reads a unit to learn its ranges.
  llvm::Error parse(const DwarfFile &F, const UnitHeader &H,
                    const Unit *Skel = nullptr, bool UnitDieOnly = false);

  const DwarfFile &file() const { return *File; }
  const UnitHeader &header() const { return Header; }
  uint16_t getVersion() const { return Header.Version; }
  uint8_t getAddressByteSize() const { return Header.AddrSize; }
  uint64_t getOffset() const { return Header.Offset; }
  bool isLittleEndian() const;
  /// Bytes of the unit, its header included.
  llvm::StringRef bytes() const { return Bytes; }
  /// When the unit's DIEs end early (an abbreviation it does not define, a
  /// DIE past its end), what LLVM's reader reports there, in its words;
  /// the DIEs before are kept, as LLVM keeps them. Empty otherwise.
  llvm::StringRef partialProblem() const { return PartialProblem; }

  size_t numDies() const { return Dies.size(); }
  Die getUnitDIE() const { return numDies() ? Die(this, 0) : Die(); }
  /// The DIE starting at Offset of the unit's section, if any.
  Die getDIEForOffset(uint64_t Offset) const;
  bool containsOffset(uint64_t Offset) const {
    return Offset >= Header.Offset && Offset < Header.end();
  }

  /// Appends the attributes of DIE Idx that Want contains to Out.
  void
  readAttrs(uint32_t Idx, const AttrSet &Want,
            llvm::SmallVectorImpl<std::pair<llvm::dwarf::Attribute, FormValue>>
                &Out) const;

  /// Entry Index of the unit's address table (DW_OP_addrx, the addrx
  /// forms).
  std::optional<uint64_t> addrEntry(uint64_t Index) const;
  Placement addrEntryPlacement(uint64_t Index) const;
  /// Index of the string offsets table, as a .debug_str offset.
  llvm::Expected<uint64_t> strOffset(uint64_t Index) const;
  /// The unit's string offsets table: its section, where the unit's
  /// entries start and their size (Size 0: the unit has none).
  void strOffsetsTable(llvm::StringRef &Section, uint64_t &Base,
                       uint8_t &Size) const;
  /// The address ranges of D (DW_AT_low_pc/high_pc or DW_AT_ranges), as
  /// DWARFDie::getAddressRanges gives them.
  llvm::Expected<llvm::SmallVector<DieRange, 2>> ranges(const Die &D) const;
  llvm::Expected<llvm::SmallVector<DieRange, 2>>
  rangesFrom(std::optional<FormValue> LowPC, std::optional<FormValue> HighPC,
             std::optional<FormValue> Ranges) const;
  /// The unit's base address (its DIE's DW_AT_low_pc, or the skeleton's).
  std::optional<uint64_t> baseAddress() const { return BaseAddress; }
  /// The DWARF expressions of a location value (DW_AT_location, say): the
  /// block itself, or every entry's of its location list, in list order,
  /// as LLVM 19's DWARFDie::getLocations gives them; an error where LLVM
  /// reads no list (a bad offset or index, a truncated or unknown entry,
  /// an address it cannot resolve). The expressions point into the file.
  llvm::Expected<llvm::SmallVector<llvm::ArrayRef<uint8_t>, 4>>
  locationExpressions(const FormValue &Location) const;
  /// Whether the unit is a skeleton whose DIEs are in a .dwo file.
  bool isSkeleton() const;
  std::optional<uint64_t> dwoId() const;

  /// An abbreviation's attribute.
  struct AttrSpec {
    uint16_t Attr;
    uint16_t Form;
    /// Bytes of the value when fixed, else -1.
    int16_t Size;
    /// Offset of the value from the DIE's first attribute when all the
    /// attributes before it have fixed sizes, else -1.
    int32_t FixedOffset;
    int64_t Const; ///< DW_FORM_implicit_const
  };
  struct Abbrev {
    uint64_t Code = 0;
    uint16_t Tag = 0;
    bool HasChildren = false;
    /// A form this reader does not know: its DIEs are stepped over value by
    /// value, to report where (the others follow their SkipSteps).
    bool UnknownForm = false;
    uint32_t AttrBegin = 0, NumAttrs = 0;
    /// Sum of the attributes' sizes when all are fixed, else -1.
    int32_t FixedSize = -1;
    /// How to step over a DIE's values when FixedSize is -1: its SkipSteps,
    /// then TailSize bytes.
    uint32_t StepBegin = 0, NumSteps = 0;
    uint32_t TailSize = 0;
  };
  /// Stepping over a DIE's values: FixedBefore bytes of fixed-size values,
  /// then one value of the variable-size Form. Most DIEs have at most one
  /// or two variable values (an inline name, a location): runs of fixed
  /// ones are stepped over at once, without a look at each one's form.
  struct SkipStep {
    uint32_t FixedBefore;
    uint16_t Form;
  };

private:
  friend class Die;
  friend class FormValue;
  friend class DieAttrView;
  friend class AbbrevSlots;
  /// Reads the value of Spec at *Off (advanced past it) into *V, or skips
  /// it when V is null. False when it does not fit the section.
  bool readValue(uint16_t Form, int64_t Const, uint64_t &Off,
                 FormValue *V) const;
  bool readSpec(const AttrSpec &S, uint64_t &Off, FormValue *V) const;
  /// readValue() for S's value, without its checks of the form for the
  /// fixed-size forms.
  bool decodeSpec(const AttrSpec &S, uint64_t &Off, FormValue &V) const;
  /// Steps over a value of a variable-size form (not past the section).
  bool skipVariable(uint16_t Form, uint64_t &Off) const;
  /// Steps over the values of DIE Idx up to its attribute I (of the
  /// abbreviation's), from the first; Off: the section offset reached.
  bool offsetOf(uint32_t Idx, uint32_t I, uint64_t &Off) const;
  std::optional<FormValue> findAttr(uint32_t Idx,
                                    llvm::dwarf::Attribute A) const;
  uint64_t read(const char *P, unsigned N) const;
  const char *cstrAt(llvm::StringRef Section, uint64_t Off) const;
  llvm::Error parseAbbrevs(uint64_t Off);
  llvm::Error parseDies();
  void setUpBases(const Unit *Skel);
  void setUpAddressTable(const Unit *Skel);
  void setUpStrOffsets();
  /// DWARF 5's DW_AT_str_offsets_base, when a table header precedes it.
  void setUpStrOffsetsBase(uint64_t Base);
  void setUpRanges(const Unit *Skel);
  /// The unit DIE's attribute A as a section offset.
  std::optional<uint64_t> unitSectionOffset(llvm::dwarf::Attribute A) const;
  /// The index in Abbrevs of Code's abbreviation, 0 when there is none.
  uint32_t abbrevFor(uint64_t Code) const {
    return Code < CodeIndex.size() ? CodeIndex[Code] : abbrevForSparse(Code);
  }
  uint32_t abbrevForSparse(uint64_t Code) const;
  /// The codes the unit defines, as LLVM's messages list them ("1-4").
  std::string codeRanges() const;
  Die refTarget(const FormValue &V) const;
  llvm::Expected<llvm::SmallVector<DieRange, 2>>
  rangeList(uint64_t Offset) const;
  llvm::Expected<llvm::SmallVector<DieRange, 2>> rngList(uint64_t Offset) const;
  /// The location list at Offset of Section (DWARF 2-4 .debug_loc, else
  /// the DW_LLE entries of .debug_loclists or of a split unit's
  /// .debug_loc.dwo).
  llvm::Expected<llvm::SmallVector<llvm::ArrayRef<uint8_t>, 4>>
  locationList(llvm::StringRef Section, uint64_t Offset) const;

  const DwarfFile *File = nullptr;
  UnitHeader Header;
  llvm::StringRef Section; ///< The whole section holding the unit.
  llvm::StringRef Bytes;   ///< The unit's bytes.
  /// Abbreviations; [0] stands for null entries. Codes index CodeIndex
  /// when they are small, else SparseCodes.
  std::vector<Abbrev> Abbrevs;
  std::vector<uint32_t> CodeIndex;
  llvm::DenseMap<uint64_t, uint32_t> SparseCodes;
  std::vector<AttrSpec> Specs;
  std::vector<SkipStep> Steps;
  /// A DIE (or null entry) in the index: offsets from the unit's start of
  /// the DIE and of its first attribute, its abbreviation (index), the
  /// index of the entry after its subtree, its parent's index, its tag.
  /// One record, so that indexing a DIE is one append.
  struct DieRecord {
    uint32_t Offset, Attrs, Abbrev, Next, Parent;
    uint16_t Tag;
  };
  std::vector<DieRecord> Dies;
  /// DIEs whose lists of children the unit's end cut short (no null entry
  /// closes them).
  llvm::SmallVector<uint32_t, 4> CutShort;
  /// For each BlockBits-byte block of the unit, the first DIE starting in
  /// or after it: finds a DIE by offset in a few steps.
  static constexpr unsigned BlockBits = 4;
  std::vector<uint32_t> FirstDieInBlock;

  std::string PartialProblem;
  bool UnitDieOnly = false;

  // Bases, from the unit DIE (and the skeleton of a split unit).
  std::optional<uint64_t> BaseAddress;
  Placement BaseAddressPlacement = Placement::Linked;
  llvm::StringRef AddrSection; ///< The skeleton file's, for split units.
  const DwarfFile *AddrFile = nullptr;
  std::optional<uint64_t> AddrBase;
  std::optional<uint64_t> StrOffsetsBase;
  uint8_t StrOffsetSize = 4;
  std::optional<uint64_t> RngListsBase;
  uint64_t RangesBase = 0; ///< DW_AT_GNU_ranges_base of a skeleton.
  llvm::StringRef RangesSection;
  const DwarfFile *RangesFile = nullptr;
};

/// Attributes a consumer reads, each given a slot: a unit's abbreviations
/// are mapped onto the slots once (AbbrevSlots), after which a DIE finds a
/// slot's value without searching its abbreviation (DieAttrView). Most of
/// what a consumer asks for is absent: a type converter asks a member DIE
/// for eight attributes and finds three.
class AttrSlots {
public:
  AttrSlots(llvm::ArrayRef<llvm::dwarf::Attribute> Attrs);
  AttrSlots(std::initializer_list<llvm::dwarf::Attribute> Attrs)
      : AttrSlots(llvm::ArrayRef<llvm::dwarf::Attribute>(Attrs)) {}
  unsigned size() const { return Attrs.size(); }
  /// The slot of attribute A, -1 when it has none.
  int slotOf(uint16_t A) const {
    int S = BySlotIndex[A & 0x3fff];
    if (S == Shared)
      return slotOfSlow(A);
    return S >= 0 && Attrs[S] == A ? S : -1;
  }

private:
  int slotOfSlow(uint16_t A) const;

  llvm::SmallVector<uint16_t, 32> Attrs;
  /// Slots by attribute: the vendor range (0x2000-0x3fff) folded in as in
  /// AttrSet, checked against Attrs; Shared where two attributes fold
  /// together.
  static constexpr int8_t Shared = -2;
  std::array<int8_t, 0x4000> BySlotIndex;
};

/// Where each abbreviation of one unit holds each slot's attribute.
class AbbrevSlots {
public:
  AbbrevSlots(const Unit &U, const AttrSlots &Slots);
  const Unit &unit() const { return *U; }
  /// The index, among abbreviation Abbrev's attributes, of slot S's
  /// attribute; -1 when the abbreviation has none.
  int specOf(uint32_t Abbrev, unsigned S) const {
    return Map[size_t(Abbrev) * Width + S];
  }

private:
  const Unit *U;
  unsigned Width;
  std::vector<int32_t> Map;
};

/// The attributes of one DIE, for a consumer that asks it for several:
/// where each value lies is worked out once (and only when a value does not
/// sit at a fixed place of its abbreviation), each value is decoded when
/// asked for. Decoding them all up front (Unit::readAttrs) costs more when
/// a consumer reads a few of many.
class DieAttrView {
public:
  /// Slots: the map of D's unit, for findSlot() and hasSlot().
  explicit DieAttrView(const Die &D, const AbbrevSlots *Slots = nullptr);
  const Die &die() const { return D; }
  llvm::dwarf::Tag getTag() const { return D.getTag(); }
  /// Whether the DIE's abbreviation has A (nothing is decoded).
  bool has(llvm::dwarf::Attribute A) const { return specOf(A) != nullptr; }
  /// As Die::find.
  std::optional<FormValue> find(llvm::dwarf::Attribute A) const {
    const Unit::AttrSpec *S = specOf(A);
    return S ? valueOf(*S) : std::nullopt;
  }
  /// The same for the attribute of a slot of the map given.
  bool hasSlot(unsigned Slot) const {
    return Slots->specOf(AbbrevIdx, Slot) >= 0;
  }
  std::optional<FormValue> findSlot(unsigned Slot) const {
    int I = Slots->specOf(AbbrevIdx, Slot);
    return I >= 0 ? valueOf(Begin[I]) : std::nullopt;
  }

private:
  const Unit::AttrSpec *specOf(llvm::dwarf::Attribute A) const {
    for (const Unit::AttrSpec *S = Begin; S != End; ++S)
      if (S->Attr == A)
        return S;
    return nullptr;
  }
  std::optional<FormValue> valueOf(const Unit::AttrSpec &S) const;
  /// Fills Offsets.
  void locate() const;

  Die D;
  const AbbrevSlots *Slots;
  uint32_t AbbrevIdx;
  const Unit::AttrSpec *Begin = nullptr, *End = nullptr;
  /// Section offset of the DIE's first value.
  uint64_t Base = 0;
  /// For values not at a fixed place: each value's offset from Base,
  /// filled on the first such request (UINT32_MAX: past a bad value).
  mutable llvm::SmallVector<uint32_t, 16> Offsets;
};

inline llvm::dwarf::Tag Die::getTag() const {
  return llvm::dwarf::Tag(U->Dies[Idx].Tag);
}

inline bool Die::hasChildren() const {
  return U->Abbrevs[U->Dies[Idx].Abbrev].HasChildren;
}

inline Die::ChildIterator &Die::ChildIterator::operator++() {
  Idx = U->Dies[Idx].Next;
  return *this;
}

inline std::optional<uint64_t> FormValue::getAsUnsignedConstant() const {
  using namespace llvm::dwarf;
  switch (Form) {
  case DW_FORM_data1:
  case DW_FORM_data2:
  case DW_FORM_data4:
  case DW_FORM_data8:
  case DW_FORM_udata:
  case DW_FORM_implicit_const:
  case DW_FORM_flag:
  case DW_FORM_flag_present:
    return V;
  default:
    return std::nullopt;
  }
}

inline std::optional<int64_t> FormValue::getAsSignedConstant() const {
  using namespace llvm::dwarf;
  switch (Form) {
  case DW_FORM_data1:
    return int8_t(V);
  case DW_FORM_data2:
    return int16_t(V);
  case DW_FORM_data4:
    return int32_t(V);
  case DW_FORM_udata:
    if (V > uint64_t(INT64_MAX))
      return std::nullopt;
    return int64_t(V);
  case DW_FORM_data8:
  case DW_FORM_sdata:
  case DW_FORM_implicit_const:
  case DW_FORM_flag:
  case DW_FORM_flag_present:
    return int64_t(V);
  default:
    return std::nullopt;
  }
}

inline const char *FormValue::cstr() const {
  // The common forms here; the others, and every problem, in cstrSlow().
  if (Form == llvm::dwarf::DW_FORM_string)
    return Data;
  if (Form == llvm::dwarf::DW_FORM_strp)
    return U->cstrAt(U->File->section(Sec::Str), V);
  return cstrSlow();
}

inline llvm::StringRef FormValue::str() const {
  if (Form == llvm::dwarf::DW_FORM_string)
    return llvm::StringRef(Data, V);
  const char *S = cstr();
  return S ? llvm::StringRef(S) : llvm::StringRef();
}

/// A location expression that names one address and nothing else: its
/// first operation DW_OP_addr or DW_OP_addrx (DW_OP_GNU_addr_index), then
/// at most DW_OP_plus_uconst. Callers choose which of these they take (the
/// CTF builder one operation; llvm-symbolizer's DATA rule the constant too).
struct StaticLocation {
  uint64_t Address = 0; ///< The constant added.
  uint8_t Op = 0;       ///< The first operation.
  bool PlusConst = false;
};
/// Expr, an expression of a DIE of U, as a StaticLocation; nothing when it
/// is anything else, is cut short, or names an address-table entry U does
/// not have.
std::optional<StaticLocation> staticLocation(const Unit &U,
                                             llvm::ArrayRef<uint8_t> Expr);

} // namespace input
} // namespace dwarfpack

#endif
