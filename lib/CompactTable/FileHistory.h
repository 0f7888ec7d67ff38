//===- FileHistory.h - Recent file contexts of a line table -*- C++ -*-===//
//
// The state the writer and the reader of a compact line table share (see
// docs/CompactTable.md, "Records"): the recent (file, last line)
// contexts, most recent first, at most Capacity of them (a file may have
// several: a caller's line and an inlined callee's). Rows switch to an
// earlier context by its index, and a long row leaves a copy of the
// current context behind it.
//
// Both sides change the history at almost every long row, so it is a ring:
// adding a context in front moves nothing, and the oldest one falls out of
// a full history by being overwritten.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_COMPACTTABLE_FILEHISTORY_H
#define DWARFPACK_LIB_COMPACTTABLE_FILEHISTORY_H

#include <algorithm>
#include <cstdint>

namespace dwarfpack {
namespace compact {

class FileHistory {
public:
  static constexpr unsigned Capacity = 32;

  unsigned size() const { return Size; }
  uint32_t file(unsigned I) const { return uint32_t(at(I) >> 32); }
  uint32_t line(unsigned I) const { return uint32_t(at(I)); }

  /// The history of a table's first row.
  void start(uint32_t File, uint32_t Line) {
    Head = 0;
    Ring[0] = entry(File, Line);
    Size = 1;
  }
  /// The front context's line becomes Line.
  void setLine(uint32_t Line) {
    uint64_t &E = at(0);
    E = (E & ~uint64_t(UINT32_MAX)) | Line;
  }
  /// A new context in front.
  void add(uint32_t File, uint32_t Line) { addEntry(entry(File, Line)); }
  /// Before a long row: the front context is copied behind itself.
  void push() { addEntry(at(0)); }
  /// Moves context Index (< size()) to the front; returns its line.
  uint32_t select(unsigned Index) {
    const uint64_t E = at(Index);
    for (unsigned I = Index; I > 0; --I)
      at(I) = at(I - 1);
    at(0) = E;
    return uint32_t(E);
  }

private:
  static_assert((Capacity & (Capacity - 1)) == 0, "a ring of 2^k entries");
  static constexpr unsigned Mask = Capacity - 1;

  static uint64_t entry(uint32_t File, uint32_t Line) {
    return uint64_t(File) << 32 | Line;
  }
  uint64_t &at(unsigned I) { return Ring[(Head + I) & Mask]; }
  uint64_t at(unsigned I) const { return Ring[(Head + I) & Mask]; }
  /// In a full history, the new entry takes the slot of the oldest.
  void addEntry(uint64_t E) {
    Head = (Head - 1) & Mask;
    Ring[Head] = E;
    Size = std::min(Size + 1, Capacity);
  }

  uint64_t Ring[Capacity];
  unsigned Head = 0, Size = 0;
};

} // namespace compact
} // namespace dwarfpack

#endif
