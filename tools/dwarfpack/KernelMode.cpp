//===- KernelMode.cpp - `ctf` and `pack` over a kernel and its modules ----===//

#include "KernelMode.h"
#include "Command.h"

#include "dwarfpack/Pipeline/KernelPack.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/OutputFile.h"
#include "dwarfpack/Support/Stopwatch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

namespace {

cl::SubCommand &CtfSub = ctfSubCommand();
cl::SubCommand &PackSub = packSubCommand();

// The kernel build's lists, for both subcommands.
cl::opt<std::string>
    BuiltinObjects("builtin-objects",
                   cl::desc("objects.builtin: object files always built in "
                            "(kernel mode)"),
                   cl::value_desc("file"), cl::sub(CtfSub), cl::sub(PackSub),
                   cl::cat(category()));
cl::opt<std::string>
    BuiltinModules("builtin-modules",
                   cl::desc("modules.builtin: modules built into the kernel, "
                            "optionally with their objects (kernel mode)"),
                   cl::value_desc("file"), cl::sub(CtfSub), cl::sub(PackSub),
                   cl::cat(category()));
cl::opt<std::string>
    Blocklist("dedup-blocklist",
              cl::desc("Modules that never contribute types to the shared "
                       "parent (one name per line)"),
              cl::value_desc("file"), cl::sub(CtfSub), cl::sub(PackSub),
              cl::cat(category()));
cl::opt<bool> Standalone("e",
                         cl::desc("Out-of-tree modules: one dict per input, "
                                  "nothing shared, no parent"),
                         cl::sub(CtfSub), cl::cat(category()));
cl::opt<std::string>
    ArchiveOut("archive",
               cl::desc("Also write everything as one CTF archive (parent "
                        "member '.ctf')"),
               cl::value_desc("file"), cl::sub(CtfSub), cl::cat(category()));
cl::opt<std::string>
    CtfArchiveOut("ctf-archive",
                  cl::desc("Kernel mode: write the shared-parent CTF archive "
                           "(as `ctf --archive` writes it)"),
                  cl::value_desc("file"), cl::sub(PackSub),
                  cl::cat(category()));
cl::opt<std::string>
    TableDir("table-dir",
             cl::desc("Kernel mode: write each object's address table here, "
                      "<module>.dpat (vmlinux.dpat), for `lookup "
                      "--module-tables`"),
             cl::value_desc("dir"), cl::sub(PackSub), cl::cat(category()));
cl::opt<pipeline::TableFormat> KernelFormat(
    "table-format", cl::desc("Kernel mode: the address tables' format"),
    cl::init(pipeline::TableFormat::Compact),
    cl::values(clEnumValN(pipeline::TableFormat::Compact, "compact",
                          "dwarfpack's compact address table, the default"),
               clEnumValN(pipeline::TableFormat::Gsym, "gsym", "LLVM GSYM V1")),
    cl::sub(PackSub), cl::cat(category()));

/// Module progress for people watching a terminal: a kernel has ~1,000
/// modules and a run takes seconds.
std::function<void(size_t, size_t)> moduleProgress(StringRef Command,
                                                   size_t Inputs, bool Quiet) {
  if (Quiet || Inputs < 32 || !sys::Process::StandardErrIsDisplayed())
    return nullptr;
  std::string Name = Command.str();
  return [Name](size_t Done, size_t Total) {
    if (Done % 16 != 0 && Done != Total)
      return;
    errs() << "\rdwarfpack " << Name << ": " << Done << "/" << Total
           << " modules";
    if (Done == Total)
      errs() << "\n";
  };
}

pipeline::KernelPackOptions kernelOptions(const KernelArgs &A,
                                          StringRef Command) {
  pipeline::KernelPackOptions O;
  O.Inputs = A.Inputs;
  O.BuiltinModules = BuiltinModules;
  O.BuiltinObjects = BuiltinObjects;
  O.Blocklist = Blocklist;
  O.NumThreads = A.NumThreads;
  O.Progress = moduleProgress(Command, A.Inputs.size(), A.Quiet);
  return O;
}

void printStats(const pipeline::KernelPackResult &R, size_t Files,
                uint64_t Written, uint64_t Unchanged, bool Standalone,
                double Seconds, raw_ostream &OS) {
  const ctfkernel::RepositoryStats &RS = R.Repository;
  OS << "modules: " << Files << " files ("
     << (Standalone ? "standalone" : "shared") << ")\n";
  OS << "written: " << Written << ", unchanged: " << Unchanged << "\n";
  if (!Standalone) {
    OS << "input types: " << RS.InputTypes << "\n";
    OS << "global nodes: " << RS.GlobalNodes << "\n";
    OS << "resolved forwards: " << RS.ResolvedForwards << "\n";
    OS << "classes: " << RS.Classes << "\n";
    OS << "shared by use: " << RS.SharedByUse << "\n";
    OS << "parent types: " << RS.SharedTotal << "\n";
    OS << "child types: " << RS.ChildTypes << "\n";
    OS << "sharing rounds: " << RS.FixpointRounds << "\n";
    OS << "stored more than once: " << RS.StoredMoreThanOnce << "\n";
  }
  OS << "uncompressed size: " << R.UncompressedSize << "\n";
  OS << "size: " << R.Size << "\n";
}

void printTimes(const pipeline::KernelPackResult &R, double WriteSeconds,
                double Seconds, raw_ostream &OS) {
  const ctfkernel::RepositoryStats &RS = R.Repository;
  OS << format("time: read %.2f s, dedup+sharing %.2f s (identity "
               "%.2f s, sharing %.2f s, split %.2f s), write %.2f s, "
               "total %.2f s\n",
               R.ReadSeconds, R.DedupSeconds, RS.IdentitySeconds,
               RS.SharingSeconds, RS.SplitSeconds, WriteSeconds, Seconds);
}

/// What a kernel run produced and wrote.
struct KernelRun {
  std::unique_ptr<pipeline::KernelPackResult> R;
  uint64_t Written = 0, Unchanged = 0;
  /// The pipeline's writing and the commit's.
  double WriteSeconds = 0;
};

/// Runs the kernel pipeline, then writes into Dir the files TablesNotDicts
/// picks of its result (the address tables or the dicts) and the archive
/// to ArchivePath when given, all or none. The warnings are summarised
/// either way (unless --quiet); an error is reported and gives the exit
/// status.
Expected<KernelRun> packAndCommit(const KernelArgs &A,
                                  const pipeline::KernelPackOptions &O,
                                  StringRef Dir, bool TablesNotDicts,
                                  StringRef ArchivePath) {
  WarningLog Log;
  auto Summarise = [&] {
    if (!A.Quiet)
      reportWarningSummary(Log);
  };
  KernelRun Run;
  Expected<std::unique_ptr<pipeline::KernelPackResult>> R =
      pipeline::packKernel(O, Log);
  if (!R) {
    Summarise();
    return R.takeError();
  }
  Run.R = std::move(*R);
  Stopwatch Commit;
  SmallVector<std::pair<std::string, StringRef>, 1> Extra;
  if (!ArchivePath.empty())
    Extra.push_back({ArchivePath.str(), Run.R->Archive});
  Error E = pipeline::commitKernelOutputs(
      Dir, TablesNotDicts ? Run.R->Tables : Run.R->Files, Extra, Run.Written,
      Run.Unchanged);
  Summarise();
  if (E)
    return std::move(E);
  Run.WriteSeconds = Run.R->WriteSeconds + Commit.seconds();
  return std::move(Run);
}

} // namespace

