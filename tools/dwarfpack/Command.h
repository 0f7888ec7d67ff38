//===- Command.h - Subcommand registration for the dwarfpack driver -------===//
//
// Each subcommand lives in its own source file in this directory. It declares
// an llvm::cl::SubCommand with its options and registers a run function with
// a static CommandRegistration object; dwarfpack.cpp dispatches to it.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_COMMAND_H
#define DWARFPACK_TOOLS_COMMAND_H

#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/OutputFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace dwarfpack {
class WarningLog;
namespace tool {

using CommandFn = int (*)();

/// The option category of every dwarfpack option; --help hides the rest of
/// LLVM's global options. Declare options with cl::cat(category()).
llvm::cl::OptionCategory &category();

/// Registers a subcommand. The SubCommand's description is one line (the
/// top-level --help lists them); Details, when given, is the longer text that
/// `dwarfpack <subcommand> --help` prints as its overview.
struct CommandRegistration {
  CommandRegistration(llvm::cl::SubCommand &Sub, CommandFn Run,
                      const char *Details = nullptr);
};

/// Keeps the process's argv as main() received it, for
/// prepareHeapForConversion.
void saveCommandLine(int Argc, char **Argv);

/// For commands that convert DWARF, before they read anything: freed
/// memory stays with the process for reuse rather than going back to the
/// system, and a conversion of large Inputs runs itself again, once, with
/// glibc's malloc on 2 MiB pages (Heap.cpp says why). Fails only for a bad
/// DWARFPACK_HUGE_PAGE_HEAP. Queries, which may run for long, keep
/// malloc's defaults.
llvm::Error prepareHeapForConversion(llvm::ArrayRef<std::string> Inputs);

/// Prints "dwarfpack: error: <message>" to stderr and returns exit status 1.
/// Prints `dwarfpack version X` (--version, and the -v of the commands that
/// stand in for other tools).
void printVersion(llvm::raw_ostream &OS);

int reportError(llvm::Error E);
int reportError(const llvm::Twine &Message);

/// Checks an address table (GSYM or compact) against the DWARF of the input
/// it was made from, both in memory (named by their identifiers), and prints
/// the report to OS (VerifyCommand.cpp); 0 when they agree. Package: the
/// .dwp package of Input's split units, when not its path with .dwp added.
int runVerification(llvm::MemoryBufferRef Table, llvm::MemoryBufferRef Input,
                    unsigned NumThreads, bool ShowStats, llvm::raw_ostream &OS,
                    llvm::StringRef Package = "");

/// Where a command prints its reports (--stats, --verify): standard output,
/// or standard error when Output is "-" and standard output holds the file.
llvm::raw_ostream &reportStream(llvm::StringRef Output);

/// Flushes standard output; a write error (disk full) becomes an Error.
llvm::Error flushStandardOutput();

/// Like clang's -disable-free, for a command that is about to exit with
/// its outputs written: the kernel reclaims a model's pages at once, where
/// its destructors free hundreds of thousands of blocks one by one (50 ms
/// of a 0.8 s conversion of vmlinux). Leak checkers still find the memory
/// reachable.
template <typename T> void releaseAtExit(std::unique_ptr<T> P) {
  llvm::BuryPointer(std::move(P));
}

/// The largest --num-threads accepted.
constexpr unsigned MaxThreads = 1024;

/// An error naming --num-threads when N is more than MaxThreads.
llvm::Error checkNumThreads(unsigned N);

/// Reads Path ("-": stdin), also a /proc file, which reports size 0 and is
/// read as a stream. Errors name Path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFileOrStdin(llvm::StringRef Path, bool IsText);

/// Progress of a long conversion on standard error, "dwarfpack COMMAND:
/// N/M compile units", for people watching a terminal: empty (nothing is
/// shown) when stderr is not one, when Quiet, and for runs of fewer than
/// 200 units.
ProgressFn terminalProgress(llvm::StringRef Command, bool Quiet);

/// Prints "dwarfpack: warning: <message>" to stderr, after flushing stdout
/// (answers written before the warning come before it).
void reportWarning(const llvm::Twine &Message);

/// One warning line per kind of skipped input problem in Log: "N x kind
/// (e.g. first example)".
void reportWarningSummary(const WarningLog &Log);

/// Whether kernel symbol table readers must keep to their portable code
/// paths: set by the environment variable DWARFPACK_PORTABLE_READER=1, so
/// tests and benchmarks can run both paths of the same command
/// (dwarfpack.cpp; openOptions() in FormatRegistry.h passes it on).
bool portableReaders();

/// Whether a dict gets the CTF variable section (name to type of each
/// global variable): as --variable-section (Opt) says when given, else when
/// the dict is embedded in its object for debuggers: GDB's CTF reader
/// knows a global variable of struct, union or enum type from that section
/// only, not from the data objects.
inline bool variableSection(const llvm::cl::opt<bool> &Opt, bool Embedded) {
  return Opt.getNumOccurrences() ? bool(Opt) : Embedded;
}
/// The error for --variable-section in kernel mode, if it was given: a
/// kernel's dicts name each variable in their indexed data objects.
inline llvm::Error
refuseVariableSectionForKernel(const llvm::cl::opt<bool> &Opt) {
  if (!Opt.getNumOccurrences())
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "--variable-section applies to one object: a kernel's and its "
      "modules' dicts name each variable in their data objects");
}

} // namespace tool
} // namespace dwarfpack

#endif
