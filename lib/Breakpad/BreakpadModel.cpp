//===- BreakpadModel.cpp - Breakpad .sym into a FunctionModel -------------===//
//
// Kept apart from the parser so that code which only parses (unit tests with
// their own sink) does not pull in the model's implementation.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Breakpad/BreakpadParser.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace dwarfpack {

namespace {
class ModelSink final : public BreakpadSink {
public:
  explicit ModelSink(FunctionModel &M) : M(M) {}
  StringRef saveString(StringRef S) override { return M.saveString(S); }
  FileId addFilePath(StringRef Path) override { return M.addFilePath(Path); }

private:
  FunctionModel &M;
};
} // namespace

/// The architectures of 32-bit address spaces among the names dump_syms
/// gives MODULE records.
static bool is32BitArch(StringRef Arch) {
  return is_contained({"x86", "arm", "ppc", "mips", "sparc", "riscv"}, Arch);
}

Expected<BreakpadStats> parseBreakpadIntoModel(StringRef Contents,
                                               StringRef FileName,
                                               FunctionModel &Model,
                                               WarningLog &Log,
                                               BreakpadModuleInfo *ModuleOut) {
  ModelSink Sink(Model);
  Expected<BreakpadSymbols> Syms = parseBreakpad(Contents, FileName, Sink, Log);
  if (!Syms)
    return Syms.takeError();
  Model.BaseAddress = 0;
  Model.UUID = Syms->Module.UUID;
  Model.AddressBytes = is32BitArch(Syms->Module.Arch) ? 4 : 8;
  Model.appendFunctions(std::move(Syms->Functions));
  if (ModuleOut)
    *ModuleOut = std::move(Syms->Module);
  return Syms->Stats;
}

} // namespace dwarfpack