bool kernelCtfRequested() {
  return !BuiltinObjects.empty() || !BuiltinModules.empty() ||
         !Blocklist.empty() || Standalone || !ArchiveOut.empty();
}

bool kernelPackRequested() {
  return !CtfArchiveOut.empty() || !TableDir.empty() ||
         !BuiltinObjects.empty() || !BuiltinModules.empty() ||
         !Blocklist.empty();
}

int runKernelCtf(const KernelArgs &A, const std::string &OutDirPath, bool Embed,
                 bool NoCompress) {
  Stopwatch Start;
  if (OutDirPath.empty())
    return reportError("-o OUTDIR is required");
  if (OutDirPath == "-")
    return reportError("-o -: the kernel mode writes a directory of files "
                       "(standard output can take the archive: --archive -)");
  // Removed again, if new, when the run fails.
  Expected<OutputDirectories> OutDir = OutputDirectories::create(OutDirPath);
  if (!OutDir)
    return reportError(OutDir.takeError());
  if (!sys::fs::is_directory(OutDirPath))
    return reportError(OutDirPath + ": not a directory");

  pipeline::KernelPackOptions O = kernelOptions(A, "ctf");
  O.Standalone = Standalone;
  O.NoCompress = NoCompress;
  O.EmbedModules = Embed;
  Expected<KernelRun> Run =
      packAndCommit(A, O, OutDirPath, /*TablesNotDicts=*/false,
                    Standalone ? StringRef() : StringRef(ArchiveOut));
  if (!Run)
    return reportError(Run.takeError());
  OutDir->keep();
  if (A.Stats) {
    const pipeline::KernelPackResult &R = *Run->R;
    raw_ostream &OS = reportStream(ArchiveOut);
    printStats(R, R.Files.size(), Run->Written, Run->Unchanged, Standalone,
               Start.seconds(), OS);
    if (!ArchiveOut.empty())
      OS << "archive size: " << R.Archive.size() << "\n";
    printTimes(R, Run->WriteSeconds, Start.seconds(), OS);
  }
  releaseAtExit(std::move(Run->R));
  return 0;
}

