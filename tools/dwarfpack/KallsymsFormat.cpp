//===- KallsymsFormat.cpp - Kernel symbol tables in lookup and dump -------===//
//
// Registers the compact kernel symbol table and the ksym-blob layout so
// `dwarfpack lookup` and `dwarfpack dump` recognise them by content. The
// compact table has a magic; a ksym-blob is recognised by its exact section
// structure, so it is registered after formats with a magic.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include <cstdlib>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::tool;

bool tool::portableReaders() {
  const char *V = std::getenv("DWARFPACK_PORTABLE_READER");
  return V && StringRef(V) == "1";
}

namespace {

ReaderOptions readerOptions() {
  ReaderOptions O;
  O.Portable = portableReaders();
  return O;
}

/// Opens a table of the format it was recognised as (a ksym-blob has no
/// magic number: by its structure).
template <bool Blob>
Expected<std::unique_ptr<SymbolReader>>
openAs(std::unique_ptr<MemoryBuffer> Buffer) {
  if (Blob)
    return openKsymBlob(std::move(Buffer));
  return openCompact(std::move(Buffer), readerOptions());
}

template <bool Blob>
Expected<std::unique_ptr<AddressSymbolizer>>
openTable(std::unique_ptr<MemoryBuffer> Buffer) {
  auto R = openAs<Blob>(std::move(Buffer));
  if (!R)
    return R.takeError();
  return std::unique_ptr<AddressSymbolizer>(std::move(*R));
}

template <bool Blob> Error dumpTable(MemoryBufferRef Buffer, raw_ostream &OS) {
  auto R = openAs<Blob>(MemoryBuffer::getMemBuffer(Buffer, false));
  if (!R)
    return R.takeError();
  return (*R)->dump(OS);
}

bool identifyCompact(StringRef Contents) { return isCompact(Contents); }
bool identifyKsymBlob(StringRef Contents) { return isKsymBlob(Contents); }

const FormatHandler CompactHandler = {"kernel symbol table", identifyCompact,
                                      openTable<false>, dumpTable<false>};
const FormatHandler KsymBlobHandler = {"ksym-blob", identifyKsymBlob,
                                       openTable<true>, dumpTable<true>};
FormatRegistration RegisterCompact(CompactHandler);
FormatRegistration RegisterKsymBlob(KsymBlobHandler);

} // namespace
