//===- Unit.cpp - One unit's abbreviations, DIEs and values ---------------===//
//
// A unit is read as LLVM 19's DWARFUnit::extractDIEsToVector reads it: from
// the unit DIE until the null entry closing its children (or the unit DIE
// alone when it has none), stopping at a DIE that starts past the unit's end
// or uses an abbreviation the unit does not define. Values are decoded as
// DWARFFormValue decodes them; the differences are checks LLVM does not make
// (a value that runs past the end of its section is an error here, where
// LLVM would read outside the section).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/Dwarf.h"

#include "Bytes.h"
#include "dwarfpack/Support/LEB128.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;

namespace dwarfpack {
namespace input {

namespace {

Error unitError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string hex8(uint64_t V) { return formatv("{0:x-8}", V).str(); }

/// The fixed size of a form's value, -1 when it varies, -2 for a form this
/// reader does not know (LLVM's skipValue fails on it too).
int fixedFormSize(uint16_t Form, const UnitHeader &H) {
  using namespace dwarf;
  switch (Form) {
  case DW_FORM_addr:
    return H.AddrSize;
  case DW_FORM_data1:
  case DW_FORM_ref1:
  case DW_FORM_flag:
  case DW_FORM_strx1:
  case DW_FORM_addrx1:
    return 1;
  case DW_FORM_data2:
  case DW_FORM_ref2:
  case DW_FORM_strx2:
  case DW_FORM_addrx2:
    return 2;
  case DW_FORM_strx3:
  case DW_FORM_addrx3:
    return 3;
  case DW_FORM_data4:
  case DW_FORM_ref4:
  case DW_FORM_strx4:
  case DW_FORM_addrx4:
  case DW_FORM_ref_sup4:
    return 4;
  case DW_FORM_data8:
  case DW_FORM_ref8:
  case DW_FORM_ref_sig8:
  case DW_FORM_ref_sup8:
    return 8;
  case DW_FORM_data16:
    return 16;
  case DW_FORM_strp:
  case DW_FORM_line_strp:
  case DW_FORM_sec_offset:
  case DW_FORM_GNU_ref_alt:
  case DW_FORM_GNU_strp_alt:
  case DW_FORM_strp_sup:
    return H.OffsetSize;
  case DW_FORM_ref_addr:
    return H.Version <= 2 ? H.AddrSize : H.OffsetSize;
  case DW_FORM_flag_present:
  case DW_FORM_implicit_const:
    return 0;
  case DW_FORM_udata:
  case DW_FORM_sdata:
  case DW_FORM_ref_udata:
  case DW_FORM_strx:
  case DW_FORM_addrx:
  case DW_FORM_loclistx:
  case DW_FORM_rnglistx:
  case DW_FORM_GNU_addr_index:
  case DW_FORM_GNU_str_index:
  case DW_FORM_string:
  case DW_FORM_block:
  case DW_FORM_block1:
  case DW_FORM_block2:
  case DW_FORM_block4:
  case DW_FORM_exprloc:
  case DW_FORM_indirect:
  case DW_FORM_LLVM_addrx_offset:
    return -1;
  default:
    return -2;
  }
}

bool isStrxForm(uint16_t Form) {
  using namespace dwarf;
  return Form == DW_FORM_strx || Form == DW_FORM_strx1 ||
         Form == DW_FORM_strx2 || Form == DW_FORM_strx3 ||
         Form == DW_FORM_strx4 || Form == DW_FORM_GNU_str_index;
}

bool isAddrxForm(uint16_t Form) {
  using namespace dwarf;
  return Form == DW_FORM_addrx || Form == DW_FORM_addrx1 ||
         Form == DW_FORM_addrx2 || Form == DW_FORM_addrx3 ||
         Form == DW_FORM_addrx4 || Form == DW_FORM_GNU_addr_index ||
         Form == DW_FORM_LLVM_addrx_offset;
}

/// A value that runs past the end of its section: the whole file is
/// unusable (LLVM's reader would read outside the section).
class SectionOverrun : public ErrorInfo<SectionOverrun> {
public:
  static char ID;
  explicit SectionOverrun(std::string Msg) : Msg(std::move(Msg)) {}
  void log(raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return inconvertibleErrorCode();
  }

private:
  std::string Msg;
};
char SectionOverrun::ID;

} // namespace

bool isSectionOverrun(const Error &E) { return E.isA<SectionOverrun>(); }

//===----------------------------------------------------------------------===//
// FormValue
//===----------------------------------------------------------------------===//

std::optional<uint64_t> FormValue::getAsSectionOffset() const {
  using namespace dwarf;
  switch (Form) {
  case DW_FORM_sec_offset:
  case DW_FORM_data4:
  case DW_FORM_data8:
  case DW_FORM_strp:
  case DW_FORM_line_strp:
    return V;
  default:
    return std::nullopt;
  }
}

bool FormValue::isReference() const {
  using namespace dwarf;
  switch (Form) {
  case DW_FORM_ref1:
  case DW_FORM_ref2:
  case DW_FORM_ref4:
  case DW_FORM_ref8:
  case DW_FORM_ref_udata:
  case DW_FORM_ref_addr:
  case DW_FORM_ref_sig8:
  case DW_FORM_GNU_ref_alt:
  case DW_FORM_ref_sup4:
  case DW_FORM_ref_sup8:
    return true;
  default:
    return false;
  }
}

bool FormValue::isStringForm() const {
  using namespace dwarf;
  return Form == DW_FORM_string || Form == DW_FORM_strp ||
         Form == DW_FORM_line_strp || Form == DW_FORM_GNU_strp_alt ||
         Form == DW_FORM_strp_sup || isStrxForm(Form);
}

Expected<const char *> FormValue::getAsCString() const {
  using namespace dwarf;
  if (Form == DW_FORM_string)
    return Data;
  if (Form == DW_FORM_GNU_strp_alt || Form == DW_FORM_strp_sup) {
    const DwarfFile *Sup = U->File->Sup;
    if (!Sup)
      return unitError("a string of the supplementary DWARF file (dwz), "
                       "which is not available");
    if (const char *S = U->cstrAt(Sup->section(Sec::Str), V))
      return S;
    return unitError("string offset 0x" + utohexstr(V) +
                     " is past the end of the .debug_str of '" + Sup->name() +
                     "'");
  }
  uint64_t Offset = V;
  std::optional<uint64_t> Index;
  if (isStrxForm(Form)) {
    Expected<uint64_t> S = U->strOffset(V);
    if (!S)
      return S.takeError();
    Offset = *S;
    Index = V;
  } else if (Form != DW_FORM_strp && Form != DW_FORM_line_strp) {
    return unitError("Unsupported form for string attribute");
  }
  bool LineStr = Form == DW_FORM_line_strp;
  if (const char *S = U->cstrAt(
          U->File->section(LineStr ? Sec::LineStr : Sec::Str), Offset))
    return S;
  std::string Msg = FormEncodingString(Form).str();
  if (Index)
    Msg +=
        " uses index " + std::to_string(*Index) + ", but the referenced string";
  Msg += " offset " + std::to_string(Offset) + " is beyond " +
         (LineStr ? ".debug_line_str"
                  : sectionName(Sec::Str, U->File->isDwo()).str()) +
         " bounds";
  return unitError(Msg);
}

const char *FormValue::cstrSlow() const {
  Expected<const char *> S = getAsCString();
  if (!S) {
    consumeError(S.takeError());
    return nullptr;
  }
  return *S;
}

std::optional<ArrayRef<uint8_t>> FormValue::getAsBlock() const {
  using namespace dwarf;
  switch (Form) {
  case DW_FORM_block:
  case DW_FORM_block1:
  case DW_FORM_block2:
  case DW_FORM_block4:
  case DW_FORM_exprloc:
  case DW_FORM_data16:
    return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Data), V);
  default:
    return std::nullopt;
  }
}

