//===- KernelSlide.cpp - A running kernel's KASLR offset ------------------===//

#include "dwarfpack/Kallsyms/KernelSlide.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace dwarfpack {
namespace kallsyms {

static Error slideError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<KernelSlide> findKernelSlide(const AddressSymbolizer &Table,
                                      const SymbolList &Running,
                                      unsigned MaxChecks) {
  KernelSlide Slide;
  std::vector<uint64_t> Text; // core-kernel text symbols, in address order
  bool HasText = false;
  for (const KernelSymbol &S : Running.Symbols) {
    if (!S.Module.empty())
      continue;
    if (!HasText && S.Name == "_text") {
      Slide.RunningText = S.Address;
      HasText = true;
    }
    if (S.Type == 't' || S.Type == 'T')
      Text.push_back(S.Address);
  }
  if (!HasText)
    return slideError("the running kernel's symbols have no '_text'");
  Expected<uint64_t> TableText = Table.kernelTextAddress();
  if (!TableText)
    return TableText.takeError();
  Slide.TableText = *TableText;
  Slide.Offset = Slide.RunningText - Slide.TableText;
  // KASLR moves the whole image by pages (2 MiB on x86-64).
  if (Slide.Offset & 0xfff)
    return slideError("'_text' is at " + hexString(Slide.RunningText) +
                      " in the running kernel and at " +
                      hexString(Slide.TableText) +
                      " in the table: " + hexString(Slide.Offset) +
                      " is not a whole number of pages, so the table is not "
                      "of this kernel");
  // Symbols spread evenly over the kernel, deterministically.
  size_t N = std::min<size_t>(MaxChecks, Text.size());
  for (size_t I = 0; I < N; ++I) {
    uint64_t At = Text[I * Text.size() / N] - Slide.Offset;
    Expected<LookupResult> R = Table.lookup(At);
    if (!R)
      return R.takeError();
    ++Slide.Checked;
    // The outermost frame is the function (frames are innermost first).
    if (!R->Frames.empty() && R->Frames.back().StartAddress == At)
      ++Slide.Agreed;
  }
  if (Slide.Agreed * 2 < Slide.Checked)
    return slideError(
        "with the offset " + hexString(Slide.Offset) +
        " (from '_text'), only " + Twine(Slide.Agreed) + " of " +
        Twine(Slide.Checked) +
        " symbols of the running kernel start a symbol of the table: the "
        "table is of another kernel build");
  return Slide;
}

RunningKernelSymbolizer::~RunningKernelSymbolizer() = default;

Expected<std::unique_ptr<RunningKernelSymbolizer>>
RunningKernelSymbolizer::create(const AddressSymbolizer &Table,
                                const SymbolList &Running, uint64_t Offset) {
  std::unique_ptr<RunningKernelSymbolizer> R(
      new RunningKernelSymbolizer(Table, Offset));
  SymbolList InModules;
  bool HasCore = false;
  for (const KernelSymbol &S : Running.Symbols) {
    if (!S.Module.empty()) {
      InModules.Symbols.push_back(S);
      continue;
    }
    R->CoreLow = HasCore ? std::min(R->CoreLow, S.Address) : S.Address;
    R->CoreHigh = HasCore ? std::max(R->CoreHigh, S.Address) : S.Address;
    HasCore = true;
  }
  if (InModules.Symbols.empty())
    return std::move(R);
  // A ksym-blob: unlike the compact table, it holds addresses of any span
  // (modules and BPF programs may lie far apart).
  if (Error E = writeKsymBlob(InModules, R->ModuleTable))
    return std::move(E);
  Expected<std::unique_ptr<SymbolReader>> M = openSymbolTable(
      MemoryBuffer::getMemBuffer(R->ModuleTable, "modules", false));
  if (!M)
    return M.takeError();
  R->Modules = std::move(*M);
  return std::move(R);
}

Expected<LookupResult> RunningKernelSymbolizer::lookup(uint64_t Address) const {
  // Outside the running core kernel's symbols, a module's first: a table
  // without an end address gives its last symbol everything above it.
  if (Modules && (Address < CoreLow || Address > CoreHigh)) {
    Expected<LookupResult> M = Modules->lookup(Address);
    if (!M || !M->Frames.empty())
      return M;
  }
  return Table.lookup(Address - Offset);
}

} // namespace kallsyms
} // namespace dwarfpack
