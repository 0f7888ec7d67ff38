//===- KsymBlobLayout.h - Section offsets of a ksym-blob ------------------===//
//
// Private to lib/Kallsyms. The layout has no magic or header beyond
// num_syms, so its section offsets follow from the sizes; docs/Kallsyms.md.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_KALLSYMS_KSYMBLOBLAYOUT_H
#define DWARFPACK_LIB_KALLSYMS_KSYMBLOBLAYOUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace dwarfpack {
namespace kallsyms {
namespace ksymblob {

constexpr uint8_t TokenMarker = 0xFF;
/// Ids with a low byte of 0xFF would be ambiguous in the two-byte form.
constexpr uint32_t MaxTokens = 511;

struct Layout {
  uint64_t NumSyms = 0;
  uint64_t Addresses = 0, Offsets = 0, Seqs = 0;
  uint64_t NamesLen = 0, Names = 0;
  uint64_t TokenTableLen = 0, TokenTable = 0;
  uint64_t TokenIndexLen = 0, TokenIndex = 0;
  uint64_t End = 0;
};

/// Computes the layout of Bytes; the error gives the offending offset.
inline llvm::Expected<Layout> computeLayout(llvm::StringRef Bytes) {
  using llvm::support::endian::read64le;
  auto Fail = [&](uint64_t Off, const llvm::Twine &What) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "corrupt ksym-blob at offset " +
                                       llvm::Twine(Off) + ": " + What);
  };
  uint64_t Size = Bytes.size();
  const uint8_t *P = Bytes.bytes_begin();
  Layout L;
  if (Size < 8)
    return Fail(0, "truncated num_syms");
  L.NumSyms = read64le(P);
  if (L.NumSyms == 0 || L.NumSyms > Size / 16)
    return Fail(0, "num_syms " + llvm::Twine(L.NumSyms) +
                       " does not fit the file");
  L.Addresses = 8;
  L.Offsets = L.Addresses + 8 * L.NumSyms;
  L.Seqs = L.Offsets + 4 * L.NumSyms;
  uint64_t Pos = llvm::alignTo(L.Seqs + 4 * L.NumSyms, 8);
  if (Pos + 8 > Size)
    return Fail(Pos, "truncated names_len");
  L.NamesLen = read64le(P + Pos);
  L.Names = Pos + 8;
  if (L.NamesLen > Size - L.Names)
    return Fail(Pos,
                "names_len " + llvm::Twine(L.NamesLen) + " runs past the end");
  Pos = llvm::alignTo(L.Names + L.NamesLen, 8);
  if (Pos + 8 > Size)
    return Fail(Pos, "truncated token_table_len");
  L.TokenTableLen = read64le(P + Pos);
  L.TokenTable = Pos + 8;
  if (L.TokenTableLen > Size - L.TokenTable)
    return Fail(Pos, "token_table_len runs past the end");
  Pos = llvm::alignTo(L.TokenTable + L.TokenTableLen, 8);
  if (Pos + 8 > Size)
    return Fail(Pos, "truncated token_index_len");
  L.TokenIndexLen = read64le(P + Pos);
  L.TokenIndex = Pos + 8;
  if (L.TokenIndexLen > (Size - L.TokenIndex) / 4)
    return Fail(Pos, "token_index_len runs past the end");
  L.End = L.TokenIndex + 4 * L.TokenIndexLen;
  if (L.End != Size)
    return Fail(L.End, llvm::Twine(Size - L.End) +
                           " unexpected bytes after the token index");
  return L;
}

} // namespace ksymblob
} // namespace kallsyms
} // namespace dwarfpack

#endif
