//===- LineTable.cpp - DWARF line tables ----------------------------------===//
//
// The line program's state machine, run as LLVM 19's LineTable::parse runs
// it: the same operand reads (and failures), the same register widths (a
// 16-bit file and column, an 8-bit ISA and op_index), the same quirks (a
// tombstone address drops rows until the next DW_LNE_set_address; special
// opcode 8 advances as DW_LNS_const_add_pc does; the address size set by the
// first DW_LNE_set_address sticks when the unit gives none), and the same
// warnings, each at most as often as LLVM gives it.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/LineTable.h"
#include "dwarfpack/DwarfInput/Dwarf.h"

#include "LineBytes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace dwarfpack::input {

namespace {

using detail::ByteReader;
using detail::Cursor;

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// The registers of the state machine, as LLVM keeps them, and the
/// sequence being built. A value: the hot loop keeps it in locals, and the
/// opcodes it leaves to the general code go in and out by copy.
struct Machine {
  uint64_t Address;
  uint64_t SectionIndex;
  uint64_t SequenceLow;
  uint32_t Line;
  uint32_t Discriminator;
  uint32_t SequenceFirst;
  uint16_t File;
  uint16_t Column;
  uint8_t Flags;
  uint8_t OpIndex;
  uint8_t Isa;
  bool SequenceOpen;
  /// The last DW_LNE_set_address gave the tombstone of its size: rows are
  /// dropped until the next one (LLVM keeps this over end_sequence).
  bool Tombstoned;
};

/// Appends a row written field by field into its place: a row built on the
/// stack and copied in was read back before its stores had landed.
inline void appendRow(std::vector<LineRow> &Rows, uint64_t Address,
                      uint32_t Line, uint32_t Discriminator, uint16_t File,
                      uint16_t Column, uint8_t Flags, uint8_t OpIndex,
                      uint8_t Isa) {
  LineRow &R = Rows.emplace_back();
  R.Address = Address;
  R.Line = Line;
  R.Discriminator = Discriminator;
  R.File = File;
  R.Column = Column;
  R.Flags = Flags;
  R.OpIndex = OpIndex;
  R.Isa = Isa;
}

/// Where the general code left the machine.
struct Step {
  Machine M;
  uint64_t Off;
  LineTable::Stop Stop;
};

/// An unsigned LEB128 of at most 9 bytes that ends before End (the common
/// case, where LLVM's decoder gives the plain value); false otherwise.
inline bool shortULEB(const uint8_t *&P, const uint8_t *End, uint64_t &V) {
  uint64_t Value = 0;
  for (unsigned Shift = 0; Shift < 63 && P + Shift / 7 < End; Shift += 7) {
    uint8_t Byte = P[Shift / 7];
    Value |= uint64_t(Byte & 0x7f) << Shift;
    if (Byte < 128) {
      P += Shift / 7 + 1;
      V = Value;
      return true;
    }
  }
  return false;
}

/// The signed counterpart of shortULEB.
inline bool shortSLEB(const uint8_t *&P, const uint8_t *End, int64_t &V) {
  uint64_t Value = 0;
  for (unsigned Shift = 0; Shift < 63 && P + Shift / 7 < End; Shift += 7) {
    uint8_t Byte = P[Shift / 7];
    Value |= uint64_t(Byte & 0x7f) << Shift;
    if (Byte < 128) {
      if (Byte & 0x40)
        Value |= UINT64_MAX << (Shift + 7);
      P += Shift / 7 + 1;
      V = int64_t(Value);
      return true;
    }
  }
  return false;
}

class ProgramDecoder {
public:
  ProgramDecoder(const LineSections &S, LineHeader &H,
                 std::vector<LineRow> &Rows,
                 std::vector<LineSequence> &Sequences,
                 function_ref<void(Error)> Warn)
      : R(S.Line, S.LittleEndian, S.Relocate), S(S), H(H), Rows(Rows),
        Sequences(Sequences), Warn(Warn) {}

  LineTable::Stop run();

private:
  void warn(const Twine &Msg) {
    Warn(createStringError(inconvertibleErrorCode(),
                           "line table at " + hex(H.Offset) + ": " + Msg));
  }
  std::string opcodeName(uint8_t Op) const {
    if (Op >= H.OpcodeBase)
      return "special opcode " + hex(Op);
    StringRef Name = dwarf::LNStandardString(Op);
    return Name.empty() ? "standard opcode " + hex(Op) : Name.str();
  }

