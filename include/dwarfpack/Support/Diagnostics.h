//===- Diagnostics.h - Counted warnings for long conversions --------------===//
//
// Libraries never print. A conversion reports recoverable problems here, by
// kind; the tool prints a short summary (counts by kind and a few examples)
// instead of thousands of lines.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_DIAGNOSTICS_H
#define DWARFPACK_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace dwarfpack {

class WarningLog {
public:
  /// How many messages of each kind are kept as examples.
  static constexpr unsigned MaxExamplesPerKind = 3;

  struct KindSummary {
    std::string Kind;
    uint64_t Count = 0;
    std::vector<std::string> Examples;
  };

  /// Records one warning. Kind is a short stable identifier such as
  /// "invalid-range". Safe to call from several threads.
  void report(llvm::StringRef Kind, const llvm::Twine &Message);

  /// Records an expected, harmless event worth counting but not warning
  /// about (e.g. DWARF of code the linker discarded). Thread-safe.
  void note(llvm::StringRef Kind, const llvm::Twine &Message);

  /// Adds every count and example of Other to this log.
  void merge(const WarningLog &Other);

  /// Counts of warnings by kind, sorted by kind name (notes excluded).
  std::vector<KindSummary> summary() const;
  /// summary() as one line of text per kind, "N x KIND (e.g. EXAMPLE)".
  std::vector<std::string> summaryLines() const;
  /// Counts of notes by kind, sorted by kind name.
  std::vector<KindSummary> notes() const;
  uint64_t total() const;
  uint64_t count(llvm::StringRef Kind) const;

private:
  static void add(llvm::StringMap<KindSummary> &Map, llvm::StringRef Kind,
                  const llvm::Twine &Message);
  static std::vector<KindSummary> sorted(const llvm::StringMap<KindSummary> &M);

  mutable std::mutex Mutex;
  llvm::StringMap<KindSummary> Kinds;
  llvm::StringMap<KindSummary> Notes;
};

/// Progress of a long run: (units done, units in total). Called from the
/// thread that finished the unit; the callee serialises its own output.
using ProgressFn = std::function<void(uint64_t Done, uint64_t Total)>;

/// "0x" and V in lower-case hex, as error messages print offsets and
/// addresses.
std::string hexString(uint64_t V);

} // namespace dwarfpack

#endif
