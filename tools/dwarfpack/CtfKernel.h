//===- CtfKernel.h - `dwarfpack ctf` over a kernel and its modules -------===//
//
// The multi-input form of `dwarfpack ctf` (docs/CTF-kernel.md), selected by
// several inputs or any of its options; CtfCommand.cpp hands over to it.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_CTFKERNEL_H
#define DWARFPACK_TOOLS_CTFKERNEL_H

#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace dwarfpack {
namespace tool {

/// The `ctf` subcommand, shared by the files declaring its options.
llvm::cl::SubCommand &ctfSubCommand();

struct CtfDriverArgs {
  std::vector<std::string> Inputs;
  std::string Output;
  bool Embed = false;
  unsigned NumThreads = 1;
  bool NoCompress = false;
  bool Stats = false;
  bool Quiet = false;
};

/// True when the kernel-archive options were given.
bool kernelCtfRequested();
int runKernelCtf(const CtfDriverArgs &Args);

} // namespace tool
} // namespace dwarfpack

#endif
