//===- DwarfFile.cpp - One file's DWARF sections and units ----------------===//

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/Support/UnitIndex.h"

#include "Bytes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {
namespace input {

StringRef sectionName(Sec S, bool Dwo) {
  static constexpr const char *Names[] = {
      ".debug_info",     ".debug_types",       ".debug_abbrev", ".debug_str",
      ".debug_line_str", ".debug_str_offsets", ".debug_addr",   ".debug_ranges",
      ".debug_rnglists", ".debug_loclists",    ".debug_loc",    ".debug_line",
      ".debug_cu_index", ".debug_tu_index"};
  static constexpr const char *DwoNames[] = {
      ".debug_info.dwo",     ".debug_types.dwo",  ".debug_abbrev.dwo",
      ".debug_str.dwo",      ".debug_line_str",   ".debug_str_offsets.dwo",
      ".debug_addr",         ".debug_ranges.dwo", ".debug_rnglists.dwo",
      ".debug_loclists.dwo", ".debug_loc.dwo",    ".debug_line.dwo",
      ".debug_cu_index",     ".debug_tu_index"};
  static_assert(std::size(Names) == size_t(Sec::NumKinds));
  static_assert(std::size(DwoNames) == size_t(Sec::NumKinds));
  return (Dwo ? DwoNames : Names)[size_t(S)];
}

//===----------------------------------------------------------------------===//
// Unit headers
//===----------------------------------------------------------------------===//

namespace {
Error headerError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}
std::string hex8(uint64_t V) { return formatv("{0:x-8}", V).str(); }
} // namespace

Expected<UnitHeader> readUnitHeader(StringRef Bytes, uint64_t Offset,
                                    uint64_t SectionSize, bool LE,
                                    bool InTypes) {
  using namespace dwarf;
  UnitHeader H;
  H.Offset = Offset;
  H.InTypesSection = InTypes;
  Cursor C(Bytes, 0, Bytes.size(), LE);
  uint64_t Length = C.fixed(4);
  if (!C.failed() && Length == 0xffffffff) {
    H.OffsetSize = 8;
    Length = C.fixed(8);
  } else if (!C.failed() && Length >= 0xfffffff0) {
    return headerError("DWARF unit at offset 0x" + hex8(Offset) +
                       " has an unsupported reserved unit length of value 0x" +
                       utohexstr(Length, true));
  }
  uint64_t LengthFieldSize = H.OffsetSize == 8 ? 12 : 4;
  H.Version = C.fixed(2);
  if (H.Version >= 5) {
    H.UnitType = C.fixed(1);
    H.AddrSize = C.fixed(1);
    H.AbbrevOffset = C.fixed(H.OffsetSize);
  } else {
    H.AbbrevOffset = C.fixed(H.OffsetSize);
    H.AddrSize = C.fixed(1);
    H.UnitType = InTypes ? DW_UT_type : DW_UT_compile;
  }
  if (H.isTypeUnit()) {
    H.TypeSignature = C.fixed(8);
    H.TypeOffset = C.fixed(H.OffsetSize);
  } else if (H.UnitType == DW_UT_split_compile ||
             H.UnitType == DW_UT_skeleton) {
    H.DwoId = C.fixed(8);
    H.HasDwoId = true;
  }
  if (C.failed())
    return headerError("DWARF unit at offset 0x" + hex8(Offset) +
                       ": the header runs past the end of the section");
  H.HeaderSize = uint8_t(C.offset());
  // No length overflows: the section bounds it.
  if (Length > SectionSize || LengthFieldSize + Length > SectionSize - Offset)
    return headerError(
        "DWARF unit from offset 0x" + hex8(Offset) + " incl. to offset  0x" +
        hex8(Offset + LengthFieldSize + Length) +
        " excl. extends past section size 0x" + hex8(SectionSize));
  H.Size = LengthFieldSize + Length;
  if (H.Version < 2 || H.Version > 5)
    return headerError("DWARF unit at offset 0x" + hex8(Offset) +
                       " has unsupported version " + Twine(H.Version) +
                       ", supported are 2-5");
  if (H.isTypeUnit() && H.TypeOffset < H.HeaderSize)
    return headerError("DWARF type unit at offset 0x" + hex8(Offset) +
                       " has its relocated type_offset 0x" +
                       hex8(Offset + H.TypeOffset) +
                       " pointing inside the header");
  if (H.isTypeUnit() && H.TypeOffset >= H.Size)
    return headerError("DWARF type unit from offset 0x" + hex8(Offset) +
                       " incl. to offset 0x" + hex8(H.end()) +
                       " excl. has its relocated type_offset 0x" +
                       hex8(Offset + H.TypeOffset) +
                       " pointing past the unit end");
  if (H.AddrSize != 2 && H.AddrSize != 4 && H.AddrSize != 8)
    return headerError("DWARF unit at offset 0x" + hex8(Offset) +
                       " has unsupported address size " + Twine(H.AddrSize) +
                       ", supported are 2, 4, 8");
  return H;
}

