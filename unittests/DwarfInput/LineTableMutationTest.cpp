//===- LineTableMutationTest.cpp - Damaged line tables against LLVM -------===//
//
// Seeds of every version, damaged at random (a fixed seed, so a failure
// repeats): byte changes, bits flipped, bytes inserted and removed, values
// LEB128 and lengths find interesting. LineTable and LLVM must agree on each
// (or LineTable refuses it, and LLVM is not asked).
//
//===----------------------------------------------------------------------===//

#include "LineTableBuilder.h"

#include "llvm/BinaryFormat/Dwarf.h"

#include "gtest/gtest.h"

#include <random>

using namespace llvm::dwarf;
using namespace dwarfpack::input;
using namespace dwarfpack::input::test;

namespace {

Bytes program() {
  Program P;
  P.setAddress(0x1000)
      .advanceLine(4)
      .copy()
      .op(0x4b)
      .setColumn(3)
      .op(0x91)
      .setFile(2)
      .advancePc(6)
      .copy()
      .negateStmt()
      .discriminator(2)
      .constAddPc()
      .op(0x20)
      .fixedAdvancePc(4)
      .setIsa(1)
      .copy()
      .defineFile("n.c", 1)
      .extended(0x99, {7})
      .advancePc(2)
      .endSequence()
      .setAddress(0x800)
      .copy()
      .op(0x30)
      .advancePc(8)
      .endSequence();
  return P.B;
}

std::vector<Table> seeds() {
  std::vector<Table> Seeds;
  for (uint16_t V : {2, 3, 4, 5}) {
    Table T;
    T.Version = V;
    T.Program = program();
    if (V == 5)
      T.Tables = concat({format({{DW_LNCT_path, DW_FORM_line_strp},
                                 {0x2005, DW_FORM_block1},
                                 {0x2006, DW_FORM_udata}}),
                         {2, 1, 0, 0, 0, 1, 9, 5, 7, 0, 0, 0, 0, 0x80, 1},
                         format({{DW_LNCT_path, DW_FORM_string},
                                 {DW_LNCT_directory_index, DW_FORM_udata},
                                 {DW_LNCT_MD5, DW_FORM_data16},
                                 {DW_LNCT_size, DW_FORM_data4}}),
                         {2},
                         cstr("a.c"),
                         {1},
                         Bytes(16, 3),
                         {1, 0, 0, 0},
                         cstr("/b.h"),
                         {0},
                         Bytes(16, 4),
                         {2, 0, 0, 0}});
    Seeds.push_back(T);
    T.Dwarf64 = true;
    Seeds.push_back(T);
  }
  Table Unknown;
  Unknown.OpcodeBase = 17;
  Unknown.Program = concat({program(), {13, 1, 14, 2, 3, 15, 16, 1}});
  Seeds.push_back(Unknown);
  return Seeds;
}

void mutate(Bytes &B, std::mt19937 &Rng) {
  static const uint8_t Interesting[] = {0,    1,    2,    4,    8,    0x7f,
                                        0x80, 0x81, 0xfe, 0xff, 0x0d, 0x1f};
  unsigned Edits = 1 + Rng() % 3;
  for (unsigned E = 0; E < Edits && !B.empty(); ++E) {
    size_t At = Rng() % B.size();
    switch (Rng() % 5) {
    case 0:
      B[At] = uint8_t(Rng());
      break;
    case 1:
      B[At] ^= uint8_t(1u << (Rng() % 8));
      break;
    case 2:
      B[At] = Interesting[Rng() % std::size(Interesting)];
      break;
    case 3:
      B.insert(B.begin() + At, uint8_t(Rng()));
      break;
    case 4:
      B.erase(B.begin() + At);
      break;
    }
  }
}

TEST(LineTableMutation, AgreesWithLLVM) {
  Strings S(std::string("\0/comp\0inc\0", 11));
  std::mt19937 Rng(20261201);
  unsigned Compared = 0, Skipped = 0;
  for (const Table &Seed : seeds()) {
    const Bytes Original = Seed.bytes();
    for (unsigned I = 0; I < 6000; ++I) {
      Bytes B = Original;
      mutate(B, Rng);
      uint8_t Unit = std::array<uint8_t, 3>{0, 4, 8}[I % 3];
      LineCheckResult R = check(S, asString(B), 0, Unit);
      ASSERT_NE(R.Result, LineCheckResult::Outcome::Different)
          << "seed version " << Seed.Version << ", mutation " << I << ": "
          << R.Difference;
      ++(R.Result == LineCheckResult::Outcome::Same ? Compared : Skipped);
    }
  }
  // Most inputs reach LLVM (refusals come from DWARF 5 entry formats).
  EXPECT_GT(Compared, 4 * Skipped);
}

} // namespace
