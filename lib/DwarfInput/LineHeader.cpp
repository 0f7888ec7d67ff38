//===- LineHeader.cpp - DWARF line-table headers --------------------------===//
//
// Follows LLVM 19's Prologue::parse step by step (which reads fail, where the
// next read starts, which problems are recoverable), so that the directories
// and files are the ones LLVM would find; the refusals (LineHeader.h) are
// checked where LLVM would read what it cannot take.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/LineHeader.h"

#include "LineBytes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace dwarfpack::input {

char UnsupportedLineHeader::ID;

void UnsupportedLineHeader::log(raw_ostream &OS) const { OS << Message; }

std::error_code UnsupportedLineHeader::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {

using detail::ByteReader;
using detail::Cursor;

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// How a form's value is laid out.
enum class Layout { Unknown, Fixed, Offset, ULEB, SLEB, CString, Block };

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
  case DW_FORM_strx:
  case DW_FORM_GNU_str_index:
    return {Layout::ULEB, 0};
  case DW_FORM_sdata:
    return {Layout::SLEB, 0};
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

/// Reads a header as LLVM's Prologue::parse does. Errors of its table
/// functions are either UnsupportedLineHeader (the table is refused) or
/// problems LLVM reports as recoverable.
class HeaderParser {
public:
  HeaderParser(const LineSections &S, uint64_t Offset, LineHeader &H,
               function_ref<void(Error)> Warn)
      : R(S.Line, S.LittleEndian, S.Relocate), S(S), H(H), Warn(Warn) {
    // A header decoded again keeps its lists' memory.
    std::vector<LineString> Dirs = std::move(H.Dirs);
    std::vector<LineFile> Files = std::move(H.Files);
    Dirs.clear();
    Files.clear();
    H = LineHeader();
    H.Offset = Offset;
    H.Dirs = std::move(Dirs);
    H.Files = std::move(Files);
  }

  Error parse();

private:
  std::string where() const { return "line table at " + hex(H.Offset); }
  void warn(const Twine &Msg) {
    Warn(createStringError(inconvertibleErrorCode(), where() + ": " + Msg));
  }
  Error fatal(const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(), where() + ": " + Msg);
  }
  Error refuse(const Twine &Msg) const {
    return make_error<UnsupportedLineHeader>(where() + ": " + Msg.str());
  }
  /// A problem of the directory or file tables (recoverable for LLVM).
  Error tableError(const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  Error readsOutside() const {
    return refuse("a directory entry runs past the end of the header, where "
                  "LLVM's line-table reader would read beyond its data");
  }

  void readInitialLength(Cursor &C);
  void checkAddressSize();
  Error readFormat(uint64_t &Off, StringRef Table, bool InFileTable,
                   SmallVectorImpl<Descriptor> &Out);
  Error readV5Tables(uint64_t &Off);
  Error readDirectories(uint64_t &Off, ArrayRef<Descriptor> Format);
  Error readFiles(uint64_t &Off, ArrayRef<Descriptor> Format);
  Error readV2Tables(uint64_t &Off);
  Error skipValue(uint64_t &Off, uint64_t Form);
  uint64_t extractValue(Cursor &C, uint64_t Form, uint64_t &BlockSize);
  unsigned offsetSize() const { return H.Dwarf64 ? 8 : 4; }

  ByteReader R;
  const LineSections &S;
  LineHeader &H;
  function_ref<void(Error)> Warn;
};

/// DWARFDataExtractor::getInitialLength: on failure (a reserved length, or
/// too few bytes) C fails where it was and the length is 0, 32-bit.
void HeaderParser::readInitialLength(Cursor &C) {
  Cursor L(C.Offset);
  uint64_t Length = R.relocated(L, 4);
  bool Dwarf64 = false;
  if (L.ok() && Length == dwarf::DW_LENGTH_DWARF64) {
    Length = R.relocated(L, 8);
    Dwarf64 = true;
  } else if (L.ok() && Length >= dwarf::DW_LENGTH_lo_reserved) {
    C.Failed = true;
    C.FailOffset = C.Offset;
    C.Reason = Cursor::Why::ReservedLength;
    return;
  }
  if (!L.ok()) {
    C = L;
    C.Offset = H.Offset;
    return;
  }
  C.Offset = L.Offset;
  H.UnitLength = Length;
  H.Dwarf64 = Dwarf64;
}

/// DWARF 5 gives the address size in the header; LLVM compares it with the
/// unit's, or, without a unit, with the sizes it can read.
void HeaderParser::checkAddressSize() {
  if (S.AddressSize == 0) {
    if (H.AddressSize != 4 && H.AddressSize != 8)
      warn("invalid address size " + Twine(H.AddressSize));
  } else if (S.AddressSize != H.AddressSize) {
    warn("address size " + Twine(H.AddressSize) +
         " does not match the unit's address size " + Twine(S.AddressSize));
  }
}

Error HeaderParser::parse() {
  Cursor C(H.Offset);
  readInitialLength(C);
  // LLVM's views are prefixes of the section whose ends are sums that may
  // wrap; narrowing by a smaller end keeps the sum's (size_t) meaning.
  R.narrow(C.Offset + H.UnitLength);
  H.Version = uint16_t(R.fixed(C, 2));
  if (C.ok() && (H.Version < 2 || H.Version > 5))
    return fatal("unsupported version " + Twine(H.Version));
  if (H.Version >= 5) {
    H.AddressSize = uint8_t(R.fixed(C, 1));
    if (C.ok())
      checkAddressSize();
    H.SegmentSelectorSize = uint8_t(R.fixed(C, 1));
  }
  H.HeaderLength = R.relocated(C, offsetSize());
  const uint64_t HeaderEnd = H.HeaderLength + C.Offset;
  H.ProgramOffset = HeaderEnd;
  R.narrow(HeaderEnd);
  H.MinInstLength = uint8_t(R.fixed(C, 1));
  if (H.Version >= 4)
    H.MaxOpsPerInst = uint8_t(R.fixed(C, 1));
  H.DefaultIsStmt = uint8_t(R.fixed(C, 1));
  H.LineBase = int8_t(R.fixed(C, 1));
  H.LineRange = uint8_t(R.fixed(C, 1));
  H.OpcodeBase = uint8_t(R.fixed(C, 1));
  if (C.ok() && H.OpcodeBase == 0) {
    warn("opcode base 0: no standard opcodes assumed");
  } else if (C.ok()) {
    uint64_t At = C.Offset;
    R.skip(C, H.OpcodeBase - 1);
    if (C.ok())
      H.StandardOpcodeLengths = S.Line.substr(At, H.OpcodeBase - 1);
  }
  if (!C.ok())
    return fatal("header cut short: " + C.describe());

  // A damaged directory or file table does not stop LLVM from reading the
  // program: it keeps the entries read so far.
  uint64_t Off = C.Offset;
  Error E = H.Version >= 5 ? readV5Tables(Off) : readV2Tables(Off);
  if (E) {
    if (E.isA<UnsupportedLineHeader>())
      return E;
    warn("invalid directory or file table at " + hex(Off) + ": " +
         toString(std::move(E)));
    return Error::success();
  }
  if (Off != HeaderEnd)
    warn("the header's tables end at " + hex(Off) +
         ", before the header's end at " + hex(HeaderEnd));
  return Error::success();
}

/// parseV5EntryFormat, refusing the (content type, form) pairs LLVM cannot
/// take, and the ULEB128s the earlier header check called malformed (longer
/// than a uint64_t needs, or too big for one).
Error HeaderParser::readFormat(uint64_t &Off, StringRef Table, bool InFileTable,
                               SmallVectorImpl<Descriptor> &Out) {
  Cursor C(Off);
  uint64_t Count = R.fixed(C, 1);
  bool HasPath = false;
  for (uint64_t I = 0; I != Count && C.ok(); ++I) {
    Descriptor D;
    if (R.overlong(C.Offset))
      return refuse("malformed ULEB128 in the " + Table + " entry format");
    D.Type = R.uleb(C);
    if (C.ok() && R.overlong(C.Offset))
      return refuse("malformed ULEB128 in the " + Table + " entry format");
    D.Form = R.uleb(C);
    if (!C.ok())
      break;
    // Types and forms past 16 bits would be cut into other ones.
    if (D.Type > dwarf::DW_LNCT_hi_user || D.Form > UINT16_MAX ||
        !formFits(D.Type, D.Form, InFileTable)) {
      StringRef TypeName = contentTypeName(D.Type);
      StringRef FormName = dwarf::FormEncodingString(unsigned(D.Form));
      return refuse("the " + Table + " entry format gives content type " +
                    (!TypeName.empty() ? TypeName.str() : hex(D.Type)) +
                    " form " +
                    (D.Form <= UINT16_MAX && !FormName.empty() ? FormName.str()
                                                               : hex(D.Form)) +
                    ", which LLVM's line-table reader cannot take");
    }
    HasPath |= D.Type == dwarf::DW_LNCT_path;
    Out.push_back(D);
  }
  Off = C.Offset;
  if (!C.ok())
    return tableError("cannot read the " + Table +
                      " entry format: " + C.describe());
  if (!HasPath)
    return tableError("the " + Table + " entry format has no path");
  return Error::success();
}

Error HeaderParser::readV5Tables(uint64_t &Off) {
  SmallVector<Descriptor, 4> Dirs, Files;
  if (Error E = readFormat(Off, "directory", false, Dirs))
    return E;
  if (Error E = readDirectories(Off, Dirs))
    return E;
  if (Error E = readFormat(Off, "file name", true, Files))
    return E;
  return readFiles(Off, Files);
}

/// LLVM extracts each directory's path and skips its other fields with
/// DWARFFormValue::skipValue, which adds sizes unchecked: a field past the
/// header's end moves the offset past it, or around.
Error HeaderParser::readDirectories(uint64_t &Off,
                                    ArrayRef<Descriptor> Format) {
  if (R.overlong(Off))
    return refuse("malformed ULEB128 in the directories");
  // Counts are read without an error: a failed read gives 0.
  Cursor N(Off);
  uint64_t Count = R.uleb(N);
  if (N.ok())
    Off = N.Offset;
  for (uint64_t I = 0; I != Count; ++I) {
    for (const Descriptor &D : Format) {
      if (D.Type != dwarf::DW_LNCT_path) {
        if (Error E = skipValue(Off, D.Form))
          return E;
        continue;
      }
      Layout Kind = formInfo(D.Form).Kind;
      if (Kind == Layout::ULEB && Off > R.end())
        return readsOutside();
      if (Kind == Layout::ULEB && R.overlong(Off))
        return refuse("malformed ULEB128 in the directories");
      Cursor C(Off);
      uint64_t BlockSize = 0;
      uint64_t Value = extractValue(C, D.Form, BlockSize);
      if (!C.ok())
        return tableError("cannot read a directory entry: " + C.describe());
      Off = C.Offset;
      H.Dirs.push_back({Value, uint16_t(D.Form)});
    }
  }
  return Error::success();
}

/// DWARFFormValue::skipValue over a directory field (a form formFits let
/// through): reads without an error, sizes added unchecked.
Error HeaderParser::skipValue(uint64_t &Off, uint64_t Form) {
  FormInfo F = formInfo(Form);
  auto Advance = [&](uint64_t Size) -> Error {
    uint64_t Next = Off + Size;
    if (Next < Off)
      return readsOutside();
    Off = Next;
    return Error::success();
  };
  auto Leb = [&](bool Signed) -> Expected<uint64_t> {
    if (Off > R.end())
      return readsOutside();
    if (R.overlong(Off))
      return refuse("malformed ULEB128 in the directories");
    Cursor C(Off);
    uint64_t V = Signed ? uint64_t(R.sleb(C)) : R.uleb(C);
    if (!C.ok())
      return 0;
    Off = C.Offset;
    return V;
  };
  switch (F.Kind) {
  case Layout::Fixed:
    return Advance(F.Size);
  case Layout::Offset:
    // LLVM sizes these with getFixedFormByteSize, which knows no size while
    // the form parameters lack an address size (a header giving 0).
    if (H.AddressSize == 0)
      break;
    return Advance(offsetSize());
  case Layout::ULEB:
  case Layout::SLEB:
    return Leb(F.Kind == Layout::SLEB).takeError();
  case Layout::CString: {
    Cursor C(Off);
    R.cstr(C);
    if (C.ok())
      Off = C.Offset;
    return Error::success();
  }
  case Layout::Block: {
    uint64_t Size = 0;
    if (F.Size) {
      Cursor C(Off);
      Size = R.fixed(C, F.Size);
      if (C.ok())
        Off = C.Offset;
    } else {
      Expected<uint64_t> V = Leb(false);
      if (!V)
        return V.takeError();
      Size = *V;
    }
    return Advance(Size);
  }
  case Layout::Unknown:
    break;
  }
  return tableError("cannot skip a directory field of form " + hex(Form));
}

/// DWARFFormValue::extractValue for a form formInfo knows: a constant, a
/// string offset or index, or the offset of an inline string or block
/// (whose size goes to BlockSize). C fails as LLVM's read fails.
uint64_t HeaderParser::extractValue(Cursor &C, uint64_t Form,
                                    uint64_t &BlockSize) {
  FormInfo F = formInfo(Form);
  switch (F.Kind) {
  case Layout::Fixed:
    if (Form == dwarf::DW_FORM_data16) {
      uint64_t At = C.Offset;
      R.skip(C, 16);
      BlockSize = 16;
      return At;
    }
    // LLVM reads the 4- and 8-byte constants relocated.
    if (F.Size == 4 || F.Size == 8)
      return R.relocated(C, F.Size);
    return R.fixed(C, F.Size);
  case Layout::Offset:
    return R.relocated(C, offsetSize());
  case Layout::ULEB:
    return R.uleb(C);
  case Layout::SLEB:
    return uint64_t(R.sleb(C));
  case Layout::CString: {
    uint64_t At = C.Offset;
    R.cstr(C);
    return At;
  }
  case Layout::Block: {
    BlockSize = F.Size ? R.fixed(C, F.Size) : R.uleb(C);
    uint64_t At = C.Offset;
    R.skip(C, BlockSize);
    return At;
  }
  case Layout::Unknown:
    break;
  }
  // formFits keeps other forms out; fail as a read would.
  C.Failed = true;
  C.FailOffset = C.Offset;
  return 0;
}

Error HeaderParser::readFiles(uint64_t &Off, ArrayRef<Descriptor> Format) {
  Cursor N(Off);
  uint64_t Count = R.uleb(N);
  if (N.ok())
    Off = N.Offset;
  for (uint64_t I = 0; I != Count; ++I) {
    LineFile File;
    Cursor C(Off);
    for (const Descriptor &D : Format) {
      uint64_t BlockSize = 0;
      uint64_t Value = extractValue(C, D.Form, BlockSize);
      if (!C.ok())
        return tableError("cannot read a file entry: " + C.describe());
      switch (D.Type) {
      case dwarf::DW_LNCT_path:
        File.Name = {Value, uint16_t(D.Form)};
        break;
      case dwarf::DW_LNCT_directory_index:
        File.DirIndex = Value;
        break;
      case dwarf::DW_LNCT_MD5:
        if (BlockSize != 16)
          return tableError("a file entry's MD5 is not 16 bytes");
        break;
      default:
        break;
      }
    }
    Off = C.Offset;
    H.Files.push_back(File);
  }
  return Error::success();
}

/// DWARF 2 to 4: NUL-terminated directories, then files (name, directory
/// index, time, size), each list ended by an empty string.
Error HeaderParser::readV2Tables(uint64_t &Off) {
  while (true) {
    Cursor C(Off);
    StringRef Dir = R.cstr(C);
    if (!C.ok())
      return tableError("the include directories do not end before the "
                        "header's end");
    uint64_t At = Off;
    Off = C.Offset;
    if (Dir.empty())
      break;
    H.Dirs.push_back({At, uint16_t(dwarf::DW_FORM_string)});
  }
  while (true) {
    Cursor C(Off);
    StringRef Name = R.cstr(C);
    if (C.ok() && Name.empty()) {
      Off = C.Offset;
      break;
    }
    LineFile File;
    File.Name = {Off, uint16_t(dwarf::DW_FORM_string)};
    File.DirIndex = R.uleb(C);
    R.uleb(C); // modification time
    R.uleb(C); // size
    if (!C.ok())
      return tableError("the file names do not end before the header's end");
    Off = C.Offset;
    H.Files.push_back(File);
  }
  return Error::success();
}

} // namespace

Error LineHeader::parse(const LineSections &S, uint64_t Offset, LineHeader &H,
                        function_ref<void(Error)> Warn) {
  return HeaderParser(S, Offset, H, Warn).parse();
}

} // namespace dwarfpack::input
