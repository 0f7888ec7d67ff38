//===- FuzzGsym.cpp - The GSYM reader -------------------------------------===//
//
// GsymReader::create, the dump, every function decoded (up to a bound) and
// lookups at, before and after the start of the first functions and at
// addresses taken from the input and the dump.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/GSYM/GsymReader.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  auto R = gsym::GsymReader::create(MemoryBufferRef(Data, "fuzz"));
  if (!R) {
    consumeError(R.takeError());
    return 0;
  }
  const gsym::GsymReader &G = **R;
  AddressPicker Picker;
  Picker.addFromBytes(Data);
  CappedStream OS;
  consumeError(gsym::dumpGsym(G, OS));
  uint32_t N = G.getNumAddresses();
  for (uint32_t I = 0; I < N && I < 16; ++I)
    Picker.addAround(G.getAddress(I));
  Picker.addFromText(OS.Kept);
  keep(lookupAll(G, Picker));
  for (uint32_t I = 0; I < G.getNumFiles() && I < 64; ++I)
    keep(G.getFilePath(I).size());
  for (uint32_t I = 0; I < N && I < 64; ++I) {
    Expected<gsym::DecodedFunction> F = G.decodeFunction(I);
    if (!F) {
      consumeError(F.takeError());
      continue;
    }
    // The decoded path must answer as the lookup path does.
    uint64_t A = F->Entry.Range.Start;
    Expected<LookupResult> In = G.lookupIn(*F, A);
    if (!In)
      consumeError(In.takeError());
    SmallVector<gsym::GsymReader::RawFrame, 8> Frames;
    consumeError(G.lookupFrames(*F, A, Frames));
  }
  return 0;
}
