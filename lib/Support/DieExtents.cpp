//===- DieExtents.cpp - DIEs whose values LLVM can step over --------------===//

#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Support/UnitIndex.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <vector>

using namespace llvm;

namespace dwarfpack {

namespace {

/// Offsets move exactly as in LLVM's DWARFFormValue::skipValue: fixed sizes
/// and block lengths are added unchecked; a length that cannot be read is
/// 0, a string without its NUL and a malformed LEB128 leave the offset.
/// Unsafe is set where LLVM would decode a LEB128 at an offset past the
/// end of the bytes (reading until some byte below 0x80, outside them).
class DieWalker {
public:
  DieWalker(StringRef Bytes, bool IsLittleEndian)
      : Bytes(Bytes), IsLittleEndian(IsLittleEndian) {}

  uint64_t Offset = 0;
  bool Unsafe = false;

  uint64_t leb() {
    if (Offset > Bytes.size()) {
      Unsafe = true;
      return 0;
    }
    unsigned N = 0;
    const char *Error = nullptr;
    uint64_t V = decodeULEB128Bounded(Bytes.bytes_begin() + Offset, &N,
                                      Bytes.bytes_end(), &Error);
    if (Error)
      return 0;
    Offset += N;
    return V;
  }
  uint64_t fixed(unsigned Size) {
    if (Offset > Bytes.size() || Bytes.size() - Offset < Size)
      return 0;
    uint64_t V = 0;
    for (unsigned I = 0; I < Size; ++I)
      V = (V << 8) |
          uint8_t(Bytes[Offset + (IsLittleEndian ? Size - 1 - I : I)]);
    Offset += Size;
    return V;
  }
  void cstring() {
    if (Offset > Bytes.size())
      return;
    size_t Nul = Bytes.find('\0', Offset);
    if (Nul != StringRef::npos)
      Offset = Nul + 1;
  }

