//===- FuzzConvert.cpp - ELF files with DWARF through the pipelines -------===//
//
// The input is an ELF file, as a compiler and linker write it, taken
// through ConvertPipeline.h. With DWARFPACK_FUZZ_PARTNER (an undamaged
// object whose types partly agree with the seeds'), the kernel pipeline
// builds modules from it too, beside the input's.
//
// With DWARFPACK_FUZZ_PAIR=1 the input is a pair of objects (FuzzCommon.h)
// instead, both damaged (mutateElfPair): the first object and its partner
// go through the kernel pipeline only (kernelPair).
//
//===----------------------------------------------------------------------===//

#include "ConvertPipeline.h"

#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace llvm;
using namespace dwarfpack::fuzz;

// A directory that does not exist: the split-DWARF loader looks for .dwo
// and .dwp files beside the input, and must find none.
static constexpr const char *InputName = "/nonexistent-fuzz-dir/input.elf";
static constexpr const char *PartnerName = "/nonexistent-fuzz-dir/partner.o";

static std::unique_ptr<MemoryBuffer> PartnerFile;
static std::optional<MemoryBufferRef> Partner;
static bool PairMode = false;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (const char *Pair = std::getenv("DWARFPACK_FUZZ_PAIR"))
    PairMode = StringRef(Pair) == "1";
  const char *Path = std::getenv("DWARFPACK_FUZZ_PARTNER");
  if (!Path || PairMode)
    return 0;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  if (!B)
    fail(Twine("cannot read the partner ") + Path + ": " +
         B.getError().message());
  PartnerFile = std::move(*B);
  Partner = MemoryBufferRef(PartnerFile->getBuffer(), PartnerName);
  // The kernel pipeline must then succeed wherever pack converts the input.
  if (!packsTypes(*Partner))
    fail(Twine("pack does not convert the types of the partner ") + Path);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  return PairMode ? mutateElfPair(Data, Size, MaxSize, Seed)
                  : mutateElf(Data, Size, MaxSize, Seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  if (!PairMode) {
    convertAll(MemoryBufferRef(Data, InputName), Partner);
    return 0;
  }
  std::optional<std::pair<StringRef, StringRef>> P = splitPair(Data);
  if (!P)
    return 0;
  OwnedBytes First(P->first), Second(P->second);
  kernelPair(MemoryBufferRef(First.str(), InputName),
             MemoryBufferRef(Second.str(), PartnerName));
  return 0;
}
