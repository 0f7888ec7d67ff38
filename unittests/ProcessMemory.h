//===- ProcessMemory.h - This process's memory, as Linux reports it -*- C++
//-*-===//
//
// Tests of memory behaviour (pages released after a walk, tables given
// back when freed, 2 MB pages asked for) read /proc/self. Header-only: each
// component's test binary includes it. Linux only: elsewhere every figure
// is 0.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UNITTESTS_PROCESSMEMORY_H
#define DWARFPACK_UNITTESTS_PROCESSMEMORY_H

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace dwarfpack {
namespace testutil {

/// A "Field: N kB" line's N from a /proc/self/smaps-style file: from the
/// mapping holding Address, or from the first line of Field when Address
/// is null (smaps_rollup has one block for the whole process).
inline uint64_t smapsKiB(const char *Path, const char *Field,
                         const void *Address = nullptr) {
  std::ifstream Smaps(Path);
  std::string Line, Key = Field;
  bool InMapping = !Address;
  while (std::getline(Smaps, Line)) {
    uintptr_t Begin, End;
    char Dash;
    std::istringstream Head(Line);
    if (Address && Head >> std::hex >> Begin >> Dash >> End && Dash == '-') {
      InMapping = Begin <= uintptr_t(Address) && uintptr_t(Address) < End;
      continue;
    }
    if (InMapping && Line.rfind(Key, 0) == 0)
      return std::stoull(Line.substr(Key.size()));
  }
  return 0;
}

/// KiB of the mapping that holds Address in this process's resident set.
inline uint64_t residentKiB(const void *Address) {
  return smapsKiB("/proc/self/smaps", "Rss:", Address);
}

/// KiB of this whole process for Field ("Rss:", "AnonHugePages:", ...).
inline uint64_t processKiB(const char *Field) {
  return smapsKiB("/proc/self/smaps_rollup", Field);
}

} // namespace testutil
} // namespace dwarfpack

#endif
