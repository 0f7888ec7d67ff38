//===- TableStore.h - Address tables of many modules, by build-id ---------===//
//
// A profiler records user-space samples as (build-id, offset) pairs and
// symbolizes them later, on another machine, from tables kept by build-id:
// <Dir>/<first two hex digits>/<remaining hex digits>.dpat (compact) or
// .gsym, the layout of /usr/lib/debug/.build-id without the ".build-id"
// level. `dwarfpack gsym --store` writes it; `dwarfpack lookup --store`
// reads it through this class.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_TABLESTORE_H
#define DWARFPACK_SYMBOLIZE_TABLESTORE_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>

namespace dwarfpack {

/// Build-id bytes from hex digits (either case); an error unless Hex is a
/// non-empty, even number of hex digits.
llvm::Expected<llvm::SmallVector<uint8_t, 20>>
parseBuildId(llvm::StringRef Hex);

class TableStore {
public:
  /// Maps and opens the table file at a path (any address table format);
  /// errors name the file.
  using OpenFn =
      std::function<llvm::Expected<std::unique_ptr<AddressSymbolizer>>(
          llvm::StringRef Path)>;

  TableStore(std::string Dir, OpenFn Opener)
      : Dir(std::move(Dir)), Opener(std::move(Opener)) {}

  /// Where the table of BuildId goes in a store at Dir, with extension Ext
  /// ("dpat" or "gsym"). BuildId has at least two bytes.
  static std::string tablePath(llvm::StringRef Dir,
                               llvm::ArrayRef<uint8_t> BuildId,
                               llvm::StringRef Ext);

  /// Makes the table of a build-id that has none, at the path given (as
  /// DebugFileTables::makeTable does, from its debug file); an error says
  /// why it could not.
  using FillFn = std::function<llvm::Error(llvm::ArrayRef<uint8_t> BuildId,
                                           llvm::StringRef TablePath)>;
  /// Fills the store's gaps with Fill: called once per build-id, its
  /// failure given again for every later query (a fetch per query would
  /// make a server of a failing store hammer the debug file's source).
  void setFiller(FillFn Fill) { Filler = std::move(Fill); }

  /// The table of BuildId (.dpat first, then .gsym), mapped and opened on
  /// first use and kept open; when there is none, the one the filler makes
  /// (a compact table). An error when none exists, or (naming the file)
  /// when it does not open or records another build-id; a later call looks
  /// again, but does not fill again.
  llvm::Expected<const AddressSymbolizer &>
  open(llvm::ArrayRef<uint8_t> BuildId);

private:
  std::string Dir;
  OpenFn Opener;
  FillFn Filler;
  llvm::StringMap<std::unique_ptr<AddressSymbolizer>> Opened;
  /// Build-ids the filler was asked for, and why it failed (empty: it
  /// did not).
  llvm::StringMap<std::string> Filled;
};

} // namespace dwarfpack

#endif
