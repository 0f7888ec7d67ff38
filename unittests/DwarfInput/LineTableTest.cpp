//===- LineTableTest.cpp - Line tables against LLVM's parser --------------===//
//
// Each table here is hand-built and decoded by LineTable and by LLVM 19's
// DWARFDebugLine from the same bytes: rows, sequences, file paths and
// warnings must agree (LineTableCheck.h). A few tests also pin values, so a
// change in both would show.
//
//===----------------------------------------------------------------------===//

#include "LineTableBuilder.h"

#include "dwarfpack/DwarfInput/LineTable.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace llvm::dwarf;
using namespace dwarfpack::input;
using namespace dwarfpack::input::test;

namespace {

#define ASSERT_THAT_EXPECTED_OK(E)                                             \
  ASSERT_TRUE(bool(E)) << toString(E.takeError())

/// Every opcode kind, in two sequences out of address order, an empty
/// sequence LLVM drops, and an address size of Size.
Program everyOpcode(unsigned Size = 8, bool BigEndian = false) {
  Program P(BigEndian);
  P.setAddress(0x1000, Size)
      .advanceLine(9)
      .copy()
      .op(0x4b) // special: address +4, line +1
      .setColumn(7)
      .prologueEnd()
      .op(0x20)
      .setFile(2)
      .advancePc(3)
      .copy()
      .negateStmt()
      .basicBlock()
      .epilogueBegin()
      .setIsa(3)
      .discriminator(5)
      .op(0xf0)
      .constAddPc()
      .op(0x15)
      .fixedAdvancePc(0x20)
      .copy()
      .advanceLine(-3)
      .op(0x30)
      .defineFile("def.c", 1)
      .setFile(3)
      .copy()
      .extended(0x80, {1, 2, 3}) // unknown extended opcode
      .advancePc(2)
      .endSequence()
      .setAddress(0x800, Size)
      .copy()
      .advancePc(0x10)
      .endSequence()
      .setAddress(0x900, Size) // LowPC == HighPC: no sequence
      .copy()
      .endSequence();
  return P;
}

Table withProgram(const Program &P, uint16_t Version = 4) {
  Table T;
  T.Version = Version;
  T.Program = P.B;
  return T;
}

TEST(LineTable, EveryOpcodeVersions2To4) {
  Strings S;
  for (uint16_t V : {2, 3, 4}) {
    Table T = withProgram(everyOpcode(), V);
    EXPECT_SAME_AS_LLVM(S, T.bytes());
    T.Dwarf64 = true;
    EXPECT_SAME_AS_LLVM(S, T.bytes());
  }
}

TEST(LineTable, EveryOpcodeValues) {
  std::string Line = asString(withProgram(everyOpcode()).bytes());
  LineSections S;
  S.Line = Line;
  S.AddressSize = 8;
  unsigned Warnings = 0;
  Expected<LineTable> T = LineTable::parse(S, 0, [&](Error E) {
    consumeError(std::move(E));
    ++Warnings;
  });
  ASSERT_THAT_EXPECTED_OK(T);
  EXPECT_EQ(Warnings, 0u);
  ASSERT_EQ(T->sequences().size(), 2u);
  // Sorted by end address: the second sequence first.
  EXPECT_EQ(T->sequences()[0].LowPC, 0x800u);
  EXPECT_EQ(T->sequences()[0].HighPC, 0x810u);
  EXPECT_EQ(T->sequences()[1].LowPC, 0x1000u);
  ArrayRef<LineRow> Rows = T->rows();
  ASSERT_GE(Rows.size(), 3u);
  EXPECT_EQ(Rows[0].Address, 0x1000u);
  EXPECT_EQ(Rows[0].Line, 10u);
  EXPECT_EQ(Rows[1].Address, 0x1004u);
  EXPECT_EQ(Rows[1].Line, 11u);
  std::string Path;
  ASSERT_TRUE(T->filePath(2, "/comp", Path));
  EXPECT_EQ(Path, "/comp/dir/b.h");
  ASSERT_TRUE(T->filePath(3, "/comp", Path)); // DW_LNE_define_file
  EXPECT_EQ(Path, "/comp/dir/def.c");
  EXPECT_FALSE(T->hasFile(0));
  EXPECT_FALSE(T->hasFile(4));
}

TEST(LineTable, Version5) {
  Strings S(std::string("\0/comp\0inc\0a.c\0b.h\0", 19), "c.c\0");
  Table T = withProgram(everyOpcode(), 5);
  T.Tables = concat({format({{DW_LNCT_path, DW_FORM_line_strp}}),
                     {2, 1, 0, 0, 0, 7, 0, 0, 0}, // "/comp", "inc"
                     format({{DW_LNCT_path, DW_FORM_line_strp},
                             {DW_LNCT_directory_index, DW_FORM_udata},
                             {DW_LNCT_MD5, DW_FORM_data16}}),
                     {3},
                     {11, 0, 0, 0, 0},
                     Bytes(16, 0xaa),
                     {15, 0, 0, 0, 1},
                     Bytes(16, 0xbb),
                     {0, 0, 0, 0, 9}, // out-of-range directory
                     Bytes(16, 0xcc)});
  EXPECT_SAME_AS_LLVM(S, T.bytes());
  T.Dwarf64 = true;
  T.Tables = concat({format({{DW_LNCT_path, DW_FORM_line_strp}}),
                     {1, 1, 0, 0, 0, 0, 0, 0, 0},
                     format({{DW_LNCT_path, DW_FORM_strp},
                             {DW_LNCT_directory_index, DW_FORM_data2},
                             {0x2005, DW_FORM_block1}}),
                     {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0xff, 0xfe}});
  EXPECT_SAME_AS_LLVM(S, T.bytes());
}

TEST(LineTable, Version5StringForms) {
  Strings S(std::string("\0/comp\0", 7), std::string("s.c\0", 4));
  // Inline strings, an unresolvable strx (no unit), GNU_strp_alt (LLVM does
  // not follow it), strp past .debug_str, and a source column.
  Table T = withProgram(everyOpcode(), 5);
  T.Tables =
      concat({format({{DW_LNCT_path, DW_FORM_string}, {0x2003, DW_FORM_udata}}),
              {3},
              cstr("/d0"),
              {5},
              cstr("C:\\win"),
              {0x80, 0x01},
              cstr(""),
              {0},
              format({{DW_LNCT_path, DW_FORM_string},
                      {DW_LNCT_directory_index, DW_FORM_data1},
                      {DW_LNCT_LLVM_source, DW_FORM_string}}),
              {5},
              cstr("x.c"),
              {1},
              cstr("int x;"),
              cstr("/abs/y.c"),
              {0},
              cstr(""),
              cstr("z.c"),
              {2},
              cstr(""),
              cstr(""),
              {0},
              cstr(""),
              cstr("w.c"),
              {7},
              cstr("")});
  EXPECT_SAME_AS_LLVM(S, T.bytes());
  T.Tables = concat({format({{DW_LNCT_path, DW_FORM_strx1}}),
                     {1, 0},
                     format({{DW_LNCT_path, DW_FORM_GNU_strp_alt}}),
                     {1, 0, 0, 0, 0}});
  EXPECT_SAME_AS_LLVM(S, T.bytes());
  T.Tables = concat({format({{DW_LNCT_path, DW_FORM_string}}),
                     {1},
                     cstr("d"),
                     format({{DW_LNCT_path, DW_FORM_strp}}),
                     {2, 0, 0, 0, 0, 100, 0, 0, 0}});
  EXPECT_SAME_AS_LLVM(S, T.bytes());
}

// LLVM cannot step over a directory's offset-sized field when the header's
// address size is 0: the directories end there, with a warning.
TEST(LineTable, Version5DirectoryFieldsWithoutAddressSize) {
  Strings S(std::string("\0/comp\0inc\0", 11));
  Table T = withProgram(everyOpcode(), 5);
  T.Tables =
      concat({format({{DW_LNCT_path, DW_FORM_line_strp},
                      {0x2005, DW_FORM_strp},
                      {0x2006, DW_FORM_data2}}),
              {2, 1, 0, 0, 0, 0, 0, 0, 0, 9, 9, 7, 0, 0, 0, 0, 0, 0, 0, 9, 9},
              format({{DW_LNCT_path, DW_FORM_string}}),
              {1},
              cstr("a.c")});
  for (uint8_t Size : {0, 8}) {
    T.AddressSize = Size;
    for (uint8_t Unit : {0, 8})
      EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, Unit);
  }
}