  Machine initial() const {
    Machine M = {};
    M.SectionIndex = NoSection;
    M.Line = 1;
    M.File = 1;
    // LLVM passes default_is_stmt on as a bool.
    M.Flags = H.DefaultIsStmt ? LineRow::IsStmt : 0;
    return M;
  }
  void reset() {
    bool Tombstoned = Regs.Tombstoned;
    Regs = initial();
    Regs.Tombstoned = Tombstoned;
  }
  bool fast() const {
    return H.MaxOpsPerInst <= 1 && !ReportAdvance &&
           !(ReportLineRange && H.LineRange == 0);
  }
  static void emitRow(Machine &M, std::vector<LineRow> &Rows,
                      std::vector<LineSequence> &Sequences);
  void prepareSpecialOpcodes();
  void advance(uint64_t OperationAdvance, uint8_t Op, uint64_t OpOffset);
  uint8_t advanceForOpcode(uint8_t Op, uint64_t OpOffset);
  LLVM_ATTRIBUTE_NOINLINE Machine special(Machine M, uint8_t Op,
                                          uint64_t OpOffset);
  LLVM_ATTRIBUTE_NOINLINE Step general(Machine M, uint64_t Off);
  bool extended(uint64_t &Off);
  void setAddress(Cursor &C, uint64_t Length, uint64_t OperandsAt);
  bool standard(uint8_t Op, uint64_t &Off);
  uint64_t programEnd();

  ByteReader R;
  const LineSections &S;
  LineHeader &H;
  std::vector<LineRow> &Rows;
  std::vector<LineSequence> &Sequences;
  function_ref<void(Error)> Warn;

