//===- AnnotateMode.cpp - `dwarfpack lookup --annotate` -------------------===//
//
// Kernel oops, perf script and llvm-symbolizer lines with their frames'
// functions and source lines added (dwarfpack/Symbolize/TraceText.h,
// TraceResolver.h); the rest of each line, and every other line, as it
// was. This file reads the options of the mode, opens what they name and
// prints; LookupCommand.cpp hands over to it.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"
#include "LookupModes.h"
#include "StdinLines.h"

#include "dwarfpack/Symbolize/KernelSymbolizer.h"
#include "dwarfpack/Symbolize/ProcMaps.h"
#include "dwarfpack/Symbolize/TableStore.h"
#include "dwarfpack/Symbolize/TraceResolver.h"
#include "dwarfpack/Symbolize/TraceText.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <string>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static cl::SubCommand &LookupSub = lookupSubCommand();
static cl::opt<bool> Annotate(
    "annotate",
    cl::desc("Read text (the files after FILE, or stdin) and print it with "
             "each frame found in it annotated as the kernel's "
             "decode_stacktrace.sh does: kernel oops/WARN/stack traces, perf "
             "script output, llvm-symbolizer input lines; inlined frames on "
             "lines of their own; other lines unchanged"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string> PidMaps(
    "pid-maps",
    cl::desc("With --annotate: a saved /proc/PID/maps of the process whose "
             "absolute addresses the text holds; each becomes a file offset "
             "in its file, answered from that file's table (text of perf "
             "script --show-mmap-events needs none: its mmap events are read "
             "as maps)"),
    cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));
static cl::list<std::string> DsoTableArgs(
    "dso-table",
    cl::desc("With --annotate: the table of the file at PATH (as perf or the "
             "maps name it) is TABLE (repeatable)"),
    cl::value_desc("path=table"), cl::sub(LookupSub), cl::cat(category()));
static cl::list<std::string> DsoBuildIds(
    "dso-build-ids",
    cl::desc("With --annotate: the build-ids of the files the text names, "
             "as 'perf buildid-list' prints them ('<build-id> <path>'), for "
             "files not on this machine; the table of a build-id is FILE "
             "when it records it, else the --store's"),
    cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> ExactReturnAddresses(
    "exact-return-addresses",
    cl::desc("With --annotate: look a kernel call trace's return addresses "
             "up as printed, not one byte before, at the call"),
    cl::sub(LookupSub), cl::cat(category()));

bool dwarfpack::tool::annotateRequested() { return Annotate; }

StringRef dwarfpack::tool::annotateOnlyOptionGiven() {
  if (PidMaps.getNumOccurrences())
    return "--pid-maps";
  if (DsoTableArgs.getNumOccurrences())
    return "--dso-table";
  if (DsoBuildIds.getNumOccurrences())
    return "--dso-build-ids";
  if (ExactReturnAddresses.getNumOccurrences())
    return "--exact-return-addresses";
  return {};
}

/// Opens a table file, recognised by content, as the stores and DSO tables
/// of the resolver want it.
static Expected<std::unique_ptr<AddressSymbolizer>>
openSymbolizer(StringRef Path) {
  Expected<OpenedTable> T = openTableFile(Path, openOptions());
  if (!T)
    return T.takeError();
  return std::move(T->Table);
}

namespace {
/// The tables that --annotate reads from, opened.
struct AnnotateTables {
  std::unique_ptr<AddressSymbolizer> Main, Running;
  SessionOptions Address;
  std::optional<TableStore> Store;
  std::unique_ptr<DebugFileTables> StoreFill;
  std::optional<KernelModuleTables> Modules;
  std::optional<DsoTables> Dsos;
  std::optional<ProcMaps> Maps;
};
} // namespace

/// Reads --dso-table and --dso-build-ids into Dsos; 0 when they are
/// fine, else the exit status.
static int readDsoOptions(DsoTables &Dsos) {
  for (StringRef Arg : DsoTableArgs) {
    auto [Path, Table] = Arg.rsplit('=');
    if (Path.empty() || Table.empty() || !Arg.contains('='))
      return reportError("--dso-table: '" + Arg + "': expected PATH=TABLE");
    Dsos.setTable(Path, Table.str());
  }
  for (StringRef File : DsoBuildIds) {
    Expected<std::unique_ptr<MemoryBuffer>> Text = readFileOrStdin(File, true);
    if (!Text)
      return reportError(Text.takeError());
    if (Error E = Dsos.addBuildIdList((*Text)->getBuffer(), File))
      return reportError("--dso-build-ids: " + toString(std::move(E)));
  }
  return 0;
}

/// Opens what the options name; 0 when it is fine, else the exit status.
static int openAnnotateTables(AnnotateTables &A, const AnnotateArgs &Args,
                              StringRef MainFile) {
  if (!MainFile.empty()) {
    Expected<OpenedTable> T = openLookupTable(MainFile, Args.Open, Args.Quiet);
    if (!T)
      return reportError(T.takeError());
    A.Main = std::move(T->Table);
  }
  if (int Status =
          applyAddressOptions(A.Address, A.Main.get(), MainFile, &A.Running))
    return Status;
  if (!Args.Store.empty()) {
    if (int Status = checkStoreDirectory(Args.Store))
      return Status;
    A.Store.emplace(Args.Store, openSymbolizer);
    // As for queries: a frame of a build-id the store lacks gets its table
    // made from a debug file found or fetched.
    if (int Status = setStoreFiller(*A.Store, A.StoreFill))
      return Status;
  }
  TableStore *Store = A.Store ? &*A.Store : nullptr;
  // A running kernel's symbolizer answers its modules itself.
  std::optional<ModuleTableDirectory> Dir;
  if (!Args.ModuleTables.empty() && !A.Running) {
    Expected<ModuleTableDirectory> D =
        ModuleTableDirectory::scan(Args.ModuleTables);
    if (!D)
      return reportError("--module-tables: " + toString(D.takeError()));
    Dir = std::move(*D);
  }
  A.Modules.emplace(openSymbolizer, std::move(Dir), Store);
  A.Dsos.emplace(openSymbolizer, Store, A.Main.get());
  // A DSO without a table is read as perf reads it, from its file.
  A.Dsos->setBinaryOpener([Open = Args.Open](StringRef Path)
                              -> Expected<std::unique_ptr<AddressSymbolizer>> {
    Expected<OpenedTable> T = openTableFile(Path, Open);
    if (!T)
      return T.takeError();
    return std::move(T->Table);
  });
  if (int Status = readDsoOptions(*A.Dsos))
    return Status;
  if (PidMaps.getNumOccurrences()) {
    Expected<std::unique_ptr<MemoryBuffer>> Text =
        readFileOrStdin(PidMaps, true);
    if (!Text)
      return reportError(Text.takeError());
    Expected<ProcMaps> M = ProcMaps::parse((*Text)->getBuffer(), PidMaps);
    if (!M)
      return reportError("--pid-maps: " + toString(M.takeError()));
    A.Maps = std::move(*M);
  }
  return 0;
}

/// Whether Path is a file of one of our formats or an ELF binary (not a
/// text to annotate).
static bool isTableFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> File = mapInputFile(Path);
  if (!File) {
    consumeError(File.takeError());
    return false;
  }
  StringRef Bytes = (*File)->getBuffer();
  return identifyFormat(Bytes) || startsAsElf(Bytes);
}

namespace {
/// What annotates a line: the frames' resolver, and the maps that perf's
/// mmap and task events in the text give it as they are read.
struct Annotating {
  const TraceAnnotator &Annotator;
  TraceResolver &Resolver;
  PerfMaps &Perf;
  function_ref<void(Error)> Warn;
};
} // namespace

/// Annotates Line, with its line break unless it had none.
static void annotateLine(StringRef Line, bool Ended, Annotating &A) {
  if (A.Perf.observe(Line))
    outs() << Line; // a mapping, not a frame
  else
    outs() << A.Annotator.annotate(
        Line, [&](const TraceFrame &F) { return A.Resolver.resolve(F); },
        A.Warn);
  if (Ended)
    outs() << '\n';
}

/// Annotates each line of a file.
static void annotateFile(std::istream &In, Annotating &A) {
  std::string Line;
  while (std::getline(In, Line))
    annotateLine(Line, !In.eof(), A);
}

/// Annotates each line of stdin. The output is flushed before each read of
/// stdin, so a line from `dmesg -w` is printed as soon as it is read, but
/// lines that arrive together are written together (a write a line was
/// nine tenths of the time of a long perf script).
static void annotateStdin(Annotating &A) {
  StdinLines In(outs());
  std::vector<StringRef> Lines;
  while (In.next(Lines))
    for (size_t I = 0; I < Lines.size(); ++I)
      annotateLine(Lines[I], I + 1 < Lines.size() || !In.lastLineUnended(), A);
}

/// Opens every text before any is annotated: no output cut short. A null
/// stream stands for stdin ("-").
static Expected<std::vector<std::unique_ptr<std::ifstream>>>
openTexts(ArrayRef<std::string> Inputs) {
  std::vector<std::unique_ptr<std::ifstream>> Files;
  for (const std::string &Input : Inputs) {
    Files.push_back(nullptr);
    if (Input == "-")
      continue;
    Files.back() = std::make_unique<std::ifstream>(Input, std::ios::binary);
    if (!*Files.back())
      return createStringError(inconvertibleErrorCode(),
                               "'" + Input + "': cannot be read");
  }
  return std::move(Files);
}

int dwarfpack::tool::runAnnotate(const AnnotateArgs &Args) {
  // FILE is the kernel's (or the program's) table, optional with --store:
  // then the first file is FILE only when it is a table, not text.
  std::string MainFile = Args.Obj.value_or("");
  ArrayRef<std::string> Inputs = Args.Positional;
  if (!Args.Obj && !Inputs.empty() &&
      (Args.Store.empty() || isTableFile(Inputs.front()))) {
    MainFile = Inputs.front();
    Inputs = Inputs.drop_front();
  }
  if (MainFile.empty() && Args.Store.empty())
    return reportError("no input file: give FILE (the table of the kernel "
                       "or program), or --store DIR");
  AnnotateTables A;
  if (int Status = openAnnotateTables(A, Args, MainFile))
    return Status;
  TraceTables T;
  T.Main = A.Running ? A.Running.get() : A.Main.get();
  T.MainBias = A.Address.AddressOffset;
  T.MainHasModules = A.Running != nullptr;
  T.Module = [&](StringRef Module, ArrayRef<uint8_t> Id) {
    return A.Modules->table(Module, Id);
  };
  T.Dsos = &*A.Dsos;
  T.Maps = A.Maps ? &*A.Maps : nullptr;
  PerfMaps Perf;
  T.Perf = &Perf;
  T.Store = A.Store ? &*A.Store : nullptr;
  T.FileOffsets = Args.FileOffsets;
  TraceResolver Resolver(std::move(T));
  AnnotateOptions Opts;
  Opts.Demangle = Args.Demangle;
  Opts.Inlines = Args.Inlines;
  Opts.AdjustReturnAddresses = !ExactReturnAddresses;
  TraceAnnotator Annotator(Opts);
  Expected<std::vector<std::unique_ptr<std::ifstream>>> Files =
      openTexts(Inputs);
  if (!Files)
    return reportError(Files.takeError());
  StringSet<> Warned;
  auto Warn = [&](Error E) {
    std::string Msg = toString(std::move(E));
    if (!Args.Quiet && Warned.insert(Msg).second)
      reportWarning(Msg);
  };
  Annotating Each{Annotator, Resolver, Perf, Warn};
  if (Inputs.empty())
    annotateStdin(Each);
  for (std::unique_ptr<std::ifstream> &In : *Files) {
    if (In)
      annotateFile(*In, Each);
    else
      annotateStdin(Each);
  }
  return 0;
}