TEST(LineTable, Paths) {
  Strings S;
  Table T;
  T.Tables =
      v4Tables({"/abs", "rel", "C:\\dos", "//net/share"}, {{"a.c", 0},
                                                           {"b.c", 1},
                                                           {"c.c", 2},
                                                           {"d.c", 3},
                                                           {"e.c", 4},
                                                           {"f.c", 5},
                                                           {"/root.c", 2},
                                                           {"D:\\x.c", 1},
                                                           {"g.c", 6},
                                                           {"./h.c", 1},
                                                           {"../i.c", 0}});
  T.Program = Program().copy().endSequence().B;
  EXPECT_SAME_AS_LLVM(S, T.bytes());
  std::string Line = asString(T.bytes());
  LineSections Sections;
  Sections.Line = Line;
  Expected<LineTable> LT = LineTable::parse(
      Sections, 0, [](Error E) { ADD_FAILURE() << toString(std::move(E)); });
  ASSERT_THAT_EXPECTED_OK(LT);
  std::string P;
  ASSERT_TRUE(LT->filePath(3, "/c", P));
  EXPECT_EQ(P, "/c/rel/c.c");
  ASSERT_TRUE(LT->filePath(2, "/c", P));
  EXPECT_EQ(P, "/abs/b.c");
  ASSERT_TRUE(LT->filePath(1, "/c", P));
  EXPECT_EQ(P, "/c/a.c");
  ASSERT_TRUE(LT->filePath(4, "/c", P));
  EXPECT_EQ(P, "C:\\dos/d.c");
  ASSERT_TRUE(LT->filePath(8, "/c", P));
  EXPECT_EQ(P, "D:\\x.c");
  EXPECT_FALSE(LT->filePath(12, "/c", P));
}