std::optional<uint64_t> FormValue::getAsAddress() const {
  if (Form == dwarf::DW_FORM_addr)
    return V;
  if (!isAddrxForm(Form))
    return std::nullopt;
  std::optional<uint64_t> A = U->addrEntry(V);
  if (A && Form == dwarf::DW_FORM_LLVM_addrx_offset)
    *A += U->read(Data, 4);
  return A;
}

Placement FormValue::placement() const {
  const DwarfFile &F = *U->File;
  if (!F.isRelocatable())
    return Placement::Linked;
  if (Form == dwarf::DW_FORM_addr) {
    const RelocatedOffsets *R =
        F.relocated(U->Header.InTypesSection ? Sec::Types : Sec::Info);
    return R ? R->placementAt(SecOffset) : Placement::None;
  }
  if (isAddrxForm(Form))
    return U->addrEntryPlacement(V);
  return Placement::None;
}

//===----------------------------------------------------------------------===//
// Die
//===----------------------------------------------------------------------===//

uint64_t Die::getOffset() const {
  return U->Header.Offset + U->Dies[Idx].Offset;
}

std::optional<FormValue> Die::find(dwarf::Attribute A) const {
  return U->findAttr(Idx, A);
}

bool Die::hasAttribute(dwarf::Attribute A) const {
  const Unit::Abbrev &Ab = U->Abbrevs[U->Dies[Idx].Abbrev];
  for (uint32_t I = Ab.AttrBegin, E = Ab.AttrBegin + Ab.NumAttrs; I < E; ++I)
    if (U->Specs[I].Attr == A)
      return true;
  return false;
}

