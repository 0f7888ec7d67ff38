//===- Debuginfod.h - Debug files by build-id -------------------*- C++ -*-===//
//
// A profiler's samples name modules by build-id; a store (TableStore.h)
// may not have their tables yet. These are the places a build-id's debug
// file comes from then: local .build-id trees (/usr/lib/debug and the
// like) and debuginfod servers, through elfutils' client library
// (libdebuginfod, which reads its servers from DEBUGINFOD_URLS and keeps
// what it fetches in its own cache). DebugFileTables turns the debug file
// into a table filed in the store, once per build-id.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_DEBUGINFOD_H
#define DWARFPACK_SYMBOLIZE_DEBUGINFOD_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dwarfpack {

/// Whether this build has the debuginfod client (libdebuginfod was found
/// when it was configured).
bool debuginfodAvailable();

/// A file fetched from a debuginfod server: its bytes and where the
/// client's cache keeps it.
struct FetchedFile {
  std::unique_ptr<llvm::MemoryBuffer> Bytes;
  std::string CachePath;
};

/// A client of the debuginfod servers that DEBUGINFOD_URLS names.
class DebuginfodClient {
public:
  /// An error when this build has no client, or DEBUGINFOD_URLS names no
  /// server. elfutils' client library is loaded by the first fetch.
  static llvm::Expected<std::unique_ptr<DebuginfodClient>> create();
  ~DebuginfodClient();

  /// The debug file of BuildId (a server's /buildid/<hex>/debuginfo).
  /// Errors say what the servers answered, in the client's words.
  llvm::Expected<FetchedFile> fetchDebugInfo(llvm::ArrayRef<uint8_t> BuildId);

  /// Removes a fetched file from the client's cache, so that a later run
  /// fetches it again (when what a server sent is not the debug file).
  static void forget(const FetchedFile &F);

private:
  struct Impl;
  explicit DebuginfodClient(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> I;
};

/// A fetcher of debug files for binaries opened for lookups
/// (ObjectOpenOptions::FetchDebugFile) from the servers of DEBUGINFOD_URLS,
/// by Client, or by a client made at its first fetch (the client library
/// itself is loaded by the first fetch either way): it returns where the
/// client's cache keeps the file. A file that is not the build-id's (junk,
/// another build's) is an error, and removed from that cache.
std::function<llvm::Expected<std::string>(llvm::ArrayRef<uint8_t>)>
debuginfodFetcher(std::unique_ptr<DebuginfodClient> Client = nullptr);

/// Where DebugFileTables looks for a build-id's debug file, in order.
struct DebugFileSources {
  /// Directories holding .build-id trees: DIR/.build-id/xx/rest.debug or
  /// DIR/xx/rest.debug.
  std::vector<std::string> Directories;
  /// Then debuginfod servers (DEBUGINFOD_URLS), when set.
  std::unique_ptr<DebuginfodClient> Debuginfod;
};

/// Makes the tables of a store's missing build-ids from their debug files
/// (TableStore::setFiller). Not safe to use from several threads.
class DebugFileTables {
public:
  /// Told of each table filed: its path, and the debug file it came from
  /// (a path, or a debuginfod URL).
  using FiledFn =
      std::function<void(llvm::StringRef TablePath, llvm::StringRef From)>;

  DebugFileTables(DebugFileSources Sources, FiledFn Filed = nullptr,
                  unsigned Threads = 1)
      : Sources(std::move(Sources)), Filed(std::move(Filed)), Threads(Threads) {
  }

  /// Finds the debug file of BuildId, converts it into a compact table and
  /// writes it to TablePath (whole or not at all). An error says where it
  /// looked, or what was wrong with the file it found or fetched.
  llvm::Error makeTable(llvm::ArrayRef<uint8_t> BuildId,
                        llvm::StringRef TablePath);

private:
  DebugFileSources Sources;
  FiledFn Filed;
  unsigned Threads;
};

/// Converts the debug file in Bytes (named Name in messages) into a compact
/// table at TablePath, after checking that it is BuildId's. Nothing is
/// written when it fails.
llvm::Error fileTableOf(std::unique_ptr<llvm::MemoryBuffer> Bytes,
                        llvm::StringRef Name, llvm::ArrayRef<uint8_t> BuildId,
                        llvm::StringRef TablePath, unsigned Threads);

} // namespace dwarfpack

#endif
