//===- TraceTextTest.cpp - Frames in kernel and perf trace text -----------===//

#include "dwarfpack/Symbolize/TraceText.h"

#include "gtest/gtest.h"

#include <random>

using namespace dwarfpack;

namespace {

TraceFrame only(llvm::StringRef Line) {
  std::vector<TraceFrame> F = scanTraceLine(Line);
  EXPECT_EQ(F.size(), 1u) << Line.str();
  return F.empty() ? TraceFrame() : F.front();
}

llvm::StringRef replaced(llvm::StringRef Line, const TraceFrame &F) {
  return Line.slice(F.Begin, F.End);
}

TEST(TraceText, KernelCallTraceFrames) {
  llvm::StringRef L = "[   12.345678]  ? schedule+0x4/0x90";
  TraceFrame F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::KernelSymbol);
  EXPECT_EQ(replaced(L, F), "schedule+0x4/0x90");
  EXPECT_EQ(F.Name, "schedule");
  EXPECT_EQ(F.Symbol->Offset, 4u);
  EXPECT_EQ(F.Symbol->Size, std::optional<uint64_t>(0x90));
  EXPECT_FALSE(F.Symbol->Module);
  EXPECT_TRUE(F.ReturnAddress);
  // Without a timestamp, with the caller id of printk, from syslog.
  EXPECT_TRUE(only(" vfs_read+0x5/0x1a0").ReturnAddress);
  EXPECT_TRUE(only("[   1.2] [  T123] ksys_read+0x6b/0xf0").ReturnAddress);
  EXPECT_TRUE(
      only("Jan  1 00:00:00 host kernel: [ 1.0]  f+0x1/0x2").ReturnAddress);
  // dmesg -T and dmesg -x.
  EXPECT_TRUE(only("[Thu Nov 28 23:00:00 2026]  f+0x1/0x2").ReturnAddress);
  EXPECT_TRUE(only("kern  :warn  : [    1.0]  ? f+0x1/0x2").ReturnAddress);
  EXPECT_FALSE(
      only("kern  :warn  : [    1.0] RIP: 0010:f+0x1/0x2").ReturnAddress);
  // Older traces: the address first, then the symbol, annotated once.
  L = "[<ffffffff81234567>] ? foo+0x1/0x2";
  F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::KernelSymbol);
  EXPECT_TRUE(F.ReturnAddress);
  // At offset 0 no call precedes the address.
  EXPECT_FALSE(only(" do_idle+0x0/0x20").ReturnAddress);
}

TEST(TraceText, KernelFaultingFrames) {
  llvm::StringRef L = "RIP: 0010:vfs_read+0x5/0x1a0";
  TraceFrame F = only(L);
  EXPECT_EQ(replaced(L, F), "vfs_read+0x5/0x1a0");
  EXPECT_FALSE(F.ReturnAddress);
  F = only("WARNING: CPU: 0 PID: 1 at kernel_init+0x1c/0x140");
  EXPECT_EQ(F.Name, "kernel_init");
  EXPECT_FALSE(F.ReturnAddress);
  F = only("pc : do_thing+0x10/0x40");
  EXPECT_FALSE(F.ReturnAddress);
}

TEST(TraceText, KernelModules) {
  llvm::StringRef L = " ext4_readdir+0x10/0x20 [ext4]";
  TraceFrame F = only(L);
  EXPECT_EQ(F.Symbol->Module, std::optional<std::string>("ext4"));
  EXPECT_EQ(replaced(L, F), "ext4_readdir+0x10/0x20");
  // CONFIG_STACKTRACE_BUILD_ID: "[module buildid]".
  F = only(" nft_do_chain+0x1/0x2 [nf_tables 0123abcd]");
  EXPECT_EQ(F.Symbol->Module, std::optional<std::string>("nf_tables"));
  EXPECT_EQ(F.BuildId,
            (llvm::SmallVector<uint8_t, 20>{0x01, 0x23, 0xab, 0xcd}));
  // %pS in parentheses.
  L = "  (foo+0x0/0x1 [bar])";
  F = only(L);
  EXPECT_EQ(replaced(L, F), "foo+0x0/0x1");
  EXPECT_EQ(F.Symbol->Module, std::optional<std::string>("bar"));
  // Not module words: a build-id of odd length, brackets unclosed.
  for (const char *NoModule : {" f+0x1/0x2 [m abc]", " f+0x1/0x2 [m",
                               " f+0x1/0x2 [m x]", " f+0x1/0x2 [m!]"}) {
    F = only(NoModule);
    EXPECT_FALSE(F.Symbol->Module) << NoModule;
  }
}

