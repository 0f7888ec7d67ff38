// The frame buffer's cache of expanded names against a plain map: every
// name kept is found with its details, through the table's growth and
// clustered offsets, and nothing else is found.
#include "dwarfpack/CompactTable/NameCache.h"

#include "gtest/gtest.h"

#include <map>
#include <random>
#include <string>

using namespace dwarfpack::compact;

namespace {

TEST(NameCacheTest, AgreesWithAMapThroughGrowth) {
  std::mt19937 Random(3);
  NameCache Cache;
  std::map<uint32_t, std::string> Kept;
  std::vector<std::unique_ptr<std::string>> Storage;
  for (int I = 0; I < 20000; ++I) {
    // Offsets close together (as a name list's are) and far apart.
    uint32_t Offset = I % 3 ? Random() % 50000 : Random() % (UINT32_MAX - 1);
    NameCache::Name Found;
    bool Known = Kept.count(Offset);
    ASSERT_EQ(Cache.find(Offset, Found), Known) << Offset;
    if (Known)
      continue;
    std::string Text = "f" + std::to_string(Offset);
    bool HasShort = Offset % 2;
    Storage.push_back(
        std::make_unique<std::string>(Text + (HasShort ? "s" : "")));
    NameCache::Name N;
    N.Text = llvm::StringRef(*Storage.back()).take_front(Text.size());
    N.Short = llvm::StringRef(*Storage.back()).drop_front(Text.size());
    N.DeclFile = Offset % 7;
    N.DeclLine = Offset % 1000;
    N.HasShort = HasShort;
    Cache.insert(Offset, N);
    Kept[Offset] = Text;
  }
  EXPECT_EQ(Cache.size(), Kept.size());
  for (auto &[Offset, Text] : Kept) {
    NameCache::Name Found;
    ASSERT_TRUE(Cache.find(Offset, Found)) << Offset;
    EXPECT_EQ(Found.Text, Text);
    EXPECT_EQ(Found.HasShort, bool(Offset % 2));
    EXPECT_EQ(Found.Short, Offset % 2 ? "s" : "");
    EXPECT_EQ(Found.DeclFile, Offset % 7);
    EXPECT_EQ(Found.DeclLine, Offset % 1000);
  }
}

TEST(NameCacheTest, ClearForgetsEverything) {
  NameCache Cache;
  std::string Text = "name";
  for (uint32_t Offset = 0; Offset < 3000; ++Offset)
    Cache.insert(Offset * 16, {Text, llvm::StringRef(), 0, 0, false});
  Cache.clear();
  EXPECT_EQ(Cache.size(), 0u);
  NameCache::Name Found;
  for (uint32_t Offset = 0; Offset < 3000; ++Offset)
    EXPECT_FALSE(Cache.find(Offset * 16, Found));
  // The largest offset is not the empty slots' mark.
  EXPECT_FALSE(Cache.find(UINT32_MAX, Found));
  Cache.insert(UINT32_MAX - 1, {Text, llvm::StringRef(), 1, 2, false});
  ASSERT_TRUE(Cache.find(UINT32_MAX - 1, Found));
  EXPECT_EQ(Found.DeclLine, 2u);
}

} // namespace
