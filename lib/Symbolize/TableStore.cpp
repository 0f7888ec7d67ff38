//===- TableStore.cpp - Address tables of many modules, by build-id -------===//

#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

Expected<SmallVector<uint8_t, 20>> parseBuildId(StringRef Hex) {
  if (Hex.empty() || Hex.size() % 2 != 0 || !all_of(Hex, isHexDigit))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Hex +
                                 "' is not a build-id (an even number of hex "
                                 "digits)");
  SmallVector<uint8_t, 20> Out;
  for (size_t I = 0; I < Hex.size(); I += 2)
    Out.push_back(hexFromNibbles(Hex[I], Hex[I + 1]));
  return Out;
}

std::string TableStore::tablePath(StringRef Dir, ArrayRef<uint8_t> BuildId,
                                  StringRef Ext) {
  std::string Hex = toHex(BuildId, /*LowerCase=*/true);
  SmallString<256> Path(Dir);
  sys::path::append(Path, StringRef(Hex).take_front(2),
                    StringRef(Hex).drop_front(2) + "." + Ext);
  return std::string(Path);
}

/// Opens Path with Opener and checks that the table is BuildId's.
static Expected<std::unique_ptr<AddressSymbolizer>>
openTable(const TableStore::OpenFn &Opener, const std::string &Path,
          ArrayRef<uint8_t> BuildId) {
  Expected<std::unique_ptr<AddressSymbolizer>> Table = Opener(Path);
  if (!Table)
    return Table.takeError();
  // A table copied under the wrong name would answer for another build.
  ArrayRef<uint8_t> Recorded = (*Table)->uuid();
  if (Recorded != BuildId)
    return createFileError(
        Path, createStringError(inconvertibleErrorCode(),
                                "the table's build-id is " +
                                    (Recorded.empty() ? std::string("empty")
                                                      : toHex(Recorded, true)) +
                                    ", not the one of its name"));
  return Table;
}

Expected<const AddressSymbolizer &>
TableStore::open(ArrayRef<uint8_t> BuildId) {
  std::string Key = toHex(BuildId, /*LowerCase=*/true);
  auto It = Opened.find(Key);
  if (It != Opened.end())
    return *It->second;
  // Failures are not remembered: a symbolization server keeps running
  // while tables are added to the store.
  if (BuildId.size() >= 2)
    for (StringRef Ext : {"dpat", "gsym"}) {
      std::string Path = tablePath(Dir, BuildId, Ext);
      if (!sys::fs::exists(Path))
        continue;
      Expected<std::unique_ptr<AddressSymbolizer>> T =
          openTable(Opener, Path, BuildId);
      if (!T)
        return T.takeError();
      return *(Opened[Key] = std::move(*T));
    }
  std::string Missing = "no table for build-id " + Key + " in '" + Dir + "'";
  if (!Filler || BuildId.size() < 2)
    return createStringError(inconvertibleErrorCode(), Missing);
  auto [Tried, First] = Filled.try_emplace(Key);
  if (First) {
    std::string Path = tablePath(Dir, BuildId, "dpat");
    if (Error E = Filler(BuildId, Path))
      Tried->second = toString(std::move(E));
    else
      return open(BuildId);
  }
  return createStringError(inconvertibleErrorCode(),
                           Missing +
                               ", and none could be made: " + Tried->second);
}

} // namespace dwarfpack
