//===- UnitDecodeTest.cpp - DIEs and values against LLVM's reader ---------===//
//
// A hand-built unit whose abbreviations mix fixed-size values with every
// kind of variable-size one, decoded by Unit (its DIE index, Die::find,
// DieAttrView, slots) and by LLVM 19's DWARFContext from the same bytes:
// every DIE's offset and tag and every attribute value must agree. The
// indexing steps over runs of fixed-size values at once (Unit::SkipStep) and
// DieAttrView works out where values lie by itself: an error in either
// shifts every DIE or value after it.
//
//===----------------------------------------------------------------------===//

#include "LineTableBuilder.h"

#include "dwarfpack/DwarfInput/Dwarf.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace llvm::dwarf;
using namespace dwarfpack::input;
using namespace dwarfpack::input::test;

namespace {

struct AttrDef {
  Attribute A;
  Form F;
  int64_t Const = 0; ///< DW_FORM_implicit_const
};

struct AbbrevDef {
  uint64_t Code;
  Tag T;
  bool Children;
  std::vector<AttrDef> Attrs;
};

Bytes abbrevTable(const std::vector<AbbrevDef> &Defs) {
  Bytes B;
  for (const AbbrevDef &D : Defs) {
    putULEB(B, D.Code);
    putULEB(B, D.T);
    B.push_back(D.Children ? DW_CHILDREN_yes : DW_CHILDREN_no);
    for (const AttrDef &A : D.Attrs) {
      putULEB(B, A.A);
      putULEB(B, A.F);
      if (A.F == DW_FORM_implicit_const)
        putSLEB(B, A.Const);
    }
    B.push_back(0);
    B.push_back(0);
  }
  B.push_back(0);
  return B;
}

enum : uint64_t {
  CuCode = 1,
  StructCode, // variable: inline name first, then fixed values
  MemberCode, // variable values between fixed ones
  BaseCode,   // all fixed
  VarCode,    // exprloc, block1, flag_present, data8 after an inline name
  DupCode,    // DW_AT_name twice: the first counts
  LongCode,   // many values: block, udata of 10 bytes, string, ref_udata
};

std::vector<AbbrevDef> abbrevs() {
  return {
      {CuCode,
       DW_TAG_compile_unit,
       true,
       {{DW_AT_name, DW_FORM_string},
        {DW_AT_producer, DW_FORM_strp},
        {DW_AT_language, DW_FORM_data2}}},
      {StructCode,
       DW_TAG_structure_type,
       true,
       {{DW_AT_name, DW_FORM_string},
        {DW_AT_byte_size, DW_FORM_udata},
        {DW_AT_decl_file, DW_FORM_implicit_const, 3},
        {DW_AT_decl_line, DW_FORM_data1}}},
      {MemberCode,
       DW_TAG_member,
       false,
       {{DW_AT_decl_line, DW_FORM_data2},
        {DW_AT_name, DW_FORM_string},
        {DW_AT_type, DW_FORM_ref4},
        {DW_AT_data_member_location, DW_FORM_sdata},
        {DW_AT_decl_column, DW_FORM_data1}}},
      {BaseCode,
       DW_TAG_base_type,
       false,
       {{DW_AT_byte_size, DW_FORM_data1},
        {DW_AT_encoding, DW_FORM_data1},
        {DW_AT_name, DW_FORM_strp}}},
      {VarCode,
       DW_TAG_variable,
       false,
       {{DW_AT_name, DW_FORM_string},
        {DW_AT_type, DW_FORM_ref4},
        {DW_AT_location, DW_FORM_exprloc},
        {DW_AT_external, DW_FORM_flag_present},
        {DW_AT_const_value, DW_FORM_block1},
        {DW_AT_upper_bound, DW_FORM_data8},
        {DW_AT_lower_bound, DW_FORM_data4}}},
      {DupCode,
       DW_TAG_member,
       false,
       {{DW_AT_name, DW_FORM_strp},
        {DW_AT_name, DW_FORM_string},
        {DW_AT_type, DW_FORM_ref_udata}}},
      {LongCode,
       DW_TAG_variable,
       false,
       {{DW_AT_const_value, DW_FORM_block},
        {DW_AT_count, DW_FORM_udata},
        {DW_AT_name, DW_FORM_string},
        {DW_AT_type, DW_FORM_ref_udata},
        {DW_AT_bit_size, DW_FORM_data1},
        {DW_AT_decl_line, DW_FORM_sdata}}},
  };
}

/// .debug_str: "producer" at 0, "int" at 9, "strp name" at 13.
Bytes strSection() {
  return concat({cstr("producer"), cstr("int"), cstr("x")});
}

/// A DWARF 5 unit of those abbreviations; BaseOffset: the base type DIE's
/// offset (fixed by the layout below, checked by the test).
Bytes infoSection(uint64_t &BaseOffset) {
  Bytes D; // the DIEs, from the unit's offset 12 on
  auto Here = [&] { return 12 + D.size(); };
  putULEB(D, CuCode);
  D = concat({D, cstr("unit.c")});
  putN(D, 0, 4); // producer
  putN(D, DW_LANG_C11, 2);
  // The base type comes after the struct: its offset is patched in.
  putULEB(D, StructCode);
  D = concat({D, cstr("pair")});
  putULEB(D, 300); // two-byte ULEB
  D.push_back(7);
  std::vector<size_t> TypeRefs;
  for (const char *Name : {"first", "second_longer_name", ""}) {
    putULEB(D, MemberCode);
    putN(D, 1000, 2);
    D = concat({D, cstr(Name)});
    TypeRefs.push_back(D.size());
    putN(D, 0, 4);
    putSLEB(D, -70000);
    D.push_back(5);
  }
  putULEB(D, DupCode);
  putN(D, 13, 4);
  D = concat({D, cstr("second name")});
  size_t DupRef = D.size();
  D.push_back(0); // ref_udata, patched below (one byte)
  D.push_back(0); // the struct's children end
  BaseOffset = Here();
  putULEB(D, BaseCode);
  D.push_back(4);
  D.push_back(DW_ATE_signed);
  putN(D, 9, 4);
  putULEB(D, VarCode);
  D = concat({D, cstr("v")});
  putN(D, BaseOffset, 4);
  putULEB(D, 9);
  D.push_back(DW_OP_addr);
  putN(D, 0x123456789a, 8);
  D.push_back(3); // block1 of 3 bytes
  D = concat({D, Bytes{1, 2, 3}});
  putN(D, UINT64_MAX - 5, 8);
  putN(D, 0xdeadbeef, 4);
  putULEB(D, LongCode);
  putULEB(D, 130); // a block of 130 bytes: two-byte length
  D.insert(D.end(), 130, 0xee);
  putULEB(D, UINT64_MAX); // ten bytes
  D = concat({D, cstr("")});
  putULEB(D, BaseOffset);
  D.push_back(17);
  putSLEB(D, INT64_MIN);
  D.push_back(0); // the unit's children end
  for (size_t At : TypeRefs)
    for (unsigned I = 0; I < 4; ++I)
      D[At + I] = uint8_t(BaseOffset >> (8 * I));
  assert(BaseOffset < 0x80 && "the one-byte ULEB reference");
  D[DupRef] = uint8_t(BaseOffset);

  Bytes Info;
  putN(Info, 8 + D.size(), 4); // unit_length
  putN(Info, 5, 2);
  Info.push_back(DW_UT_compile);
  Info.push_back(8); // address size
  putN(Info, 0, 4);  // abbrev offset
  return concat({Info, D});
}

StringRef asRef(const Bytes &B) {
  return StringRef(reinterpret_cast<const char *>(B.data()), B.size());
}

class UnitDecode : public ::testing::Test {
protected:
  void SetUp() override {
    Info = infoSection(BaseOffset);
    Abbrev = abbrevTable(abbrevs());
    Str = strSection();
    DwarfSections S;
    S[Sec::Info] = asRef(Info);
    S[Sec::Abbrev] = asRef(Abbrev);
    S[Sec::Str] = asRef(Str);
    File = std::make_unique<DwarfFile>(S, /*LittleEndian=*/true,
                                       /*Dwo=*/false, "test");
    ASSERT_TRUE(File->scanUnits().empty());
    ASSERT_EQ(File->units().size(), 1u);
    ASSERT_FALSE(bool(U.parse(*File, File->units()[0])));

    StringMap<std::unique_ptr<MemoryBuffer>> Sections;
    Sections["debug_info"] = MemoryBuffer::getMemBuffer(asRef(Info), "", false);
    Sections["debug_abbrev"] =
        MemoryBuffer::getMemBuffer(asRef(Abbrev), "", false);
    Sections["debug_str"] = MemoryBuffer::getMemBuffer(asRef(Str), "", false);
    Ctx = DWARFContext::create(Sections, 8, true);
  }