TEST(LineTable, BigEndian) {
  Strings S("", "", /*LittleEndian=*/false);
  Table T = withProgram(everyOpcode(8, /*BigEndian=*/true));
  T.BigEndian = true;
  EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, 8, false);
  T.Dwarf64 = true;
  EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, 8, false);
}

TEST(LineTable, AddressSizes) {
  Strings S;
  for (unsigned Size : {4u, 8u}) {
    for (uint16_t V : {4, 5}) {
      Table T = withProgram(everyOpcode(Size), V);
      T.AddressSize = uint8_t(Size);
      if (V == 5)
        T.Tables = concat({format({{DW_LNCT_path, DW_FORM_string}}),
                           {1},
                           cstr("/d"),
                           format({{DW_LNCT_path, DW_FORM_string}}),
                           {1},
                           cstr("a.c")});
      // The unit's size matches, differs, or is unknown.
      for (uint8_t Unit : {uint8_t(0), uint8_t(4), uint8_t(8)})
        EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, Unit);
      // A header size LLVM does not take.
      T.AddressSize = 3;
      EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, 0);
    }
  }
  // Operands of unsupported sizes, and sizes that change: without a size
  // from the unit, the first operand's sticks.
  Program P;
  P.setAddress(0x10, 4)
      .copy()
      .setAddress(0x20, 8)
      .copy()
      .setAddress(0x30, 3)
      .copy()
      .setAddress(0x40, 2)
      .copy()
      .setAddress(0x50, 1)
      .advancePc(1)
      .endSequence();
  Table T = withProgram(P);
  for (uint8_t Unit : {uint8_t(0), uint8_t(4), uint8_t(8), uint8_t(2)})
    EXPECT_SAME_AS_LLVM(S, T.bytes(), 0, Unit);
}

