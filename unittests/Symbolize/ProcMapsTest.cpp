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

TEST(ProcMaps, AMappingReplacesWhatItOverlaps) {
  llvm::Expected<ProcMaps> M = ProcMaps::parse(
      "1000-5000 r-xp 00010000 00:00 1 /a\n8000-9000 r-xp 0 00:00 1 /c\n", "m");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  MappedRange B;
  B.Start = 0x2000;
  B.End = 0x3000;
  B.Path = "/b";
  M->add(B);
  ASSERT_EQ(M->ranges().size(), 4u);
  // /a cut in two, its right end keeping its offsets.
  EXPECT_EQ(M->fileLocation(0x1fff)->Offset, 0x10fffu);
  EXPECT_EQ(M->fileLocation(0x2000)->Path, "/b");
  EXPECT_EQ(M->fileLocation(0x2fff)->Offset, 0xfffu);
  EXPECT_EQ(M->fileLocation(0x3000)->Path, "/a");
  EXPECT_EQ(M->fileLocation(0x3000)->Offset, 0x12000u);
  // One over the end of /a and all of /c.
  B.Start = 0x4000;
  B.End = 0x9000;
  B.Path = "/d";
  M->add(B);
  ASSERT_EQ(M->ranges().size(), 4u);
  EXPECT_EQ(M->ranges()[2].End, 0x4000u);
  EXPECT_EQ(M->fileLocation(0x8000)->Path, "/d");
  EXPECT_EQ(M->fileLocation(0x8000)->Offset, 0x4000u);
}

TEST(PerfMaps, ReadsMmapEvents) {
  auto E = parsePerfMmapEvent(
      "   dp 20456 86394.694018: PERF_RECORD_MMAP2 20456/20457: "
      "[0x55d02bf6c000(0x83f000) @ 0xa8000 fe:00 11100606 1637047348]: "
      "r-xp /tmp/my prog (deleted)");
  ASSERT_TRUE(E.has_value());
  EXPECT_EQ(E->first, 20456);
  EXPECT_EQ(E->second.Start, 0x55d02bf6c000u);
  EXPECT_EQ(E->second.End, 0x55d02bf6c000u + 0x83f000);
  EXPECT_EQ(E->second.Offset, 0xa8000u);
  EXPECT_EQ(E->second.Perms, "r-xp");
  EXPECT_EQ(E->second.Path, "/tmp/my prog");
  EXPECT_TRUE(E->second.Deleted);
  // perf prints a zero offset as 0; the kernel's mapping has pid -1.
  E = parsePerfMmapEvent("p 1 2.0: PERF_RECORD_MMAP2 7/7: [0x1000(0x2000) "
                         "@ 0 00:00 0 0]: r-xp [vdso]");
  ASSERT_TRUE(E.has_value());
  EXPECT_EQ(E->second.Offset, 0u);
  EXPECT_FALSE(E->second.isFile());
  E = parsePerfMmapEvent("swapper 0 0.000000: PERF_RECORD_MMAP -1/0: "
                         "[0xffffffff81000000(0x1276f48) @ "
                         "0xffffffff81000000]: x [kernel.kallsyms]_text");
  ASSERT_TRUE(E.has_value());
  EXPECT_EQ(E->first, -1);
  for (const char *Bad :
       {"p 1 2.0: PERF_RECORD_MMAP2 7/7 [0x1000(0x2000) @ 0]: x /a",
        "p 1 2.0: PERF_RECORD_MMAP2 7/7: 0x1000(0x2000) @ 0]: x /a",
        "p 1 2.0: PERF_RECORD_MMAP2 7/7: [0x1000(0x2000) 0]: x /a",
        "p 1 2.0: PERF_RECORD_MMAP2 7/7: [0x10zz(0x2000) @ 0]: x /a",
        "p 1 2.0: PERF_RECORD_MMAP2 7/7: [0x1000)0x2000( @ 0]: x /a",
        "p 1 2.0: PERF_RECORD_MMAP2 x/7: [0x1000(0x2000) @ 0]: x /a",
        "p 1 2.0: PERF_RECORD_COMM 7/7: [0x1000(0x2000) @ 0]: x /a"})
    EXPECT_FALSE(parsePerfMmapEvent(Bad).has_value()) << Bad;
}

TEST(PerfMaps, ReadsTheProcessOfASample) {
  EXPECT_EQ(parsePerfSamplePid("  prog  4242 [001]   100.000000:  250000 x:"),
            4242u);
  EXPECT_EQ(parsePerfSamplePid("prog 4242/4243 100.000000: 1 cycles:"), 4242u);
  EXPECT_EQ(parsePerfSamplePid("my prog 77 [003] 5.5: 1 cycles:"), 77u);
  EXPECT_FALSE(parsePerfSamplePid("\t    1610 main+0x4 (/a)").has_value());
  EXPECT_FALSE(parsePerfSamplePid("4242 100.000000:").has_value());
  EXPECT_FALSE(parsePerfSamplePid("prog 42x 100.0:").has_value());
}