//===----------------------------------------------------------------------===//
// RelocatedOffsets
//===----------------------------------------------------------------------===//

void RelocatedOffsets::finish() {
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return A.Offset < B.Offset;
  });
}

void RelocatedOffsets::appendShifted(const RelocatedOffsets &Other,
                                     uint64_t Shift) {
  for (const Entry &E : Other.Entries)
    Entries.push_back({E.Offset + Shift, E.Executable});
}

Placement RelocatedOffsets::placementAt(uint64_t Offset) const {
  auto It = llvm::partition_point(
      Entries, [&](const Entry &E) { return E.Offset < Offset; });
  if (It == Entries.end() || It->Offset != Offset)
    return Placement::None;
  return It->Executable ? Placement::Executable : Placement::OtherSection;
}

//===----------------------------------------------------------------------===//
// DwarfFile
//===----------------------------------------------------------------------===//

struct DwarfFile::Shared {
  std::once_flag Once;
  std::unique_ptr<Unit> U;
};

DwarfFile::DwarfFile(const DwarfSections &S, bool LittleEndian, bool Dwo,
                     std::string Name)
    : Sections(S), LittleEndian(LittleEndian), Dwo(Dwo), Name(std::move(Name)) {
}

DwarfFile::~DwarfFile() = default;

const RelocatedOffsets *DwarfFile::relocated(Sec S) const {
  return Relocs[size_t(S)].get();
}

void DwarfFile::setRelocated(Sec S, RelocatedOffsets R) {
  R.finish();
  Relocs[size_t(S)] = std::make_unique<RelocatedOffsets>(std::move(R));
  Relocatable = true;
}

namespace {
/// One row of a package's unit index: a unit's part of each section.
struct IndexRow {
  uint64_t Signature = 0;
  uint64_t InfoOffset = 0;
  Contributions Contrib;
};

/// The rows of a package's unit index (checked first by checkUnitIndex).
std::vector<IndexRow> readUnitIndex(StringRef B, bool LE, bool IsTypeIndex) {
  std::vector<IndexRow> Rows;
  if (B.size() < 16)
    return Rows;
  if (Error E = checkUnitIndex(B, LE, IsTypeIndex)) {
    // A damaged index (the file's opener reports checkUnitIndex's error).
    consumeError(std::move(E));
    return Rows;
  }
  auto U32 = [&](uint64_t At) { return readFixed(B.data() + At, 4, LE); };
  // The version as checkUnitIndex reads it: an index of another version is
  // one LLVM ignores, and checkUnitIndex checks nothing else of it.
  unsigned Version = U32(0) == 2 ? 2 : readFixed(B.data(), 2, LE) == 5 ? 5 : 0;
  if (!Version)
    return Rows;
  uint64_t Columns = U32(4), Units = U32(8), Buckets = U32(12);
  uint64_t SigAt = 16, RowAt = SigAt + Buckets * 8, IdAt = RowAt + Buckets * 4,
           OffAt = IdAt + Columns * 4, SizeAt = OffAt + Units * Columns * 4;
  Rows.resize(Units);
  for (uint64_t I = 0; I < Buckets; ++I)
    if (uint32_t Row = U32(RowAt + I * 4))
      Rows[Row - 1].Signature = readFixed(B.data() + SigAt + I * 8, 8, LE);
  for (uint64_t U = 0; U < Units; ++U) {
    for (uint64_t C = 0; C < Columns; ++C) {
      uint32_t Id = U32(IdAt + C * 4);
      uint64_t Off = U32(OffAt + (U * Columns + C) * 4);
      uint64_t Size = U32(SizeAt + (U * Columns + C) * 4);
      IndexRow &R = Rows[U];
      // DW_SECT_* of version 2 (GCC) and of DWARF 5.
      if (Id == 1 || (Version == 2 && Id == 2 && IsTypeIndex))
        R.InfoOffset = Off;
      else if (Id == 3)
        R.Contrib.Abbrev = Off;
      else if (Id == 4)
        R.Contrib.Line = Off;
      else if (Id == 5) // DW_SECT_LOC (version 2), DW_SECT_LOCLISTS (5)
        R.Contrib.LocLists = Off;
      else if (Id == 6) {
        R.Contrib.StrOffsets = Off;
        R.Contrib.StrOffsetsSize = Size;
      } else if (Id == 8 && Version == 5)
        R.Contrib.RngLists = Off;
    }
  }
  return Rows;
}
} // namespace

