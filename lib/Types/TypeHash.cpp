//===- TypeHash.cpp - Structural hashing of types -------------------------===//

#include "dwarfpack/Types/TypeHash.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

namespace dwarfpack {
namespace types {

namespace {
/// V scrambled with the constant K: for independent terms that are summed
/// (see shallowHash()).
inline uint64_t term(uint64_t V, uint64_t K) {
  uint64_t T = (V ^ K) * 0xff51afd7ed558ccdULL;
  return T ^ (T >> 29);
}
} // namespace

uint64_t hashString(llvm::StringRef S) {
  // Most names are short: their bytes are read in two overlapping loads
  // that together cover them (as xxh3 reads short inputs) and mixed with
  // the length, which makes the two words determine the string. A call
  // into xxh3 cost more than the mixing for each of a kernel's ~30 million
  // member names.
  using namespace llvm::support::endian;
  size_t N = S.size();
  const char *P = S.data();
  uint64_t A, B;
  if (N > 16)
    return mix(llvm::xxh3_64bits(S), N);
  if (N >= 8) {
    A = read64le(P);
    B = read64le(P + N - 8);
  } else if (N >= 4) {
    A = read32le(P);
    B = read32le(P + N - 4);
  } else if (N > 0) {
    A = uint8_t(P[0]) | uint64_t(uint8_t(P[N / 2])) << 8 |
        uint64_t(uint8_t(P[N - 1])) << 16;
    B = 0;
  } else {
    A = B = 0;
  }
  return mix(mix(0x243f6a8885a308d3ULL + N, A), B);
}

uint64_t shallowHash(const Type &T) {
  // The fields and each member are scrambled into independent terms that
  // are summed, rather than chained through mix(): a struct's members then
  // hash in parallel instead of one multiply latency after another. Each
  // term's constant stands for its field or position.
  uint64_t Sum = term(uint64_t(T.Kind) | uint64_t(T.Encoding) << 8 |
                          uint64_t(T.Varargs) << 16 | uint64_t(T.Bits) << 32,
                      0x9e3779b97f4a7c15ULL);
  Sum += term(hashString(T.Name), 0xc2b2ae3d27d4eb4fULL);
  Sum += term(T.Size, 0x165667b19e3779f9ULL);
  Sum += term(T.NumElems, 0x27d4eb2f165667c5ULL);
  Sum += term(uint64_t(T.BitOffset) | uint64_t(T.Params.size()) << 32,
              0x85ebca77c2b2ae63ULL);
  Sum += term(T.Members.size() | uint64_t(T.Enumerators.size()) << 32,
              0x94d049bb133111ebULL);
  uint64_t Pos = 0;
  for (const Member &M : T.Members) {
    Pos += 0xbf58476d1ce4e5b9ULL;
    Sum += mix(hashString(M.Name) ^ Pos, M.BitOffset);
  }
  for (const Enumerator &E : T.Enumerators) {
    Pos += 0xbf58476d1ce4e5b9ULL;
    Sum += mix(hashString(E.Name) ^ Pos, uint64_t(E.Value));
  }
  return mix(Sum, 0x51ed270b);
}

bool sameShallow(const Type &A, const Type &B) {
  if (A.Kind != B.Kind || A.Encoding != B.Encoding || A.Varargs != B.Varargs ||
      A.Size != B.Size || A.NumElems != B.NumElems || A.Bits != B.Bits ||
      A.BitOffset != B.BitOffset || A.Name != B.Name ||
      A.Params.size() != B.Params.size() ||
      A.Members.size() != B.Members.size() ||
      A.Enumerators.size() != B.Enumerators.size())
    return false;
  for (size_t I = 0; I < A.Members.size(); ++I)
    if (A.Members[I].Name != B.Members[I].Name ||
        A.Members[I].BitOffset != B.Members[I].BitOffset)
      return false;
  for (size_t I = 0; I < A.Enumerators.size(); ++I)
    if (A.Enumerators[I].Name != B.Enumerators[I].Name ||
        A.Enumerators[I].Value != B.Enumerators[I].Value)
      return false;
  return true;
}

} // namespace types
} // namespace dwarfpack
