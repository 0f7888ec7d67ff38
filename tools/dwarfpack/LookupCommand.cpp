//===- LookupCommand.cpp - `dwarfpack lookup FILE [ADDR...]` --------------===//
//
// A drop-in for llvm-symbolizer 19 over any table dwarfpack writes: its
// options, output styles and query forms (lib/Symbolize: InputLine.h,
// Printer.h, QuerySession.h). Without queries on the command line it reads
// one per line from stdin and answers each line at once (flushing), so a
// profiler can keep the process open as a symbolization server.
//
// Where the tables come from is the mode: FILE (or --obj) for every query;
// --store, a table per build-id (`BUILDID:<hex> <address or symbol>`); or,
// with neither, the module each line names (`FILE ADDRESS`, or
// `BUILDID:<hex> ADDRESS`, whose debug file is found as llvm-symbolizer
// finds it). --kaslr-from answers a running kernel's addresses
// (KernelSymbolizer.h); with --file-offsets, the numbers are offsets in the
// module's file, as BPF build-id stacks and perf record user samples.
// --annotate hands over to AnnotateMode.cpp, --filter-markup to
// MarkupMode.cpp (LookupModes.h).
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"
#include "LookupModes.h"
#include "QueryWarnings.h"
#include "StdinLines.h"

#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Symbolize/Debuginfod.h"
#include "dwarfpack/Symbolize/KernelSymbolizer.h"
#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/QueryBatch.h"
#include "dwarfpack/Symbolize/QuerySession.h"
#include "dwarfpack/Symbolize/TableStore.h"
#include "dwarfpack/Symbolize/TraceText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <unistd.h>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

cl::SubCommand &dwarfpack::tool::lookupSubCommand() {
  static cl::SubCommand Sub("lookup",
                            "Symbolize addresses from a binary or any "
                            "dwarfpack table, as llvm-symbolizer does");
  return Sub;
}
static cl::SubCommand &LookupSub = lookupSubCommand();
// FILE then addresses; or, as llvm-symbolizer is called, --obj=FILE and
// addresses only (so that scripts written for it work unchanged).
static cl::list<std::string>
    Args(cl::Positional, cl::ZeroOrMore,
         cl::desc("<file> [query...] (queries are read from stdin when none; "
                  "with --obj or --store, queries only; with neither and no "
                  "file, each line of stdin names its module)"),
         cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string>
    Obj("obj",
        cl::desc("The file to look addresses up in (also --exe, -e); "
                 "every positional argument is then an address, as with "
                 "llvm-symbolizer --obj"),
        cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));
static cl::alias ObjExe("exe", cl::desc("Alias for --obj"), cl::aliasopt(Obj));
static cl::alias ObjE("e", cl::desc("Alias for --obj"), cl::aliasopt(Obj));
// Hidden: lets tests write small batches behind, as large ones are.
static cl::opt<unsigned> WriteBehindLines(
    "write-behind-lines",
    cl::desc("Batches of stdin lines this large or larger are written on a "
             "thread of their own while the next is answered"),
    cl::init(4096), cl::Hidden, cl::sub(LookupSub), cl::cat(category()));

