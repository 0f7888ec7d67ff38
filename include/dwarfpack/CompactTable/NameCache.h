//===- NameCache.h - Names a frame buffer has expanded, by offset ---------===//
//
// A lookup needs the expanded names of its frames, and most of them were
// expanded by an earlier lookup: the cache keeps them by name-entry offset.
// It is an open-addressing table of 32-byte slots, two to a cache line,
// so that a lookup can prefetch the slot of a name as soon as its record
// names it and find it in cache when the frames are made (with a DenseMap
// the slot was a cache miss on the lookup's critical path).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_COMPACTTABLE_NAMECACHE_H
#define DWARFPACK_COMPACTTABLE_NAMECACHE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace dwarfpack {
namespace compact {

class NameCache {
public:
  /// A name entry expanded, with the details that follow it.
  struct Name {
    llvm::StringRef Text, Short;
    uint32_t DeclFile = 0, DeclLine = 0;
    bool HasShort = false;
  };

  /// Starts loading the slot where Offset is (or would be) kept.
  void prefetch(uint32_t Offset) const {
    if (!Slots.empty())
      __builtin_prefetch(&Slots[home(Offset)]);
  }

  /// Starts loading the text of the name kept for Offset, if it is kept:
  /// a second stage after prefetch(), once the slot has arrived.
  void prefetchText(uint32_t Offset) const {
    Name N;
    if (find(Offset, N))
      __builtin_prefetch(N.Text.data());
  }

  /// The name kept for Offset, if any.
  bool find(uint32_t Offset, Name &Out) const {
    if (Slots.empty() || Offset == Empty)
      return false;
    for (size_t I = home(Offset);; I = (I + 1) & (Slots.size() - 1)) {
      const Slot &S = Slots[I];
      if (S.Offset == Offset) {
        Out = S.get();
        return true;
      }
      if (S.Offset == Empty)
        return false;
    }
  }

  /// Keeps N for Offset, which find() does not know. Name and short name
  /// must lie one after the other (N.Short starting where N.Text ends) in
  /// storage that outlives the cache's contents.
  void insert(uint32_t Offset, const Name &N);

  size_t size() const { return Count; }
  void clear();

private:
  static constexpr uint32_t Empty = UINT32_MAX;
  struct alignas(32) Slot {
    const char *Text = nullptr; ///< The name, then the short name.
    uint32_t Offset = Empty;
    uint32_t NameSize = 0, ShortSize = 0;
    uint32_t DeclFile = 0, DeclLine = 0;
    bool HasShort = false;
    Name get() const {
      return {llvm::StringRef(Text, NameSize),
              llvm::StringRef(Text + NameSize, ShortSize), DeclFile, DeclLine,
              HasShort};
    }
  };
  static_assert(sizeof(Slot) == 32, "two slots to a cache line");

  /// Fibonacci hashing: name offsets are spread over the table's top bits.
  size_t home(uint32_t Offset) const {
    return size_t((uint64_t(Offset) * 0x9E3779B97F4A7C15ull) >> Shift);
  }
  void grow();

  std::vector<Slot> Slots; ///< A power of two, at most half full.
  unsigned Shift = 64;
  size_t Count = 0;
};

} // namespace compact
} // namespace dwarfpack

#endif // DWARFPACK_COMPACTTABLE_NAMECACHE_H
