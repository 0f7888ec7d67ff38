//===- ElfSymbols.h - The symbols CTF's object and function sections name -===//

#ifndef DWARFPACK_TYPES_ELFSYMBOLS_H
#define DWARFPACK_TYPES_ELFSYMBOLS_H

#include "dwarfpack/Types/TypeModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"

#include <vector>

namespace dwarfpack {
namespace types {

/// A defined symbol's place and size (st_value, st_size). Address is
/// Symbol::NoAddress in a relocatable object, whose values are offsets
/// into sections.
struct ElfObject {
  llvm::StringRef Name;
  uint64_t Address = Symbol::NoAddress;
  uint64_t Size = 0;
};

/// The defined data and function symbol names of an object (unversioned). With
/// GlobalDataOnly, data objects are only those of external linkage (the
/// kernel's global variables; static variables are not interesting to
/// consumers and would double the symbol tables).
struct ElfSymbolNames {
  llvm::StringSet<> Objects, Functions;
  /// The data symbols of Objects with their extents, in symbol-table order.
  std::vector<ElfObject> ObjectExtents;
  /// The same for the function symbols of Functions.
  std::vector<ElfObject> FunctionExtents;
};
ElfSymbolNames collectElfSymbols(const llvm::object::ObjectFile &Obj,
                                 bool GlobalDataOnly = false);

/// An ELF symbol name without the version GNU ld (2.35 and later) appends
/// in .symtab to a dynamic symbol's name: `stderr@GLIBC_2.2.5` (a copy
/// relocation), `f@@VERS_1` (a versioned definition) give `stderr`, `f`.
llvm::StringRef unversionedName(llvm::StringRef Name);

/// Gives each variable whose type is an array of unknown bound (under any
/// qualifiers) the bound its ELF symbol's size implies. DWARF leaves the
/// bound out where the definition completes an earlier declaration: GCC
/// keeps the type of a tentative `static struct s a[];` and of an `extern`
/// declaration that a definition without its own type completes. A
/// variable of Table.VariablesByAddress takes the size of the symbol of its
/// name (or LTO-renamed name) at its address, one of Table.Variables the
/// size all symbols of its name agree on; the size must be a non-zero
/// multiple of the element size. The completed types are added to Table
/// (or found there). Returns the number of variables changed.
unsigned boundArraysBySymbolSize(TypeTable &Table,
                                 llvm::ArrayRef<ElfObject> Objects);

/// Types the ELF symbols that alias a typed definition: a symbol whose name
/// no definition has, at the address of definitions (of
/// Table.FunctionsByAddress, Table.VariablesByAddress) whose own symbols
/// there have its size, takes their type when they agree on one. C aliases
/// (`__attribute__((alias))`), weak and versioned names and an assembler's
/// `.set` give one function or variable several symbols, and DWARF
/// describes it under one name: glibc's `fopen` is `_IO_new_fopen`,
/// `environ` is `__environ`. Symbols at one address with other sizes
/// (markers, folded code of other types) stay untyped. The aliases join
/// Table.Functions and Table.Variables (which stay sorted by name), their
/// names owned by Table.Storage. Returns the number of symbols typed.
unsigned typeAliasesByAddress(TypeTable &Table,
                              llvm::ArrayRef<ElfObject> Functions,
                              llvm::ArrayRef<ElfObject> Objects);

} // namespace types
} // namespace dwarfpack

#endif
