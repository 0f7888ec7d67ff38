//===- FunctionNames.h - Names derived from a function's stored name ------===//
//
// A table stores one name per function or inlined call: the name
// llvm-symbolizer prints by default (a linkage name where there is one).
// The other names symbolizers print are derived from it here, and a table
// records one explicitly only where the derivation gives something else
// than DWARF (docs/CompactTable.md): the writer decides with the same
// function the readers print with.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_ADDRESSTABLE_FUNCTIONNAMES_H
#define DWARFPACK_ADDRESSTABLE_FUNCTIONNAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace dwarfpack {

/// Where GCC's and clang's clone and part suffixes start (`foo.cold`,
/// `foo.isra.0`, `_Z3barv.part.0`, `baz.llvm.123`), or npos: DWARF names
/// such a symbol's code after the function it came from.
size_t cloneSuffix(llvm::StringRef Name);

/// The name without scope, template-free parameters or return type, as
/// DWARF's DW_AT_name gives it: from an Itanium linkage name, its last
/// component with its template arguments (`twice<int>` for
/// `_ZN2nsL5twiceIiEET_RKNS_3BoxIS1_EE`); from a plain name, the part after
/// the last `::` outside brackets; without GCC's clone suffixes (`.cold`,
/// `.isra.0`, `.part.0`, `.constprop.0`).
std::string shortFunctionName(llvm::StringRef Name);

/// Whether Name is, without demangling, its own short name: a plain
/// identifier (letters, digits, `_`) that no demangler takes for a mangled
/// name. shortFunctionName(Name) == Name then; false says nothing.
bool isOwnShortName(llvm::StringRef Name);

} // namespace dwarfpack

#endif