TEST(TraceText, PerfScriptFrames) {
  // A callchain line: perf prints the DSO's own address.
  llvm::StringRef L = "\t            1183 work+0x23 (/tmp/p)";
  TraceFrame F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::PerfFrame);
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x1183));
  EXPECT_EQ(F.Object, "/tmp/p");
  EXPECT_EQ(replaced(L, F), "work+0x23");
  EXPECT_EQ(F.Name, "work");
  EXPECT_EQ(F.Symbol->Offset, 0x23u);
  EXPECT_FALSE(F.ReturnAddress);
  // A sample without callchain: its pid and period look like hex too.
  L = "p  7458  1698.980080:     250000 cpu-clock:   55f73ff64183 work+0x23 "
      "(/tmp/p)";
  F = only(L);
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x55f73ff64183));
  // Demangled C++ holds blanks; a file replaced since it was mapped.
  L = "\t 401136 std::vector<int, std::allocator<int> >::size() const+0x4 "
      "(/bin/x (deleted))";
  F = only(L);
  EXPECT_EQ(F.Name, "std::vector<int, std::allocator<int> >::size() const");
  EXPECT_EQ(F.Object, "/bin/x");
  // No symbol, no offset, a name that is hex too.
  F = only("\t 0 [unknown] ([unknown])");
  EXPECT_TRUE(F.Name.empty());
  EXPECT_FALSE(F.Symbol);
  F = only("\t 1183 add (/p)");
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x1183));
  EXPECT_EQ(F.Name, "add");
  EXPECT_FALSE(F.Symbol);
  L = " ffffffff81234567 ([kernel.kallsyms])";
  F = only(L);
  EXPECT_EQ(F.Begin, F.End);
  EXPECT_EQ(L.substr(0, F.Begin), " ffffffff81234567");
}

TEST(TraceText, TellsTracesFromQueries) {
  for (const char *Trace :
       {"\t            1610 _start+0x0 (/usr/bin/prog)",
        "prog 42 [001] 1.5: 1 cycles:  55f73ff64183 work+0x23 (/usr/bin/prog)",
        "prog 42 1.0: PERF_RECORD_MMAP2 42/42: [0x1000(0x1000) @ 0 0:0 0 0]: "
        "r-xp /a",
        "sh 1 1.0: PERF_RECORD_FORK(2:2):(1:1)",
        "[  123.456812]  ? schedule+0x4/0x90", "RIP: 0010:vfs_read+0x5/0x1a0",
        "[<ffffffff81234567>]"})
    EXPECT_TRUE(looksLikeTraceText(Trace)) << Trace;
  for (const char *Query : {"0x1234", "1234", "main+4", "vfs_read+0x5/0x1a0",
                            "vfs_read+0x5/0x1a0 [ext4]", "CODE /bin/ls 0x10",
                            "BUILDID:0123abcd 0x10", "FILE:/bin/ls 0x10", "",
                            "hello world", "RIP: 0033:0x7f1234567890"})
    EXPECT_FALSE(looksLikeTraceText(Query)) << Query;
}

TEST(TraceText, AddressesAndQueries) {
  llvm::StringRef L = "RIP: 0033:0x7f1234567890";
  TraceFrame F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::Address);
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x7f1234567890));
  EXPECT_EQ(F.Begin, L.size());
  F = only("BUILDID:0123abcd 0x10");
  EXPECT_EQ(F.Kind, FrameKind::Query);
  EXPECT_EQ(F.BuildId,
            (llvm::SmallVector<uint8_t, 20>{0x01, 0x23, 0xab, 0xcd}));
  F = only("CODE /bin/ls 0x10");
  EXPECT_EQ(F.Object, "/bin/ls");
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x10));
  L = "main+4";
  F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::Query);
  EXPECT_EQ(F.Symbol->Offset, 4u);
  EXPECT_EQ(replaced(L, F), "main+4");
  // The module forms llvm-symbolizer reads (InputLine.h), and its FRAME
  // command; the frame is the query's word.
  L = "FILE:/bin/ls 0x10";
  F = only(L);
  EXPECT_EQ(F.Kind, FrameKind::Query);
  EXPECT_EQ(F.Object, "/bin/ls");
  EXPECT_EQ(F.Address, std::optional<uint64_t>(0x10));
  EXPECT_EQ(F.Begin, L.size());
  L = "FRAME '/my dir/x' main+4";
  F = only(L);
  EXPECT_EQ(F.Object, "/my dir/x");
  EXPECT_EQ(replaced(L, F), "main+4");
  L = "\t\"/bin/ls\"  main+4\r";
  F = only(L);
  EXPECT_EQ(F.Object, "/bin/ls");
  EXPECT_EQ(replaced(L, F), "main+4");
  EXPECT_EQ(F.Symbol->Name, "main");
  // Prose is no query (numbers in it are addresses).
  for (const char *Prose :
       {"Call Trace:", "<TASK>", "</TASK>", "Kernel panic", "a b c d",
        "BUILDID:xyz 0x10", "---[ end trace 0000000000000000 ]---", "a b /c d",
        "CODE a b"})
    EXPECT_TRUE(scanTraceLine(Prose).empty()) << Prose;
  for (const char *Prose : {"0x10 foo", "'/my dir/x 0x10", "FILE: 0x10",
                            "at 0x10 in", "CODE /a b 0x10"})
    EXPECT_EQ(only(Prose).Kind, FrameKind::Address) << Prose;
}

