//===- ObjectConverter.h - ELF + DWARF + symbols to a FunctionModel -------===//
//
// Reads an ELF file (executable, shared library, vmlinux, kernel module or
// separate debug file) and fills a FunctionModel from its DWARF (versions 2
// to 5, compressed sections included) and its symbol tables (.symtab and
// .dynsym), so that code without DWARF (assembly) is covered too.
//
// Addresses: executables and libraries use their link-time addresses.
// Relocatable objects (.o, kernel modules) have none, so their executable
// sections are laid out one after another, in section-header order, from
// address 0, each aligned to its sh_addralign; DWARF relocations are applied.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARF_OBJECTCONVERTER_H
#define DWARFPACK_DWARF_OBJECTCONVERTER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>

namespace dwarfpack {

struct ConvertOptions {
  /// Worker threads for the compile units; 0 means all cores.
  unsigned NumThreads = 0;
  /// Called after each compile unit (may be empty).
  ProgressFn Progress;
};

struct ConvertStats {
  uint64_t DebugBytes = 0; ///< Sum of the sizes of the .debug_* sections.
  uint64_t CompileUnits = 0;
  uint64_t DwarfFunctions = 0;  ///< Entries made from DWARF (before finalize).
  uint64_t SymbolFunctions = 0; ///< Entries made from symbols.
};

/// Reads the ELF file at Path into Model (which must be empty): module
/// identity (base address, build-id, byte order, executable ranges) and the
/// unfinalized function list; call Model.finalize() next. Recoverable
/// problems (bad ranges, corrupt DWARF in one unit, ...) go to Log; an error
/// is returned when the file cannot be read as ELF at all. Output does not
/// depend on NumThreads.
llvm::Error convertObjectFile(llvm::StringRef Path, FunctionModel &Model,
                              const ConvertOptions &Options, WarningLog &Log,
                              ConvertStats *Stats = nullptr);

/// Same, for an ELF file already in memory; its buffer identifier is the
/// path that messages name and that split-DWARF files are looked up beside.
llvm::Error convertObject(llvm::MemoryBufferRef Buffer, FunctionModel &Model,
                          const ConvertOptions &Options, WarningLog &Log,
                          ConvertStats *Stats = nullptr);

} // namespace dwarfpack

#endif
