//===- Kernel.cpp - The C API: a running kernel ---------------------------===//

#include "Options.h"
#include "Results.h"
#include "Status.h"
#include "Tables.h"

#include "dwarfpack/Symbolize/KernelSymbolizer.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::capi;

struct dwarfpack_kernel {
  /// The table of the kernel's build, which Running reads.
  OpenedTable Table;
  RunningKernel Running;
};

namespace {

/// NOT_FOUND unless Dir, the directory of option What, is one.
Error checkDirectory(const char *Dir, const char *What) {
  if (!Dir || sys::fs::is_directory(Dir))
    return Error::success();
  return statusError(DWARFPACK_ERR_NOT_FOUND,
                     Twine(What) + ": '" + Dir + "': not a directory");
}

/// The status of a failure of openRunningKernel: the running kernel is not
/// the table's build (its KASLR offset is not confirmed, the build-ids
/// differ), or an input is damaged (kallsyms text, notes, module tables).
Failure kernelFailure(Error E) {
  Failure F{DWARFPACK_ERR_CORRUPT, ""};
  handleAllErrors(
      std::move(E),
      [&](const KernelInputError &K) {
        if (K.get().Input == KernelInput::Kallsyms)
          F.Status = DWARFPACK_ERR_MISMATCH;
        F.Message = K.message();
      },
      [&](const ErrorInfoBase &Other) { F.Message = Other.message(); });
  return F;
}

Expected<std::unique_ptr<dwarfpack_kernel>>
openKernel(const dwarfpack_kernel_options &Opts) {
  if (Error E = checkFlags(Opts.flags, DWARFPACK_OPEN_PORTABLE_READERS,
                           "dwarfpack_kernel_options"))
    return std::move(E);
  if (!Opts.table || !*Opts.table)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       "dwarfpack_kernel_options: no table");
  if (Error E = checkDirectory(Opts.module_tables, "module tables"))
    return std::move(E);
  if (Error E = checkDirectory(Opts.build_ids, "build-ids"))
    return std::move(E);
  OpenOptions Open = openOptions(Opts.flags);
  auto K = std::make_unique<dwarfpack_kernel>();
  Expected<OpenedTable> T = openTablePath(Opts.table, Open);
  if (!T)
    return T.takeError();
  K->Table = std::move(*T);

  const char *KallsymsPath = Opts.kallsyms ? Opts.kallsyms : "/proc/kallsyms";
  Expected<std::unique_ptr<MemoryBuffer>> Kallsyms = readTextFile(KallsymsPath);
  if (!Kallsyms)
    return Kallsyms.takeError();
  RunningKernelSources Sources;
  Sources.Kallsyms = (*Kallsyms)->getBuffer();
  Sources.KallsymsName = KallsymsPath;
  Sources.ModuleTables = Opts.module_tables ? Opts.module_tables : "";
  Sources.BuildIds = Opts.build_ids ? Opts.build_ids : "";
  Sources.Open = Open;
  if (Opts.warn)
    Sources.Warn = [&Opts](const KernelMessage &M) {
      Opts.warn(Opts.warn_context, M.Message.c_str());
    };
  Expected<RunningKernel> R =
      openRunningKernel(*K->Table.Table, Opts.table, Sources);
  if (!R) {
    Failure F = kernelFailure(R.takeError());
    return statusError(F.Status, F.Message);
  }
  K->Running = std::move(*R);
  return std::move(K);
}

} // namespace

extern "C" {

dwarfpack_status dwarfpack_kernel_open(const dwarfpack_kernel_options *Options,
                                       dwarfpack_kernel **Out) {
  return guard([&] {
    if (!Out)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_kernel_open: OUT is NULL");
    *Out = nullptr;
    if (!Options)
      return fail(DWARFPACK_ERR_INVALID_ARGUMENT,
                  "dwarfpack_kernel_open: OPTIONS is NULL (the table is "
                  "required)");
    dwarfpack_kernel_options Opts;
    if (Error E = readOptions(Options, "dwarfpack_kernel_options", Opts))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    Expected<std::unique_ptr<dwarfpack_kernel>> K = openKernel(Opts);
    if (!K)
      return fail(K.takeError(), DWARFPACK_ERR_CORRUPT);
    *Out = K->release();
    return DWARFPACK_OK;
  });
}

void dwarfpack_kernel_close(dwarfpack_kernel *Kernel) { delete Kernel; }

uint64_t dwarfpack_kernel_offset(const dwarfpack_kernel *Kernel) {
  return Kernel ? Kernel->Running.Slide.Offset : 0;
}

dwarfpack_status dwarfpack_kernel_symbolize(const dwarfpack_kernel *Kernel,
                                            const uint64_t *Addresses,
                                            size_t Count, uint32_t Flags,
                                            dwarfpack_results **Out) {
  return guard([&] {
    // File offsets do not apply: a kernel's code is not mapped from a file.
    if (Error E = checkSymbolizeCall("dwarfpack_kernel_symbolize", Out, Kernel,
                                     Addresses || !Count, "KERNEL or ADDRESSES",
                                     Flags, DWARFPACK_SYMBOLIZE_DEMANGLE))
      return fail(std::move(E), DWARFPACK_ERR_INVALID_ARGUMENT);
    ResultsBuilder Builder(Count, Flags);
    Builder.lookupAll(*Kernel->Running.Symbolizer, ArrayRef(Addresses, Count),
                      /*FileOffsets=*/false);
    *Out = Builder.finish();
    return DWARFPACK_OK;
  });
}

} // extern "C"
