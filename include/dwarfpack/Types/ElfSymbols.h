//===- ElfSymbols.h - The symbols CTF's object and function sections name -===//

#ifndef DWARFPACK_TYPES_ELFSYMBOLS_H
#define DWARFPACK_TYPES_ELFSYMBOLS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"

namespace dwarfpack {
namespace types {

/// The defined data and function symbol names of an object. With
/// GlobalDataOnly, data objects are only those of external linkage (the
/// kernel's global variables; static variables are not interesting to
/// consumers and would double the symbol tables).
struct ElfSymbolNames {
  llvm::StringSet<> Objects, Functions;
};
ElfSymbolNames collectElfSymbols(const llvm::object::ObjectFile &Obj,
                                 bool GlobalDataOnly = false);

} // namespace types
} // namespace dwarfpack

#endif
