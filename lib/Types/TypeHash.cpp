//===- TypeHash.cpp - Structural hashing of types -------------------------===//

#include "dwarfpack/Types/TypeHash.h"

#include "llvm/Support/xxhash.h"

namespace dwarfpack {
namespace types {

uint64_t hashString(llvm::StringRef S) {
  return mix(llvm::xxh3_64bits(S), S.size());
}

uint64_t shallowHash(const Type &T) {
  uint64_t H = mix(uint64_t(T.Kind) + 1, T.Encoding);
  H = mix(H, T.Varargs);
  H = mix(H, hashString(T.Name));
  H = mix(H, T.Size);
  H = mix(H, T.NumElems);
  H = mix(H, T.Bits);
  H = mix(H, T.BitOffset);
  H = mix(H, T.Params.size());
  H = mix(H, T.Members.size());
  for (const Member &M : T.Members) {
    H = mix(H, hashString(M.Name));
    H = mix(H, M.BitOffset);
  }
  H = mix(H, T.Enumerators.size());
  for (const Enumerator &E : T.Enumerators) {
    H = mix(H, hashString(E.Name));
    H = mix(H, uint64_t(E.Value));
  }
  return H;
}

} // namespace types
} // namespace dwarfpack
