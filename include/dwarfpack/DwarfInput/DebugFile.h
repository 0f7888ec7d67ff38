//===- DebugFile.h - A stripped binary's separate debug file ----*- C++ -*-===//
//
// Distributions and most production builds ship binaries stripped of their
// DWARF, which goes into a separate debug file (objcopy --only-keep-debug)
// found by the binary's build-id (<dir>/.build-id/xx/rest.debug) or by the
// name and CRC in its .gnu_debuglink section, as GDB and llvm-symbolizer
// find it. A table of such a binary takes its identity (build-id, load
// segments) from the binary and its DWARF and symbols from the debug file
// (OpenOptions::DebugFile).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_DEBUGFILE_H
#define DWARFPACK_DWARFINPUT_DEBUGFILE_H

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace input {

/// The contents of a .gnu_debuglink section: the debug file's name and the
/// CRC-32 (zlib's) of its bytes.
struct DebugLink {
  std::string Name;
  uint32_t Crc = 0;
};

/// The .gnu_debuglink of O; nothing when it has none. An error when the
/// section is shorter than a name, its padding and the CRC.
llvm::Expected<std::optional<DebugLink>>
readDebugLink(const llvm::object::ObjectFile &O);

/// The CRC a .gnu_debuglink records for a file of these bytes.
uint32_t debugLinkCrc(llvm::StringRef Bytes);

/// The system's debug directory, searched after those given.
inline constexpr const char *SystemDebugDirectory = "/usr/lib/debug";

/// Where to look for debug files.
struct DebugFileSearch {
  /// Searched in order, then SystemDebugDirectory: by build-id in
  /// DIR/.build-id/xx/rest.debug and DIR/xx/rest.debug (DIR may be a
  /// .build-id tree itself), by .gnu_debuglink in DIR/<the binary's
  /// directory>/NAME.
  std::vector<std::string> Directories;
};

/// The build-id paths of BuildId under Dir, in the order they are tried.
std::vector<std::string> buildIdPaths(llvm::StringRef Dir,
                                      llvm::ArrayRef<uint8_t> BuildId);

/// The first of BuildId's build-id paths under Dirs (each directory's in
/// buildIdPaths' order) that is a regular file; the paths tried before it
/// are added to Looked.
std::optional<std::string> findBuildIdFile(llvm::ArrayRef<std::string> Dirs,
                                           llvm::ArrayRef<uint8_t> BuildId,
                                           std::vector<std::string> &Looked);

/// How a debug file was chosen.
enum class DebugFileVia { Given, BuildId, DebugLink, Fetched };

struct FoundDebugFile {
  std::string Path;
  DebugFileVia How = DebugFileVia::Given;
};

/// What a search found, and every path it looked at.
struct DebugFileSearchResult {
  std::optional<FoundDebugFile> Found;
  std::vector<std::string> Tried;
};

/// Looks for the separate debug file of Binary (opened from BinaryPath): by
/// its build-id, then by its .gnu_debuglink beside the binary, in its
/// .debug subdirectory and under each debug directory. A candidate of
/// another build-id, or whose CRC is not the one the link records, is
/// skipped and reported to Log (kind debug-file-skipped), as is a
/// .gnu_debuglink that cannot be read (bad-debuglink).
DebugFileSearchResult findDebugFile(const llvm::object::ObjectFile &Binary,
                                    llvm::StringRef BinaryPath,
                                    const DebugFileSearch &Search,
                                    WarningLog &Log);

/// An error naming DebugPath when the two files record different
/// build-ids (either without one is accepted).
llvm::Error checkSameBuild(const llvm::object::ObjectFile &Binary,
                           const llvm::object::ObjectFile &Debug,
                           llvm::StringRef DebugPath);

/// What to do about a debug file when opening an input for conversion.
struct DebugFileOptions {
  /// Read the DWARF from this file (no search).
  std::string DebugFile;
  /// Otherwise, for an input that has no DWARF and is not relocatable,
  /// look for its debug file here.
  bool Search = true;
  DebugFileSearch Where;
  /// When the search finds none: fetches the debug file of a build-id
  /// (from debuginfod servers) and returns where it is kept, or an error
  /// saying what the servers answered; empty: nothing is fetched.
  std::function<llvm::Expected<std::string>(llvm::ArrayRef<uint8_t>)> Fetch;
  /// The .dwp package of the split units, when not the input's path with
  /// .dwp added (OpenOptions::Package); empty: that one.
  std::string Package;
};

/// An input opened for conversion, with the debug file it uses.
struct InputWithDebugFile {
  std::unique_ptr<InputObject> Object;
  /// The debug file the DWARF is read from, if any.
  std::optional<FoundDebugFile> Debug;
  /// When a search found nothing: where it looked.
  std::vector<std::string> Tried;
  /// When a fetch (DebugFileOptions::Fetch) was tried in vain, or what it
  /// gave cannot be used: why (also a "debuginfod" warning in the log).
  std::string FetchProblem;
};

/// Opens Buffer (named Name, as InputObject::open) with its debug file as
/// Options say. Errors name the file: the input's, or the given debug file
/// that cannot be opened or is of another build.
llvm::Expected<InputWithDebugFile>
openWithDebugFile(llvm::MemoryBufferRef Buffer, const DebugFileOptions &Options,
                  WarningLog &Log, OpenOptions Open = {});
/// The same for a file, mapped.
llvm::Expected<InputWithDebugFile>
openWithDebugFile(llvm::StringRef Path, const DebugFileOptions &Options,
                  WarningLog &Log, OpenOptions Open = {});

/// "found by build-id", "found by .gnu_debuglink" or "given", for messages.
llvm::StringRef describe(DebugFileVia How);

/// Why no debug file was used, from the paths a search tried (none: the
/// input names no debug file), for the warning that answers come from
/// symbols alone; Hint (where the caller can add places to look) ends the
/// parenthesis.
std::string noDebugFileReason(llvm::ArrayRef<std::string> Tried,
                              llvm::StringRef Hint = "");

} // namespace input
} // namespace dwarfpack

#endif
