//===- Heap.cpp - The malloc heap of converting commands ------------------===//
//
// A conversion builds models of hundreds of megabytes out of large vectors
// that grow, are sorted into new ones and are freed, on several threads.
// Two things about glibc's malloc cost it time, and most on virtual
// machines, where a page fault can cost ten times what it costs on bare
// metal:
//
// - It gives each large block its own mapping and returns freed memory to
//   the system at once, so every new block is faulted in again page by
//   page, and every unmapping interrupts the other threads to flush their
//   TLBs: a tenth of `gsym`'s time on vmlinux. A conversion runs to
//   completion, so it keeps what it freed for reuse instead
//   (keepFreedMemory), for a peak a tenth to a quarter higher.
// - It takes its memory in 4 KiB pages: one fault per page of a peak of
//   several hundred MB. glibc can ask for 2 MiB pages (the kernel's
//   transparent huge pages in madvise mode, Debian's default), but only
//   through GLIBC_TUNABLES, which it reads when a process starts. So a
//   conversion of a large input runs itself again, once, with that
//   variable set (rerunWithHugePages): on a 2-core VM, with Debian's
//   vmlinux, `gsym` took a tenth to a fifth less time and `ctf` and `pack`
//   5 to 8 % less, for peaks up to 10 MB higher; starting again costs
//   about 5 ms. Not where the kernel hands free 2 MiB blocks back to the
//   hypervisor: there huge pages cost more than they save
//   (Support/HugePages.h).
//
// Both leave the bytes written unchanged. A GLIBC_TUNABLES set by the user
// decides instead of both, and DWARFPACK_HUGE_PAGE_HEAP=never turns the
// second off.
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "dwarfpack/Support/HugePages.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

using namespace llvm;

namespace dwarfpack {
namespace tool {

namespace {

/// The process's own argv, null-terminated, for running it again.
SmallVector<char *, 16> &savedCommandLine() {
  static SmallVector<char *, 16> Argv;
  return Argv;
}

/// keepFreedMemory's settings, which it leaves to GLIBC_TUNABLES once that
/// names malloc, and 2 MiB pages.
constexpr const char *HugePageTunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=1073741824:"
    "glibc.malloc.trim_threshold=2147483647";

/// Inputs smaller than this convert in a fraction of a second, where
/// starting again would cost more than the huge pages save.
constexpr uint64_t HugePageMinInputBytes = uint64_t(64) << 20;

enum class HugePageMode { Auto, Always, Never };

Expected<HugePageMode> requestedHugePageMode() {
  const char *V = getenv("DWARFPACK_HUGE_PAGE_HEAP");
  StringRef Mode = V ? V : "";
  if (Mode.empty() || Mode == "auto")
    return HugePageMode::Auto;
  if (Mode == "always")
    return HugePageMode::Always;
  if (Mode == "never")
    return HugePageMode::Never;
  return createStringError(inconvertibleErrorCode(),
                           "DWARFPACK_HUGE_PAGE_HEAP='" + Mode +
                               "': expected auto, always or never");
}

uint64_t totalSize(ArrayRef<std::string> Paths) {
  uint64_t Sum = 0;
  for (const std::string &P : Paths) {
    uint64_t Size;
    if (!sys::fs::file_size(P, Size))
      Sum += Size;
  }
  return Sum;
}

/// Whether /proc/self/exe is dwarfpack: started through the dynamic loader
/// (`ld.so dwarfpack ...`) it is the loader, which would take the
/// subcommand for the program to load.
bool startedDirectly() {
  SmallString<256> Exe;
  if (sys::fs::real_path("/proc/self/exe", Exe))
    return false;
  StringRef Name = sys::path::filename(Exe);
  return !Name.starts_with("ld-") && !Name.starts_with("ld.so");
}

/// Runs the process again with HugePageTunables when that pays; returns
/// only when it does not (or could not).
void rerunWithHugePages(HugePageMode Mode, ArrayRef<std::string> Inputs) {
#if defined(__GLIBC__) && defined(__linux__)
  // A GLIBC_TUNABLES already set is the user's choice, or this is the
  // second run.
  if (Mode == HugePageMode::Never || getenv("GLIBC_TUNABLES") ||
      savedCommandLine().empty() || !startedDirectly())
    return;
  if (Mode == HugePageMode::Auto &&
      (totalSize(Inputs) < HugePageMinInputBytes ||
       !HugePageSystem::current().askingPays()))
    return;
  outs().flush();
  errs().flush();
  // The second run must not run again, even where glibc drops
  // GLIBC_TUNABLES from the environment (setuid programs).
  std::string Previous = getenv("DWARFPACK_HUGE_PAGE_HEAP")
                             ? getenv("DWARFPACK_HUGE_PAGE_HEAP")
                             : "";
  setenv("DWARFPACK_HUGE_PAGE_HEAP", "never", 1);
  setenv("GLIBC_TUNABLES", HugePageTunables, 1);
  execv("/proc/self/exe", savedCommandLine().data());
  // No /proc, or the binary is gone: go on with the heap as it is.
  unsetenv("GLIBC_TUNABLES");
  if (Previous.empty())
    unsetenv("DWARFPACK_HUGE_PAGE_HEAP");
  else
    setenv("DWARFPACK_HUGE_PAGE_HEAP", Previous.c_str(), 1);
#endif
}

void keepFreedMemory() {
#if defined(__GLIBC__)
  const char *Tunables = getenv("GLIBC_TUNABLES");
  if (Tunables && StringRef(Tunables).contains("malloc"))
    return;
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

} // namespace

void saveCommandLine(int Argc, char **Argv) {
  savedCommandLine().assign(Argv, Argv + Argc);
  savedCommandLine().push_back(nullptr);
}

Error prepareHeapForConversion(ArrayRef<std::string> Inputs) {
  Expected<HugePageMode> Mode = requestedHugePageMode();
  if (!Mode)
    return Mode.takeError();
  rerunWithHugePages(*Mode, Inputs);
  keepFreedMemory();
  return Error::success();
}

} // namespace tool
} // namespace dwarfpack
