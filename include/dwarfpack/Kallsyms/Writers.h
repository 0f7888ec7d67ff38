//===- Writers.h - Kernel symbol table writers ----------------------------===//
//
// Two serializations of a SymbolList: our compact table (docs/Kallsyms.md,
// the default) and the zero-copy ksym-blob layout used by existing kernel
// consumers. Both are deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_KALLSYMS_WRITERS_H
#define DWARFPACK_KALLSYMS_WRITERS_H

#include "dwarfpack/Kallsyms/SymbolList.h"

#include "llvm/Support/Error.h"

#include <string>

namespace dwarfpack {
namespace kallsyms {

/// "DPKSYMTB": first 8 bytes of a compact table.
constexpr char CompactMagic[8] = {'D', 'P', 'K', 'S', 'Y', 'M', 'T', 'B'};
constexpr uint32_t CompactVersion = 5;

/// Writes the compact table. Fails when the address span exceeds 4 GiB.
llvm::Error writeCompact(const SymbolList &List, std::string &Out);

/// Writes the ksym-blob layout. Fails on names longer than a u16 record
/// allows or starting with the 0xFF marker byte.
llvm::Error writeKsymBlob(const SymbolList &List, std::string &Out);

/// True when Bytes start with the compact magic.
bool isCompact(llvm::StringRef Bytes);
/// True when Bytes have the exact section structure of a ksym-blob (the
/// layout has no magic).
bool isKsymBlob(llvm::StringRef Bytes);

} // namespace kallsyms
} // namespace dwarfpack

#endif
