//===- DenseKeys.h - Integers from input as DenseMap keys -------*- C++ -*-===//
//
// DenseMap<uint64_t, V> and DenseSet<uint64_t> mark empty and deleted slots
// with the keys ~0 and ~0 - 1: inserting or finding either is undefined (an
// assertion where assertions are on; without them, a slot whose value was
// never constructed). Addresses, section indices, DIE offsets and type
// signatures read from a file can take any value, so maps keyed by them
// leave these two out.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_DENSEKEYS_H
#define DWARFPACK_SUPPORT_DENSEKEYS_H

#include <cstdint>

namespace dwarfpack {

/// Whether K may be a key of a DenseMap or DenseSet of uint64_t.
inline bool isDenseKey(uint64_t K) { return K < UINT64_MAX - 1; }

} // namespace dwarfpack

#endif
