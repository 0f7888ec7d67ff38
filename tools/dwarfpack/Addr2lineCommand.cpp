//===- Addr2lineCommand.cpp - `dwarfpack addr2line`, as GNU addr2line -----===//
//
// GNU binutils' addr2line over a table: `dwarfpack addr2line [-a] [-C] [-f]
// [-i] [-p] [-s] -e TABLE [ADDRESS...]`, hexadecimal addresses with or
// without 0x, read from stdin (one per line, each answered at once) when
// none are given. The binary runs this command when it is called through a
// link whose name contains "addr2line" (dwarfpack.cpp), so scripts that run
// addr2line can be pointed at a table, or keep giving it the binary, which
// is then converted in memory (OpenTable.h).
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"
#include "QueryWarnings.h"
#include "StdinLines.h"

#include "dwarfpack/Symbolize/InputLine.h"
#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/QueryBatch.h"
#include "dwarfpack/Symbolize/QuerySession.h"
#include "dwarfpack/Symbolize/SectionOffsets.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <unistd.h>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static cl::SubCommand Addr2lineSub("addr2line",
                                   "Answer addresses from a binary or a "
                                   "table as GNU addr2line does");
static cl::list<std::string>
    Addresses(cl::Positional, cl::ZeroOrMore,
              cl::desc("[address...] (hexadecimal; read from stdin when none)"),
              cl::sub(Addr2lineSub), cl::cat(category()));
static cl::opt<std::string>
    Exe("exe",
        cl::desc("The table (any address table dwarfpack writes), or the "
                 "ELF binary, converted in memory (also -e); a.out when not "
                 "given, as addr2line"),
        cl::init("a.out"), cl::value_desc("file"), cl::sub(Addr2lineSub),
        cl::cat(category()));
static cl::alias ExeE("e", cl::desc("Alias for --exe"), cl::aliasopt(Exe));
static cl::opt<bool> ShowAddresses(
    "addresses",
    cl::desc("Print each address (16 hex digits) before its answer (also -a)"),
    cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias ShowAddressesA("a", cl::desc("Alias for --addresses"),
                                cl::aliasopt(ShowAddresses), cl::Grouping);
namespace {
/// Whether --demangle=none was given: binutils then demangles nothing,
/// whatever -C says before or after it.
bool DemangleNone = false;

/// --demangle[=STYLE], binutils' demangling styles: none demangles
/// nothing; the others name the languages binutils' demangler reads, and
/// LLVM's demangles the names of every language it reads (Itanium C++,
/// Rust, D) under each.
class DemangleStyleParser : public cl::parser<bool> {
public:
  using cl::parser<bool>::parser;
  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, bool &Value) {
    if (Arg == "none") {
      DemangleNone = true;
      Value = false;
      return false;
    }
    if (Arg.empty() ||
        is_contained({"auto", "gnu-v3", "java", "gnat", "dlang", "rust"},
                     Arg)) {
      Value = true;
      return false;
    }
    return O.error("unknown demangling style '" + Arg +
                   "' (auto, gnu-v3, java, gnat, dlang, rust, none)");
  }
};
} // namespace