TEST(LineTable, HeaderOddities) {
  Strings S;
  Program P = everyOpcode();
  std::vector<Table> Tables;
  auto Add = [&](auto Change) {
    Table T = withProgram(P);
    Change(T);
    Tables.push_back(T);
  };
  Add([](Table &T) { T.MinInstLength = 0; });
  Add([](Table &T) { T.MinInstLength = 4; });
  Add([](Table &T) { T.MaxOpsPerInst = 0; });
  Add([](Table &T) { T.MaxOpsPerInst = 3; }); // VLIW
  Add([](Table &T) { T.MaxOpsPerInst = 255; });
  Add([](Table &T) { T.LineRange = 0; });
  Add([](Table &T) { T.LineRange = 1; });
  Add([](Table &T) { T.LineRange = 255; });
  Add([](Table &T) { T.LineBase = 127; });
  Add([](Table &T) { T.DefaultIsStmt = 0; });
  Add([](Table &T) { T.DefaultIsStmt = 2; }); // LLVM keeps the low bit
  Add([](Table &T) { T.OpcodeBase = 0; });
  Add([](Table &T) { T.OpcodeBase = 1; });
  Add([](Table &T) { T.OpcodeBase = 8; });  // opcode 8 special
  Add([](Table &T) { T.OpcodeBase = 10; }); // 10 to 12 special
  Add([](Table &T) { T.OpcodeBase = 20; }); // unknown standard opcodes
  Add([](Table &T) { T.OpcodeBase = 255; });
  Add([](Table &T) {
    // Declared operand counts of known opcodes are not used.
    T.OpcodeLengths = Bytes{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
  });
  Add([](Table &T) { T.HeaderLength = 0; });
  Add([](Table &T) { T.HeaderLength = 5; });
  Add([](Table &T) { T.HeaderLength = 200; });
  Add([](Table &T) { T.HeaderLength = 0xffffffff; });
  Add([](Table &T) { T.Tables.push_back(0xab); }); // unknown data
  Add([](Table &T) { T.Tables = {0}; });           // no terminators
  Add([](Table &T) { T.Tables = {'x'}; });
  for (uint16_t V : {0, 1, 6, 0xffff})
    Add([V](Table &T) { T.Version = V; });
  for (const Table &T : Tables) {
    EXPECT_SAME_AS_LLVM(S, T.bytes());
    Table U = T;
    U.Dwarf64 = true;
    EXPECT_SAME_AS_LLVM(S, U.bytes());
  }
}

// VLIW: op_index advances as DWARF 5 says; LLVM 19 decodes it (with a
// warning) and keeps op_index in each row.
TEST(LineTable, OperationIndex) {
  Strings S;
  Program P;
  P.setAddress(0x100)
      .copy()
      .advancePc(1)
      .copy()
      .advancePc(5)
      .copy()
      .op(0x50)
      .constAddPc()
      .copy()
      .fixedAdvancePc(2)
      .copy()
      .advancePc(2)
      .setAddress(0x200)
      .copy()
      .advancePc(7)
      .endSequence();
  for (uint8_t MaxOps : {0, 1, 2, 3, 4, 7}) {
    for (uint8_t MinInst : {0, 1, 4}) {
      Table T = withProgram(P);
      T.MaxOpsPerInst = MaxOps;
      T.MinInstLength = MinInst;
      EXPECT_SAME_AS_LLVM(S, T.bytes());
    }
  }
  Table T = withProgram(P);
  T.MaxOpsPerInst = 3;
  std::string Line = asString(T.bytes());
  LineSections Sections;
  Sections.Line = Line;
  Expected<LineTable> LT = LineTable::parse(
      Sections, 0, [](Error E) { consumeError(std::move(E)); });
  ASSERT_THAT_EXPECTED_OK(LT);
  EXPECT_EQ(LT->rows()[1].OpIndex, 1);
  EXPECT_EQ(LT->rows()[2].OpIndex, 0);
  EXPECT_EQ(LT->rows()[2].Address, 0x102u);
}

TEST(LineTable, ExtendedOpcodeLengths) {
  Strings S;
  std::vector<Program> Programs;
  auto Add = [&](const Bytes &Raw) {
    Program P;
    P.setAddress(0x40).copy().raw(Raw).advancePc(4).copy().endSequence();
    Programs.push_back(P);
  };
  Add({0, 0});                      // zero length
  Add({0, 5, 1});                   // end_sequence claiming 5 bytes
  Add({0, 3, 2, 0x10, 0x20});       // set_address of 2 bytes
  Add({0, 4, 2, 0x10, 0x20, 0x30}); // of 3 bytes
  Add({0, 1, 2});                   // of 0 bytes
  Add({0, 2, 4});                   // discriminator claiming less
  Add({0, 4, 4, 0x81, 0x01, 0});    // discriminator claiming more
  Add({0, 6, 3, 'a', 0, 1, 0, 0});  // define_file
  Add({0, 3, 3, 'a', 'b'});         // define_file cut by its length
  Add({0, 0x80, 0x80, 0x01, 0x99}); // long unknown opcode past the end
  Add({0, 0x80});                   // length cut short
  Add({0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
       1}); // a long zero
  Add({0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 4, 1});
  Add({0, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x80, 1,
       2, 3}); // wraps into its own length, past the opcode
  for (const Program &P : Programs) {
    Table T = withProgram(P);
    EXPECT_SAME_AS_LLVM(S, T.bytes());
  }
}

// An extended opcode whose length wraps back to itself: LLVM would decode
// it forever. Ours stops, keeping the rows before it.
TEST(LineTable, LengthLeadingBackStops) {
  Program P;
  P.setAddress(0x40).copy();
  // Length 2^64 - 11: the next opcode would be this one again, an
  // end_sequence each time.
  P.raw({0, 0xf5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 1});
  Table T = withProgram(P);
  std::string Line = asString(T.bytes());
  LineSections S;
  S.Line = Line;
  std::vector<std::string> Warnings;
  Expected<LineTable> LT = LineTable::parse(
      S, 0, [&](Error E) { Warnings.push_back(toString(std::move(E))); });
  ASSERT_THAT_EXPECTED_OK(LT);
  EXPECT_EQ(LT->stop(), LineTable::Stop::LoopingLength);
  EXPECT_EQ(LT->rows().size(), 2u);
  ASSERT_FALSE(Warnings.empty());
  EXPECT_NE(Warnings.back().find("leads back"), std::string::npos)
      << Warnings.back();
  Strings Strs;
  LineCheckResult R = check(Strs, Line);
  EXPECT_EQ(R.Result, LineCheckResult::Outcome::Skipped);
}

// A standard opcode's operand cut short stops LLVM's parse with an error;
// the rows before stay, and the sequences are left unsorted.
TEST(LineTable, OperandCutShort) {
  Strings S;
  Program P;
  P.setAddress(0x900).copy().advancePc(4).endSequence();
  P.setAddress(0x100).copy().advancePc(4).endSequence();
  P.setAddress(0x200).copy().raw({2, 0x80});
  Table T = withProgram(P);
  EXPECT_SAME_AS_LLVM(S, T.bytes());
  std::string Line = asString(T.bytes());
  LineSections Sections;
  Sections.Line = Line;
  Expected<LineTable> LT = LineTable::parse(
      Sections, 0, [](Error E) { consumeError(std::move(E)); });
  ASSERT_THAT_EXPECTED_OK(LT);
  EXPECT_EQ(LT->stop(), LineTable::Stop::BadOperand);
  ASSERT_EQ(LT->sequences().size(), 2u);
  EXPECT_EQ(LT->sequences()[0].LowPC, 0x900u);
}

TEST(LineTable, Tombstones) {
  Strings S;
  Program P;
  P.setAddress(0x100).copy().advancePc(4).endSequence();
  P.setAddress(~0ULL).copy().advancePc(4).copy().endSequence();
  // No set_address after the tombstone: still dropped.
  P.copy().advancePc(2).endSequence();
  P.setAddress(0x300).copy().setAddress(~0ULL).copy().endSequence();
  P.setAddress(0xffffffff, 4).copy().endSequence();
  P.setAddress(0x400).copy().advancePc(4).endSequence();
  // A dropped row keeps its discriminator and flags for the next one.
  P.setAddress(0xffffffff, 4)
      .discriminator(7)
      .prologueEnd()
      .basicBlock()
      .copy()
      .setAddress(0x500, 4)
      .copy()
      .advancePc(2)
      .endSequence();
  for (uint8_t Unit : {0, 4, 8})
    EXPECT_SAME_AS_LLVM(S, withProgram(P).bytes(), 0, Unit);
}

TEST(LineTable, UnterminatedAndEmpty) {
  Strings S;
  EXPECT_SAME_AS_LLVM(S, withProgram(Program()).bytes());
  EXPECT_SAME_AS_LLVM(S, withProgram(Program().copy()).bytes());
  EXPECT_SAME_AS_LLVM(
      S, withProgram(Program().copy().endSequence().copy()).bytes());
  EXPECT_SAME_AS_LLVM(S, withProgram(Program().endSequence()).bytes());
}

// Many sequences ending at the same addresses: llvm::sort's order for
// equal keys is what LLVM gives, and the unstable sort is the same one.
TEST(LineTable, EqualEndAddresses) {
  Strings S;
  Program P;
  for (unsigned I = 0; I < 60; ++I) {
    uint64_t High = 0x1000 + (I * 7 % 5) * 0x100;
    P.setAddress(High - 0x10 - I).copy().advancePc(0x10 + I).endSequence();
  }
  EXPECT_SAME_AS_LLVM(S, withProgram(P).bytes());
}

TEST(LineTable, LEB128Operands) {
  Strings S;
  std::vector<Bytes> Operands = {
      {0x7f},
      {0x80, 0x01},
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00},
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xff, 0x7f},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xff, 0xff, 0x7f},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f},
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40},
      {0xc0, 0xbf, 0x7f},
  };
  for (const Bytes &O : Operands) {
    for (uint8_t Op : {DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file,
                       DW_LNS_set_column, DW_LNS_set_isa}) {
      Program P;
      P.setAddress(0x10).copy().op(Op).raw(O).copy().advancePc(1);
      P.discriminator(3).extended(DW_LNE_set_discriminator, O).copy();
      P.endSequence();
      EXPECT_SAME_AS_LLVM(S, withProgram(P).bytes());
    }
  }
}

