//===- Debuginfod.cpp - Debug files by build-id, fetched or found ---------===//

#include "dwarfpack/Symbolize/Debuginfod.h"

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#ifdef DWARFPACK_HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

using namespace llvm;

namespace dwarfpack {

namespace {
Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}
} // namespace

bool debuginfodAvailable() {
#ifdef DWARFPACK_HAVE_DEBUGINFOD
  return true;
#else
  return false;
#endif
}

//===----------------------------------------------------------------------===//
// The client
//===----------------------------------------------------------------------===//

#ifdef DWARFPACK_HAVE_DEBUGINFOD
struct DebuginfodClient::Impl {
  debuginfod_client *C = nullptr;
  ~Impl() {
    if (C)
      debuginfod_end(C);
  }
};
#else
struct DebuginfodClient::Impl {};
#endif

DebuginfodClient::DebuginfodClient(std::unique_ptr<Impl> I) : I(std::move(I)) {}
DebuginfodClient::~DebuginfodClient() = default;

Expected<std::unique_ptr<DebuginfodClient>> DebuginfodClient::create() {
#ifdef DWARFPACK_HAVE_DEBUGINFOD
  const char *Urls = std::getenv(DEBUGINFOD_URLS_ENV_VAR);
  if (!Urls || StringRef(Urls).trim().empty())
    return fail("no debuginfod server: DEBUGINFOD_URLS is not set");
  auto I = std::make_unique<Impl>();
  I->C = debuginfod_begin();
  if (!I->C)
    return fail("the debuginfod client could not be started");
  return std::unique_ptr<DebuginfodClient>(new DebuginfodClient(std::move(I)));
#else
  return fail("this dwarfpack was built without libdebuginfod (elfutils' "
              "debuginfod client)");
#endif
}

Expected<FetchedFile>
DebuginfodClient::fetchDebugInfo(ArrayRef<uint8_t> BuildId) {
#ifdef DWARFPACK_HAVE_DEBUGINFOD
  char *Path = nullptr;
  int Fd =
      debuginfod_find_debuginfo(I->C, BuildId.data(), BuildId.size(), &Path);
  // The server that answered; when none did, the list asked.
  const char *Url = debuginfod_get_url(I->C);
  const char *Urls = std::getenv(DEBUGINFOD_URLS_ENV_VAR);
  std::string From = Url    ? std::string(Url)
                     : Urls ? "debuginfod " + StringRef(Urls).trim().str()
                            : std::string("debuginfod");
  if (Fd < 0) {
    free(Path);
    return fail(From + ": " +
                (Fd == -ENOENT
                     // The client's answer to a 404 and to a download
                     // that broke off alike.
                     ? std::string("not found, or the download failed")
                     : std::string(std::strerror(-Fd))));
  }
  FetchedFile F;
  F.CachePath = Path ? Path : "";
  free(Path);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getOpenFile(
      Fd, From, /*FileSize=*/-1, /*RequiresNullTerminator=*/false);
  ::close(Fd);
  if (!Buf)
    return fail(From + ": " + Buf.getError().message());
  F.Bytes = std::move(*Buf);
  return std::move(F);
#else
  return fail("this dwarfpack was built without libdebuginfod");
#endif
}

void DebuginfodClient::forget(const FetchedFile &F) {
  if (!F.CachePath.empty())
    sys::fs::remove(F.CachePath);
}

//===----------------------------------------------------------------------===//
// Tables of debug files
//===----------------------------------------------------------------------===//

Error fileTableOf(std::unique_ptr<MemoryBuffer> Bytes, StringRef Name,
                  ArrayRef<uint8_t> BuildId, StringRef TablePath,
                  unsigned Threads) {
  WarningLog Log;
  input::OpenOptions Open;
  Open.SupConsequence = "names stored there are missing";
  Expected<std::unique_ptr<input::InputObject>> In =
      input::InputObject::open(std::move(Bytes), Name, Log, Open);
  if (!In)
    return In.takeError();
  // A server (or a misfiled file) may hand over another build's file.
  ArrayRef<uint8_t> Have = gnuBuildId((*In)->object());
  if (Have != BuildId)
    return createFileError(
        Name, fail("its build-id is " +
                   (Have.empty() ? std::string("missing")
                                 : toHex(Have, /*LowerCase=*/true)) +
                   ", not " + toHex(BuildId, /*LowerCase=*/true)));
  pipeline::PackOptions Opts;
  Opts.NumThreads = Threads;
  Expected<std::unique_ptr<pipeline::PackResult>> R =
      pipeline::packObject(**In, Opts, Log);
  if (!R)
    return R.takeError();
  if ((*R)->Model.functions().empty())
    return createFileError(
        Name, fail("no functions found (no DWARF with code and no function "
                   "symbols)"));
  Expected<OutputDirectories> Dirs =
      OutputDirectories::create(sys::path::parent_path(TablePath));
  if (!Dirs)
    return Dirs.takeError();
  if (Error E = writeOutputFile(TablePath, (*R)->Table))
    return E;
  Dirs->keep();
  return Error::success();
}

Error DebugFileTables::makeTable(ArrayRef<uint8_t> BuildId,
                                 StringRef TablePath) {
  std::vector<std::string> Looked;
  for (const std::string &Dir : Sources.Directories)
    for (const std::string &P : input::buildIdPaths(Dir, BuildId)) {
      if (!sys::fs::is_regular_file(P)) {
        Looked.push_back(P);
        continue;
      }
      auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
      if (!Buf)
        return createFileError(P, errorCodeToError(Buf.getError()));
      if (Error E =
              fileTableOf(std::move(*Buf), P, BuildId, TablePath, Threads))
        return E;
      if (Filed)
        Filed(TablePath, P);
      return Error::success();
    }
  std::string NotLocal = Looked.empty()
                             ? std::string()
                             : "no debug file in the debug directories (" +
                                   join(Looked, ", ") + ")";
  if (!Sources.Debuginfod)
    return fail(NotLocal.empty() ? "no debug directory and no debuginfod "
                                   "server to find a debug file in"
                                 : NotLocal);
  Expected<FetchedFile> F = Sources.Debuginfod->fetchDebugInfo(BuildId);
  if (!F)
    return fail((NotLocal.empty() ? "" : NotLocal + "; ") +
                toString(F.takeError()));
  std::string From = F->Bytes->getBufferIdentifier().str();
  FetchedFile Kept{nullptr, F->CachePath};
  if (Error E =
          fileTableOf(std::move(F->Bytes), From, BuildId, TablePath, Threads)) {
    DebuginfodClient::forget(Kept);
    return E;
  }
  if (Filed)
    Filed(TablePath, From);
  return Error::success();
}

} // namespace dwarfpack