std::optional<FormValue>
Die::find(std::initializer_list<dwarf::Attribute> As) const {
  for (dwarf::Attribute A : As)
    if (std::optional<FormValue> V = U->findAttr(Idx, A))
      return V;
  return std::nullopt;
}

Die Die::getAttributeValueAsReferencedDie(dwarf::Attribute A) const {
  if (std::optional<FormValue> V = find(A))
    return getAttributeValueAsReferencedDie(*V);
  return Die();
}

Die Die::getAttributeValueAsReferencedDie(const FormValue &V) const {
  return U->refTarget(V);
}

std::optional<FormValue>
Die::findRecursively(ArrayRef<dwarf::Attribute> Attrs) const {
  // As LLVM's: depth first, the abstract origin pushed before the
  // specification (so the specification is looked at first), each DIE
  // once.
  SmallVector<Die, 3> Worklist{*this};
  SmallVector<Die, 4> Seen{*this};
  while (!Worklist.empty()) {
    Die D = Worklist.pop_back_val();
    if (!D)
      continue;
    for (dwarf::Attribute A : Attrs)
      if (auto V = D.find(A))
        return V;
    for (dwarf::Attribute A :
         {dwarf::DW_AT_abstract_origin, dwarf::DW_AT_specification})
      if (Die R = D.getAttributeValueAsReferencedDie(A))
        if (!is_contained(Seen, R) && Seen.size() < 64) {
          Seen.push_back(R);
          Worklist.push_back(R);
        }
  }
  return std::nullopt;
}

const char *Die::getLinkageNameOrName() const {
  // DWARFDie::getName(LinkageName): the linkage names (DW_AT_MIPS_linkage_name
  // first), then DW_AT_name, each found recursively.
  auto ToString = [](std::optional<FormValue> V) -> const char * {
    return V ? V->cstr() : nullptr;
  };
  if (const char *N = ToString(findRecursively(
          {dwarf::DW_AT_MIPS_linkage_name, dwarf::DW_AT_linkage_name})))
    return N;
  return ToString(findRecursively({dwarf::DW_AT_name}));
}

Die Die::getParent() const {
  if (Idx == 0)
    return Die();
  return Die(U, U->Dies[Idx].Parent);
}

Die Die::getFirstChild() const {
  if (!hasChildren())
    return Die();
  // A unit cut short may end right after the DIE; a childless list holds
  // only its closing null entry.
  if (Idx + 1 >= U->numDies() || U->Dies[Idx + 1].Abbrev == 0)
    return Die();
  return Die(U, Idx + 1);
}

Die Die::getSibling() const {
  uint32_t Next = U->Dies[Idx].Next;
  if (Idx == 0 || Next >= U->numDies() || U->Dies[Next].Abbrev == 0)
    return Die();
  return Die(U, Next);
}

uint32_t Die::subtreeEnd() const {
  return std::min<uint32_t>(U->Dies[Idx].Next, U->numDies());
}

Die::ChildRange Die::children() const {
  uint32_t End = U->Dies[Idx].Next;
  if (!hasChildren() || Idx + 1 >= End)
    return {{U, End}, {U, End}};
  // The children end at the null entry closing them (End - 1) when the
  // unit has it.
  bool Closed = U->Dies[End - 1].Abbrev == 0 && !is_contained(U->CutShort, Idx);
  uint32_t Last = Closed ? End - 1 : End;
  return {{U, Idx + 1}, {U, Last}};
}

//===----------------------------------------------------------------------===//
// Unit: reading values
//===----------------------------------------------------------------------===//

Unit::Unit() = default;
Unit::~Unit() = default;

bool Unit::isLittleEndian() const { return File->isLittleEndian(); }

uint64_t Unit::read(const char *P, unsigned N) const {
  return readFixed(P, N, File->isLittleEndian());
}

const char *Unit::cstrAt(StringRef S, uint64_t Off) const {
  if (Off >= S.size())
    return nullptr;
  // A string section ending in NUL terminates every string in it.
  if (S.back() == 0)
    return S.data() + Off;
  return memchr(S.data() + Off, 0, S.size() - size_t(Off)) ? S.data() + Off
                                                           : nullptr;
}