/// Every cut of a table's bytes (a section that ends early).
void expectEveryCutSame(const Strings &S, const Bytes &B, uint8_t Unit = 8) {
  for (size_t N = 0; N <= B.size(); ++N) {
    std::string Line(B.begin(), B.begin() + N);
    LineCheckResult R = check(S, Line, 0, Unit);
    EXPECT_NE(R.Result, LineCheckResult::Outcome::Different)
        << "cut at " << N << ": " << R.Difference;
  }
}

TEST(LineTable, TruncationsAtEveryByte) {
  Strings S(std::string("\0/comp\0inc\0a.c\0b.h\0", 19));
  for (uint16_t V : {2, 3, 4, 5}) {
    for (bool Dwarf64 : {false, true}) {
      Table T = withProgram(everyOpcode(), V);
      T.Dwarf64 = Dwarf64;
      if (V == 5)
        T.Tables = concat({format({{DW_LNCT_path, DW_FORM_line_strp},
                                   {0x2002, DW_FORM_block}}),
                           {2, 1, 0, 0, 0, 2, 1, 2, 7, 0, 0, 0, 0},
                           format({{DW_LNCT_path, DW_FORM_string},
                                   {DW_LNCT_directory_index, DW_FORM_udata},
                                   {DW_LNCT_MD5, DW_FORM_data16}}),
                           {1},
                           cstr("a.c"),
                           {1},
                           Bytes(16, 1)});
      expectEveryCutSame(S, T.bytes());
      // The same cuts with the unit's length following them.
      Bytes B = T.bytes();
      for (size_t N = 0; N < B.size(); ++N) {
        Table U = T;
        U.UnitLength = N;
        LineCheckResult R = check(S, asString(U.bytes()));
        EXPECT_NE(R.Result, LineCheckResult::Outcome::Different)
            << "version " << V << " unit length " << N << ": " << R.Difference;
        U.UnitLength.reset();
        U.HeaderLength = N;
        R = check(S, asString(U.bytes()));
        EXPECT_NE(R.Result, LineCheckResult::Outcome::Different)
            << "version " << V << " header length " << N << ": "
            << R.Difference;
      }
    }
  }
}

