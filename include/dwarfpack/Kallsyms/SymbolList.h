//===- SymbolList.h - Kernel symbols parsed from kallsyms-like text -------===//
//
// The in-memory model shared by the kallsyms writers: symbols in address
// order (aliases in input order), parsed from /proc/kallsyms, System.map or
// `nm -n [-C]` output.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_KALLSYMS_SYMBOLLIST_H
#define DWARFPACK_KALLSYMS_SYMBOLLIST_H

#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dwarfpack {
namespace kallsyms {

struct KernelSymbol {
  uint64_t Address = 0;
  /// nm type letter ('t', 'T', ...).
  char Type = 0;
  llvm::StringRef Name;
  /// Module name without brackets; empty for the core kernel.
  llvm::StringRef Module;
};

/// Symbols sorted by address (stably: symbols at one address keep their
/// input order). Names point into the parsed text or into the list's own
/// storage.
struct SymbolList {
  std::vector<KernelSymbol> Symbols;
  /// End of the last symbol (--etext), when known.
  std::optional<uint64_t> EndAddress;

  /// A copy of S that lives as long as the list (moves included).
  llvm::StringRef save(llvm::StringRef S) {
    return llvm::StringSaver(Alloc).save(S);
  }

private:
  // No StringSaver member: it would keep referring to the allocator of a
  // list moved from.
  llvm::BumpPtrAllocator Alloc;
};

struct ParseOptions {
  /// Keep every type, not only text symbols (t/T).
  bool AllTypes = false;
  /// Demangle C++ and Rust (legacy and v0) names with LLVM's demangler.
  bool Demangle = false;
  /// Lines longer than this are rejected.
  size_t MaxLineLength = 1 << 20;
};

/// True for ARM/AArch64 mapping symbols ($a, $d, $t, $x, optionally
/// followed by ".anything").
bool isMappingSymbol(llvm::StringRef Name);

/// Demangles Name when it is a C++ or Rust symbol; returns it unchanged
/// otherwise. Legacy Rust names lose their trailing "::h<hash>" and have
/// their escapes decoded (demangleRustLegacy).
std::string demangleSymbol(llvm::StringRef Name);

/// Parses Text (which must outlive List). Errors name BufferName and the
/// 1-based line. Lines with a blank address (undefined symbols in nm output)
/// and blank lines are skipped. Core kernel symbols (no module) must not go
/// backwards; module symbols may come in any order (/proc/kallsyms lists
/// them in symbol-table order) and are sorted in. An input whose addresses
/// are all zero (kptr_restrict) is an error.
llvm::Error parseSymbolList(llvm::StringRef Text, llvm::StringRef BufferName,
                            const ParseOptions &Options, SymbolList &List,
                            WarningLog *Warnings = nullptr);

} // namespace kallsyms
} // namespace dwarfpack

#endif
