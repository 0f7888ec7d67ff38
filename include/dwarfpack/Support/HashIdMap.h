//===- HashIdMap.h - 64-bit hashes to 32-bit ids, with prefetch -*- C++ -*-===//
//
// Merging a kernel's compile units looks each of their 3.6 million types up
// by hash among some 780 thousand merged ones: in a DenseMap, nearly every
// lookup was a cache miss on the merge's critical path. This map is the
// same open addressing (16-byte slots, grown when 3/4 full, so the same
// memory), but a caller that knows its next keys prefetches their slots
// some lookups ahead.
//
// A large table (a vmlinux's is 16 MB) takes pages of its own from the
// system rather than from malloc, and gives them back when freed. Merges
// run on whichever thread is free (runInOrder), so a malloc'd table lives
// in the arena of the thread that last grew it; freed, it stayed resident
// there, unusable by the single-threaded work after the merge, which then
// took new pages: the conversion's peak varied by 15 MB from run to run.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_HASHIDMAP_H
#define DWARFPACK_SUPPORT_HASHIDMAP_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace dwarfpack {

class HashIdMap {
public:
  HashIdMap() = default;
  HashIdMap(const HashIdMap &) = delete;
  HashIdMap &operator=(const HashIdMap &) = delete;
  HashIdMap(HashIdMap &&O) { *this = std::move(O); }
  HashIdMap &operator=(HashIdMap &&O) {
    if (this != &O) {
      clear();
      std::swap(Slots, O.Slots);
      std::swap(Size, O.Size);
      std::swap(Shift, O.Shift);
      std::swap(Count, O.Count);
    }
    return *this;
  }
  ~HashIdMap() { clear(); }

  /// The id kept for Key and false, or, when Key is new, Id (kept for it
  /// from now on) and true. Ids are below UINT32_MAX.
  std::pair<uint32_t, bool> tryEmplace(uint64_t Key, uint32_t Id) {
    assert(Id != UINT32_MAX && "ids are kept plus one, 0 marking empty");
    if ((Count + 1) * 4 > Size * 3)
      grow();
    for (size_t I = home(Key);; I = (I + 1) & (Size - 1)) {
      Slot &S = Slots[I];
      if (!S.IdPlusOne) {
        S = {Key, Id + 1};
        ++Count;
        return {Id, true};
      }
      if (S.Key == Key)
        return {S.IdPlusOne - 1, false};
    }
  }

  /// Starts loading the slot where Key is (or would be) kept.
  void prefetch(uint64_t Key) const {
    if (Size)
      __builtin_prefetch(&Slots[home(Key)]);
  }

  size_t size() const { return Count; }

  /// Forgets every key and frees the slots.
  void clear();

private:
  /// All-zero bytes are an empty slot: fresh pages need no initializing.
  struct Slot {
    uint64_t Key;
    uint32_t IdPlusOne;
  };

  /// Fibonacci hashing: the top bits of the key times 2^64 / phi, so keys
  /// that differ only in high or only in low bits still spread.
  size_t home(uint64_t Key) const {
    return size_t((Key * 0x9e3779b97f4a7c15ULL) >> Shift);
  }

  void grow();
  static Slot *allocate(size_t N);
  static void release(Slot *P, size_t N);

  Slot *Slots = nullptr;
  size_t Size = 0;
  unsigned Shift = 64;
  size_t Count = 0;
};

} // namespace dwarfpack

#endif
