//===- LocationListTest.cpp - Location lists against LLVM's reader --------===//
//
// Units whose variables' locations are expressions, offsets of location
// lists (DWARF 5 .debug_loclists, DWARF 4 .debug_loc) and indexes into a
// list table, some lists well formed and some not: Unit::locationExpressions
// must give the expressions LLVM 19's DWARFDie::getLocations gives, in the
// same order, and fail where it fails.
//
//===----------------------------------------------------------------------===//

#include "LineTableBuilder.h"

#include "dwarfpack/DwarfInput/Dwarf.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace llvm::dwarf;
using namespace dwarfpack::input;
using namespace dwarfpack::input::test;

namespace {

enum : uint8_t {
  CuCode = 1,    // low_pc, loclists_base
  BareCuCode,    // neither
  OffsetVarCode, // location: sec_offset
  IndexVarCode,  // location: loclistx
  ExprVarCode,   // location: exprloc
};

Bytes abbrevSection() {
  Bytes B;
  auto Abbrev = [&](uint8_t Code, Tag T, bool Children,
                    std::vector<std::pair<Attribute, Form>> Attrs) {
    putULEB(B, Code);
    putULEB(B, T);
    B.push_back(Children);
    for (auto [A, F] : Attrs) {
      putULEB(B, A);
      putULEB(B, F);
    }
    B.push_back(0);
    B.push_back(0);
  };
  Abbrev(CuCode, DW_TAG_compile_unit, true,
         {{DW_AT_low_pc, DW_FORM_addr},
          {DW_AT_loclists_base, DW_FORM_sec_offset}});
  Abbrev(BareCuCode, DW_TAG_compile_unit, true, {});
  Abbrev(OffsetVarCode, DW_TAG_variable, false,
         {{DW_AT_location, DW_FORM_sec_offset}});
  Abbrev(IndexVarCode, DW_TAG_variable, false,
         {{DW_AT_location, DW_FORM_loclistx}});
  Abbrev(ExprVarCode, DW_TAG_variable, false,
         {{DW_AT_location, DW_FORM_exprloc}});
  B.push_back(0);
  return B;
}

Bytes expr(std::initializer_list<uint8_t> Ops) { return Bytes(Ops); }

/// A unit of Version whose variables' locations are Vars (form code,
/// value); Bare: its DIE has no low_pc (no base address).
Bytes unit(unsigned Version, bool Bare,
           const std::vector<std::pair<uint8_t, uint64_t>> &Vars,
           const Bytes &Expr = {}) {
  Bytes D;
  D.push_back(Bare ? BareCuCode : CuCode);
  if (!Bare) {
    putN(D, 0x1000, 8);
    putN(D, 12, 4); // the offsets after the list table's header
  }
  for (auto [Code, V] : Vars) {
    D.push_back(Code);
    if (Code == OffsetVarCode)
      putN(D, V, 4);
    else if (Code == IndexVarCode)
      putULEB(D, V);
    else {
      putULEB(D, Expr.size());
      D.insert(D.end(), Expr.begin(), Expr.end());
    }
  }
  D.push_back(0);
  Bytes U;
  if (Version >= 5) {
    putN(U, 8 + D.size(), 4);
    putN(U, Version, 2);
    U.push_back(DW_UT_compile);
    U.push_back(8);
    putN(U, 0, 4);
  } else {
    putN(U, 7 + D.size(), 4);
    putN(U, Version, 2);
    putN(U, 0, 4);
    U.push_back(8);
  }
  return concat({U, D});
}

StringRef asRef(const Bytes &B) {
  return StringRef(reinterpret_cast<const char *>(B.data()), B.size());
}

/// Reads every variable's location with both readers and compares.
void expectSameLocations(unsigned Version, const Bytes &Info,
                         const Bytes &Lists) {
  Bytes Abbrev = abbrevSection();
  DwarfSections S;
  S[Sec::Info] = asRef(Info);
  S[Sec::Abbrev] = asRef(Abbrev);
  S[Version >= 5 ? Sec::LocLists : Sec::Loc] = asRef(Lists);
  DwarfFile File(S, /*LittleEndian=*/true, /*Dwo=*/false, "test");
  ASSERT_TRUE(File.scanUnits().empty());

  StringMap<std::unique_ptr<MemoryBuffer>> Sections;
  Sections["debug_info"] = MemoryBuffer::getMemBuffer(asRef(Info), "", false);
  Sections["debug_abbrev"] =
      MemoryBuffer::getMemBuffer(asRef(Abbrev), "", false);
  Sections[Version >= 5 ? "debug_loclists" : "debug_loc"] =
      MemoryBuffer::getMemBuffer(asRef(Lists), "", false);
  std::unique_ptr<DWARFContext> Ctx = DWARFContext::create(Sections, 8, true);

  size_t Compared = 0, Failed = 0;
  for (const UnitHeader &H : File.units()) {
    Unit U;
    ASSERT_FALSE(bool(U.parse(File, H)));
    for (uint32_t I = 1; I < U.numDies(); ++I) {
      Die D(&U, I);
      if (D.getTag() != DW_TAG_variable)
        continue;
      SCOPED_TRACE("variable at 0x" + utohexstr(D.getOffset()));
      std::optional<FormValue> V = D.find(DW_AT_location);
      ASSERT_TRUE(V.has_value());
      auto Ours = U.locationExpressions(*V);
      DWARFDie Theirs = Ctx->getDIEForOffset(D.getOffset());
      ASSERT_TRUE(Theirs.isValid());
      auto Want = Theirs.getLocations(DW_AT_location);
      ++Compared;
      if (!Want) {
        ++Failed;
        EXPECT_FALSE(bool(Ours)) << toString(Want.takeError());
        if (!Ours)
          consumeError(Ours.takeError());
        continue;
      }
      ASSERT_TRUE(bool(Ours)) << toString(Ours.takeError());
      ASSERT_EQ(Ours->size(), Want->size());
      for (size_t J = 0; J < Want->size(); ++J)
        EXPECT_EQ(Bytes((*Ours)[J].begin(), (*Ours)[J].end()),
                  Bytes((*Want)[J].Expr.begin(), (*Want)[J].Expr.end()))
            << "entry " << J;
    }
  }
  // Both kinds of answer were compared.
  EXPECT_GT(Compared, Failed);
  EXPECT_GT(Failed, 0u);
}

TEST(LocationList, Version5ListsAsLLVMReadsThem) {
  Bytes Lists(12, 0); // header, patched below
  auto Here = [&] { return uint64_t(Lists.size()); };
  auto Entry = [&](uint8_t Kind, std::initializer_list<uint64_t> Fixed,
                   std::initializer_list<uint64_t> Ulebs, const Bytes &E,
                   bool WithExpr = true) {
    Lists.push_back(Kind);
    for (uint64_t F : Fixed)
      putN(Lists, F, 8);
    for (uint64_t V : Ulebs)
      putULEB(Lists, V);
    if (WithExpr) {
      putULEB(Lists, E.size());
      Lists.insert(Lists.end(), E.begin(), E.end());
    }
  };
  // Two offsets after the header (loclistx 0 and 1), patched below.
  size_t OffsetsAt = Lists.size();
  Lists.resize(Lists.size() + 8);
  uint64_t Good = Here();
  Entry(DW_LLE_base_address, {0x2000}, {}, {}, false);
  Entry(DW_LLE_offset_pair, {}, {0, 0x10}, expr({DW_OP_fbreg, 0x78}));
  Entry(DW_LLE_start_length, {0x3000}, {4}, expr({DW_OP_breg6, 16}));
  Entry(DW_LLE_default_location, {}, {}, expr({DW_OP_reg0}));
  Entry(DW_LLE_start_end, {0x10, 0x20}, {}, expr({}));
  Lists.push_back(DW_LLE_end_of_list);
  uint64_t Pair = Here(); // needs a base address
  Entry(DW_LLE_offset_pair, {}, {0, 8}, expr({DW_OP_fbreg, 4}));
  Lists.push_back(DW_LLE_end_of_list);
  uint64_t Unknown = Here();
  Entry(0x20, {}, {}, {}, false);
  uint64_t Indexed = Here(); // no .debug_addr
  Entry(DW_LLE_startx_length, {}, {5, 4}, expr({DW_OP_fbreg, 8}));
  Lists.push_back(DW_LLE_end_of_list);
  uint64_t BaseIndexed = Here();
  Entry(DW_LLE_base_addressx, {}, {0}, {}, false);
  Lists.push_back(DW_LLE_end_of_list);
  uint64_t Cut = Here(); // runs past the end
  Lists.push_back(DW_LLE_start_end);
  putN(Lists, 0x10, 8);
  putN(Lists, 0x20, 3);
  Bytes Header;
  putN(Header, Lists.size() - 4, 4);
  putN(Header, 5, 2);
  Header.push_back(8);
  Header.push_back(0);
  putN(Header, 2, 4);
  std::copy(Header.begin(), Header.end(), Lists.begin());
  Bytes Offsets;
  putN(Offsets, Good - 12, 4);
  putN(Offsets, Pair - 12, 4);
  std::copy(Offsets.begin(), Offsets.end(), Lists.begin() + OffsetsAt);

  Bytes Info =
      concat({unit(5, false,
                   {{OffsetVarCode, Good},
                    {OffsetVarCode, Pair},
                    {OffsetVarCode, Unknown},
                    {OffsetVarCode, Indexed},
                    {OffsetVarCode, BaseIndexed},
                    {OffsetVarCode, Cut},
                    {OffsetVarCode, Lists.size() + 4},
                    {IndexVarCode, 0},
                    {IndexVarCode, 1},
                    {IndexVarCode, 2},
                    {ExprVarCode, 0}},
                   expr({DW_OP_fbreg, 0x70})),
              unit(5, true, {{OffsetVarCode, Good}, {OffsetVarCode, Pair}})});
  expectSameLocations(5, Info, Lists);
}

TEST(LocationList, Version4ListsAsLLVMReadsThem) {
  Bytes Lists;
  auto Pair = [&](uint64_t Start, uint64_t End, const Bytes &E) {
    putN(Lists, Start, 8);
    putN(Lists, End, 8);
    putN(Lists, E.size(), 2);
    Lists.insert(Lists.end(), E.begin(), E.end());
  };
  uint64_t Good = Lists.size();
  Pair(0x10, 0x20, expr({DW_OP_fbreg, 0x78}));
  putN(Lists, UINT64_MAX, 8); // a new base
  putN(Lists, 0x5000, 8);
  Pair(0, 4, expr({DW_OP_breg7, 8, DW_OP_deref}));
  putN(Lists, 0, 8); // the end: (0, 0)
  putN(Lists, 0, 8);
  uint64_t Cut = Lists.size();
  Pair(0x30, 0x40, expr({DW_OP_fbreg, 0x10}));
  Lists.resize(Lists.size() - 1); // the expression's last byte is missing

  Bytes Info = concat({unit(4, false,
                            {{OffsetVarCode, Good},
                             {OffsetVarCode, Cut},
                             {OffsetVarCode, Lists.size() + 8},
                             {ExprVarCode, 0}},
                            expr({DW_OP_fbreg, 0x70})),
                       unit(4, true, {{OffsetVarCode, Good}})});
  expectSameLocations(4, Info, Lists);
}

} // namespace