bool Unit::readValue(uint16_t Form, int64_t Const, uint64_t &Off,
                     FormValue *V) const {
  using namespace dwarf;
  const uint64_t End = Section.size();
  const uint64_t At = Off;
  uint64_t X = 0;
  const char *Data = nullptr;
  int Size = fixedFormSize(Form, Header);
  if (Size >= 0) {
    if (Off > End || End - Off < uint64_t(Size))
      return false;
    if (V) {
      if (Form == DW_FORM_implicit_const)
        X = uint64_t(Const);
      else if (Form == DW_FORM_flag_present)
        X = 1;
      else if (Form == DW_FORM_data16) {
        Data = Section.data() + Off;
        X = 16;
      } else
        X = read(Section.data() + Off, Size);
    }
    Off += Size;
  } else {
    switch (Form) {
    case DW_FORM_sdata: {
      int64_t S;
      if (!readSLEB(Section, Off, End, S))
        return false;
      X = uint64_t(S);
      break;
    }
    case DW_FORM_string: {
      if (Off >= End)
        return false;
      const void *Nul = memchr(Section.data() + Off, 0, End - Off);
      if (!Nul)
        return false;
      Data = Section.data() + Off;
      X = static_cast<const char *>(Nul) - Data;
      Off += X + 1;
      break;
    }
    case DW_FORM_block1:
    case DW_FORM_block2:
    case DW_FORM_block4: {
      unsigned N = Form == DW_FORM_block1 ? 1 : Form == DW_FORM_block2 ? 2 : 4;
      if (Off > End || End - Off < N)
        return false;
      X = read(Section.data() + Off, N);
      Off += N;
      if (End - Off < X)
        return false;
      Data = Section.data() + Off;
      Off += X;
      break;
    }
    case DW_FORM_block:
    case DW_FORM_exprloc:
      if (!readULEB(Section, Off, End, X) || End - Off < X)
        return false;
      Data = Section.data() + Off;
      Off += X;
      break;
    case DW_FORM_LLVM_addrx_offset:
      if (!readULEB(Section, Off, End, X) || End - Off < 4)
        return false;
      Data = Section.data() + Off;
      Off += 4;
      break;
    case DW_FORM_indirect: {
      // The form is in the data; LLVM follows chains of them.
      uint64_t Actual;
      for (unsigned Hops = 0;; ++Hops) {
        if (Hops == 8 || !readULEB(Section, Off, End, Actual) ||
            Actual > 0xffff || Actual == DW_FORM_implicit_const)
          return false;
        if (Actual != DW_FORM_indirect)
          break;
      }
      if (fixedFormSize(Actual, Header) == -2)
        return false;
      return readValue(uint16_t(Actual), 0, Off, V);
    }
    default: // the ULEB128 forms
      if (!readULEB(Section, Off, End, X))
        return false;
      break;
    }
  }
  if (V)
    *V = FormValue(this, Form, X, Data, At);
  return true;
}

bool Unit::readSpec(const AttrSpec &S, uint64_t &Off, FormValue *V) const {
  if (S.Size >= 0 && !V) {
    // parseDies() checked that every value of every DIE fits the section.
    Off += S.Size;
    return true;
  }
  return readValue(S.Form, S.Const, Off, V);
}

bool Unit::decodeSpec(const AttrSpec &S, uint64_t &Off, FormValue &V) const {
  using namespace dwarf;
  if (S.Size < 0)
    return readValue(S.Form, S.Const, Off, &V);
  const uint64_t End = Section.size();
  if (Off > End || End - Off < uint64_t(S.Size))
    return false;
  const char *P = Section.data() + Off;
  uint64_t X;
  const char *Data = nullptr;
  switch (S.Form) {
  case DW_FORM_implicit_const:
    X = uint64_t(S.Const);
    break;
  case DW_FORM_flag_present:
    X = 1;
    break;
  case DW_FORM_data16:
    Data = P;
    X = 16;
    break;
  default:
    X = read(P, S.Size);
    break;
  }
  V = FormValue(this, S.Form, X, Data, Off);
  Off += S.Size;
  return true;
}

bool Unit::skipVariable(uint16_t Form, uint64_t &Off) const {
  using namespace dwarf;
  // readValue() without a value, for the forms DIEs use most.
  const uint64_t End = Section.size();
  uint64_t X;
  switch (Form) {
  case DW_FORM_string: {
    if (Off >= End)
      return false;
    const void *Nul = memchr(Section.data() + Off, 0, End - Off);
    if (!Nul)
      return false;
    Off = static_cast<const char *>(Nul) - Section.data() + 1;
    return true;
  }
  case DW_FORM_udata:
  case DW_FORM_ref_udata:
  case DW_FORM_strx:
  case DW_FORM_addrx:
  case DW_FORM_loclistx:
  case DW_FORM_rnglistx:
  case DW_FORM_GNU_addr_index:
  case DW_FORM_GNU_str_index:
    return readULEB(Section, Off, End, X);
  case DW_FORM_sdata: {
    int64_t S;
    return readSLEB(Section, Off, End, S);
  }
  case DW_FORM_block:
  case DW_FORM_exprloc:
    if (!readULEB(Section, Off, End, X) || End - Off < X)
      return false;
    Off += X;
    return true;
  default:
    return readValue(Form, 0, Off, nullptr);
  }
}

