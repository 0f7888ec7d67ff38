//===- OutputFileTest.cpp - Output files written whole or not at all ------===//

#include "dwarfpack/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

class OutputFile : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("outputfile", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string path(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
         I.increment(EC))
      Names.push_back(std::string(sys::path::filename(I->path())));
    std::sort(Names.begin(), Names.end());
    return Names;
  }

  std::string contents(StringRef Name) const {
    auto B = MemoryBuffer::getFile(path(Name));
    return B ? std::string((*B)->getBuffer()) : "<unreadable>";
  }

  SmallString<128> Dir;
};

TEST_F(OutputFile, WritesWholeFileAndKeepsMode) {
  ASSERT_FALSE(bool(writeOutputFile(path("a"), "first")));
  EXPECT_EQ(contents("a"), "first");
  ASSERT_FALSE(sys::fs::setPermissions(path("a"), sys::fs::owner_read |
                                                      sys::fs::owner_write));
  ASSERT_FALSE(bool(writeOutputFile(path("a"), "second")));
  EXPECT_EQ(contents("a"), "second");
  EXPECT_EQ(*sys::fs::getPermissions(path("a")),
            sys::fs::owner_read | sys::fs::owner_write);
  EXPECT_EQ(entries(), std::vector<std::string>{"a"});
}

// A failing writer leaves the old file and no temporary file.
TEST_F(OutputFile, FailingWriterKeepsOldFile) {
  ASSERT_FALSE(bool(writeOutputFile(path("a"), "old")));
  Error E = writeOutputFile(path("a"), [](raw_ostream &OS) {
    OS << "partial";
    return createStringError(inconvertibleErrorCode(), "encoder failed");
  });
  EXPECT_EQ(toString(std::move(E)),
            "cannot write '" + path("a") + "': encoder failed");
  EXPECT_EQ(contents("a"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"a"});
}

// Bytes that do not reach the disk (here past the file size limit; a full
// disk behaves alike) are an error naming the file, not a truncated file
// renamed into place and then LLVM's abort.
TEST_F(OutputFile, WriteErrorLeavesNothing) {
  ASSERT_FALSE(bool(writeOutputFile(path("a"), "old")));
  struct rlimit Saved;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &Saved), 0);
  void (*SavedHandler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit Small = Saved;
  Small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &Small), 0);
  Error E = writeOutputFile(path("a"), std::string(1 << 20, 'x'));
  setrlimit(RLIMIT_FSIZE, &Saved);
  std::signal(SIGXFSZ, SavedHandler);
  EXPECT_EQ(toString(std::move(E)),
            "cannot write '" + path("a") + "': File too large");
  EXPECT_EQ(contents("a"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"a"});
}

// Staged outputs are written before any replaces its file; one that is
// dropped uncommitted leaves its file as it was and no temporary.
TEST_F(OutputFile, StagedOutputsReplaceTogether) {
  ASSERT_FALSE(bool(writeOutputFile(path("a"), "old a")));
  ASSERT_FALSE(bool(writeOutputFile(path("b"), "old b")));
  {
    Expected<StagedOutput> A = StagedOutput::create(path("a"), "new a");
    ASSERT_TRUE(bool(A));
    EXPECT_EQ(contents("a"), "old a");
    EXPECT_EQ(entries().size(), 3u); // a, b and a's temporary
  }
  EXPECT_EQ(contents("a"), "old a");
  EXPECT_EQ(entries(), (std::vector<std::string>{"a", "b"}));

  Expected<StagedOutput> A = StagedOutput::create(path("a"), "new a");
  Expected<StagedOutput> B = StagedOutput::create(path("b"), "new b");
  ASSERT_TRUE(A && B);
  std::vector<StagedOutput> All;
  All.push_back(std::move(*A));
  All.push_back(std::move(*B)); // moved, still staged
  EXPECT_EQ(contents("a"), "old a");
  for (StagedOutput &O : All)
    ASSERT_FALSE(bool(O.commit()));
  EXPECT_EQ(contents("a"), "new a");
  EXPECT_EQ(contents("b"), "new b");
  EXPECT_EQ(entries(), (std::vector<std::string>{"a", "b"}));
}

// A symbolic link keeps pointing at its file, which gets the bytes.
TEST_F(OutputFile, FollowsSymbolicLinks) {
  ASSERT_FALSE(bool(writeOutputFile(path("target"), "old")));
  ASSERT_FALSE(sys::fs::create_link("target", path("link")));
  ASSERT_FALSE(bool(writeOutputFile(path("link"), "new")));
  EXPECT_EQ(contents("target"), "new");
  sys::fs::file_status St;
  ASSERT_FALSE(sys::fs::status(path("link"), St, /*Follow=*/false));
  EXPECT_EQ(St.type(), sys::fs::file_type::symlink_file);
  EXPECT_EQ(entries(), (std::vector<std::string>{"link", "target"}));

  ASSERT_FALSE(sys::fs::create_link("missing", path("dangling")));
  EXPECT_EQ(toString(writeOutputFile(path("dangling"), "x")),
            "cannot write '" + path("dangling") +
                "': a symbolic link to a file that does not exist");
}

TEST_F(OutputFile, ExplicitMode) {
  auto Mode = sys::fs::owner_all | sys::fs::group_read | sys::fs::others_read;
  ASSERT_FALSE(bool(writeOutputFile(
      path("exe"),
      [](raw_ostream &OS) {
        OS << "\177ELF";
        return Error::success();
      },
      Mode)));
  EXPECT_EQ(*sys::fs::getPermissions(path("exe")), Mode);
}

TEST_F(OutputFile, RefusedNames) {
  EXPECT_EQ(toString(writeOutputFile("", "x")),
            "the output file name is empty");
  EXPECT_EQ(toString(writeOutputFile(Dir, "x")),
            "cannot write '" + std::string(Dir) + "': is a directory");
  EXPECT_EQ(toString(writeOutputFile(path("no/such/dir/x"), "x")),
            "cannot write '" + path("no/such/dir/x") +
                "': No such file or directory");
  EXPECT_EQ(toString(writeOutputFile("/proc/version", "x")),
            "cannot write '/proc/version': cannot create a temporary file "
            "beside it (No such file or directory)");
}

TEST_F(OutputFile, OutputIsNotInput) {
  ASSERT_FALSE(bool(writeOutputFile(path("in"), "input")));
  EXPECT_FALSE(bool(checkOutputIsNotInput(path("out"), {path("in")})));
  EXPECT_FALSE(bool(checkOutputIsNotInput("-", {path("in")})));
  std::string Other = Dir.str().str() + "/./in";
  EXPECT_EQ(toString(checkOutputIsNotInput(Other, {"x", path("in")})),
            "'" + Other + "' is an input: writing it would replace the input");
}

TEST_F(OutputFile, DirectoriesFollowTheUmask) {
  mode_t Old = umask(022);
  Error E = createOutputDirectories(path("a/b"));
  umask(Old);
  ASSERT_FALSE(bool(E));
  EXPECT_EQ(*sys::fs::getPermissions(path("a/b")),
            sys::fs::all_all & ~(sys::fs::group_write | sys::fs::others_write));
}

} // namespace
