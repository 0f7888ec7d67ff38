//===- SymtabOrder.h - ELF symbols in CTF section order ---------*- C++ -*-===//

#ifndef DWARFPACK_CTF_SYMTABORDER_H
#define DWARFPACK_CTF_SYMTABORDER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ObjectFile.h"

#include <optional>
#include <vector>

namespace dwarfpack {
namespace ctf {

/// The names of the ELF symbols that an unindexed CTF data-object or
/// function-info section has one entry for, in symbol table order: the
/// STT_OBJECT (respectively STT_FUNC) entries of .symtab that libctf does
/// not skip (no name, undefined, "_START_"/"_END_", an absolute STT_OBJECT
/// of value 0). Names point into the object file.
struct SymtabOrder {
  std::vector<llvm::StringRef> Objects, Functions;
  /// Each symbol's address (st_value; an ARM function's without its Thumb
  /// bit), parallel to Objects and Functions. Empty when unknown: the
  /// symbols are then matched by name only.
  std::vector<uint64_t> ObjectAddresses, FunctionAddresses;
};

/// The order for a linked ELF object (executable or shared library) with a
/// .symtab; nothing for relocatable objects, whose symbol table the final
/// link rewrites, for objects without .symtab and for unreadable tables
/// (the dict then stays indexed, which needs no symbol table).
std::optional<SymtabOrder> symtabOrder(const llvm::object::ObjectFile &Obj);

} // namespace ctf
} // namespace dwarfpack

#endif
