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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

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
  /// The running kernel's build-id was given and is the table's.
  bool BuildIdMatched = false;
  /// The table records no `_text` (GSYM): Offset is the one on which most
  /// (NameVotes) of the running kernel's core functions of unique name
  /// agree with the table's function of that name.
  bool FromNames = false;
  unsigned NameVotes = 0;
};

/// Finds the offset from Table to the running kernel whose symbols are
/// Running (parsed /proc/kallsyms) and checks it on up to MaxChecks text
/// symbols spread evenly over Running's core kernel. The offset is the
/// distance between the `_text` of both, or, for a table that cannot tell
/// its `_text` but lists its functions (GSYM), the distance most functions
/// of one name agree on. RunningBuildId, when given (from
/// /sys/kernel/notes), must be the build-id Table records, if it records
/// one. Errors: the build-ids differ; Running has no core `_text` (when
/// Table has one); Table can tell neither its `_text` nor its functions,
/// or no running symbol names one; the offset is not a whole number of
/// 4 KiB pages; fewer than half of the checked symbols start a symbol of
/// Table at their address minus the offset (the table is of another kernel
/// build); a lookup fails on a corrupt table.
constexpr unsigned DefaultSlideChecks = 64;
llvm::Expected<KernelSlide>
findKernelSlide(const AddressSymbolizer &Table, const SymbolList &Running,
                unsigned MaxChecks = DefaultSlideChecks,
                llvm::ArrayRef<uint8_t> RunningBuildId = {});

/// An address table of a kernel module, opened, and what names it in
/// messages (its file); and the running module's build-id when it is known
/// (from /sys/module/<name>/notes).
struct ModuleTable {
  std::unique_ptr<AddressSymbolizer> Table;
  std::string Name;
  llvm::SmallVector<uint8_t, 20> RunningBuildId;
};
/// The address table of a running kernel module, by the module's name as
/// kallsyms gives it ("nf_tables"); a null Table when there is none.
using ModuleTableOpener =
    std::function<llvm::Expected<ModuleTable>(llvm::StringRef Module)>;

/// How a module's table was placed at the running module's symbols.
struct ModulePlacement {
  std::string Module;
  /// ModuleTable::Name of its table.
  std::string Table;
  /// The module's text symbols in the running kernel's list, and how many
  /// of them name exactly one function of the table (the anchors).
  unsigned TextSymbols = 0;
  unsigned Anchors = 0;
  /// Anchors whose offset (running minus table address) differs from the
  /// previous anchor's: where the running module starts another section,
  /// and, for a table of another build, wherever the code differs.
  unsigned OffsetChanges = 0;
  /// The build-ids compared, when both the running module's and the
  /// table's are known: Same or Different. Unknown otherwise.
  enum class BuildId { Unknown, Same, Different };
  BuildId BuildIdCheck = BuildId::Unknown;
  /// Both build-ids, in hex, when they were compared.
  std::string RunningBuildId, TableBuildId;
  /// Whether the table answers for the module: it has anchors, and its
  /// build-id is the running module's; or, when either build-id is
  /// unknown, the anchors' offset changes at most MaxOffsetChanges times
  /// or for at most a quarter of them (more: a table of another build).
  bool Placed = false;
};
constexpr unsigned MaxOffsetChanges = 8;

/// Answers a running kernel's addresses: its core kernel from a table of
/// its build (vmlinux, System.map) at the address minus the KASLR offset,
/// and what the running kernel lists in modules (loadable modules, BPF
/// programs "[bpf]", ftrace trampolines) from that list itself, as perf and
/// bcc answer them from /proc/kallsyms: modules are placed apart from the
/// kernel, and BPF programs exist only at run time.
///
/// A module with an address table of its own (made from its .ko) answers
/// with that table's frames and lines instead. The kernel loads each of a
/// module's sections on its own, so the table's addresses are placed by
/// the running module's symbols: an address is looked up at its distance
/// from the nearest anchor before or after it (a running symbol naming one
/// function of the table), and the answer is kept only when the table's
/// function there starts exactly at the running kernel's nearest symbol,
/// moved the same way; otherwise the module's symbol name answers. A table
/// whose offsets change too often (ModulePlacement::Placed) is not used.
///
/// Names are the running kernel's: functionsNamed gives the running
/// addresses of its text symbols of a name (GCC's `.isra.0`, `.cold` parts
/// included, which a table made from DWARF calls by the function's name),
/// and a module's answers carry the module's name in their outermost frame.
class RunningKernelSymbolizer : public AddressSymbolizer {
public:
  /// Table must outlive the result; Running need not. OpenModule, when
  /// given, is asked once for each module Running lists.
  static llvm::Expected<std::unique_ptr<RunningKernelSymbolizer>>
  create(const AddressSymbolizer &Table, const SymbolList &Running,
         uint64_t Offset, const ModuleTableOpener &OpenModule = nullptr);
  ~RunningKernelSymbolizer() override;

  llvm::Expected<LookupResult> lookup(uint64_t Address) const override;
  /// The running addresses of the running kernel's text symbols named
  /// Name, core kernel and modules, in address order.
  llvm::Expected<std::optional<std::vector<uint64_t>>>
  functionsNamed(llvm::StringRef Name) const override;
  uint64_t offset() const { return Offset; }
  /// The modules that have a table, in the order Running lists them.
  llvm::ArrayRef<ModulePlacement> placements() const { return Placements; }

private:
  RunningKernelSymbolizer(const AddressSymbolizer &Table, uint64_t Offset)
      : Table(Table), Offset(Offset) {}
  struct PlacedModule {
    std::unique_ptr<AddressSymbolizer> Table;
    /// (running address, running minus table address), by running address.
    std::vector<std::pair<uint64_t, uint64_t>> Anchors;
  };
  struct ModuleSymbol {
    uint64_t Address;
    /// Index in Placed; none: UINT32_MAX.
    uint32_t Placed;
    /// Index in ModuleNames.
    uint32_t Module;
  };
  llvm::Error placeModule(llvm::StringRef Name,
                          llvm::ArrayRef<const KernelSymbol *> Running,
                          ModuleTable ModTable);
  /// Address in module M, whose nearest symbol is at SymbolAddress: the
  /// table's answer (no frames: nothing there), or std::nullopt when the
  /// table cannot be placed there.
  llvm::Expected<std::optional<LookupResult>>
  lookupInModule(const PlacedModule &M, uint64_t Address,
                 uint64_t SymbolAddress) const;

  const AddressSymbolizer &Table;
  uint64_t Offset;
  /// The running core kernel's first and last symbol addresses: module
  /// symbols answer only outside them (on arm64, modules lie below the
  /// kernel, and kallsyms gives the last one no end).
  uint64_t CoreLow = 0, CoreHigh = 0;
  /// The running kernel's module symbols as a table in memory (none: null).
  std::string ModuleBlob;
  std::unique_ptr<SymbolReader> Modules;
  /// Modules with a table of their own.
  std::vector<PlacedModule> Placed;
  std::vector<ModulePlacement> Placements;
  /// Every module symbol's address, module and placed module, by address.
  std::vector<ModuleSymbol> Symbols;
  std::vector<std::string> ModuleNames;
  /// Every running text symbol's name and address, sorted by both on the
  /// first functionsNamed (a lookup by address needs none of it).
  mutable std::vector<std::pair<llvm::StringRef, uint64_t>> Named;
  mutable std::once_flag NamedSorted;
  llvm::BumpPtrAllocator NameStorage;
};

} // namespace kallsyms
} // namespace dwarfpack

#endif
