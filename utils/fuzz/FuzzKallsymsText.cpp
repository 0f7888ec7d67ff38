//===- FuzzKallsymsText.cpp - Kallsyms text in, both tables out and back --===//
//
// The first byte picks the parse options (all types, demangling, an end
// address); the rest is /proc/kallsyms, System.map or nm text. What parses
// is written by both writers, and each table is read back on every reader
// path and must give back the symbols: the same count, and for each index
// the address, type, name and module (ksym-blob: no module) parsed.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;
using namespace dwarfpack::kallsyms;

namespace {

void checkTable(const SymbolList &List, StringRef Table, bool Blob,
                bool Portable) {
  ReaderOptions O;
  O.Portable = Portable;
  auto RO = Blob ? openKsymBlob(MemoryBuffer::getMemBufferCopy(Table, "t"),
                                List.EndAddress)
                 : openCompact(MemoryBuffer::getMemBufferCopy(Table, "t"), O);
  const char *What = Blob       ? "ksym-blob"
                     : Portable ? "compact (portable)"
                                : "compact";
  if (!RO)
    fail(Twine(What) +
         ": a table just written does not open: " + toString(RO.takeError()));
  const SymbolReader &R = **RO;
  if (R.numSymbols() != List.Symbols.size())
    fail(Twine(What) + ": " + Twine(List.Symbols.size()) +
         " symbols written, " + Twine(R.numSymbols()) + " read");
  for (uint32_t I = 0; I < R.numSymbols(); ++I) {
    const KernelSymbol &K = List.Symbols[I];
    Expected<uint64_t> A = R.address(I);
    if (!A)
      fail(Twine(What) + ": address " + Twine(I) + ": " +
           toString(A.takeError()));
    SymbolInfo S;
    if (Error E = R.describe(I, S))
      fail(Twine(What) + ": describe " + Twine(I) + ": " +
           toString(std::move(E)));
    if (*A != K.Address || S.Type != K.Type || S.Name != K.Name ||
        (!Blob && S.Module != K.Module))
      fail(Twine(What) + ": symbol " + Twine(I) + " written as " +
           utohexstr(K.Address) + " " + Twine(K.Type) + " '" + K.Name + "' [" +
           K.Module + "], read as " + utohexstr(*A) + " " + Twine(S.Type) +
           " '" + S.Name + "' [" + S.Module + "]");
    // Only the first symbols: lookups cost a search each.
    if (I >= 32)
      continue;
    auto ByAddr = R.lookupAddress(K.Address);
    if (!ByAddr)
      fail(Twine(What) + ": lookup of " + utohexstr(K.Address) + ": " +
           toString(ByAddr.takeError()));
    // An end address at the last symbol leaves it empty: not found.
    bool Empty = List.EndAddress && *List.EndAddress <= K.Address;
    if (!Empty && (!*ByAddr || (*ByAddr)->Address != K.Address))
      fail(Twine(What) + ": lookup of " + utohexstr(K.Address) +
           " does not find a symbol there");
    auto ByName = R.lookupName(K.Name);
    if (!ByName)
      fail(Twine(What) + ": lookup of '" + K.Name +
           "': " + toString(ByName.takeError()));
    bool Found = false;
    for (const SymbolInfo &F : *ByName)
      Found |= F.Index == I || (F.Address == K.Address && F.Name == K.Name);
    if (!Found)
      fail(Twine(What) + ": lookup of '" + K.Name + "' misses symbol " +
           Twine(I));
  }
  CappedStream OS;
  if (Error E = R.dump(OS))
    fail(Twine(What) + ": dump: " + toString(std::move(E)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t Flags = Bytes[0];
  StringRef Text(reinterpret_cast<const char *>(Bytes) + 1, Size - 1);
  ParseOptions PO;
  PO.AllTypes = Flags & 1;
  PO.Demangle = Flags & 2;
  PO.MaxLineLength = 4096;
  SymbolList List;
  WarningLog Log;
  if (Error E = parseSymbolList(Text, "fuzz", PO, List, &Log)) {
    consumeError(std::move(E));
    return 0;
  }
  if ((Flags & 4) && !List.Symbols.empty())
    List.EndAddress = List.Symbols.back().Address + (Flags >> 3);
  std::string Table;
  if (Error E = writeCompact(List, Table)) {
    consumeError(std::move(E));
  } else {
    if (!isCompact(Table))
      fail("a compact table without its magic");
    checkTable(List, Table, /*Blob=*/false, /*Portable=*/false);
    checkTable(List, Table, /*Blob=*/false, /*Portable=*/true);
  }
  Table.clear();
  if (Error E = writeKsymBlob(List, Table)) {
    consumeError(std::move(E));
    return 0;
  }
  checkTable(List, Table, /*Blob=*/true, /*Portable=*/false);
  return 0;
}