  /// The machine while the general code runs.
  Machine Regs = {};
  /// The size DW_LNE_set_address is expected to have (0: any).
  uint8_t AddressSize = 0;
  // Warnings LLVM gives once a table.
  bool ReportAdvance = true;
  bool ReportLineRange = true;
  /// Special opcodes by table, and DW_LNS_const_add_pc's advance (when the
  /// op_index stays 0 and no warning is due).
  uint64_t SpecialAddress[256] = {};
  int32_t SpecialLine[256] = {};
  uint64_t ConstAddPc = 0;
};

/// LLVM's appendRowToMatrix: rows open a sequence, end_sequence closes it.
/// A row dropped for a tombstone is not appended at all: its discriminator
/// and flags stay for the next one, as in LLVM.
inline void ProgramDecoder::emitRow(Machine &M, std::vector<LineRow> &Rows,
                                    std::vector<LineSequence> &Sequences) {
  if (M.Tombstoned)
    return;
  uint32_t Index = uint32_t(Rows.size());
  if (!M.SequenceOpen) {
    M.SequenceOpen = true;
    M.SequenceLow = M.Address;
    M.SequenceFirst = Index;
  }
  appendRow(Rows, M.Address, M.Line, M.Discriminator, M.File, M.Column, M.Flags,
            M.OpIndex, M.Isa);
  if (LLVM_UNLIKELY(M.Flags & LineRow::EndSequence)) {
    // LLVM keeps only sequences that cover some bytes.
    if (M.SequenceLow < M.Address)
      Sequences.push_back({M.SequenceLow, M.Address, M.SectionIndex,
                           M.SequenceFirst, Index + 1});
    M.SequenceOpen = false;
  }
  M.Discriminator = 0;
  M.Flags &=
      ~(LineRow::BasicBlock | LineRow::PrologueEnd | LineRow::EpilogueBegin);
}

/// LLVM's advanceForOpcode for each special opcode and for
/// DW_LNS_const_add_pc, when the op_index stays 0 (at most one operation an
/// instruction). Opcode 8 is advanced as DW_LNS_const_add_pc even when it
/// is special (opcode_base 8 or less), as LLVM does.
void ProgramDecoder::prepareSpecialOpcodes() {
  if (H.LineRange == 0)
    return; // nothing advances
  auto Adjusted = [&](unsigned Op) {
    return uint8_t((Op == dwarf::DW_LNS_const_add_pc ? 255 : Op) -
                   H.OpcodeBase);
  };
  for (unsigned Op = std::max<unsigned>(H.OpcodeBase, 1); Op < 256; ++Op) {
    SpecialAddress[Op] = uint64_t(Adjusted(Op) / H.LineRange) * H.MinInstLength;
    SpecialLine[Op] = H.LineBase + Adjusted(Op) % H.LineRange;
  }
  ConstAddPc = uint64_t(Adjusted(dwarf::DW_LNS_const_add_pc) / H.LineRange) *
               H.MinInstLength;
}

/// DWARF 5 section 6.2.5.1: the operation advance moves op_index and, per
/// maximum_operations_per_instruction operations, the address.
void ProgramDecoder::advance(uint64_t OperationAdvance, uint8_t Op,
                             uint64_t OpOffset) {
  if (ReportAdvance) {
    ReportAdvance = false;
    std::string At = opcodeName(Op) + " at " + hex(OpOffset);
    if (H.Version >= 4 && H.MaxOpsPerInst == 0)
      warn(At + ": maximum_operations_per_instruction is 0, taken as 1");
    if (H.MaxOpsPerInst > 1)
      warn(At + ": maximum_operations_per_instruction is " +
           Twine(H.MaxOpsPerInst) +
           ", which LLVM supports only experimentally");
    if (H.MinInstLength == 0)
      warn(At + ": minimum_instruction_length is 0: addresses do not advance");
  }
  uint8_t MaxOps = std::max<uint8_t>(H.MaxOpsPerInst, 1);
  uint64_t Operations = uint64_t(Regs.OpIndex) + OperationAdvance;
  Regs.Address += (Operations / MaxOps) * H.MinInstLength;
  Regs.OpIndex = uint8_t(Operations % MaxOps);
}

uint8_t ProgramDecoder::advanceForOpcode(uint8_t Op, uint64_t OpOffset) {
  if (ReportLineRange && H.LineRange == 0) {
    ReportLineRange = false;
    warn(opcodeName(Op) + " at " + hex(OpOffset) +
         ": line_range is 0: address and line do not advance");
  }
  uint8_t Value = Op == dwarf::DW_LNS_const_add_pc ? 255 : Op;
  uint8_t Adjusted = uint8_t(Value - H.OpcodeBase);
  advance(H.LineRange ? Adjusted / H.LineRange : 0, Op, OpOffset);
  return Adjusted;
}

/// A special opcode while a warning may be due or op_index may move.
Machine ProgramDecoder::special(Machine M, uint8_t Op, uint64_t OpOffset) {
  Regs = M;
  uint8_t Adjusted = advanceForOpcode(Op, OpOffset);
  if (H.LineRange)
    Regs.Line += int32_t(H.LineBase + Adjusted % H.LineRange);
  return Regs;
}

/// An extended opcode, or a standard one the hot loop leaves alone.
Step ProgramDecoder::general(Machine M, uint64_t Off) {
  Regs = M;
  LineTable::Stop Stop = LineTable::Stop::Complete;
  if (R.data()[Off] == 0) {
    if (!extended(Off))
      Stop = LineTable::Stop::LoopingLength;
  } else if (!standard(R.data()[Off], Off)) {
    Stop = LineTable::Stop::BadOperand;
  }
  return {Regs, Off, Stop};
}

/// DW_LNE_set_address: the operand's size is its length, whatever the
/// unit's address size (a mismatch is a warning).
void ProgramDecoder::setAddress(Cursor &C, uint64_t Length,
                                uint64_t OperandsAt) {
  uint64_t Size = Length - 1;
  if (AddressSize != 0 && AddressSize != Size)
    warn("DW_LNE_set_address at " + hex(OperandsAt) + ": address size " +
         Twine(Size) + ", expected " + Twine(AddressSize));
  if (Size != 1 && Size != 2 && Size != 4 && Size != 8) {
    warn("DW_LNE_set_address at " + hex(OperandsAt) +
         ": unsupported address size " + Twine(Size));
    R.skip(C, Size);
    return;
  }
  // Without a size from the unit or header, the first operand's sticks.
  if (AddressSize == 0)
    AddressSize = uint8_t(Size);
  Regs.Address = R.relocated(C, unsigned(Size), &Regs.SectionIndex);
  Regs.OpIndex = 0;
  Regs.Tombstoned = Regs.Address == (UINT64_MAX >> (64 - 8 * Size));
}

/// An extended opcode; false when its length leads back to or before it.
bool ProgramDecoder::extended(uint64_t &Off) {
  const uint64_t OpOffset = Off;
  Cursor C(Off + 1);
  uint64_t Length = R.uleb(C);
  const uint64_t OperandsAt = C.Offset;
  if (Length == 0) {
    // LLVM steps over it (or over the opcode byte, if the length is bad).
    if (!C.ok())
      warn("extended opcode at " + hex(OpOffset) + ": " + C.describe());
    Off = C.Offset;
    return true;
  }
  // A sub-opcode cut off reads as 0, an unknown one.
  uint8_t SubOpcode = uint8_t(R.fixed(C, 1));
  switch (SubOpcode) {
  case dwarf::DW_LNE_end_sequence:
    Regs.Flags |= LineRow::EndSequence;
    emitRow(Regs, Rows, Sequences);
    reset();
    break;
  case dwarf::DW_LNE_set_address:
    setAddress(C, Length, OperandsAt);
    break;
  case dwarf::DW_LNE_define_file: {
    uint64_t NameAt = C.Offset;
    R.cstr(C);
    LineFile File;
    File.Name = {C.ok() ? NameAt : LineString::Null,
                 uint16_t(dwarf::DW_FORM_string)};
    File.DirIndex = R.uleb(C);
    R.uleb(C); // modification time
    R.uleb(C); // size
    H.Files.push_back(File);
    break;
  }
  case dwarf::DW_LNE_set_discriminator:
    Regs.Discriminator = uint32_t(R.uleb(C));
    break;
  default:
    R.skip(C, Length - 1);
    break;
  }
  // The length decides where the next opcode is, whatever the operands
  // took (LLVM's sum may wrap).
  uint64_t Next = OperandsAt + Length;
  if (C.ok() && C.Offset != Next)
    warn("extended opcode at " + hex(OpOffset) + ": length " + hex(Length) +
         ", but its operands take " + hex(C.Offset - OperandsAt));
  if (!C.ok())
    warn("extended opcode at " + hex(OpOffset) + ": " + C.describe());
  if (Next <= OpOffset) {
    warn("extended opcode at " + hex(OpOffset) + ": length " + hex(Length) +
         " leads back to " + hex(Next) + "; decoding stops there");
    return false;
  }
  Off = Next;
  return true;
}

/// A standard opcode; false when an operand cannot be read (LLVM's parse
/// stops there with an error).
bool ProgramDecoder::standard(uint8_t Op, uint64_t &Off) {
  const uint64_t OpOffset = Off;
  Cursor C(Off + 1);
  switch (Op) {
  case dwarf::DW_LNS_copy:
    emitRow(Regs, Rows, Sequences);
    break;
  case dwarf::DW_LNS_advance_pc: {
    uint64_t Operations = R.uleb(C);
    if (C.ok())
      advance(Operations, Op, OpOffset);
    break;
  }
  case dwarf::DW_LNS_advance_line: {
    int64_t Delta = R.sleb(C);
    if (C.ok())
      Regs.Line = uint32_t(uint64_t(Regs.Line) + uint64_t(Delta));
    break;
  }
  case dwarf::DW_LNS_set_file: {
    uint64_t File = R.uleb(C);
    if (C.ok())
      Regs.File = uint16_t(File);
    break;
  }
  case dwarf::DW_LNS_set_column: {
    uint64_t Column = R.uleb(C);
    if (C.ok())
      Regs.Column = uint16_t(Column);
    break;
  }
  case dwarf::DW_LNS_negate_stmt:
    Regs.Flags ^= LineRow::IsStmt;
    break;
  case dwarf::DW_LNS_set_basic_block:
    Regs.Flags |= LineRow::BasicBlock;
    break;
  case dwarf::DW_LNS_const_add_pc:
    advanceForOpcode(Op, OpOffset);
    break;
  case dwarf::DW_LNS_fixed_advance_pc: {
    uint16_t Delta = uint16_t(R.relocated(C, 2));
    if (C.ok()) {
      Regs.Address += Delta;
      Regs.OpIndex = 0;
    }
    break;
  }
  case dwarf::DW_LNS_set_prologue_end:
    Regs.Flags |= LineRow::PrologueEnd;
    break;
  case dwarf::DW_LNS_set_epilogue_begin:
    Regs.Flags |= LineRow::EpilogueBegin;
    break;
  case dwarf::DW_LNS_set_isa: {
    uint64_t Isa = R.uleb(C);
    if (C.ok())
      Regs.Isa = uint8_t(Isa);
    break;
  }
  default: {
    // An opcode this decoder does not know: the header gives its number of
    // ULEB128 operands.
    uint8_t Operands = uint8_t(H.StandardOpcodeLengths[Op - 1]);
    for (unsigned I = 0; I < Operands && C.ok(); ++I)
      R.uleb(C);
    break;
  }
  }
  Off = C.Offset;
  if (C.ok())
    return true;
  warn(opcodeName(Op) + " at " + hex(OpOffset) + ": " + C.describe() +
       "; decoding stops there");
  return false;
}

/// The end of the program: the unit's end, or the section's when the unit
/// claims more bytes than it has.
uint64_t ProgramDecoder::programEnd() {
  uint64_t Length = H.UnitLength + H.unitLengthSize();
  uint64_t Size = S.Line.size();
  uint64_t Last = H.Offset + Length;
  if (Last < H.Offset || Last > Size) {
    warn("the unit's length " + hex(Length) + " runs past the section (" +
         hex(Size - H.Offset) + " bytes)");
    Length = Size - H.Offset;
  }
  return H.Offset + Length;
}

LineTable::Stop ProgramDecoder::run() {
  const uint64_t End = programEnd();
  R.setEnd(End);
  AddressSize = S.AddressSize ? S.AddressSize : H.AddressSize;
  prepareSpecialOpcodes();
  uint64_t Off = H.ProgramOffset;
  if (Off < End)
    Rows.reserve((End - Off) / 3 + 1);
  // The hot loop: special opcodes and the common standard ones on the
  // machine's registers in locals (a struct the cold calls see would live
  // in memory); the rest, and everything while a warning may be due or
  // op_index may move, in the general code.
  const uint8_t *const Bytes = R.data();
  const uint8_t *const EndPtr = Bytes + End;
  const uint8_t OpcodeBase = H.OpcodeBase;
  const uint8_t MinInst = H.MinInstLength;
  const uint64_t ConstAddPcAddress = ConstAddPc;
  Machine M = initial();
  uint64_t Address = M.Address, Section = M.SectionIndex;
  uint64_t SequenceLow = M.SequenceLow;
  uint32_t Line = M.Line, Discriminator = M.Discriminator;
  uint32_t SequenceFirst = M.SequenceFirst;
  uint16_t File = M.File, Column = M.Column;
  uint8_t Flags = M.Flags, OpIndex = M.OpIndex, Isa = M.Isa;
  bool SequenceOpen = M.SequenceOpen, Tombstoned = M.Tombstoned;
  auto Pack = [&] {
    return Machine{
        Address, Section, SequenceLow, Line, Discriminator, SequenceFirst, File,
        Column,  Flags,   OpIndex,     Isa,  SequenceOpen,  Tombstoned};
  };
  auto Unpack = [&](const Machine &X) {
    Address = X.Address;
    Section = X.SectionIndex;
    SequenceLow = X.SequenceLow;
    Line = X.Line;
    Discriminator = X.Discriminator;
    SequenceFirst = X.SequenceFirst;
    File = X.File;
    Column = X.Column;
    Flags = X.Flags;
    OpIndex = X.OpIndex;
    Isa = X.Isa;
    SequenceOpen = X.SequenceOpen;
    Tombstoned = X.Tombstoned;
  };
  // emitRow for rows that cannot end a sequence.
  auto Emit = [&] {
    if (LLVM_UNLIKELY(Tombstoned))
      return;
    if (!SequenceOpen) {
      SequenceOpen = true;
      SequenceLow = Address;
      SequenceFirst = uint32_t(Rows.size());
    }
    appendRow(Rows, Address, Line, Discriminator, File, Column, Flags, OpIndex,
              Isa);
    Discriminator = 0;
    Flags &=
        ~(LineRow::BasicBlock | LineRow::PrologueEnd | LineRow::EpilogueBegin);
  };
  bool Fast = fast();
  // Opcode 0 is extended whatever opcode_base says.
  const uint8_t FirstSpecial = std::max<uint8_t>(OpcodeBase, 1);
  // header_length may put the program anywhere past the table's end.
  const uint8_t *Pos = Off < End ? Bytes + Off : EndPtr;
  while (Pos < EndPtr) {
    const uint8_t Op = *Pos;
    if (LLVM_LIKELY(Op >= FirstSpecial)) {
      if (LLVM_LIKELY(Fast)) {
        Address += SpecialAddress[Op];
        Line += SpecialLine[Op];
      } else {
        Unpack(special(Pack(), Op, uint64_t(Pos - Bytes)));
        Fast = fast();
      }
      Emit();
      ++Pos;
      continue;
    }
    if (Op != 0 && Fast) {
      const uint8_t *P = Pos + 1;
      uint64_t U;
      int64_t I;
      bool Done = true;
      switch (Op) {
      case dwarf::DW_LNS_copy:
        Emit();
        break;
      case dwarf::DW_LNS_advance_pc:
        if ((Done = shortULEB(P, EndPtr, U)))
          Address += U * MinInst;
        break;
      case dwarf::DW_LNS_advance_line:
        if ((Done = shortSLEB(P, EndPtr, I)))
          Line = uint32_t(uint64_t(Line) + uint64_t(I));
        break;
      case dwarf::DW_LNS_set_file:
        if ((Done = shortULEB(P, EndPtr, U)))
          File = uint16_t(U);
        break;
      case dwarf::DW_LNS_set_column:
        if ((Done = shortULEB(P, EndPtr, U)))
          Column = uint16_t(U);
        break;
      case dwarf::DW_LNS_negate_stmt:
        Flags ^= LineRow::IsStmt;
        break;
      case dwarf::DW_LNS_set_basic_block:
        Flags |= LineRow::BasicBlock;
        break;
      case dwarf::DW_LNS_const_add_pc:
        Address += ConstAddPcAddress;
        break;
      case dwarf::DW_LNS_set_prologue_end:
        Flags |= LineRow::PrologueEnd;
        break;
      case dwarf::DW_LNS_set_epilogue_begin:
        Flags |= LineRow::EpilogueBegin;
        break;
      default:
        Done = false;
        break;
      }
      if (Done) {
        Pos = P;
        continue;
      }
    }
    Step S = general(Pack(), uint64_t(Pos - Bytes));
    if (S.Stop != LineTable::Stop::Complete)
      return S.Stop;
    Unpack(S.M);
    // An extended opcode's length may lead past the table (or the
    // address space).
    if (S.Off >= End)
      break;
    Pos = Bytes + S.Off;
    Fast = fast();
  }
  M = Pack();
  if (M.SequenceOpen)
    warn("the last sequence is not terminated");
  // As LLVM sorts them (llvm::sort: equal keys keep LLVM's order because
  // the algorithm is the same).
  llvm::sort(Sequences, [](const LineSequence &A, const LineSequence &B) {
    return std::tie(A.SectionIndex, A.HighPC) <
           std::tie(B.SectionIndex, B.HighPC);
  });
  return LineTable::Stop::Complete;
}

bool isAbsolute(StringRef Path) {
  // Paths come from any system.
  return sys::path::is_absolute(Path, sys::path::Style::posix) ||
         sys::path::is_absolute(Path, sys::path::Style::windows);
}

/// The NUL-terminated string at Offset of Section, none if there is none.
std::optional<StringRef> cstringAt(StringRef Section, uint64_t Offset) {
  if (Offset >= Section.size())
    return std::nullopt;
  size_t Nul = Section.find('\0', Offset);
  if (Nul == StringRef::npos)
    return std::nullopt;
  return Section.slice(Offset, Nul);
}

} // namespace

