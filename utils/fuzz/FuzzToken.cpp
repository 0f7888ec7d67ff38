//===- FuzzToken.cpp - The token table (both versions) --------------------===//
//
// TokenTable::create over the input, then every token (fast path checked
// against the length alone), and names read from the bytes after the table
// with readName, expanded and compared.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Token/TokenTable.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;
using namespace dwarfpack::token;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  uint64_t TableSize = 0;
  auto T = TokenTable::create(Data, &TableSize);
  if (!T) {
    consumeError(T.takeError());
    return 0;
  }
  if (TableSize > Data.size())
    fail("token table claims " + Twine(TableSize) + " bytes of " +
         Twine(Data.size()));
  uint64_t Sum = 0;
  uint32_t N = T->numTokens();
  for (uint32_t Id = 0; Id < N && Id < (1u << 14); ++Id) {
    StringRef Tok = T->token(Id);
    if (Tok.size() != T->length(Id))
      fail("token " + Twine(Id) + " has " + Twine(Tok.size()) +
           " bytes, length says " + Twine(T->length(Id)));
    for (char C : Tok)
      Sum += uint8_t(C);
  }
  // Names after the table, as the formats store them.
  const uint8_t *P = Bytes + TableSize, *End = Bytes + Size;
  SmallVector<uint32_t, 16> Ids;
  std::string Name;
  for (unsigned I = 0; I < 64 && P < End; ++I) {
    Ids.clear();
    if (Error E = T->readName(P, End, Ids)) {
      consumeError(std::move(E));
      break;
    }
    Name.clear();
    T->expand(Ids, Name);
    if (T->compare(Ids, Name) != 0)
      fail("a name does not compare equal to its expansion");
    Sum += Name.size();
  }
  keep(Sum);
  return 0;
}
