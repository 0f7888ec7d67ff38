//===- NameCache.cpp - Names a frame buffer has expanded, by offset -------===//

#include "dwarfpack/CompactTable/NameCache.h"

#include <cassert>

namespace dwarfpack {
namespace compact {

void NameCache::insert(uint32_t Offset, const Name &N) {
  assert(Offset != Empty && "name offsets are below the list's size");
  assert(N.Short.empty() || N.Short.data() == N.Text.data() + N.Text.size());
  if ((Count + 1) * 2 > Slots.size())
    grow();
  size_t I = home(Offset);
  while (Slots[I].Offset != Empty) {
    assert(Slots[I].Offset != Offset && "inserted twice");
    I = (I + 1) & (Slots.size() - 1);
  }
  Slot &S = Slots[I];
  S.Text = N.Text.data();
  S.Offset = Offset;
  S.NameSize = uint32_t(N.Text.size());
  S.ShortSize = uint32_t(N.Short.size());
  S.DeclFile = N.DeclFile;
  S.DeclLine = N.DeclLine;
  S.HasShort = N.HasShort;
  ++Count;
}

void NameCache::grow() {
  std::vector<Slot> Old = std::move(Slots);
  const size_t Size = Old.empty() ? 1024 : Old.size() * 2;
  Slots.assign(Size, Slot());
  Shift = 64;
  for (size_t S = Size; S > 1; S >>= 1)
    --Shift;
  Count = 0;
  for (const Slot &S : Old)
    if (S.Offset != Empty)
      insert(S.Offset, S.get());
}

void NameCache::clear() {
  // The slots stay allocated: the next reader's names fill them again.
  Slots.assign(Slots.size(), Slot());
  Count = 0;
}

} // namespace compact
} // namespace dwarfpack