bool Unit::offsetOf(uint32_t Idx, uint32_t I, uint64_t &Off) const {
  const Abbrev &Ab = Abbrevs[Dies[Idx].Abbrev];
  Off = Header.Offset + Dies[Idx].Attrs;
  if (Specs[I].FixedOffset >= 0) {
    Off += Specs[I].FixedOffset;
    return true;
  }
  for (uint32_t J = Ab.AttrBegin; J < I; ++J) {
    const AttrSpec &S = Specs[J];
    if (S.Size >= 0)
      Off += S.Size; // parseDies() checked that they fit
    else if (!skipVariable(S.Form, Off))
      return false;
  }
  return true;
}

std::optional<FormValue> Unit::findAttr(uint32_t Idx,
                                        dwarf::Attribute A) const {
  const Abbrev &Ab = Abbrevs[Dies[Idx].Abbrev];
  uint32_t B = Ab.AttrBegin, E = Ab.AttrBegin + Ab.NumAttrs, I = B;
  while (I < E && Specs[I].Attr != A)
    ++I;
  // Decoded in place, as DieAttrView::valueOf decodes.
  std::optional<FormValue> V;
  uint64_t Off;
  if (I != E && offsetOf(Idx, I, Off) &&
      !decodeSpec(Specs[I], Off, V.emplace()))
    V.reset();
  return V;
}

void Unit::readAttrs(
    uint32_t Idx, const AttrSet &Want,
    SmallVectorImpl<std::pair<dwarf::Attribute, FormValue>> &Out) const {
  const Abbrev &Ab = Abbrevs[Dies[Idx].Abbrev];
  uint64_t Off = Header.Offset + Dies[Idx].Attrs;
  for (uint32_t I = Ab.AttrBegin, E = Ab.AttrBegin + Ab.NumAttrs; I < E; ++I) {
    const AttrSpec &S = Specs[I];
    if (!Want.contains(S.Attr)) {
      if (S.Size >= 0)
        Off += S.Size; // parseDies() checked that it fits
      else if (!skipVariable(S.Form, Off))
        return;
      continue;
    }
    // Decoded in place (see DieAttrView::valueOf).
    Out.emplace_back(dwarf::Attribute(S.Attr), FormValue());
    if (!decodeSpec(S, Off, Out.back().second)) {
      Out.pop_back();
      return;
    }
  }
}

//===----------------------------------------------------------------------===//
// DieAttrView
//===----------------------------------------------------------------------===//

AttrSlots::AttrSlots(ArrayRef<dwarf::Attribute> List) {
  BySlotIndex.fill(-1);
  for (dwarf::Attribute A : List) {
    assert(Attrs.size() < 127 && "too many slots");
    assert(!is_contained(Attrs, A) && "an attribute twice");
    int8_t &S = BySlotIndex[A & 0x3fff];
    S = S == -1 ? int8_t(Attrs.size()) : Shared;
    Attrs.push_back(A);
  }
}

int AttrSlots::slotOfSlow(uint16_t A) const {
  auto It = llvm::find(Attrs, A);
  return It == Attrs.end() ? -1 : int(It - Attrs.begin());
}

AbbrevSlots::AbbrevSlots(const Unit &U, const AttrSlots &Slots)
    : U(&U), Width(Slots.size()), Map(U.Abbrevs.size() * Width, -1) {
  for (size_t A = 0; A < U.Abbrevs.size(); ++A) {
    const Unit::Abbrev &Ab = U.Abbrevs[A];
    // The first of an attribute given twice counts, as in Die::find.
    for (uint32_t I = Ab.NumAttrs; I-- > 0;)
      if (int S = Slots.slotOf(U.Specs[Ab.AttrBegin + I].Attr); S >= 0)
        Map[A * Width + S] = int32_t(I);
  }
}

DieAttrView::DieAttrView(const Die &D, const AbbrevSlots *Slots)
    : D(D), Slots(Slots) {
  const Unit &U = *D.getDwarfUnit();
  assert((!Slots || &Slots->unit() == &U) && "another unit's map");
  const Unit::DieRecord &R = U.Dies[D.index()];
  AbbrevIdx = R.Abbrev;
  const Unit::Abbrev &Ab = U.Abbrevs[AbbrevIdx];
  Begin = U.Specs.data() + Ab.AttrBegin;
  End = Begin + Ab.NumAttrs;
  Base = U.Header.Offset + R.Attrs;
}

void DieAttrView::locate() const {
  const Unit &U = *D.getDwarfUnit();
  uint64_t Off = Base;
  bool Bad = false;
  Offsets.resize(End - Begin);
  for (const Unit::AttrSpec *S = Begin; S != End; ++S) {
    Offsets[S - Begin] = Bad ? UINT32_MAX : uint32_t(Off - Base);
    if (Bad)
      continue;
    if (S->Size >= 0)
      Off += S->Size; // parseDies() checked that it fits
    else
      Bad = !U.skipVariable(S->Form, Off) || Off - Base >= UINT32_MAX;
  }
}

