//===- Store.cpp - The C API: tables filed by build-id --------------------===//

#include "Options.h"
#include "Results.h"
#include "Status.h"
#include "Tables.h"

#include "dwarfpack/Symbolize/Debuginfod.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <mutex>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::capi;

struct dwarfpack_store {
  dwarfpack_store(std::string Dir, OpenOptions Opts)
      : Tables(std::move(Dir),
               [Opts](StringRef Path) { return openStoredTable(Path, Opts); }) {
  }

  /// Tables of missing build-ids made from debug files of Sources.
  void fillFrom(DebugFileSources Sources) {
    Fill = std::make_unique<DebugFileTables>(std::move(Sources),
                                             /*Filed=*/nullptr,
                                             /*Threads=*/0);
    Tables.setFiller([&F = *Fill](ArrayRef<uint8_t> Id, StringRef Path) {
      return F.makeTable(Id, Path);
    });
  }

  /// The table of BuildId, or why there is none (a StatusError).
  Expected<const AddressSymbolizer &> open(ArrayRef<uint8_t> BuildId);

private:
  static Expected<std::unique_ptr<AddressSymbolizer>>
  openStoredTable(StringRef Path, const OpenOptions &Opts) {
    Expected<OpenedTable> T = openTablePath(Path, Opts);
    if (!T)
      return T.takeError();
    return std::move(T->Table);
  }

  /// TableStore opens tables on first use: its map changes then, so
  /// threads that share the store take turns; a table, once open, is read
  /// by all at once (readers are immutable, and stay where they are).
  std::mutex Mutex;
  TableStore Tables;
  std::unique_ptr<DebugFileTables> Fill;
};

Expected<const AddressSymbolizer &>
dwarfpack_store::open(ArrayRef<uint8_t> BuildId) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Expected<const AddressSymbolizer &> T = Tables.open(BuildId);
  if (T)
    return T;
  // TableStore's own errors: a FileError for a table that records another
  // build-id, a plain one for a build-id without a table. Ours (opening a
  // file) carry their status.
  Failure F{DWARFPACK_ERR_NOT_FOUND, ""};
  handleAllErrors(
      T.takeError(),
      [&](const StatusError &S) {
        F = {S.status(), S.message()};
      },
      [&](const FileError &E) {
        F = {DWARFPACK_ERR_MISMATCH, E.message()};
      },
      [&](const ErrorInfoBase &E) { F.Message = E.message(); });
  return statusError(F.Status, F.Message);
}

namespace {

/// The tables of one batch's build-ids, each looked for once per batch:
/// a million samples of a module without a table look for it once.
class BatchTables {
public:
  explicit BatchTables(dwarfpack_store &Store) : Store(Store) {}

  /// The table of BuildId, or the failure to find it.
  const AddressSymbolizer *find(ArrayRef<uint8_t> BuildId, std::string &Hex,
                                const Failure *&Why) {
    Hex = toHex(BuildId, /*LowerCase=*/true);
    auto [It, New] = Known.try_emplace(Hex);
    Entry &E = It->second;
    if (New) {
      Expected<const AddressSymbolizer &> T = Store.open(BuildId);
      if (T)
        E.Table = &*T;
      else
        E.Why = toFailure(T.takeError(), DWARFPACK_ERR_NOT_FOUND);
    }
    Why = &E.Why;
    return E.Table;
  }

private:
  struct Entry {
    const AddressSymbolizer *Table = nullptr;
    Failure Why{DWARFPACK_OK, ""};
  };
  dwarfpack_store &Store;
  StringMap<Entry> Known;
};

} // namespace

extern "C" {

dwarfpack_status dwarfpack_store_open(const char *Dir,
                                      const dwarfpack_store_options *Options,
                                      dwarfpack_store **Out) {
  return guard([&] {
    if (!Out)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_store_open: OUT is NULL");
    *Out = nullptr;
    dwarfpack_store_options Opts;
    if (Error E = readOptions(Options, "dwarfpack_store_options", Opts))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    if (Error E = checkFlags(Opts.flags,
                             DWARFPACK_OPEN_PORTABLE_READERS |
                                 DWARFPACK_OPEN_DEBUGINFOD,
                             "dwarfpack_store_options"))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    DebugFileSources Sources;
    for (const char *const *D = Opts.debug_file_directories; D && *D; ++D)
      Sources.Directories.push_back(*D);
    if (Opts.flags & DWARFPACK_OPEN_DEBUGINFOD) {
      Expected<std::unique_ptr<DebuginfodClient>> C = debuginfodClient();
      if (!C)
        return fail(C.takeError(), DWARFPACK_ERR_INVALID_ARGUMENT);
      Sources.Debuginfod = std::move(*C);
    }
    if (!Dir || !*Dir)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_store_open: no directory");
    if (!sys::fs::is_directory(Dir))
      return fail(DWARFPACK_ERR_NOT_FOUND,
                  "'" + std::string(Dir) + "': not a directory");
    auto Store =
        std::make_unique<dwarfpack_store>(Dir, openOptions(Opts.flags));
    if (!Sources.Directories.empty() || Sources.Debuginfod)
      Store->fillFrom(std::move(Sources));
    *Out = Store.release();
    return DWARFPACK_OK;
  });
}

void dwarfpack_store_close(dwarfpack_store *Store) { delete Store; }

dwarfpack_status dwarfpack_store_symbolize(dwarfpack_store *Store,
                                           const dwarfpack_sample *Samples,
                                           size_t Count, uint32_t Flags,
                                           dwarfpack_results **Out) {
  return guard([&] {
    if (Error E = checkSymbolizeCall(
            "dwarfpack_store_symbolize", Out, Store, Samples || !Count,
            "STORE or SAMPLES", Flags,
            DWARFPACK_SYMBOLIZE_FILE_OFFSETS | DWARFPACK_SYMBOLIZE_DEMANGLE))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    bool FileOffsets = Flags & DWARFPACK_SYMBOLIZE_FILE_OFFSETS;
    BatchTables Tables(*Store);
    ResultsBuilder Builder(Count, Flags);
    std::string Hex;
    auto Id = [&](const dwarfpack_sample &S) {
      return S.build_id ? ArrayRef(S.build_id, S.build_id_size)
                        : ArrayRef<uint8_t>();
    };
    // By module, then by number: each table is read in order.
    auto Less = [&](uint32_t A, uint32_t B) {
      ArrayRef<uint8_t> X = Id(Samples[A]), Y = Id(Samples[B]);
      if (X != Y)
        return std::lexicographical_compare(X.begin(), X.end(), Y.begin(),
                                            Y.end());
      return Samples[A].value < Samples[B].value;
    };
    Builder.answerAll(Count, Less, [&](size_t I) {
      const dwarfpack_sample &S = Samples[I];
      if (S.build_id_size < 2 || !S.build_id)
        return Builder.addFailure(S.value, {DWARFPACK_ERR_INVALID_ARGUMENT,
                                            "a build-id has at least 2 bytes"});
      const Failure *Why = nullptr;
      const AddressSymbolizer *T = Tables.find(Id(S), Hex, Why);
      if (!T)
        Builder.addFailure(S.value, *Why);
      else
        Builder.lookup(*T, S.value, FileOffsets, StringRef(Hex));
    });
    *Out = Builder.finish();
    return DWARFPACK_OK;
  });
}

} // extern "C"
