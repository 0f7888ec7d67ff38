//===- KernelPack.h - A kernel and its modules, one walk each ---*- C++ -*-===//
//
// The pipeline behind `dwarfpack ctf` with several inputs and `dwarfpack
// pack` with several inputs (docs/CTF-kernel.md): the core kernel's and
// built-in modules' objects and the loadable modules are each read once
// (DwarfInput's walk), their types deduplicated into a shared parent dict
// and a child dict per module (ctfkernel::SharedRepository), and, when
// asked, each object's address table built in the same walk. Loadable
// modules are converted on a pool, one module per thread, and merged in
// module-name order: the outputs never depend on the thread count or the
// order of the inputs.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_PIPELINE_KERNELPACK_H
#define DWARFPACK_PIPELINE_KERNELPACK_H

#include "dwarfpack/CtfKernel/SharedRepository.h"
#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace pipeline {

struct KernelPackOptions {
  /// vmlinux (or vmlinux.o), object files of built-in modules, .ko files.
  std::vector<std::string> Inputs;
  /// List files of the kernel build (empty: none): modules.builtin,
  /// objects.builtin, and modules never to share types.
  std::string BuiltinModules, BuiltinObjects, Blocklist;
  /// Out-of-tree modules: one dict per input, nothing shared, no parent.
  bool Standalone = false;
  unsigned NumThreads = 1;
  bool NoCompress = false;
  /// Copies of the loadable modules with their dict in .ctf.
  bool EmbedModules = false;
  /// Each object's address table (`dwarfpack pack`), built in its walk.
  bool AddressTables = false;
  TableFormat Format = TableFormat::Compact;
  /// Called as loadable modules are done: (modules done, modules in all).
  std::function<void(size_t, size_t)> Progress;
};

struct KernelPackResult {
  /// The dicts (and module copies) by file name: shared_ctf.builtin.ctf,
  /// <module>.builtin.ctf, <module>.mod.ctf, <module>.ko.
  std::map<std::string, std::string> Files;
  /// Every dict as one CTF archive (parent member ".ctf").
  std::string Archive;
  /// Address tables by file name: vmlinux.dpat, <module>.dpat (.gsym).
  std::map<std::string, std::string> Tables;
  /// Objects without any function (data-only modules): no table.
  std::vector<std::string> WithoutFunctions;
  ctfkernel::RepositoryStats Repository;
  uint64_t UncompressedSize = 0, Size = 0;
  double ReadSeconds = 0, DedupSeconds = 0, WriteSeconds = 0;
};

/// Runs the kernel pipeline. Errors name the input or list file at fault;
/// recoverable problems go to Log (each input's in input order).
llvm::Expected<std::unique_ptr<KernelPackResult>>
packKernel(const KernelPackOptions &Opts, WarningLog &Log);

/// One object of the kernel pipeline: a file, or bytes already in memory.
struct KernelObject {
  /// The file; with Bytes, the name errors give and split DWARF files are
  /// looked for beside.
  std::string Path;
  /// The module of a built-in module's object or of a loadable module.
  std::string Module;
  /// The object's bytes, when they are not to be read from Path; the
  /// caller keeps them alive until packKernelObjects returns.
  std::optional<llvm::StringRef> Bytes;
};

/// A kernel's objects sorted by role, and which module a unit belongs to:
/// what packKernel makes of its inputs and list files.
struct KernelObjects {
  /// Objects of built-in modules: each unit is its object's module's.
  std::vector<KernelObject> BuiltinObjs;
  /// Objects of the core kernel, whose units ModuleForUnit attributes; a
  /// unit a built-in module's object brought already is skipped.
  std::vector<KernelObject> CoreObjs;
  /// Loadable modules, one object each, merged in this order.
  std::vector<KernelObject> Loadable;
  /// The module of a core object's unit (DW_AT_comp_dir, DW_AT_name); ""
  /// or no function: the core kernel. Called in unit order.
  std::function<llvm::StringRef(llvm::StringRef, llvm::StringRef)>
      ModuleForUnit;
  /// Modules whose uses never make a type shared (none without it).
  std::function<bool(llvm::StringRef)> IsBlocklisted;
  /// Built-in modules, whose dicts are <module>.builtin.ctf even when a
  /// loadable module of the name is given (none without it).
  std::function<bool(llvm::StringRef)> IsBuiltinModule;
};

/// Runs the kernel pipeline on objects already sorted (packKernel, once it
/// has read its lists; the fuzzers, on objects in memory). Loadable modules
/// are opened on the worker threads, one at a time each, as packKernel
/// opens them. Opts.Inputs and Opts' list files are not read.
llvm::Expected<std::unique_ptr<KernelPackResult>>
packKernelObjects(const KernelObjects &Objects, const KernelPackOptions &Opts,
                  WarningLog &Log);

/// Writes each of Files into Dir and each of Extra (path, bytes), only
/// those whose content differs from the file already there; all are
/// written to temporaries before any is renamed into place. Counts what
/// was written and what was left as it was.
llvm::Error commitKernelOutputs(
    llvm::StringRef Dir, const std::map<std::string, std::string> &Files,
    llvm::ArrayRef<std::pair<std::string, llvm::StringRef>> Extra,
    uint64_t &Written, uint64_t &Unchanged);

} // namespace pipeline
} // namespace dwarfpack

#endif
