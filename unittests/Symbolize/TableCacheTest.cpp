//===- TableCacheTest.cpp - Unused converted tables forgotten -------------===//

#include "dwarfpack/Symbolize/TableCache.h"

#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <fstream>

using namespace llvm;
using namespace dwarfpack;
using std::chrono::hours;
using std::chrono::seconds;

namespace {

struct CacheDir {
  SmallString<128> Dir;
  CacheDir() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("tablecache", Dir));
  }
  ~CacheDir() { sys::fs::remove_directories(Dir); }
  std::string path(StringRef Rel) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Rel);
    return std::string(P);
  }
  void write(StringRef Rel, StringRef Text) const {
    std::string P = path(Rel);
    ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(P)));
    std::ofstream(P) << Text.str();
  }
};

TEST(TableCache, ControlFilesWrittenWithDefaultsAndRead) {
  CacheDir C;
  TableCache Cache(C.Dir);
  TableCache::Policy P;
  ASSERT_TRUE(Cache.readPolicy(P));
  EXPECT_EQ(P.CleanInterval, seconds(86400));
  EXPECT_EQ(P.MaxUnusedAge, seconds(604800));
  auto Text = [&](StringRef Name) {
    return MemoryBuffer::getFile(C.path(Name)).get()->getBuffer().str();
  };
  EXPECT_EQ(Text("cache_clean_interval_s"), "86400\n");
  EXPECT_EQ(Text("max_unused_age_s"), "604800\n");
  // A user's values, with spaces; what is not a number keeps the default
  // (and the file as the user left it).
  C.write("cache_clean_interval_s", " 60 \n");
  C.write("max_unused_age_s", "a week\n");
  ASSERT_TRUE(Cache.readPolicy(P));
  EXPECT_EQ(P.CleanInterval, seconds(60));
  EXPECT_EQ(P.MaxUnusedAge, seconds(604800));
  EXPECT_EQ(Text("max_unused_age_s"), "a week\n");
}

TEST(TableCache, NoRootNoControlFiles) {
  CacheDir C;
  TableCache Cache(C.path("missing"));
  WarningLog Log;
  EXPECT_EQ(Cache.cleanIfDue(std::chrono::system_clock::now(), "", Log), 0u);
  EXPECT_FALSE(sys::fs::exists(C.path("missing")));
}

TEST(TableCache, RoundsByModificationTimes) {
  CacheDir C;
  TableCache Cache(C.Dir);
  C.write("1.0/aa/old.dpat", "x");
  C.write("1.0/aa/kept.dpat", "x");
  C.write("1.0/bb/other.txt", "x");
  WarningLog Log;
  auto Now = std::chrono::system_clock::now();
  // The control files are written at the first check, as a round's
  // record: none is due.
  EXPECT_EQ(Cache.cleanIfDue(Now, "", Log), 0u);
  EXPECT_TRUE(sys::fs::exists(C.path("cache_clean_interval_s")));
  // A table is old only against the clock given: a month later both are.
  EXPECT_EQ(Cache.clean(Now + hours(1), seconds(604800), "", Log), 0u);
  EXPECT_EQ(Cache.clean(Now + hours(24 * 30), seconds(604800),
                        C.path("1.0/aa/kept.dpat"), Log),
            1u);
  EXPECT_FALSE(sys::fs::exists(C.path("1.0/aa/old.dpat")));
  EXPECT_TRUE(sys::fs::exists(C.path("1.0/aa/kept.dpat")));
  EXPECT_TRUE(sys::fs::exists(C.path("1.0/bb/other.txt")));
  // A round a day after the one recorded by the control file's time.
  EXPECT_EQ(Cache.cleanIfDue(Now + hours(25), "", Log), 0u); // nothing old
  EXPECT_EQ(Cache.cleanIfDue(Now + hours(24 * 30), "", Log), 1u);
  EXPECT_FALSE(sys::fs::exists(C.path("1.0/aa")));
  EXPECT_TRUE(sys::fs::exists(C.path("1.0/bb/other.txt")));
  EXPECT_EQ(Log.total(), 0u);
}

TEST(TableCache, EachBuildItsOwnDirectory) {
  // This test program's build-id: the code asking is linked into it.
  Expected<SmallVector<uint8_t, 20>> Id = [] {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Self =
        MemoryBuffer::getFile("/proc/self/exe");
    EXPECT_TRUE(bool(Self));
    return readBuildId((*Self)->getMemBufferRef());
  }();
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  std::string Hex = toHex(ArrayRef<uint8_t>(*Id).take_front(8), true);
  std::string Dir = TableCache::versionDirectory();
  EXPECT_TRUE(StringRef(Dir).ends_with("+" + Hex)) << Dir;
  EXPECT_TRUE(isDigit(Dir.front())) << Dir;
  CacheDir C;
  TableCache Cache(C.Dir);
  EXPECT_EQ(Cache.tablePath({0xab, 0xcd, 0xef}),
            C.path(TableCache::versionDirectory() + "/ab/cdef.dpat"));
  // Rounds clean the directories of other builds and of versions alone,
  // and nothing that only looks like one.
  C.write("0.1.0+0123456789abcdef/aa/old.dpat", "x");
  C.write("0.1.0/aa/old.dpat", "x");
  C.write("0.1.0+xyz/aa/old.dpat", "x");
  C.write("0.1.0+/aa/old.dpat", "x");
  WarningLog Log;
  auto Later = std::chrono::system_clock::now() + hours(24 * 30);
  EXPECT_EQ(Cache.clean(Later, seconds(604800), "", Log), 2u);
  EXPECT_FALSE(sys::fs::exists(C.path("0.1.0+0123456789abcdef")));
  EXPECT_FALSE(sys::fs::exists(C.path("0.1.0")));
  EXPECT_TRUE(sys::fs::exists(C.path("0.1.0+xyz/aa/old.dpat")));
  EXPECT_TRUE(sys::fs::exists(C.path("0.1.0+/aa/old.dpat")));
}

} // namespace
