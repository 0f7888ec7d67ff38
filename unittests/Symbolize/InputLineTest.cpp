//===- InputLineTest.cpp - Queries as llvm-symbolizer and addr2line read
//---===//

#include "dwarfpack/Symbolize/InputLine.h"

#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "gtest/gtest.h"

#include <set>

using namespace llvm;
using namespace dwarfpack;

namespace {

InputLine parse(StringRef Line, LineModules M) {
  Expected<InputLine> Q = parseInputLine(Line, M);
  EXPECT_TRUE(bool(Q)) << Line.str() << ": " << toString(Q.takeError());
  return Q ? std::move(*Q) : InputLine();
}

std::string error(StringRef Line, LineModules M) {
  Expected<InputLine> Q = parseInputLine(Line, M);
  if (Q)
    return "parsed";
  return toString(Q.takeError());
}

TEST(InputLine, CommandsAndAddresses) {
  InputLine Q = parse("0x10", LineModules::None);
  EXPECT_EQ(Q.Command, QueryCommand::Code);
  EXPECT_EQ(Q.Target.Address, 0x10u);
  EXPECT_EQ(parse("4096 and more", LineModules::None).Target.Address, 4096u);
  EXPECT_EQ(parse("CODE 0x10", LineModules::None).Command, QueryCommand::Code);
  EXPECT_EQ(parse("DATA 0x10", LineModules::None).Command, QueryCommand::Data);
  EXPECT_EQ(parse("FRAME 0x10", LineModules::None).Command,
            QueryCommand::Frame);
  // The command needs its space; a tab is part of a word.
  EXPECT_EQ(parse("CODE\t0x10", LineModules::None).Target.Symbol->Name,
            "CODE\t0x10");
  InputLine S = parse("  main+4 [mod]", LineModules::None);
  EXPECT_EQ(S.Target.Symbol->Name, "main");
  EXPECT_EQ(S.Target.Symbol->Offset, 4u);
  EXPECT_EQ(S.Rest.trim(), "[mod]");
  EXPECT_EQ(error("1abc", LineModules::None),
            "expected an address or a symbol name");
  EXPECT_EQ(error("", LineModules::None),
            "expected an address or a symbol name");
}

TEST(InputLine, ModulesNamedOnTheLine) {
  InputLine Q = parse("lib.dpat 0x10", LineModules::FileOrBuildId);
  EXPECT_EQ(Q.File, "lib.dpat");
  EXPECT_EQ(Q.Target.Address, 0x10u);
  EXPECT_EQ(parse("\"a b.dpat\" 0x10", LineModules::FileOrBuildId).File,
            "a b.dpat");
  EXPECT_EQ(parse("'a b' 0x10", LineModules::FileOrBuildId).File, "a b");
  EXPECT_EQ(parse("FILE:x.dpat 0x10", LineModules::FileOrBuildId).File,
            "x.dpat");
  InputLine D = parse("DATA FILE:x 16", LineModules::FileOrBuildId);
  EXPECT_EQ(D.Command, QueryCommand::Data);
  EXPECT_EQ(D.File, "x");
  EXPECT_EQ(D.Target.Address, 16u);
  InputLine B = parse("BUILDID:ABcd 0x10", LineModules::FileOrBuildId);
  ASSERT_TRUE(B.BuildId);
  EXPECT_EQ(*B.BuildId, (SmallVector<uint8_t, 20>{0xab, 0xcd}));
  EXPECT_TRUE(B.File.empty());

  EXPECT_EQ(error("x.dpat", LineModules::FileOrBuildId),
            "expected an address or a symbol name");
  EXPECT_EQ(error("\"x 0x10", LineModules::FileOrBuildId),
            "unbalanced quotes in input file name");
  EXPECT_EQ(error("FILE:BUILDID:ab 0x10", LineModules::FileOrBuildId),
            "duplicate input file specification prefix");
  EXPECT_EQ(error("FILE:", LineModules::FileOrBuildId),
            "must be followed by an input file");
  EXPECT_EQ(error("BUILDID:", LineModules::FileOrBuildId),
            "must be followed by a hash");
  EXPECT_EQ(error("BUILDID:xyz 0x10", LineModules::FileOrBuildId),
            "'xyz' is not a build-id (an even number of hex digits)");
  // Given otherwise, a module on the line is an error.
  EXPECT_EQ(error("FILE:x 0x10", LineModules::None),
            "input file has already been specified");
  EXPECT_EQ(error("BUILDID:ab 0x10", LineModules::None),
            "input file has already been specified");
  // A store answers build-ids only.
  EXPECT_EQ(error("x.dpat 0x10", LineModules::BuildIdOnly),
            "expected 'BUILDID:<hex> <address or symbol>'");
  EXPECT_EQ(
      parse("BUILDID:ab main", LineModules::BuildIdOnly).Target.Symbol->Name,
      "main");
}

TEST(InputLine, Addr2LineAddresses) {
  EXPECT_EQ(parseAddr2LineAddress("116e"), 0x116eu);
  EXPECT_EQ(parseAddr2LineAddress("0x116e"), 0x116eu);
  EXPECT_EQ(parseAddr2LineAddress("0X116E"), 0x116eu);
  EXPECT_EQ(parseAddr2LineAddress("  116e,junk"), 0x116eu);
  EXPECT_EQ(parseAddr2LineAddress("zz"), 0u);
  EXPECT_EQ(parseAddr2LineAddress(""), 0u);
  EXPECT_EQ(parseAddr2LineAddress("0x"), 0u);
  EXPECT_EQ(parseAddr2LineAddress("ffffffffffffffff"), UINT64_MAX);
  EXPECT_EQ(parseAddr2LineAddress("1ffffffffffffffff"), UINT64_MAX);
}

TEST(InputLine, Addr2LineEndMarkers) {
  // perf's, the sanitizers' (64 and 32 bits), an empty line.
  EXPECT_TRUE(isAddr2LineEndMarker(","));
  EXPECT_TRUE(isAddr2LineEndMarker("0xffffffffffffffff"));
  EXPECT_TRUE(isAddr2LineEndMarker("ffffffff"));
  EXPECT_TRUE(isAddr2LineEndMarker(""));
  EXPECT_TRUE(isAddr2LineEndMarker("0x"));
  // Addresses, 0 included.
  EXPECT_FALSE(isAddr2LineEndMarker("0"));
  EXPECT_FALSE(isAddr2LineEndMarker("0x116e"));
  EXPECT_FALSE(isAddr2LineEndMarker("  116e,junk"));
  EXPECT_FALSE(isAddr2LineEndMarker("fffffffe"));
}

/// Functions at [0x100, 0x100 + 77) and [0x200, 0x200 + 1): lookups by
/// address only, as GSYM and compact tables answer.
class TwoFunctions : public AddressSymbolizer {
public:
  mutable unsigned Lookups = 0;
  Expected<LookupResult> lookup(uint64_t A) const override {
    ++Lookups;
    LookupResult R;
    R.Address = A;
    for (auto [Start, Size, Name] :
         {std::tuple<uint64_t, uint64_t, const char *>(0x100, 77, "f"),
          {0x200, 1, "g"}})
      if (A >= Start && A - Start < Size) {
        SourceFrame F;
        F.FunctionName = Name;
        F.StartAddress = Start;
        R.Frames.push_back(F);
      }
    return R;
  }
};

TEST(SymbolAt, SizeFoundByLookups) {
  TwoFunctions T;
  for (uint64_t A : {0x100, 0x120, 0x14c}) {
    Expected<std::optional<DataSymbol>> S = symbolAt(T, A);
    ASSERT_TRUE(bool(S)) << toString(S.takeError());
    ASSERT_TRUE(*S);
    EXPECT_EQ((*S)->Name, "f");
    EXPECT_EQ((*S)->Start, 0x100u);
    EXPECT_EQ((*S)->Size, 77u);
  }
  EXPECT_LT(T.Lookups, 3 * 20u);
  Expected<std::optional<DataSymbol>> G = symbolAt(T, 0x200);
  ASSERT_TRUE(bool(G));
  EXPECT_EQ((*G)->Size, 1u);
  Expected<std::optional<DataSymbol>> None = symbolAt(T, 0x180);
  ASSERT_TRUE(bool(None));
  EXPECT_FALSE(*None);
}

} // namespace
