//===- CtfArchive.h - Write CTF archives (libctf's v1 container) -*- C++ -*-=//
//
// The container GNU ld writes into a `.ctf` section when one dict is not
// enough, and what libctf's ctf_arc_open() opens: a 40-byte header (magic,
// data model, member count, name table offset, dict area offset), a table of
// (name offset, dict offset) pairs sorted by name, the dicts (each preceded
// by its 64-bit size, 8-byte aligned) and the name table. All little-endian.
// A member named ".ctf" is the parent that ctf_arc_open() imports into
// children whose parent name is ".ctf".
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTFKERNEL_CTFARCHIVE_H
#define DWARFPACK_CTFKERNEL_CTFARCHIVE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace dwarfpack {
namespace ctfkernel {

/// The member name of the parent dict in archives (and the parent name
/// that children record).
constexpr const char *ParentMemberName = ".ctf";

struct ArchiveMember {
  std::string Name;
  llvm::StringRef Dict; ///< A complete CTF dict.
};

/// Serialises Members (any order; names must be unique) as one archive.
std::string writeCtfArchive(std::vector<ArchiveMember> Members);

} // namespace ctfkernel
} // namespace dwarfpack

#endif