// llvm-symbolizer's options. Where it has an option and its negation,
// the last one given counts, as in llvm-symbolizer.
static cl::opt<unsigned> NumThreads(
    "num-threads",
    cl::desc("Threads that answer the lines of stdin when one table answers "
             "them all (default: all cores); the output does not depend on "
             "it"),
    cl::init(0), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool>
    Inlines("inlines",
            cl::desc("Print every inlined frame (the default; also -i)"),
            cl::init(true), cl::sub(LookupSub), cl::cat(category()));
static cl::alias InlinesI("i", cl::desc("Alias for --inlines"),
                          cl::aliasopt(Inlines), cl::Grouping);
static cl::alias
    InlinesInlining("inlining", cl::desc("Alias for --inlines (=true, =false)"),
                    cl::aliasopt(Inlines));
static cl::opt<bool> NoInlines(
    "no-inlines",
    cl::desc("One frame per address: in LLVM and JSON style the function's "
             "name with the innermost location, in GNU style the innermost "
             "frame, as llvm-symbolizer --no-inlines"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string> StyleName(
    "output-style",
    cl::desc("LLVM (default), GNU or JSON, as llvm-symbolizer (in any case)"),
    cl::value_desc("style"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool>
    Demangle("demangle",
             cl::desc("Demangle function names (the default; also -C)"),
             cl::init(true), cl::sub(LookupSub), cl::cat(category()));
static cl::alias DemangleC("C", cl::desc("Alias for --demangle"),
                           cl::aliasopt(Demangle), cl::Grouping);
static cl::opt<bool> NoDemangle("no-demangle",
                                cl::desc("Print names as stored"),
                                cl::sub(LookupSub), cl::cat(category()));
static cl::opt<FunctionNames> Functions(
    "functions", cl::ValueOptional,
    cl::desc("Function names: linkage (the default, also without a value), "
             "short (without scope and parameters) or none (also -f)"),
    cl::init(FunctionNames::Linkage),
    cl::values(clEnumValN(FunctionNames::Linkage, "", ""),
               clEnumValN(FunctionNames::Linkage, "linkage",
                          "The name as stored, demangled"),
               clEnumValN(FunctionNames::Short, "short", "The name only"),
               clEnumValN(FunctionNames::None, "none", "No names")),
    cl::sub(LookupSub), cl::cat(category()));
static cl::alias FunctionsF("f", cl::desc("Alias for --functions"),
                            cl::aliasopt(Functions), cl::Grouping);
static cl::opt<bool>
    Addresses("addresses",
              cl::desc("Print each address before its answer (also -a)"),
              cl::sub(LookupSub), cl::cat(category()));
static cl::alias AddressesA("a", cl::desc("Alias for --addresses"),
                            cl::aliasopt(Addresses), cl::Grouping);
static cl::alias AddressesPrint("print-address",
                                cl::desc("Alias for --addresses"),
                                cl::aliasopt(Addresses));
static cl::opt<bool>
    Pretty("pretty-print",
           cl::desc("One line per frame, 'NAME at FILE:LINE:COLUMN' (also -p)"),
           cl::sub(LookupSub), cl::cat(category()));
static cl::alias PrettyP("p", cl::desc("Alias for --pretty-print"),
                         cl::aliasopt(Pretty), cl::Grouping);
static cl::opt<bool> Basenames("basenames",
                               cl::desc("Print file names without their "
                                        "directories (also -s)"),
                               cl::sub(LookupSub), cl::cat(category()));
static cl::alias BasenamesS("s", cl::desc("Alias for --basenames"),
                            cl::aliasopt(Basenames), cl::Grouping);
static cl::opt<bool>
    Verbose("verbose",
            cl::desc("Print each frame's location as labelled lines: file, "
                     "function start file, line and address, line, column "
                     "and discriminator (LLVM and GNU style)"),
            cl::sub(LookupSub), cl::cat(category()));
static cl::opt<int> SourceContextLines(
    "print-source-context-lines",
    cl::desc("Print this many lines of each frame's source file around its "
             "line, read from the path as printed (in JSON, as \"Source\")"),
    cl::value_desc("lines"), cl::init(0), cl::sub(LookupSub),
    cl::cat(category()));
static cl::opt<bool> Relativenames(
    "relativenames",
    cl::desc("Accepted for llvm-symbolizer: tables record no compilation "
             "directory to strip, so paths print in full"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> RelativeAddress(
    "relative-address",
    cl::desc("Accepted for llvm-symbolizer: an ELF file's preferred base is "
             "0, so addresses are unchanged"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string> DefaultArch(
    "default-arch",
    cl::desc("Accepted for llvm-symbolizer (sanitizers pass it): it picks "
             "the slice of a multi-architecture Mach-O file, and an ELF file "
             "or a table has one architecture"),
    cl::value_desc("arch"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> UntagAddresses(
    "untag-addresses",
    cl::desc("DATA queries see a symbol whose value is tagged in its top "
             "byte (HWASan's globals) at its address without the tag (the "
             "default, as llvm-symbolizer)"),
    cl::init(true), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> NoUntagAddresses(
    "no-untag-addresses",
    cl::desc("DATA queries see tagged symbols at their tagged values"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<uint64_t> CacheSize(
    "cache-size",
    cl::desc("Accepted for llvm-symbolizer: tables are mapped, not read "
             "into a cache, so it bounds nothing"),
    cl::value_desc("bytes"), cl::sub(LookupSub), cl::cat(category()));
static cl::list<std::string> DsymHints(
    "dsym-hint",
    cl::desc("Accepted for llvm-symbolizer: where Mach-O's .dSYM bundles "
             "are; ELF debug files are found by build-id and "
             ".gnu_debuglink"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> FilterMarkup(
    "filter-markup",
    cl::desc("Read symbolizer markup (llvm.org/docs/SymbolizerMarkupFormat"
             ".html) from stdin and write it with each pc, backtrace frame, "
             "data address and symbol replaced, as llvm-symbolizer does; "
             "the markup names modules by build-id, whose tables come from "
             "--store or are made from their debug files"),
    cl::sub(LookupSub), cl::cat(category()));
enum class ColorOutput { Auto, Always, Never };
static cl::opt<ColorOutput> MarkupColors(
    "color",
    cl::desc("With --filter-markup: highlight what is replaced, and render "
             "the markup's colours (auto: when stdout is a terminal)"),
    cl::values(clEnumValN(ColorOutput::Always, "always", ""),
               clEnumValN(ColorOutput::Always, "", ""),
               clEnumValN(ColorOutput::Auto, "auto", ""),
               clEnumValN(ColorOutput::Never, "never", "")),
    cl::init(ColorOutput::Auto), cl::ValueOptional, cl::sub(LookupSub),
    cl::cat(category()));
static cl::opt<bool> ShowVersion("v",
                                 cl::desc("Print the version (as --version)"),
                                 cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool>
    Quiet("quiet",
          cl::desc("No warnings about queries that cannot be answered (they "
                   "still print the unknown answer), nor, with --annotate, "
                   "about frames (they stay as they are)"),
          cl::sub(LookupSub), cl::cat(category()));

static cl::opt<std::string> Store(
    "store",
    cl::desc("Look each address up in the table of its module's build-id, "
             "in a store directory as 'dwarfpack gsym --store' writes it "
             "(<dir>/<first 2 hex digits>/<rest>.dpat or .gsym); queries "
             "are 'BUILDID:<hex> <address or symbol[+offset]>', as "
             "llvm-symbolizer reads them"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));
// What the --help of a build without the client says of --debuginfod.
static const std::string DebuginfodHelp =
    std::string("Fetch missing debug files (of a stripped FILE, of a "
                "build-id) from this debuginfod server (repeatable; instead "
                "of the servers of DEBUGINFOD_URLS, which are used without "
                "it); with --store, a build-id's is converted once and its "
                "table filed in the store. Without a URL after it, as "
                "llvm-symbolizer's flag: fetch from DEBUGINFOD_URLS' servers "
                "(the default)") +
    (debuginfodAvailable() ? ""
                           : " [NOT AVAILABLE: this dwarfpack was built "
                             "without libdebuginfod]");
static cl::list<std::string> DebuginfodUrls("debuginfod",
                                            cl::desc(DebuginfodHelp),
                                            cl::value_desc("url"),
                                            cl::sub(LookupSub),
                                            cl::cat(category()));
static cl::opt<bool> NoDebuginfod(
    "no-debuginfod",
    cl::desc("Fetch nothing from debuginfod servers, whatever "
             "DEBUGINFOD_URLS says (--debuginfod without a server, as "
             "llvm-symbolizer takes it, is the default: fetch from them)"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::list<std::string> StoreDebugDirs(
    "debug-file-directory",
    cl::desc("Where debug files are looked for (repeatable), before "
             "/usr/lib/debug: that of a stripped ELF FILE, by build-id and "
             ".gnu_debuglink; with --store, that of a build-id without a "
             "table, in <dir>/.build-id/xx/rest.debug (or "
             "<dir>/xx/rest.debug), made into a table filed in the store, "
             "before debuginfod"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string>
    Dwp("dwp",
        cl::desc("The .dwp package of the split DWARF units of FILE (and of "
                 "the binaries of 'FILE ADDRESS' lines), instead of "
                 "FILE.dwp"),
        cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string> FallbackDebugPath(
    "fallback-debug-path",
    cl::desc("Also look for debug files here, as in a "
             "--debug-file-directory (llvm-symbolizer looks here for the "
             "file .gnu_debuglink names)"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string>
    BuildIdArg("build-id",
               cl::desc("The build-id of the module of every query, which "
                        "is then a bare address or symbol (as llvm-symbolizer "
                        "--build-id): its table is found in --store, or made "
                        "from its debug file (as for BUILDID: queries)"),
               cl::value_desc("hex"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> FileOffsets(
    "file-offsets",
    cl::desc("Addresses are offsets in the module's ELF file (as BPF "
             "build-id stack traces and perf record them), converted "
             "through the load segments the table records (compact tables)"),
    cl::sub(LookupSub), cl::cat(category()));

static cl::opt<std::string> AdjustVma(
    "adjust-vma",
    cl::desc("Add this offset to the table's addresses: each address is "
             "looked up minus it and printed as given (as llvm-symbolizer "
             "--adjust-vma)"),
    cl::value_desc("offset"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string> KaslrFrom(
    "kaslr-from",
    cl::desc("Addresses are a running kernel's, moved by KASLR from those "
             "of the table (made from its vmlinux or System.map): the offset "
             "is found from '_text' in <file>, that kernel's /proc/kallsyms "
             "or a copy of it (for a GSYM, from its functions' names), and "
             "checked on its symbols; symbol queries name <file>'s symbols"),
    cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));

static cl::opt<std::string> ModuleTables(
    "module-tables",
    cl::desc("With --kaslr-from or --annotate: a directory of address "
             "tables of kernel modules, <module>.dpat or .gsym, each made "
             "from the module's .ko ('dwarfpack gsym'); addresses in those "
             "modules get its frames and lines instead of the kallsyms name"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));

static cl::opt<std::string> BuildIdsFrom(
    "build-ids-from",
    cl::desc("With --kaslr-from: the running kernel's build-ids, read from "
             "<dir>/kernel/notes and <dir>/module/<module>/notes/"
             ".note.gnu.build-id (<dir> is /sys, or a copy of those files): "
             "a kernel table of another build is refused and a module table "
             "of another build is not used; module tables are also found by "
             "build-id in --module-tables laid out as a --store"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));

/// The output style --output-style names, in any case (llvm-symbolizer 19
/// reads only LLVM, GNU and JSON and takes any other word for LLVM).
static Expected<OutputStyle> outputStyle() {
  if (!StyleName.getNumOccurrences() || StyleName.empty())
    return OutputStyle::LLVM;
  std::optional<OutputStyle> S =
      StringSwitch<std::optional<OutputStyle>>(StringRef(StyleName).lower())
          .Case("llvm", OutputStyle::LLVM)
          .Case("gnu", OutputStyle::GNU)
          .Case("json", OutputStyle::JSON)
          .Default(std::nullopt);
  if (!S)
    return createStringError(inconvertibleErrorCode(),
                             "--output-style: '" + StyleName +
                                 "' is not a style (LLVM, GNU or JSON)");
  return *S;
}

/// The value of On, unless Off was given after it: then false (as
/// llvm-symbolizer, the last of an option and its negation counts).
static bool unlessAfter(const cl::opt<bool> &On, const cl::opt<bool> &Off) {
  if (Off.getNumOccurrences() &&
      (!On.getNumOccurrences() || Off.getPosition() > On.getPosition()))
    return false;
  return On;
}

static Expected<PrinterOptions> printerOptions(StringRef ModuleName) {
  PrinterOptions Opts;
  Expected<OutputStyle> S = outputStyle();
  if (!S)
    return S.takeError();
  Opts.Style = *S;
  Opts.Demangle = unlessAfter(Demangle, NoDemangle);
  Opts.Inlines = unlessAfter(Inlines, NoInlines);
  Opts.Functions = Functions;
  // Tables record full paths only: --relativenames keeps them.
  Opts.Paths = unlessAfter(Basenames, Relativenames) ? PathStyle::BaseName
                                                     : PathStyle::Absolute;
  Opts.PrintAddress = Addresses;
  Opts.Pretty = Pretty;
  Opts.Verbose = Verbose;
  Opts.SourceContextLines = SourceContextLines;
  Opts.ModuleName = ModuleName.str();
  return Opts;
}

/// How FILE (and the files of `FILE ADDRESS` lines) are opened: an ELF
/// object is converted in memory, as llvm-symbolizer reads one.
/// --debug-file-directory's, then --fallback-debug-path.
static std::vector<std::string> debugDirectories() {
  std::vector<std::string> Dirs(StoreDebugDirs.begin(), StoreDebugDirs.end());
  if (!FallbackDebugPath.empty())
    Dirs.push_back(FallbackDebugPath);
  return Dirs;
}

/// The servers --debuginfod names (a bare --debuginfod names none: it
/// stands for DEBUGINFOD_URLS', as llvm-symbolizer's flag does).
static std::vector<std::string> debuginfodServers() {
  std::vector<std::string> Urls;
  for (const std::string &U : DebuginfodUrls)
    if (!U.empty())
      Urls.push_back(U);
  return Urls;
}

/// Whether debug files may be fetched: not after --no-debuginfod, unless
/// --debuginfod comes later (the last counts, as in llvm-symbolizer).
static bool debuginfodAllowed() {
  if (!NoDebuginfod)
    return true;
  for (unsigned I = 0; I < DebuginfodUrls.size(); ++I)
    if (DebuginfodUrls.getPosition(I) > NoDebuginfod.getPosition())
      return true;
  return false;
}

void dwarfpack::tool::readBareDebuginfodFlag(SmallVectorImpl<char *> &Argv) {
  // llvm-symbolizer's --debuginfod is a flag; ours also takes a server
  // (`--debuginfod URL`). A --debuginfod that no URL follows is the flag:
  // given an empty value, which names no server.
  static char Flag[] = "--debuginfod=";
  for (size_t I = 1; I < Argv.size(); ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      return;
    if (A != "--debuginfod" && A != "-debuginfod")
      continue;
    if (I + 1 < Argv.size() && StringRef(Argv[I + 1]).contains("://"))
      continue;
    Argv[I] = Flag;
  }
}

static OpenOptions lookupOptions() {
  OpenOptions O = lookupOpenOptions(NumThreads, debugDirectories(), Quiet);
  if (!debuginfodAllowed())
    O.Objects.FetchDebugFile = nullptr;
  O.Objects.KeepSymbolTags = !unlessAfter(UntagAddresses, NoUntagAddresses);
  O.Objects.Package = Dwp;
  return O;
}

/// Answers the lines of stdin through Modules, each batch that has
/// arrived at once (flushed), on --num-threads threads.
static void runStdinQueries(SessionTables &Modules, const PrinterOptions &PO,
                            SessionOptions Opts, const QueryWarningFn &Warn) {
  QueryBatch Batch(Modules, PO, Opts, NumThreads);
  Batch.setWriteBehind(std::max(1u, unsigned(WriteBehindLines)));
  QueryBatch::AnswerFn Answer = [](QuerySession &Session, StringRef Line) {
    Session.answerLine(Line);
  };
  QueryBatch::AnswerFn AnswerWithoutCR = [](QuerySession &Session,
                                            StringRef Line) {
    // As llvm-symbolizer: line ends go, wherever they are.
    std::string Kept = Line.str();
    llvm::erase(Kept, '\r');
    Session.answerLine(Kept);
  };
  LineModules LM = Modules.lineModules();
  auto Order = [LM](StringRef Line) { return queryLineOrder(Line, LM); };
  // outs() writes to stdout: answers go there without a copy.
  Batch.setOutputFile(STDOUT_FILENO);
  StdinLines In(outs(), [&] { Batch.finishWriting(); });
  std::vector<StringRef> Lines;
  // A trace piped in without --annotate answers `??` line after line:
  // the first lines say whether it is one.
  size_t Looked = 0;
  const size_t LinesToLookAt = 64;
  while (In.next(Lines)) {
    for (size_t I = 0; I < Lines.size() && Looked < LinesToLookAt; ++I) {
      if (looksLikeTraceText(Lines[I])) {
        if (!Quiet)
          WithColor::note(errs(), "dwarfpack")
              << "stdin line " << Looked + 1
              << " looks like perf script output or a kernel trace, which "
                 "'lookup --annotate' annotates; as queries its lines "
                 "answer '?\?'\n";
        Looked = LinesToLookAt;
        break;
      }
      ++Looked;
    }
    // The lines of a batch lie one after the other: one search for a '\r'
    // in all of them costs less than one in each.
    StringRef All(Lines.front().begin(),
                  Lines.back().end() - Lines.front().begin());
    Batch.answer(Lines, All.contains('\r') ? AnswerWithoutCR : Answer, outs(),
                 Warn, Order);
  }
}

/// A message about an input of a running kernel, naming the input by the
/// option that gave it.
static std::string kernelMessage(const KernelMessage &M) {
  switch (M.Input) {
  case KernelInput::Kallsyms:
    return "--kaslr-from: " + M.Message;
  case KernelInput::ModuleTables:
    return "--module-tables: " + M.Message;
  case KernelInput::BuildIds:
    return "--build-ids-from: " + M.Message;
  case KernelInput::ModuleTable:
    break;
  }
  return M.Message;
}

int dwarfpack::tool::applyAddressOptions(
    SessionOptions &Opts, const AddressSymbolizer *Table, StringRef TableFile,
    std::unique_ptr<AddressSymbolizer> *Running) {
  bool Adjust = AdjustVma.getNumOccurrences(),
       Kaslr = KaslrFrom.getNumOccurrences();
  // A trace names module frames by symbol: their tables need no placing.
  if (ModuleTables.getNumOccurrences() && !Kaslr && !annotateRequested())
    return reportError("--module-tables needs --kaslr-from (the running "
                       "kernel's symbols place the modules)");
  if (BuildIdsFrom.getNumOccurrences() && !Kaslr)
    return reportError("--build-ids-from needs --kaslr-from (the build-ids "
                       "are the running kernel's)");
  if (!Adjust && !Kaslr)
    return 0;
  if (Adjust && Kaslr)
    return reportError("--adjust-vma and --kaslr-from exclude each other");
  if (FileOffsets)
    return reportError(Twine(Adjust ? "--adjust-vma" : "--kaslr-from") +
                       " and --file-offsets exclude each other: file offsets "
                       "do not move with the load address");
  if (Adjust) {
    if (StringRef(AdjustVma).trim().getAsInteger(0, Opts.AddressOffset))
      return reportError("--adjust-vma: '" + AdjustVma +
                         "' is not a number (decimal, or 0x hex)");
    return 0;
  }
  if (!Table)
    return reportError("--kaslr-from needs FILE, the table of one kernel "
                       "(not --store)");
  if (KaslrFrom == "-")
    return reportError("--kaslr-from needs a file: standard input carries "
                       "the addresses");
  Expected<std::unique_ptr<MemoryBuffer>> Text =
      readFileOrStdin(KaslrFrom, /*IsText=*/true);
  if (!Text)
    return reportError(Text.takeError());
  RunningKernelSources Sources;
  Sources.Kallsyms = (*Text)->getBuffer();
  Sources.KallsymsName = KaslrFrom;
  Sources.ModuleTables = ModuleTables;
  Sources.BuildIds = BuildIdsFrom;
  Sources.Open = openOptions();
  Sources.Warn = [](const KernelMessage &M) {
    reportWarning(kernelMessage(M));
  };
  Expected<RunningKernel> R = openRunningKernel(*Table, TableFile, Sources);
  if (!R)
    return reportError(
        handleErrors(R.takeError(), [](const KernelInputError &E) -> Error {
          return createStringError(inconvertibleErrorCode(),
                                   kernelMessage(E.get()));
        }));
  *Running = std::move(R->Symbolizer);
  return 0;
}

/// Runs the queries of Args through Modules.
static int runSession(SessionTables &Modules, StringRef ModuleName,
                      SessionOptions Opts, ArrayRef<std::string> Queries) {
  Expected<PrinterOptions> PO = printerOptions(ModuleName);
  if (!PO)
    return reportError(PO.takeError());
  Opts.FileOffsets = FileOffsets;
  QueryWarningPrinter Warnings(Quiet);
  auto Warn = [&](const QueryWarning &W) { Warnings(W); };
  if (Queries.empty()) {
    runStdinQueries(Modules, *PO, Opts, Warn);
    Warnings.finish();
    return 0;
  }
  ResultPrinter P(outs(), std::move(*PO));
  QuerySession Session(Modules, P, Opts, Warn);
  P.beginList();
  for (const std::string &Q : Queries)
    Session.answerLine(Q);
  P.endList();
  Session.flushCounts();
  Warnings.finish();
  return 0;
}

/// Makes the servers of --debuginfod those the debuginfod client fetches
/// from. 0 when it is fine, else the exit status.
static int useDebuginfodServers() {
  std::vector<std::string> Servers = debuginfodServers();
  if (Servers.empty() || !debuginfodAllowed())
    return 0;
  if (!debuginfodAvailable())
    return reportError("--debuginfod: this dwarfpack was built without "
                       "libdebuginfod (elfutils' debuginfod client)");
  // The client reads its servers from the environment only.
  std::string Urls = join(Servers, " ");
  ::setenv("DEBUGINFOD_URLS", Urls.c_str(), /*overwrite=*/1);
  return 0;
}

/// Where the store's missing tables come from: --debug-file-directory,
/// then the servers of --debuginfod or DEBUGINFOD_URLS. Fill is kept by
/// the caller for the run.
int dwarfpack::tool::setStoreFiller(TableStore &Tables,
                                    std::unique_ptr<DebugFileTables> &Fill) {
  if (int Status = useDebuginfodServers())
    return Status;
  DebugFileSources Sources;
  Sources.Directories = debugDirectories();
  const char *Env = std::getenv("DEBUGINFOD_URLS");
  if (Env && !StringRef(Env).trim().empty() && debuginfodAllowed()) {
    Expected<std::unique_ptr<DebuginfodClient>> C = DebuginfodClient::create();
    if (C)
      Sources.Debuginfod = std::move(*C);
    else if (!Quiet)
      reportWarning("DEBUGINFOD_URLS: " + toString(C.takeError()));
  }
  if (Sources.Directories.empty() && !Sources.Debuginfod)
    return 0;
  auto Filed = [](StringRef Table, StringRef From) {
    if (!Quiet)
      WithColor::note(errs(), "dwarfpack")
          << "filed '" << Table << "', made from '" << From << "'\n";
  };
  Fill = std::make_unique<DebugFileTables>(std::move(Sources), Filed,
                                           /*Threads=*/0);
  Tables.setFiller([&F = *Fill](ArrayRef<uint8_t> Id, StringRef Path) {
    return F.makeTable(Id, Path);
  });
  return 0;
}

int dwarfpack::tool::checkStoreDirectory(StringRef Dir) {
  // A store that tables are filed in may start empty, even absent.
  bool Fills = !debugDirectories().empty() ||
               (debuginfodAllowed() && (!debuginfodServers().empty() ||
                                        std::getenv("DEBUGINFOD_URLS")));
  if (!sys::fs::is_directory(Dir) && (!Fills || sys::fs::exists(Dir)))
    return reportError("'" + Dir + "': not a directory");
  return 0;
}

/// The build-id --build-id gives, in Id (unset without it). 0 when it is
/// fine, else the exit status.
static int readBuildIdArg(std::optional<SmallVector<uint8_t, 20>> &Id) {
  if (!BuildIdArg.getNumOccurrences())
    return 0;
  Expected<SmallVector<uint8_t, 20>> B = parseBuildId(BuildIdArg);
  if (!B)
    return reportError("--build-id: " + toString(B.takeError()));
  Id = std::move(*B);
  return 0;
}

/// The store of --store (its tables recognised by content, as FILE is),
/// in Tables; Fill keeps what makes its missing tables (setStoreFiller).
/// 0 when it is fine, else the exit status.
static int openStore(std::unique_ptr<TableStore> &Tables,
                     std::unique_ptr<DebugFileTables> &Fill) {
  if (int Status = checkStoreDirectory(Store))
    return Status;
  Tables = std::make_unique<TableStore>(
      Store,
      [](StringRef Path) -> Expected<std::unique_ptr<AddressSymbolizer>> {
        Expected<OpenedTable> T = openTableFile(Path, openOptions());
        if (!T)
          return T.takeError();
        return std::move(T->Table);
      });
  return setStoreFiller(*Tables, Fill);
}

static int runStoreLookup() {
  if (Obj.getNumOccurrences())
    return reportError("--store and --obj exclude each other: the build-id "
                       "of each query chooses the table");
  std::optional<SmallVector<uint8_t, 20>> Fixed;
  if (int Status = readBuildIdArg(Fixed))
    return Status;
  SessionOptions Opts;
  if (int Status = applyAddressOptions(Opts, nullptr, ""))
    return Status;
  std::unique_ptr<TableStore> Tables;
  std::unique_ptr<DebugFileTables> Fill;
  if (int Status = openStore(Tables, Fill))
    return Status;
  SessionTables Modules(openOptions());
  Modules.setStore(*Tables, std::move(Fixed));
  return runSession(Modules, "", Opts, Args);
}

/// --filter-markup: the markup names its modules by build-id, answered from
/// --store, or from their debug files as BUILDID: queries are.
static int runFilterMarkupMode() {
  const cl::Option *Unused[] = {&Obj, &BuildIdArg, &FileOffsets, &KaslrFrom,
                                &AdjustVma};
  for (const cl::Option *O : Unused)
    if (O->getNumOccurrences())
      return reportError("--" + O->ArgStr +
                         " does not apply to --filter-markup: the markup "
                         "names the module and the address of each element");
  if (!Args.empty())
    return reportError("--filter-markup reads the markup from stdin; '" +
                       Args.front() + "' is not read");
  if (annotateRequested())
    return reportError("--filter-markup and --annotate exclude each other");
  Expected<PrinterOptions> PO = printerOptions("");
  if (!PO)
    return reportError(PO.takeError());
  bool Colors = MarkupColors == ColorOutput::Always ||
                (MarkupColors == ColorOutput::Auto && outs().has_colors());
  if (int Status = useDebuginfodServers())
    return Status;
  std::unique_ptr<TableStore> Tables;
  std::unique_ptr<DebugFileTables> Fill;
  SessionTables Modules(Store.getNumOccurrences() ? openOptions()
                                                  : lookupOptions());
  if (Store.getNumOccurrences()) {
    if (int Status = openStore(Tables, Fill))
      return Status;
    Modules.setStore(*Tables, std::nullopt);
  }
  return runMarkupFilter(Modules, *PO, Colors, Quiet);
}

/// Without FILE or --obj, each query names its module, as llvm-symbolizer
/// reads `FILE ADDRESS` and `BUILDID:HEX ADDRESS` lines; with --build-id,
/// every query is of that module. A build-id's table is made from its debug
/// file, found as llvm-symbolizer finds it.
static int runModuleLookup() {
  SessionOptions Opts;
  if (KaslrFrom.getNumOccurrences())
    return reportError("--kaslr-from needs FILE, the table of one kernel");
  if (int Status = applyAddressOptions(Opts, nullptr, ""))
    return Status;
  std::optional<SmallVector<uint8_t, 20>> Fixed;
  if (int Status = readBuildIdArg(Fixed))
    return Status;
  SessionTables Modules(lookupOptions());
  if (Fixed)
    Modules.setBuildId(std::move(*Fixed));
  return runSession(Modules, "", Opts, Args);
}

/// --annotate, with what the options of every mode say.
static int runAnnotateMode() {
  if (BuildIdArg.getNumOccurrences())
    return reportError("--build-id does not apply to --annotate: the text "
                       "names each frame's module");
  AnnotateArgs A;
  if (Obj.getNumOccurrences())
    A.Obj = Obj;
  A.Positional = Args;
  A.Store = Store;
  A.ModuleTables = ModuleTables;
  A.FileOffsets = FileOffsets;
  A.Demangle = unlessAfter(Demangle, NoDemangle);
  A.Inlines = unlessAfter(Inlines, NoInlines);
  A.Quiet = Quiet;
  A.Open = lookupOptions();
  return runAnnotate(A);
}

static int runLookup() {
  if (ShowVersion) {
    printVersion(outs());
    return 0;
  }
  if (FilterMarkup)
    return runFilterMarkupMode();
  if (MarkupColors.getNumOccurrences())
    return reportError("--color applies to --filter-markup (the answers to "
                       "queries have no colours)");
  if (annotateRequested())
    return runAnnotateMode();
  // Queries name their module or address themselves; a silently ignored
  // option would leave every answer '??'.
  if (StringRef Only = annotateOnlyOptionGiven(); !Only.empty())
    return reportError(Only + " applies to --annotate (text such as perf "
                              "script output, or one address per line), "
                              "not to queries");
  if (Store.getNumOccurrences())
    return runStoreLookup();
  if (int Status = useDebuginfodServers())
    return Status;
  if (BuildIdArg.getNumOccurrences()) {
    if (Obj.getNumOccurrences())
      return reportError("--build-id and --obj exclude each other: both name "
                         "the module of every query");
    return runModuleLookup();
  }
  std::string InputFile = Obj;
  ArrayRef<std::string> Queries = Args;
  if (Obj.getNumOccurrences() == 0) {
    if (Args.empty())
      return runModuleLookup();
    InputFile = Args.front();
    Queries = Queries.drop_front();
  }
  Expected<OpenedTable> T = openLookupTable(InputFile, lookupOptions(), Quiet);
  if (!T)
    return reportError(T.takeError());
  const FileFormat *F = T->Format;
  std::unique_ptr<AddressSymbolizer> &S = T->Table;
  // Every query would fail the same way: say it once.
  if (FileOffsets)
    if (Expected<std::optional<uint64_t>> A = S->fileOffsetToAddress(0); !A)
      return reportError("'" + InputFile + "' (" + F->Name +
                         "): --file-offsets: " + toString(A.takeError()));
  SessionOptions Opts;
  std::unique_ptr<AddressSymbolizer> Running;
  if (int Status = applyAddressOptions(Opts, S.get(), InputFile, &Running))
    return Status;
  SessionTables Modules(lookupOptions());
  // A running kernel's addresses are the table's moved: the object, which
  // answers DATA at its own addresses, is left out.
  Modules.setFixed(Running ? *Running : *S, InputFile,
                   Running ? nullptr : T->Data);
  return runSession(Modules, InputFile, Opts, Queries);
}

static const char *LookupDetails =
    "dwarfpack lookup FILE [QUERY...] [options]\n"
    "  dwarfpack lookup --obj=FILE [QUERY...] [options]\n"
    "  dwarfpack lookup [options] < 'FILE ADDRESS' lines\n"
    "  dwarfpack lookup [FILE] --annotate [TEXT...] [options]\n"
    "  dwarfpack lookup --filter-markup [options] < markup\n"
    "\n"
    "  Answers addresses (or symbol names) as llvm-symbolizer 19 does, with\n"
    "  its options and query forms, from any table dwarfpack writes\n"
    "  (recognised by its content) or from an ELF binary, converted in\n"
    "  memory into the table gsym would write (a stripped one with its\n"
    "  debug file, found under --debug-file-directory and /usr/lib/debug\n"
    "  or fetched from the servers of DEBUGINFOD_URLS; cached by build-id\n"
    "  in $DWARFPACK_CACHE_DIR, default\n"
    "  ~/.cache/dwarfpack/tables, for later runs, forgotten after a week\n"
    "  unused): function, file, line and inlined frames. Without queries\n"
    "  on the command line, reads them from stdin and answers every line\n"
    "  that has arrived before it waits for more (a program may ask one\n"
    "  address at a time); a large batch is answered on --num-threads\n"
    "  threads, in address order, printed in line order.\n"
    "  --kaslr-from and --module-tables answer a running kernel's\n"
    "  addresses; --store and --file-offsets answer profilers' (build-id,\n"
    "  file offset) samples (docs/UserGuide.md); a build-id without a table\n"
    "  in the store gets one made from its debug file, found in a\n"
    "  --debug-file-directory .build-id tree or fetched from a debuginfod\n"
    "  server (--debuginfod, DEBUGINFOD_URLS), and filed there. --annotate\n"
    "  prints trace text (kernel oops, perf script) with each frame's\n"
    "  function and source line added; --filter-markup replaces the\n"
    "  elements of symbolizer markup, as llvm-symbolizer does. DATA\n"
    "  queries about a binary are answered from its symbols and DWARF\n"
    "  variables. A link to dwarfpack named llvm-symbolizer runs this\n"
    "  command (ASAN_SYMBOLIZER_PATH).\n";

static CommandRegistration RegisterLookup(LookupSub, runLookup, LookupDetails);
