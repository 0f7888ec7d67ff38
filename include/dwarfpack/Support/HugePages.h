//===- HugePages.h - Whether 2 MiB pages pay on this system -----*- C++ -*-===//
//
// Conversions of large inputs ask for their heap in 2 MiB pages
// (transparent huge pages; tools/dwarfpack/Heap.cpp), where they touch much
// fresh memory: one fault then stands for 512.
//
// Not on a virtual machine whose kernel reports free memory to the
// hypervisor (free page reporting, as virtio-balloon does): it reports only
// free blocks of 2^order pages, 2 MiB on x86-64, and the hypervisor drops
// them. A huge page is such a block, so nearly every one was taken back by
// the host, which must find and clear memory for it again on the first
// touch; 4 KiB pages mostly come from blocks that were never whole and
// never reported. On a 2-core Firecracker VM that reports at order 9,
// `gsym` of Debian's vmlinux took 1.18-1.37 s with huge pages in 5 runs of
// 6 (0.41-0.57 s of system time) and 0.89-1.08 s without (0.12-0.20 s).
//
// HashIdMap's large tables still ask, there too: read at random, they gain
// more from fewer TLB misses than the faults cost (`ctf` of the same
// vmlinux 1.58-1.74 s asking, 1.67-2.13 s not, in 5 alternating runs).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_HUGEPAGES_H
#define DWARFPACK_SUPPORT_HUGEPAGES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dwarfpack {

/// What the kernel says of huge pages and free page reporting.
struct HugePageSystem {
  /// The transparent huge page mode: "always", "madvise" or "never"; empty
  /// when unknown (no such kernel, or no /sys).
  std::string Mode;
  /// Free page reporting hands free blocks of 2^ReportingOrder base pages
  /// back to the hypervisor; none when nothing reports.
  std::optional<unsigned> ReportingOrder;
  uint64_t PageBytes = 4096;
  uint64_t HugePageBytes = uint64_t(2) << 20;

  /// From the contents of /sys/kernel/mm/transparent_hugepage/enabled
  /// ("always [madvise] never"), /sys/module/page_reporting/parameters/
  /// page_reporting_order (empty when absent; 4294967295 until a device
  /// reports) and .../transparent_hugepage/hpage_pmd_size (empty: 2 MiB).
  static HugePageSystem parse(llvm::StringRef Enabled,
                              llvm::StringRef ReportingOrder,
                              llvm::StringRef PmdSize, uint64_t PageBytes);
  /// This system's, read once.
  static const HugePageSystem &current();

  /// Whether free huge-page-sized blocks go back to the hypervisor, so that
  /// a huge page is memory the host must supply again.
  bool reportsFreeHugePages() const;
  /// Whether asking for huge pages (madvise) gets them and pays.
  bool askingPays() const {
    return Mode == "madvise" && !reportsFreeHugePages();
  }
};

} // namespace dwarfpack

#endif
