//===- CtfReader.h - Validating reader for CTF v3 dicts ---------*- C++ -*-===//
//
// Reads CTF v3 dicts (ours, GCC's, GNU ld's) and CTF archives from untrusted
// bytes: every offset, size and type reference is checked before use, so a
// corrupt file gives an Error, never a crash. Uncompressed dicts are read in
// place; compressed ones are inflated once into an owned buffer.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTF_CTFREADER_H
#define DWARFPACK_CTF_CTFREADER_H

#include "dwarfpack/CTF/CtfFormat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace dwarfpack {
namespace ctf {
struct SymtabOrder;
}
namespace ctf {

bool isDict(llvm::StringRef Bytes);
bool isArchive(llvm::StringRef Bytes);

class DictReader {
public:
  /// Checks the header, inflates if needed and indexes every type record.
  static llvm::Expected<DictReader> open(llvm::StringRef Bytes);

  struct TypeRecord {
    uint32_t Name = 0;
    uint32_t Info = 0;
    uint64_t Size = 0;    ///< ctt_size (or the 64-bit large size)
    uint32_t Ref = 0;     ///< ctt_type, same field as the size
    llvm::StringRef Vlen; ///< the variable-length data, bounds-checked
  };

  uint32_t numTypes() const { return Offsets.size(); }
  /// Record of type Id (1-based within this dict).
  TypeRecord type(uint32_t Id) const;
  /// The name at an internal string offset; "<external:N>" for ELF strings.
  llvm::StringRef string(uint32_t Off) const;
  bool isChild() const { return Field[ParName] != 0; }
  uint8_t flags() const { return Flags; }

  /// Symbol sections as (name offset or index, type) pairs.
  std::vector<std::pair<uint32_t, uint32_t>> dataObjects() const;
  std::vector<std::pair<uint32_t, uint32_t>> functions() const;
  std::vector<std::pair<uint32_t, uint32_t>> variables() const;
  bool objectsIndexed() const { return Field[FuncIdxOff] > Field[ObjtIdxOff]; }
  bool functionsIndexed() const { return Field[VarOff] > Field[FuncIdxOff]; }

  /// Stable text form (docs/CTF.md). Entries of unindexed symbol sections
  /// are named from Symtab when given (the dict's ELF file), else by their
  /// position; pads (no type) are left out.
  void dump(llvm::raw_ostream &OS, const SymtabOrder *Symtab = nullptr) const;

private:
  DictReader() = default;
  llvm::Error index();
  llvm::Error indexRecords();
  llvm::Error checkTypeReferences() const;
  llvm::Error checkSymbolEntries() const;
  /// A type id or name offset that this dict cannot resolve.
  bool badRef(uint32_t Id) const;
  bool badName(uint32_t Name) const;
  llvm::StringRef section(unsigned From, unsigned To) const;
  /// The dict's first dump line: flags, type count, parent and unit names.
  void dumpHeader(llvm::raw_ostream &OS) const;

  llvm::SmallVector<uint8_t, 0> Inflated;
  llvm::StringRef Body; ///< everything after the header
  uint32_t Field[NumHeaderFields] = {};
  uint8_t Flags = 0;
  std::vector<uint32_t> Offsets; ///< type record offsets in the type section
};

/// Dumps a dict or an archive (each member in name order).
llvm::Error dump(llvm::StringRef Bytes, llvm::raw_ostream &OS,
                 const SymtabOrder *Symtab = nullptr);

} // namespace ctf
} // namespace dwarfpack

#endif
