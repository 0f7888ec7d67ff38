//===- ProcMaps.h - A process's memory map, as /proc/PID/maps shows it ---===//
//
// A profiler that samples absolute addresses of a process (perf script
// without a callchain, a crash handler's backtrace) needs to know which
// file each address is mapped from, and at which offset in that file, to
// answer it from the file's table (TableStore, --file-offsets). A saved
// copy of /proc/PID/maps says so:
//
//   55d0c8a00000-55d0c8a21000 r-xp 00001000 08:01 1234567   /usr/bin/cat
//
// (start-end, permissions, offset in the file of start, device, inode and
// the path, which may hold blanks, end in " (deleted)", or name a
// pseudo-mapping such as [heap] or [vdso]; anonymous mappings have none).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_PROCMAPS_H
#define DWARFPACK_SYMBOLIZE_PROCMAPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// One line of a maps file: [Start, End) maps the file Path from Offset.
struct MappedRange {
  uint64_t Start = 0, End = 0;
  uint64_t Offset = 0;
  /// "r-xp" and the like.
  std::string Perms;
  /// As the kernel prints it, without " (deleted)"; empty when anonymous.
  std::string Path;
  /// The file was deleted (or replaced) after it was mapped.
  bool Deleted = false;

  /// A file's bytes, not anonymous memory or a pseudo-mapping ([heap]).
  bool isFile() const { return !Path.empty() && Path.front() == '/'; }
};

/// Where an address of the process lies in a mapped file.
struct FileLocation {
  llvm::StringRef Path;
  uint64_t Offset = 0;
};

class ProcMaps {
public:
  /// Parses the text of a maps file. Errors name FileName and the line:
  /// a line that is not `start-end perms offset dev inode [path]` in hex
  /// (decimal inode), a range that is empty, and ranges that overlap.
  static llvm::Expected<ProcMaps> parse(llvm::StringRef Text,
                                        llvm::StringRef FileName);

  /// The range that holds Address; null when none does.
  const MappedRange *find(uint64_t Address) const;
  /// The file and file offset of Address; none for an address outside
  /// every range or in one that maps no file.
  std::optional<FileLocation> fileLocation(uint64_t Address) const;

  llvm::ArrayRef<MappedRange> ranges() const { return Ranges; }

private:
  /// Sorted by Start, disjoint.
  std::vector<MappedRange> Ranges;
};

} // namespace dwarfpack

#endif
