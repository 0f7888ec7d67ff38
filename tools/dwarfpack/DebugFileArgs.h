//===- DebugFileArgs.h - The options that find debug files ------*- C++ -*-===//
//
// The options of `gsym`, `ctf`, `pack` and `verify` that find a stripped
// binary's separate debug file (DwarfInput/DebugFile.h) and the .dwp
// package of its split units, and the line that says which file a
// conversion used.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_DEBUGFILEARGS_H
#define DWARFPACK_TOOLS_DEBUGFILEARGS_H

#include "dwarfpack/DwarfInput/DebugFile.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace dwarfpack {
namespace tool {

class DebugFileArgs {
public:
  explicit DebugFileArgs(llvm::cl::SubCommand &Sub);
  input::DebugFileOptions options() const;
  /// An error naming the first of the options given, if any: for modes that
  /// read no debug file (a kernel and its modules) to refuse them.
  llvm::Error refuseForKernel() const;

private:
  llvm::cl::opt<std::string> File;
  llvm::cl::list<std::string> Directories;
  llvm::cl::opt<std::string> Package;
};

/// Says on stderr, unless Quiet, which debug file the conversion of Input
/// reads its DWARF from, if any.
void reportDebugFile(const input::InputWithDebugFile &In, llvm::StringRef Input,
                     bool Quiet);

/// For an input without DWARF and without a debug file: why none was used,
/// for the warning that the table has symbols only.
std::string noDebugFileReason(const input::InputWithDebugFile &In);
/// The same, from the paths the search tried.
std::string noDebugFileReason(llvm::ArrayRef<std::string> Tried);

/// "a symbol-only table", and whose symbols: a stripped binary's
/// MiniDebugInfo named too, when it has one.
std::string symbolOnlyTable(const input::InputWithDebugFile &In);

} // namespace tool
} // namespace dwarfpack

#endif
