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
#include "dwarfpack/Support/RuntimeLibrary.h"

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
namespace {
/// elfutils' client library, loaded by the first client (as elfutils' own
/// libdwfl loads it). Linked in, it and the thirty libraries it needs
/// (libcurl, GnuTLS, Kerberos, ...) were loaded by every dwarfpack process:
/// 16 ms of each start on a 2-core VM, three quarters of `dwarfpack
/// --version`, paid by every addr2line-style call that fetches nothing.
struct DebuginfodLibrary {
  decltype(&debuginfod_begin) Begin = nullptr;
  decltype(&debuginfod_end) End = nullptr;
  decltype(&debuginfod_find_debuginfo) FindDebuginfo = nullptr;
  decltype(&debuginfod_get_url) GetUrl = nullptr;
  /// Why the library cannot be used, if it cannot.
  std::string Problem;
};

/// The soname elfutils gives the library (and libdwfl opens).
constexpr const char *DebuginfodSoname = "libdebuginfod.so.1";

const DebuginfodLibrary &debuginfodLibrary() {
  static const DebuginfodLibrary Lib = [] {
    DebuginfodLibrary L;
    RuntimeLibrary R(DebuginfodSoname);
    // Binding stops at the first symbol missing, which problem() names.
    R.bind("debuginfod_begin", L.Begin) && R.bind("debuginfod_end", L.End) &&
        R.bind("debuginfod_find_debuginfo", L.FindDebuginfo) &&
        R.bind("debuginfod_get_url", L.GetUrl);
    L.Problem = R.problem();
    return L;
  }();
  return Lib;
}
} // namespace

struct DebuginfodClient::Impl {
  debuginfod_client *C = nullptr;
  ~Impl() {
    if (C)
      debuginfodLibrary().End(C);
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
  // The library is loaded by the first fetch: a run whose build-ids all
  // have tables never loads it.
  return std::unique_ptr<DebuginfodClient>(
      new DebuginfodClient(std::make_unique<Impl>()));
#else
  return fail("this dwarfpack was built without libdebuginfod (elfutils' "
              "debuginfod client)");
#endif
}

Expected<FetchedFile>
DebuginfodClient::fetchDebugInfo(ArrayRef<uint8_t> BuildId) {
#ifdef DWARFPACK_HAVE_DEBUGINFOD
  const DebuginfodLibrary &Lib = debuginfodLibrary();
  if (!Lib.Problem.empty())
    return fail("the debuginfod client library could not be loaded: " +
                Lib.Problem);
  if (!I->C && !(I->C = Lib.Begin()))
    return fail("the debuginfod client could not be started");
  char *Path = nullptr;
  int Fd = Lib.FindDebuginfo(I->C, BuildId.data(), BuildId.size(), &Path);
  // The server that answered; when none did, the list asked.
  const char *Url = Lib.GetUrl(I->C);
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

/// What is wrong with a file of build-id Have that should be Want's.
static std::string otherBuild(ArrayRef<uint8_t> Have, ArrayRef<uint8_t> Want) {
  return "its build-id is " +
         (Have.empty() ? std::string("missing")
                       : toHex(Have, /*LowerCase=*/true)) +
         ", not " + toHex(Want, /*LowerCase=*/true);
}

std::function<Expected<std::string>(ArrayRef<uint8_t>)>
debuginfodFetcher(std::unique_ptr<DebuginfodClient> Made) {
  auto Client =
      std::make_shared<std::unique_ptr<DebuginfodClient>>(std::move(Made));
  return [Client](ArrayRef<uint8_t> BuildId) -> Expected<std::string> {
    if (!*Client) {
      Expected<std::unique_ptr<DebuginfodClient>> C =
          DebuginfodClient::create();
      if (!C)
        return C.takeError();
      *Client = std::move(*C);
    }
    Expected<FetchedFile> F = (*Client)->fetchDebugInfo(BuildId);
    if (!F)
      return F.takeError();
    // A server may hand over junk or another build's file: the client's
    // cache must not keep it for the next run.
    std::string From = F->Bytes->getBufferIdentifier().str();
    Expected<SmallVector<uint8_t, 20>> Have =
        readBuildId(F->Bytes->getMemBufferRef());
    if (!Have || ArrayRef<uint8_t>(*Have) != BuildId) {
      std::string Why =
          Have ? otherBuild(*Have, BuildId) : toString(Have.takeError());
      DebuginfodClient::forget(*F);
      return createFileError(From, fail(Why));
    }
    if (F->CachePath.empty())
      return fail(From + ": the debuginfod client kept no file");
    return F->CachePath;
  };
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
    return createFileError(Name, fail(otherBuild(Have, BuildId)));
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
  return writeOutputFileAndDirectories(TablePath, (*R)->Table);
}

Error DebugFileTables::makeTable(ArrayRef<uint8_t> BuildId,
                                 StringRef TablePath) {
  std::vector<std::string> Looked;
  if (std::optional<std::string> P =
          input::findBuildIdFile(Sources.Directories, BuildId, Looked)) {
    auto Buf = MemoryBuffer::getFile(*P, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buf)
      return createFileError(*P, errorCodeToError(Buf.getError()));
    if (Error E = fileTableOf(std::move(*Buf), *P, BuildId, TablePath, Threads))
      return E;
    if (Filed)
      Filed(TablePath, *P);
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
