//===- TableCache.h - Tables converted from binaries, kept by build-id ----===//
//
// A binary given where a table is expected is converted in memory; the
// cache keeps the table for later runs, which then convert nothing. Like
// debuginfod's client cache it forgets what is not used: control files in
// its root say how long an unused table is kept and how often that is
// checked.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_TABLECACHE_H
#define DWARFPACK_SYMBOLIZE_TABLECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace dwarfpack {

class WarningLog;

/// The cache directory of converted tables: $DWARFPACK_CACHE_DIR when set
/// (set and empty: no cache), else $XDG_CACHE_HOME/dwarfpack/tables, else
/// $HOME/.cache/dwarfpack/tables (empty when there is no home either).
std::string defaultTableCacheDir();

/// A cache root: `VERSION/xx/rest.dpat` per table (another dwarfpack
/// version or build converts again: VERSION is versionDirectory()), and
/// two control files named and read as
/// debuginfod's client names and reads its own, written with their
/// defaults when missing:
/// - `cache_clean_interval_s`: seconds between cleaning rounds (86400, a
///   day; 0: at every use). The file's modification time is the last
///   round's.
/// - `max_unused_age_s`: seconds a table is kept unused (604800, a week;
///   0: not kept past the next round). A table's modification time is its
///   last use: a run that answers from it sets it.
/// A round removes the tables unused for longer, of any version, in the
/// cache's layout only (`VERSION/xx/*.dpat`, VERSION digits and dots,
/// optionally followed by `+` and lower-case hex digits, xx
/// two lower-case hex digits, and what a cut-short write left there), then
/// the directories it leaves empty; nothing else is touched.
class TableCache {
public:
  static constexpr uint64_t DefaultCleanIntervalSeconds = 86400;
  static constexpr uint64_t DefaultMaxUnusedAgeSeconds = 604800;

  explicit TableCache(llvm::StringRef Root) : Root(Root.str()) {}

  /// Where this version keeps the table of build-id Id (at least 2 bytes).
  std::string tablePath(llvm::ArrayRef<uint8_t> Id) const;
  /// The directory of this build's tables: dwarfpack's version, `+` and
  /// the first 8 bytes of the build-id of the file holding this code in
  /// hex (the version alone when it has none), so that a table converted
  /// by another build, which may lack what this one records, is not used.
  static std::string versionDirectory();
  /// Marks the table at Path used now. A read-only cache is left as it is.
  static void markUsed(llvm::StringRef Path);
  /// Keeps Table at Path. A cache that cannot be written costs the next
  /// run a conversion, nothing else: a warning in Log.
  static void keep(llvm::StringRef Path, llvm::StringRef Table,
                   WarningLog &Log);

  struct Policy {
    std::chrono::seconds CleanInterval{DefaultCleanIntervalSeconds};
    std::chrono::seconds MaxUnusedAge{DefaultMaxUnusedAgeSeconds};
  };
  /// Runs a cleaning round when the last one is at least the control
  /// file's interval before Now, keeping the table at Keep (the one just
  /// used or kept); returns the number of tables removed. A root that does
  /// not exist or cannot be written (a shared read-only cache) is left
  /// alone; tables that cannot be removed are a warning.
  unsigned cleanIfDue(llvm::sys::TimePoint<> Now, llvm::StringRef Keep,
                      WarningLog &Log) const;
  /// The policy of the control files, which are written with the defaults
  /// where missing; false when they cannot be (the root cannot be written).
  bool readPolicy(Policy &P) const;
  /// One round: removes the tables but Keep last used before Now -
  /// MaxUnusedAge, and the directories left empty.
  unsigned clean(llvm::sys::TimePoint<> Now, std::chrono::seconds MaxUnusedAge,
                 llvm::StringRef Keep, WarningLog &Log) const;

private:
  std::string Root;
};

} // namespace dwarfpack

#endif
