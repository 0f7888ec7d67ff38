//===- LookupCommand.cpp - `dwarfpack lookup FILE [ADDR...]` --------------===//
//
// Looks addresses up in any registered format, printing like
// `llvm-symbolizer --inlines`. Without addresses on the command line it reads
// one per line from stdin and answers each line at once (flushing), so a
// profiler can keep the process open as a symbolization server.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/Symbolize/Printer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

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
static cl::list<std::string>
    Args(cl::Positional, cl::ZeroOrMore,
         cl::desc("<file> [address...] (addresses read from stdin when none)"),
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

/// Parses an address as llvm-symbolizer does: decimal, or with 0x / 0b /
/// 0o / leading-0 prefixes; surrounding blanks are ignored and only the
/// first word counts.
static bool parseAddress(StringRef Text, uint64_t &Value) {
  Text = Text.trim();
  Text = Text.take_until([](char C) { return isSpace(C); });
  if (Text.empty())
    return false;
  return !Text.getAsInteger(0, Value);
}

static void symbolize(const AddressSymbolizer &S, ResultPrinter &P,
                      StringRef InputFile, StringRef Text) {
  uint64_t Addr;
  if (!parseAddress(Text, Addr)) {
    reportWarning("'" + Text + "': expected an address");
    P.printInvalidInput();
    return;
  }
  Expected<LookupResult> R = S.lookup(Addr);
  if (!R) {
    std::string Msg = toString(R.takeError());
    reportWarning("'" + InputFile + "': " + Msg);
    P.printError(Addr, Msg);
    return;
  }
  P.print(*R);
}

static int runLookup() {
  std::string InputFile = Obj;
  ArrayRef<std::string> Addresses = Args;
  if (Obj.getNumOccurrences() == 0) {
    if (Args.empty())
      return reportError("no input file: give FILE or --obj=FILE");
    InputFile = Args.front();
    Addresses = Addresses.drop_front();
  }
  Expected<KnownFile> File = openKnownFile(InputFile);
  if (!File)
    return reportError(File.takeError());
  const FormatHandler *H = File->Handler;
  if (!H->Open)
    return reportError("'" + InputFile + "': " + H->Name +
                       " files have no addresses to look up");
  auto S = H->Open(std::move(File->Buffer));
  if (!S)
    return reportError(createFileError(InputFile, S.takeError()));

  PrinterOptions Opts;
  Opts.Style = Style;
  Opts.Demangle = !NoDemangle;
  Opts.Inlines = Inlines && !NoInlines;
  Opts.ModuleName = InputFile;
  ResultPrinter P(outs(), Opts);
  if (!Addresses.empty()) {
    P.beginList();
    for (const std::string &A : Addresses)
      symbolize(**S, P, InputFile, A);
    P.endList();
    return 0;
  }
  std::string Line;
  while (std::getline(std::cin, Line))
    symbolize(**S, P, InputFile, Line); // flushed after each answer
  return 0;
}

static CommandRegistration RegisterLookup(LookupSub, runLookup);
