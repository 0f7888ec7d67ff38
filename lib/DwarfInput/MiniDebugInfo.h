//===- MiniDebugInfo.h - The ELF file inside .gnu_debugdata -----*- C++ -*-===//
//
// MiniDebugInfo (Fedora's, RHEL's and Android's stripped binaries): the
// symbols that stripping removed and .dynsym does not have (static
// functions), kept as a small ELF file compressed with xz in the binary's
// .gnu_debugdata section. GDB, perf and elfutils read it; llvm-symbolizer
// 19 does not.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_DWARFINPUT_MINIDEBUGINFO_H
#define DWARFPACK_LIB_DWARFINPUT_MINIDEBUGINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace dwarfpack {
namespace input {

/// The largest ELF file a .gnu_debugdata section may expand to: a symbol
/// table of a few megabytes at most, so more is a hostile input.
constexpr uint64_t MaxMiniDebugInfoBytes = uint64_t(256) << 20;

/// Expands the xz data of a .gnu_debugdata section. The error says what is
/// wrong with the data (or that liblzma could not be loaded).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
decompressXz(llvm::StringRef Compressed);

} // namespace input
} // namespace dwarfpack

#endif