TEST(LineTable, BadLengths) {
  Strings S;
  Table Base = withProgram(everyOpcode());
  std::vector<uint64_t> Lengths = {
      0, 1, 2, 3, 0xfffffff0, 0xfffffffe, 0x7fffffff, 0xffffffff, 1000000};
  for (uint64_t L : Lengths) {
    Table T = Base;
    T.UnitLength = L;
    EXPECT_SAME_AS_LLVM(S, T.bytes());
    T = Base;
    T.HeaderLength = L;
    EXPECT_SAME_AS_LLVM(S, T.bytes());
  }
  // 64-bit lengths whose sums wrap.
  // A header_length of 2^64 - 23 ends the header at offset 2^64 - 1: the
  // program starts past the table (an offset, not a pointer, can say so).
  for (uint64_t L : {~0ULL, ~0ULL - 11, ~0ULL - 12, ~0ULL - 20, ~0ULL - 22,
                     ~0ULL - 30, 1ULL << 63}) {
    Table T = Base;
    T.Dwarf64 = true;
    T.UnitLength = L;
    EXPECT_SAME_AS_LLVM(S, T.bytes());
    T.UnitLength.reset();
    T.HeaderLength = L;
    EXPECT_SAME_AS_LLVM(S, T.bytes());
  }
  // Offsets at and past the section's end.
  std::string Line = asString(Base.bytes());
  for (uint64_t Off : {uint64_t(Line.size()), uint64_t(Line.size() + 1),
                       uint64_t(Line.size() - 1), uint64_t(~0ULL)}) {
    LineCheckResult R = check(S, Line, Off);
    EXPECT_EQ(R.Result, LineCheckResult::Outcome::Same) << R.Difference;
  }
}

