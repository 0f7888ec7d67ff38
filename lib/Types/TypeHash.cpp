//===- TypeHash.cpp - Structural hashing of types -------------------------===//

#include "dwarfpack/Types/TypeHash.h"

namespace dwarfpack {
namespace types {

uint64_t mix(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  H *= 0xff51afd7ed558ccdULL;
  H ^= H >> 33;
  return H;
}

uint64_t hashString(llvm::StringRef S) {
  uint64_t H = 0xcbf29ce484222325ULL;
  for (unsigned char C : S)
    H = (H ^ C) * 0x100000001b3ULL;
  return mix(H, S.size());
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
