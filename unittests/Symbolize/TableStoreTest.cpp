//===- TableStoreTest.cpp - A store's gaps filled once per build-id -------===//

#include "dwarfpack/Symbolize/TableStore.h"

#include "FunctionListTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace dwarfpack;

namespace {

/// A store in a fresh directory whose "tables" are files naming their
/// build-id in hex, opened as FunctionListTables of that build-id.
struct Store {
  SmallString<128> Dir;
  std::unique_ptr<TableStore> S;
  Store() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("tablestore", Dir));
    S = std::make_unique<TableStore>(
        std::string(Dir),
        [](StringRef Path) -> Expected<std::unique_ptr<AddressSymbolizer>> {
          auto T = std::make_unique<test::FunctionListTable>();
          auto Buf = MemoryBuffer::getFile(Path);
          if (!Buf)
            return errorCodeToError(Buf.getError());
          Expected<SmallVector<uint8_t, 20>> Id =
              parseBuildId((*Buf)->getBuffer().trim());
          if (!Id)
            return Id.takeError();
          T->Id.assign(Id->begin(), Id->end());
          return std::move(T);
        });
  }
  ~Store() { sys::fs::remove_directories(Dir); }
};

Error writeHex(StringRef Path, StringRef Hex) {
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return errorCodeToError(EC);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return errorCodeToError(EC);
  OS << Hex;
  return Error::success();
}

TEST(TableStore, FillerMakesMissingTablesOnce) {
  Store St;
  std::vector<std::string> Asked;
  St.S->setFiller([&](ArrayRef<uint8_t> Id, StringRef Path) -> Error {
    Asked.push_back(Path.str());
    if (Id[0] == 0xaa)
      return writeHex(Path, "aabb");
    return createStringError(inconvertibleErrorCode(), "the server is down");
  });
  const uint8_t Good[] = {0xaa, 0xbb}, Bad[] = {0xcc, 0xdd};
  Expected<const AddressSymbolizer &> T = St.S->open(Good);
  ASSERT_TRUE(bool(T)) << toString(T.takeError());
  EXPECT_EQ(T->uuid(), ArrayRef<uint8_t>(Good));
  ASSERT_EQ(Asked.size(), 1u);
  EXPECT_EQ(Asked[0], TableStore::tablePath(St.Dir, Good, "dpat"));
  // Opened and kept: not filled again.
  Expected<const AddressSymbolizer &> Again = St.S->open(Good);
  ASSERT_TRUE(bool(Again)) << toString(Again.takeError());
  EXPECT_EQ(Asked.size(), 1u);

  // A failure is asked once and given again for every later query.
  for (int I = 0; I < 3; ++I) {
    Expected<const AddressSymbolizer &> B = St.S->open(Bad);
    ASSERT_FALSE(bool(B));
    EXPECT_EQ(toString(B.takeError()),
              "no table for build-id ccdd in '" + St.Dir.str().str() +
                  "', and none could be made: the server is down");
  }
  EXPECT_EQ(Asked.size(), 2u);
}

TEST(TableStore, NoFillerNoTable) {
  Store St;
  const uint8_t Id[] = {0x12, 0x34};
  Expected<const AddressSymbolizer &> T = St.S->open(Id);
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(toString(T.takeError()),
            "no table for build-id 1234 in '" + St.Dir.str().str() + "'");
}

} // namespace
