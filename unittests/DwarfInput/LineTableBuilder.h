//===- LineTableBuilder.h - Hand-built line tables --------------*- C++ -*-===//
//
// Writes .debug_line tables byte by byte (any version, 32- or 64-bit, either
// byte order, any field overridden), and checks what LineTable makes of them
// against LLVM's parser (LineTableCheck.h) in a context holding the string
// sections.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UNITTESTS_DWARFINPUT_LINETABLEBUILDER_H
#define DWARFPACK_UNITTESTS_DWARFINPUT_LINETABLEBUILDER_H

#include "dwarfpack/DwarfInput/LineTableCheck.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dwarfpack::input::test {

using Bytes = std::vector<uint8_t>;

inline void putN(Bytes &Out, uint64_t V, unsigned N, bool BigEndian = false) {
  for (unsigned I = 0; I < N; ++I) {
    unsigned Shift = 8 * (BigEndian ? N - 1 - I : I);
    Out.push_back(uint8_t(V >> Shift));
  }
}

inline void putULEB(Bytes &Out, uint64_t V) {
  do {
    uint8_t B = V & 0x7f;
    V >>= 7;
    Out.push_back(B | (V ? 0x80 : 0));
  } while (V);
}

inline void putSLEB(Bytes &Out, int64_t V) {
  bool More = true;
  while (More) {
    uint8_t B = V & 0x7f;
    V >>= 7;
    More = !((V == 0 && !(B & 0x40)) || (V == -1 && (B & 0x40)));
    Out.push_back(B | (More ? 0x80 : 0));
  }
}

inline Bytes cstr(const char *S) {
  Bytes B(S, S + strlen(S));
  B.push_back(0);
  return B;
}

inline Bytes concat(std::initializer_list<Bytes> Parts) {
  Bytes Out;
  for (const Bytes &P : Parts)
    Out.insert(Out.end(), P.begin(), P.end());
  return Out;
}

/// A line program, opcode by opcode (opcode_base 13 numbering).
struct Program {
  explicit Program(bool BigEndian = false) : BigEndian(BigEndian) {}

  Program &op(uint8_t O) {
    B.push_back(O);
    return *this;
  }
  Program &uleb(uint64_t V) {
    putULEB(B, V);
    return *this;
  }
  Program &copy() { return op(llvm::dwarf::DW_LNS_copy); }
  Program &advancePc(uint64_t N) {
    return op(llvm::dwarf::DW_LNS_advance_pc).uleb(N);
  }
  Program &advanceLine(int64_t N) {
    op(llvm::dwarf::DW_LNS_advance_line);
    putSLEB(B, N);
    return *this;
  }
  Program &setFile(uint64_t N) {
    return op(llvm::dwarf::DW_LNS_set_file).uleb(N);
  }
  Program &setColumn(uint64_t N) {
    return op(llvm::dwarf::DW_LNS_set_column).uleb(N);
  }
  Program &negateStmt() { return op(llvm::dwarf::DW_LNS_negate_stmt); }
  Program &basicBlock() { return op(llvm::dwarf::DW_LNS_set_basic_block); }
  Program &constAddPc() { return op(llvm::dwarf::DW_LNS_const_add_pc); }
  Program &fixedAdvancePc(uint16_t N) {
    op(llvm::dwarf::DW_LNS_fixed_advance_pc);
    putN(B, N, 2, BigEndian);
    return *this;
  }
  Program &prologueEnd() { return op(llvm::dwarf::DW_LNS_set_prologue_end); }
  Program &epilogueBegin() {
    return op(llvm::dwarf::DW_LNS_set_epilogue_begin);
  }
  Program &setIsa(uint64_t N) {
    return op(llvm::dwarf::DW_LNS_set_isa).uleb(N);
  }
  /// An extended opcode; Length defaults to the true one.
  Program &extended(uint8_t Sub, const Bytes &Operands,
                    std::optional<uint64_t> Length = std::nullopt) {
    op(0).uleb(Length.value_or(Operands.size() + 1));
    B.push_back(Sub);
    B.insert(B.end(), Operands.begin(), Operands.end());
    return *this;
  }
  Program &endSequence() {
    return extended(llvm::dwarf::DW_LNE_end_sequence, {});
  }
  Program &setAddress(uint64_t A, unsigned Size = 8) {
    Bytes Operand;
    putN(Operand, A, Size, BigEndian);
    return extended(llvm::dwarf::DW_LNE_set_address, Operand);
  }
  Program &defineFile(const char *Name, uint64_t Dir) {
    Bytes Operands = cstr(Name);
    putULEB(Operands, Dir);
    Operands.push_back(0);
    Operands.push_back(0);
    return extended(llvm::dwarf::DW_LNE_define_file, Operands);
  }
  Program &discriminator(uint64_t N) {
    Bytes Operand;
    putULEB(Operand, N);
    return extended(llvm::dwarf::DW_LNE_set_discriminator, Operand);
  }
  Program &raw(const Bytes &More) {
    B.insert(B.end(), More.begin(), More.end());
    return *this;
  }

  bool BigEndian;
  Bytes B;
};

/// A version 2 to 4 directory and file table.
inline Bytes
v4Tables(std::initializer_list<const char *> Dirs,
         std::initializer_list<std::pair<const char *, uint64_t>> Files) {
  Bytes Out;
  for (const char *D : Dirs)
    Out = concat({Out, cstr(D)});
  Out.push_back(0);
  for (auto [Name, Dir] : Files) {
    Out = concat({Out, cstr(Name)});
    putULEB(Out, Dir);
    Out.push_back(0); // time
    Out.push_back(0); // size
  }
  Out.push_back(0);
  return Out;
}

