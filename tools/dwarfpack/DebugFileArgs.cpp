//===- DebugFileArgs.cpp - --debug-file and --debug-file-directory --------===//

#include "DebugFileArgs.h"
#include "Command.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

DebugFileArgs::DebugFileArgs(cl::SubCommand &Sub)
    : File("debug-file",
           cl::desc("Read the DWARF and the symbol table from this separate "
                    "debug file of the input (a stripped binary); the "
                    "table's build-id and load segments stay the input's"),
           cl::value_desc("file"), cl::sub(Sub), cl::cat(category())),
      Directories(
          "debug-file-directory",
          cl::desc("Where to look for the debug file of an input without "
                   "DWARF, before /usr/lib/debug (repeatable): by build-id "
                   "(<dir>/.build-id/xx/rest.debug, <dir>/xx/rest.debug), "
                   "by .gnu_debuglink (<dir>/<input's directory>/<name>)"),
          cl::value_desc("dir"), cl::sub(Sub), cl::cat(category())),
      Package("dwp",
              cl::desc("The .dwp package of the input's split DWARF units "
                       "(of its debug file's, for a stripped binary), "
                       "instead of the file's path with .dwp added"),
              cl::value_desc("file"), cl::sub(Sub), cl::cat(category())) {}

Error DebugFileArgs::refuseForKernel() const {
  StringRef Given = File.getNumOccurrences()          ? "--debug-file"
                    : Directories.getNumOccurrences() ? "--debug-file-directory"
                    : Package.getNumOccurrences()     ? "--dwp"
                                                      : "";
  if (Given.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           Given + " applies to one object, not to a kernel "
                                   "and its modules");
}

input::DebugFileOptions DebugFileArgs::options() const {
  input::DebugFileOptions O;
  O.DebugFile = File;
  O.Where.Directories.assign(Directories.begin(), Directories.end());
  O.Package = Package;
  return O;
}

void reportDebugFile(const input::InputWithDebugFile &In, StringRef Input,
                     bool Quiet) {
  if (Quiet || !In.Debug)
    return;
  WithColor::note(errs(), "dwarfpack")
      << "'" << Input << "': DWARF and symbols from '" << In.Debug->Path
      << "' (" << input::describe(In.Debug->How) << ")\n";
}

std::string noDebugFileReason(const input::InputWithDebugFile &In) {
  return noDebugFileReason(In.Tried);
}

std::string noDebugFileReason(ArrayRef<std::string> Tried) {
  return input::noDebugFileReason(Tried,
                                  "--debug-file-directory adds places to look");
}

std::string symbolOnlyTable(const input::InputWithDebugFile &In) {
  return In.Object->miniDebugInfo()
             ? "a symbol-only table (with the function symbols of its "
               "MiniDebugInfo, .gnu_debugdata)"
             : "a symbol-only table";
}

} // namespace tool
} // namespace dwarfpack
