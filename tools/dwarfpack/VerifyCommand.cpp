//===- VerifyCommand.cpp - `dwarfpack verify TABLE INPUT` -----------------===//
//
// Checks an address table (GSYM or compact) against the DWARF of the binary
// it was made from and
// prints a summary: what was checked, mismatches counted by kind with a few
// examples. Exit status 1 when anything mismatches.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "DebugFileArgs.h"
#include "FormatRegistry.h"

#include "dwarfpack/Verify/TableVerifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static cl::SubCommand
    VerifySub("verify",
              "Check an address table (GSYM or compact) against the DWARF it "
              "came from");
static cl::opt<std::string> TableFile(cl::Positional, cl::Required,
                                      cl::desc("<table: .dpat or .gsym>"),
                                      cl::sub(VerifySub), cl::cat(category()));
static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<binary with DWARF>"),
                                      cl::sub(VerifySub), cl::cat(category()));

static cl::opt<unsigned>
    NumThreads("num-threads",
               cl::desc("Worker threads (default: all cores); the report "
                        "does not depend on it"),
               cl::init(0), cl::sub(VerifySub), cl::cat(category()));

static DebugFileArgs DebugFiles(VerifySub);

static cl::opt<bool>
    ShowStats("stats",
              cl::desc("Print the CPU time of loading DWARF and comparing"),
              cl::sub(VerifySub), cl::cat(category()));

static int reportVerification(Expected<verify::TableVerifyStats> Stats,
                              const WarningLog &Log, StringRef TableFile,
                              StringRef InputFile, bool ShowStats,
                              raw_ostream &OS) {
  if (!Stats)
    return reportError(Stats.takeError());
  OS << "checked '" << TableFile << "' against '" << InputFile
     << "': " << Stats->FunctionsChecked << " functions ("
     << Stats->SymbolOnlyFunctions << " from the symbol table only, not "
     << "compared), " << Stats->AddressesChecked << " addresses, "
     << Stats->DwarfRangesChecked << " DWARF subprogram ranges\n";
  if (ShowStats)
    OS << format("cpu: %.2f s loading DWARF, %.2f s comparing\n",
                 Stats->LoadSeconds, Stats->CompareSeconds);
  if (Stats->FoldedAddresses)
    OS << "folded code: " << Stats->FoldedAddresses
       << " addresses where several subprograms describe the same code "
          "(identical code folding, COMDAT copies) and the names differ, "
          "not mismatches\n";
  OS << "mismatches: " << Stats->Mismatches << '\n';
  for (const WarningLog::KindSummary &K : Log.summary()) {
    OS << "  " << K.Kind << ": " << K.Count << '\n';
    for (const std::string &E : K.Examples)
      OS << "    " << E << '\n';
  }
  OS.flush();
  if (Stats->Mismatches)
    return reportError("'" + TableFile + "' does not match the DWARF of '" +
                       InputFile + "' (" + Twine(Stats->Mismatches) +
                       " mismatches)");
  return 0;
}

int dwarfpack::tool::runVerification(MemoryBufferRef Table,
                                     MemoryBufferRef Input, unsigned NumThreads,
                                     bool ShowStats, raw_ostream &OS,
                                     StringRef Package) {
  WarningLog Log;
  verify::TableVerifyOptions Opts;
  Opts.NumThreads = NumThreads;
  Opts.Package = Package.str();
  return reportVerification(verify::verifyTableBuffer(Table, Input, Log, Opts),
                            Log, Table.getBufferIdentifier(),
                            Input.getBufferIdentifier(), ShowStats, OS);
}

static int runVerify() {
  if (Error E = prepareHeapForConversion({TableFile, InputFile}))
    return reportError(std::move(E));
  if (Error E = checkNumThreads(NumThreads))
    return reportError(std::move(E));
  if (TableFile == "-" && InputFile == "-")
    return reportError("the table and the binary cannot both be standard "
                       "input");
  // Each read once: either may be standard input or a pipe.
  Expected<std::unique_ptr<MemoryBuffer>> Table = mapInputFile(TableFile);
  if (!Table)
    return reportError(Table.takeError());
  // The binary given first is an easy slip: say so, rather than that it is
  // not a GSYM file.
  if ((*Table)->getBuffer().starts_with("\177ELF"))
    return reportError("'" + TableFile +
                       "' is an ELF file, not an address table: give the "
                       "table first, then the binary "
                       "(dwarfpack verify TABLE BINARY)");
  Expected<std::unique_ptr<MemoryBuffer>> Input = mapInputFile(InputFile);
  if (!Input)
    return reportError(Input.takeError());
  // A stripped binary is checked against its debug file, found as `gsym`
  // finds it when it made the table.
  MemoryBufferRef Against((*Input)->getBuffer(), InputFile);
  WarningLog Log;
  Expected<input::InputWithDebugFile> Opened =
      input::openWithDebugFile(Against, DebugFiles.options(), Log);
  if (!Opened)
    return reportError(Opened.takeError());
  reportWarningSummary(Log);
  std::unique_ptr<MemoryBuffer> DebugBuf;
  if (Opened->Debug) {
    reportDebugFile(*Opened, InputFile, /*Quiet=*/false);
    Expected<std::unique_ptr<MemoryBuffer>> D =
        mapInputFile(Opened->Debug->Path);
    if (!D)
      return reportError(D.takeError());
    DebugBuf = std::move(*D);
    Against = MemoryBufferRef(DebugBuf->getBuffer(), Opened->Debug->Path);
  } else if (!Opened->Object->hasDebugInfo() &&
             !Opened->Object->isRelocatable()) {
    // A symbol-only table is checked all the same (segments, symbols).
    reportWarning("'" + InputFile + "': no DWARF to check lines against; " +
                  noDebugFileReason(*Opened));
  }
  Opened->Object.reset();
  return runVerification(MemoryBufferRef((*Table)->getBuffer(), TableFile),
                         Against, NumThreads, ShowStats, outs(),
                         DebugFiles.options().Package);
}

static const char *VerifyDetails =
    "dwarfpack verify TABLE BINARY [options]\n"
    "\n"
    "  Checks an address table (compact or GSYM, from dwarfpack or\n"
    "  llvm-gsymutil) against the DWARF of the binary it was made from:\n"
    "  every line row and inline boundary of every function. Prints the\n"
    "  mismatches counted by kind; exit status 1 when there is one.\n"
    "  A stripped BINARY is checked against its separate debug file,\n"
    "  found as `gsym` finds it (--debug-file, --debug-file-directory).\n";

static CommandRegistration RegisterVerify(VerifySub, runVerify, VerifyDetails);
