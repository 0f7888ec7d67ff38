//===- CtfCommand.cpp - `dwarfpack ctf`: DWARF types to CTF ---------------===//

#include "Command.h"
#include "DebugFileArgs.h"
#include "KernelMode.h"

#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/ElfEmbed.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace dwarfpack;

// One object shared with KernelMode.cpp's options (a function-local static,
// so both files' static options see it constructed).
cl::SubCommand &dwarfpack::tool::ctfSubCommand() {
  static cl::SubCommand Sub("ctf", "Convert the C types and globals described "
                                   "by DWARF into a CTF v3 dict (or, for a "
                                   "kernel and its modules, into CTF "
                                   "archives with a shared parent)");
  return Sub;
}

namespace {

cl::SubCommand &CtfCmd = tool::ctfSubCommand();

cl::list<std::string> Inputs(cl::Positional,
                             cl::desc("<input object> (several: kernel mode)"),
                             cl::OneOrMore, cl::sub(CtfCmd),
                             cl::cat(tool::category()));
cl::opt<std::string> Output("o",
                            cl::desc("Output file (directory in kernel "
                                     "mode)"),
                            cl::value_desc("path"), cl::Required,
                            cl::sub(CtfCmd), cl::cat(tool::category()));
cl::opt<bool> Embed("embed",
                    cl::desc("Write a copy of the input ELF with the dict in "
                             "its .ctf section instead of a standalone dict"),
                    cl::sub(CtfCmd), cl::cat(tool::category()));
cl::opt<unsigned> NumThreads("num-threads",
                             cl::desc("Threads converting compile units "
                                      "(default 1; the output is identical "
                                      "for any count)"),
                             cl::init(1), cl::sub(CtfCmd),
                             cl::cat(tool::category()));
cl::opt<bool> NoCompress("no-compress",
                         cl::desc("Never zlib-compress the dict"),
                         cl::sub(CtfCmd), cl::cat(tool::category()));
cl::opt<bool> VariableSection(
    "variable-section",
    cl::desc("Also write global variables to the CTF variable section "
             "(like ld --ctf-variables); the default with --embed, where "
             "GDB reads variables of struct, union and enum types from it "
             "(=false: never)"),
    cl::sub(CtfCmd), cl::cat(tool::category()));
cl::opt<bool> IndexedSymbols(
    "indexed-symbols",
    cl::desc("Always name data objects and functions in index sections, so "
             "the dict does not need the input's symbol table (by default a "
             "linked input's mostly-typed sections follow .symtab, as GNU ld "
             "writes them)"),
    cl::sub(CtfCmd), cl::cat(tool::category()));
cl::opt<bool> Stats("stats",
                    cl::desc("Print type counts by kind and sizes to stdout"),
                    cl::sub(CtfCmd), cl::cat(tool::category()));
tool::DebugFileArgs DebugFiles(CtfCmd);
cl::opt<bool> Quiet("quiet",
                    cl::desc("Do not print warnings about skipped input "
                             "problems (errors are still printed)"),
                    cl::sub(CtfCmd), cl::cat(tool::category()));

void printWarnings(const WarningLog &Log) {
  if (!Quiet)
    tool::reportWarningSummary(Log);
}

int runKernel() {
  if (Error E = DebugFiles.refuseForKernel())
    return tool::reportError(std::move(E));
  if (Error E = tool::refuseVariableSectionForKernel(VariableSection))
    return tool::reportError(std::move(E));
  return tool::runKernelCtf(
      {std::vector<std::string>(Inputs.begin(), Inputs.end()), NumThreads,
       Quiet, Stats},
      Output, Embed, NoCompress);
}

pipeline::PackOptions ctfOptions() {
  pipeline::PackOptions Opts;
  Opts.NumThreads = NumThreads;
  Opts.AddressTable = false;
  Opts.Types = true;
  Opts.IndexedSymbols = IndexedSymbols;
  if (NoCompress)
    Opts.Ctf.CompressThreshold = 0;
  Opts.Ctf.VariableSection = tool::variableSection(VariableSection, Embed);
  Opts.Progress = tool::terminalProgress("ctf", Quiet);
  return Opts;
}

/// Writes the dict to Output, or with --embed a copy of the input with
/// the dict as its .ctf section.
Error writeDict(StringRef Input, const input::InputObject &In,
                const std::string &Dict) {
  if (!Embed)
    return writeOutputFile(Output, Dict);
  // The copy keeps the input's permissions, as objcopy's output does.
  ErrorOr<sys::fs::perms> Mode = sys::fs::getPermissions(Input);
  if (!Mode)
    return createFileError(Input, errorCodeToError(Mode.getError()));
  return writeOutputFile(
      Output,
      [&](raw_ostream &OS) {
        return embedSections(In.buffer(), {{".ctf", Dict}}, OS);
      },
      *Mode);
}

void printStats(const types::BuildResult &R, const ctf::WriteStats &WStats) {
  // With -o - standard output holds the dictionary.
  raw_ostream &OS = tool::reportStream(Output);
  OS << "units: " << R.NumUnits << "\n";
  OS << "input types: " << R.NumInputTypes << "\n";
  OS << "merged types: " << R.NumMergedTypes << "\n";
  OS << "types: " << R.Table.Types.size() << "\n";
  for (auto &[K, N] : types::countByKind(R.Table))
    OS << "  " << types::kindName(K) << ": " << N << "\n";
  auto Form = [](bool Indexed) {
    return Indexed ? " (indexed)" : " (.symtab order)";
  };
  OS << "variables: " << R.Table.Variables.size() << Form(WStats.ObjectsIndexed)
     << "\n";
  OS << "functions: " << R.Table.Functions.size()
     << Form(WStats.FunctionsIndexed) << "\n";
  OS << "uncompressed size: " << WStats.UncompressedSize << "\n";
  OS << "size: " << WStats.Size << (WStats.Compressed ? " (zlib)" : "") << "\n";
}

int run() {
  std::vector<std::string> Read(Inputs.begin(), Inputs.end());
  Read.push_back(DebugFiles.options().DebugFile);
  if (Error E = tool::prepareHeapForConversion(Read))
    return tool::reportError(std::move(E));
  if (Error E = tool::checkNumThreads(NumThreads))
    return tool::reportError(std::move(E));
  if (Inputs.size() > 1 || tool::kernelCtfRequested())
    return runKernel();
  const std::string &Input = Inputs.front();
  // --embed may replace its input (a post-link step); a dict may not.
  if (!Embed)
    if (Error E = checkOutputIsNotInput(Output, {Input}))
      return tool::reportError(std::move(E));
  WarningLog Log;
  input::OpenOptions Open;
  Open.SupConsequence = "types stored there are unknown";
  Expected<input::InputWithDebugFile> Opened =
      input::openWithDebugFile(Input, DebugFiles.options(), Log, Open);
  if (!Opened)
    return tool::reportError(Opened.takeError());
  tool::reportDebugFile(*Opened, Input, Quiet);
  std::unique_ptr<input::InputObject> &In = Opened->Object;
  Expected<std::unique_ptr<pipeline::PackResult>> P =
      pipeline::packObject(*In, ctfOptions(), Log);
  if (P && !(*P)->Types)
    P = createFileError(
        Input,
        createStringError(inconvertibleErrorCode(),
                          "no DWARF compile units (no debug information)" +
                              (In->isRelocatable()
                                   ? std::string()
                                   : "; " + tool::noDebugFileReason(*Opened))));
  if (!P) {
    printWarnings(Log);
    return tool::reportError(P.takeError());
  }
  if (Error E = writeDict(Input, *In, (*P)->Ctf)) // names Output already
    return tool::reportError(std::move(E));
  printWarnings(Log);
  if (Stats)
    printStats(*(*P)->Types, (*P)->CtfStats);
  tool::releaseAtExit(std::move(*P));
  tool::releaseAtExit(std::move(In));
  return 0;
}

const char *CtfDetails =
    "dwarfpack ctf INPUT -o OUTPUT [options]\n"
    "  dwarfpack ctf [--builtin-modules FILE ...] OBJECTS... -o OUTDIR\n"
    "\n"
    "  One object (ELF executable, library, object file): its C types and\n"
    "  global variables and functions as one CTF v3 dict (docs/CTF.md), or\n"
    "  with --embed a copy of INPUT with the dict in its .ctf section.\n"
    "  A stripped INPUT is read with its separate debug file: --debug-file,\n"
    "  or the one found by build-id or .gnu_debuglink under\n"
    "  --debug-file-directory and /usr/lib/debug (a note names it).\n"
    "  Several objects (a kernel and its modules): a shared parent dict\n"
    "  and one child dict per module in OUTDIR (docs/CTF-kernel.md).\n"
    "  The output is the same for any --num-threads (default 1).\n";

tool::CommandRegistration Reg(CtfCmd, run, CtfDetails);

} // namespace