TEST(PerfMaps, AnswersFromTheSamplesProcess) {
  PerfMaps P;
  EXPECT_TRUE(P.observe("a 1 1.0: PERF_RECORD_MMAP2 1/1: [0x10000(0x1000) "
                        "@ 0x3000 00:00 0 0]: r-xp /one"));
  EXPECT_TRUE(P.observe("b 2 1.0: PERF_RECORD_MMAP2 2/2: [0x10000(0x1000) "
                        "@ 0x5000 00:00 0 0]: r-xp /two"));
  EXPECT_TRUE(P.observe("b 2 1.0: PERF_RECORD_MMAP2 2/2: [0x30000(0x1000) "
                        "@ 0 00:00 0 0]: r-xp /three"));
  // The kernel's mapping is no process's.
  EXPECT_TRUE(P.observe("k 0 0.0: PERF_RECORD_MMAP -1/0: [0x20000(0x1000) "
                        "@ 0x20000]: x [kernel.kallsyms]_text"));
  // Before any sample: only where the processes agree.
  EXPECT_FALSE(P.fileLocation(0x10010).has_value());
  EXPECT_EQ(P.fileLocation(0x30010)->Path, "/three");
  EXPECT_FALSE(P.fileLocation(0x20010).has_value());
  EXPECT_FALSE(P.observe("a 1 [000] 2.0: 1 cycles:  10010 f (/one)"));
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/one");
  EXPECT_EQ(P.fileLocation(0x10010)->Offset, 0x3010u);
  EXPECT_FALSE(P.fileLocation(0x30010).has_value()); // not process 1's
  EXPECT_FALSE(P.observe("\t  10010 f (/one)"));     // still process 1
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/one");
  P.observe("b 2 [000] 2.0: 1 cycles:  10010 f (/two)");
  EXPECT_EQ(P.fileLocation(0x10010)->Offset, 0x5010u);
  // A thread perf names by its own id: the one mapping that agrees.
  P.observe("b 3 [000] 2.0: 1 cycles:  30010 f (/three)");
  EXPECT_EQ(P.fileLocation(0x30010)->Path, "/three");
  EXPECT_FALSE(P.fileLocation(0x10010).has_value());
}

TEST(PerfMaps, FollowsThreadsForksAndExecs) {
  PerfMaps P;
  auto Map = [&](unsigned Pid, const char *Start, const char *Path) {
    std::string Line = "p " + std::to_string(Pid) + " 1.0: PERF_RECORD_MMAP2 " +
                       std::to_string(Pid) + "/" + std::to_string(Pid) + ": [" +
                       Start + "(0x1000) @ 0 00:00 0 0]: r-xp " + Path;
    EXPECT_TRUE(P.observe(Line));
  };
  Map(10, "0x10000", "/sh");
  Map(20, "0x10000", "/other");
  // A thread of process 10, which perf's samples name by its own id.
  EXPECT_TRUE(P.observe("sh 11 1.5: PERF_RECORD_FORK(10:11):(10:10)"));
  EXPECT_FALSE(P.observe("sh 11 [000] 2.0: 1 cycles:  10010 f (/sh)"));
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/sh");
  // A child process has its parent's maps until it runs another program.
  EXPECT_TRUE(P.observe("sh 12 3.0: PERF_RECORD_FORK(12:12):(10:10)"));
  P.observe("sh 12 [000] 3.5: 1 cycles:  10010 f (/sh)");
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/sh");
  EXPECT_TRUE(P.observe("dp 12 4.0: PERF_RECORD_COMM exec: dp:12/12"));
  P.observe("dp 12 [000] 4.5: 1 cycles:  10010 f (/dp)");
  // Nothing mapped yet by the new program: where the others agree, and
  // they do not.
  EXPECT_FALSE(P.fileLocation(0x10010).has_value());
  Map(12, "0x10000", "/dp");
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/dp");
  // The parent keeps its own.
  P.observe("sh 10 [000] 5.0: 1 cycles:  10010 f (/sh)");
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/sh");
  // Other task events are events too; a name may hold ':'.
  EXPECT_TRUE(P.observe("dp 12 6.0: PERF_RECORD_EXIT(12:12):(10:10)"));
  EXPECT_TRUE(P.observe("x 13 6.0: PERF_RECORD_COMM: a:b:13/14"));
  EXPECT_FALSE(P.observe("x 14 [000] 7.0: 1 cycles:  10010 f (/sh)"));
  // Process 13 maps nothing, and the others disagree.
  EXPECT_FALSE(P.fileLocation(0x10010).has_value());
  EXPECT_TRUE(P.observe("x 13 6.0: PERF_RECORD_FORK(garbage"));
}

TEST(PerfMaps, GuessesOnlyAmongFewProcesses) {
  PerfMaps P;
  auto Map = [&](unsigned Pid, const char *Start) {
    P.observe("p " + std::to_string(Pid) + " 1.0: PERF_RECORD_MMAP2 " +
              std::to_string(Pid) + "/" + std::to_string(Pid) + ": [" + Start +
              "(0x1000) @ 0 00:00 0 0]: r-xp /lib" + std::to_string(Pid));
  };
  Map(1, "0x10000");
  for (unsigned Pid = 2; Pid <= PerfMaps::MaxProcessesToAgree; ++Pid)
    Map(Pid, "0x20000");
  P.observe("t 9999 [000] 2.0: 1 cycles:  10010 f (/lib1)");
  EXPECT_EQ(P.fileLocation(0x10010)->Path, "/lib1");
  Map(PerfMaps::MaxProcessesToAgree + 1, "0x30000");
  EXPECT_FALSE(P.fileLocation(0x10010).has_value());
}

} // namespace
