//===- LineTableHeader.cpp - Line-table headers LLVM can parse ------------===//

#include "dwarfpack/Support/LineTableHeader.h"
#include "dwarfpack/Support/LEB128.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

namespace {

/// How a form's value is laid out, for stepping over directory entries.
enum class Layout { Unknown, Fixed, Offset, ULEB, CString, Block };

struct FormInfo {
  Layout Kind = Layout::Unknown;
  unsigned Size = 0; // Fixed: the size; Block: the size of its length
};

/// The forms a line-table header may use, as the DWARF 5 standard lists
/// them for its content types (plus GNU's string forms, DW_FORM_sdata,
/// DW_FORM_flag and the block forms for vendor content types). Each is one
/// LLVM's extractValue reads. DW_FORM_indirect is left out on purpose: the
/// form it names is read only later, and may be one LLVM does not know.
FormInfo formInfo(uint64_t Form) {
  using namespace dwarf;
  switch (Form) {
  case DW_FORM_data1:
  case DW_FORM_flag:
  case DW_FORM_strx1:
    return {Layout::Fixed, 1};
  case DW_FORM_data2:
  case DW_FORM_strx2:
    return {Layout::Fixed, 2};
  case DW_FORM_strx3:
    return {Layout::Fixed, 3};
  case DW_FORM_data4:
  case DW_FORM_strx4:
    return {Layout::Fixed, 4};
  case DW_FORM_data8:
    return {Layout::Fixed, 8};
  case DW_FORM_data16:
    return {Layout::Fixed, 16};
  case DW_FORM_strp:
  case DW_FORM_line_strp:
  case DW_FORM_strp_sup:
  case DW_FORM_GNU_strp_alt:
  case DW_FORM_sec_offset:
    return {Layout::Offset, 0};
  case DW_FORM_udata:
  case DW_FORM_sdata:
  case DW_FORM_strx:
  case DW_FORM_GNU_str_index:
    return {Layout::ULEB, 0};
  case DW_FORM_string:
    return {Layout::CString, 0};
  case DW_FORM_block1:
    return {Layout::Block, 1};
  case DW_FORM_block2:
    return {Layout::Block, 2};
  case DW_FORM_block4:
    return {Layout::Block, 4};
  case DW_FORM_block:
    return {Layout::Block, 0};
  default:
    return {};
  }
}

/// A string form formInfo knows (LLVM's form class, as DWARFFormValue's
/// getAsCString reads it).
bool isStringForm(uint64_t Form) {
  return formInfo(Form).Kind != Layout::Unknown &&
         DWARFFormValue(dwarf::Form(Form))
             .isFormClass(DWARFFormValue::FC_String);
}

/// Whether LLVM can take Form for content type Type. InFileTable: file
/// entries, whose every field LLVM extracts and then uses by type;
/// directory entries are extracted only for their path, others skipped.
bool formFits(uint64_t Type, uint64_t Form, bool InFileTable) {
  using namespace dwarf;
  if (formInfo(Form).Kind == Layout::Unknown)
    return false;
  if (Type == DW_LNCT_path || (InFileTable && Type == DW_LNCT_LLVM_source))
    return isStringForm(Form);
  if (!InFileTable)
    return true;
  switch (Type) {
  // LLVM dereferences getAsUnsignedConstant() of these, which is empty for
  // anything but a constant (DWARF also allows DW_FORM_block for the
  // timestamp; no producer uses it).
  case DW_LNCT_directory_index:
  case DW_LNCT_timestamp:
  case DW_LNCT_size:
    return Form == DW_FORM_data1 || Form == DW_FORM_data2 ||
           Form == DW_FORM_data4 || Form == DW_FORM_data8 ||
           Form == DW_FORM_udata;
  case DW_LNCT_MD5:
    return Form == DW_FORM_data16;
  default:
    return true;
  }
}

/// Bounded reads of the header's bytes. Running past the end is not an
/// error of the check: LLVM stops there with an error of its own.
class HeaderCursor {
public:
  HeaderCursor(StringRef Bytes, uint64_t Offset, bool IsLittleEndian)
      : Bytes(Bytes), Offset(Offset), IsLittleEndian(IsLittleEndian) {}