  /// False where LLVM's skipValue fails (an unknown form): LLVM stops there.
  bool skip(dwarf::Form Form, const dwarf::FormParams &Params) {
    using namespace dwarf;
    for (;;) {
      switch (Form) {
      case DW_FORM_exprloc:
      case DW_FORM_block:
        Offset += leb();
        return true;
      case DW_FORM_block1:
        Offset += fixed(1);
        return true;
      case DW_FORM_block2:
        Offset += fixed(2);
        return true;
      case DW_FORM_block4:
        Offset += fixed(4);
        return true;
      case DW_FORM_string:
        cstring();
        return true;
      case DW_FORM_sdata:
      case DW_FORM_udata:
      case DW_FORM_ref_udata:
      case DW_FORM_strx:
      case DW_FORM_addrx:
      case DW_FORM_loclistx:
      case DW_FORM_rnglistx:
      case DW_FORM_GNU_addr_index:
      case DW_FORM_GNU_str_index:
        leb();
        return true;
      case DW_FORM_LLVM_addrx_offset:
        leb();
        Offset += 4;
        return true;
      case DW_FORM_indirect:
        Form = dwarf::Form(leb());
        if (Unsafe)
          return false;
        continue;
      default:
        if (std::optional<uint8_t> Size = getFixedFormByteSize(Form, Params)) {
          Offset += *Size;
          return true;
        }
        return false;
      }
    }
  }

private:
  StringRef Bytes;
  bool IsLittleEndian;
};

/// The DIEs of U as DWARFUnit::extractDIEsToVector reads them: from the
/// unit DIE until its children's list ends, or a DIE LLVM cannot read.
Error checkUnit(DWARFUnit &U) {
  // The unit's set, parsed by LLVM's own code as U.getAbbreviations()
  // would, but into a set freed after the walk: the context's cache would
  // keep every unit's set (70 MB for vmlinux), and the converter reads
  // units in contexts of its own.
  const DWARFObject &Obj = U.getContext().getDWARFObj();
  StringRef AbbrevBytes =
      U.isDWOUnit() ? Obj.getAbbrevDWOSection() : Obj.getAbbrevSection();
  uint64_t AbbrevOffset = U.getAbbreviationsOffset();
  if (AbbrevOffset >= AbbrevBytes.size())
    return Error::success(); // LLVM reads no DIE
  DWARFAbbreviationDeclarationSet Set;
  if (Error E = Set.extract(
          DataExtractor(AbbrevBytes, U.getContext().isLittleEndian(), 0),
          &AbbrevOffset)) {
    consumeError(std::move(E));
    return Error::success(); // likewise
  }
  const DWARFAbbreviationDeclarationSet *Abbrevs = &Set;
  DWARFDataExtractor Data = U.getDebugInfoExtractor();
  DieWalker W(Data.getData(), Data.isLittleEndian());
  W.Offset = U.getOffset() + U.getHeaderSize();
  const uint64_t End = U.getNextUnitOffset();
  const dwarf::FormParams &Params = U.getFormParams();
  auto Unsafe = [&](uint64_t Die) {
    return createStringError(
        inconvertibleErrorCode(),
        "%s: the DIE at 0x%" PRIx64 " (unit at 0x%" PRIx64
        ") has attribute values that run past the end of the section "
        "(0x%zx bytes)",
        U.isDWOUnit() ? ".debug_info.dwo" : ".debug_info", Die, U.getOffset(),
        Data.getData().size());
  };
  uint64_t Depth = 0;
  do {
    const uint64_t Die = W.Offset;
    if (Die >= End)
      break;
    uint64_t Code = W.leb();
    if (W.Unsafe)
      return Unsafe(Die);
    if (Code == 0) {
      if (Depth == 0)
        break;
      --Depth;
      continue;
    }
    const DWARFAbbreviationDeclaration *Decl =
        Abbrevs->getAbbreviationDeclaration(uint32_t(Code));
    if (!Decl)
      break;
    bool Read = true;
    if (std::optional<size_t> Size = Decl->getFixedAttributesByteSize(U)) {
      // No LEB128 among the values: LLVM adds the sum unchecked, as here.
      W.Offset += *Size;
    } else {
      for (const DWARFAbbreviationDeclaration::AttributeSpec &Spec :
           Decl->attributes()) {
        if (std::optional<int64_t> Size = Spec.getByteSize(U))
          W.Offset += *Size;
        else
          Read = W.skip(Spec.Form, Params);
        if (W.Unsafe)
          return Unsafe(Die);
        if (!Read)
          break;
      }
    }
    if (!Read)
      break;
    if (Decl->hasChildren())
      ++Depth;
  } while (Depth > 0);
  return Error::success();
}

} // namespace

Error checkDieExtents(DWARFContext &Ctx, unsigned Threads) {
  if (Error E = checkUnitIndexes(Ctx))
    return E;
  std::vector<DWARFUnit *> Units;
  for (const auto &Range : {Ctx.normal_units(), Ctx.dwo_units()})
    for (const std::unique_ptr<DWARFUnit> &U : Range)
      Units.push_back(U.get());
  std::vector<Error> Errors;
  for (size_t I = 0; I < Units.size(); ++I)
    Errors.push_back(Error::success());
  if (Threads == 1 || Units.size() < 2) {
    for (size_t I = 0; I < Units.size(); ++I)
      Errors[I] = checkUnit(*Units[I]);
  } else {
    // The walks only read; the first failing unit in file order is named,
    // whatever the schedule.
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    for (size_t I = 0; I < Units.size(); ++I)
      Pool.async([&, I] { Errors[I] = checkUnit(*Units[I]); });
    Pool.wait();
  }
  Error First = Error::success();
  for (Error &E : Errors)
    if (E && !First)
      First = std::move(E);
    else
      consumeError(std::move(E));
  return First;
}

} // namespace dwarfpack
