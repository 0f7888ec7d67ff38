//===- HashIdMap.h - 64-bit hashes to 32-bit ids, with prefetch -*- C++ -*-===//
//
// Merging a kernel's compile units looks each of their 3.6 million types up
// by hash among some 780 thousand merged ones: in a DenseMap, nearly every
// lookup was a cache miss on the merge's critical path. This map is the
// same open addressing (16-byte slots, grown when 3/4 full, so the same
// memory), but a caller that knows its next keys prefetches their slots
// some lookups ahead.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_HASHIDMAP_H
#define DWARFPACK_SUPPORT_HASHIDMAP_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dwarfpack {

class HashIdMap {
public:
  /// The id kept for Key and false, or, when Key is new, Id (kept for it
  /// from now on) and true. Ids are below UINT32_MAX.
  std::pair<uint32_t, bool> tryEmplace(uint64_t Key, uint32_t Id) {
    assert(Id != Empty && "the largest id marks empty slots");
    if ((Count + 1) * 4 > Slots.size() * 3)
      grow();
    for (size_t I = home(Key);; I = (I + 1) & (Slots.size() - 1)) {
      Slot &S = Slots[I];
      if (S.Id == Empty) {
        S = {Key, Id};
        ++Count;
        return {Id, true};
      }
      if (S.Key == Key)
        return {S.Id, false};
    }
  }

  /// Starts loading the slot where Key is (or would be) kept.
  void prefetch(uint64_t Key) const {
    if (!Slots.empty())
      __builtin_prefetch(&Slots[home(Key)]);
  }

  size_t size() const { return Count; }

  /// Forgets every key and frees the slots.
  void clear() {
    Slots = std::vector<Slot>();
    Count = 0;
    Shift = 64;
  }

private:
  static constexpr uint32_t Empty = UINT32_MAX;
  struct Slot {
    uint64_t Key = 0;
    uint32_t Id = Empty;
  };

  /// Fibonacci hashing: the top bits of the key times 2^64 / phi, so keys
  /// that differ only in high or only in low bits still spread.
  size_t home(uint64_t Key) const {
    return size_t((Key * 0x9e3779b97f4a7c15ULL) >> Shift);
  }

  void grow() {
    std::vector<Slot> Old = std::move(Slots);
    size_t Size = Old.empty() ? 64 : Old.size() * 2;
    Slots.assign(Size, Slot());
    Shift = 64;
    for (size_t S = Size; S > 1; S >>= 1)
      --Shift;
    for (const Slot &S : Old)
      if (S.Id != Empty)
        for (size_t I = home(S.Key);; I = (I + 1) & (Size - 1))
          if (Slots[I].Id == Empty) {
            Slots[I] = S;
            break;
          }
  }

  std::vector<Slot> Slots;
  unsigned Shift = 64;
  size_t Count = 0;
};

} // namespace dwarfpack

#endif
