//===- OutputFile.cpp - Writing output files whole or not at all ----------===//
//
// Every command writes its files through here, so an output is either whole
// or absent, and what the user named is written, not replaced: a device or
// a FIFO is written in place, a symbolic link keeps pointing at its file.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

/// Path "-" is standard output.
static Error fileError(StringRef Path, const Twine &Message) {
  return createStringError(
      inconvertibleErrorCode(),
      "cannot write " +
          (Path == "-" ? Twine("standard output") : "'" + Path + "'") + ": " +
          Message);
}

static Error fileError(StringRef Path, std::error_code EC) {
  return fileError(Path, EC.message());
}

Error finishOutputStream(raw_fd_ostream &OS, StringRef Path) {
  OS.flush();
  if (!OS.has_error())
    return Error::success();
  std::error_code EC = OS.error();
  OS.clear_error();
  return fileError(Path, EC);
}

/// Runs Write on OS, naming Path in what it reports.
static Error runWriter(raw_fd_ostream &OS, StringRef Path,
                       function_ref<Error(raw_ostream &)> Write) {
  Error E = Write(OS);
  Error F = finishOutputStream(OS, Path);
  if (E) {
    consumeError(std::move(F));
    return fileError(Path, toString(std::move(E)));
  }
  return F;
}

Expected<StagedOutput>
StagedOutput::create(StringRef Path, function_ref<Error(raw_ostream &)> Write,
                     std::optional<sys::fs::perms> Mode) {
  auto InPlace = [&](Error E) -> Expected<StagedOutput> {
    if (E)
      return std::move(E);
    return StagedOutput(Path.str(), "", "");
  };
  if (Path.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the output file name is empty");
  if (Path == "-")
    return InPlace(runWriter(outs(), Path, Write));

  // What the name leads to, through symbolic links.
  sys::fs::file_status St;
  std::error_code EC = sys::fs::status(Path, St, /*Follow=*/true);
  bool Exists = !EC;
  if (EC && EC != errc::no_such_file_or_directory)
    return fileError(Path, EC);
  if (!Exists && sys::fs::is_symlink_file(Path))
    return fileError(Path, "a symbolic link to a file that does not exist");
  if (Exists && St.type() == sys::fs::file_type::directory_file)
    return fileError(Path, "is a directory");

  if (Exists && St.type() != sys::fs::file_type::regular_file) {
    // A device (/dev/null), a FIFO, a terminal: written as the shell's
    // redirection would, never unlinked.
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (EC)
      return fileError(Path, EC);
    return InPlace(runWriter(OS, Path, Write));
  }

  // A regular file or a new one: a temporary file beside the real file,
  // renamed over it once every byte is written.
  SmallString<256> Final(Path);
  if (Exists) {
    if (std::error_code R = sys::fs::real_path(Path, Final))
      return fileError(Path, R);
    if (!Mode)
      Mode = St.permissions(); // a table replacing a file keeps its mode
  }
  int FD;
  SmallString<256> Temp;
  if (std::error_code TE = sys::fs::createUniqueFile(
          Final + ".temp-dwarfpack-%%%%%%", FD, Temp, sys::fs::OF_None,
          sys::fs::all_read | sys::fs::all_write)) {
    // An existing file that cannot be replaced (in /proc, say): the file
    // is there, the temporary one is what failed.
    if (Exists)
      return fileError(Path, "cannot create a temporary file beside it (" +
                                 TE.message() + ")");
    return fileError(Path, TE);
  }
  sys::RemoveFileOnSignal(Temp);
  StagedOutput Out(Path.str(), std::string(Final), std::string(Temp));
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  // createUniqueFile's mode is filtered by the umask, as open(2) does; an
  // explicit mode (the input's, for a copy of it) is set as it is.
  if (Mode)
    if (std::error_code P = sys::fs::setPermissions(FD, *Mode))
      return fileError(Path, P); // Out's destructor removes the temporary
  if (Error E = runWriter(OS, Path, Write))
    return std::move(E);
  OS.close();
  if (Error E = finishOutputStream(OS, Path)) // close(2) can report it
    return std::move(E);
  return std::move(Out);
}

Expected<StagedOutput> StagedOutput::create(StringRef Path, StringRef Bytes) {
  return create(Path, [&](raw_ostream &OS) {
    OS << Bytes;
    return Error::success();
  });
}

StagedOutput &StagedOutput::operator=(StagedOutput &&Other) {
  discard();
  Path = std::move(Other.Path);
  Final = std::move(Other.Final);
  Temp = std::move(Other.Temp);
  Other.Temp.clear();
  return *this;
}

StagedOutput::~StagedOutput() { discard(); }

void StagedOutput::discard() {
  if (Temp.empty())
    return;
  sys::fs::remove(Temp);
  sys::DontRemoveFileOnSignal(Temp);
  Temp.clear();
}

Error StagedOutput::commit() {
  if (Temp.empty())
    return Error::success();
  if (std::error_code EC = sys::fs::rename(Temp, Final)) {
    discard();
    return fileError(Path, EC);
  }
  sys::DontRemoveFileOnSignal(Temp);
  Temp.clear();
  return Error::success();
}

Error writeOutputFile(StringRef Path, function_ref<Error(raw_ostream &)> Write,
                      std::optional<sys::fs::perms> Mode) {
  Expected<StagedOutput> Out = StagedOutput::create(Path, Write, Mode);
  if (!Out)
    return Out.takeError();
  return Out->commit();
}

Error writeOutputFile(StringRef Path, StringRef Bytes) {
  return writeOutputFile(Path, [&](raw_ostream &OS) {
    OS << Bytes;
    return Error::success();
  });
}

Error checkOutputIsNotInput(StringRef Output, ArrayRef<std::string> Inputs) {
  if (Output == "-")
    return Error::success();
  for (const std::string &In : Inputs) {
    bool Same = false;
    if (In != "-" && !sys::fs::equivalent(In, Output, Same) && Same)
      return createStringError(inconvertibleErrorCode(),
                               "'" + Output +
                                   "' is an input: writing it would replace "
                                   "the input");
  }
  return Error::success();
}

Error createOutputDirectories(StringRef Dir) {
  if (Dir.empty())
    return Error::success();
  // Readable by all as the umask allows, as `mkdir -p` makes them: a
  // symbolizer service reading a build's tables is often another user.
  if (std::error_code EC = sys::fs::create_directories(
          Dir, /*IgnoreExisting=*/true, sys::fs::all_all))
    return createFileError(Dir, EC);
  return Error::success();
}

Expected<OutputDirectories> OutputDirectories::create(StringRef Dir) {
  OutputDirectories D;
  // The missing ancestors, deepest first, then in creation order.
  for (StringRef P = Dir; !P.empty() && !sys::fs::exists(P);
       P = sys::path::parent_path(P))
    D.Created.push_back(std::string(P));
  std::reverse(D.Created.begin(), D.Created.end());
  if (Error E = createOutputDirectories(Dir))
    return std::move(E);
  return std::move(D);
}

Error writeOutputFileAndDirectories(StringRef Path, StringRef Bytes) {
  Expected<OutputDirectories> Dirs =
      OutputDirectories::create(sys::path::parent_path(Path));
  if (!Dirs)
    return Dirs.takeError();
  if (Error E = writeOutputFile(Path, Bytes))
    return E;
  Dirs->keep();
  return Error::success();
}

OutputDirectories::~OutputDirectories() {
  // remove() refuses a directory that is not empty, which then stays.
  for (auto I = Created.rbegin(), E = Created.rend(); I != E; ++I)
    if (sys::fs::remove(*I))
      break;
}

} // namespace dwarfpack
