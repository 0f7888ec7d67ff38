//===- RelocatableLayout.h - Addresses for relocatable objects --*- C++ -*-===//
//
// Relocatable objects (.o, .ko) have no addresses: every section starts at
// 0. dwarfpack lays their executable sections out one after another, and
// the converter and the verifier must agree on where.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_RELOCATABLELAYOUT_H
#define DWARFPACK_SUPPORT_RELOCATABLELAYOUT_H

#include "llvm/DebugInfo/DIContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace dwarfpack {

struct PlacedSection {
  uint64_t Index; ///< ELF section index (SectionRef::getIndex())
  uint64_t Start, Size;
};

/// The executable sections of a relocatable object (SHF_ALLOC and
/// SHF_EXECINSTR, not empty) in section-header order, each placed after the
/// previous one from address 0 and aligned to its sh_addralign.
std::vector<PlacedSection>
relocatableLayout(const llvm::object::ObjectFile &Obj);

/// Load addresses of that layout, for DWARFContext::create: relocations
/// then resolve to the addresses the converter gives (which LLVM's queries
/// without a section index cannot tell apart otherwise).
std::unique_ptr<llvm::LoadedObjectInfo>
relocatableLoadInfo(const llvm::object::ObjectFile &Obj);

/// A copy of a relocatable object whose .debug_aranges is renamed out of
/// DWARFContext's sight, or nullptr when it has none: LLVM does not
/// relocate that section, so all its ranges would start at 0 and hide the
/// units' own (relocated) ranges from address queries.
std::unique_ptr<llvm::MemoryBuffer>
withoutAranges(const llvm::object::ObjectFile &Obj);

} // namespace dwarfpack

#endif
