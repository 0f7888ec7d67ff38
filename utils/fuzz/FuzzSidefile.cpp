//===- FuzzSidefile.cpp - Damaged .dwo and dwz files beside a good binary -===//
//
// The input is the side file of a fixed binary: a split-DWARF .dwo or .dwp
// package, or a dwz supplementary file. Each run puts it where the binary's
// loaders look (DWARFPACK_FUZZ_SIDE) and takes the binary
// (DWARFPACK_FUZZ_MAIN) through ConvertPipeline.h, so the loaders of side
// files, which open them by path, meet the damage. utils/fuzz/run.sh builds
// the pairs (targets dwo, dwp, dwp4, dwz).
//
// With DWARFPACK_FUZZ_PAIR=1 the input carries the binary too, as a pair
// (FuzzCommon.h: the binary, then its side file), and both are damaged
// (mutateElfPair). The binary is read from the input under the name
// DWARFPACK_FUZZ_MAIN (the loaders look beside it and where its DWARF
// says), the side file written as above (targets dwo-pair, dwp-pair,
// dwp4-pair, dwz-pair).
//
//===----------------------------------------------------------------------===//

#include "ConvertPipeline.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace dwarfpack::fuzz;

static std::unique_ptr<MemoryBuffer> MainFile;
static std::string MainPath, SidePath;
static bool PairMode = false;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *Main = std::getenv("DWARFPACK_FUZZ_MAIN");
  const char *Side = std::getenv("DWARFPACK_FUZZ_SIDE");
  if (!Main || !Side) {
    std::fprintf(stderr, "fuzz-sidefile: set DWARFPACK_FUZZ_MAIN (the "
                         "binary) and DWARFPACK_FUZZ_SIDE (its side file)\n");
    std::exit(2);
  }
  MainPath = Main;
  SidePath = Side;
  if (const char *Pair = std::getenv("DWARFPACK_FUZZ_PAIR"))
    PairMode = StringRef(Pair) == "1";
  if (PairMode)
    return 0;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Main);
  if (!B) {
    std::fprintf(stderr, "fuzz-sidefile: %s: %s\n", Main,
                 B.getError().message().c_str());
    std::exit(2);
  }
  MainFile = std::move(*B);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  return PairMode ? mutateElfPair(Data, Size, MaxSize, Seed)
                  : mutateElf(Data, Size, MaxSize, Seed);
}

/// Puts Bytes where the loaders look for the side file.
static void writeSideFile(StringRef Bytes) {
  // A new file each time (written beside, then renamed over the old one):
  // the previous run's mapping of the old one, if any, stays valid.
  std::string Temp = SidePath + ".new";
  {
    std::error_code EC;
    raw_fd_ostream OS(Temp, EC);
    if (EC)
      fail("cannot write " + Temp + ": " + EC.message());
    OS << Bytes;
  }
  if (std::error_code EC = sys::fs::rename(Temp, SidePath))
    fail("cannot rename " + Temp + ": " + EC.message());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  if (!PairMode) {
    writeSideFile(Data);
    convertAll(MainFile->getMemBufferRef());
    return 0;
  }
  std::optional<std::pair<StringRef, StringRef>> P = splitPair(Data);
  if (!P)
    return 0;
  writeSideFile(P->second);
  OwnedBytes Main(P->first);
  convertAll(MemoryBufferRef(Main.str(), MainPath));
  return 0;
}
