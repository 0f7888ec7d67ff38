//===- KernelSlide.h - A running kernel's KASLR offset --------------------===//
//
// A kernel with KASLR runs at its link-time addresses plus a random offset,
// so the addresses a profiler samples are not those of vmlinux or
// System.map. The offset is the distance between the running kernel's
// `_text` (in its /proc/kallsyms) and the table's; it is checked on symbols
// spread over the running kernel, so a table of another build is refused
// rather than answering with wrong names.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_KALLSYMS_KERNELSLIDE_H
#define DWARFPACK_KALLSYMS_KERNELSLIDE_H

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace dwarfpack {
namespace kallsyms {

struct KernelSlide {
  /// Running address minus table address, modulo 2^64.
  uint64_t Offset = 0;
  /// `_text` in the running kernel and in the table.
  uint64_t RunningText = 0;
  uint64_t TableText = 0;
  /// Core-kernel text symbols of the running kernel looked up in the table
  /// at their address minus Offset, and how many of them start a symbol
  /// (function) there.
  unsigned Checked = 0;
  unsigned Agreed = 0;
};

/// Finds the offset from Table to the running kernel whose symbols are
/// Running (parsed /proc/kallsyms) and checks it on up to MaxChecks text
/// symbols spread evenly over Running's core kernel. Errors: Running has no
/// core `_text`; Table cannot tell its `_text`; the offset is not a whole
/// number of 4 KiB pages; fewer than half of the checked symbols start a
/// symbol of Table at their address minus the offset (the table is of
/// another kernel build); a lookup fails on a corrupt table.
llvm::Expected<KernelSlide> findKernelSlide(const AddressSymbolizer &Table,
                                            const SymbolList &Running,
                                            unsigned MaxChecks = 64);

/// Answers a running kernel's addresses: its core kernel from a table of
/// its build (vmlinux, System.map) at the address minus the KASLR offset,
/// and what the running kernel lists in modules (loadable modules, BPF
/// programs "[bpf]", ftrace trampolines) from that list itself, as perf and
/// bcc answer them from /proc/kallsyms: modules are placed apart from the
/// kernel, and BPF programs exist only at run time.
class RunningKernelSymbolizer : public AddressSymbolizer {
public:
  /// Table must outlive the result; Running need not.
  static llvm::Expected<std::unique_ptr<RunningKernelSymbolizer>>
  create(const AddressSymbolizer &Table, const SymbolList &Running,
         uint64_t Offset);
  ~RunningKernelSymbolizer() override;

  llvm::Expected<LookupResult> lookup(uint64_t Address) const override;
  uint64_t offset() const { return Offset; }

private:
  RunningKernelSymbolizer(const AddressSymbolizer &Table, uint64_t Offset)
      : Table(Table), Offset(Offset) {}

  const AddressSymbolizer &Table;
  uint64_t Offset;
  /// The running core kernel's first and last symbol addresses: module
  /// symbols answer only outside them (on arm64, modules lie below the
  /// kernel, and kallsyms gives the last one no end).
  uint64_t CoreLow = 0, CoreHigh = 0;
  /// The running kernel's module symbols as a table in memory (none: null).
  std::string ModuleTable;
  std::unique_ptr<SymbolReader> Modules;
};

} // namespace kallsyms
} // namespace dwarfpack

#endif