Expected<LineTable> LineTable::parse(const LineSections &S, uint64_t Offset,
                                     function_ref<void(Error)> Warn) {
  LineTable T;
  if (Error E = T.decode(S, Offset, Warn))
    return std::move(E);
  return std::move(T);
}

LineSections lineSections(const Unit &U) {
  const DwarfFile &F = U.file();
  LineSections S;
  S.Line = F.section(Sec::Line);
  S.LineStr = F.section(Sec::LineStr);
  S.Str = F.section(Sec::Str);
  S.LittleEndian = F.isLittleEndian();
  S.AddressSize = U.getAddressByteSize();
  U.strOffsetsTable(S.StrOffsets, S.StrOffsetsBase, S.StrOffsetSize);
  return S;
}

Error LineTable::decode(const LineSections &S, uint64_t Offset,
                        function_ref<void(Error)> Warn) {
  Rows.clear();
  Sequences.clear();
  Ended = Stop::Complete;
  if (Error E = LineHeader::parse(S, Offset, Header, Warn)) {
    Header.Dirs.clear();
    Header.Files.clear();
    return E;
  }
  Line = S.Line;
  LineStr = S.LineStr;
  Str = S.Str;
  StrOffsets = S.StrOffsets;
  StrOffsetsBase = S.StrOffsetsBase;
  StrOffsetSize = S.StrOffsetSize;
  LittleEndian = S.LittleEndian;
  Ended = ProgramDecoder(S, Header, Rows, Sequences, Warn).run();
  return Error::success();
}

