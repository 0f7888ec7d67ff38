//===- CtfWriter.h - Type model to CTF v3 dict ------------------*- C++ -*-===//

#ifndef DWARFPACK_CTF_CTFWRITER_H
#define DWARFPACK_CTF_CTFWRITER_H

#include "dwarfpack/CTF/SymtabOrder.h"
#include "dwarfpack/Types/TypeModel.h"

#include "llvm/Support/Error.h"

#include <string>

namespace dwarfpack {
namespace ctf {

struct WriteOptions {
  /// Compress (zlib) dicts at least this large; 0 never compresses.
  uint64_t CompressThreshold = 4096;
  /// Threads compressing (0: all cores); the bytes do not depend on it.
  unsigned Threads = 1;
  /// zlib level. 6 is zlib's default, which libctf (GNU ld) uses: on the
  /// kernel dict level 9 is 0.6 % smaller and takes six times as long.
  int ZlibLevel = 6;
  /// Also list global variables in the variable section (name -> type), as
  /// ld --ctf-variables does. Off by default: the data-object section
  /// already maps each variable's symbol to its type (GDB reads that).
  bool VariableSection = false;
  /// Non-empty: write a child dict naming this parent (cth_parname). In a
  /// child's table, a TypeId with the top bit set is the child's own type
  /// (TypeId - 0x80000000 indexes Table.Types); any other TypeId is a type
  /// of the parent's table. Used by the kernel archives (docs/CTF-kernel.md).
  std::string ParentName;
  /// The linked object's symbol table order (symtabOrder). When given, a
  /// data-object or function-info section is written unindexed, one entry
  /// per symbol of that order (0 where a symbol has no type), as GNU ld
  /// does for a final link, when fewer than 3/4 of its entries would be
  /// such pads and every typed symbol has an entry; the names then come
  /// from the ELF symbol table instead of index sections and strings.
  /// Null: always indexed, the dict names its symbols itself.
  const SymtabOrder *Symtab = nullptr;
};

struct WriteStats {
  /// Whether the data-object / function-info sections are indexed.
  bool ObjectsIndexed = true, FunctionsIndexed = true;
  uint64_t UncompressedSize = 0;
  uint64_t Size = 0;
  bool Compressed = false;
};

/// Serialises Table as one little-endian CTF v3 dict. Model type i becomes
/// CTF type i + 1 (void is written as a 0-bit integer named "void", as GCC
/// does). Fails only when a limit of the format is exceeded.
llvm::Expected<std::string> writeDict(const types::TypeTable &Table,
                                      const WriteOptions &Opts,
                                      WriteStats *Stats = nullptr);

} // namespace ctf
} // namespace dwarfpack

#endif
