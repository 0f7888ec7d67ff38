//===- PackCommand.cpp - `dwarfpack pack`: every output of one walk -------===//
//
// One object: its address table (--table, --store), its CTF dict (--ctf)
// and the object itself with both embedded (--embed), from one DWARF walk
// (pipeline::packObject). Several objects: a kernel and its modules
// (PackKernel.cpp). Outputs are written all or none.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "DebugFileArgs.h"
#include "KernelMode.h"

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Support/ElfEmbed.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

cl::SubCommand &packSubCommand() {
  static cl::SubCommand Sub(
      "pack", "Every output of an object (address table, CTF, both embedded) "
              "from one read of its DWARF; or of a kernel and its modules");
  return Sub;
}

namespace {

cl::SubCommand &Sub = packSubCommand();

cl::list<std::string> Inputs(cl::Positional,
                             cl::desc("<object> (several: a kernel and its "
                                      "modules)"),
                             cl::OneOrMore, cl::sub(Sub), cl::cat(category()));
cl::opt<std::string> TableOut("table",
                              cl::desc("Write the address table to <file>"),
                              cl::value_desc("file"), cl::sub(Sub),
                              cl::cat(category()));
cl::opt<std::string> CtfOut("ctf", cl::desc("Write the CTF dict to <file>"),
                            cl::value_desc("file"), cl::sub(Sub),
                            cl::cat(category()));
cl::opt<std::string> StoreDir(
    "store",
    cl::desc("File the address table in this store by build-id "
             "(<dir>/<2 hex digits>/<rest>.dpat or .gsym), for `dwarfpack "
             "lookup --store`"),
    cl::value_desc("dir"), cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Embed("embed",
                    cl::desc("Write the object with its CTF in .ctf and its "
                             "address table in .dwarfpack.table (in place, "
                             "or to -o)"),
                    cl::sub(Sub), cl::cat(category()));
cl::opt<bool> VariableSection(
    "variable-section",
    cl::desc("Write global variables to the CTF variable section too, as "
             "`ctf --variable-section` (the default with --embed; =false: "
             "never)"),
    cl::sub(Sub), cl::cat(category()));
cl::opt<std::string> EmbedOut("o",
                              cl::desc("With --embed: the file to write "
                                       "(default: the input itself)"),
                              cl::value_desc("file"), cl::sub(Sub),
                              cl::cat(category()));
cl::opt<pipeline::TableFormat> Format(
    "format", cl::desc("Address table format (default: compact)"),
    cl::init(pipeline::TableFormat::Compact),
    cl::values(clEnumValN(pipeline::TableFormat::Compact, "compact",
                          "dwarfpack's compact address table, the default"),
               clEnumValN(pipeline::TableFormat::Gsym, "gsym",
                          "LLVM GSYM V1 (readable by llvm-gsymutil)")),
    cl::sub(Sub), cl::cat(category()));
DebugFileArgs DebugFiles(Sub);
cl::opt<bool> NoDetails(
    "no-details",
    cl::desc("Compact table: leave out columns, discriminators, "
             "declarations and inlined calls' start addresses (smaller)"),
    cl::sub(Sub), cl::cat(category()));
cl::opt<unsigned> NumThreads("num-threads",
                             cl::desc("Threads (default: all cores); the "
                                      "outputs do not depend on it"),
                             cl::init(0), cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Quiet("quiet",
                    cl::desc("No warnings, notes or progress (errors are "
                             "still printed)"),
                    cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Strict("strict",
                     cl::desc("An object without DWARF is an error (by "
                              "default it gets a symbol-only table and a "
                              "note)"),
                     cl::sub(Sub), cl::cat(category()));
cl::opt<bool> Stats("stats", cl::desc("Print what went into each output"),
                    cl::sub(Sub), cl::cat(category()));

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error checkOptions() {
  if (Error E = checkNumThreads(NumThreads))
    return E;
  if (TableOut.empty() && CtfOut.empty() && StoreDir.empty() && !Embed)
    return fail("nothing to write: give --table FILE, --ctf FILE, --store "
                "DIR or --embed");
  if (EmbedOut.getNumOccurrences() && !Embed)
    return fail("-o names the object --embed writes: give --embed");
  if (StoreDir == "-")
    return fail("--store -: a store is a directory, not standard output");
  if (Embed && EmbedOut == "-" && (TableOut == "-" || CtfOut == "-"))
    return fail("only one output can go to standard output");
  if (TableOut == "-" && CtfOut == "-")
    return fail("only one output can go to standard output");
  for (const std::string *Out : {&TableOut.getValue(), &CtfOut.getValue()})
    if (!Out->empty())
      if (Error E = checkOutputIsNotInput(*Out, {Inputs.front()}))
        return E;
  return Error::success();
}

/// The outputs of a run, staged (written to temporaries) before any is
/// put in place: all are written or none.
class Outputs {
public:
  Error add(StringRef Path, StringRef Bytes,
            std::optional<sys::fs::perms> Mode = std::nullopt) {
    Expected<StagedOutput> S = StagedOutput::create(
        Path,
        [&](raw_ostream &OS) {
          OS << Bytes;
          return Error::success();
        },
        Mode);
    if (!S)
      return S.takeError();
    Staged.push_back(std::move(*S));
    return Error::success();
  }
  Error addDirectories(StringRef Dir) {
    Expected<OutputDirectories> D = OutputDirectories::create(Dir);
    if (!D)
      return D.takeError();
    Dirs.push_back(std::move(*D));
    return Error::success();
  }
  Error commit() {
    for (StagedOutput &S : Staged)
      if (Error E = S.commit())
        return E;
    for (OutputDirectories &D : Dirs)
      D.keep();
    return Error::success();
  }

private:
  std::vector<OutputDirectories> Dirs;
  std::vector<StagedOutput> Staged;
};

void printStats(const pipeline::PackResult &R, StringRef TablePath,
                raw_ostream &OS) {
  OS << "dwarf bytes:  " << R.Convert.DebugBytes << " ("
     << R.Convert.CompileUnits << " compile units)\n";
  if (!R.Table.empty())
    OS << "table:        " << TablePath << ", " << R.Table.size() << " bytes, "
       << R.TableStats.Functions << " functions (" << R.Convert.DwarfFunctions
       << " from DWARF, " << R.Convert.SymbolFunctions << " from symbols)\n";
  if (R.Types)
    OS << "ctf:          " << R.Ctf.size() << " bytes, "
       << R.Types->Table.Types.size() << " types\n";
  OS << format("time:         walk %.3f s, then finalize %.3f s and types "
               "%.3f s side by side, %.3f s in all after the walk\n",
               R.Times.Walk, R.Times.Finalize, R.Times.Types, R.Times.Tail);
}

/// Without DWARF: a symbol-only table, no types; a note, or with --strict
/// (or --ctf, which needs the types) an error.
static Error checkDwarf(const pipeline::PackResult &R, StringRef Input,
                        const input::InputWithDebugFile &Opened) {
  if (R.HasDwarf)
    return Error::success();
  std::string Why = "'" + Input.str() + "': no DWARF (built without -g?)";
  if (Strict || !CtfOut.empty())
    return fail(Why + (Strict ? "" : ": --ctf needs its types"));
  if (!Quiet)
    reportWarning(Why + ": " + symbolOnlyTable(Opened) +
                  (Embed ? ", no .ctf section" : "") +
                  (Opened.Object->isRelocatable()
                       ? ""
                       : "; " + noDebugFileReason(Opened)));
  return Error::success();
}

/// --embed: a copy of the input with the dict and the table as sections,
/// written over the input or to -o.
static Error stageEmbedded(const pipeline::PackResult &R, StringRef Input,
                           const input::InputObject &In, Outputs &Out) {
  std::string Path = EmbedOut.empty() ? Input.str() : std::string(EmbedOut);
  // The copy keeps the input's permissions, as objcopy's output does.
  ErrorOr<sys::fs::perms> Mode = sys::fs::getPermissions(Input);
  if (!Mode)
    return createFileError(Input, errorCodeToError(Mode.getError()));
  SmallVector<EmbeddedSection, 2> Sections;
  if (R.Types)
    Sections.push_back({".ctf", R.Ctf});
  Sections.push_back({EmbeddedTableSection, R.Table});
  std::string Copy;
  raw_string_ostream OS(Copy);
  if (Error E = embedSections(In.buffer(), Sections, OS))
    return createFileError(Input, std::move(E));
  return Out.add(Path, Copy, *Mode);
}

/// Stages every requested output in Out (committed together, or none);
/// StorePath is the table's path in --store.
static Error stageOutputs(const pipeline::PackResult &R, StringRef Input,
                          const input::InputObject &In, Outputs &Out,
                          std::string &StorePath) {
  StringRef Ext = Format == pipeline::TableFormat::Compact ? "dpat" : "gsym";
  if (!StoreDir.empty()) {
    if (R.Model.UUID.size() < 2)
      return fail("'" + Input +
                  "': --store needs a build-id to name the "
                  "table, and the input has none");
    StorePath = TableStore::tablePath(StoreDir, R.Model.UUID, Ext);
    if (Error E = Out.addDirectories(sys::path::parent_path(StorePath)))
      return E;
    if (Error E = Out.add(StorePath, R.Table))
      return E;
  }
  if (!TableOut.empty())
    if (Error E = Out.add(TableOut, R.Table))
      return E;
  if (!CtfOut.empty())
    if (Error E = Out.add(CtfOut, R.Ctf))
      return E;
  if (Embed)
    return stageEmbedded(R, Input, In, Out);
  return Error::success();
}

static int runKernel() {
  if (Error E = DebugFiles.refuseForKernel())
    return reportError(std::move(E));
  if (Error E = refuseVariableSectionForKernel(VariableSection))
    return reportError(std::move(E));
  return runKernelPack(
      {std::vector<std::string>(Inputs.begin(), Inputs.end()),
       NumThreads ? NumThreads : hardware_concurrency().compute_thread_count(),
       Quiet, Stats});
}

static pipeline::PackOptions packOptions() {
  pipeline::PackOptions Opts;
  Opts.NumThreads = NumThreads;
  Opts.Format = Format;
  Opts.TableDetails = !NoDetails;
  Opts.AddressTable = !TableOut.empty() || !StoreDir.empty() || Embed;
  Opts.Types = !CtfOut.empty() || Embed;
  Opts.Ctf.VariableSection = variableSection(VariableSection, Embed);
  Opts.Progress = terminalProgress("pack", Quiet);
  return Opts;
}

int runPack() {
  std::vector<std::string> Read(Inputs.begin(), Inputs.end());
  Read.push_back(DebugFiles.options().DebugFile);
  if (Error E = prepareHeapForConversion(Read))
    return reportError(std::move(E));
  if (Inputs.size() > 1 || kernelPackRequested())
    return runKernel();
  if (Error E = checkOptions())
    return reportError(std::move(E));
  const std::string &Input = Inputs.front();
  WarningLog Log;
  Expected<input::InputWithDebugFile> Opened =
      input::openWithDebugFile(Input, DebugFiles.options(), Log);
  if (!Opened)
    return reportError(Opened.takeError());
  reportDebugFile(*Opened, Input, Quiet);
  std::unique_ptr<input::InputObject> &In = Opened->Object;

  const pipeline::PackOptions Opts = packOptions();
  Expected<std::unique_ptr<pipeline::PackResult>> P =
      pipeline::packObject(*In, Opts, Log);
  auto Fail = [&](Error E) {
    if (!Quiet)
      reportWarningSummary(Log);
    return reportError(std::move(E));
  };
  if (!P)
    return Fail(P.takeError());
  pipeline::PackResult &R = **P;
  if (Error E = checkDwarf(R, Input, *Opened))
    return Fail(std::move(E));
  if (Opts.AddressTable && R.Model.functions().empty())
    return Fail(fail("'" + Input +
                     "': no functions found (no DWARF with code and no "
                     "function symbols)"));
  Outputs Out;
  std::string StorePath;
  if (Error E = stageOutputs(R, Input, *In, Out, StorePath))
    return Fail(std::move(E));
  if (Error E = Out.commit())
    return Fail(std::move(E));
  if (!Quiet)
    reportWarningSummary(Log);
  if (!StorePath.empty() && !Quiet)
    outs() << StorePath << "\n";
  if (Stats)
    printStats(R, TableOut.empty() ? StringRef(StorePath) : TableOut,
               reportStream(TableOut == "-" || CtfOut == "-" || EmbedOut == "-"
                                ? "-"
                                : ""));
  releaseAtExit(std::move(*P));
  releaseAtExit(std::move(In));
  return 0;
}

const char *PackDetails =
    "dwarfpack pack INPUT [--table FILE] [--ctf FILE] [--store DIR]\n"
    "                     [--embed [-o FILE]] [--format=compact|gsym]\n"
    "  dwarfpack pack VMLINUX MODULE.ko... --ctf-archive FILE --table-dir "
    "DIR\n"
    "\n"
    "  Reads the object's DWARF once and writes every output asked for:\n"
    "  its address table (--table, or filed by build-id with --store; the\n"
    "  same bytes as `dwarfpack gsym`), its CTF dict (--ctf; the same bytes\n"
    "  as `dwarfpack ctf`), and with --embed the object itself with the\n"
    "  dict in .ctf and the table in .dwarfpack.table (docs/EmbeddedTable.md;\n"
    "  `dwarfpack lookup OBJECT` reads it). Outputs are written all or\n"
    "  none. An object without DWARF is read with its separate debug file\n"
    "  (--debug-file, or found by build-id or .gnu_debuglink under\n"
    "  --debug-file-directory and /usr/lib/debug), else gets a symbol-only\n"
    "  table and a note (--strict: an error). Meant as a post-link build\n"
    "  step (docs/UserGuide.md).\n"
    "\n"
    "  With several objects, a kernel and its modules: the shared-parent\n"
    "  CTF archive (as `dwarfpack ctf` writes it) and one address table per\n"
    "  module, from one read of each object (docs/CTF-kernel.md).\n";

CommandRegistration Registration(Sub, runPack, PackDetails);

} // namespace
} // namespace tool
} // namespace dwarfpack
