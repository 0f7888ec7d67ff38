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

Expected<std::unique_ptr<AddressSymbolizer>>
openTable(std::unique_ptr<MemoryBuffer> Buffer) {
  auto R = openSymbolTable(std::move(Buffer), readerOptions());
  if (!R)
    return R.takeError();
  return std::unique_ptr<AddressSymbolizer>(std::move(*R));
}

Error dumpTable(MemoryBufferRef Buffer, raw_ostream &OS) {
  auto R = openSymbolTable(MemoryBuffer::getMemBuffer(Buffer, false),
                           readerOptions());
  if (!R)
    return R.takeError();
  return (*R)->dump(OS);
}

bool identifyCompact(StringRef Contents) { return isCompact(Contents); }
bool identifyKsymBlob(StringRef Contents) { return isKsymBlob(Contents); }

const FormatHandler CompactHandler = {"kernel symbol table", identifyCompact,
                                      openTable, dumpTable};
const FormatHandler KsymBlobHandler = {"ksym-blob", identifyKsymBlob, openTable,
                                       dumpTable};
FormatRegistration RegisterCompact(CompactHandler);
FormatRegistration RegisterKsymBlob(KsymBlobHandler);

} // namespace
