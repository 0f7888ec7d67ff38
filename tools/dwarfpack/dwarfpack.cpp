//===- dwarfpack.cpp - The dwarfpack command-line driver ------------------===//
//
// Parses the command line and hands over to the chosen subcommand. Every
// subcommand is a thin layer over the libraries in lib/.
//
//===----------------------------------------------------------------------===//

#include "Command.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>

using namespace llvm;

namespace dwarfpack {
namespace tool {

static SmallVector<std::pair<cl::SubCommand *, CommandFn>, 16> &registry() {
  static SmallVector<std::pair<cl::SubCommand *, CommandFn>, 16> Commands;
  return Commands;
}

CommandRegistration::CommandRegistration(cl::SubCommand &Sub, CommandFn Run) {
  registry().push_back({&Sub, Run});
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

void reportWarning(const Twine &Message) {
  WithColor::warning(errs(), "dwarfpack") << Message << '\n';
}

} // namespace tool
} // namespace dwarfpack

static void printVersion(raw_ostream &OS) {
  OS << "dwarfpack version " << DWARFPACK_VERSION << "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(dwarfpack::tool::category());
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "dwarfpack: compact, memory-mappable symbol and type tables from "
          "debug information\n\n"
          "  Run 'dwarfpack <subcommand> --help' for a subcommand's options.\n",
          &errs()))
    return 1;
  for (auto &[Sub, Run] : dwarfpack::tool::registry())
    if (*Sub)
      return Run();
  return dwarfpack::tool::reportError(
      "no subcommand given (run 'dwarfpack --help' for the list)");
}
