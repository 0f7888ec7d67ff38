//===- DeclaredNamesTest.cpp - Declarations kept before the names are known
//===//
//
// A unit's extern declarations count only for the names the symbol table
// defines, and that table is read beside the first units. A unit converted
// before it is read keeps every declaration whose type it has converted
// already, and asks for the names only where resolving a type would convert
// more; the merger then keeps the names asked for. The table must come out
// as if the unit had waited.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "../YamlObject.h"
#include "SymbolTypes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::types;

namespace {

/// One unit: int, the base type clang makes for DWARF expressions (which a
/// unit converts only when something refers to it), and extern
/// declarations of a (int), b (int), c (the expression type) and d (int).
std::string declarationsObject() {
  return test::elfYamlHeader("ET_EXEC") + R"(DWARF:
  debug_abbrev:
    - Table:
        - { Code: 1, Tag: DW_TAG_compile_unit, Children: DW_CHILDREN_yes,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string } ] }
        - { Code: 2, Tag: DW_TAG_base_type, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_encoding, Form: DW_FORM_data1 },
                          { Attribute: DW_AT_byte_size, Form: DW_FORM_data1 } ] }
        - { Code: 3, Tag: DW_TAG_variable, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_type, Form: DW_FORM_ref4 },
                          { Attribute: DW_AT_external, Form: DW_FORM_flag_present },
                          { Attribute: DW_AT_declaration, Form: DW_FORM_flag_present } ] }
  debug_info:
    - { Version: 4, AbbrevTableID: 0, AddrSize: 8,
        Entries: [ { AbbrCode: 1, Values: [ { CStr: u.c } ] },
          { AbbrCode: 2, Values: [ { CStr: int }, { Value: 5 }, { Value: 4 } ] },
          { AbbrCode: 2, Values: [ { CStr: DW_ATE_signed_32 }, { Value: 5 },
                                   { Value: 4 } ] },
          { AbbrCode: 3, Values: [ { CStr: a }, { Value: 0x10 }, { Value: 1 },
                                   { Value: 1 } ] },
          { AbbrCode: 3, Values: [ { CStr: b }, { Value: 0x10 }, { Value: 1 },
                                   { Value: 1 } ] },
          { AbbrCode: 3, Values: [ { CStr: c }, { Value: 0x17 }, { Value: 1 },
                                   { Value: 1 } ] },
          { AbbrCode: 3, Values: [ { CStr: d }, { Value: 0x10 }, { Value: 1 },
                                   { Value: 1 } ] },
          { AbbrCode: 0 } ] }
)";
}

std::vector<std::string> names(const std::vector<Symbol> &Syms) {
  std::vector<std::string> R;
  for (const Symbol &S : Syms)
    R.push_back(S.Name.str());
  return R;
}

class DeclaredNames : public ::testing::Test {
protected:
  void SetUp() override {
    Bytes = test::yamlObject(declarationsObject());
    ASSERT_FALSE(Bytes.empty());
    auto O = input::InputObject::open(MemoryBufferRef(Bytes, "decl.o"), Log,
                                      input::OpenOptions());
    ASSERT_TRUE(bool(O)) << toString(O.takeError());
    Obj = std::move(*O);
    std::vector<input::WalkItem> Items = input::compileUnits(*Obj);
    ASSERT_EQ(Items.size(), 1u);
    ASSERT_FALSE(bool(U.parse(*Items[0].File, *Items[0].Header)));
    Asked.insert("a");
    Asked.insert("c");
  }

  /// The unit converted with the names known from the start, or with them
  /// not ready (and how often they were asked for).
  UnitTypes convert(bool Ready, unsigned &Asks) {
    Asks = 0;
    return convertCompileUnit(
        U, Log, nullptr,
        [&] {
          ++Asks;
          return &Asked;
        },
        [Ready] { return Ready; });
  }

  TypeTable merge(UnitTypes UT) {
    TypeMerger M;
    bool Unfiltered = UT.DeclarationsUnfiltered;
    M.add(std::move(UT));
    if (Unfiltered)
      M.keepDeclarationsOf(Asked);
    return M.finish(&Asked, nullptr);
  }

  std::string Bytes;
  WarningLog Log;
  std::unique_ptr<input::InputObject> Obj;
  input::Unit U;
  StringSet<> Asked;
};

TEST_F(DeclaredNames, KnownNamesFilterInTheUnit) {
  unsigned Asks;
  UnitTypes UT = convert(/*Ready=*/true, Asks);
  EXPECT_EQ(Asks, 1u);
  EXPECT_FALSE(UT.DeclarationsUnfiltered);
  EXPECT_EQ(names(UT.DeclaredVariables), (std::vector<std::string>{"a", "c"}));
}

TEST_F(DeclaredNames, NamesNotReadyAreAskedForOnlyToConvertAType) {
  unsigned Asks;
  UnitTypes Early = convert(/*Ready=*/false, Asks);
  // a and b have int, converted already; c's type is not, so the unit asks
  // for the names there, and from then on filters (d goes).
  EXPECT_EQ(Asks, 1u);
  EXPECT_TRUE(Early.DeclarationsUnfiltered);
  EXPECT_EQ(names(Early.DeclaredVariables),
            (std::vector<std::string>{"a", "b", "c"}));

  UnitTypes Waited = convert(/*Ready=*/true, Asks);
  ASSERT_EQ(Early.Types.size(), Waited.Types.size());
  EXPECT_EQ(Early.Hashes, Waited.Hashes);
  TypeTable FromEarly = merge(std::move(Early));
  TypeTable FromWaited = merge(std::move(Waited));
  using test::NamePairs;
  using test::symbolTypes;
  EXPECT_EQ(symbolTypes(FromEarly.Variables, FromEarly),
            (NamePairs{{"a", "int"}, {"c", "DW_ATE_signed_32"}}));
  EXPECT_EQ(symbolTypes(FromWaited.Variables, FromWaited),
            symbolTypes(FromEarly.Variables, FromEarly));
  EXPECT_EQ(FromEarly.Types.size(), FromWaited.Types.size());
}

} // namespace