std::optional<FormValue> DieAttrView::valueOf(const Unit::AttrSpec &S) const {
  // Decoded in place, one object on every path: a value decoded on the
  // stack and then copied out as a whole was read back before its stores
  // had landed (a store-forwarding stall in every attribute a model reads:
  // a tenth of a kernel's CTF conversion).
  std::optional<FormValue> V(std::in_place);
  uint64_t Off = Base;
  bool OK = true;
  if (S.FixedOffset >= 0) {
    Off += S.FixedOffset;
  } else {
    if (Offsets.empty())
      locate();
    uint32_t Rel = Offsets[&S - Begin];
    OK = Rel != UINT32_MAX;
    Off += Rel;
  }
  if (!OK || !D.getDwarfUnit()->decodeSpec(S, Off, *V))
    V.reset();
  return V;
}

//===----------------------------------------------------------------------===//
// Unit: parsing
//===----------------------------------------------------------------------===//

std::string Unit::codeRanges() const {
  // As LLVM lists them: in declaration order, runs of consecutive codes as
  // ranges.
  std::string Out;
  for (size_t I = 1; I < Abbrevs.size();) {
    uint64_t Start = Abbrevs[I].Code, End = Start;
    while (++I < Abbrevs.size() && Abbrevs[I].Code == End + 1)
      ++End;
    Out += std::to_string(Start);
    if (End != Start)
      Out += "-" + std::to_string(End);
    if (I < Abbrevs.size())
      Out += ", ";
  }
  return Out;
}

uint32_t Unit::abbrevForSparse(uint64_t Code) const {
  auto It = SparseCodes.find(Code);
  return It == SparseCodes.end() ? 0 : It->second;
}

Error Unit::parseAbbrevs(uint64_t Off) {
  StringRef Sec = File->section(Sec::Abbrev);
  auto Invalid = [&] {
    return unitError("DWARF unit at offset 0x" + hex8(Header.Offset) +
                     " contains invalid abbreviation set offset 0x" +
                     utohexstr(Header.AbbrevOffset + Header.Contrib.Abbrev,
                               /*LowerCase=*/true));
  };
  Abbrevs.assign(1, Abbrev()); // index 0: null entries
  CodeIndex.clear();
  SparseCodes.clear();
  Specs.clear();
  Steps.clear();
  uint64_t End = Sec.size();
  if (Off >= End)
    return Invalid();
  while (true) {
    uint64_t Code, Tag;
    if (!readULEB(Sec, Off, End, Code))
      return Invalid();
    if (Code == 0)
      return Error::success();
    if (!readULEB(Sec, Off, End, Tag) || Off >= End)
      return Invalid();
    uint8_t Children = Sec[Off++];
    if (Tag == 0 || Tag > 0xffff)
      return Invalid();
    uint32_t Index = Abbrevs.size();
    Abbrev A;
    A.Code = Code;
    A.Tag = Tag;
    A.HasChildren = Children == dwarf::DW_CHILDREN_yes;
    A.AttrBegin = Specs.size();
    A.StepBegin = Steps.size();
    int64_t Fixed = 0;
    // Fixed-size bytes since the last variable-size value.
    uint64_t Run = 0;
    while (true) {
      uint64_t Attr, Form;
      if (!readULEB(Sec, Off, End, Attr) || !readULEB(Sec, Off, End, Form))
        return Invalid();
      if (Attr == 0 && Form == 0)
        break;
      if (Attr == 0 || Attr > 0xffff || Form > 0xffff)
        return Invalid();
      AttrSpec S{uint16_t(Attr), uint16_t(Form), -1, int32_t(Fixed), 0};
      if (Form == dwarf::DW_FORM_implicit_const &&
          !readSLEB(Sec, Off, End, S.Const))
        return Invalid();
      int Size = fixedFormSize(Form, Header);
      S.Size = int16_t(Size < 0 ? -1 : Size);
      Specs.push_back(S);
      Fixed = Size < 0 || Fixed < 0 ? -1 : Fixed + Size;
      if (Size == -2)
        A.UnknownForm = true;
      if (Size >= 0) {
        Run += Size;
      } else {
        Steps.push_back(
            {uint32_t(std::min<uint64_t>(Run, UINT32_MAX)), uint16_t(Form)});
        Run = 0;
      }
    }
    A.NumAttrs = Specs.size() - A.AttrBegin;
    A.FixedSize = Fixed;
    A.NumSteps = Steps.size() - A.StepBegin;
    A.TailSize = uint32_t(std::min<uint64_t>(Run, UINT32_MAX));
    Abbrevs.push_back(A);
    // The first definition of a code counts, as in LLVM's linear search.
    if (Code < (1u << 16)) {
      if (Code >= CodeIndex.size())
        CodeIndex.resize(Code + 1, 0);
      if (!CodeIndex[Code])
        CodeIndex[Code] = Index;
    } else {
      SparseCodes.try_emplace(Code, Index);
    }
  }
}

