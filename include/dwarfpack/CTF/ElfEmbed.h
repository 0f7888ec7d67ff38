//===- ElfEmbed.h - Copy an ELF file with a .ctf section added --*- C++ -*-===//

#ifndef DWARFPACK_CTF_ELFEMBED_H
#define DWARFPACK_CTF_ELFEMBED_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace llvm {
namespace object {
class Binary;
}
} // namespace llvm

namespace dwarfpack {
namespace ctf {

/// Writes a copy of In to OS with Data as its `.ctf` section (replacing an
/// existing one), the section GDB and objdump --ctf read.
llvm::Error embedCtfSection(llvm::object::Binary &In, llvm::StringRef Data,
                            llvm::raw_ostream &OS);

} // namespace ctf
} // namespace dwarfpack

#endif