  Bytes Info, Abbrev, Str;
  uint64_t BaseOffset = 0;
  std::unique_ptr<DwarfFile> File;
  Unit U;
  std::unique_ptr<DWARFContext> Ctx;
};

/// Our value and LLVM's of one attribute, compared by what the form holds.
void expectSameValue(const FormValue &Ours, const DWARFFormValue &Theirs,
                     const std::string &What) {
  SCOPED_TRACE(What);
  ASSERT_EQ(Ours.getForm(), Theirs.getForm());
  EXPECT_EQ(Ours.getAsUnsignedConstant(), Theirs.getAsUnsignedConstant());
  EXPECT_EQ(Ours.getAsSignedConstant(), Theirs.getAsSignedConstant());
  Expected<const char *> S = Theirs.getAsCString();
  if (S) {
    EXPECT_STREQ(Ours.cstr(), *S);
    EXPECT_EQ(Ours.str(), StringRef(*S));
  } else {
    consumeError(S.takeError());
    EXPECT_EQ(Ours.cstr(), nullptr);
  }
  std::optional<ArrayRef<uint8_t>> B = Theirs.getAsBlock();
  ASSERT_EQ(Ours.getAsBlock().has_value(), B.has_value());
  if (B) {
    EXPECT_EQ(*Ours.getAsBlock(), *B);
  }
  if (Theirs.isFormClass(DWARFFormValue::FC_Reference)) {
    Die Target = Die(&*Ours.unit(), 0).getAttributeValueAsReferencedDie(Ours);
    ASSERT_TRUE(Target);
    // LLVM 19 gives unit-relative forms relative to the unit, and only
    // DW_FORM_ref_addr as a .debug_info offset.
    std::optional<uint64_t> Rel = Theirs.getAsRelativeReference();
    std::optional<uint64_t> Abs = Theirs.getAsDebugInfoReference();
    ASSERT_TRUE(Rel || Abs);
    const uint64_t UnitOffset =
        Theirs.getUnit() ? Theirs.getUnit()->getOffset() : 0;
    EXPECT_EQ(Target.getOffset(), Rel ? UnitOffset + *Rel : *Abs);
  }
}

TEST_F(UnitDecode, EveryDieAndValueAsLLVMReadsThem) {
  DWARFUnit *LU = Ctx->getUnitAtIndex(0);
  ASSERT_NE(LU, nullptr);
  // LLVM's list has the null entries too, as ours does.
  ASSERT_EQ(LU->getNumDIEs(), U.numDies());
  static const AttrSlots Slots = {DW_AT_name, DW_AT_type, DW_AT_byte_size,
                                  DW_AT_const_value, DW_AT_decl_line};
  AbbrevSlots Map(U, Slots);
  unsigned Values = 0;
  for (uint32_t I = 0; I < U.numDies(); ++I) {
    DWARFDie LD = LU->getDIEAtIndex(I);
    Die D(&U, I);
    ASSERT_EQ(D.getOffset(), LD.getOffset()) << "DIE " << I;
    if (!LD.isValid() || LD.isNULL())
      continue;
    EXPECT_EQ(D.getTag(), LD.getTag());
    EXPECT_EQ(U.getDIEForOffset(LD.getOffset()), D);
    DieAttrView View(D, &Map);
    for (const DWARFAttribute &A : LD.attributes()) {
      std::string What =
          ("DIE at " + Twine(LD.getOffset()) + ", " + AttributeString(A.Attr))
              .str();
      // LLVM's attributes() lists an attribute given twice twice; find()
      // has the first, as ours.
      std::optional<DWARFFormValue> First = LD.find(A.Attr);
      ASSERT_TRUE(First.has_value());
      std::optional<FormValue> ViaDie = D.find(A.Attr);
      std::optional<FormValue> ViaView = View.find(A.Attr);
      ASSERT_TRUE(ViaDie.has_value()) << What;
      ASSERT_TRUE(ViaView.has_value()) << What;
      expectSameValue(*ViaDie, *First, What);
      expectSameValue(*ViaView, *First, What);
      EXPECT_EQ(ViaView->sectionOffset(), ViaDie->sectionOffset());
      if (int S = Slots.slotOf(A.Attr); S >= 0) {
        ASSERT_TRUE(View.hasSlot(S));
        std::optional<FormValue> ViaSlot = View.findSlot(S);
        ASSERT_TRUE(ViaSlot.has_value());
        expectSameValue(*ViaSlot, *First, What);
      }
      ++Values;
    }
    for (unsigned S = 0; S < Slots.size(); ++S) {
      if (!View.hasSlot(S)) {
        EXPECT_FALSE(View.findSlot(S).has_value());
      }
    }
  }
  EXPECT_EQ(Values, 41u);
}

TEST_F(UnitDecode, OffsetsBetweenDiesFindNone) {
  uint64_t Begin = 12, End = Info.size();
  size_t Found = 0;
  for (uint64_t Off = 0; Off < End + 20; ++Off)
    if (Die D = U.getDIEForOffset(Off)) {
      EXPECT_EQ(D.getOffset(), Off);
      ++Found;
    }
  EXPECT_EQ(Found, U.numDies());
  EXPECT_FALSE(U.getDIEForOffset(Begin - 1));
}

TEST_F(UnitDecode, InlineStringsKnowTheirLength) {
  Die CU = U.getUnitDIE();
  std::optional<FormValue> Name = CU.find(DW_AT_name);
  ASSERT_TRUE(Name.has_value());
  EXPECT_EQ(Name->getForm(), DW_FORM_string);
  EXPECT_EQ(Name->raw(), 6u);
  EXPECT_EQ(Name->str(), "unit.c");
  // An empty inline name (the third member) is an empty string, not none.
  unsigned Empty = 0;
  for (uint32_t I = 0; I < U.numDies(); ++I)
    if (std::optional<FormValue> N = Die(&U, I).find(DW_AT_name))
      if (N->getForm() == DW_FORM_string && N->str().empty()) {
        EXPECT_STREQ(N->cstr(), "");
        ++Empty;
      }
  EXPECT_EQ(Empty, 2u);
}

TEST_F(UnitDecode, SlotsTakeTheFirstOfAnAttributeGivenTwice) {
  static const AttrSlots Slots = {DW_AT_type, DW_AT_name};
  AbbrevSlots Map(U, Slots);
  unsigned Seen = 0;
  for (uint32_t I = 0; I < U.numDies(); ++I) {
    Die D(&U, I);
    if (!D || D.getTag() != DW_TAG_member || !D.hasAttribute(DW_AT_type))
      continue;
    DieAttrView View(D, &Map);
    std::optional<FormValue> N = View.findSlot(1);
    ASSERT_TRUE(N.has_value());
    EXPECT_EQ(N->getForm(), D.find(DW_AT_name)->getForm());
    if (N->getForm() == DW_FORM_strp) {
      EXPECT_EQ(N->str(), "x");
      ++Seen;
    }
  }
  EXPECT_EQ(Seen, 1u);
}

TEST(AttrSlots, FoldedAttributesKeepTheirOwnSlots) {
  // DW_AT_MIPS_linkage_name (0x2007) and 0x0007 fold to one index.
  AttrSlots Slots = {DW_AT_name, DW_AT_MIPS_linkage_name, Attribute(0x07)};
  EXPECT_EQ(Slots.slotOf(DW_AT_name), 0);
  EXPECT_EQ(Slots.slotOf(DW_AT_MIPS_linkage_name), 1);
  EXPECT_EQ(Slots.slotOf(0x07), 2);
  EXPECT_EQ(Slots.slotOf(DW_AT_type), -1);
  EXPECT_EQ(Slots.slotOf(0x4003), -1);
}

} // namespace
