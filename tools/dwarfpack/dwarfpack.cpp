//===- dwarfpack.cpp - The dwarfpack command-line driver ------------------===//
//
// Parses the command line and hands over to the chosen subcommand. Every
// subcommand is a thin layer over the libraries in lib/.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "DebugFileArgs.h"
#include "FormatRegistry.h"
#include "LookupModes.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Symbolize/Debuginfod.h"
#include "dwarfpack/Symbolize/TableCache.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <utility>

using namespace llvm;

namespace dwarfpack {
namespace tool {

struct RegisteredCommand {
  cl::SubCommand *Sub;
  CommandFn Run;
  const char *Details;
};

static SmallVector<RegisteredCommand, 16> &registry() {
  static SmallVector<RegisteredCommand, 16> Commands;
  return Commands;
}

CommandRegistration::CommandRegistration(cl::SubCommand &Sub, CommandFn Run,
                                         const char *Details) {
  registry().push_back({&Sub, Run, Details});
}

cl::OptionCategory &category() {
  static cl::OptionCategory Category("dwarfpack options");
  return Category;
}

int reportError(Error E) {
  int Status = 0;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    Status = reportError(EI.message());
  });
  return Status ? Status : 1;
}

int reportError(const Twine &Message) {
  errs().flush();
  WithColor::error(errs(), "dwarfpack") << Message << '\n';
  return 1;
}

raw_ostream &reportStream(StringRef Output) {
  return Output == "-" ? errs() : outs();
}

Error flushStandardOutput() { return finishOutputStream(outs(), "-"); }

Error checkNumThreads(unsigned N) {
  // LLVM's thread pools take the count as an int: larger ones would wrap.
  if (N > MaxThreads)
    return createStringError(inconvertibleErrorCode(),
                             "--num-threads=" + Twine(N) + ": at most " +
                                 Twine(MaxThreads));
  return Error::success();
}

Expected<std::unique_ptr<MemoryBuffer>> readFileOrStdin(StringRef Path,
                                                        bool IsText) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Path, IsText,
                                          /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createFileError(Path, errorCodeToError(Buf.getError()));
  if ((*Buf)->getBufferSize() == 0 && Path != "-") {
    auto Stream = MemoryBuffer::getFileAsStream(Path);
    if (!Stream)
      return createFileError(Path, errorCodeToError(Stream.getError()));
    return std::move(*Stream);
  }
  return std::move(*Buf);
}

ProgressFn terminalProgress(StringRef Command, bool Quiet) {
  if (Quiet || !sys::Process::StandardErrIsDisplayed())
    return nullptr;
  // Called from the walking thread only (units are merged in order).
  std::string Name = Command.str();
  return [Name](uint64_t Done, uint64_t Total) {
    if (Total < 200 || (Done % 50 != 0 && Done != Total))
      return;
    errs() << "\rdwarfpack " << Name << ": " << Done << "/" << Total
           << " compile units";
    if (Done == Total)
      errs() << "\n";
  };
}

void reportWarning(const Twine &Message) {
  // Answers written before the warning come before it.
  outs().flush();
  WithColor::warning(errs(), "dwarfpack") << Message << '\n';
}

void reportWarningSummary(const WarningLog &Log) {
  for (const std::string &Line : Log.summaryLines())
    reportWarning(Line);
}

bool portableReaders() {
  const char *V = std::getenv("DWARFPACK_PORTABLE_READER");
  return V && StringRef(V) == "1";
}

OpenOptions openOptions() {
  OpenOptions O;
  O.PortableReaders = portableReaders();
  return O;
}

OpenOptions lookupOpenOptions(unsigned Threads, ArrayRef<std::string> DebugDirs,
                              bool Quiet) {
  OpenOptions O = openOptions();
  O.Objects.Convert = true;
  O.Objects.Threads = Threads;
  O.Objects.DebugFileDirectories.assign(DebugDirs.begin(), DebugDirs.end());
  O.Objects.Progress = terminalProgress("lookup", Quiet);
  O.Objects.CacheDir = defaultTableCacheDir();
  // As llvm-symbolizer: a binary without a local debug file gets it from
  // the servers DEBUGINFOD_URLS names.
  const char *Urls = std::getenv("DEBUGINFOD_URLS");
  if (Urls && !StringRef(Urls).trim().empty() && debuginfodAvailable())
    O.Objects.FetchDebugFile = debuginfodFetcher();
  return O;
}

