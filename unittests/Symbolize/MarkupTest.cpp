//===- MarkupTest.cpp - Symbolizer markup parser and filter ---------------===//
//
// The parser's rules, and the filter's layouts where the lit test's
// programs do not reach: frame numbers wider than the column, ten inlined
// frames, a module that fails, CRLF summary lines. Answers come from a fake
// symbolizer.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Markup.h"

#include "gtest/gtest.h"

using namespace dwarfpack;
using namespace llvm;

namespace {

std::vector<MarkupNode> parse(StringRef Line) {
  std::vector<MarkupNode> Nodes;
  parseMarkupLine(Line, Nodes);
  return Nodes;
}

TEST(MarkupParser, ElementsFieldsAndText) {
  std::vector<MarkupNode> N = parse("a {{{pc:0x1:ra}}} b {{{reset}}}");
  ASSERT_EQ(N.size(), 4u);
  EXPECT_EQ(N[0].Text, "a ");
  EXPECT_TRUE(N[0].Tag.empty());
  EXPECT_EQ(N[1].Tag, "pc");
  ASSERT_EQ(N[1].Fields.size(), 2u);
  EXPECT_EQ(N[1].Fields[1], "ra");
  EXPECT_EQ(N[3].Tag, "reset");
  EXPECT_TRUE(N[3].Fields.empty());
  // Empty fields are kept; a trailing ':' is one empty field.
  N = parse("{{{x::y:}}}{{{z:}}}");
  ASSERT_EQ(N.size(), 2u);
  EXPECT_EQ(N[0].Fields.size(), 3u); // "", "y", ""
  EXPECT_EQ(N[1].Fields.size(), 1u);
  EXPECT_EQ(N[1].Fields[0], "");
}

TEST(MarkupParser, NoTagIsText) {
  std::vector<MarkupNode> N = parse("{{{}}} {{{:x}}} {{{pc:0x1");
  ASSERT_EQ(N.size(), 1u);
  EXPECT_EQ(N[0].Text, "{{{}}} {{{:x}}} {{{pc:0x1");
  // The element after one without a tag is found.
  N = parse("{{{:a}}}{{{pc:0x1}}}");
  ASSERT_EQ(N.size(), 2u);
  EXPECT_EQ(N[1].Tag, "pc");
}

TEST(MarkupParser, SGRNodes) {
  std::vector<MarkupNode> N = parse("\033[31mred\033[0m \033[38m\033[1m");
  ASSERT_EQ(N.size(), 5u);
  EXPECT_EQ(N[0].Text, "\033[31m");
  EXPECT_EQ(N[1].Text, "red");
  EXPECT_EQ(N[2].Text, "\033[0m");
  EXPECT_EQ(N[3].Text, " \033[38m"); // not one of markup's escapes
  EXPECT_EQ(N[4].Text, "\033[1m");
}

class FakeSymbolizer : public MarkupSymbolizer {
public:
  Expected<std::vector<MarkupFrame>>
  code(ArrayRef<uint8_t> BuildId, uint64_t Address, bool Inlines) override {
    if (BuildId[0] == 0xee)
      return createStringError(inconvertibleErrorCode(), "no table");
    Asked.push_back(Address);
    std::vector<MarkupFrame> F;
    for (unsigned I = 0; I < (Inlines ? Frames : 1); ++I)
      F.push_back({"f" + std::to_string(I), "a.c", I + 1, 2});
    return F;
  }
  Expected<std::string> data(ArrayRef<uint8_t>, uint64_t,
                             std::string &Why) override {
    Why = "nowhere";
    return "";
  }
  unsigned Frames = 1;
  std::vector<uint64_t> Asked;
};

struct Filtered {
  std::string Out;
  std::vector<MarkupDiagnostic> Diags;
};

Filtered run(FakeSymbolizer &S, ArrayRef<StringRef> Lines) {
  Filtered F;
  raw_string_ostream OS(F.Out);
  MarkupFilter M(OS, S, /*Colors=*/false,
                 [&](const MarkupDiagnostic &D) { F.Diags.push_back(D); });
  for (StringRef L : Lines)
    M.filter(L);
  M.finish();
  return F;
}

TEST(MarkupFilter, SummaryAndBacktraceLayout) {
  FakeSymbolizer S;
  S.Frames = 11;
  Filtered F = run(S, {"{{{module:7:libx.so:elf:0102}}}\r\n",
                       "{{{mmap:0x2000:0x1000:load:7:RX:0x10}}}\r\n",
                       "{{{mmap:0x1000:0x1000:load:7:r:0x0}}}\r\n",
                       "{{{bt:1234567:0x2001}}}\r\n"});
  // The summary ends as the line that prints it (CRLF), its mmaps in
  // address order; the backtrace's frames are numbered .1 to .10, each
  // line ended as that line.
  EXPECT_EQ(F.Out.substr(0, F.Out.find('\n') + 1),
            "[[[ELF module #0x7 \"libx.so\"; BuildID=0102 "
            "[0x1000-0x1fff](r),[0x2000-0x2fff](rx)]]]\r\n");
  EXPECT_NE(F.Out.find("#1234567.1  0x0000000000002000 f0 a.c:1:2 "
                       "(libx.so+0x10)\r\n"),
            std::string::npos);
  EXPECT_NE(F.Out.find("#1234567.10 0x0000000000002000 f9 a.c:10:2 "),
            std::string::npos);
  EXPECT_NE(F.Out.find("#1234567    0x0000000000002000 f10 a.c:11:2 "
                       "(libx.so+0x10)\r\n"),
            std::string::npos);
  ASSERT_EQ(S.Asked.size(), 1u);
  EXPECT_EQ(S.Asked[0], 0x10u); // the return address, minus one
  EXPECT_TRUE(F.Diags.empty());
}

TEST(MarkupFilter, ContextualLinesAndReset) {
  FakeSymbolizer S;
  Filtered F = run(S, {"gone {{{module:0:m:elf:01}}} gone too\n",
                       "{{{mmap:0x0:0x10:load:0:r:0x0}}}\n", "kept\n",
                       "before {{{reset}}} after\n", "{{{reset}}}\n"});
  EXPECT_EQ(F.Out, "gone [[[ELF module #0x0 \"m\"; BuildID=01 "
                   "[0x0-0xf](r)]]]\nkept\nbefore [[[reset]]]\n");
}

TEST(MarkupFilter, FailuresKeepTheElement) {
  FakeSymbolizer S;
  Filtered F = run(S, {"{{{module:1:bad:elf:ee}}}\n",
                       "{{{mmap:0x0:0x10:load:1:r:0x0}}}\n",
                       "x {{{pc:0x4}}} {{{pc:0x4}}} {{{data:0x4}}}\n"});
  EXPECT_NE(F.Out.find("x [[[pc:0x4]]] [[[pc:0x4]]] <invalid>\n"),
            std::string::npos);
  ASSERT_EQ(F.Diags.size(), 3u);
  EXPECT_FALSE(F.Diags[0].Column);
  EXPECT_EQ(F.Diags[0].Message,
            "ELF module #0x1 \"bad\" (BuildID=ee): no table");
  // The data element (the fake finds none) is warned of at its field.
  EXPECT_TRUE(F.Diags[2].IsWarning);
  EXPECT_EQ(F.Diags[2].Column, 36u);
  EXPECT_EQ(F.Diags[2].Message, "ELF module #0x1 \"bad\": 0x4: nowhere");
}

TEST(MarkupFilter, Colours) {
  FakeSymbolizer S;
  std::string Out;
  raw_string_ostream OS(Out);
  OS.enable_colors(true);
  MarkupFilter M(OS, S, /*Colors=*/true, nullptr);
  M.filter("\033[34m{{{symbol:_Z1fv}}}\033[0m\n");
  M.finish();
  // Highlighted in cyan over the markup's blue; the escapes are rendered
  // as raw_ostream renders colours.
  EXPECT_EQ(Out, "\033[0;34m\033[0;36mf()\033[0;34m\033[0m\n");
}

} // namespace
