//===- KernelMode.h - `ctf` and `pack` over a kernel and its modules ------===//
//
// The multi-input forms of `dwarfpack ctf` and `dwarfpack pack`
// (docs/CTF-kernel.md), selected by several inputs or any kernel-mode
// option; CtfCommand.cpp and PackCommand.cpp hand over to them. The work is
// lib/Pipeline's packKernel; here are the options and the report.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_KERNELMODE_H
#define DWARFPACK_TOOLS_KERNELMODE_H

#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace dwarfpack {
namespace tool {

/// The subcommands, shared by the files declaring their options.
llvm::cl::SubCommand &ctfSubCommand();
llvm::cl::SubCommand &packSubCommand();

struct KernelArgs {
  std::vector<std::string> Inputs;
  unsigned NumThreads = 1;
  bool Quiet = false;
  bool Stats = false;
};

/// `ctf` with several inputs: the dicts into OutDir (and the archive with
/// --archive), module copies with their dicts with Embed.
bool kernelCtfRequested();
int runKernelCtf(const KernelArgs &A, const std::string &OutDir, bool Embed,
                 bool NoCompress);

/// `pack` with several inputs: the archive (--ctf-archive) and one address
/// table per object (--table-dir) from one walk of each.
bool kernelPackRequested();
int runKernelPack(const KernelArgs &A);

} // namespace tool
} // namespace dwarfpack

#endif
