//===- LineHeader.h - DWARF line-table headers ------------------*- C++ -*-===//
//
// The header of a .debug_line table (DWARF 2 to 5, 32- and 64-bit),
// decoded with the results of LLVM 19's DWARFDebugLine::Prologue::parse,
// damaged headers included: the same fields, directories and files, the
// same problems reported as recoverable (the header is still used) or as
// fatal (the table is not). Nothing is copied: strings stay in their
// sections and are looked up when a path is asked for.
//
// Some DWARF 5 headers are refused (UnsupportedLineHeader): those whose
// entry formats LLVM 19's parser cannot take. Its file entries go through
// DWARFFormValue::extractValue, which reaches llvm_unreachable on a form it
// does not know (in a release libLLVM: a jump to arbitrary code) and whose
// directory index, timestamp and size it dereferences as constants without
// a check; and it decodes a LEB128 past the end of the header without a
// bound when a directory field it steps over runs past that end. dwarfpack
// refuses such a table everywhere, also where LLVM still reads line tables
// (the verifier, through checkLineTableHeader).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_LINEHEADER_H
#define DWARFPACK_DWARFINPUT_LINEHEADER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dwarfpack::input {

/// The section index of an address no relocation placed (LLVM's
/// object::SectionedAddress::UndefSection).
constexpr uint64_t NoSection = ~uint64_t(0);

/// For a .debug_line read in place with its relocations (a relocatable
/// object's, as LLVM's DWARFDataExtractor reads it): given the Size-byte
/// field at Offset and the value Raw its bytes hold, returns the relocated
/// value and sets SectionIndex to the section it points into, or returns
/// Raw when no relocation applies there. Asked only for the fields LLVM
/// reads relocated: the lengths, DW_LNE_set_address, DW_LNS_fixed_advance_pc
/// and the 4- and 8-byte values and string offsets of DWARF 5 entries.
using LineRelocator = llvm::function_ref<uint64_t(
    uint64_t Offset, unsigned Size, uint64_t Raw, uint64_t &SectionIndex)>;

/// The bytes a line table is read from, as they are after decompression
/// (and relocation, unless Relocate is given).
struct LineSections {
  llvm::StringRef Line;    ///< .debug_line (or .debug_line.dwo)
  llvm::StringRef LineStr; ///< .debug_line_str: DW_FORM_line_strp
  /// The unit's string section (.debug_str, .debug_str.dwo for a split
  /// unit): DW_FORM_strp, and DW_FORM_strp_sup as LLVM reads it.
  llvm::StringRef Str;
  /// DW_FORM_strx* paths: the unit's string offsets table, when it has a
  /// valid one (StrOffsetSize 4 or 8; 0: none, and such paths have no
  /// name, as in LLVM without a unit).
  llvm::StringRef StrOffsets;
  uint64_t StrOffsetsBase = 0;
  uint8_t StrOffsetSize = 0;
  bool LittleEndian = true;
  /// The unit's address size, 0 when unknown (then DWARF 5's header, or the
  /// first DW_LNE_set_address, tells).
  uint8_t AddressSize = 0;
  LineRelocator Relocate = nullptr;
};

/// A string of a directory or file entry: a DW_FORM and its value (the
/// offset of an inline string in .debug_line, a string offset or index).
struct LineString {
  uint64_t Value = 0;
  uint16_t Form = 0; ///< 0: no name
  /// Value of a DW_FORM_string with no string (a DW_LNE_define_file cut
  /// short): read as the empty string, as LLVM reads its null pointer.
  static constexpr uint64_t Null = ~uint64_t(0);
};

struct LineFile {
  LineString Name;
  uint64_t DirIndex = 0;
};

/// A header LLVM's line-table parser cannot take (see the file comment);
/// the message names the table and what it cannot take.
class UnsupportedLineHeader : public llvm::ErrorInfo<UnsupportedLineHeader> {
public:
  static char ID;
  explicit UnsupportedLineHeader(std::string Message)
      : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Message;
};

struct LineHeader {
  /// Decodes the header of the table at Offset of S.Line into H. Problems
  /// LLVM reports as recoverable go to Warn (H is usable); an Error is a
  /// problem LLVM treats as fatal for the table (H is not usable), or an
  /// UnsupportedLineHeader.
  static llvm::Error parse(const LineSections &S, uint64_t Offset,
                           LineHeader &H,
                           llvm::function_ref<void(llvm::Error)> Warn);

  uint64_t Offset = 0;     ///< of the table in .debug_line
  uint64_t UnitLength = 0; ///< unit_length
  bool Dwarf64 = false;
  uint16_t Version = 0;
  uint8_t AddressSize = 0; ///< DWARF 5 only
  uint8_t SegmentSelectorSize = 0;
  uint64_t HeaderLength = 0;
  uint8_t MinInstLength = 0;
  uint8_t MaxOpsPerInst = 0; ///< DWARF 4 and later; else 0
  uint8_t DefaultIsStmt = 0;
  int8_t LineBase = 0;
  uint8_t LineRange = 0;
  uint8_t OpcodeBase = 0;
  /// Operand counts of the standard opcodes 1 to OpcodeBase - 1 (bytes of
  /// .debug_line).
  llvm::StringRef StandardOpcodeLengths;
  /// Where the line program starts (the header's end as header_length
  /// gives it).
  uint64_t ProgramOffset = 0;
  std::vector<LineString> Dirs;
  /// In the header's order; DWARF 5 numbers them from 0, earlier versions
  /// from 1.
  std::vector<LineFile> Files;

  unsigned unitLengthSize() const { return Dwarf64 ? 12 : 4; }
};

} // namespace dwarfpack::input

#endif