/// Answers every frame with Frames; records what it was asked.
struct FakeResolver {
  std::vector<SourceFrame> Frames;
  std::vector<TraceFrame> Asked;
  bool Fail = false;
  llvm::Expected<LookupResult> operator()(const TraceFrame &F) {
    Asked.push_back(F);
    if (Fail)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "bad");
    LookupResult R;
    R.Frames = Frames;
    return R;
  }
};

SourceFrame frame(std::string Name, std::string File, uint32_t Line) {
  SourceFrame F;
  F.FunctionName = std::move(Name);
  F.FileName = std::move(File);
  F.Line = Line;
  return F;
}

std::string annotate(const TraceAnnotator &A, FakeResolver &R,
                     llvm::StringRef Line, unsigned *Errors = nullptr) {
  return A.annotate(
      Line, [&](const TraceFrame &F) { return R(F); },
      [&](llvm::Error E) {
        llvm::consumeError(std::move(E));
        if (Errors)
          ++*Errors;
      });
}

TEST(TraceAnnotator, AsDecodeStacktrace) {
  FakeResolver R;
  R.Frames = {frame("leaf", "a.h", 3), frame("middle", "a.h", 9),
              frame("compute", "a.c", 20)};
  TraceAnnotator A;
  EXPECT_EQ(annotate(A, R, "[ 1.0]  ? compute+0x10/0x40 [mod] (P)"),
            "[ 1.0]  ? leaf (a.h:3) (inlined)\n"
            "[ 1.0]  ? middle (a.h:9) (inlined)\n"
            "[ 1.0]  ? compute (a.c:20) [mod] (P)");
  // The call before the return address is looked up.
  EXPECT_EQ(R.Asked.back().Symbol->Offset, 0xfu);
  EXPECT_EQ(annotate(A, R, "0x401000"), "0x401000 leaf (a.h:3) (inlined)\n"
                                        "0x401000 middle (a.h:9) (inlined)\n"
                                        "0x401000 compute (a.c:20)");
  TraceAnnotator Plain({/*Demangle=*/true, /*Inlines=*/false,
                        /*AdjustReturnAddresses=*/false});
  EXPECT_EQ(annotate(Plain, R, " compute+0x10/0x40"), " compute (a.c:20)");
  EXPECT_EQ(R.Asked.back().Symbol->Offset, 0x10u);
  // Names the table gives are demangled; the line's are kept.
  R.Frames = {frame("_Z3fooi", "b.cc", 4)};
  EXPECT_EQ(annotate(A, R, "\t 1183 [unknown] (/p)"),
            "\t 1183 foo(int) (b.cc:4) (/p)");
  // Rust's legacy names as perf shows them, without the hash.
  R.Frames = {frame("_ZN4core3fmt5write17h0f6ad2d1fb6c5a8bE", "fmt.rs", 7)};
  EXPECT_EQ(annotate(A, R, "\t 1183 [unknown] (/p)"),
            "\t 1183 core::fmt::write (fmt.rs:7) (/p)");
  R.Frames = {frame("_Z3fooi", "b.cc", 4)};
  TraceAnnotator Raw({/*Demangle=*/false, true, true});
  EXPECT_EQ(annotate(Raw, R, "\t 1183 x+0x1 (/p)"), "\t 1183 x (b.cc:4) (/p)");
  EXPECT_EQ(annotate(Raw, R, "0x10 and 0x20"),
            "0x10 _Z3fooi (b.cc:4) and 0x20 _Z3fooi (b.cc:4)");
  // Inlined frames get lines of their own only in a line of one frame.
  R.Frames = {frame("leaf", "a.h", 3), frame("compute", "a.c", 20)};
  EXPECT_EQ(annotate(A, R, "from 0x10 to 0x20"),
            "from 0x10 compute (a.c:20) to 0x20 compute (a.c:20)");
}

