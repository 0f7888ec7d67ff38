//===- FuzzLineTable.cpp - Line tables: ours against LLVM's parser --------===//
//
// One input: an options byte, then a .debug_line section. The options pick
// the unit's address size (0 unknown, 4, 8), the byte order, and which table
// is decoded (the first, or the one after it). dwarfpack's LineTable and
// LLVM 19's DWARFDebugLine decode it from the same bytes and must agree on
// every row, sequence, file path and warning (LineTableCheck.h), unless
// ours refuses the table (LineHeader.h: LLVM would crash or read outside
// it) or stops at a length LLVM would follow back (LineTable.h); then LLVM
// is not asked. The string sections the entries may point into are fixed.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/DwarfInput/LineHeader.h"
#include "dwarfpack/DwarfInput/LineTableCheck.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::input;

namespace {

// Strings for DW_FORM_line_strp and DW_FORM_strp, with and without
// directories, and an unterminated one at the end.
const char LineStr[] = "\0/comp\0inc\0a.c\0/abs/b.h\0C:\\w\0x";
const char Str[] = "s.c\0dir\0";

/// A context over the string sections (its .debug_line is not used).
const DWARFContext &context(bool LittleEndian) {
  static std::unique_ptr<DWARFContext> Contexts[2];
  std::unique_ptr<DWARFContext> &Ctx = Contexts[LittleEndian];
  if (!Ctx) {
    StringMap<std::unique_ptr<MemoryBuffer>> Map;
    Map["debug_line_str"] = MemoryBuffer::getMemBuffer(
        StringRef(LineStr, sizeof(LineStr) - 1), "debug_line_str", false);
    Map["debug_str"] = MemoryBuffer::getMemBuffer(
        StringRef(Str, sizeof(Str) - 1), "debug_str", false);
    Ctx = DWARFContext::create(Map, 8, LittleEndian);
  }
  return *Ctx;
}

/// The offset of the table after the one at 0, or 0.
uint64_t secondTable(const LineSections &S) {
  LineHeader H;
  Error E =
      LineHeader::parse(S, 0, H, [](Error W) { consumeError(std::move(W)); });
  consumeError(std::move(E));
  uint64_t Next = H.UnitLength + H.unitLengthSize();
  return H.UnitLength && Next < S.Line.size() ? Next : 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  const uint8_t Options = Data[0];
  // An allocation of the section's own size: a read past it is one
  // AddressSanitizer sees.
  std::unique_ptr<char[]> Copy(new char[Size - 1]);
  memcpy(Copy.get(), Data + 1, Size - 1);
  StringRef Line(Copy.get(), Size - 1);

  LineSections S;
  S.Line = Line;
  S.LineStr = StringRef(LineStr, sizeof(LineStr) - 1);
  S.Str = StringRef(Str, sizeof(Str) - 1);
  S.AddressSize = std::array<uint8_t, 4>{0, 4, 8, 8}[Options & 3];
  S.LittleEndian = !(Options & 4);
  uint64_t Offset = (Options & 8) ? secondTable(S) : 0;

  DWARFDataExtractor Extractor(Line, S.LittleEndian, S.AddressSize);
  static const StringRef Dirs[] = {"", "/comp", "rel"};
  LineCheckResult R = checkLineTable(S, Offset, Extractor,
                                     context(S.LittleEndian), nullptr, Dirs);
  if (R.Result == LineCheckResult::Outcome::Different)
    fuzz::fail("line table at " + Twine(Offset) + ": " + R.Difference);
  return 0;
}