Error Unit::parseDies() {
  using namespace dwarf;
  const uint64_t UnitEnd = Header.end();
  const uint64_t SecEnd = Section.size();
  // Offsets are kept relative to the unit, in 32 bits.
  const uint64_t Limit = std::min<uint64_t>(SecEnd, Header.Offset + UINT32_MAX);
  Dies.clear();
  // About one DIE for 12 bytes of a unit; the buffer is reused unit after
  // unit.
  Dies.reserve(Bytes.size() / 12 + 1);
  SmallVector<uint32_t, 32> Open;
  uint64_t Off = Header.Offset + Header.HeaderSize;
  std::string Problem;
  // A DIE whose code or values run past the section (LLVM would read past
  // its end): the unit cannot be read.
  auto overrun = [&](uint64_t Start) {
    return Error(std::make_unique<SectionOverrun>(
        sectionName(Header.InTypesSection ? Sec::Types : Sec::Info,
                    File->isDwo())
            .str() +
        ": the DIE at 0x" + utohexstr(Start, true) + " (unit at 0x" +
        utohexstr(Header.Offset, true) +
        ") has attribute values that run past the end of the section (0x" +
        utohexstr(SecEnd, true) + " bytes)"));
  };
  while (true) {
    uint64_t Start = Off;
    if (Start >= UnitEnd) {
      Problem = "DWARF unit from offset 0x" + hex8(Header.Offset) +
                " incl. to offset 0x" + hex8(UnitEnd) +
                " excl. tries to read DIEs at offset 0x" + hex8(Start);
      break;
    }
    uint64_t Code;
    if (!readULEB(Section, Off, Limit, Code))
      return overrun(Start);
    uint32_t Idx = Dies.size();
    uint32_t AbbrevIdx = Code ? abbrevFor(Code) : 0;
    if (Code && !AbbrevIdx) {
      Problem = "DWARF unit at offset 0x" + hex8(Header.Offset) +
                " contains invalid abbreviation " + std::to_string(Code) +
                " at offset 0x" + hex8(Off) + ", valid abbreviations are " +
                codeRanges();
      break;
    }
    Dies.push_back({uint32_t(Start - Header.Offset),
                    uint32_t(Off - Header.Offset), AbbrevIdx, Idx + 1,
                    Open.empty() ? 0 : Open.back(), 0});
    if (!Code) {
      if (Open.empty())
        break; // a null entry in place of the unit DIE
      Dies[Open.pop_back_val()].Next = Idx + 1;
      if (Open.empty())
        break; // the unit DIE's children end
      continue;
    }
    const Abbrev &A = Abbrevs[AbbrevIdx];
    Dies.back().Tag = A.Tag;
    bool Fits = true;
    if (A.FixedSize >= 0) {
      Fits = Off <= Limit && Limit - Off >= uint64_t(A.FixedSize);
      Off += A.FixedSize;
    } else if (!A.UnknownForm) {
      // Runs of fixed-size values at once (a run that does not fit fails
      // as its first value that does not would).
      const SkipStep *St = Steps.data() + A.StepBegin;
      for (const SkipStep *E = St + A.NumSteps; St != E && Fits; ++St) {
        Fits = Off <= Limit && Limit - Off >= St->FixedBefore;
        Off += St->FixedBefore;
        Fits = Fits && skipVariable(St->Form, Off);
      }
      Fits = Fits && Off <= Limit && Limit - Off >= A.TailSize;
      Off += A.TailSize;
    } else {
      for (uint32_t I = A.AttrBegin, E = A.AttrBegin + A.NumAttrs;
           I < E && Fits; ++I) {
        const AttrSpec &S = Specs[I];
        if (S.Size >= 0) {
          Fits = Off <= Limit && Limit - Off >= uint64_t(S.Size);
          Off += S.Size;
        } else if (fixedFormSize(S.Form, Header) == -2) {
          Problem = "DWARF unit at offset 0x" + hex8(Header.Offset) +
                    " contains invalid FORM_* 0x" +
                    utohexstr(S.Form, /*LowerCase=*/true) + " at offset 0x" +
                    hex8(Off);
          break;
        } else {
          Fits = readValue(S.Form, S.Const, Off, nullptr);
        }
      }
      if (!Problem.empty()) {
        // The DIE is dropped, as LLVM drops it.
        Dies.pop_back();
        break;
      }
    }
    if (!Fits)
      return overrun(Start);
    if (Idx == 0 && (UnitDieOnly || !A.HasChildren))
      break; // a unit DIE without children, or only the unit DIE wanted
    if (A.HasChildren)
      Open.push_back(Idx);
  }
  // Subtrees left open by a unit cut short end with it.
  CutShort.clear();
  for (uint32_t I : Open) {
    Dies[I].Next = Dies.size();
    CutShort.push_back(I);
  }
  if (Dies.empty())
    return unitError(Problem.empty() ? "DWARF unit at offset 0x" +
                                           hex8(Header.Offset) + " has no DIEs"
                                     : Problem);
  uint64_t Span = std::max<uint64_t>(Bytes.size(), Off - Header.Offset);
  // Block B's first DIE is the first whose offset is in block B or after.
  FirstDieInBlock.resize((Span >> BlockBits) + 1);
  uint32_t *Block = FirstDieInBlock.data(),
           *BlocksEnd = Block + FirstDieInBlock.size();
  for (uint32_t I = 0, N = Dies.size(); I < N; ++I) {
    uint32_t *Through = FirstDieInBlock.data() + (Dies[I].Offset >> BlockBits);
    for (; Block <= Through && Block != BlocksEnd; ++Block)
      *Block = I;
  }
  std::fill(Block, BlocksEnd, uint32_t(Dies.size()));
  if (!Problem.empty())
    PartialProblem = std::move(Problem);
  return Error::success();
}