bool LineTable::hasFile(uint64_t Index) const {
  if (Header.Version >= 5)
    return Index < Header.Files.size();
  return Index != 0 && Index <= Header.Files.size();
}

std::optional<StringRef> LineTable::string(const LineString &S) const {
  using namespace dwarf;
  switch (S.Form) {
  case DW_FORM_string:
    if (S.Value == LineString::Null)
      return StringRef();
    return cstringAt(Line, S.Value);
  case DW_FORM_strp:
  case DW_FORM_strp_sup: // LLVM reads it in the unit's string section
    return cstringAt(Str, S.Value);
  case DW_FORM_line_strp:
    return cstringAt(LineStr, S.Value);
  case DW_FORM_strx:
  case DW_FORM_strx1:
  case DW_FORM_strx2:
  case DW_FORM_strx3:
  case DW_FORM_strx4:
  case DW_FORM_GNU_str_index: {
    if (StrOffsetSize != 4 && StrOffsetSize != 8)
      return std::nullopt;
    // DWARFUnit::getStringOffsetSectionItem: a 32-bit index times the
    // entry size, in 32 bits.
    uint32_t Scaled = uint32_t(S.Value) * uint32_t(StrOffsetSize);
    uint64_t At = StrOffsetsBase + Scaled;
    if (StrOffsets.size() < At + StrOffsetSize)
      return std::nullopt;
    // A read that does not fit gives offset 0, as in LLVM.
    ByteReader R(StrOffsets, LittleEndian);
    Cursor C(At);
    return cstringAt(Str, R.fixed(C, StrOffsetSize));
  }
  default: // DW_FORM_GNU_strp_alt (LLVM does not follow it) and non-strings
    return std::nullopt;
  }
}

