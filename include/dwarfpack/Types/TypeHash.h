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

/// 64-bit multiply-xorshift combiner (deterministic across runs and hosts).
uint64_t mix(uint64_t H, uint64_t V);

uint64_t hashString(llvm::StringRef S);

/// Everything about a type except the identity of the types it refers to.
uint64_t shallowHash(const Type &T);

/// Struct, union and enum: the kinds that live in C's tag namespace.
inline bool isTagged(TypeKind K) {
  return K == TypeKind::Struct || K == TypeKind::Union || K == TypeKind::Enum;
}

} // namespace types
} // namespace dwarfpack

#endif
