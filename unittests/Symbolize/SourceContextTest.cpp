//===- SourceContextTest.cpp - Source lines around a frame's line ---------===//
//
// The expected texts are what llvm-symbolizer 19 prints with
// --print-source-context-lines for the same files
// (test/lookup/symbolizer-verbose.test compares on real programs).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/SourceContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <sys/stat.h>

using namespace llvm;
using namespace dwarfpack;

namespace {

std::string context(StringRef Text, int64_t Line, int Lines) {
  std::string S;
  raw_string_ostream OS(S);
  writeSourceContext(OS, Text, Line, Lines);
  return S;
}

TEST(SourceContext, AroundTheLine) {
  EXPECT_EQ(context("a\nb\nc\nd\ne\n", 3, 3), "2  : b\n3 >: c\n4  : d\n");
  // An even count has one line more before the line than after it.
  EXPECT_EQ(context("a\nb\nc\nd\ne\n", 3, 2), "2  : b\n3 >: c\n");
  // From line 1 at the top of the file.
  EXPECT_EQ(context("a\nb\nc\n", 1, 3), "1 >: a\n2  : b\n3  : c\n");
}

TEST(SourceContext, NumberWidth) {
  std::string Text;
  for (int I = 1; I <= 120; ++I)
    Text += "l" + std::to_string(I) + "\n";
  // ceil(log10(last)): 1 for line 10, 2 for 11 to 100, 3 past 100.
  EXPECT_EQ(context(Text, 9, 3), "8  : l8\n9 >: l9\n10  : l10\n");
  EXPECT_EQ(context(Text, 99, 3), "98  : l98\n99 >: l99\n100  : l100\n");
  EXPECT_EQ(context(Text, 100, 3), " 99  : l99\n100 >: l100\n101  : l101\n");
  // The only line, line 1: no padding at all.
  EXPECT_EQ(context("x\n", 1, 1), "1 >: x\n");
}

TEST(SourceContext, FileEnds) {
  // Past the end: the lines there are left out; a last line without a
  // line end is printed.
  EXPECT_EQ(context("a\nb\n", 2, 5), "1  : a\n2 >: b\n");
  EXPECT_EQ(context("a\nb", 2, 3), "1  : a\n2 >: b\n");
  EXPECT_EQ(context("a\nb\n", 7, 3), "");
  EXPECT_EQ(context("", 1, 3), "");
  // An empty line is a line; CRLF ends lose their '\r'.
  EXPECT_EQ(context("a\r\n\r\nc\r\n", 2, 1), "2 >: \n");
  EXPECT_EQ(context("a\n\n", 2, 3), "1  : a\n2 >: \n");
}

TEST(SourceContext, NoLinesAsked) {
  EXPECT_EQ(context("a\nb\n", 1, 0), "");
  EXPECT_EQ(context("a\nb\n", 1, -3), "");
  // Line 0 (a frame without a line): from line 1, none marked.
  EXPECT_EQ(context("a\nb\nc\n", 0, 2), "1  : a\n2  : b\n");
}

TEST(SourceFiles, ReadOnceAndMissing) {
  SmallString<128> Path;
  ASSERT_FALSE(sys::fs::createTemporaryFile("context", "c", Path));
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << "int x;\n";
  }
  SourceFiles Files;
  std::optional<StringRef> T = Files.text(Path);
  ASSERT_TRUE(T);
  EXPECT_EQ(*T, "int x;\n");
  sys::fs::remove(Path);
  // Kept: the second frame in the file does not read it again.
  T = Files.text(Path);
  ASSERT_TRUE(T);
  EXPECT_EQ(*T, "int x;\n");
  EXPECT_FALSE(Files.text((Path + ".missing").str()));
}

TEST(SourceFiles, OnlyRegularFiles) {
  // A path in DWARF naming a device, a directory or a FIFO is not read: a
  // FIFO would block and /dev/zero never end.
  SourceFiles Files;
  EXPECT_FALSE(Files.text("/dev/zero"));
  EXPECT_FALSE(Files.text("/"));
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("context", Dir));
  SmallString<128> Fifo(Dir);
  sys::path::append(Fifo, "fifo");
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  EXPECT_FALSE(Files.text(Fifo));
  sys::fs::remove(Fifo);
  sys::fs::remove(Dir);
}

} // namespace
