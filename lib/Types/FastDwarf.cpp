//===- FastDwarf.cpp - A small DWARF reader for type conversion -----------===//

#include "FastDwarf.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace llvm;

namespace dwarfpack {
namespace types {
namespace fast {

namespace {
uint64_t readLE(const char *P, unsigned N) {
  switch (N) {
  case 1:
    return uint8_t(*P);
  case 2:
    return support::endian::read16le(P);
  case 4:
    return support::endian::read32le(P);
  case 8:
    return support::endian::read64le(P);
  default:
    break;
  }
  uint64_t V = 0;
  for (unsigned I = 0; I < N; ++I)
    V |= uint64_t(uint8_t(P[I])) << (8 * I);
  return V;
}

/// ULEB128 at *Off of S, bounded by End. Fails (rather than guessing) on
/// truncation and on values wider than 64 bits.
inline bool readULEB(StringRef S, uint64_t &Off, uint64_t End, uint64_t &V) {
  if (LLVM_LIKELY(Off < End && !(S[Off] & 0x80))) {
    V = uint8_t(S[Off++]);
    return true;
  }
  V = 0;
  unsigned Shift = 0;
  while (true) {
    if (Off >= End)
      return false;
    uint8_t B = S[Off++];
    uint64_t Slice = B & 0x7f;
    if (Shift >= 64 || (Shift == 63 && Slice > 1))
      return false;
    V |= Slice << Shift;
    Shift += 7;
    if (!(B & 0x80))
      return true;
  }
}

bool readSLEB(StringRef S, uint64_t &Off, uint64_t End, int64_t &V) {
  uint64_t R = 0;
  unsigned Shift = 0;
  uint8_t B;
  do {
    if (Off >= End || Shift >= 64)
      return false;
    B = S[Off++];
    uint64_t Slice = B & 0x7f;
    if (Shift == 63 && Slice != 0 && Slice != 0x7f)
      return false;
    R |= Slice << Shift;
    Shift += 7;
  } while (B & 0x80);
  if (Shift < 64 && (B & 0x40))
    R |= ~uint64_t(0) << Shift;
  V = int64_t(R);
  return true;
}

/// Fixed size of a form's value (DWARF32), -1 when variable, -2 when the
/// form is not handled here.
int fixedFormSize(uint64_t Form, uint8_t AddrSize) {
  switch (Form) {
  case dwarf::DW_FORM_addr:
    return AddrSize;
  case dwarf::DW_FORM_data1:
  case dwarf::DW_FORM_ref1:
  case dwarf::DW_FORM_flag:
  case dwarf::DW_FORM_strx1:
  case dwarf::DW_FORM_addrx1:
    return 1;
  case dwarf::DW_FORM_data2:
  case dwarf::DW_FORM_ref2:
  case dwarf::DW_FORM_strx2:
  case dwarf::DW_FORM_addrx2:
    return 2;
  case dwarf::DW_FORM_strx3:
  case dwarf::DW_FORM_addrx3:
    return 3;
  case dwarf::DW_FORM_data4:
  case dwarf::DW_FORM_ref4:
  case dwarf::DW_FORM_strx4:
  case dwarf::DW_FORM_addrx4:
  case dwarf::DW_FORM_strp:
  case dwarf::DW_FORM_line_strp:
  case dwarf::DW_FORM_sec_offset:
    return 4;
  case dwarf::DW_FORM_data8:
  case dwarf::DW_FORM_ref8:
    return 8;
  case dwarf::DW_FORM_flag_present:
  case dwarf::DW_FORM_implicit_const:
    return 0;
  case dwarf::DW_FORM_udata:
  case dwarf::DW_FORM_sdata:
  case dwarf::DW_FORM_ref_udata:
  case dwarf::DW_FORM_strx:
  case dwarf::DW_FORM_addrx:
  case dwarf::DW_FORM_loclistx:
  case dwarf::DW_FORM_rnglistx:
  case dwarf::DW_FORM_string:
  case dwarf::DW_FORM_block:
  case dwarf::DW_FORM_block1:
  case dwarf::DW_FORM_block2:
  case dwarf::DW_FORM_block4:
  case dwarf::DW_FORM_exprloc:
    return -1;
  default:
    // ref_addr, ref_sig8, indirect, data16, GNU and supplementary forms.
    return -2;
  }
}

/// The attributes the type converter reads through a DieView (the others
/// are skipped when a DIE's attributes are decoded).
bool isWanted(uint64_t Attr) {
  switch (Attr) {
  case dwarf::DW_AT_name:
  case dwarf::DW_AT_byte_size:
  case dwarf::DW_AT_type:
  case dwarf::DW_AT_encoding:
  case dwarf::DW_AT_declaration:
  case dwarf::DW_AT_signature:
  case dwarf::DW_AT_data_bit_offset:
  case dwarf::DW_AT_data_member_location:
  case dwarf::DW_AT_bit_offset:
  case dwarf::DW_AT_bit_size:
  case dwarf::DW_AT_external:
  case dwarf::DW_AT_count:
  case dwarf::DW_AT_upper_bound:
  case dwarf::DW_AT_lower_bound:
  case dwarf::DW_AT_const_value:
  case dwarf::DW_AT_abstract_origin:
  case dwarf::DW_AT_specification:
  case dwarf::DW_AT_location:
  case dwarf::DW_AT_low_pc:
  case dwarf::DW_AT_ranges:
  case dwarf::DW_AT_linkage_name:
  case dwarf::DW_AT_MIPS_linkage_name:
  case dwarf::DW_AT_addr_base:
    return true;
  default:
    return false;
  }
}

bool isStrx(uint16_t Form) {
  return Form == dwarf::DW_FORM_strx || Form == dwarf::DW_FORM_strx1 ||
         Form == dwarf::DW_FORM_strx2 || Form == dwarf::DW_FORM_strx3 ||
         Form == dwarf::DW_FORM_strx4;
}
} // namespace

// ---------------------------------------------------------------------------
// FormValue: the same answers as DWARFFormValue for the forms Unit accepts.

std::optional<int64_t> FormValue::getAsSignedConstant() const {
  switch (Form) {
  case dwarf::DW_FORM_data1:
    return int8_t(V);
  case dwarf::DW_FORM_data2:
    return int16_t(V);
  case dwarf::DW_FORM_data4:
    return int32_t(V);
  case dwarf::DW_FORM_udata:
    if (V > uint64_t(INT64_MAX))
      return std::nullopt;
    return int64_t(V);
  case dwarf::DW_FORM_data8:
  case dwarf::DW_FORM_sdata:
  case dwarf::DW_FORM_implicit_const:
  case dwarf::DW_FORM_flag:
  case dwarf::DW_FORM_flag_present:
    return int64_t(V);
  default:
    return std::nullopt;
  }
}

std::optional<const char *> FormValue::getAsCString() const {
  switch (Form) {
  case dwarf::DW_FORM_string:
    return Data;
  case dwarf::DW_FORM_strp:
    if (const char *S = U->cstrAt(U->Secs.Str, V))
      return S;
    return std::nullopt;
  case dwarf::DW_FORM_line_strp:
    if (const char *S = U->cstrAt(U->Secs.LineStr, V))
      return S;
    return std::nullopt;
  case dwarf::DW_FORM_strx:
  case dwarf::DW_FORM_strx1:
  case dwarf::DW_FORM_strx2:
  case dwarf::DW_FORM_strx3:
  case dwarf::DW_FORM_strx4: {
    if (!U->HasStrOffsets)
      return std::nullopt;
    // As LLVM: a 32-bit index, bounded by the section (not the table).
    uint64_t Off = U->StrOffsetsBase + uint64_t(uint32_t(V)) * 4;
    if (U->Secs.StrOffsets.size() < Off + 4)
      return std::nullopt;
    uint64_t StrOff = readLE(U->Secs.StrOffsets.data() + Off, 4);
    if (const char *S = U->cstrAt(U->Secs.Str, StrOff))
      return S;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

std::optional<ArrayRef<uint8_t>> FormValue::getAsBlock() const {
  switch (Form) {
  case dwarf::DW_FORM_block:
  case dwarf::DW_FORM_block1:
  case dwarf::DW_FORM_block2:
  case dwarf::DW_FORM_block4:
  case dwarf::DW_FORM_exprloc:
    return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Data), V);
  default:
    return std::nullopt;
  }
}

std::optional<uint64_t> FormValue::getAsAddress() const {
  switch (Form) {
  case dwarf::DW_FORM_addr:
    return V;
  case dwarf::DW_FORM_addrx:
  case dwarf::DW_FORM_addrx1:
  case dwarf::DW_FORM_addrx2:
  case dwarf::DW_FORM_addrx3:
  case dwarf::DW_FORM_addrx4:
    return U->addrEntry(V);
  default:
    return std::nullopt;
  }
}

std::optional<uint64_t> Unit::addrEntry(uint64_t Index) const {
  if (!AddrBase || Index > (Secs.Addr.size() - *AddrBase) / AddrSize)
    return std::nullopt;
  uint64_t Off = *AddrBase + Index * AddrSize;
  if (Secs.Addr.size() - Off < AddrSize)
    return std::nullopt;
  return readLE(Secs.Addr.data() + Off, AddrSize);
}

// ---------------------------------------------------------------------------
// Die

uint64_t Die::getOffset() const { return U->DieOffset[Idx]; }

std::optional<FormValue> Die::find(dwarf::Attribute A) const {
  return U->findAttr(Idx, A);
}

Die Die::getAttributeValueAsReferencedDie(dwarf::Attribute A) const {
  if (std::optional<FormValue> V = find(A))
    return getAttributeValueAsReferencedDie(*V);
  return Die();
}

Die Die::getAttributeValueAsReferencedDie(const FormValue &V) const {
  if (std::optional<uint64_t> Rel = V.getAsRelativeReference())
    return U->getDIEForOffset(*Rel);
  return Die();
}

const char *Die::getLinkageNameOrName() const {
  // DWARFDie::getName(LinkageName): findRecursively for the linkage names
  // (DW_AT_MIPS_linkage_name first), then for DW_AT_name; each search
  // takes the DIE, then (depth first, the specification before the
  // abstract origin) the DIEs those refer to, each once.
  auto FindRecursively =
      [&](ArrayRef<dwarf::Attribute> Attrs) -> std::optional<FormValue> {
    SmallVector<Die, 3> Worklist{*this};
    SmallSet<uint32_t, 3> Seen;
    Seen.insert(Idx);
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
          if (Seen.insert(R.Idx).second)
            Worklist.push_back(R);
    }
    return std::nullopt;
  };
  auto ToString = [](std::optional<FormValue> V) -> const char * {
    if (V)
      if (auto S = V->getAsCString())
        return *S;
    return nullptr;
  };
  if (const char *N = ToString(FindRecursively(
          {dwarf::DW_AT_MIPS_linkage_name, dwarf::DW_AT_linkage_name})))
    return N;
  return ToString(FindRecursively({dwarf::DW_AT_name}));
}

Die::ChildRange Die::children() const {
  uint32_t End = U->DieNext[Idx];
  if (!U->Abbrevs[U->DieCode[Idx]].HasChildren)
    return {{U, End}, {U, End}};
  // The children end at the null entry closing them (End - 1).
  return {{U, Idx + 1}, {U, End - 1}};
}

// ---------------------------------------------------------------------------
// Unit

const char *Unit::cstrAt(StringRef Section, uint64_t Off) const {
  if (Off >= Section.size())
    return nullptr;
  // A string section ending in NUL terminates every string in it.
  if (Section.back() == 0)
    return Section.data() + Off;
  const void *Nul =
      memchr(Section.data() + Off, 0, Section.size() - size_t(Off));
  return Nul ? Section.data() + Off : nullptr;
}

Die Unit::getDIEForOffset(uint64_t Offset) const {
  if (Offset >= Bytes.size())
    return Die();
  uint32_t I = FirstDieInBlock[Offset >> BlockBits], N = DieOffset.size();
  while (I < N && DieOffset[I] < Offset)
    ++I;
  if (I == N || DieOffset[I] != Offset)
    return Die();
  return Die(this, I);
}

bool Unit::readValue(const AttrSpec &Spec, uint64_t &Off, FormValue *V) const {
  uint64_t End = Bytes.size();
  if (Spec.Size >= 0) {
    if (End - Off < uint64_t(Spec.Size))
      return false;
    if (V) {
      uint64_t X = Spec.Form == dwarf::DW_FORM_implicit_const
                       ? uint64_t(Spec.Const)
                   : Spec.Form == dwarf::DW_FORM_flag_present
                       ? 1
                       : readLE(Bytes.data() + Off, Spec.Size);
      *V = FormValue(this, Spec.Form, X, nullptr);
    }
    Off += Spec.Size;
    return true;
  }
  uint64_t X = 0;
  const char *Data = nullptr;
  switch (Spec.Form) {
  case dwarf::DW_FORM_sdata: {
    int64_t S;
    if (!readSLEB(Bytes, Off, End, S))
      return false;
    X = uint64_t(S);
    break;
  }
  case dwarf::DW_FORM_string: {
    const void *Nul = memchr(Bytes.data() + Off, 0, End - Off);
    if (!Nul)
      return false;
    Data = Bytes.data() + Off;
    Off = static_cast<const char *>(Nul) - Bytes.data() + 1;
    break;
  }
  case dwarf::DW_FORM_block1:
  case dwarf::DW_FORM_block2:
  case dwarf::DW_FORM_block4: {
    unsigned N = Spec.Form == dwarf::DW_FORM_block1   ? 1
                 : Spec.Form == dwarf::DW_FORM_block2 ? 2
                                                      : 4;
    if (End - Off < N)
      return false;
    X = readLE(Bytes.data() + Off, N);
    Off += N;
    if (End - Off < X)
      return false;
    Data = Bytes.data() + Off;
    Off += X;
    break;
  }
  case dwarf::DW_FORM_block:
  case dwarf::DW_FORM_exprloc:
    if (!readULEB(Bytes, Off, End, X) || End - Off < X)
      return false;
    Data = Bytes.data() + Off;
    Off += X;
    break;
  default: // the ULEB128 forms
    if (!readULEB(Bytes, Off, End, X))
      return false;
    break;
  }
  if (V)
    *V = FormValue(this, Spec.Form, X, Data);
  return true;
}

std::optional<FormValue> Unit::findAttr(uint32_t Idx,
                                        dwarf::Attribute A) const {
  const Abbrev &Ab = Abbrevs[DieCode[Idx]];
  uint32_t B = Ab.AttrBegin, E = Ab.AttrBegin + Ab.NumAttrs, I = B;
  while (I < E && Specs[I].Attr != A)
    ++I;
  if (I == E)
    return std::nullopt; // absent: nothing to decode
  uint64_t Off = DieAttrs[Idx];
  if (Specs[I].FixedOffset >= 0) {
    Off += Specs[I].FixedOffset;
  } else {
    for (uint32_t J = B; J < I; ++J)
      if (!readValue(Specs[J], Off, nullptr))
        return std::nullopt;
  }
  FormValue V;
  if (!readValue(Specs[I], Off, &V))
    return std::nullopt;
  return V;
}

void Unit::readAttrs(
    uint32_t Idx,
    SmallVectorImpl<std::pair<dwarf::Attribute, FormValue>> &Out) const {
  const Abbrev &Ab = Abbrevs[DieCode[Idx]];
  uint64_t Off = DieAttrs[Idx];
  const char *P = Bytes.data();
  for (uint32_t I = Ab.AttrBegin, E = Ab.AttrBegin + Ab.NumAttrs; I < E; ++I) {
    const AttrSpec &S = Specs[I];
    if (S.Size >= 0) {
      // parse() checked that every value of every DIE fits the unit.
      if (S.Wanted) {
        uint64_t X = S.Form == dwarf::DW_FORM_implicit_const ? uint64_t(S.Const)
                     : S.Form == dwarf::DW_FORM_flag_present
                         ? 1
                         : readLE(P + Off, S.Size);
        Out.push_back(
            {dwarf::Attribute(S.Attr), FormValue(this, S.Form, X, nullptr)});
      }
      Off += S.Size;
      continue;
    }
    if (!S.Wanted) {
      if (!readValue(S, Off, nullptr))
        return;
      continue;
    }
    FormValue V;
    if (!readValue(S, Off, &V))
      return;
    Out.push_back({dwarf::Attribute(S.Attr), V});
  }
}

bool Unit::parseAbbrevs(StringRef Sec, uint64_t Off) {
  Abbrevs.assign(1, Abbrev()); // code 0: null entries
  uint64_t End = Sec.size();
  if (Off >= End)
    return false;
  while (true) {
    uint64_t Code, Tag;
    if (!readULEB(Sec, Off, End, Code))
      return false;
    if (Code == 0)
      return true;
    if (!readULEB(Sec, Off, End, Tag) || Off >= End)
      return false;
    uint8_t Children = Sec[Off++];
    // Dense codes only (what compilers emit); others go to LLVM's reader.
    if (Tag == 0 || Tag > 0xffff || Children > 1 || Code > Abbrevs.size() + 64)
      return false;
    if (Code >= Abbrevs.size())
      Abbrevs.resize(Code + 1);
    Abbrev &A = Abbrevs[Code];
    if (A.Tag)
      return false; // duplicate code
    A.Tag = Tag;
    A.HasChildren = Children;
    A.AttrBegin = Specs.size();
    int64_t Fixed = 0;
    while (true) {
      uint64_t Attr, Form;
      if (!readULEB(Sec, Off, End, Attr) || !readULEB(Sec, Off, End, Form))
        return false;
      if (Attr == 0 && Form == 0)
        break;
      if (Attr == 0 || Attr > 0xffff)
        return false;
      int Size = fixedFormSize(Form, AddrSize);
      if (Size == -2)
        return false;
      AttrSpec S{uint16_t(Attr), uint16_t(Form), int16_t(Size),
                 isWanted(Attr), int32_t(Fixed), 0};
      if (Form == dwarf::DW_FORM_implicit_const &&
          !readSLEB(Sec, Off, End, S.Const))
        return false;
      if (isStrx(S.Form))
        UsesStrx = true;
      Specs.push_back(S);
      Fixed = Size < 0 || Fixed < 0 ? -1 : Fixed + Size;
    }
    A.NumAttrs = Specs.size() - A.AttrBegin;
    A.FixedSize = Fixed;
  }
}

bool Unit::setUpStrOffsets() {
  Die CU = getUnitDIE();
  std::optional<FormValue> Base;
  if (Version >= 5)
    Base = CU.find(dwarf::DW_AT_str_offsets_base);
  if (!Base)
    return !UsesStrx;
  // Accepted only in the plain form LLVM accepts too (a DWARF32 v5 table
  // header just before the base, the table within the section); anything
  // else is left to LLVM's reader and its diagnostics.
  if (Base->getForm() != dwarf::DW_FORM_sec_offset)
    return false;
  uint64_t B = Base->raw();
  StringRef T = Secs.StrOffsets;
  if (B < 8 || B > T.size())
    return false;
  uint64_t Size = readLE(T.data() + B - 8, 4);
  uint64_t TableVersion = readLE(T.data() + B - 4, 2);
  if (Size < 4 || Size >= 0xfffffff0 || TableVersion != 5 ||
      alignTo(Size - 4, 4) > T.size() - B)
    return false;
  HasStrOffsets = true;
  StrOffsetsBase = B;
  return true;
}

bool Unit::parse(StringRef Unit, const Sections &S, bool LittleEndian) {
  // A Unit may be reused for unit after unit: its arrays keep their
  // capacity, which spares an allocation (and its page faults) per array
  // and unit.
  Bytes = Unit;
  Secs = S;
  Version = 0;
  AddrSize = 0;
  StrOffsetsBase = 0;
  AddrBase.reset();
  HasStrOffsets = UsesStrx = false;
  Abbrevs.clear();
  Specs.clear();
  DieOffset.clear();
  DieAttrs.clear();
  DieCode.clear();
  DieNext.clear();
  DieTag.clear();
  FirstDieInBlock.clear();
  if (!LittleEndian || Bytes.size() < 11 || Bytes.size() > UINT32_MAX)
    return false;
  uint64_t Len = readLE(Bytes.data(), 4);
  if (Len >= 0xfffffff0 || Len + 4 != Bytes.size())
    return false;
  Version = readLE(Bytes.data() + 4, 2);
  uint64_t AbbrevOff, Off;
  if (Version >= 2 && Version <= 4) {
    AbbrevOff = readLE(Bytes.data() + 6, 4);
    AddrSize = Bytes[10];
    Off = 11;
  } else if (Version == 5) {
    if (Bytes.size() < 12)
      return false;
    uint8_t UnitType = Bytes[6];
    if (UnitType != dwarf::DW_UT_compile && UnitType != dwarf::DW_UT_partial)
      return false;
    AddrSize = Bytes[7];
    AbbrevOff = readLE(Bytes.data() + 8, 4);
    Off = 12;
  } else {
    return false;
  }
  if ((AddrSize != 4 && AddrSize != 8) || !parseAbbrevs(S.Abbrev, AbbrevOff))
    return false;

  // Every DIE, as LLVM extracts them: up to the null entry closing the unit
  // DIE's children (or the unit DIE alone when it has none).
  uint64_t End = Bytes.size();
  DieOffset.reserve(End / 12);
  DieCode.reserve(End / 12);
  DieNext.reserve(End / 12);
  DieAttrs.reserve(End / 12);
  DieTag.reserve(End / 12);
  SmallVector<uint32_t, 32> Open;
  while (true) {
    uint32_t Idx = DieOffset.size();
    uint64_t Start = Off, Code;
    if (!readULEB(Bytes, Off, End, Code))
      return false;
    DieOffset.push_back(Start);
    DieAttrs.push_back(Off);
    DieCode.push_back(0);
    DieTag.push_back(0);
    DieNext.push_back(Idx + 1);
    if (Code == 0) {
      if (Open.empty())
        return false; // a null unit DIE
      DieNext[Open.pop_back_val()] = Idx + 1;
      if (Open.empty())
        break;
      continue;
    }
    if (Code >= Abbrevs.size() || !Abbrevs[Code].Tag)
      return false;
    DieCode[Idx] = Code;
    const Abbrev &A = Abbrevs[Code];
    DieTag[Idx] = A.Tag;
    if (A.FixedSize >= 0) {
      if (End - Off < uint64_t(A.FixedSize))
        return false;
      Off += A.FixedSize;
    } else {
      for (uint32_t I = A.AttrBegin, E = A.AttrBegin + A.NumAttrs; I < E; ++I)
        if (!readValue(Specs[I], Off, nullptr))
          return false;
    }
    if (A.HasChildren)
      Open.push_back(Idx);
    else if (Idx == 0)
      break;
  }
  FirstDieInBlock.resize((End >> BlockBits) + 1);
  for (uint32_t I = 0, B = 0, N = DieOffset.size(); B < FirstDieInBlock.size();
       ++B) {
    while (I < N && DieOffset[I] < (uint64_t(B) << BlockBits))
      ++I;
    FirstDieInBlock[B] = I;
  }
  // The base of the unit's .debug_addr entries; without it, addresses in
  // addrx form are unknown (the converter then matches by name only).
  if (std::optional<FormValue> B = getUnitDIE().find(dwarf::DW_AT_addr_base))
    if (B->getForm() == dwarf::DW_FORM_sec_offset &&
        B->raw() <= Secs.Addr.size())
      AddrBase = B->raw();
  return setUpStrOffsets();
}

} // namespace fast
} // namespace types
} // namespace dwarfpack