TEST(TraceAnnotator, ManyFramesInOneLine) {
  // 200,000 answered frames: linear, not a line per inlined frame each
  // repeating what comes before.
  FakeResolver R;
  R.Frames = {frame("leaf", "a.h", 3), frame("compute", "a.c", 20)};
  std::string L;
  for (int I = 0; I < 200000; ++I)
    L += "0x10 ";
  std::string Out = annotate(TraceAnnotator(), R, L);
  EXPECT_EQ(R.Asked.size(), 200000u);
  EXPECT_EQ(Out.size(),
            L.size() + 200000 * std::string(" compute (a.c:20)").size());
}

TEST(TraceAnnotator, WhatIsNotAnsweredStays) {
  FakeResolver R;
  TraceAnnotator A;
  llvm::StringRef L = "[ 1.0]  ? compute+0x10/0x40\r";
  EXPECT_EQ(annotate(A, R, L), L.str());
  // Names only (a kernel symbol table): a named frame keeps its bytes, an
  // address gets the name.
  R.Frames = {frame("do_one", "", 0)};
  EXPECT_EQ(annotate(A, R, L), L.str());
  EXPECT_EQ(annotate(A, R, "[<ffffffff81001010>]"),
            "[<ffffffff81001010>] do_one");
  unsigned Errors = 0;
  R.Fail = true;
  EXPECT_EQ(annotate(A, R, L, &Errors), L.str());
  EXPECT_EQ(Errors, 1u);
}

/// Lines that must come out as they went in, whatever the resolver says
/// about frames, and never crash or take long.
std::vector<std::string> hostileLines() {
  std::vector<std::string> Lines = {
      std::string(1 << 20, 'a'),
      std::string(1 << 18, '(') + "/x" + std::string(1 << 18, ')'),
      std::string(1 << 18, ')'),
      "[<ffff",
      "[<>]",
      "[<1ffffffffffffffff>]",
      "foo+0x10000000000000000/0x1",
      "foo+0x1/0x",
      "foo+/0x1",
      "+0x1/0x2",
      "0x",
      "0x1ffffffffffffffff",
      " 1183 f+0x1 (",
      " 1183 f+0x1 )",
      " 1183 f+0x1 (/a))",
      "(",
      "[",
      "[ 1.0] [ 2.0 [",
      " f+0x1/0x2 [",
      " f+0x1/0x2 [m 0123",
      "BUILDID: 0x10",
      "BUILDID:0 0x10",
  };
  std::string Binary;
  for (int C = 0; C < 256; ++C)
    Binary += static_cast<char>(C);
  Lines.push_back(Binary);
  return Lines;
}

TEST(TraceAnnotator, HostileLines) {
  FakeResolver None;
  TraceAnnotator A;
  for (const std::string &L : hostileLines())
    EXPECT_EQ(annotate(A, None, L), L) << L.substr(0, 40);
  // Every frame found in a hostile line lies inside it, in order.
  for (const std::string &L : hostileLines()) {
    size_t Last = 0;
    for (const TraceFrame &F : scanTraceLine(L)) {
      EXPECT_LE(Last, F.Begin);
      EXPECT_LE(F.Begin, F.End);
      EXPECT_LE(F.End, L.size());
      Last = F.End;
    }
  }
}

TEST(TraceAnnotator, RandomLines) {
  // Pieces of every form, glued at random: frames stay inside their line
  // and in order, and an unanswered line comes out unchanged.
  const char *Pieces[] = {
      "[",         "]",    "<",  ">",     "(",        ")",  " ",
      "\t",        "?",    "0x", "ff",    "12",       "+",  "/",
      ":",         "name", "[<", ">]",    "BUILDID:", "ab", "[kernel.kallsyms]",
      "/lib/x.so", "\xff", "\0", "0010:", "[mod"};
  std::mt19937 Rng(7);
  FakeResolver None, Some;
  Some.Frames = {frame("in", "a.h", 1), frame("out", "a.c", 2)};
  TraceAnnotator A;
  for (int I = 0; I < 20000; ++I) {
    std::string L;
    for (int N = Rng() % 24; N > 0; --N)
      L += Pieces[Rng() % std::size(Pieces)];
    EXPECT_EQ(annotate(A, None, L), L);
    size_t Last = 0;
    for (const TraceFrame &F : scanTraceLine(L)) {
      ASSERT_LE(Last, F.Begin) << L;
      ASSERT_LE(F.Begin, F.End) << L;
      ASSERT_LE(F.End, L.size()) << L;
      Last = F.End;
    }
    (void)annotate(A, Some, L);
  }
}

} // namespace
