//===- Relocations.h - Relocating a relocatable object's DWARF --*- C++ -*-===//
//
// A relocatable object (.o, a kernel module's .ko) holds DWARF whose
// addresses and section offsets relocations fill in. They are applied here,
// once, to copies of the debug sections, with each symbol at the address
// the layout of executable sections gives it (RelocatableLayout.h), so that
// every reader sees final values. LLVM's DWARFContext instead keeps a map of
// every relocation and resolves each value as it is read, which cost more
// than the conversion of a kernel module itself.
//
// The computation is LLVM's (object::getRelocationResolver); the width of
// each relocation type, which LLVM's resolvers leave to the reader, comes
// from the table in Relocations.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_DWARFINPUT_RELOCATIONS_H
#define DWARFPACK_LIB_DWARFINPUT_RELOCATIONS_H

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/RelocatableLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/RelocationResolver.h"

namespace dwarfpack {
namespace input {

class RelocationApplier {
public:
  RelocationApplier(const llvm::object::ObjectFile &Obj,
                    llvm::ArrayRef<PlacedSection> Layout);
  /// Applies the relocations of RelSec to Target (the bytes of the section
  /// they relocate) and records in Placed where they point.
  void apply(const llvm::object::SectionRef &RelSec,
             llvm::MutableArrayRef<char> Target, RelocatedOffsets &Placed);
  /// Counts what could not be applied (unknown types, offsets outside
  /// their section) in Log.
  void report(WarningLog &Log) const;

private:
  struct SymbolValue {
    uint64_t Value = 0;
    /// In an executable section of the layout; another section; no section
    /// (undefined: the value stays unrelocated).
    Placement P = Placement::None;
  };
  SymbolValue valueOf(const llvm::object::SymbolRef &Sym);
  /// The bytes a relocation of Type at Offset writes into a section of Size
  /// bytes; 0, counted, when it writes none or would write past the end.
  unsigned widthAt(uint16_t Machine, uint64_t Type, uint64_t Offset,
                   size_t Size);
  static void write(char *At, unsigned Width, bool LE, uint64_t Value);
  /// apply() for an x86-64 ELF64 SHT_RELA section read as an array; false,
  /// having done nothing, for any other section.
  bool applyX86_64Rela(const llvm::object::SectionRef &RelSec,
                       llvm::MutableArrayRef<char> Target,
                       RelocatedOffsets &Placed);

  const llvm::object::ObjectFile &Obj;
  llvm::object::SupportsRelocation Supports;
  llvm::object::RelocationResolver Resolver;
  llvm::DenseMap<uint64_t, uint64_t> SectionStart; ///< Placed sections.
  llvm::DenseMap<uintptr_t, SymbolValue> Cache;
  uint64_t Unsupported = 0, OutOfBounds = 0;
  uint64_t FirstUnsupportedType = 0;
};

/// Bytes a relocation of Type writes on Machine (an ELF e_machine); 0 for
/// a type whose width is not known here.
unsigned relocationWidth(uint16_t Machine, uint64_t Type);

/// Whether a relocation of Type on Machine is one whose target is read as
/// written (not applied, and not an unsupported type either).
bool relocationLeftAsWritten(uint16_t Machine, uint64_t Type);

} // namespace input
} // namespace dwarfpack

#endif
