//===- LookupCommand.cpp - `dwarfpack lookup FILE [ADDR...]` --------------===//
//
// Looks addresses up in any registered format, printing like
// `llvm-symbolizer --inlines`. Without addresses on the command line it reads
// one per line from stdin and answers each line at once (flushing), so a
// profiler can keep the process open as a symbolization server.
//
// With --store, queries name their module by build-id (`BUILDID:<hex>
// <address or symbol>`, llvm-symbolizer's syntax) and tables come from a store
// (TableStore.h); with --file-offsets, the numbers are offsets in the
// module's file, as BPF build-id stacks and perf record user samples.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/Kallsyms/KernelSlide.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"
#include "dwarfpack/Symbolize/TableStore.h"
#include "dwarfpack/Symbolize/TraceResolver.h"
#include "dwarfpack/Symbolize/TraceText.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iostream>
#include <string>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static cl::SubCommand
    LookupSub("lookup", "Symbolize addresses with a GSYM (or other dwarfpack) "
                        "file, like llvm-symbolizer --inlines");
// FILE then addresses; or, as llvm-symbolizer is called, --obj=FILE and
// addresses only (so that scripts written for it work unchanged).
static cl::list<std::string> Args(
    cl::Positional, cl::ZeroOrMore,
    cl::desc("<file> [address or symbol[+offset]...] (read from stdin when "
             "none; with --store, queries only)"),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string>
    Obj("obj",
        cl::desc("The file to look addresses up in (also --exe, -e); "
                 "every positional argument is then an address, as with "
                 "llvm-symbolizer --obj"),
        cl::value_desc("file"), cl::sub(LookupSub), cl::cat(category()));
static cl::alias ObjExe("exe", cl::desc("Alias for --obj"), cl::aliasopt(Obj));
static cl::alias ObjE("e", cl::desc("Alias for --obj"), cl::aliasopt(Obj));
static cl::opt<bool>
    Inlines("inlines",
            cl::desc("Print the inline frames (the default; accepted as "
                     "llvm-symbolizer's --inlines)"),
            cl::init(true), cl::sub(LookupSub), cl::cat(category()));
static cl::alias InlinesI("i", cl::desc("Alias for --inlines"),
                          cl::aliasopt(Inlines));
static cl::opt<OutputStyle> Style(
    "output-style", cl::desc("Output style (as llvm-symbolizer)"),
    cl::init(OutputStyle::LLVM),
    cl::values(clEnumValN(OutputStyle::LLVM, "LLVM", "llvm-symbolizer style"),
               clEnumValN(OutputStyle::GNU, "GNU", "addr2line style"),
               clEnumValN(OutputStyle::JSON, "JSON", "JSON, one per address")),
    cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool> NoDemangle("no-demangle",
                                cl::desc("Print names as stored"),
                                cl::sub(LookupSub), cl::cat(category()));
static cl::opt<bool>
    NoInlines("no-inlines",
              cl::desc("Print only the outermost function (with the "
                       "innermost location), like llvm-symbolizer"),
              cl::sub(LookupSub), cl::cat(category()));

static cl::opt<std::string> Store(
    "store",
    cl::desc("Look each address up in the table of its module's build-id, "
             "in a store directory as 'dwarfpack gsym --store' writes it "
             "(<dir>/<first 2 hex digits>/<rest>.dpat or .gsym); queries "
             "are 'BUILDID:<hex> <address or symbol[+offset]>', as "
             "llvm-symbolizer reads them"),
    cl::value_desc("dir"), cl::sub(LookupSub), cl::cat(category()));
static cl::opt<std::string>
    BuildIdArg("build-id",
               cl::desc("With --store: the build-id of the module of every "
                        "query, which is then a bare address or symbol (as "
                        "llvm-symbolizer --build-id)"),
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
    cl::desc("With --kaslr-from: a directory of address tables of kernel "
             "modules, <module>.dpat or .gsym, each made from the module's "
             ".ko ('dwarfpack gsym'); addresses in those modules get its "
             "frames and lines instead of the kallsyms name"),
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

// --annotate and its sources (runAnnotate, below).
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
             "in its file, answered from that file's table"),
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

/// What every address is moved by before it is looked up (--adjust-vma):
/// the table's addresses plus it are the queried ones.
static uint64_t AddressOffset = 0;

struct OpenedTable {
  std::unique_ptr<AddressSymbolizer> Table;
  const FormatHandler *Handler;
};

/// Maps Path and opens it for lookups, whatever our format it is; errors
/// name the file.
static Expected<OpenedTable> openTableFile(StringRef Path) {
  Expected<KnownFile> File = openKnownFile(Path);
  if (!File)
    return File.takeError();
  const FormatHandler *H = File->Handler;
  if (!H->Open)
    return createFileError(
        Path, createStringError(inconvertibleErrorCode(),
                                Twine(H->Name) +
                                    " files have no addresses to look up"));
  auto S = H->Open(std::move(File->Buffer));
  if (!S)
    return createFileError(Path, S.takeError());
  return OpenedTable{std::move(*S), H};
}

/// Looks Value (an address, or with --file-offsets a file offset) up in S
/// and prints the answer; Label names the module in warnings.
static void resolve(const AddressSymbolizer &S, ResultPrinter &P,
                    StringRef Label, uint64_t Value) {
  uint64_t Addr = Value;
  if (FileOffsets) {
    Expected<std::optional<uint64_t>> A = S.fileOffsetToAddress(Value);
    if (!A) {
      std::string Msg = toString(A.takeError());
      reportWarning("'" + Label + "': " + Msg);
      P.printError(Value, Msg);
      return;
    }
    if (!*A) { // in no loaded segment: not found
      LookupResult None;
      None.Address = Value;
      P.print(None);
      return;
    }
    Addr = **A;
  } else {
    Addr -= AddressOffset; // one that wraps is not found
  }
  Expected<LookupResult> R = S.lookup(Addr);
  if (!R) {
    std::string Msg = toString(R.takeError());
    reportWarning("'" + Label + "': " + Msg);
    P.printError(Value, Msg);
    return;
  }
  R->Address = Value; // printed as queried, as llvm-symbolizer does
  P.print(*R);
}

/// Answers a query by symbol name from Names: the table's functions, or
/// with --kaslr-from the running kernel's text symbols (core and modules).
static void resolveSymbol(SymbolResolver &Names, ResultPrinter &P,
                          StringRef Label, SymbolQuery Q, StringRef Rest) {
  parseModuleWord(Rest, Q);
  std::vector<uint64_t> Named;
  Expected<std::vector<LookupResult>> R = Names.resolve(Q, &Named);
  if (!R) {
    std::string Msg = toString(R.takeError());
    reportWarning("'" + Label + "': " + Msg);
    P.printSymbol(Q.Name, {});
    return;
  }
  // A trace's symbol size that the table contradicts: another build.
  if (Q.Size)
    for (size_t I = 0; I < R->size(); ++I) {
      const LookupResult &M = (*R)[I];
      if (M.Frames.empty() || !M.Frames.back().Size)
        continue;
      if (M.Frames.back().StartAddress + M.StartSlide != Named[I])
        // The trace's size covers the offset; the table's next function
        // answered.
        reportWarning("'" + Label + "': '" + Q.Name + "' ends before offset " +
                      hexString(Q.Offset) + " in the table, is " +
                      hexString(*Q.Size) +
                      " bytes long in the query (is the table of another "
                      "build?)");
      else if (*M.Frames.back().Size != *Q.Size)
        reportWarning("'" + Label + "': '" + Q.Name + "' is " +
                      hexString(*M.Frames.back().Size) +
                      " bytes long in the table, " + hexString(*Q.Size) +
                      " in the query (is the table of another build?)");
    }
  P.printSymbol(Q.Name, *R);
}

/// One query: an address, or a symbol name with an optional offset, as
/// llvm-symbolizer reads them (only the first word counts, but a kernel
/// trace's module word after a symbol).
static void symbolize(const AddressSymbolizer &S, SymbolResolver &Names,
                      ResultPrinter &P, StringRef InputFile, StringRef Text) {
  StringRef Token = Text.trim().take_until([](char C) { return isSpace(C); });
  ParsedQuery Q = parseQuery(Token);
  if (Q.Address)
    return resolve(S, P, InputFile, *Q.Address);
  if (Q.Symbol)
    return resolveSymbol(Names, P, InputFile, std::move(*Q.Symbol),
                         Text.trim().drop_front(Token.size()));
  reportWarning("'" + Text + "': expected an address or a symbol name");
  P.printInvalidInput();
}

/// One --store query: `BUILDID:<hex> <address or symbol>`, or the address
/// or symbol alone when --build-id gave the module (Fixed). Names has one
/// resolver per table opened.
static void symbolizeInStore(
    TableStore &Tables,
    DenseMap<const AddressSymbolizer *, std::unique_ptr<SymbolResolver>> &Names,
    ResultPrinter &P, const SmallVectorImpl<uint8_t> *Fixed, StringRef Text) {
  StringRef Rest = Text.trim();
  SmallVector<uint8_t, 20> Parsed;
  ArrayRef<uint8_t> Id;
  if (Fixed) {
    Id = *Fixed;
  } else {
    if (!Rest.consume_front("BUILDID:")) {
      reportWarning("'" + Text +
                    "': expected 'BUILDID:<hex> <address or symbol>'");
      P.printInvalidInput();
      return;
    }
    StringRef Hex = Rest.take_until([](char C) { return isSpace(C); });
    Rest = Rest.drop_front(Hex.size());
    Expected<SmallVector<uint8_t, 20>> B = parseBuildId(Hex);
    if (!B) {
      reportWarning("'" + Text + "': " + toString(B.takeError()));
      P.printInvalidInput();
      return;
    }
    Parsed = std::move(*B);
    Id = Parsed;
  }
  Rest = Rest.trim();
  StringRef Token = Rest.take_until([](char C) { return isSpace(C); });
  ParsedQuery Q = parseQuery(Token);
  if (!Q.Address && !Q.Symbol) {
    reportWarning("'" + Text + "': expected an address or a symbol name");
    P.printInvalidInput();
    return;
  }
  // llvm-symbolizer names such a module by its build-id in upper case.
  std::string Module = toHex(Id);
  P.setModuleName(Module);
  Expected<const AddressSymbolizer &> S = Tables.open(Id);
  if (!S) {
    std::string Msg = toString(S.takeError());
    reportWarning(Msg);
    if (Q.Address)
      P.printError(*Q.Address, Msg);
    else
      P.printSymbol(Q.Symbol->Name, {});
    return;
  }
  if (Q.Address)
    return resolve(*S, P, Module, *Q.Address);
  std::unique_ptr<SymbolResolver> &R = Names[&*S];
  if (!R)
    R = std::make_unique<SymbolResolver>(*S);
  resolveSymbol(*R, P, Module, std::move(*Q.Symbol),
                Rest.drop_front(Token.size()));
}

/// Runs each query of the command line, or each line of stdin, through Fn.
template <typename Fn>
static void forEachQuery(ResultPrinter &P, ArrayRef<std::string> Queries,
                         Fn F) {
  if (!Queries.empty()) {
    P.beginList();
    for (const std::string &Q : Queries)
      F(Q);
    P.endList();
    return;
  }
  std::string Line;
  while (std::getline(std::cin, Line))
    F(Line); // flushed after each answer
}

static PrinterOptions printerOptions(StringRef ModuleName) {
  PrinterOptions Opts;
  Opts.Style = Style;
  Opts.Demangle = !NoDemangle;
  Opts.Inlines = Inlines && !NoInlines;
  Opts.ModuleName = ModuleName.str();
  return Opts;
}

/// The tables in Dir by module name: a file's name without .dpat or .gsym,
/// with '-' read as '_' as the kernel names modules (aegis128-aesni.ko is
/// module aegis128_aesni); .dpat first when both exist.
static Error findModuleTables(StringRef Dir, StringMap<std::string> &Paths) {
  if (!sys::fs::is_directory(Dir))
    return createStringError(inconvertibleErrorCode(),
                             "--module-tables: '" + Dir + "': not a directory");
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Files.push_back(It->path());
  if (EC)
    return createFileError(Dir, errorCodeToError(EC));
  llvm::sort(Files);
  for (StringRef Ext : {".dpat", ".gsym"}) {
    StringMap<std::string> Seen;
    for (const std::string &F : Files) {
      StringRef Stem = sys::path::filename(F);
      if (!Stem.consume_back(Ext) || Stem.empty())
        continue;
      std::string Module = Stem.str();
      std::replace(Module.begin(), Module.end(), '-', '_');
      auto [It, New] = Seen.try_emplace(Module, F);
      if (!New)
        return createStringError(inconvertibleErrorCode(),
                                 "--module-tables: '" + It->second + "' and '" +
                                     F + "' are both tables of module '" +
                                     Module + "'");
      Paths.try_emplace(Module, F);
    }
  }
  return Error::success();
}

/// The GNU build-id in the notes file at Path (as sysfs shows a note
/// section); empty when there is no such file or no such note (a warning:
/// the check asked for cannot be made).
static Expected<SmallVector<uint8_t, 20>> readBuildIdNotes(const Twine &Path) {
  SmallString<128> P;
  Path.toVector(P);
  if (!sys::fs::exists(P))
    return SmallVector<uint8_t, 20>();
  // Read, not mapped: sysfs files have no size until read.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFileAsStream(P);
  if (!Buf)
    return createFileError(P, errorCodeToError(Buf.getError()));
  Expected<ArrayRef<uint8_t>> Id =
      gnuBuildIdFromNotes(arrayRefFromStringRef((*Buf)->getBuffer()));
  if (!Id)
    return createFileError(P, Id.takeError());
  if (Id->empty())
    reportWarning("--build-ids-from: '" + P +
                  "' has no GNU build-id note: the table is not checked "
                  "against it");
  return SmallVector<uint8_t, 20>(Id->begin(), Id->end());
}

/// The table of Module in --module-tables: by its name, else, when its
/// build-id is known, in the store layout; empty when there is none.
static std::string moduleTablePath(const StringMap<std::string> &ByName,
                                   StringRef Module,
                                   ArrayRef<uint8_t> BuildId) {
  if (auto It = ByName.find(Module); It != ByName.end())
    return It->second;
  if (BuildId.size() >= 2)
    for (StringRef Ext : {"dpat", "gsym"}) {
      std::string P = TableStore::tablePath(ModuleTables, BuildId, Ext);
      if (sys::fs::exists(P))
        return P;
    }
  return "";
}

static std::string sysfsPath(StringRef Dir, const Twine &Rest) {
  SmallString<128> P(Dir);
  sys::path::append(P, Rest);
  return std::string(P);
}

/// Sets AddressOffset from --adjust-vma; or, with --kaslr-from, makes
/// Running, which answers the running kernel's addresses from Table (null
/// with --store) and the running kernel's module symbols. 0 when it is
/// fine, else the exit status.
static int
applyAddressOptions(const AddressSymbolizer *Table, StringRef TableFile,
                    std::unique_ptr<AddressSymbolizer> *Running = nullptr) {
  bool Adjust = AdjustVma.getNumOccurrences(),
       Kaslr = KaslrFrom.getNumOccurrences();
  // A trace names module frames by symbol: their tables need no placing.
  if (ModuleTables.getNumOccurrences() && !Kaslr && !Annotate)
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
    if (StringRef(AdjustVma).trim().getAsInteger(0, AddressOffset))
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
  kallsyms::SymbolList Symbols;
  if (Error E = kallsyms::parseSymbolList((*Text)->getBuffer(), KaslrFrom,
                                          kallsyms::ParseOptions(), Symbols))
    return reportError(std::move(E));
  SmallVector<uint8_t, 20> KernelBuildId;
  if (BuildIdsFrom.getNumOccurrences()) {
    std::string KernelNotes = sysfsPath(BuildIdsFrom, "kernel/notes");
    if (!sys::fs::is_directory(BuildIdsFrom))
      return reportError("--build-ids-from: '" + BuildIdsFrom +
                         "': not a directory");
    if (!sys::fs::exists(KernelNotes) &&
        !sys::fs::is_directory(sysfsPath(BuildIdsFrom, "module")))
      return reportError("--build-ids-from: '" + BuildIdsFrom +
                         "' has neither kernel/notes nor module/ (give /sys "
                         "or a copy of those files)");
    Expected<SmallVector<uint8_t, 20>> Id = readBuildIdNotes(KernelNotes);
    if (!Id)
      return reportError("--build-ids-from: " + toString(Id.takeError()));
    KernelBuildId = std::move(*Id);
  }
  Expected<kallsyms::KernelSlide> Slide = kallsyms::findKernelSlide(
      *Table, Symbols, kallsyms::DefaultSlideChecks, KernelBuildId);
  if (!Slide)
    return reportError("--kaslr-from: '" + TableFile + "' and '" + KaslrFrom +
                       "': " + toString(Slide.takeError()));
  kallsyms::ModuleTableOpener OpenModule;
  StringMap<std::string> ModulePaths;
  if (ModuleTables.getNumOccurrences()) {
    if (Error E = findModuleTables(ModuleTables, ModulePaths))
      return reportError(std::move(E));
    OpenModule = [&](StringRef Module) -> Expected<kallsyms::ModuleTable> {
      SmallVector<uint8_t, 20> BuildId;
      if (BuildIdsFrom.getNumOccurrences()) {
        Expected<SmallVector<uint8_t, 20>> Id = readBuildIdNotes(sysfsPath(
            BuildIdsFrom, "module/" + Module + "/notes/.note.gnu.build-id"));
        if (!Id)
          return createStringError(inconvertibleErrorCode(),
                                   "--build-ids-from: " +
                                       toString(Id.takeError()));
        BuildId = std::move(*Id);
      }
      std::string Path = moduleTablePath(ModulePaths, Module, BuildId);
      if (Path.empty())
        return kallsyms::ModuleTable();
      Expected<OpenedTable> T = openTableFile(Path);
      if (!T)
        return createStringError(inconvertibleErrorCode(),
                                 "--module-tables: " + toString(T.takeError()));
      return kallsyms::ModuleTable{std::move(T->Table), Path,
                                   std::move(BuildId)};
    };
  }
  auto R = kallsyms::RunningKernelSymbolizer::create(*Table, Symbols,
                                                     Slide->Offset, OpenModule);
  if (!R)
    return reportError(R.takeError());
  for (const kallsyms::ModulePlacement &P : (*R)->placements()) {
    if (P.Placed)
      continue;
    if (P.BuildIdCheck == kallsyms::ModulePlacement::BuildId::Different)
      reportWarning("'" + P.Table + "': the table is of build-id " +
                    P.TableBuildId + ", module '" + P.Module +
                    "' that runs is of build-id " + P.RunningBuildId +
                    "; its addresses get kallsyms names only");
    else if (P.Anchors == 0)
      reportWarning("'" + P.Table + "': none of the " + Twine(P.TextSymbols) +
                    " functions that module '" + P.Module +
                    "' runs names one function of the table (is it of "
                    "another build?); its addresses get kallsyms names only");
    else
      reportWarning("'" + P.Table + "': the table is not of the build of " +
                    "module '" + P.Module + "' that runs: its functions lie " +
                    "apart differently (" + Twine(P.OffsetChanges) +
                    " changes of offset over " + Twine(P.Anchors) +
                    " functions); its addresses get kallsyms names only");
  }
  *Running = std::move(*R);
  return 0;
}

static int runStoreLookup() {
  if (Obj.getNumOccurrences())
    return reportError("--store and --obj exclude each other: the build-id "
                       "of each query chooses the table");
  if (!sys::fs::is_directory(Store))
    return reportError("'" + Store + "': not a directory");
  std::optional<SmallVector<uint8_t, 20>> Fixed;
  if (BuildIdArg.getNumOccurrences()) {
    Expected<SmallVector<uint8_t, 20>> B = parseBuildId(BuildIdArg);
    if (!B)
      return reportError("--build-id: " + toString(B.takeError()));
    Fixed = std::move(*B);
  }
  if (int Status = applyAddressOptions(nullptr, ""))
    return Status;
  // Tables are recognised by content, as for FILE.
  TableStore Tables(
      Store,
      [](StringRef Path) -> Expected<std::unique_ptr<AddressSymbolizer>> {
        Expected<OpenedTable> T = openTableFile(Path);
        if (!T)
          return T.takeError();
        return std::move(T->Table);
      });
  ResultPrinter P(outs(), printerOptions(""));
  DenseMap<const AddressSymbolizer *, std::unique_ptr<SymbolResolver>> Names;
  forEachQuery(P, Args, [&](StringRef Q) {
    symbolizeInStore(Tables, Names, P, Fixed ? &*Fixed : nullptr, Q);
  });
  return 0;
}

//===----------------------------------------------------------------------===//
// --annotate: kernel oops, perf script and llvm-symbolizer lines with their
// frames' functions and source lines added (dwarfpack/Symbolize/TraceText.h,
// TraceResolver.h); the rest of each line, and every other line, as it was.
//===----------------------------------------------------------------------===//

/// The tables that --annotate reads from, opened, and the resolver over them.
struct AnnotateTables {
  std::unique_ptr<AddressSymbolizer> Main, Running;
  std::optional<TableStore> Store;
  std::optional<DsoTables> Dsos;
  std::optional<ProcMaps> Maps;
  StringMap<std::string> ModulePaths;
  StringMap<std::unique_ptr<AddressSymbolizer>> Modules;
};

static Expected<std::unique_ptr<AddressSymbolizer>> openTable(StringRef Path) {
  Expected<OpenedTable> T = openTableFile(Path);
  if (!T)
    return T.takeError();
  return std::move(T->Table);
}

/// A module's table found by name or build-id in --module-tables (or by
/// build-id in --store); one of another build than the trace names is not
/// used.
static Expected<const AddressSymbolizer *>
openModuleTable(AnnotateTables &A, StringRef Module, ArrayRef<uint8_t> Id) {
  std::string Path;
  if (ModuleTables.getNumOccurrences())
    Path = moduleTablePath(A.ModulePaths, Module, Id);
  if (Path.empty() && A.Store && Id.size() >= 2) {
    Expected<const AddressSymbolizer &> T = A.Store->open(Id);
    if (!T)
      return T.takeError();
    return &*T;
  }
  if (Path.empty())
    return nullptr;
  std::unique_ptr<AddressSymbolizer> &T = A.Modules[Path];
  if (!T) {
    Expected<std::unique_ptr<AddressSymbolizer>> Opened = openTable(Path);
    if (!Opened)
      return Opened.takeError();
    T = std::move(*Opened);
  }
  if (!Id.empty() && !T->uuid().empty() && T->uuid() != Id)
    return createStringError(
        inconvertibleErrorCode(),
        "'" + Path + "': the table is of build-id " + toHex(T->uuid(), true) +
            ", module '" + Module + "' of the trace of build-id " +
            toHex(Id, true) + "; its frames are left as they are");
  return T.get();
}

/// Opens what the options name; 0 when it is fine, else the exit status.
static int openAnnotateTables(AnnotateTables &A, StringRef MainFile) {
  if (!MainFile.empty()) {
    Expected<std::unique_ptr<AddressSymbolizer>> T = openTable(MainFile);
    if (!T)
      return reportError(T.takeError());
    A.Main = std::move(*T);
  }
  if (int Status = applyAddressOptions(A.Main.get(), MainFile, &A.Running))
    return Status;
  if (ModuleTables.getNumOccurrences() && !A.Running)
    if (Error E = findModuleTables(ModuleTables, A.ModulePaths))
      return reportError(std::move(E));
  if (Store.getNumOccurrences()) {
    if (!sys::fs::is_directory(Store))
      return reportError("'" + Store + "': not a directory");
    A.Store.emplace(Store, openTable);
  }
  A.Dsos.emplace(openTable, A.Store ? &*A.Store : nullptr, A.Main.get());
  for (StringRef Arg : DsoTableArgs) {
    auto [Path, Table] = Arg.rsplit('=');
    if (Path.empty() || Table.empty() || !Arg.contains('='))
      return reportError("--dso-table: '" + Arg + "': expected PATH=TABLE");
    A.Dsos->setTable(Path, Table.str());
  }
  for (StringRef File : DsoBuildIds) {
    Expected<std::unique_ptr<MemoryBuffer>> Text = readFileOrStdin(File, true);
    if (!Text)
      return reportError(Text.takeError());
    if (Error E = A.Dsos->addBuildIdList((*Text)->getBuffer(), File))
      return reportError("--dso-build-ids: " + toString(std::move(E)));
  }
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

/// Whether Path is a file of one of our formats (not a text to annotate).
static bool isTableFile(StringRef Path) {
  Expected<KnownFile> File = openKnownFile(Path);
  if (!File) {
    consumeError(File.takeError());
    return false;
  }
  return true;
}

/// Annotates each line of In; with Flush (stdin, as from `dmesg -w`) each
/// is printed as soon as it is read.
static void annotateStream(std::istream &In, bool Flush,
                           const TraceAnnotator &Annotator,
                           TraceResolver &Resolver, StringSet<> &Warned) {
  auto Warn = [&](Error E) {
    std::string Msg = toString(std::move(E));
    if (Warned.insert(Msg).second)
      reportWarning(Msg);
  };
  std::string Line;
  while (std::getline(In, Line)) {
    outs() << Annotator.annotate(
        Line, [&](const TraceFrame &F) { return Resolver.resolve(F); }, Warn);
    if (!In.eof()) // the last line keeps its missing line break
      outs() << '\n';
    if (Flush)
      outs().flush();
  }
}

static int runAnnotate() {
  if (BuildIdArg.getNumOccurrences())
    return reportError("--build-id does not apply to --annotate: the text "
                       "names each frame's module");
  // FILE is the kernel's (or the program's) table, optional with --store:
  // then the first file is FILE only when it is a table, not text.
  std::string MainFile = Obj;
  ArrayRef<std::string> Inputs = Args;
  if (!Obj.getNumOccurrences() && !Args.empty() &&
      (!Store.getNumOccurrences() || isTableFile(Args.front()))) {
    MainFile = Args.front();
    Inputs = Inputs.drop_front();
  }
  if (MainFile.empty() && !Store.getNumOccurrences())
    return reportError("no input file: give FILE (the table of the kernel "
                       "or program), or --store DIR");
  AnnotateTables A;
  if (int Status = openAnnotateTables(A, MainFile))
    return Status;
  TraceTables T;
  T.Main = A.Running ? A.Running.get() : A.Main.get();
  T.MainBias = AddressOffset;
  T.MainHasModules = A.Running != nullptr;
  T.Module = [&](StringRef Module, ArrayRef<uint8_t> Id) {
    return openModuleTable(A, Module, Id);
  };
  T.Dsos = &*A.Dsos;
  T.Maps = A.Maps ? &*A.Maps : nullptr;
  T.Store = A.Store ? &*A.Store : nullptr;
  T.FileOffsets = FileOffsets;
  TraceResolver Resolver(std::move(T));
  AnnotateOptions Opts;
  Opts.Demangle = !NoDemangle;
  Opts.Inlines = Inlines && !NoInlines;
  Opts.AdjustReturnAddresses = !ExactReturnAddresses;
  TraceAnnotator Annotator(Opts);
  // Every file opens before any is annotated: no output cut short.
  std::vector<std::unique_ptr<std::ifstream>> Files;
  for (const std::string &Input : Inputs) {
    Files.push_back(nullptr);
    if (Input == "-")
      continue;
    Files.back() = std::make_unique<std::ifstream>(Input, std::ios::binary);
    if (!*Files.back())
      return reportError("'" + Input + "': cannot be read");
  }
  StringSet<> Warned;
  if (Inputs.empty())
    annotateStream(std::cin, true, Annotator, Resolver, Warned);
  for (std::unique_ptr<std::ifstream> &In : Files)
    annotateStream(In ? *In : std::cin, !In, Annotator, Resolver, Warned);
  return 0;
}

static int runLookup() {
  if (Annotate)
    return runAnnotate();
  if (Store.getNumOccurrences())
    return runStoreLookup();
  if (BuildIdArg.getNumOccurrences())
    return reportError("--build-id needs --store (the directory to find the "
                       "module's table in)");
  std::string InputFile = Obj;
  ArrayRef<std::string> Addresses = Args;
  if (Obj.getNumOccurrences() == 0) {
    if (Args.empty())
      return reportError("no input file: give FILE or --obj=FILE");
    InputFile = Args.front();
    Addresses = Addresses.drop_front();
  }
  Expected<OpenedTable> T = openTableFile(InputFile);
  if (!T)
    return reportError(T.takeError());
  const FormatHandler *H = T->Handler;
  std::unique_ptr<AddressSymbolizer> &S = T->Table;
  // Every query would fail the same way: say it once.
  if (FileOffsets)
    if (Expected<std::optional<uint64_t>> A = S->fileOffsetToAddress(0); !A)
      return reportError("'" + InputFile + "' (" + H->Name +
                         "): --file-offsets: " + toString(A.takeError()));
  std::unique_ptr<AddressSymbolizer> Running;
  if (int Status = applyAddressOptions(S.get(), InputFile, &Running))
    return Status;
  const AddressSymbolizer &Table = Running ? *Running : *S;

  ResultPrinter P(outs(), printerOptions(InputFile));
  SymbolResolver Names(Table);
  forEachQuery(P, Addresses,
               [&](StringRef Q) { symbolize(Table, Names, P, InputFile, Q); });
  return 0;
}

static const char *LookupDetails =
    "dwarfpack lookup FILE [ADDRESS | NAME[+OFFSET] ...] [options]\n"
    "\n"
    "  Answers addresses (or symbol names) as llvm-symbolizer --inlines\n"
    "  does, from any table dwarfpack writes (recognised by its content):\n"
    "  function, file, line and inlined frames. Without addresses on the\n"
    "  command line, reads them from stdin one line at a time and answers\n"
    "  each at once. --kaslr-from and --module-tables answer a running\n"
    "  kernel's addresses; --store and --file-offsets answer profilers'\n"
    "  (build-id, file offset) samples (docs/UserGuide.md).\n";

static CommandRegistration RegisterLookup(LookupSub, runLookup, LookupDetails);