Die Unit::getDIEForOffset(uint64_t Offset) const {
  if (Offset < Header.Offset)
    return Die();
  uint64_t Rel = Offset - Header.Offset;
  if ((Rel >> BlockBits) >= FirstDieInBlock.size())
    return Die();
  uint32_t I = FirstDieInBlock[Rel >> BlockBits], N = Dies.size();
  while (I < N && Dies[I].Offset < Rel)
    ++I;
  if (I == N || Dies[I].Offset != Rel)
    return Die();
  return Die(this, I);
}

Error Unit::parse(const DwarfFile &F, const UnitHeader &H, const Unit *Skel,
                  bool DieOnly) {
  File = &F;
  UnitDieOnly = DieOnly;
  Header = H;
  Section = F.section(H.InTypesSection ? Sec::Types : Sec::Info);
  PartialProblem.clear();
  BaseAddress.reset();
  BaseAddressPlacement = Placement::Linked;
  AddrSection = StringRef();
  AddrFile = nullptr;
  AddrBase.reset();
  StrOffsetsBase.reset();
  StrOffsetSize = H.OffsetSize;
  RngListsBase.reset();
  RangesBase = 0;
  RangesSection = StringRef();
  RangesFile = nullptr;
  Dies.clear();
  if (H.end() > Section.size())
    return unitError("DWARF unit at 0x" + hex8(H.Offset) +
                     " cannot be parsed: the unit extends past the section");
  Bytes = Section.substr(H.Offset, H.Size);
  if (Error E = parseAbbrevs(H.AbbrevOffset + H.Contrib.Abbrev))
    return E;
  if (Error E = parseDies())
    return E;
  setUpBases(Skel);
  return Error::success();
}

std::optional<StaticLocation> staticLocation(const Unit &U,
                                             ArrayRef<uint8_t> Expr) {
  if (Expr.empty())
    return std::nullopt;
  const uint8_t *P = Expr.begin(), *End = Expr.end();
  StaticLocation L;
  L.Op = *P++;
  unsigned N = 0;
  const char *Problem = nullptr;
  if (L.Op == dwarf::DW_OP_addr) {
    const unsigned Size = U.getAddressByteSize();
    if (Size == 0 || Size > 8 || unsigned(End - P) < Size)
      return std::nullopt;
    for (unsigned I = 0; I < Size; ++I)
      L.Address |= uint64_t(P[I])
                   << (8 * (U.isLittleEndian() ? I : Size - 1 - I));
    P += Size;
  } else if (L.Op == dwarf::DW_OP_addrx ||
             L.Op == dwarf::DW_OP_GNU_addr_index) {
    uint64_t Index = decodeULEB128Bounded(P, &N, End, &Problem);
    std::optional<uint64_t> A = Problem ? std::nullopt : U.addrEntry(Index);
    if (!A)
      return std::nullopt;
    L.Address = *A;
    P += N;
  } else {
    return std::nullopt;
  }
  if (P != End && *P == dwarf::DW_OP_plus_uconst) {
    L.Address += decodeULEB128Bounded(P + 1, &N, End, &Problem);
    if (Problem)
      return std::nullopt;
    L.PlusConst = true;
    P += 1 + N;
  }
  if (P != End)
    return std::nullopt;
  return L;
}

} // namespace input
} // namespace dwarfpack
