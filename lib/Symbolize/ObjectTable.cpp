//===- ObjectTable.cpp - An ELF object opened for lookups -----------------===//
//
// llvm-symbolizer and addr2line are given the binary itself: to stand in
// for them, lookups accept it too, converted in memory by the pipeline that
// `dwarfpack gsym` runs. The table is the one gsym would write, so answers
// are those of the table a user would make first.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/ObjectData.h"
#include "dwarfpack/Symbolize/OpenTable.h"

#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Symbolize/TableCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

static const FileFormat &compactFormat() {
  for (const FileFormat &F : knownFormats())
    if (F.ID == FileFormat::Kind::CompactAddressTable)
      return F;
  llvm_unreachable("the compact format is always known");
}

std::string ObjectConversion::missing() const {
  if (HasDwarf || DebugFile || Relocatable)
    return "";
  return "no DWARF (built without -g?): answers name functions by their "
         "symbols, without files and lines";
}

/// The cached table at Path, when it opens and records build-id Id; else
/// null (a damaged one is made again).
static std::unique_ptr<AddressSymbolizer> openCached(StringRef Path,
                                                     ArrayRef<uint8_t> Id,
                                                     const FileFormat &F,
                                                     const OpenOptions &Opts) {
  if (!sys::fs::is_regular_file(Path))
    return nullptr;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Bytes || !F.Identify((*Bytes)->getBuffer()))
    return nullptr;
  Expected<std::unique_ptr<AddressSymbolizer>> S =
      F.Open(std::move(*Bytes), Opts);
  if (!S) {
    consumeError(S.takeError());
    return nullptr;
  }
  if ((*S)->uuid() != Id)
    return nullptr;
  return std::move(*S);
}

Expected<OpenedTable> openObjectTable(std::unique_ptr<MemoryBuffer> Buffer,
                                      const OpenOptions &Opts) {
  std::string Name = Buffer->getBufferIdentifier().str();
  auto C = std::make_unique<ObjectConversion>();
  const FileFormat &F = compactFormat();
  std::string CachePath;
  // The build-id is read without opening the DWARF; none (or no object
  // file, which the conversion reports) is no cache.
  SmallVector<uint8_t, 20> Id;
  std::optional<TableCache> Cache;
  if (!Opts.Objects.CacheDir.empty()) {
    Cache.emplace(Opts.Objects.CacheDir);
    if (Expected<SmallVector<uint8_t, 20>> Read =
            readBuildId(Buffer->getMemBufferRef()))
      Id = std::move(*Read);
    else
      consumeError(Read.takeError());
  }
  // After the table is used or kept, which a round keeps.
  auto Clean = [&] {
    if (Cache)
      Cache->cleanIfDue(std::chrono::system_clock::now(), CachePath, C->Log);
  };
  input::DebugFileOptions Debug;
  Debug.Where.Directories = Opts.Objects.DebugFileDirectories;
  Debug.Fetch = Opts.Objects.FetchDebugFile;
  Debug.Package = Opts.Objects.Package;
  // The object answers DATA queries (a table records no variables).
  auto Data = [&] {
    return std::make_shared<ObjectDataSource>(std::move(Buffer), Debug,
                                              Opts.Objects.Threads,
                                              Opts.Objects.KeepSymbolTags);
  };
  if (Cache && Id.size() >= 2) {
    CachePath = Cache->tablePath(Id);
    if (std::unique_ptr<AddressSymbolizer> S =
            openCached(CachePath, Id, F, Opts)) {
      C->FromCache = C->HasDwarf = true;
      TableCache::markUsed(CachePath);
      Clean();
      return OpenedTable{std::move(S), &F, std::move(C), Data()};
    }
  }
  Expected<input::InputWithDebugFile> In =
      input::openWithDebugFile(Buffer->getMemBufferRef(), Debug, C->Log);
  if (!In)
    return In.takeError();
  pipeline::PackOptions Pack;
  Pack.NumThreads = Opts.Objects.Threads;
  Pack.Progress = Opts.Objects.Progress;
  Expected<std::unique_ptr<pipeline::PackResult>> R =
      pipeline::packObject(*In->Object, Pack, C->Log);
  if (!R)
    return R.takeError();
  if ((*R)->Model.functions().empty()) {
    std::string Why = "no functions found (no DWARF with code and no "
                      "function symbols)";
    if (!In->Tried.empty())
      Why += "; " + input::noDebugFileReason(In->Tried);
    if (!In->FetchProblem.empty())
      Why += "; " + In->FetchProblem;
    return createFileError(Name,
                           createStringError(inconvertibleErrorCode(), Why));
  }
  C->DebugFile = In->Debug;
  C->HasDwarf = (*R)->HasDwarf;
  C->Relocatable = In->Object->isRelocatable();
  C->Tried = In->Tried;
  // A table that misses DWARF of other files (split units' .dwo files or
  // package, dwz's file) is not kept either: a later run may find them.
  bool MissedFiles =
      C->Log.count("missing-dwo") || C->Log.count("missing-supplementary");
  if (!CachePath.empty() && C->HasDwarf && !MissedFiles)
    TableCache::keep(CachePath, (*R)->Table, C->Log);
  Clean();
  Expected<std::unique_ptr<AddressSymbolizer>> S =
      F.Open(MemoryBuffer::getMemBufferCopy((*R)->Table, Name), Opts);
  if (!S)
    return createFileError(Name, S.takeError());
  R->reset();
  In->Object.reset();
  return OpenedTable{std::move(*S), &F, std::move(C), Data()};
}

} // namespace dwarfpack
