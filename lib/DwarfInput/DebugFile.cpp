//===- DebugFile.cpp - A stripped binary's separate debug file ------------===//

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/Support/BuildId.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {
namespace input {

namespace {

Error debugFileError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string hexId(ArrayRef<uint8_t> Id) {
  return toHex(Id, /*LowerCase=*/true);
}

/// A candidate file mapped and opened as an object, to read its build-id;
/// an error says why it is not one.
struct Candidate {
  std::unique_ptr<MemoryBuffer> Bytes;
  std::unique_ptr<ObjectFile> Obj;
};

Expected<Candidate> openCandidate(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return errorCodeToError(Buf.getError());
  Candidate C;
  C.Bytes = std::move(*Buf);
  file_magic Magic = identify_magic(C.Bytes->getBuffer());
  if (Magic != file_magic::elf_executable &&
      Magic != file_magic::elf_shared_object && Magic != file_magic::elf)
    return debugFileError("not an ELF executable or shared library");
  Expected<std::unique_ptr<ObjectFile>> O =
      ObjectFile::createObjectFile(C.Bytes->getMemBufferRef());
  if (!O)
    return O.takeError();
  C.Obj = std::move(*O);
  return std::move(C);
}

bool isRegularFile(StringRef Path) {
  sys::fs::file_status St;
  return !sys::fs::status(Path, St) && sys::fs::is_regular_file(St);
}

/// The sections of a .gnu_debuglink: the name, NUL, padding to 4 bytes,
/// the CRC in the file's byte order.
template <typename ELFT>
Expected<std::optional<DebugLink>> readLink(const ELFObjectFile<ELFT> &Obj) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != ".gnu_debuglink")
      continue;
    Expected<StringRef> Data = S.getContents();
    if (!Data)
      return Data.takeError();
    size_t Nul = Data->find('\0');
    if (Nul == StringRef::npos || Nul == 0)
      return debugFileError(".gnu_debuglink has no file name");
    size_t CrcAt = alignTo(Nul + 1, 4);
    if (CrcAt + 4 > Data->size())
      return debugFileError(".gnu_debuglink of " + Twine(Data->size()) +
                            " bytes ends before its CRC");
    DebugLink L;
    L.Name = Data->take_front(Nul).str();
    L.Crc = support::endian::read32<ELFT::Endianness>(Data->data() + CrcAt);
    return L;
  }
  return std::nullopt;
}

/// The directories of a search: those given, then the system's.
std::vector<std::string> searchDirectories(const DebugFileSearch &S) {
  std::vector<std::string> Dirs = S.Directories;
  if (!is_contained(Dirs, SystemDebugDirectory))
    Dirs.push_back(SystemDebugDirectory);
  return Dirs;
}

/// One search: each candidate looked at once and checked.
class Searcher {
public:
  Searcher(const ObjectFile &Binary, StringRef BinaryPath,
           DebugFileSearchResult &R, WarningLog &Log)
      : Binary(Binary), BinaryPath(BinaryPath), R(R), Log(Log) {}

  bool tryBuildId(StringRef Path) {
    if (!look(Path))
      return false;
    Expected<Candidate> C = openCandidate(Path);
    if (!C)
      return skip(Path, toString(C.takeError()));
    ArrayRef<uint8_t> Want = gnuBuildId(Binary), Have = gnuBuildId(*C->Obj);
    if (Have != Want)
      return skip(Path, "its build-id is " +
                            (Have.empty() ? "missing" : hexId(Have)) +
                            ", not the binary's " + hexId(Want));
    R.Found = FoundDebugFile{Path.str(), DebugFileVia::BuildId};
    return true;
  }

  bool tryDebugLink(StringRef Path, const DebugLink &Link) {
    if (!look(Path) || sys::fs::equivalent(Path, BinaryPath))
      return false;
    Expected<Candidate> C = openCandidate(Path);
    if (!C)
      return skip(Path, toString(C.takeError()));
    uint32_t Crc = debugLinkCrc(C->Bytes->getBuffer());
    if (Crc != Link.Crc)
      return skip(Path, "its CRC is " + utohexstr(Crc, true) +
                            ", the binary's .gnu_debuglink says " +
                            utohexstr(Link.Crc, true));
    if (Error E = checkSameBuild(Binary, *C->Obj, Path))
      return skip(Path, toString(std::move(E)));
    R.Found = FoundDebugFile{Path.str(), DebugFileVia::DebugLink};
    return true;
  }

private:
  /// Records Path as looked at; whether it is a file to check.
  bool look(StringRef Path) {
    R.Tried.push_back(Path.str());
    return isRegularFile(Path);
  }
  bool skip(StringRef Path, const Twine &Why) {
    Log.report("debug-file-skipped", "'" + Path + "' skipped: " + Why);
    return false;
  }

