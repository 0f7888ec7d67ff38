//===- Table.cpp - The C API: one table file ------------------------------===//

#include "Options.h"
#include "Results.h"
#include "Status.h"
#include "Tables.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::capi;

struct dwarfpack_table {
  OpenedTable Opened;
  std::string Name;
};

namespace {

/// Tells Opts.warn what the conversion of a binary opened as T reported.
void warnOfConversion(const OpenedTable &T, StringRef Name,
                      const dwarfpack_table_options &Opts) {
  if (!T.Converted || !Opts.warn)
    return;
  const ObjectConversion &C = *T.Converted;
  auto Warn = [&](const Twine &Message) {
    std::string Text = ("'" + Name + "': " + Message).str();
    Opts.warn(Opts.warn_context, Text.c_str());
  };
  for (const std::string &Line : C.Log.summaryLines())
    Warn(Line);
  if (std::string Missing = C.missing(); !Missing.empty())
    Warn(Missing + "; " + input::noDebugFileReason(C.Tried));
}

dwarfpack_status finishOpen(Expected<OpenedTable> T, StringRef Name,
                            const dwarfpack_table_options &Opts,
                            dwarfpack_table **Out) {
  if (!T)
    return fail(T.takeError(), DWARFPACK_ERR_CORRUPT);
  warnOfConversion(*T, Name, Opts);
  *Out = new dwarfpack_table{std::move(*T), Name.str()};
  return DWARFPACK_OK;
}

/// Checks the arguments common to the open functions (Function names the
/// one called); clears *Out.
Error checkOpen(const char *Function, const dwarfpack_table_options *Options,
                dwarfpack_table_options &Opts, dwarfpack_table **Out) {
  if (!Out)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       Twine(Function) + ": OUT is NULL");
  *Out = nullptr;
  if (Error E = readOptions(Options, "dwarfpack_table_options", Opts))
    return E;
  return checkFlags(Opts.flags,
                    DWARFPACK_OPEN_PORTABLE_READERS |
                        DWARFPACK_OPEN_CONVERT_BINARIES |
                        DWARFPACK_OPEN_DEBUGINFOD,
                    "dwarfpack_table_options");
}

/// The options of a table's open: the flags', the cache of converted
/// binaries, and the fetching of their debug files.
Expected<OpenOptions> tableOpenOptions(const dwarfpack_table_options &Opts) {
  OpenOptions O = openOptions(Opts.flags);
  if (Opts.cache_dir)
    O.Objects.CacheDir = Opts.cache_dir;
  if (Opts.flags & DWARFPACK_OPEN_DEBUGINFOD) {
    // Made now: a flag that cannot work is the open's error.
    Expected<std::unique_ptr<DebuginfodClient>> C = debuginfodClient();
    if (!C)
      return C.takeError();
    O.Objects.FetchDebugFile = debuginfodFetcher(std::move(*C));
  }
  return O;
}

/// An error when T cannot turn file offsets into addresses at all (it
/// records no load segments).
Error checkFileOffsets(const dwarfpack_table &T) {
  Expected<std::optional<uint64_t>> A = T.Opened.Table->fileOffsetToAddress(0);
  if (A)
    return Error::success();
  return statusError(DWARFPACK_ERR_UNSUPPORTED,
                     "'" + T.Name + "' (" + T.Opened.Format->Name +
                         "): file offsets: " + toString(A.takeError()));
}

} // namespace

extern "C" {

dwarfpack_status dwarfpack_table_open(const char *Path,
                                      const dwarfpack_table_options *Options,
                                      dwarfpack_table **Out) {
  return guard([&] {
    dwarfpack_table_options Opts;
    if (Error E = checkOpen("dwarfpack_table_open", Options, Opts, Out))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    if (!Path || !*Path)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_table_open: no path");
    Expected<OpenOptions> O = tableOpenOptions(Opts);
    if (!O)
      return fail(O.takeError(), DWARFPACK_ERR_INVALID_ARGUMENT);
    return finishOpen(openTablePath(Path, *O), Path, Opts, Out);
  });
}

dwarfpack_status
dwarfpack_table_open_memory(const void *Data, size_t Size, const char *Name,
                            const dwarfpack_table_options *Options,
                            dwarfpack_table **Out) {
  return guard([&] {
    dwarfpack_table_options Opts;
    if (Error E = checkOpen("dwarfpack_table_open_memory", Options, Opts, Out))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    if (!Data && Size)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_table_open_memory: DATA is NULL");
    StringRef TableName = Name ? Name : "<memory>";
    // A copy: the caller's bytes need not outlive the call, and the copy
    // is aligned as the readers want it.
    std::unique_ptr<MemoryBuffer> Buffer = MemoryBuffer::getMemBufferCopy(
        StringRef(static_cast<const char *>(Data), Size), TableName);
    Expected<OpenOptions> O = tableOpenOptions(Opts);
    if (!O)
      return fail(O.takeError(), DWARFPACK_ERR_INVALID_ARGUMENT);
    return finishOpen(openTableBuffer(std::move(Buffer), TableName, *O),
                      TableName, Opts, Out);
  });
}

void dwarfpack_table_close(dwarfpack_table *Table) { delete Table; }

const char *dwarfpack_table_format(const dwarfpack_table *Table) {
  return Table ? Table->Opened.Format->Name : nullptr;
}

size_t dwarfpack_table_build_id(const dwarfpack_table *Table,
                                const uint8_t **Id) {
  ArrayRef<uint8_t> B =
      Table ? Table->Opened.Table->uuid() : ArrayRef<uint8_t>();
  if (Id)
    *Id = B.empty() ? nullptr : B.data();
  return B.size();
}

dwarfpack_status dwarfpack_table_symbolize(const dwarfpack_table *Table,
                                           const uint64_t *Addresses,
                                           size_t Count, uint32_t Flags,
                                           dwarfpack_results **Out) {
  return guard([&] {
    if (Error E = checkSymbolizeCall(
            "dwarfpack_table_symbolize", Out, Table, Addresses || !Count,
            "TABLE or ADDRESSES", Flags,
            DWARFPACK_SYMBOLIZE_FILE_OFFSETS | DWARFPACK_SYMBOLIZE_DEMANGLE))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    bool FileOffsets = Flags & DWARFPACK_SYMBOLIZE_FILE_OFFSETS;
    // Every offset would fail the same way: fail the call once.
    if (FileOffsets)
      if (Error E = checkFileOffsets(*Table))
        return fail(std::move(E), DWARFPACK_ERR_UNSUPPORTED);
    ResultsBuilder Builder(Count, Flags);
    Builder.lookupAll(*Table->Opened.Table, ArrayRef(Addresses, Count),
                      FileOffsets);
    *Out = Builder.finish();
    return DWARFPACK_OK;
  });
}

} // extern "C"
