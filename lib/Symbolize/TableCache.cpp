//===- TableCache.cpp - Tables converted from binaries, kept by build-id --===//

#include "dwarfpack/Symbolize/TableCache.h"

#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/OutputFile.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <link.h>
#include <vector>

using namespace llvm;

namespace dwarfpack {

std::string defaultTableCacheDir() {
  if (std::optional<std::string> Dir =
          sys::Process::GetEnv("DWARFPACK_CACHE_DIR"))
    return *Dir;
  SmallString<128> Path;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty())
    Path = *Xdg;
  else if (sys::path::home_directory(Path))
    sys::path::append(Path, ".cache");
  else
    return "";
  sys::path::append(Path, "dwarfpack", "tables");
  return std::string(Path);
}

/// The build-id of the file whose code this is (the dwarfpack executable,
/// or the library that holds the C API), from its notes as loaded; empty
/// without one.
static ArrayRef<uint8_t> ownBuildId() {
  static const SmallVector<uint8_t, 20> Id = [] {
    struct Search {
      uintptr_t Code;
      SmallVector<uint8_t, 20> Found;
    } S{reinterpret_cast<uintptr_t>(&ownBuildId), {}};
    dl_iterate_phdr(
        [](dl_phdr_info *I, size_t, void *Data) {
          Search &S = *static_cast<Search *>(Data);
          auto Holds = [&](const ElfW(Phdr) & P) {
            uintptr_t Start = I->dlpi_addr + P.p_vaddr;
            return P.p_type == PT_LOAD && S.Code >= Start &&
                   S.Code - Start < P.p_memsz;
          };
          if (!std::any_of(I->dlpi_phdr, I->dlpi_phdr + I->dlpi_phnum, Holds))
            return 0;
          for (const ElfW(Phdr) & P :
               ArrayRef<ElfW(Phdr)>(I->dlpi_phdr, I->dlpi_phnum)) {
            if (P.p_type != PT_NOTE)
              continue;
            ArrayRef<uint8_t> Notes(
                reinterpret_cast<const uint8_t *>(I->dlpi_addr + P.p_vaddr),
                P.p_memsz);
            Expected<ArrayRef<uint8_t>> Id = gnuBuildIdFromNotes(Notes);
            if (!Id) {
              consumeError(Id.takeError());
              continue;
            }
            if (!Id->empty()) {
              S.Found.assign(Id->begin(), Id->end());
              break;
            }
          }
          return 1;
        },
        &S);
    return S.Found;
  }();
  return Id;
}

std::string TableCache::versionDirectory() {
  // A table converted by another build of the same version may lack what a
  // later converter records: each build has its own tables.
  ArrayRef<uint8_t> Id = ownBuildId();
  if (Id.empty())
    return DWARFPACK_VERSION;
  return std::string(DWARFPACK_VERSION) + "+" +
         toHex(Id.take_front(8), /*LowerCase=*/true);
}

std::string TableCache::tablePath(ArrayRef<uint8_t> Id) const {
  SmallString<128> Dir(Root);
  sys::path::append(Dir, versionDirectory());
  return TableStore::tablePath(Dir, Id, "dpat");
}

/// Sets Path's modification (and access) time to Now; false when it
/// cannot (a file of a read-only cache).
static bool setModified(StringRef Path, sys::TimePoint<> Now) {
  int FD;
  if (sys::fs::openFileForReadWrite(Path, FD, sys::fs::CD_OpenExisting,
                                    sys::fs::OF_None))
    return false;
  std::error_code EC = sys::fs::setLastAccessAndModificationTime(FD, Now);
  sys::Process::SafelyCloseFileDescriptor(FD);
  return !EC;
}

void TableCache::markUsed(StringRef Path) {
  setModified(Path, std::chrono::system_clock::now());
}

void TableCache::keep(StringRef Path, StringRef Table, WarningLog &Log) {
  if (Error E = writeOutputFileAndDirectories(Path, Table))
    Log.report("table-cache",
               "the converted table is not cached: " + toString(std::move(E)));
}

/// The number of seconds control file Path holds; Default when it holds
/// none (it is then written, when missing). False when a missing file
/// cannot be written.
static bool readControlFile(StringRef Path, uint64_t Default, uint64_t &Out) {
  Out = Default;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text) {
    if (Text.getError() != std::errc::no_such_file_or_directory)
      return false;
    if (Error E = writeOutputFile(Path, utostr(Default) + "\n")) {
      consumeError(std::move(E));
      return false;
    }
    return true;
  }
  uint64_t V;
  if (!StringRef((*Text)->getBuffer()).trim().getAsInteger(10, V))
    Out = V;
  return true;
}

