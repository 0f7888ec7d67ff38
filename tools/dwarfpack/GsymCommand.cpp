//===- GsymCommand.cpp - dwarfpack gsym: ELF + DWARF to an address table --===//

#include "BreakpadInput.h"
#include "Command.h"
#include "DebugFileArgs.h"
#include "FormatRegistry.h"

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Pipeline/ConvertBreakpadStore.h"
#include "dwarfpack/Pipeline/PackObject.h"
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
    "  A stripped INPUT (without DWARF) is read with its separate debug\n"
    "  file: --debug-file, or the one found by build-id or .gnu_debuglink\n"
    "  under --debug-file-directory and /usr/lib/debug (a note names it);\n"
    "  the table's build-id and load segments are INPUT's\n"
    "  (docs/UserGuide.md, \"Separate debug files\").\n"
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
DebugFileArgs DebugFiles(GsymSub);
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
using OutFormat = pipeline::TableFormat;
cl::opt<OutFormat>
    Format("format",
           cl::desc("Output format (default: compact; gsym when -o names a "
                    ".gsym file)"),
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

using Clock = std::chrono::steady_clock;
double secondsBetween(Clock::time_point From, Clock::time_point To) {
  return std::chrono::duration<double>(To - From).count();
}

/// A table built from one input: an object's (the pack pipeline's result)
/// or a Breakpad .sym's.
struct BuiltTable {
  std::unique_ptr<pipeline::PackResult> Packed;
  FunctionModel Breakpad;
  BreakpadStats BS;
  bool IsBreakpad = false;
  std::string Bytes;
  gsym::WriteStats WS;
  double ReadSeconds = 0, FinalizeSeconds = 0, EncodeSeconds = 0;
  const FunctionModel &model() const {
    return Packed ? Packed->Model : Breakpad;
  }
};

Error checkOptions() {
  auto Fail = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  if (Error E = checkNumThreads(NumThreads))
    return E;
  if (Output.getNumOccurrences() > 1 || StoreDir.getNumOccurrences() > 1)
    return Fail("give -o OUTPUT (or --store DIR) once");
  if (Output.getNumOccurrences() + StoreDir.getNumOccurrences() != 1)
    return Fail("give either -o OUTPUT or --store DIR");
  if (StoreDir.getNumOccurrences() && StoreDir.empty())
    return Fail("--store: the directory name is empty");
  // Directories: "-" would make one of that name.
  if (StoreDir == "-")
    return Fail("--store -: a store is a directory, not standard output");
  if (BreakpadStore && (Output == "-" || Input == "-"))
    return Fail("--breakpad-store: INPUT and OUTPUT are directories, not "
                "standard input or output");
  if (BreakpadStore && StoreDir.getNumOccurrences())
    return Fail("--breakpad-store writes to the directory of -o, not to "
                "--store");
  return Error::success();
}

/// --format unless given: GSYM for an output named .gsym (llvm-gsymutil
/// and other GSYM readers refuse the compact format), else compact. A
/// .gsym name with --format=compact is kept, with a warning.
OutFormat outputFormat() {
  bool GsymName = StringRef(Output).ends_with(".gsym");
  if (!Format.getNumOccurrences())
    return GsymName ? OutFormat::Gsym : OutFormat::Compact;
  if (GsymName && Format == OutFormat::Compact)
    reportWarning("'" + Output +
                  "': writing the compact format (--format=compact) to a file "
                  "named .gsym, which GSYM readers will refuse");
  return Format;
}

/// Builds the table of the input read into Buf.
Expected<std::unique_ptr<BuiltTable>>
buildTable(const MemoryBuffer &Buf, OutFormat Fmt, WarningLog &Log,
           ProgressFn Progress, input::InputWithDebugFile &Opened) {
  auto T = std::make_unique<BuiltTable>();
  Clock::time_point Start = Clock::now();
  T->IsBreakpad = looksLikeBreakpad(Buf.getBuffer());
  if (T->IsBreakpad) {
    Expected<BreakpadStats> S =
        parseBreakpadIntoModel(Buf.getBuffer(), Input, T->Breakpad, Log);
    if (!S)
      return S.takeError();
    T->BS = *S;
    Clock::time_point Read = Clock::now();
    T->Breakpad.finalize(Log);
    Clock::time_point Finalized = Clock::now();
    if (!T->Breakpad.functions().empty()) {
      Expected<std::string> Bytes = pipeline::encodeTable(
          T->Breakpad, Fmt, NumThreads, &T->WS, nullptr, !NoDetails);
      if (!Bytes)
        return Bytes.takeError();
      T->Bytes = std::move(*Bytes);
    }
    T->ReadSeconds = secondsBetween(Start, Read);
    T->FinalizeSeconds = secondsBetween(Read, Finalized);
    T->EncodeSeconds = secondsBetween(Finalized, Clock::now());
    return std::move(T);
  }
  input::OpenOptions Open;
  Open.SupConsequence = "names stored there are missing";
  Open.BufferIsFileMapping =
      Buf.getBufferKind() == MemoryBuffer::MemoryBuffer_MMap;
  Expected<input::InputWithDebugFile> O = input::openWithDebugFile(
      MemoryBufferRef(Buf.getBuffer(), Input), DebugFiles.options(), Log, Open);
  if (!O)
    return O.takeError();
  Opened = std::move(*O);
  pipeline::PackOptions Opts;
  Opts.NumThreads = NumThreads;
  Opts.Format = Fmt;
  Opts.TableDetails = !NoDetails;
  Opts.Progress = std::move(Progress);
  Expected<std::unique_ptr<pipeline::PackResult>> R =
      pipeline::packObject(*Opened.Object, Opts, Log);
  if (!R)
    return R.takeError();
  T->Packed = std::move(*R);
  T->Bytes = std::move(T->Packed->Table);
  T->WS = T->Packed->TableStats;
  T->ReadSeconds = T->Packed->Times.Walk;
  T->FinalizeSeconds = T->Packed->Times.Finalize;
  T->EncodeSeconds = T->Packed->Times.Tail - T->FinalizeSeconds;
  return std::move(T);
}

/// Writes the table to Path, creating a store's directories (kept only
/// when the table was written).
Error writeTable(StringRef Path, StringRef Bytes) {
  if (StoreDir.getNumOccurrences())
    return writeOutputFileAndDirectories(Path, Bytes);
  return writeOutputFile(Path, Bytes);
}

void printStats(const BuiltTable &T, OutFormat Fmt, const WarningLog &Log,
                Clock::time_point Start, raw_ostream &Report) {
  uint64_t FromDwarf = 0;
  for (const FunctionEntry &F : T.model().functions())
    FromDwarf += F.hasDebugInfo();
  const gsym::WriteStats &WS = T.WS;
  // A .sym has records and no DWARF: say what was kept and skipped of
  // them, and which functions have line tables.
  if (T.IsBreakpad) {
    Report << "input:        " << Input << " (Breakpad, " << T.BS.TextLines
           << " lines)\n";
    printBreakpadStats(T.BS, Report);
  } else {
    const ConvertStats &CS = T.Packed->Convert;
    Report << "input:        " << Input << "\n"
           << "dwarf bytes:  " << CS.DebugBytes << " (" << CS.CompileUnits
           << " compile units)\n";
  }
  Report << "output:       " << Output
         << (Fmt == OutFormat::Compact ? " (compact)\n" : " (gsym)\n")
         << "output bytes: " << WS.Bytes << "\n";
  if (T.IsBreakpad)
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
         << format("%.3f", secondsBetween(Start, Clock::now())) << " s ("
         << (T.IsBreakpad ? "parse " : "read ") << format("%.3f", T.ReadSeconds)
         << ", finalize " << format("%.3f", T.FinalizeSeconds) << ", write "
         << format("%.3f", T.EncodeSeconds) << ")\n";
}

int runBreakpadStore() {
  if (Verify)
    return reportError("--verify needs an ELF input with DWARF; a Breakpad "
                       "store holds .sym files");
  Clock::time_point Start = Clock::now();
  WarningLog Log;
  Expected<pipeline::BreakpadStoreResult> R =
      pipeline::convertBreakpadStore(Input, Output, NumThreads, Format, Log);
  if (!R)
    return reportError(R.takeError());
  printBreakpadStoreReport(*R, Log, Quiet, Stats,
                           secondsBetween(Start, Clock::now()), outs());
  for (const std::string &F : R->Failures)
    reportError(F);
  if (R->SymFiles == 0)
    return reportError(Input + ": no <debug_file>/<ID>/<name>.sym files");
  return R->Failures.empty() ? 0 : 1;
}

/// The debug file used, and a note when a linked input has no DWARF.
static void reportInput(const input::InputWithDebugFile &Opened,
                        const BuiltTable &T) {
  reportDebugFile(Opened, Input, Quiet);
  if (!T.Packed->HasDwarf && !Opened.Debug && !Quiet &&
      !Opened.Object->isRelocatable())
    reportWarning("'" + Input + "': no DWARF (built without -g?): " +
                  symbolOnlyTable(Opened) + "; " + noDebugFileReason(Opened));
}

/// --verify: the bytes just written, not the file (standard output cannot
/// be read back, and a piped input was read once), against the file the
/// DWARF came from: a stripped binary's debug file.
static int verifyWritten(const MemoryBuffer &Buf,
                         const input::InputWithDebugFile &Opened,
                         const BuiltTable &T, raw_ostream &Report) {
  std::unique_ptr<MemoryBuffer> DebugBuf;
  MemoryBufferRef Against(Buf.getBuffer(), Input);
  if (Opened.Debug) {
    Expected<std::unique_ptr<MemoryBuffer>> D =
        mapInputFile(Opened.Debug->Path);
    if (!D)
      return reportError(D.takeError());
    DebugBuf = std::move(*D);
    Against = MemoryBufferRef(DebugBuf->getBuffer(), Opened.Debug->Path);
  }
  return runVerification(
      MemoryBufferRef(T.Bytes, Output == "-" ? StringRef("<stdout>")
                                             : StringRef(Output)),
      Against, NumThreads, Stats, Report, DebugFiles.options().Package);
}

int runGsym() {
  if (Error E =
          prepareHeapForConversion({Input, DebugFiles.options().DebugFile}))
    return reportError(std::move(E));
  Clock::time_point Start = Clock::now();
  if (Error E = checkOptions())
    return reportError(std::move(E));
  if (BreakpadStore)
    return runBreakpadStore();
  if (Output.getNumOccurrences())
    if (Error E = checkOutputIsNotInput(Output, {Input}))
      return reportError(std::move(E));
  OutFormat Fmt = outputFormat();
  // Read once: the input may be a pipe.
  Expected<std::unique_ptr<MemoryBuffer>> Buf = mapInputFile(Input);
  if (!Buf)
    return reportError(Buf.takeError());
  WarningLog Log;
  input::InputWithDebugFile Opened;
  Expected<std::unique_ptr<BuiltTable>> T =
      buildTable(**Buf, Fmt, Log, terminalProgress("gsym", Quiet), Opened);
  if (!T) {
    if (!Quiet)
      printWarnings(Log);
    return reportError(T.takeError());
  }
  if (Opened.Object)
    reportInput(Opened, **T);
  // The verifier compares with DWARF, which a .sym does not have.
  if ((*T)->IsBreakpad && Verify)
    return reportError("'" + Input +
                       "': --verify needs an ELF input with DWARF, not a "
                       "Breakpad .sym");
  const FunctionModel &Model = (*T)->model();
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
    Output = TableStore::tablePath(StoreDir, Model.UUID,
                                   Fmt == OutFormat::Compact ? "dpat" : "gsym");
  }
  if (Error E = writeTable(Output, (*T)->Bytes))
    return reportError(std::move(E));
  // With -o - the table goes to standard output: reports go to stderr.
  raw_ostream &Report = reportStream(Output);
  // Where a store put it: the only way to know.
  if (StoreDir.getNumOccurrences() && !Quiet)
    outs() << Output << "\n";
  if (Verify)
    if (int Status = verifyWritten(**Buf, Opened, **T, Report))
      return Status;
  if (!Quiet)
    printWarnings(Log);
  if (Stats)
    printStats(**T, Fmt, Log, Start, Report);
  releaseAtExit(std::move(*T));
  releaseAtExit(std::move(Opened.Object));
  return 0;
}

CommandRegistration Registration(GsymSub, runGsym, GsymSubDetails);

} // namespace
} // namespace tool
} // namespace dwarfpack
