//===- SourceContext.cpp - Source lines around a frame's line -------------===//

#include "dwarfpack/Symbolize/SourceContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

std::optional<StringRef> SourceFiles::text(StringRef Path) {
  auto It = Files.find(Path);
  if (It == Files.end()) {
    // A batch over a large program names thousands of files: keep the
    // recent ones only.
    if (Files.size() >= MaxFiles)
      Files.clear();
    // A path in DWARF may name anything: only a regular file of sane size
    // is read (a FIFO would block, /dev/zero never end).
    sys::fs::file_status St;
    std::unique_ptr<MemoryBuffer> Text;
    if (!sys::fs::status(Path, St) && sys::fs::is_regular_file(St) &&
        St.getSize() <= MaxFileSize) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> B =
          MemoryBuffer::getFile(Path, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
      if (B)
        Text = std::move(*B);
    }
    It = Files.try_emplace(Path, std::move(Text)).first;
  }
  if (!It->second)
    return std::nullopt;
  return It->second->getBuffer();
}

/// The number of decimal digits llvm-symbolizer pads line numbers to when
/// the last one printed is Last: ceil(log10(Last)), which is 0 for 1 and
/// one short for a power of ten.
static unsigned numberWidth(int64_t Last) {
  unsigned Width = 0;
  for (int64_t Power = 1; Power < Last; Power *= 10)
    ++Width;
  return Width;
}

void writeSourceContext(raw_ostream &OS, StringRef Text, int64_t Line,
                        int Lines) {
  if (Lines <= 0)
    return;
  const int64_t First = std::max<int64_t>(1, Line - Lines / 2);
  const int64_t Last = First + Lines - 1;
  // From the start of line First to the end of line Last, its '\n' with
  // it (or the end of the text).
  size_t Begin = 0;
  for (int64_t L = 1; L < First; ++L) {
    size_t NewLine = Text.find('\n', Begin);
    if (NewLine == StringRef::npos)
      return; // the file ends before line First
    Begin = NewLine + 1;
  }
  size_t End = Begin;
  for (int64_t L = First; L <= Last && End != StringRef::npos; ++L) {
    End = Text.find('\n', End);
    if (End != StringRef::npos)
      ++End;
  }
  StringRef Range = Text.slice(Begin, End);
  const unsigned Width = numberWidth(Last);
  int64_t L = First;
  // A line is printed when the range goes on at its start: nothing is
  // printed for the empty rest after the file's last '\n'.
  for (size_t Pos = 0; Pos < Range.size(); ++L) {
    size_t Next = Range.find('\n', Pos);
    StringRef S = Range.slice(Pos, Next);
    if (S.ends_with("\r"))
      S = S.drop_back();
    OS << format_decimal(L, Width) << (L == Line ? " >: " : "  : ") << S
       << '\n';
    if (Next == StringRef::npos)
      break;
    Pos = Next + 1;
  }
}

} // namespace dwarfpack