bool TableCache::readPolicy(Policy &P) const {
  uint64_t Interval, Age;
  SmallString<128> IntervalFile(Root), AgeFile(Root);
  sys::path::append(IntervalFile, "cache_clean_interval_s");
  sys::path::append(AgeFile, "max_unused_age_s");
  if (!readControlFile(IntervalFile, DefaultCleanIntervalSeconds, Interval) ||
      !readControlFile(AgeFile, DefaultMaxUnusedAgeSeconds, Age))
    return false;
  // Beyond any file's age: never (and no overflow in time arithmetic).
  constexpr uint64_t Century = uint64_t(100) * 366 * 86400;
  P.CleanInterval = std::chrono::seconds(std::min(Interval, Century));
  P.MaxUnusedAge = std::chrono::seconds(std::min(Age, Century));
  return true;
}

unsigned TableCache::cleanIfDue(sys::TimePoint<> Now, StringRef Keep,
                                WarningLog &Log) const {
  if (Root.empty() || !sys::fs::is_directory(Root))
    return 0;
  Policy P;
  if (!readPolicy(P))
    return 0;
  SmallString<128> IntervalFile(Root);
  sys::path::append(IntervalFile, "cache_clean_interval_s");
  sys::fs::file_status St;
  if (sys::fs::status(IntervalFile, St))
    return 0;
  if (Now - St.getLastModificationTime() < P.CleanInterval)
    return 0;
  // The round is recorded first: a cache whose round cannot be recorded
  // is not cleaned at every use.
  if (!setModified(IntervalFile, Now))
    return 0;
  return clean(Now, P.MaxUnusedAge, Keep, Log);
}

/// A table, or what is left of one whose writing was cut short.
static bool isTableFile(StringRef Name) {
  return Name.ends_with(".dpat") || Name.contains(".dpat.temp-dwarfpack-");
}

/// A version's directory ("0.1.0", with its build's "+" and 16 hex digits
/// or without) and a build-id's first byte ("ab"): only the cache's own
/// layout is cleaned, whatever else the directory holds
/// (DWARFPACK_CACHE_DIR may name one a user keeps other files in).
static bool isVersionName(StringRef Name) {
  auto [Version, Build] = Name.split('+');
  if (Name.contains('+') && (Build.empty() || !llvm::all_of(Build, [](char C) {
                               return isDigit(C) || (C >= 'a' && C <= 'f');
                             })))
    return false;
  SmallVector<StringRef, 4> Parts;
  Version.split(Parts, '.');
  return llvm::all_of(Parts, [](StringRef P) {
    return !P.empty() && llvm::all_of(P, isDigit);
  });
}
static bool isBuildIdByteName(StringRef Name) {
  return Name.size() == 2 && llvm::all_of(Name, [](char C) {
           return isDigit(C) || (C >= 'a' && C <= 'f');
         });
}

/// The subdirectories of Dir whose names Pick accepts (symbolic links are
/// not followed: the cache makes none).
template <typename PickFn>
static std::vector<std::string> subdirectories(StringRef Dir, PickFn Pick) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC))
    if (It->type() == sys::fs::file_type::directory_file &&
        Pick(sys::path::filename(It->path())))
      Out.push_back(It->path());
  return Out;
}

unsigned TableCache::clean(sys::TimePoint<> Now,
                           std::chrono::seconds MaxUnusedAge, StringRef Keep,
                           WarningLog &Log) const {
  unsigned Removed = 0;
  auto IsOld = [&](StringRef Path, StringRef Name) {
    sys::fs::file_status St;
    return !sys::fs::status(Path, St, /*Follow=*/false) &&
           St.type() == sys::fs::file_type::regular_file &&
           Now - St.getLastModificationTime() >= MaxUnusedAge &&
           !(Name == sys::path::filename(Keep) &&
             sys::fs::equivalent(Path, Keep));
  };
  for (const std::string &Version : subdirectories(Root, isVersionName)) {
    for (const std::string &Byte : subdirectories(Version, isBuildIdByteName)) {
      std::error_code EC;
      for (sys::fs::directory_iterator It(Byte, EC, false), End;
           It != End && !EC; It.increment(EC)) {
        const std::string &Path = It->path();
        StringRef Name = sys::path::filename(Path);
        if (!isTableFile(Name) || !IsOld(Path, Name))
          continue;
        // Another process's round may have removed it first.
        std::error_code R = sys::fs::remove(Path, /*IgnoreNonExisting=*/false);
        if (!R)
          ++Removed;
        else if (R != std::errc::no_such_file_or_directory)
          Log.report("table-cache", "cannot remove the unused table '" + Path +
                                        "': " + R.message());
      }
      // A directory another round removed while this one read it is no
      // error.
      if (EC && EC != std::errc::no_such_file_or_directory)
        Log.report("table-cache",
                   "cannot clean the cache '" + Byte + "': " + EC.message());
      (void)sys::fs::remove(Byte); // when left empty
    }
    (void)sys::fs::remove(Version); // when left empty
  }
  return Removed;
}

} // namespace dwarfpack