TEST(LineTable, SecondTableInSection) {
  Strings S;
  Bytes First = withProgram(everyOpcode(), 3).bytes();
  Table Second = withProgram(everyOpcode(4), 5);
  Second.Tables = concat({format({{DW_LNCT_path, DW_FORM_string}}),
                          {1},
                          cstr("/d"),
                          format({{DW_LNCT_path, DW_FORM_string}}),
                          {1},
                          cstr("a.c")});
  Bytes Both = concat({First, Second.bytes()});
  EXPECT_SAME_AS_LLVM(S, Both, First.size());
  EXPECT_SAME_AS_LLVM(S, Both, 0);
}

// The relocation hook: set_address operands relocated into sections;
// sequences sort by section first, as LLVM's do in a relocatable object.
TEST(LineTable, RelocationHook) {
  Program P;
  P.setAddress(0x10).copy().advancePc(4).endSequence();
  P.setAddress(0x0).copy().advancePc(8).endSequence();
  P.setAddress(0x4).copy().advancePc(2).endSequence();
  std::string Line = asString(withProgram(P).bytes());
  LineSections S;
  S.Line = Line;
  std::vector<uint64_t> Asked;
  auto Relocate = [&](uint64_t Offset, unsigned Size, uint64_t Raw,
                      uint64_t &Section) -> uint64_t {
    if (Size != 8)
      return Raw;
    Asked.push_back(Offset);
    Section = Asked.size() == 2 ? 7 : 3; // the second sequence elsewhere
    return Raw + 0x100;
  };
  S.Relocate = Relocate;
  Expected<LineTable> LT = LineTable::parse(
      S, 0, [](Error E) { ADD_FAILURE() << toString(std::move(E)); });
  ASSERT_THAT_EXPECTED_OK(LT);
  ASSERT_EQ(Asked.size(), 3u);
  ASSERT_EQ(LT->sequences().size(), 3u);
  EXPECT_EQ(LT->sequences()[0].SectionIndex, 3u);
  EXPECT_EQ(LT->sequences()[0].LowPC, 0x104u);
  EXPECT_EQ(LT->sequences()[1].LowPC, 0x110u);
  EXPECT_EQ(LT->sequences()[2].SectionIndex, 7u);
  EXPECT_EQ(LT->rows()[0].Address, 0x110u);
}

} // namespace

namespace {

// decode() into a table that held another: nothing of the first remains.
TEST(LineTable, DecodeReusesTable) {
  Bytes First = withProgram(everyOpcode(), 4).bytes();
  Table Second = withProgram(
      Program().setAddress(0x40).copy().advancePc(2).endSequence(), 3);
  Second.Tables = v4Tables({}, {{"only.c", 0}});
  Bytes Both = concat({First, Second.bytes()});
  std::string Line = asString(Both);
  LineSections S;
  S.Line = Line;
  auto Fail = [](Error E) { ADD_FAILURE() << toString(std::move(E)); };
  LineTable T;
  ASSERT_FALSE(bool(T.decode(S, 0, Fail)));
  EXPECT_EQ(T.sequences().size(), 2u);
  ASSERT_FALSE(bool(T.decode(S, First.size(), Fail)));
  Expected<LineTable> Fresh = LineTable::parse(S, First.size(), Fail);
  ASSERT_THAT_EXPECTED_OK(Fresh);
  ASSERT_EQ(T.rows().size(), Fresh->rows().size());
  EXPECT_EQ(T.rows()[0].Address, 0x40u);
  EXPECT_EQ(T.sequences().size(), 1u);
  EXPECT_EQ(T.header().Files.size(), 1u);
  EXPECT_EQ(T.header().Dirs.size(), 0u);
  EXPECT_EQ(T.version(), 3);
  std::string P;
  ASSERT_TRUE(T.filePath(1, "/c", P));
  EXPECT_EQ(P, "/c/only.c");
  // A table that cannot be read leaves nothing behind.
  Error E = T.decode(S, Both.size() + 4, Fail);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  EXPECT_TRUE(T.rows().empty());
  EXPECT_TRUE(T.sequences().empty());
  EXPECT_TRUE(T.header().Files.empty());
  EXPECT_FALSE(T.hasFile(1));
}

} // namespace

