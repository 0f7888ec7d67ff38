//===- ProcMapsTest.cpp - Reading /proc/PID/maps
//---------------------------===//

#include "dwarfpack/Symbolize/ProcMaps.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

const char *Maps =
    "55d0c8a00000-55d0c8a01000 r--p 00000000 08:01 1234567    /usr/bin/my "
    "prog\n"
    "55d0c8a01000-55d0c8a05000 r-xp 00001000 08:01 1234567    /usr/bin/my "
    "prog\n"
    "55d0c8c00000-55d0c8c21000 rw-p 00000000 00:00 0          [heap]\n"
    "7f0000000000-7f0000002000 r-xp 00026000 fe:00 42         /lib/libc.so.6 "
    "(deleted)\n"
    "7f0000002000-7f0000003000 rw-p 00000000 00:00 0 \n"
    "\n"
    "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0          [stack]\r\n";

TEST(ProcMaps, ReadsTheKernelsLines) {
  llvm::Expected<ProcMaps> M = ProcMaps::parse(Maps, "maps");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->ranges().size(), 6u);
  EXPECT_EQ(M->ranges()[0].Path, "/usr/bin/my prog");
  EXPECT_EQ(M->ranges()[1].Perms, "r-xp");
  EXPECT_EQ(M->ranges()[3].Path, "/lib/libc.so.6");
  EXPECT_TRUE(M->ranges()[3].Deleted);
  EXPECT_EQ(M->ranges()[4].Path, "");
  EXPECT_EQ(M->ranges()[5].Path, "[stack]");

  std::optional<FileLocation> L = M->fileLocation(0x55d0c8a01234);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Path, "/usr/bin/my prog");
  EXPECT_EQ(L->Offset, 0x1234u);
  L = M->fileLocation(0x7f0000000010);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Offset, 0x26010u);
  // Ends are exclusive; anonymous memory and [heap] map no file.
  EXPECT_FALSE(M->fileLocation(0x55d0c8a05000));
  EXPECT_FALSE(M->fileLocation(0x55d0c8c00010));
  EXPECT_FALSE(M->fileLocation(0x7f0000002010));
  EXPECT_FALSE(M->fileLocation(0));
  EXPECT_FALSE(M->fileLocation(UINT64_MAX));
  EXPECT_NE(M->find(0x55d0c8c00010), nullptr);
}

TEST(ProcMaps, SortsWhatIsPiecedTogether) {
  llvm::Expected<ProcMaps> M = ProcMaps::parse("2000-3000 r-xp 0 00:00 0 /b\n"
                                               "1000-2000 r-xp 0 00:00 0 /a\n",
                                               "maps");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->ranges()[0].Path, "/a");
  EXPECT_EQ(M->fileLocation(0x2fff)->Path, "/b");
}

void expectError(const char *Text, const char *Message) {
  llvm::Expected<ProcMaps> M = ProcMaps::parse(Text, "m.txt");
  ASSERT_FALSE(bool(M)) << Text;
  EXPECT_EQ(llvm::toString(M.takeError()), Message);
}

TEST(ProcMaps, NamesTheLineThatIsWrong) {
  expectError("1000-2000 r-xp 0 00:00 0 /a\nhello\n",
              "'m.txt' line 2: expected 'start-end' in hex");
  expectError("2000-1000 r-xp 0 00:00 0 /a",
              "'m.txt' line 1: the range is empty");
  expectError("1000-2000 rx 0 00:00 0 /a",
              "'m.txt' line 1: expected permissions such as 'r-xp'");
  expectError("1000-2000 r-xp zz 00:00 0 /a",
              "'m.txt' line 1: expected the file offset in hex");
  expectError("1000-2000 r-xp 0 0000 0 /a",
              "'m.txt' line 1: expected the device as 'major:minor' in hex");
  expectError("1000-2000 r-xp 0 00:00 x /a",
              "'m.txt' line 1: expected the inode in decimal");
  expectError("1000-2000 r-xp 0 00:00",
              "'m.txt' line 1: expected the inode in decimal");
  expectError("10000000000000000-20000000000000000 r-xp 0 00:00 0",
              "'m.txt' line 1: expected 'start-end' in hex");
  expectError("1000-3000 r-xp 0 00:00 0 /a\n\n2000-4000 r-xp 0 00:00 0 /b",
              "'m.txt' line 3: the range overlaps another one (is it two "
              "processes' maps?)");
}

} // namespace
