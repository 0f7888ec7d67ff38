//===- FuzzConvert.cpp - ELF files with DWARF through both converters -----===//
//
// The input is an ELF file, as a compiler and linker write it, taken
// through ConvertPipeline.h.
//
//===----------------------------------------------------------------------===//

#include "ConvertPipeline.h"

using namespace llvm;
using namespace dwarfpack::fuzz;

// A directory that does not exist: the split-DWARF loader looks for .dwo
// and .dwp files beside the input, and must find none.
static constexpr const char *InputName = "/nonexistent-fuzz-dir/input.elf";

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  return mutateElf(Data, Size, MaxSize, Seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  convertAll(MemoryBufferRef(Data, InputName));
  return 0;
}
