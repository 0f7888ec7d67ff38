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
// A perf text can say the same of every process perf saw: PerfMaps.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_PROCMAPS_H
#define DWARFPACK_SYMBOLIZE_PROCMAPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
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

  /// The ranges in address order (a copy).
  std::vector<MappedRange> ranges() const;

  /// Maps R as mmap() does: what R overlaps of earlier ranges is no longer
  /// theirs (a range cut in two keeps both ends). R must not be empty.
  /// Logarithmic in the number of ranges (plus those R replaces): a perf
  /// text may map and unmap a JIT's code a million times.
  void add(MappedRange R);

private:
  /// By Start, disjoint.
  std::map<uint64_t, MappedRange> Ranges;
};

/// The mappings of the processes of a `perf script --show-mmap-events`
/// text, learnt as the text is read: its PERF_RECORD_MMAP and
/// PERF_RECORD_MMAP2 lines
///
///   prog 4242 100.000000: PERF_RECORD_MMAP2 4242/4242: [0x555555555000(0x1000)
///     @ 0x1000 fe:00 4242 0]: r-xp /usr/bin/prog
///
/// (one line; PID/TID, [start(length) @ file offset, then device, inode
/// and generation or a build-id], protection and path) map a file into a
/// process, and a sample's line (`COMM PID[/TID] [CPU] TIME:`) says which
/// process the addresses after it belong to: what a saved /proc/PID/maps
/// says of one process, for every process perf saw. With
/// --show-task-events too, `PERF_RECORD_FORK(PID:TID):(PPID:PTID)` says
/// which process a thread is of (perf's sample lines give the thread's
/// id) and gives a forked process its parent's maps, and
/// `PERF_RECORD_COMM exec: NAME:PID/TID` empties the maps of a process
/// that runs another program.
class PerfMaps {
public:
  /// Reads one line of the text. An event (mmap, fork, comm, exit) is
  /// learnt from (true: the line was one, and holds no frame); a sample's
  /// line makes its process the current one.
  bool observe(llvm::StringRef Line);
  /// The file and file offset of Address in the current process; else,
  /// when the current process is not known to map anything (a thread perf
  /// names by its own id, without the task events) and perf saw at most
  /// MaxProcessesToAgree processes map files, in the process that maps
  /// it, when all of those that map it agree on the file and offset. None
  /// when nothing maps Address.
  std::optional<FileLocation> fileLocation(uint64_t Address) const;
  static constexpr size_t MaxProcessesToAgree = 64;

private:
  std::map<uint64_t, ProcMaps> Processes; ///< By process id.
  /// The process of each thread the task events or mmap events named.
  std::map<uint64_t, uint64_t> ProcessOf;
  std::optional<uint64_t> Current;
  /// Learns from a task event (fork, comm, exit), given the text after
  /// its " PERF_RECORD_"; false for another record.
  bool observeTask(llvm::StringRef Record);
};

/// The mapping of a perf mmap event line (PERF_RECORD_MMAP or MMAP2) and
/// its process id (-1: the kernel's); none for any other line.
std::optional<std::pair<int64_t, MappedRange>>
parsePerfMmapEvent(llvm::StringRef Line);

/// The process id a perf sample's line starts with (`COMM PID[/TID]
/// [CPU] TIME:`; with PID/TID, the PID); none for another line.
std::optional<uint64_t> parsePerfSamplePid(llvm::StringRef Line);

} // namespace dwarfpack

#endif