  const ObjectFile &Binary;
  StringRef BinaryPath;
  DebugFileSearchResult &R;
  WarningLog &Log;
};

} // namespace

Expected<std::optional<DebugLink>> readDebugLink(const ObjectFile &O) {
  if (const auto *E = dyn_cast<ELF32LEObjectFile>(&O))
    return readLink(*E);
  if (const auto *E = dyn_cast<ELF32BEObjectFile>(&O))
    return readLink(*E);
  if (const auto *E = dyn_cast<ELF64LEObjectFile>(&O))
    return readLink(*E);
  if (const auto *E = dyn_cast<ELF64BEObjectFile>(&O))
    return readLink(*E);
  return std::nullopt;
}

uint32_t debugLinkCrc(StringRef Bytes) {
  return crc32(arrayRefFromStringRef(Bytes));
}

std::vector<std::string> buildIdPaths(StringRef Dir, ArrayRef<uint8_t> Id) {
  std::vector<std::string> Out;
  if (Id.size() < 2)
    return Out;
  std::string Hex = hexId(Id);
  std::string Rest = Hex.substr(2) + ".debug";
  for (StringRef Tree : {".build-id", ""}) {
    SmallString<256> P(Dir);
    sys::path::append(P, Tree, StringRef(Hex).take_front(2), Rest);
    Out.push_back(std::string(P));
  }
  return Out;
}

std::optional<std::string> findBuildIdFile(ArrayRef<std::string> Dirs,
                                           ArrayRef<uint8_t> Id,
                                           std::vector<std::string> &Looked) {
  for (const std::string &Dir : Dirs)
    for (std::string &P : buildIdPaths(Dir, Id)) {
      if (sys::fs::is_regular_file(P))
        return std::move(P);
      Looked.push_back(std::move(P));
    }
  return std::nullopt;
}

DebugFileSearchResult findDebugFile(const ObjectFile &Binary,
                                    StringRef BinaryPath,
                                    const DebugFileSearch &Search,
                                    WarningLog &Log) {
  DebugFileSearchResult R;
  Searcher S(Binary, BinaryPath, R, Log);
  std::vector<std::string> Dirs = searchDirectories(Search);
  for (const std::string &Dir : Dirs)
    for (const std::string &P : buildIdPaths(Dir, gnuBuildId(Binary)))
      if (S.tryBuildId(P))
        return R;

  Expected<std::optional<DebugLink>> Link = readDebugLink(Binary);
  if (!Link) {
    Log.report("bad-debuglink",
               "'" + BinaryPath + "': " + toString(Link.takeError()));
    return R;
  }
  // A binary read from standard input has no directory to look beside.
  if (!*Link || BinaryPath == "-")
    return R;
  SmallString<256> BinaryDir(BinaryPath);
  if (sys::fs::make_absolute(BinaryDir)) // keeps the path as it was
    return R;
  sys::path::remove_filename(BinaryDir);
  sys::path::remove_dots(BinaryDir, /*remove_dot_dot=*/true);
  std::vector<std::string> Paths;
  auto Add = [&](ArrayRef<StringRef> Parts) {
    SmallString<256> P;
    for (StringRef Part : Parts)
      sys::path::append(P, Part);
    Paths.push_back(std::string(P));
  };
  // Where GDB looks: beside the binary, in .debug beside it, and under each
  // debug directory at the binary's own directory.
  Add({BinaryDir, (*Link)->Name});
  Add({BinaryDir, ".debug", (*Link)->Name});
  for (const std::string &Dir : Dirs)
    Add({Dir, BinaryDir, (*Link)->Name});
  for (const std::string &P : Paths)
    if (S.tryDebugLink(P, **Link))
      return R;
  return R;
}

Error checkSameBuild(const ObjectFile &Binary, const ObjectFile &Debug,
                     StringRef DebugPath) {
  ArrayRef<uint8_t> Want = gnuBuildId(Binary), Have = gnuBuildId(Debug);
  if (Want.empty() || Have.empty() || Want == Have)
    return Error::success();
  return createFileError(
      DebugPath,
      debugFileError("a debug file of another build (build-id " + hexId(Have) +
                     "; the input's is " + hexId(Want) + ")"));
}