  bool atEnd() const { return Offset > Bytes.size(); }
  uint64_t offset() const { return Offset; }
  void limit(uint64_t End) {
    if (End < Bytes.size())
      Bytes = Bytes.take_front(End);
  }

  uint64_t fixed(unsigned Size) {
    if (!has(Size))
      return 0;
    uint64_t V = 0;
    for (unsigned I = 0; I < Size; ++I) {
      unsigned Byte = IsLittleEndian ? Size - 1 - I : I;
      V = (V << 8) | uint8_t(Bytes[Offset + Byte]);
    }
    Offset += Size;
    return V;
  }
  /// Malformed (longer than a uint64_t needs): sets Bad.
  uint64_t uleb() {
    if (atEnd())
      return 0;
    unsigned N = 0;
    const char *Error = nullptr;
    const uint8_t *P = Bytes.bytes_begin() + Offset;
    uint64_t V = decodeULEB128Bounded(P, &N, Bytes.bytes_end(), &Error);
    if (Error) {
      // Cut short by the end, or too long to be a uint64_t.
      if (Bytes.size() - Offset > MaxULEB128Size)
        Bad = true;
      Offset = Bytes.size() + 1;
      return 0;
    }
    Offset += N;
    return V;
  }
  void skip(uint64_t Size) {
    if (has(Size))
      Offset += Size;
  }
  void cstring() {
    if (atEnd())
      return;
    size_t Nul = Bytes.find('\0', Offset);
    Offset = Nul == StringRef::npos ? Bytes.size() + 1 : Nul + 1;
  }
  /// Steps over one value of Form (a form formInfo knows).
  void skipForm(uint64_t Form, unsigned OffsetSize) {
    FormInfo F = formInfo(Form);
    switch (F.Kind) {
    case Layout::Fixed:
      return skip(F.Size);
    case Layout::Offset:
      return skip(OffsetSize);
    case Layout::ULEB:
      uleb();
      return;
    case Layout::CString:
      return cstring();
    case Layout::Block:
      return skip(F.Size ? fixed(F.Size) : uleb());
    case Layout::Unknown:
      Offset = Bytes.size() + 1;
      return;
    }
  }

  bool Bad = false;

private:
  bool has(uint64_t Size) {
    if (atEnd() || Bytes.size() - Offset < Size) {
      Offset = Bytes.size() + 1;
      return false;
    }
    return true;
  }

  StringRef Bytes;
  uint64_t Offset;
  bool IsLittleEndian;
};

StringRef contentTypeName(uint64_t Type) {
  switch (Type) {
#define HANDLE_DW_LNCT(ID, NAME)                                               \
  case ID:                                                                     \
    return "DW_LNCT_" #NAME;
#include "llvm/BinaryFormat/Dwarf.def"
  default:
    return {};
  }
}

struct Descriptor {
  uint64_t Type, Form;
};

/// Reads an entry format; false when the header ends inside it (LLVM's
/// error then). A type or form too large for LLVM's 16-bit fields is an
/// error of the check: LLVM would truncate it into a different one.
Expected<bool> readFormat(HeaderCursor &C, StringRef Table, bool InFileTable,
                          uint64_t TableOffset,
                          SmallVectorImpl<Descriptor> &Out) {
  uint64_t Count = C.fixed(1);
  for (uint64_t I = 0; I < Count && !C.atEnd(); ++I) {
    Descriptor D{C.uleb(), C.uleb()};
    if (C.Bad)
      return createStringError(
          inconvertibleErrorCode(),
          "line table at 0x" + utohexstr(TableOffset, true) +
              ": malformed ULEB128 in the " + Table + " entry format");
    if (C.atEnd())
      break;
    if (D.Type > dwarf::DW_LNCT_hi_user || D.Form > UINT16_MAX ||
        !formFits(D.Type, D.Form, InFileTable)) {
      StringRef TypeName = contentTypeName(D.Type);
      StringRef FormName = dwarf::FormEncodingString(unsigned(D.Form));
      return createStringError(
          inconvertibleErrorCode(),
          "line table at 0x" + utohexstr(TableOffset, true) + ": the " + Table +
              " entry format gives content type " +
              (!TypeName.empty() ? TypeName.str()
                                 : "0x" + utohexstr(D.Type, true)) +
              " form " +
              (D.Form <= UINT16_MAX && !FormName.empty()
                   ? FormName.str()
                   : "0x" + utohexstr(D.Form, true)) +
              ", which LLVM's line-table reader cannot take");
    }
    Out.push_back(D);
  }
  return !C.atEnd();
}

} // namespace

