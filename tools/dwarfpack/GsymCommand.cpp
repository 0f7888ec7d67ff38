//===- GsymCommand.cpp - dwarfpack gsym: ELF + DWARF to an address table --===//

#include "BreakpadInput.h"
#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/DWARF/ObjectConverter.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>

using namespace llvm;

namespace dwarfpack {
namespace tool {
namespace {

const char *GsymSubDetails =
    "dwarfpack gsym INPUT -o OUTPUT [options]\n"
    "\n"
    "  INPUT is an ELF executable, shared library, vmlinux, kernel module\n"
    "  (.ko) or separate debug file. Every function with code in DWARF\n"
    "  becomes an entry with its line table and inlined calls; code that\n"
    "  only the symbol tables (.symtab, .dynsym) describe is added by name.\n"
    "  The output is the same for any --num-threads.\n"
    "\n"
    "  By default OUTPUT is dwarfpack's compact address table\n"
    "  (docs/CompactTable.md; `dwarfpack lookup`, `dump` and `verify` read\n"
    "  it); --format=gsym writes LLVM GSYM instead, for llvm-gsymutil and\n"
    "  other GSYM readers.\n"
    "\n"
    "  INPUT may also be a Breakpad symbol file (.sym, recognised by its\n"
    "  MODULE first line); addresses stay module-relative. With\n"
    "  --breakpad-store, INPUT is a symbol store directory\n"
    "  (<debug_file>/<ID>/<name>.sym) and OUTPUT the directory that receives\n"
    "  the same tree of <name>.dpat files (compact) or <name>.gsym files\n"
    "  (--format=gsym).\n"
    "\n"
    "  With --store DIR instead of -o, the table is named by the input's\n"
    "  build-id: DIR/<first 2 hex digits>/<rest>.dpat (or .gsym), where\n"
    "  `dwarfpack lookup --store DIR` finds it for 'BUILDID:<hex> <address>'\n"
    "  queries (add --file-offsets for file offsets, as profilers record\n"
    "  them).\n";

cl::SubCommand GsymSub(
    "gsym",
    "Convert an ELF file's DWARF and symbol tables to an address table");

cl::opt<std::string>
    Input(cl::Positional,
          cl::desc("<input: ELF file, Breakpad .sym, or directory>"),
          cl::Required, cl::sub(GsymSub), cl::cat(category()));
cl::opt<std::string> Output("o", cl::desc("Output file (or --store)"),
                            cl::value_desc("file"), cl::sub(GsymSub),
                            cl::cat(category()));
cl::opt<std::string> StoreDir(
    "store",
    cl::desc("Write the table into this store directory, named by the "
             "input's build-id (<dir>/<first 2 hex digits>/<rest>.dpat or "
             ".gsym), instead of -o"),
    cl::value_desc("dir"), cl::sub(GsymSub), cl::cat(category()));
cl::alias OutputLong("output", cl::desc("Alias for -o"), cl::aliasopt(Output),
                     cl::cat(category()));
cl::opt<unsigned>
    NumThreads("num-threads",
               cl::desc("Threads for the DWARF conversion (default: all "
                        "cores); the output does not depend on it"),
               cl::init(0), cl::sub(GsymSub), cl::cat(category()));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print warnings"),
                    cl::sub(GsymSub), cl::cat(category()));
cl::opt<bool> Stats("stats",
                    cl::desc("Print a summary of input, output and time"),
                    cl::sub(GsymSub), cl::cat(category()));
cl::opt<bool> Verify("verify",
                     cl::desc("After writing, check the output against the "
                              "input's DWARF (every function's ranges, line "
                              "rows and inline frames); exit 1 on mismatches"),
                     cl::sub(GsymSub), cl::cat(category()));
cl::opt<bool> BreakpadStore(
    "breakpad-store",
    cl::desc("INPUT and OUTPUT are directories: convert every "
             "<debug_file>/<ID>/<name>.sym of a Breakpad symbol store"),
    cl::sub(GsymSub), cl::cat(category()));
cl::opt<bool> NoDetails(
    "no-details",
    cl::desc("Compact output: leave out columns, discriminators, "
             "declarations and inlined calls' start addresses (a smaller "
             "table; lookups then print them as from GSYM)"),
    cl::sub(GsymSub), cl::cat(category()));
using OutFormat = TableFormat;
cl::opt<OutFormat>
    Format("format", cl::desc("Output format (default: compact)"),
           cl::init(OutFormat::Compact),
           cl::values(clEnumValN(OutFormat::Compact, "compact",
                                 "dwarfpack's compact address table "
                                 "(docs/CompactTable.md), the default"),
                      clEnumValN(OutFormat::Gsym, "gsym",
                                 "LLVM GSYM V1 (readable by llvm-gsymutil)")),
           cl::sub(GsymSub), cl::cat(category()));

void printWarnings(const WarningLog &Log) {
  uint64_t Total = Log.total();
  if (Total == 0)
    return;
  reportWarning(Twine(Total) + " problem(s) in the input were skipped:");
  for (const WarningLog::KindSummary &K : Log.summary()) {
    errs() << "  " << K.Kind << ": " << K.Count << "\n";
    for (const std::string &E : K.Examples)
      errs() << "    e.g. " << E << "\n";
  }
}

/// --format=compact: the compact writer, with its figures mapped onto the
/// GSYM writer's for --stats.
Expected<std::string> encodeCompactTable(const FunctionModel &Model,
                                         gsym::WriteStats &WS,
                                         compact::WriteStats &CWS) {
  compact::WriteOptions Options;
  Options.Details = !NoDetails;
  Expected<std::string> Bytes = compact::encodeCompact(Model, &CWS, Options);
  WS.Functions = CWS.Functions;
  WS.LineRows = CWS.LineRows;
  WS.InlineNodes = CWS.InlineNodes;
  WS.Strings = CWS.Names + CWS.Paths;
  WS.Files = CWS.Files;
  WS.Bytes = CWS.Bytes;
  return Bytes;
}

int runGsym() {
  auto Start = std::chrono::steady_clock::now();
  if (Error E = checkNumThreads(NumThreads))
    return reportError(std::move(E));
  if (Output.getNumOccurrences() > 1 || StoreDir.getNumOccurrences() > 1)
    return reportError("give -o OUTPUT (or --store DIR) once");
  if (Output.getNumOccurrences() + StoreDir.getNumOccurrences() != 1)
    return reportError("give either -o OUTPUT or --store DIR");
  if (StoreDir.getNumOccurrences() && StoreDir.empty())
    return reportError("--store: the directory name is empty");
  // Directories: "-" would make one of that name.
  if (StoreDir == "-")
    return reportError("--store -: a store is a directory, not standard "
                       "output");
  if (BreakpadStore && (Output == "-" || Input == "-"))
    return reportError("--breakpad-store: INPUT and OUTPUT are directories, "
                       "not standard input or output");
  if (BreakpadStore && StoreDir.getNumOccurrences())
    return reportError("--breakpad-store writes to the directory of -o, not "
                       "to --store");
  WarningLog Log;
  FunctionModel Model;
  ConvertOptions Options;
  Options.NumThreads = NumThreads;
  // Progress only for people watching a terminal, and only on long runs.
  std::mutex ProgressMutex;
  bool ShowProgress = !Quiet && sys::Process::StandardErrIsDisplayed();
  bool Printed = false;
  if (ShowProgress)
    Options.Progress = [&](uint64_t Done, uint64_t Total) {
      if (Total < 200 || (Done % 50 != 0 && Done != Total))
        return;
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      errs() << "\rdwarfpack gsym: " << Done << "/" << Total
             << " compile units";
      Printed = true;
      if (Done == Total)
        errs() << "\n";
    };
  ConvertStats CS;
  // Breakpad input (BreakpadInput.cpp): a store, or a .sym by its content.
  if (BreakpadStore) {
    if (Verify)
      return reportError("--verify needs an ELF input with DWARF; a Breakpad "
                         "store holds .sym files");
    return convertBreakpadStore(Input, Output, NumThreads, Quiet, Stats, Format,
                                outs());
  }
  if (Output.getNumOccurrences())
    if (Error E = checkOutputIsNotInput(Output, {Input}))
      return reportError(std::move(E));
  // Read once: the input may be a pipe.
  Expected<std::unique_ptr<MemoryBuffer>> Buf = mapInputFile(Input);
  if (!Buf)
    return reportError(Buf.takeError());
  BreakpadStats BS;
  bool IsBreakpad = isBreakpadInput((*Buf)->getBuffer());
  if (IsBreakpad)
    if (Error E =
            loadBreakpadInput((*Buf)->getBuffer(), Input, Model, Log, &BS)) {
      if (!Quiet)
        printWarnings(Log);
      return reportError(std::move(E));
    }
  // The verifier compares with DWARF, which a .sym does not have.
  if (IsBreakpad && Verify)
    return reportError("'" + Input +
                       "': --verify needs an ELF input with DWARF, not a "
                       "Breakpad .sym");
  if (!IsBreakpad)
    if (Error E = convertObject(MemoryBufferRef((*Buf)->getBuffer(), Input),
                                Model, Options, Log, &CS))
      return reportError(std::move(E));
  if (Printed)
    errs().flush();
  auto Read = std::chrono::steady_clock::now();
  Model.finalize(Log);
  auto Finalized = std::chrono::steady_clock::now();
  if (Model.functions().empty()) {
    if (!Quiet)
      printWarnings(Log);
    return reportError("'" + Input +
                       "': no functions found (no DWARF with code and no "
                       "function symbols)");
  }

  if (StoreDir.getNumOccurrences()) {
    if (Model.UUID.size() < 2)
      return reportError("'" + Input +
                         "': --store needs a build-id to name the table, "
                         "and the input has none");
    Output = TableStore::tablePath(
        StoreDir, Model.UUID, Format == OutFormat::Compact ? "dpat" : "gsym");
  }

  gsym::WriteStats WS;
  compact::WriteStats CWS;
  Expected<std::string> Bytes = Format == OutFormat::Compact
                                    ? encodeCompactTable(Model, WS, CWS)
                                    : gsym::encodeGsym(Model, &WS, NumThreads);
  if (!Bytes)
    return reportError(createFileError(Output, Bytes.takeError()));
  // A store's new directories stay only when the table was written.
  std::optional<OutputDirectories> StoreDirs;
  if (StoreDir.getNumOccurrences()) {
    Expected<OutputDirectories> D =
        OutputDirectories::create(sys::path::parent_path(Output));
    if (!D)
      return reportError(D.takeError());
    StoreDirs.emplace(std::move(*D));
  }
  if (Error E = writeOutputFile(Output, *Bytes))
    return reportError(std::move(E));
  if (StoreDirs)
    StoreDirs->keep();

  auto Written = std::chrono::steady_clock::now();

  // With -o - the table goes to standard output: reports go to stderr.
  raw_ostream &Report = reportStream(Output);
  // The bytes just written, not the file: standard output cannot be read
  // back, and a piped input was read once.
  if (Verify)
    if (int Status = runVerification(
            MemoryBufferRef(*Bytes, Output == "-" ? StringRef("<stdout>")
                                                  : StringRef(Output)),
            MemoryBufferRef((*Buf)->getBuffer(), Input), NumThreads, Stats,
            Report))
      return Status;

  if (!Quiet)
    printWarnings(Log);
  if (Stats) {
    uint64_t FromDwarf = 0;
    for (const FunctionEntry &F : Model.functions())
      FromDwarf += F.hasDebugInfo();
    auto Secs = [](auto From, auto To) {
      return std::chrono::duration<double>(To - From).count();
    };
    // A .sym has records and no DWARF: say what was kept and skipped of
    // them, and which functions have line tables.
    if (IsBreakpad) {
      Report << "input:        " << Input << " (Breakpad, " << BS.TextLines
             << " lines)\n";
      printBreakpadStats(BS, Report);
    } else {
      Report << "input:        " << Input << "\n"
             << "dwarf bytes:  " << CS.DebugBytes << " (" << CS.CompileUnits
             << " compile units)\n";
    }
    Report << "output:       " << Output
           << (Format == OutFormat::Compact ? " (compact)\n" : " (gsym)\n")
           << "output bytes: " << WS.Bytes << "\n";
    if (IsBreakpad)
      Report << "functions:    " << WS.Functions << " (" << FromDwarf
             << " with line or inline info, " << (WS.Functions - FromDwarf)
             << " names only)\n";
    else
      Report << "functions:    " << WS.Functions << " (" << FromDwarf
             << " from DWARF, " << (WS.Functions - FromDwarf)
             << " from symbols)\n";
    Report << "line rows:    " << WS.LineRows << "\n"
           << "inline nodes: " << WS.InlineNodes << "\n"
           << "files:        " << WS.Files << "\n"
           << "strings:      " << WS.Strings << "\n"
           << "warnings:     " << Log.total() << "\n";
    for (const WarningLog::KindSummary &K : Log.notes())
      Report << "noted:        " << K.Count << " " << K.Kind << "\n";
    Report << "wall time:    "
           << format("%.3f", Secs(Start, std::chrono::steady_clock::now()))
           << " s (" << (IsBreakpad ? "parse " : "read ")
           << format("%.3f", Secs(Start, Read)) << ", finalize "
           << format("%.3f", Secs(Read, Finalized)) << ", write "
           << format("%.3f", Secs(Finalized, Written)) << ")\n";
  }
  return 0;
}

CommandRegistration Registration(GsymSub, runGsym, GsymSubDetails);

} // namespace
} // namespace tool
} // namespace dwarfpack
