//===- CtfWriter.h - Type model to CTF v3 dict ------------------*- C++ -*-===//

#ifndef DWARFPACK_CTF_CTFWRITER_H
#define DWARFPACK_CTF_CTFWRITER_H

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
  /// Also list global variables in the variable section (name -> type), as
  /// ld --ctf-variables does. Off by default: the data-object section
  /// already maps each variable's symbol to its type (GDB reads that).
  bool VariableSection = false;
  /// Non-empty: write a child dict naming this parent (cth_parname). In a
  /// child's table, a TypeId with the top bit set is the child's own type
  /// (TypeId - 0x80000000 indexes Table.Types); any other TypeId is a type
  /// of the parent's table. Used by the kernel archives (docs/CTF-kernel.md).
  std::string ParentName;
};

struct WriteStats {
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
