//===- TypeHash.h - Structural hashing of types ---------------------------===//
//
// Hashes shared by in-object deduplication (lib/Types) and cross-module
// deduplication (lib/CtfKernel). A hash only proposes that two types are the
// same; both users verify every proposal exactly.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_TYPEHASH_H
#define DWARFPACK_TYPES_TYPEHASH_H

#include "dwarfpack/Types/TypeModel.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace dwarfpack {
namespace types {

/// What mix(H, V) adds to V, which depends on H alone: the neighbour-hashing
/// rounds compute it once per type.
inline uint64_t mixAddend(uint64_t H) {
  return 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
}
/// mix(H, V), given mixAddend(H) + V.
inline uint64_t mixSum(uint64_t H, uint64_t AddendPlusV) {
  H ^= AddendPlusV;
  H *= 0xff51afd7ed558ccdULL;
  H ^= H >> 33;
  return H;
}
/// 64-bit multiply-xorshift combiner (deterministic across runs and hosts).
/// Inline: the neighbour-hashing rounds call it hundreds of millions of
/// times on a kernel.
inline uint64_t mix(uint64_t H, uint64_t V) {
  return mixSum(H, V + mixAddend(H));
}

uint64_t hashString(llvm::StringRef S);

/// Everything about a type except the identity of the types it refers to.
uint64_t shallowHash(const Type &T);

/// Whether A and B agree in everything shallowHash() covers (names by
/// their bytes): what verifies a match of hashes, with the references.
bool sameShallow(const Type &A, const Type &B);

/// Struct, union and enum: the kinds that live in C's tag namespace.
inline bool isTagged(TypeKind K) {
  return K == TypeKind::Struct || K == TypeKind::Union || K == TypeKind::Enum;
}

} // namespace types
} // namespace dwarfpack

#endif