int runKernelPack(const KernelArgs &A) {
  Stopwatch Start;
  if (CtfArchiveOut.empty() && TableDir.empty())
    return reportError("kernel mode (several inputs): give --ctf-archive "
                       "FILE and/or --table-dir DIR");
  if (TableDir == "-")
    return reportError("--table-dir -: a directory, not standard output");
  std::optional<OutputDirectories> Dir;
  if (!TableDir.empty()) {
    Expected<OutputDirectories> D = OutputDirectories::create(TableDir);
    if (!D)
      return reportError(D.takeError());
    Dir.emplace(std::move(*D));
    if (!sys::fs::is_directory(TableDir))
      return reportError(TableDir + ": not a directory");
  }
  pipeline::KernelPackOptions O = kernelOptions(A, "pack");
  O.AddressTables = !TableDir.empty();
  O.Format = KernelFormat;
  // The tables are all the directory gets: the dicts are in the archive.
  Expected<KernelRun> Run =
      packAndCommit(A, O, TableDir, /*TablesNotDicts=*/true, CtfArchiveOut);
  if (!Run)
    return reportError(Run.takeError());
  if (Dir)
    Dir->keep();
  if (A.Stats) {
    const pipeline::KernelPackResult &R = *Run->R;
    raw_ostream &OS = reportStream(CtfArchiveOut);
    printStats(R, R.Files.size(), Run->Written, Run->Unchanged, false,
               Start.seconds(), OS);
    OS << "archive size: " << R.Archive.size() << "\n";
    OS << "address tables: " << R.Tables.size();
    if (!R.WithoutFunctions.empty())
      OS << " (none for " << R.WithoutFunctions.size()
         << " object(s) without functions, e.g. '" << R.WithoutFunctions.front()
         << "')";
    OS << "\n";
    printTimes(R, Run->WriteSeconds, Start.seconds(), OS);
  }
  releaseAtExit(std::move(Run->R));
  return 0;
}

} // namespace tool
} // namespace dwarfpack
