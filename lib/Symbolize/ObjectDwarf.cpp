//===- ObjectDwarf.cpp - What DATA and FRAME answers read from DWARF ------===//

#include "ObjectDwarf.h"

#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"

using namespace llvm;

namespace dwarfpack {

using input::Die;
using input::FormValue;

namespace {

/// An array bound. DW_FORM_data1 to data8 carry no sign: GCC gives the
/// bound 200 of a `char[201]` as data1 0xc8, which LLVM 19 reads as -56
/// (its variable then holds no address); only the signed forms are read as
/// signed here.
std::optional<int64_t> bound(const FormValue &V) {
  dwarf::Form F = V.getForm();
  if (F == dwarf::DW_FORM_sdata || F == dwarf::DW_FORM_implicit_const)
    return V.getAsSignedConstant();
  if (std::optional<uint64_t> U = V.getAsUnsignedConstant())
    return int64_t(*U);
  return V.getAsSignedConstant();
}

/// Depth bounds a hostile chain of references.
std::optional<uint64_t> typeSizeAt(const Die &D, unsigned PointerSize,
                                   unsigned Depth) {
  if (!D || Depth > 64)
    return std::nullopt;
  if (std::optional<FormValue> S = D.find(dwarf::DW_AT_byte_size))
    if (std::optional<uint64_t> Size = S->getAsUnsignedConstant())
      return Size;
  Die Base = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
  switch (D.getTag()) {
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
    return PointerSize;
  case dwarf::DW_TAG_ptr_to_member_type:
    return Base && Base.getTag() == dwarf::DW_TAG_subroutine_type
               ? 2 * PointerSize
               : PointerSize;
  case dwarf::DW_TAG_array_type: {
    std::optional<uint64_t> Size = typeSizeAt(Base, PointerSize, Depth + 1);
    if (!Size)
      return std::nullopt;
    for (Die C : D.children()) {
      if (C.getTag() != dwarf::DW_TAG_subrange_type)
        continue;
      if (std::optional<FormValue> N = C.find(dwarf::DW_AT_count))
        if (std::optional<uint64_t> Count = N->getAsUnsignedConstant())
          *Size *= *Count;
      if (std::optional<FormValue> U = C.find(dwarf::DW_AT_upper_bound))
        if (std::optional<int64_t> Upper = bound(*U)) {
          int64_t Lower = 0;
          if (std::optional<FormValue> L = C.find(dwarf::DW_AT_lower_bound))
            Lower = bound(*L).value_or(0);
          *Size *= uint64_t(*Upper - Lower + 1);
        }
    }
    return Size;
  }
  default:
    return typeSizeAt(Base, PointerSize, Depth + 1);
  }
}

} // namespace

std::optional<uint64_t> typeSize(const Die &D, unsigned PointerSize) {
  return typeSizeAt(D, PointerSize, 0);
}

uint32_t UnitFiles::path(uint64_t Index) {
  if (!Decoded)
    decode();
  if (!Table || !Table->hasFile(Index))
    return 0;
  auto [It, New] = Known.try_emplace(Index, 0);
  if (New) {
    std::string Path;
    if (Table->filePath(Index, CompDir, Path)) {
      Paths.push_back(std::move(Path));
      It->second = Paths.size();
    }
  }
  return It->second;
}

void UnitFiles::decode() {
  Decoded = true;
  Die CU = C.Skel.getUnitDIE();
  if (!CU)
    return;
  if (std::optional<FormValue> Dir = CU.find(dwarf::DW_AT_comp_dir))
    if (const char *S = Dir->cstr())
      CompDir = S;
  std::optional<FormValue> List = CU.find(dwarf::DW_AT_stmt_list);
  input::LineSections S = input::lineSections(C.Skel);
  uint64_t Off = UINT64_MAX;
  if (List)
    Off = List->getAsSectionOffset().value_or(UINT64_MAX);
  if (Off >= S.Line.size())
    return;
  Expected<input::LineTable> T = input::LineTable::parse(S, Off, [](Error E) {
    // Rows do not matter here: the file names come first.
    consumeError(std::move(E));
  });
  if (!T) {
    C.Log.report("bad-line-table", toString(T.takeError()) + " (unit at 0x" +
                                       utohexstr(C.Skel.getOffset()) +
                                       "): no declaration files");
    return;
  }
  Table = std::move(*T);
}

} // namespace dwarfpack