static cl::opt<bool, false, DemangleStyleParser>
    Demangle("demangle",
             cl::desc("Demangle function names (also -C); =STYLE as "
                      "binutils names them: none demangles nothing, even "
                      "with -C; auto, gnu-v3, java, gnat, dlang and rust "
                      "demangle every name LLVM's demangler reads"),
             cl::ValueOptional, cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias DemangleC("C", cl::desc("Alias for --demangle"),
                           cl::aliasopt(Demangle), cl::Grouping);
static cl::opt<bool> Functions("functions",
                               cl::desc("Print function names (also -f)"),
                               cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias FunctionsF("f", cl::desc("Alias for --functions"),
                            cl::aliasopt(Functions), cl::Grouping);
static cl::opt<bool> Inlines("inlines",
                             cl::desc("Print the inlined frames (also -i)"),
                             cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias InlinesI("i", cl::desc("Alias for --inlines"),
                          cl::aliasopt(Inlines), cl::Grouping);
static cl::opt<bool>
    Pretty("pretty-print",
           cl::desc("One line per address, 'FUNCTION at FILE:LINE' (also -p)"),
           cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias PrettyP("p", cl::desc("Alias for --pretty-print"),
                         cl::aliasopt(Pretty), cl::Grouping);
static cl::opt<bool> Basenames("basenames",
                               cl::desc("Strip directories from file names "
                                        "(also -s)"),
                               cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias BasenamesS("s", cl::desc("Alias for --basenames"),
                            cl::aliasopt(Basenames), cl::Grouping);

static cl::opt<std::string>
    Section("section",
            cl::desc("Addresses are offsets in this section of the ELF "
                     "binary (also -j); one past its end is in no function"),
            cl::value_desc("name"), cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias SectionJ("j", cl::desc("Alias for --section"),
                          cl::aliasopt(Section));
static cl::opt<std::string>
    Target("target",
           cl::desc("The binary's BFD format (also -b): an ELF one (elf64-"
                    "x86-64, elf32-little, ...) is accepted; the format is "
                    "recognised by content all the same"),
           cl::value_desc("bfdname"), cl::sub(Addr2lineSub),
           cl::cat(category()));
static cl::alias TargetB("b", cl::desc("Alias for --target"),
                         cl::aliasopt(Target));
// binutils limits the recursion of its demangler; LLVM's needs no limit.
static cl::opt<bool> RecurseLimit(
    "recurse-limit",
    cl::desc("Accepted for addr2line (also -R, --recursion-limit): LLVM's "
             "demangler needs no recursion limit"),
    cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias RecurseLimitR("R", cl::desc("Alias for --recurse-limit"),
                               cl::aliasopt(RecurseLimit), cl::Grouping);
static cl::alias RecursionLimit("recursion-limit",
                                cl::desc("Alias for --recurse-limit"),
                                cl::aliasopt(RecurseLimit));
static cl::opt<bool> NoRecurseLimit("no-recurse-limit",
                                    cl::desc("Accepted for addr2line (also -r, "
                                             "--no-recursion-limit)"),
                                    cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias NoRecurseLimitR("r", cl::desc("Alias for --no-recurse-limit"),
                                 cl::aliasopt(NoRecurseLimit), cl::Grouping);
static cl::alias NoRecursionLimit("no-recursion-limit",
                                  cl::desc("Alias for --no-recurse-limit"),
                                  cl::aliasopt(NoRecurseLimit));
static cl::opt<bool> ShowVersion("v", cl::desc("Print the version (also -V)"),
                                 cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias ShowVersionV("V", cl::desc("Alias for -v"),
                              cl::aliasopt(ShowVersion));
static cl::opt<bool> ShowHelp("h", cl::desc("Print this help (also -H)"),
                              cl::sub(Addr2lineSub), cl::cat(category()));
static cl::alias ShowHelpH("H", cl::desc("Alias for -h"),
                           cl::aliasopt(ShowHelp));

static cl::opt<unsigned> NumThreads(
    "num-threads",
    cl::desc("Threads that answer the lines of stdin (default: all cores); "
             "the output does not depend on it"),
    cl::init(0), cl::sub(Addr2lineSub), cl::cat(category()));

/// -b: the BFD names of ELF formats all start so (elf64-x86-64,
/// elf32-littlearm, elf64-little).
static bool isElfTarget(StringRef Name) { return Name.starts_with("elf"); }

/// -j: the section's addresses, read from the binary.
static Expected<AddressRange> sectionOfExe() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      Exe, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createFileError(Exe, errorCodeToError(Buf.getError()));
  Expected<AddressRange> R = findElfSection(**Buf, Section);
  if (!R)
    return createStringError(inconvertibleErrorCode(),
                             "'" + Exe + "': -j " + Section + ": " +
                                 toString(R.takeError()));
  return R;
}

static int runAddr2line() {
  if (ShowVersion) {
    printVersion(outs());
    return 0;
  }
  if (ShowHelp) {
    cl::PrintHelpMessage();
    return 0;
  }
  if (Target.getNumOccurrences() && !isElfTarget(Target))
    return reportError("-b " + Target +
                       ": not an ELF format; dwarfpack reads ELF binaries "
                       "and its own tables");
  SessionOptions Opts;
  if (Section.getNumOccurrences()) {
    Expected<AddressRange> R = sectionOfExe();
    if (!R)
      return reportError(R.takeError());
    Opts.Section = *R;
  }
  OpenOptions Open = lookupOpenOptions(NumThreads, {}, /*Quiet=*/false);
  Expected<OpenedTable> T = openLookupTable(Exe, Open, /*Quiet=*/false);
  if (!T)
    return reportError(T.takeError());
  PrinterOptions PO;
  PO.Style = OutputStyle::Addr2Line;
  PO.Demangle = Demangle && !DemangleNone;
  PO.Functions = Functions ? FunctionNames::Linkage : FunctionNames::None;
  PO.Inlines = Inlines;
  PO.Pretty = Pretty;
  PO.PrintAddress = ShowAddresses;
  PO.AddressDigits = 2 * T->Table->addressBytes();
  PO.Paths = Basenames ? PathStyle::BaseName : PathStyle::Absolute;
  ResultPrinter P(outs(), PO);
  SessionTables Tables(Open);
  Tables.setFixed(*T->Table, Exe);
  InputLine Fixed;
  QueryModule &M = cantFail(Tables.find(Fixed));
  QueryWarningPrinter Warnings(/*Quiet=*/false);
  QueryWarningFn Warn = [&](const QueryWarning &W) { Warnings(W); };
  QuerySession Session(Tables, P, Opts, Warn);
  for (const std::string &A : Addresses)
    Session.answerAddress(M, parseAddr2LineAddress(A));
  if (!Addresses.empty()) {
    Session.flushCounts();
    Warnings.finish();
    return 0;
  }
  QueryBatch Batch(Tables, PO, Opts, NumThreads);
  auto Answer = [](QuerySession &S, StringRef Line) {
    // The line programs send to find where an answer ends (perf's `,`, the
    // sanitizers' all-ones address) gets its `??` without a warning, as
    // GNU addr2line, which warns of no address, answers it.
    S.answerAddress(*S.tables().fixed(), parseAddr2LineAddress(Line),
                    QueryCommand::Code, !isAddr2LineEndMarker(Line));
  };
  // outs() writes to stdout: answers go there without a copy.
  Batch.setOutputFile(STDOUT_FILENO);
  StdinLines In(outs(), [&] { Batch.finishWriting(); });
  std::vector<StringRef> Lines;
  while (In.next(Lines))
    Batch.answer(Lines, Answer, outs(), Warn, [](StringRef Line) {
      return QueryBatch::LineKey{parseAddr2LineAddress(Line), true};
    });
  Batch.finishWriting();
  Warnings.finish();
  return 0;
}

static const char *Addr2lineDetails =
    "dwarfpack addr2line [-a] [-C] [-f] [-i] [-p] [-s] [-j SECTION] "
    "-e TABLE|ELF [ADDRESS...]\n"
    "\n"
    "  Answers hexadecimal addresses (0x optional) from a table dwarfpack\n"
    "  wrote (or from the binary, converted in memory into the table gsym\n"
    "  would write), printing what GNU addr2line prints: FILE:LINE,\n"
    "  with -f the function first, with -i the inlined frames, with -p\n"
    "  one line per address, with -a the address first, with -C demangled\n"
    "  names, with -s file names without directories; with -j SECTION\n"
    "  the numbers are offsets in that section of the binary. Without\n"
    "  addresses, reads one per line from stdin and answers each at once.\n"
    "  binutils' -b, -r, -R, -v and -h are taken too. A link to dwarfpack\n"
    "  named addr2line runs this command.\n";

static CommandRegistration RegisterAddr2line(Addr2lineSub, runAddr2line,
                                             Addr2lineDetails);
