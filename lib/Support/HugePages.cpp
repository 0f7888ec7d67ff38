//===- HugePages.cpp - Whether 2 MiB pages pay on this system -------------===//

#include "dwarfpack/Support/HugePages.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <memory>

using namespace llvm;

namespace dwarfpack {

namespace {

std::string readSysFile(const char *Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFileAsStream(Path);
  return B ? (*B)->getBuffer().trim().str() : std::string();
}

} // namespace

HugePageSystem HugePageSystem::parse(StringRef Enabled,
                                     StringRef ReportingOrder,
                                     StringRef PmdSize, uint64_t PageBytes) {
  HugePageSystem S;
  // The mode in effect is the bracketed one.
  size_t Open = Enabled.find('['), Close = Enabled.find(']');
  if (Open != StringRef::npos && Close != StringRef::npos && Open < Close)
    S.Mode = Enabled.slice(Open + 1, Close).str();
  // The kernel shows -1, "no device has registered", as unsigned.
  unsigned Order;
  if (!ReportingOrder.trim().getAsInteger(10, Order) && Order < 64)
    S.ReportingOrder = Order;
  uint64_t Pmd;
  if (!PmdSize.trim().getAsInteger(10, Pmd) && Pmd)
    S.HugePageBytes = Pmd;
  if (PageBytes)
    S.PageBytes = PageBytes;
  return S;
}

const HugePageSystem &HugePageSystem::current() {
  static const HugePageSystem S = [] {
    return parse(
        readSysFile("/sys/kernel/mm/transparent_hugepage/enabled"),
        readSysFile("/sys/module/page_reporting/parameters/"
                    "page_reporting_order"),
        readSysFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"),
        sys::Process::getPageSizeEstimate());
  }();
  return S;
}

bool HugePageSystem::reportsFreeHugePages() const {
  // A reported block no larger than a huge page: every free huge page is
  // one or more whole reported blocks.
  return ReportingOrder && *ReportingOrder < 40 &&
         (PageBytes << *ReportingOrder) <= HugePageBytes;
}

} // namespace dwarfpack