std::vector<std::string> DwarfFile::scanUnits(ByteReader Read) {
  std::vector<std::string> Problems;
  Units.clear();
  TypeUnits.clear();
  SplitUnits.clear();
  std::vector<IndexRow> CuRows, TuRows;
  if (Dwo) {
    CuRows = readUnitIndex(section(Sec::CuIndex), LittleEndian, false);
    TuRows = readUnitIndex(section(Sec::TuIndex), LittleEndian, true);
  }
  auto Scan = [&](Sec Which, const std::vector<IndexRow> &Index,
                  const std::vector<IndexRow> &TypeIndex) {
    StringRef S = section(Which);
    bool InTypes = Which == Sec::Types;
    for (uint64_t Off = 0; Off < S.size();) {
      char Buf[MaxUnitHeaderSize];
      StringRef Head = S.substr(Off, MaxUnitHeaderSize);
      if (Read && Read(Which, Off, Buf, Head.size()))
        Head = StringRef(Buf, Head.size());
      Expected<UnitHeader> H =
          readUnitHeader(Head, Off, S.size(), LittleEndian, InTypes);
      if (!H) {
        Problems.push_back("DWARF unit at 0x" + hex8(Off) +
                           " cannot be parsed: " + toString(H.takeError()));
        return;
      }
      // A package's unit gets its parts of the other sections from the
      // index row whose info column starts there.
      for (const std::vector<IndexRow> *Rows : {&Index, &TypeIndex})
        for (const IndexRow &R : *Rows)
          if (R.InfoOffset == Off && (Rows == &Index) == !H->isTypeUnit()) {
            H->Contrib = R.Contrib;
            if (!H->HasDwoId && Rows == &Index) {
              H->DwoId = R.Signature;
              H->HasDwoId = true;
            }
          }
      Units.push_back(*H);
      Off = H->end();
    }
  };
  Scan(Sec::Info, CuRows, TuRows);
  NumInfoUnits = Units.size();
  Scan(Sec::Types, {}, TuRows);
  for (size_t I = 0; I < Units.size(); ++I) {
    const UnitHeader &H = Units[I];
    if (H.isTypeUnit())
      TypeUnits.try_emplace(H.TypeSignature, uint32_t(I));
    else if (H.HasDwoId)
      SplitUnits.try_emplace(H.DwoId, uint32_t(I));
  }
  SharedUnits.reset(new Shared[Units.size()]);
  return Problems;
}

const UnitHeader *DwarfFile::infoUnitAt(uint64_t Offset) const {
  ArrayRef<UnitHeader> Info(Units.data(), NumInfoUnits);
  auto It = llvm::partition_point(
      Info, [&](const UnitHeader &H) { return H.end() <= Offset; });
  if (It == Info.end() || It->Offset > Offset)
    return nullptr;
  return &*It;
}

const UnitHeader *DwarfFile::typeUnit(uint64_t Signature) const {
  auto It = TypeUnits.find(Signature);
  return It == TypeUnits.end() ? nullptr : &Units[It->second];
}

const UnitHeader *DwarfFile::splitUnit(uint64_t DwoId) const {
  auto It = SplitUnits.find(DwoId);
  if (It != SplitUnits.end())
    return &Units[It->second];
  // A DWARF 4 .dwo names its id in the unit DIE (DW_AT_GNU_dwo_id).
  for (size_t I = 0; I < NumInfoUnits; ++I) {
    if (Units[I].HasDwoId || Units[I].Version >= 5)
      continue;
    if (const Unit *U = sharedUnit(Units[I]))
      if (U->dwoId() == DwoId)
        return &Units[I];
  }
  return nullptr;
}

const Unit *DwarfFile::sharedUnit(const UnitHeader &H) const {
  size_t I = &H - Units.data();
  if (I >= Units.size())
    return nullptr;
  Shared &S = SharedUnits[I];
  std::call_once(S.Once, [&] {
    auto U = std::make_unique<Unit>();
    if (Error E = U->parse(*this, H)) {
      consumeError(std::move(E));
      return;
    }
    S.U = std::move(U);
  });
  return S.U.get();
}

} // namespace input
} // namespace dwarfpack
