//===- FuzzCompact.cpp - The compact address table reader -----------------===//
//
// CompactReader::create, the dump, the blocks and records it lists, the
// name, path and file lists, lookups at addresses taken from the input
// and the dump, and those numbers as file offsets.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/CompactTable/CompactReader.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  auto R = compact::CompactReader::create(MemoryBufferRef(Data, "fuzz"));
  if (!R) {
    consumeError(R.takeError());
    return 0;
  }
  const compact::CompactReader &C = **R;
  AddressPicker Picker;
  Picker.addFromBytes(Data);
  CappedStream OS;
  consumeError(compact::dumpCompact(C, OS));
  Picker.addFromText(OS.Kept, 40);
  keep(lookupAll(C, Picker));
  // File offsets go through the segments, checked at open.
  for (uint64_t A : Picker.addresses()) {
    Expected<std::optional<uint64_t>> At = C.fileOffsetToAddress(A);
    if (!At)
      consumeError(At.takeError());
    else
      keep(At->value_or(0));
  }
  std::string S;
  for (uint32_t Id = 0; Id < 8; ++Id) {
    consumeError(C.getPath(Id, S));
    consumeError(C.getFilePath(Id, S));
    consumeError(C.getName(Id, S));
  }
  std::vector<compact::FunctionLocation> Locs;
  for (uint32_t B = 0; B < 4; ++B) {
    Locs.clear();
    if (Error E = C.decodeBlock(B, Locs)) {
      consumeError(std::move(E));
      continue;
    }
    for (const compact::FunctionLocation &L : Locs) {
      auto F = C.decodeFunction(L);
      if (!F)
        consumeError(F.takeError());
    }
  }
  return 0;
}
