//===- FuzzCtf.cpp - The CTF dict and archive reader ----------------------===//
//
// ctf::dump over a dict or an archive (every type record, string and
// symbol section), and DictReader::open with every accessor.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/CTF/CtfReader.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  {
    CappedStream OS;
    consumeError(ctf::dump(Data, OS));
  }
  auto D = ctf::DictReader::open(Data);
  if (!D) {
    consumeError(D.takeError());
    return 0;
  }
  uint64_t Sum = 0;
  for (uint32_t Id = 1; Id <= D->numTypes() && Id <= 4096; ++Id) {
    ctf::DictReader::TypeRecord T = D->type(Id);
    Sum += T.Info + T.Size + T.Ref + T.Vlen.size() + D->string(T.Name).size();
  }
  for (const auto &P : D->dataObjects())
    Sum += P.first + P.second;
  for (const auto &P : D->functions())
    Sum += P.first + P.second;
  for (const auto &P : D->variables())
    Sum += D->string(P.first).size() + P.second;
  keep(Sum);
  return 0;
}
