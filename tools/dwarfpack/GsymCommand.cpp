//===- GsymCommand.cpp - dwarfpack gsym: ELF + DWARF to an address table --===//

#include "Command.h"

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/DWARF/ObjectConverter.h"
#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>

using namespace llvm;

namespace dwarfpack {
namespace tool {
namespace {

cl::SubCommand GsymSub(
    "gsym",
    "Convert an ELF file's DWARF and symbol tables to an address table\n\n"
    "  dwarfpack gsym INPUT -o OUTPUT [options]\n\n"
    "  INPUT is an ELF executable, shared library, vmlinux, kernel module\n"
    "  (.ko) or separate debug file. Every function with code in DWARF\n"
    "  becomes an entry with its line table and inlined calls; code that\n"
    "  only the symbol tables (.symtab, .dynsym) describe is added by name.\n"
    "  The output is the same for any --num-threads.");

cl::opt<std::string> Input(cl::Positional, cl::desc("<input ELF file>"),
                           cl::Required, cl::sub(GsymSub), cl::cat(category()));
cl::opt<std::string> Output("o", cl::desc("Output file (required)"),
                            cl::value_desc("file"), cl::Required,
                            cl::sub(GsymSub), cl::cat(category()));
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
enum class OutFormat { Gsym };
cl::opt<OutFormat>
    Format("format", cl::desc("Output format"), cl::init(OutFormat::Gsym),
           cl::values(clEnumValN(OutFormat::Gsym, "gsym",
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

int runGsym() {
  auto Start = std::chrono::steady_clock::now();
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
  if (Error E = convertObjectFile(Input, Model, Options, Log, &CS))
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

  gsym::WriteStats WS;
  Expected<std::string> Bytes = gsym::encodeGsym(Model, &WS);
  if (!Bytes)
    return reportError(createFileError(Output, Bytes.takeError()));
  if (Error E = writeToOutput(Output, [&](raw_ostream &OS) -> Error {
        OS << *Bytes;
        return Error::success();
      })) {
    // Some errors name the file already, some do not: name it once.
    std::string Msg = toString(std::move(E));
    StringRef Rest(Msg);
    std::string Prefix = "'" + Output + "': ";
    Rest.consume_front(Prefix);
    return reportError("cannot write '" + Output + "': " + Rest);
  }

  auto Written = std::chrono::steady_clock::now();

  // --verify: the coordinator wires the GSYM reader's verifier in here
  // (compare the written file against the DWARF for sampled addresses).

  if (!Quiet)
    printWarnings(Log);
  if (Stats) {
    uint64_t FromDwarf = 0;
    for (const FunctionEntry &F : Model.functions())
      FromDwarf += F.hasDebugInfo();
    auto Secs = [](auto From, auto To) {
      return std::chrono::duration<double>(To - From).count();
    };
    outs() << "input:        " << Input << "\n"
           << "dwarf bytes:  " << CS.DebugBytes << " (" << CS.CompileUnits
           << " compile units)\n"
           << "output:       " << Output << " (gsym)\n"
           << "output bytes: " << WS.Bytes << "\n"
           << "functions:    " << WS.Functions << " (" << FromDwarf
           << " from DWARF, " << (WS.Functions - FromDwarf)
           << " from symbols)\n"
           << "line rows:    " << WS.LineRows << "\n"
           << "inline nodes: " << WS.InlineNodes << "\n"
           << "files:        " << WS.Files << "\n"
           << "strings:      " << WS.Strings << "\n"
           << "warnings:     " << Log.total() << "\n"
           << "wall time:    "
           << format("%.3f", Secs(Start, std::chrono::steady_clock::now()))
           << " s (read " << format("%.3f", Secs(Start, Read)) << ", finalize "
           << format("%.3f", Secs(Read, Finalized)) << ", write "
           << format("%.3f", Secs(Finalized, Written)) << ")\n";
  }
  return 0;
}

CommandRegistration Registration(GsymSub, runGsym);

} // namespace
} // namespace tool
} // namespace dwarfpack