namespace {

// DW_FORM_strx paths go through the unit's string offsets table, as LLVM's
// DWARFUnit::getStringOffsetSectionItem reads it (a 32-bit index times the
// entry size, in 32 bits); LLVM is given the unit here.
TEST(LineTable, StrxPathsThroughTheUnit) {
  std::string Str("\0/comp\0inc\0a.c\0b.h\0", 19);
  // .debug_str_offsets: a DWARF 5 header, then offsets of "/comp", "inc",
  // "a.c", "b.h" and one past .debug_str.
  Bytes Offsets;
  putN(Offsets, 4 + 5 * 4, 4);
  putN(Offsets, 5, 2);
  putN(Offsets, 0, 2);
  for (uint32_t O : {1u, 7u, 11u, 15u, 200u})
    putN(Offsets, O, 4);
  // A compile unit with DW_AT_stmt_list 0 and DW_AT_str_offsets_base 8.
  Bytes Abbrev{1,
               DW_TAG_compile_unit,
               DW_CHILDREN_no,
               DW_AT_stmt_list,
               DW_FORM_sec_offset,
               0x72,
               DW_FORM_sec_offset,
               0,
               0,
               0};
  Bytes Info;
  putN(Info, 2 + 1 + 1 + 4 + 1 + 4 + 4, 4);
  putN(Info, 5, 2);
  Info.insert(Info.end(), {DW_UT_compile, 8});
  putN(Info, 0, 4);
  Info.push_back(1);
  putN(Info, 0, 4);
  putN(Info, 8, 4);

  Table T = withProgram(everyOpcode(), 5);
  T.Tables = concat({format({{DW_LNCT_path, DW_FORM_strx1}}),
                     {2, 0, 1},
                     format({{DW_LNCT_path, DW_FORM_strx},
                             {DW_LNCT_directory_index, DW_FORM_udata}}),
                     {6, 2, 0, 3, 1, 4, 1, 9, 0,
                      // index 0x40000003: times 4 wraps to 12, "b.h"
                      0x83, 0x80, 0x80, 0x80, 0x04, 1,
                      // an index past the table
                      0xff, 0xff, 0x03, 1}});
  std::string Line = asString(T.bytes());
  std::string InfoS = asString(Info), AbbrevS = asString(Abbrev),
              OffsetsS = asString(Offsets);
  StringMap<std::unique_ptr<MemoryBuffer>> Map;
  auto Add = [&](StringRef Name, const std::string &Data) {
    Map[Name] = MemoryBuffer::getMemBuffer(Data, Name, false);
  };
  Add("debug_info", InfoS);
  Add("debug_abbrev", AbbrevS);
  Add("debug_str", Str);
  Add("debug_str_offsets", OffsetsS);
  Add("debug_line", Line);
  std::unique_ptr<DWARFContext> Ctx = DWARFContext::create(Map, 8);
  ASSERT_EQ(Ctx->getNumCompileUnits(), 1u);
  DWARFUnit *U = Ctx->getUnitAtIndex(0);
  ASSERT_TRUE(U->getStringOffsetsTableContribution().has_value());

  LineSections S;
  S.Line = Line;
  S.Str = Str;
  S.StrOffsets = OffsetsS;
  S.StrOffsetsBase = U->getStringOffsetsBase();
  S.StrOffsetSize = U->getDwarfStringOffsetsByteSize();
  S.AddressSize = 8;
  DWARFDataExtractor Data(Line, true, 8);
  StringRef Dirs[] = {"", "/elsewhere"};
  LineCheckResult R = checkLineTable(S, 0, Data, *Ctx, U, Dirs);
  EXPECT_EQ(R.Result, LineCheckResult::Outcome::Same) << R.Difference;
  EXPECT_EQ(R.Files, 7u); // and DW_LNE_define_file's

  Expected<LineTable> LT =
      LineTable::parse(S, 0, [](Error E) { consumeError(std::move(E)); });
  ASSERT_THAT_EXPECTED_OK(LT);
  std::string P;
  ASSERT_TRUE(LT->filePath(0, "/elsewhere", P));
  EXPECT_EQ(P, "/comp/a.c");
  ASSERT_TRUE(LT->filePath(1, "/elsewhere", P)); // a relative directory
  EXPECT_EQ(P, "/elsewhere/inc/b.h");
  ASSERT_TRUE(LT->filePath(4, "", P));
  EXPECT_EQ(P, "inc/b.h");
  EXPECT_FALSE(LT->filePath(3, "", P)); // .debug_str offset 200
  EXPECT_FALSE(LT->filePath(5, "", P)); // past the table
}

} // namespace
