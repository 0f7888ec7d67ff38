//===- PrinterTest.cpp - llvm-symbolizer and addr2line output -------------===//
//
// The expected texts are what llvm-symbolizer 19 and binutils 2.40 print for
// the same frames (test/lookup/*options*.test compares with them on real
// programs).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using namespace dwarfpack;

namespace {

/// leaf inlined into outer, inlined into compute, at 0x116e.
LookupResult chain() {
  LookupResult R;
  R.Address = 0x116e;
  SourceFrame Leaf, Outer, Compute;
  Leaf.FunctionName = "_ZNK2ns3BoxIiE3getEv";
  Leaf.FileName = "/src/a.cpp";
  Leaf.Line = 9;
  Leaf.StartAddress = 0x1167;
  Outer.FunctionName = "_ZN2nsL5twiceIiEET_RKNS_3BoxIS1_EE";
  Outer.FileName = "/src/a.cpp";
  Outer.Line = 15;
  Outer.StartAddress = 0x1160;
  Compute.FunctionName = "_ZN2ns3Acc3addEi";
  Compute.FileName = "/src/b.cpp";
  Compute.Line = 29;
  Compute.StartAddress = 0x1130;
  R.Frames = {Leaf, Outer, Compute};
  return R;
}

/// R as printed, which must not depend on whether the frames are given
/// as a LookupResult or as views (how `lookup` gives most of them).
std::string print(PrinterOptions O, const LookupResult &R) {
  std::string S, FromViews;
  raw_string_ostream OS(S), ViewsOS(FromViews);
  ResultPrinter(OS, O).print(R);
  SmallVector<FrameView, 8> Views(R.Frames.begin(), R.Frames.end());
  ResultPrinter(ViewsOS, O).print(R.Address, Views, R.HasDetails);
  EXPECT_EQ(FromViews, S) << "printed from views";
  return S;
}

/// A data symbol without a declaration.
DataSymbol dataSymbol(std::string Name, uint64_t Start, uint64_t Size) {
  DataSymbol D;
  D.Name = std::move(Name);
  D.Start = Start;
  D.Size = Size;
  return D;
}

PrinterOptions style(OutputStyle S) {
  PrinterOptions O;
  O.Style = S;
  return O;
}

TEST(Printer, LlvmStyleWithAddressesAndPrettyPrint) {
  PrinterOptions O;
  EXPECT_EQ(print(O, chain()), "ns::Box<int>::get() const\n/src/a.cpp:9:0\n"
                               "int ns::twice<int>(ns::Box<int> const&)\n"
                               "/src/a.cpp:15:0\nns::Acc::add(int)\n"
                               "/src/b.cpp:29:0\n\n");
  O.PrintAddress = O.Pretty = true;
  EXPECT_EQ(print(O, chain()),
            "0x116e: ns::Box<int>::get() const at /src/a.cpp:9:0\n"
            " (inlined by) int ns::twice<int>(ns::Box<int> const&) at "
            "/src/a.cpp:15:0\n (inlined by) ns::Acc::add(int) at "
            "/src/b.cpp:29:0\n\n");
  // Without names, no "(inlined by)" either.
  O.Functions = FunctionNames::None;
  EXPECT_EQ(print(O, chain()),
            "0x116e: /src/a.cpp:9:0\n/src/a.cpp:15:0\n/src/b.cpp:29:0\n\n");
  O.Pretty = false;
  EXPECT_EQ(print(O, LookupResult{0x10, {}, 0}), "0x10\n??:0:0\n\n");
}

TEST(Printer, ShortNamesAndBasenames) {
  PrinterOptions O;
  O.Functions = FunctionNames::Short;
  O.Paths = PathStyle::BaseName;
  EXPECT_EQ(print(O, chain()),
            "get\na.cpp:9:0\ntwice<int>\na.cpp:15:0\nadd\nb.cpp:29:0\n\n");
}

TEST(Printer, NoInlinesDependsOnStyleAndNames) {
  PrinterOptions O;
  O.Inlines = false;
  // LLVM: the function's name at the innermost location.
  EXPECT_EQ(print(O, chain()), "ns::Acc::add(int)\n/src/a.cpp:9:0\n\n");
  // GNU: the innermost frame.
  O.Style = OutputStyle::GNU;
  EXPECT_EQ(print(O, chain()), "ns::Box<int>::get() const\n/src/a.cpp:9\n");
  // JSON: the function's start with it.
  O.Style = OutputStyle::JSON;
  std::string J = print(O, chain());
  EXPECT_NE(J.find("\"FunctionName\":\"ns::Acc::add(int)\",\"Line\":9,"
                   "\"StartAddress\":\"0x1130\""),
            std::string::npos)
      << J;
  // Short names: the innermost frame in every style.
  O.Functions = FunctionNames::Short;
  J = print(O, chain());
  EXPECT_NE(J.find("\"FunctionName\":\"get\",\"Line\":9,\"StartAddress\":"
                   "\"0x1167\""),
            std::string::npos)
      << J;
}

TEST(Printer, GnuDiscriminators) {
  LookupResult R = chain();
  R.Frames[0].Discriminator = 3;
  PrinterOptions O = style(OutputStyle::GNU);
  O.Inlines = false;
  EXPECT_EQ(print(O, R),
            "ns::Box<int>::get() const\n/src/a.cpp:9 (discriminator 3)\n");
}

TEST(Printer, Addr2LineStyle) {
  PrinterOptions O = style(OutputStyle::Addr2Line);
  O.Functions = FunctionNames::None;
  O.Inlines = false;
  O.Demangle = false;
  EXPECT_EQ(print(O, chain()), "/src/a.cpp:9\n");
  O.Functions = FunctionNames::Linkage;
  O.Inlines = O.PrintAddress = O.Pretty = true;
  EXPECT_EQ(print(O, chain()),
            "0x000000000000116e: _ZNK2ns3BoxIiE3getEv at /src/a.cpp:9\n"
            " (inlined by) _ZN2nsL5twiceIiEET_RKNS_3BoxIS1_EE at "
            "/src/a.cpp:15\n (inlined by) _ZN2ns3Acc3addEi at /src/b.cpp:29\n");
  // Nothing found, and a function without a line.
  EXPECT_EQ(print(O, LookupResult{0x10, {}, 0}),
            "0x0000000000000010: ?? ??:0\n");
  LookupResult NoLine;
  NoLine.Address = 0x20;
  NoLine.Frames.emplace_back();
  NoLine.Frames[0].FunctionName = "_start";
  O.Pretty = false;
  EXPECT_EQ(print(O, NoLine), "0x0000000000000020\n_start\n??:?\n");
  // Without names, (inlined by) still joins the locations.
  O.Functions = FunctionNames::None;
  O.Pretty = true;
  O.PrintAddress = false;
  EXPECT_EQ(print(O, chain()),
            "/src/a.cpp:9\n (inlined by) /src/a.cpp:15\n (inlined by) "
            "/src/b.cpp:29\n");
}

TEST(Printer, Addr2LineNamesAsBinutilsGivesThem) {
  PrinterOptions O = style(OutputStyle::Addr2Line);
  O.Inlines = false;
  LookupResult R;
  R.Address = 0x10;
  R.Frames.emplace_back();
  // GNU's demangler (c++filt) spells lambdas its own way.
  R.Frames[0].FunctionName = "_ZZN4llvm12consumeErrorENS_5ErrorEENKUlRKNS_"
                             "13ErrorInfoBaseEE_clES3_";
  R.Frames[0].FileName = "/e.h";
  R.Frames[0].Line = 3;
  EXPECT_EQ(print(O, R), "llvm::consumeError(llvm::Error)::{lambda(llvm::"
                         "ErrorInfoBase const&)#1}::operator()(llvm::"
                         "ErrorInfoBase const&) const\n/e.h:3\n");
  // A clone part with debug information is named after its function; one
  // the symbol table alone names keeps the symbol's name.
  R.Frames[0].FunctionName = "sqlite3OpenTable.cold";
  EXPECT_EQ(print(O, R), "sqlite3OpenTable\n/e.h:3\n");
  R.Frames[0].FileName.clear();
  R.Frames[0].Line = 0;
  R.Frames[0].FunctionName = "has_cpu_feature.part.0";
  EXPECT_EQ(print(O, R), "has_cpu_feature.part.0\n??:?\n");
}

TEST(Printer, ShortNamesComeFromDebugInformationOnly) {
  LookupResult R;
  R.Address = 0x10;
  R.Frames.emplace_back();
  R.Frames[0].FunctionName = "_start";
  R.Frames[0].StartAddress = 0x10;
  PrinterOptions O;
  O.Functions = FunctionNames::Short;
  EXPECT_EQ(print(O, R), "??\n??:0:0\n\n");
  O.Functions = FunctionNames::Linkage;
  EXPECT_EQ(print(O, R), "_start\n??:0:0\n\n");
}

TEST(Printer, JsonIndentedWithPrettyPrint) {
  PrinterOptions O = style(OutputStyle::JSON);
  O.Pretty = true;
  LookupResult R;
  R.Address = 0x10;
  EXPECT_EQ(print(O, R),
            "{\n  \"Address\": \"0x10\",\n  \"ModuleName\": \"\",\n"
            "  \"Symbol\": [\n    {\n      \"Column\": 0,\n"
            "      \"Discriminator\": 0,\n      \"FileName\": "
            "\"\",\n      \"FunctionName\": \"\",\n      "
            "\"Line\": 0,\n      \"StartAddress\": \"\",\n      "
            "\"StartFileName\": \"\",\n      \"StartLine\": 0\n"
            "    }\n  ]\n}\n");
}

/// Path, its byte At made B, is printed in a JSON line as llvm::json
/// writes it.
void expectEscapedAsLlvmJson(const PrinterOptions &O, std::string Path,
                             size_t At, char B) {
  Path[At] = B;
  LookupResult R;
  R.Address = 1;
  SourceFrame F;
  F.FunctionName = "f";
  F.FileName = Path;
  F.Line = 1;
  R.Frames.push_back(F);
  std::string Got, Want;
  raw_string_ostream GotOS(Got), WantOS(Want);
  ResultPrinter(GotOS, O).print(R);
  json::OStream(WantOS).value(json::isUTF8(Path) ? json::Value(Path)
                                                 : json::fixUTF8(Path));
  EXPECT_NE(Got.find("\"FileName\":" + Want + ","), std::string::npos)
      << "byte " << int(B) << " at " << At << " of " << Path.size() << ": "
      << Got;
}

TEST(Printer, JsonLinesEscapeAsLlvmJson) {
  // Every byte, at places in the blocks the printer checks at once (two
  // of sixteen bytes, one of eight, the three bytes after them), escaped
  // (and invalid UTF-8 mended) as llvm::json does.
  PrinterOptions O;
  O.Style = OutputStyle::JSON;
  for (unsigned B = 0; B < 256; ++B)
    for (unsigned At :
         {0u, 3u, 7u, 8u, 12u, 15u, 16u, 20u, 31u, 32u, 35u, 39u, 40u, 42u})
      expectEscapedAsLlvmJson(O, std::string(43, 'a'), At, char(B));
  // At every place of strings of every length up to 40 (the last block
  // of eight or sixteen bytes overlaps the one before).
  for (size_t Size = 1; Size <= 40; ++Size)
    for (size_t At = 0; At < Size; ++At)
      for (char B : {'\0', '\x1f', '"', '\\', '\x7f', '\x80', '\xff'})
        expectEscapedAsLlvmJson(O, std::string(Size, 'a'), At, B);
}

TEST(Printer, AnswersPrintedAgainForAnotherAddress) {
  // What printAgain() writes from an answer's text is what print() writes
  // for the other address, in every style that prints the address (and
  // in one that does not), with addresses of other lengths.
  std::vector<PrinterOptions> Styles;
  for (OutputStyle S : {OutputStyle::LLVM, OutputStyle::GNU,
                        OutputStyle::Addr2Line, OutputStyle::JSON})
    for (bool Address : {false, true})
      for (bool Pretty : {false, true}) {
        PrinterOptions O = style(S);
        O.PrintAddress = Address;
        O.Pretty = Pretty;
        O.AddressDigits = 8;
        O.ModuleName = "m";
        Styles.push_back(O);
      }
  LookupResult R = chain();
  SmallVector<FrameView, 8> Views(R.Frames.begin(), R.Frames.end());
  for (const PrinterOptions &O : Styles)
    for (uint64_t First : {uint64_t(0x116e), uint64_t(0xffffffff81000000)})
      for (uint64_t Other :
           {uint64_t(0x1), uint64_t(0x1170), uint64_t(0xffffffff81000004)}) {
        std::string Text, Again, Want;
        raw_string_ostream TextOS(Text), AgainOS(Again), WantOS(Want);
        ResultPrinter P(TextOS, O);
        TextOS << "before"; // the answer's place in the stream is kept
        P.print(First, Views, false);
        const ResultPrinter::AnswerShape Shape = P.lastAnswerShape();
        ResultPrinter(WantOS, O).print(Other, Views, false);
        if (O.Style == OutputStyle::JSON && O.Pretty) {
          EXPECT_FALSE(Shape.Repeatable);
          continue;
        }
        ASSERT_TRUE(Shape.Repeatable);
        EXPECT_EQ(Shape.AddressSize != 0,
                  O.PrintAddress || O.Style == OutputStyle::JSON);
        ResultPrinter(AgainOS, O)
            .printAgain(StringRef(Text).drop_front(6), Shape, Other);
        EXPECT_EQ(Again, Want) << int(O.Style) << ' ' << O.PrintAddress << ' '
                               << O.Pretty << " 0x" << utohexstr(First);
      }
}

TEST(Printer, DataAndFrameQueries) {
  std::string S;
  raw_string_ostream OS(S);
  PrinterOptions O;
  O.PrintAddress = true;
  ResultPrinter P(OS, O);
  P.printData(0x116e, dataSymbol("_ZN2ns3Acc3addEi", 0x1130, 121));
  P.printData(0x10, std::nullopt);
  P.printNoLocals(0x116e);
  EXPECT_EQ(S, "0x116e\nns::Acc::add(int)\n4400 121\n??:?\n\n"
               "0x10\n??\n0 0\n??:?\n\n0x116e\n??\n\n");
  S.clear();
  ResultPrinter J(OS, style(OutputStyle::JSON));
  J.printData(0x116e, dataSymbol("f", 0x1130, 121));
  J.printData(std::nullopt, std::nullopt, "Sink");
  J.printNoLocals(0x116e);
  J.printNoAnswer(0x10);
  EXPECT_EQ(S, "{\"Address\":\"0x116e\",\"Data\":{\"Name\":\"f\",\"Size\":"
               "\"0x79\",\"Start\":\"0x1130\"},\"ModuleName\":\"\"}\n"
               "{\"Data\":{\"Name\":\"\",\"Size\":\"0x0\",\"Start\":\"0x0\"},"
               "\"ModuleName\":\"\",\"SymName\":\"Sink\"}\n"
               "{\"Address\":\"0x116e\",\"Frame\":[],\"ModuleName\":\"\"}\n"
               "{\"Address\":\"0x10\",\"ModuleName\":\"\",\"Symbol\":[]}\n");
}

TEST(Printer, SymbolQueriesHaveNoAddressHeader) {
  std::string S;
  raw_string_ostream OS(S);
  PrinterOptions O;
  O.PrintAddress = O.Pretty = true;
  ResultPrinter P(OS, O);
  P.printSymbol("add", {chain()});
  P.printSymbol("none", {});
  EXPECT_EQ(S, "ns::Acc::add(int) at /src/a.cpp:9:0\n\n?? at ??:0:0\n\n");
}

TEST(Printer, ShortFunctionNames) {
  EXPECT_EQ(shortFunctionName("_ZN2ns3Acc3addEi"), "add");
  EXPECT_EQ(shortFunctionName("_ZN2nsL5twiceIiEET_RKNS_3BoxIS1_EE"),
            "twice<int>");
  EXPECT_EQ(shortFunctionName("_ZNK2ns3BoxIiE3getEv"), "get");
  EXPECT_EQ(shortFunctionName("_ZN2ns3AccC2Ev"), "Acc");
  EXPECT_EQ(shortFunctionName("_ZN2ns3AccD2Ev"), "~Acc");
  EXPECT_EQ(shortFunctionName("_ZN2nslsERSoRKNS_3AccE"), "operator<<");
  // The base name inside template arguments is not the function's.
  EXPECT_EQ(shortFunctionName("_ZN1a3getIN1b3getEEEvv"), "get<b::get>");
  EXPECT_EQ(shortFunctionName("leaf"), "leaf");
  EXPECT_EQ(shortFunctionName("leaf.cold"), "leaf");
  EXPECT_EQ(shortFunctionName("foo.isra.0"), "foo");
  EXPECT_EQ(shortFunctionName("_Z3barv.part.0"), "bar");
  EXPECT_EQ(shortFunctionName("app::square"), "square");
  EXPECT_EQ(shortFunctionName("op<a::b>::f"), "f");
  EXPECT_EQ(shortFunctionName(""), "");
}

TEST(ShortFunctionName, OwnShortNames) {
  // Plain identifiers are their own short names; anything a demangler,
  // a scope or a clone suffix may change is not claimed.
  for (const char *N : {"leaf", "__do_sys_open", "x86_64_start_kernel", "_a",
                        "Z", "_", "_____Zq"})
    EXPECT_TRUE(isOwnShortName(N)) << N;
  for (const char *N :
       {"", "_Z3barv", "__Z3barv", "____Z3barv", "____Zq", "_R1x", "_Dfoo",
        "?f@@YAXXZ", "leaf.cold", "ns::f", "f<int>"})
    EXPECT_FALSE(isOwnShortName(N)) << N;
  for (const char *N : {"leaf", "__do_sys_open", "_a", "Z", "_", "_____Zq"})
    EXPECT_EQ(shortFunctionName(N), N);
}

// The quick test in front of LLVM's parse agrees with the parse alone.
TEST(WholePath, AgreesWithLlvmsAbsolutePaths) {
  using namespace llvm::sys::path;
  for (const char *Base :
       {"", "/", "/a/b.c", "a/b.c", "b.c", "\\\\srv\\x.c", "\\x.c",
        "C:\\d\\x.c", "C:x.c", "c:/d/x.c", "1:\\x", "//srv/x.c", ":",
        "a:", "a:\\", "\\", "./x.c", "../x.c", "~/x.c"}) {
    const bool Parsed =
        is_absolute(Base, Style::posix) || is_absolute(Base, Style::windows);
    EXPECT_EQ(isWholePath("", Base), Parsed) << Base;
    EXPECT_FALSE(isWholePath("/dir", Base)) << Base;
  }
}

} // namespace