std::string noDebugFileReason(ArrayRef<std::string> Tried, StringRef Hint) {
  if (Tried.empty())
    return "no build-id or .gnu_debuglink to find a separate debug file by";
  return "no separate debug file found (" + std::to_string(Tried.size()) +
         " paths tried, the first '" + Tried.front() + "'" +
         (Hint.empty() ? "" : "; " + Hint.str()) + ")";
}

StringRef describe(DebugFileVia How) {
  switch (How) {
  case DebugFileVia::Given:
    return "given";
  case DebugFileVia::BuildId:
    return "found by build-id";
  case DebugFileVia::DebugLink:
    return "found by .gnu_debuglink";
  case DebugFileVia::Fetched:
    return "fetched by build-id";
  }
  return "";
}

namespace {

using Opener =
    function_ref<Expected<std::unique_ptr<InputObject>>(const OpenOptions &)>;

/// R, an input without DWARF whose debug file no search found: opened
/// again with the one Options.Fetch gives for its build-id. A fetch in
/// vain, or a file that does not open with the input (another build's),
/// leaves R as it is, with the reason in R.FetchProblem.
void fetchDebugFile(Opener Open, const DebugFileOptions &Options,
                    WarningLog &Log, OpenOptions Opts, InputWithDebugFile &R) {
  ArrayRef<uint8_t> Id = gnuBuildId(R.Object->object());
  if (Id.empty())
    return;
  Expected<std::string> Path = Options.Fetch(Id);
  if (Path) {
    Opts.DebugFile = *Path;
    Expected<std::unique_ptr<InputObject>> O = Open(Opts);
    if (O) {
      R.Object = std::move(*O);
      R.Debug = FoundDebugFile{*Path, DebugFileVia::Fetched};
      return;
    }
    R.FetchProblem =
        "the fetched debug file is not used: " + toString(O.takeError());
  } else {
    R.FetchProblem = toString(Path.takeError());
  }
  Log.report("debuginfod", R.FetchProblem);
}

Expected<InputWithDebugFile> openPair(Opener Open, StringRef Name,
                                      const DebugFileOptions &Options,
                                      WarningLog &Log, OpenOptions Opts) {
  InputWithDebugFile R;
  if (!Options.Package.empty()) {
    // Given, it is meant: not found, every split unit would be missing.
    if (!sys::fs::exists(Options.Package))
      return createFileError(
          Options.Package,
          createStringError(std::errc::no_such_file_or_directory,
                            "the .dwp package given does not exist"));
    Opts.Package = Options.Package;
  }
  if (!Options.DebugFile.empty()) {
    Opts.DebugFile = Options.DebugFile;
    R.Debug = FoundDebugFile{Options.DebugFile, DebugFileVia::Given};
  }
  Expected<std::unique_ptr<InputObject>> O = Open(Opts);
  if (!O)
    return O.takeError();
  R.Object = std::move(*O);
  if (R.Debug || !Options.Search || R.Object->isRelocatable() ||
      R.Object->hasDebugInfo())
    return std::move(R);
  DebugFileSearchResult Found =
      findDebugFile(R.Object->object(), Name, Options.Where, Log);
  if (!Found.Found) {
    R.Tried = std::move(Found.Tried);
    if (Options.Fetch)
      fetchDebugFile(Open, Options, Log, Opts, R);
    return std::move(R);
  }
  // Opened again with the debug file: the binary alone is cheap to read
  // (it has no DWARF).
  Opts.DebugFile = Found.Found->Path;
  R.Object.reset();
  O = Open(Opts);
  if (!O)
    return O.takeError();
  R.Object = std::move(*O);
  R.Debug = std::move(Found.Found);
  return std::move(R);
}

} // namespace

Expected<InputWithDebugFile> openWithDebugFile(MemoryBufferRef Buffer,
                                               const DebugFileOptions &Options,
                                               WarningLog &Log,
                                               OpenOptions Open) {
  return openPair(
      [&](const OpenOptions &O) { return InputObject::open(Buffer, Log, O); },
      Buffer.getBufferIdentifier(), Options, Log, std::move(Open));
}

Expected<InputWithDebugFile> openWithDebugFile(StringRef Path,
                                               const DebugFileOptions &Options,
                                               WarningLog &Log,
                                               OpenOptions Open) {
  return openPair(
      [&](const OpenOptions &O) { return InputObject::open(Path, Log, O); },
      Path, Options, Log, std::move(Open));
}

} // namespace input
} // namespace dwarfpack
