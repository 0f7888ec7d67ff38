//===- SourceContext.h - Source lines around a frame's line ----*- C++ -*-===//
//
// llvm-symbolizer --print-source-context-lines=N prints, after a frame's
// location, N lines of its source file around the frame's line, the
// line itself marked. The file is read from the path as printed (after
// --basenames), so it is found where the user runs the lookup.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_SOURCECONTEXT_H
#define DWARFPACK_SYMBOLIZE_SOURCECONTEXT_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace dwarfpack {

/// Source files read for their context lines, kept while a batch of
/// answers names them again (at most MaxFiles at a time).
class SourceFiles {
public:
  /// The text of the file at Path, or nothing when it cannot be read (as
  /// llvm-symbolizer, which then prints no context) or is not a regular
  /// file of at most MaxFileSize bytes.
  std::optional<llvm::StringRef> text(llvm::StringRef Path);

private:
  static constexpr size_t MaxFiles = 64;
  /// Larger files are not read (none of the sources a compiler reads).
  static constexpr uint64_t MaxFileSize = uint64_t(256) << 20;
  /// Null for a file that could not be read.
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Files;
};

/// Writes Lines lines of Text, from Line - Lines / 2 (at least line 1), as
/// llvm-symbolizer 19 does: each `NUMBER >: TEXT` for Line and
/// `NUMBER  : TEXT` for the others, the numbers right-aligned in as many
/// columns as the decimal logarithm of the last line number, rounded up.
/// Lines past the end of the file are left out (nothing at all when Lines
/// is not positive or the file ends before the first of them).
void writeSourceContext(llvm::raw_ostream &OS, llvm::StringRef Text,
                        int64_t Line, int Lines);

} // namespace dwarfpack

#endif
