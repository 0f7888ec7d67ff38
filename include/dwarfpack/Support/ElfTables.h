//===- ElfTables.h - Symbol and relocation tables LLVM can walk -*- C++ -*-===//
//
// LLVM's ELFObjectFile returns errors for most damage, but not from its
// symbol and relocation accessors: a symbol table or relocation section
// whose entry size or extent is wrong makes getSymbolELFType, getSymbolSize,
// getRela and the relocation iterators call report_fatal_error (an abort),
// and a relocation section with entry size 0 divides by zero. Every object
// dwarfpack reads symbols or relocations from is checked here first.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_ELFTABLES_H
#define DWARFPACK_SUPPORT_ELFTABLES_H

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

namespace dwarfpack {

/// Checks every symbol table (SHT_SYMTAB, SHT_DYNSYM) and relocation
/// section (SHT_REL, SHT_RELA) of Obj: entry size, extent inside the file,
/// and the sections they link to. The error names the first bad section.
/// Objects that are not ELF pass.
llvm::Error checkElfTables(const llvm::object::ObjectFile &Obj);

} // namespace dwarfpack

#endif
