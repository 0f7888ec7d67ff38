//===- InputLine.h - Queries as llvm-symbolizer and addr2line read them ---===//
//
// llvm-symbolizer reads one query per argument or per line of stdin:
//
//   [CODE |DATA |FRAME ][MODULE ]ADDRESS-OR-SYMBOL [ignored words]
//
// where MODULE, only when the module is not given otherwise (--obj), is a
// file (`PATH`, `"PATH"`, `'PATH'` or `FILE:PATH`) or a build-id
// (`BUILDID:HEX`). Words are delimited by spaces (and line ends, not tabs).
// GNU addr2line reads one hexadecimal address per line instead.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_INPUTLINE_H
#define DWARFPACK_SYMBOLIZE_INPUTLINE_H

#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dwarfpack {

/// llvm-symbolizer's commands.
enum class QueryCommand { Code, Data, Frame };

/// Which module a line may name.
enum class LineModules {
  /// None: the module is given otherwise (--obj, --build-id); a line that
  /// names one is an error, as llvm-symbolizer says.
  None,
  /// A file or a build-id, one of them required (llvm-symbolizer without
  /// --obj).
  FileOrBuildId,
  /// A build-id, required (a store of tables by build-id).
  BuildIdOnly,
};

struct InputLine {
  QueryCommand Command = QueryCommand::Code;
  /// The module the line names: a file, or a build-id.
  std::string File;
  std::optional<llvm::SmallVector<uint8_t, 20>> BuildId;
  /// What is asked: an address, or a symbol (never neither).
  ParsedQuery Target;
  /// What follows the address or symbol (a kernel trace's `[module]`).
  llvm::StringRef Rest;
};

/// Reads Line (without its line end). Errors give the reason in words;
/// the caller names the line. An empty line is an error too, but one
/// llvm-symbolizer answers without a message (a liveness probe): the
/// caller can tell it by Line.empty().
llvm::Expected<InputLine> parseInputLine(llvm::StringRef Line,
                                         LineModules Modules);

/// The address on a line of GNU addr2line's input: leading blanks, an
/// optional 0x or 0X, and the hexadecimal digits that follow, up to the
/// first other character; 0 when there are none, as addr2line reads it.
uint64_t parseAddr2LineAddress(llvm::StringRef Line);

/// Whether Line is what programs that drive GNU addr2line send after an
/// address to find where its answer ends: a line without an address
/// (perf's `,`, read as 0) or the address of all ones (the sanitizers'
/// runtimes: 0xffffffffffffffff, 0xffffffff). addr2line answers it `??`,
/// and warns of nothing.
bool isAddr2LineEndMarker(llvm::StringRef Line);

} // namespace dwarfpack

#endif