Error checkLineTableHeader(const DWARFDataExtractor &Data, uint64_t Offset) {
  const uint64_t TableOffset = Offset;
  DataExtractor::Cursor Cur(Offset);
  auto [Length, Format] = Data.getInitialLength(Cur);
  const uint64_t AfterLength = Cur.tell();
  uint64_t Version = Data.getU16(Cur);
  if (!Cur || Version != 5) {
    // Versions 2-4 name files by strings alone; others LLVM rejects.
    consumeError(Cur.takeError());
    return Error::success();
  }
  const unsigned OffsetSize = Format == dwarf::DWARF64 ? 8 : 4;
  Data.getU8(Cur); // address_size
  Data.getU8(Cur); // segment_selector_size
  // Read as LLVM does, relocations applied.
  uint64_t HeaderLength = Data.getRelocatedValue(Cur, OffsetSize);
  if (!Cur) {
    consumeError(Cur.takeError());
    return Error::success();
  }
  // LLVM narrows its view to the unit, then to the header, with the same
  // (wrapping) sums.
  HeaderCursor C(Data.getData(), Cur.tell(), Data.isLittleEndian());
  C.limit(AfterLength + Length);
  C.limit(Cur.tell() + HeaderLength);
  // Instruction length, operations per instruction, is_stmt, line base and
  // line range.
  C.skip(5);
  uint64_t OpcodeBase = C.fixed(1);
  if (OpcodeBase)
    C.skip(OpcodeBase - 1);

  SmallVector<Descriptor, 4> Dirs, Files;
  Expected<bool> More = readFormat(C, "directory", false, TableOffset, Dirs);
  if (!More || !*More)
    return More ? Error::success() : More.takeError();
  // Step over the directories to reach the file entry format.
  uint64_t DirCount = C.uleb();
  for (uint64_t I = 0; I < DirCount && !C.atEnd(); ++I)
    for (const Descriptor &D : Dirs)
      C.skipForm(D.Form, OffsetSize);
  if (C.Bad)
    return createStringError(inconvertibleErrorCode(),
                             "line table at 0x" + utohexstr(TableOffset, true) +
                                 ": malformed ULEB128 in the directories");
  More = readFormat(C, "file name", true, TableOffset, Files);
  if (!More)
    return More.takeError();
  return Error::success();
}

Error checkLineTableHeader(DWARFUnit &Unit) {
  std::optional<uint64_t> Offset =
      dwarf::toSectionOffset(Unit.getUnitDIE(/*ExtractUnitDIEOnly=*/true)
                                 .find(dwarf::DW_AT_stmt_list));
  if (!Offset)
    return Error::success();
  const DWARFContext &Ctx = Unit.getContext();
  const DWARFObject &Obj = Ctx.getDWARFObj();
  DWARFDataExtractor Data(Obj, Obj.getLineSection(), Ctx.isLittleEndian(),
                          Unit.getAddressByteSize());
  return checkLineTableHeader(Data, *Offset);
}

} // namespace dwarfpack
