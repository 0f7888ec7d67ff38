//===- DieChildren.h - A DIE's children, in damaged units too -*- C++ -*-===//

#ifndef DWARFPACK_SUPPORT_DIECHILDREN_H
#define DWARFPACK_SUPPORT_DIECHILDREN_H

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

#include <cstdint>
#include <optional>

namespace dwarfpack {

/// The children of an LLVM DIE, found by the parent index of each DIE
/// after it. llvm::DWARFDie::children() follows sibling indexes, which in a
/// unit whose DIEs stop inside a nested DIE's children (corrupt DWARF: LLVM
/// stops reading at an unknown abbreviation) lead past the unit's DIE array
/// or to an invalid DIE; this walk never leaves the array. Same children,
/// in the same order, for well-formed units.
class DieChildren {
public:
  class Iterator {
  public:
    Iterator(llvm::DWARFUnit *U, uint32_t Parent, uint32_t I)
        : U(U), N(U ? U->getNumDIEs() : 0), Parent(Parent), I(I) {
      settle();
    }
    llvm::DWARFDie operator*() const { return U->getDIEAtIndex(I); }
    Iterator &operator++() {
      ++I;
      settle();
      return *this;
    }
    bool operator!=(const Iterator &O) const { return I != O.I; }

  private:
    /// Moves to the next child of Parent at or after I, or to End.
    void settle() {
      for (; I < N; ++I) {
        llvm::DWARFDie C = U->getDIEAtIndex(I);
        std::optional<uint32_t> P = C.getDebugInfoEntry()->getParentIdx();
        if (!P || *P < Parent)
          break; // past Parent's subtree
        if (*P != Parent)
          continue; // a grandchild
        if (C.getTag() == llvm::dwarf::DW_TAG_null)
          break; // Parent's end of children
        return;
      }
      I = End;
    }
    llvm::DWARFUnit *U;
    uint32_t N, Parent, I;
  };
  static constexpr uint32_t End = UINT32_MAX;

  explicit DieChildren(const llvm::DWARFDie &D) : D(D) {}
  Iterator begin() const {
    if (!D.isValid() || !D.hasChildren())
      return end();
    llvm::DWARFUnit *U = D.getDwarfUnit();
    uint32_t Idx = U->getDIEIndex(D);
    return Iterator(U, Idx, Idx + 1);
  }
  Iterator end() const { return Iterator(nullptr, 0, End); }

private:
  llvm::DWARFDie D;
};

} // namespace dwarfpack

#endif
