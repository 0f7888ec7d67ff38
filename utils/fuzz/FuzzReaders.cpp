//===- FuzzReaders.cpp - Every format `dwarfpack dump`/`lookup` accept ----===//
//
// The input goes through the tool's own path (dwarfpack/Symbolize/
// OpenTable.h): identifyFormat picks the format by content, then its Dump
// (into a capped stream) and its Open followed by lookups of addresses taken
// from the input and from the dump. Kernel symbol tables are opened twice,
// on the vector and the portable reader paths. Every
// input is also read as a /sys notes file (lookup --build-ids-from), whose
// build-id must lie inside it.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Symbolize/OpenTable.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

static void openAndLookup(const FileFormat &F, StringRef Data,
                          const AddressPicker &Picker, bool Portable) {
  OpenOptions Opts;
  Opts.PortableReaders = Portable;
  // Open owns its buffer: a copy, so reads past the input's end are caught.
  auto Sym = F.Open(MemoryBuffer::getMemBufferCopy(Data, "fuzz"), Opts);
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
  const FileFormat *F = identifyFormat(Data);
  if (!F)
    return 0;
  AddressPicker Picker;
  Picker.addFromBytes(Data);
  CappedStream OS;
  Error E = F->Dump(MemoryBufferRef(Data, "fuzz"), OS, OpenOptions());
  consumeError(std::move(E));
  Picker.addFromText(OS.Kept);
  if (!F->hasAddresses())
    return 0;
  openAndLookup(*F, Data, Picker, /*Portable=*/false);
  if (F->ID == FileFormat::Kind::KernelSymbolTable ||
      F->ID == FileFormat::Kind::KsymBlob)
    openAndLookup(*F, Data, Picker, /*Portable=*/true);
  return 0;
}