Expected<OpenedTable> openLookupTable(StringRef Path, const OpenOptions &Opts,
                                      bool Quiet) {
  Expected<OpenedTable> T = openTableFile(Path, Opts);
  if (!T || !T->Converted || Quiet)
    return T;
  const ObjectConversion &C = *T->Converted;
  reportWarningSummary(C.Log);
  if (std::string Missing = C.missing(); !Missing.empty())
    reportWarning("'" + Path + "': " + Missing + "; " +
                  noDebugFileReason(C.Tried));
  return T;
}

void printVersion(raw_ostream &OS) {
  OS << "dwarfpack version " << DWARFPACK_VERSION << "\n";
}

} // namespace tool
} // namespace dwarfpack

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // As started, for a conversion that runs itself again (Heap.cpp).
  dwarfpack::tool::saveCommandLine(argc, argv);
  // A file size limit (ulimit -f) makes a write fail with EFBIG, reported
  // like a full disk, rather than raise SIGXFSZ, which LLVM's handlers
  // (installed by InitLLVM, once) take for a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  // Called through a link named like addr2line (x86_64-linux-gnu-addr2line
  // too), the binary is `dwarfpack addr2line`; through one named like
  // llvm-symbolizer (llvm-symbolizer-19 too), `dwarfpack lookup`: the
  // sanitizers' runtimes (ASAN_SYMBOLIZER_PATH) and other programs that run
  // those tools by name get dwarfpack's answers.
  SmallVector<char *, 16> Argv(argv, argv + argc);
  std::string Addr2line = "addr2line", Lookup = "lookup";
  StringRef Called = sys::path::stem(argv[0]);
  char *Sub = Called.contains("addr2line")         ? Addr2line.data()
              : Called.contains("llvm-symbolizer") ? Lookup.data()
                                                   : nullptr;
  if (Sub)
    Argv.insert(Argv.begin() + 1, Sub);
  if (Argv.size() > 1 && StringRef(Argv[1]) == "lookup")
    dwarfpack::tool::readBareDebuginfodFlag(Argv);
  argc = Argv.size();
  argv = Argv.data();
  cl::SetVersionPrinter(dwarfpack::tool::printVersion);
  cl::HideUnrelatedOptions(dwarfpack::tool::category());
  const char *Overview =
      "dwarfpack: compact, memory-mappable symbol and type tables from "
      "debug information\n\n"
      "  Run 'dwarfpack <subcommand> --help' for a subcommand's options.\n\n"
      "  DWARFPACK_HUGE_PAGE_HEAP=auto|always|never: whether gsym, ctf, pack\n"
      "  and verify run themselves again, at the start, with glibc's malloc\n"
      "  on 2 MiB pages (auto: for 64 MiB of input or more, when the kernel\n"
      "  gives huge pages on request; docs/UserGuide.md).\n";
  // `dwarfpack <subcommand> --help` shows that subcommand's longer text.
  for (const auto &C : dwarfpack::tool::registry())
    if (argc > 1 && C.Details && C.Sub->getName() == StringRef(argv[1]))
      Overview = C.Details;
  if (!cl::ParseCommandLineOptions(argc, argv, Overview, &errs()))
    return 1;
  for (const auto &C : dwarfpack::tool::registry())
    if (*C.Sub) {
      int Status = C.Run();
      // Reported here, not by the stream's destructor (which aborts).
      if (Error E = dwarfpack::tool::flushStandardOutput())
        Status = dwarfpack::tool::reportError(std::move(E));
      return Status;
    }
  return dwarfpack::tool::reportError(
      "no subcommand given (run 'dwarfpack --help' for the list)");
}