/// A DWARF 5 entry format: its count, then (content type, form) pairs.
inline Bytes format(std::initializer_list<std::pair<uint64_t, uint64_t>> P) {
  Bytes Out{uint8_t(P.size())};
  for (auto [Type, Form] : P) {
    putULEB(Out, Type);
    putULEB(Out, Form);
  }
  return Out;
}

/// A line table; every field can be overridden.
struct Table {
  uint16_t Version = 4;
  bool Dwarf64 = false;
  bool BigEndian = false;
  uint8_t AddressSize = 8; ///< DWARF 5 header field
  uint8_t SegmentSelectorSize = 0;
  uint8_t MinInstLength = 1;
  uint8_t MaxOpsPerInst = 1;
  uint8_t DefaultIsStmt = 1;
  int8_t LineBase = -5;
  uint8_t LineRange = 14;
  uint8_t OpcodeBase = 13;
  /// Defaults to the standard operand counts (then 1, 2, 0 for opcodes
  /// past 12).
  std::optional<Bytes> OpcodeLengths;
  Bytes Tables = v4Tables({"dir"}, {{"a.c", 0}, {"b.h", 1}});
  Bytes Program;
  std::optional<uint64_t> UnitLength;
  std::optional<uint64_t> HeaderLength;

  Bytes bytes() const {
    Bytes Header{MinInstLength};
    if (Version >= 4)
      Header.push_back(MaxOpsPerInst);
    Header.insert(Header.end(),
                  {DefaultIsStmt, uint8_t(LineBase), LineRange, OpcodeBase});
    if (OpcodeLengths) {
      Header.insert(Header.end(), OpcodeLengths->begin(), OpcodeLengths->end());
    } else {
      static const uint8_t Standard[] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
      for (unsigned Op = 1; Op < OpcodeBase; ++Op)
        Header.push_back(Op <= 12 ? Standard[Op - 1] : uint8_t(Op % 3 + 0));
    }
    Header.insert(Header.end(), Tables.begin(), Tables.end());
    unsigned OffsetSize = Dwarf64 ? 8 : 4;
    Bytes Body;
    putN(Body, Version, 2, BigEndian);
    if (Version >= 5)
      Body.insert(Body.end(), {AddressSize, SegmentSelectorSize});
    putN(Body, HeaderLength.value_or(Header.size()), OffsetSize, BigEndian);
    Body.insert(Body.end(), Header.begin(), Header.end());
    Body.insert(Body.end(), Program.begin(), Program.end());
    Bytes Out;
    if (Dwarf64)
      putN(Out, 0xffffffff, 4, BigEndian);
    putN(Out, UnitLength.value_or(Body.size()), OffsetSize, BigEndian);
    Out.insert(Out.end(), Body.begin(), Body.end());
    return Out;
  }
};

/// The string sections a table's entries point into, and LLVM's context
/// over them (its .debug_line is given to each check separately).
class Strings {
public:
  Strings(std::string LineStr = "", std::string Str = "",
          bool LittleEndian = true, uint8_t AddressSize = 8)
      : LineStr(std::move(LineStr)), Str(std::move(Str)) {
    llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Map;
    if (!this->LineStr.empty())
      Map["debug_line_str"] = llvm::MemoryBuffer::getMemBuffer(
          this->LineStr, "debug_line_str", false);
    if (!this->Str.empty())
      Map["debug_str"] =
          llvm::MemoryBuffer::getMemBuffer(this->Str, "debug_str", false);
    Ctx = llvm::DWARFContext::create(Map, AddressSize, LittleEndian);
  }

  std::string LineStr, Str;
  std::unique_ptr<llvm::DWARFContext> Ctx;
};

/// Compares LineTable with LLVM on Line (the whole .debug_line) at Offset.
inline LineCheckResult check(const Strings &Strs, llvm::StringRef Line,
                             uint64_t Offset = 0, uint8_t AddressSize = 8,
                             bool LittleEndian = true) {
  LineSections S;
  S.Line = Line;
  S.LineStr = Strs.LineStr;
  S.Str = Strs.Str;
  S.LittleEndian = LittleEndian;
  S.AddressSize = AddressSize;
  llvm::DWARFDataExtractor Data(Line, LittleEndian, AddressSize);
  static const llvm::StringRef Dirs[] = {"", "/comp", "rel/dir", "C:\\w"};
  return checkLineTable(S, Offset, Data, *Strs.Ctx, nullptr, Dirs);
}

inline std::string asString(const Bytes &B) {
  return std::string(B.begin(), B.end());
}

/// Expects LineTable and LLVM to agree on B (not skipped unless allowed).
#define EXPECT_SAME_AS_LLVM(Strs, B, ...)                                      \
  do {                                                                         \
    std::string Line_ = ::dwarfpack::input::test::asString(B);                 \
    ::dwarfpack::input::LineCheckResult R_ =                                   \
        ::dwarfpack::input::test::check(Strs, Line_, ##__VA_ARGS__);           \
    EXPECT_EQ(R_.Result, ::dwarfpack::input::LineCheckResult::Outcome::Same)   \
        << R_.Difference << R_.SkipReason;                                     \
  } while (false)

} // namespace dwarfpack::input::test

#endif
