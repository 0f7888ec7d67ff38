//===- BreakpadStoreTest.cpp - Symbol store listing -----------------------===//

#include "dwarfpack/Breakpad/BreakpadStore.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace dwarfpack;
using namespace llvm;

namespace {

void touch(const Twine &Path) {
  sys::fs::create_directories(sys::path::parent_path(Path.str()));
  std::error_code EC;
  raw_fd_ostream OS(Path.str(), EC);
  ASSERT_FALSE(EC);
  OS << "MODULE Linux x86_64 0 x\n";
}

TEST(BreakpadStoreTest, ListsOnlyTheStoreLayout) {
  SmallString<128> Root;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("bpstore", Root));
  touch(Root + "/libfoo.so/ABCD0/libfoo.so.sym");
  touch(Root + "/app name/1234/app name.sym");
  touch(Root + "/app name/5678/app name.sym");
  touch(Root + "/README.txt");
  touch(Root + "/libfoo.so/ABCD0/notes.txt");
  touch(Root + "/a/b/c/deep.sym");
  Expected<BreakpadStoreListing> L = listBreakpadStore(Root);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  std::vector<std::string> Want = {"app name/1234/app name.sym",
                                   "app name/5678/app name.sym",
                                   "libfoo.so/ABCD0/libfoo.so.sym"};
  EXPECT_EQ(L->SymFiles, Want);
  std::vector<std::string> Ignored = {"README.txt", "a/b/c/deep.sym",
                                      "libfoo.so/ABCD0/notes.txt"};
  EXPECT_EQ(L->Ignored, Ignored);
  EXPECT_EQ(gsymPathForStoreEntry("x/1/x.sym"), "x/1/x.gsym");
  sys::fs::remove_directories(Root);

  Expected<BreakpadStoreListing> Missing = listBreakpadStore(Root);
  EXPECT_FALSE(bool(Missing)) << "a missing root is an error";
  consumeError(Missing.takeError());
}

} // namespace