bool LineTable::filePath(uint64_t Index, StringRef CompDir, std::string &Out,
                         bool *NameIsAbsolute) const {
  if (!hasFile(Index))
    return false;
  const bool V5 = Header.Version >= 5;
  const LineFile &File = Header.Files[V5 ? Index : Index - 1];
  std::optional<StringRef> Name = string(File.Name);
  if (!Name)
    return false;
  const bool Absolute = isAbsolute(*Name);
  if (NameIsAbsolute)
    *NameIsAbsolute = Absolute;
  if (Absolute) {
    Out = Name->str();
    return true;
  }
  // A directory that cannot be read is an empty one.
  StringRef Dir;
  uint64_t D = File.DirIndex;
  if (V5 ? D < Header.Dirs.size() : D != 0 && D <= Header.Dirs.size())
    Dir = string(Header.Dirs[V5 ? D : D - 1]).value_or(StringRef());
  // DWARF 5's directory 0 is the compilation directory itself. Each part
  // goes through sys::path::append as a StringRef, as in LLVM (an empty
  // one still adds a separator).
  SmallString<128> Path;
  if ((!V5 || D != 0) && !CompDir.empty() && !isAbsolute(Dir))
    sys::path::append(Path, sys::path::Style::native, CompDir);
  sys::path::append(Path, sys::path::Style::native, Dir, *Name);
  Out = std::string(Path);
  return true;
}

} // namespace dwarfpack::input
