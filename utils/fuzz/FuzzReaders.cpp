//===- FuzzReaders.cpp - Every format `dwarfpack dump`/`lookup` accept ----===//
//
// The input goes through the tool's own path: identifyFormat picks the
// handler by content, then its Dump (into a capped stream) and its Open
// followed by lookups of addresses taken from the input and from the dump.
// Kernel symbol tables are opened twice, on the vector and the portable
// reader paths (DWARFPACK_PORTABLE_READER, as the tool reads it). Every
// input is also read as a /sys notes file (lookup --build-ids-from), whose
// build-id must lie inside it.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "FormatRegistry.h"

#include "dwarfpack/Support/BuildId.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

static void openAndLookup(const tool::FormatHandler &H, StringRef Data,
                          const AddressPicker &Picker) {
  // Open owns its buffer: a copy, so reads past the input's end are caught.
  auto Sym = H.Open(MemoryBuffer::getMemBufferCopy(Data, "fuzz"));
  if (!Sym) {
    consumeError(Sym.takeError());
    return;
  }
  keep(lookupAll(**Sym, Picker));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  Expected<ArrayRef<uint8_t>> Id = gnuBuildIdFromNotes(ArrayRef(Bytes, Size));
  if (!Id)
    consumeError(Id.takeError());
  else if (!Id->empty() &&
           (Id->data() < Bytes || Id->data() + Id->size() > Bytes + Size))
    fail("a build-id outside its notes");
  const tool::FormatHandler *H = tool::identifyFormat(Data);
  if (!H)
    return 0;
  AddressPicker Picker;
  Picker.addFromBytes(Data);
  if (H->Dump) {
    CappedStream OS;
    Error E = H->Dump(MemoryBufferRef(Data, "fuzz"), OS);
    consumeError(std::move(E));
    Picker.addFromText(OS.Kept);
  }
  if (!H->Open)
    return 0;
  bool Kernel = std::strcmp(H->Name, "kernel symbol table") == 0 ||
                std::strcmp(H->Name, "ksym-blob") == 0;
  unsetenv("DWARFPACK_PORTABLE_READER");
  openAndLookup(*H, Data, Picker);
  if (Kernel) {
    setenv("DWARFPACK_PORTABLE_READER", "1", 1);
    openAndLookup(*H, Data, Picker);
    unsetenv("DWARFPACK_PORTABLE_READER");
  }
  return 0;
}
