//===- ProcMaps.cpp - A process's memory map, as /proc/PID/maps shows it --===//

#include "dwarfpack/Symbolize/ProcMaps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace dwarfpack {

static bool hexField(StringRef Text, uint64_t &V) {
  return !Text.empty() && Text.size() <= 16 && all_of(Text, isHexDigit) &&
         !Text.getAsInteger(16, V);
}

/// Takes the next blank-separated field of Rest.
static StringRef nextField(StringRef &Rest) {
  Rest = Rest.ltrim(" \t");
  StringRef Field =
      Rest.take_until([](char C) { return C == ' ' || C == '\t'; });
  Rest = Rest.drop_front(Field.size());
  return Field;
}

/// One line; an error message (without the file and line) when malformed.
static Expected<MappedRange> parseLine(StringRef Line) {
  auto Bad = [&](const Twine &What) {
    return createStringError(inconvertibleErrorCode(), What);
  };
  StringRef Rest = Line;
  auto [StartText, EndText] = nextField(Rest).split('-');
  MappedRange R;
  if (!hexField(StartText, R.Start) || !hexField(EndText, R.End))
    return Bad("expected 'start-end' in hex");
  if (R.Start >= R.End)
    return Bad("the range is empty");
  R.Perms = nextField(Rest).str();
  if (R.Perms.size() != 4)
    return Bad("expected permissions such as 'r-xp'");
  if (!hexField(nextField(Rest), R.Offset))
    return Bad("expected the file offset in hex");
  auto [Major, Minor] = nextField(Rest).split(':');
  uint64_t Ignored;
  if (!hexField(Major, Ignored) || !hexField(Minor, Ignored))
    return Bad("expected the device as 'major:minor' in hex");
  StringRef Inode = nextField(Rest);
  if (Inode.empty() || Inode.getAsInteger(10, Ignored))
    return Bad("expected the inode in decimal");
  // The path is the rest of the line: file names may hold blanks.
  StringRef Path = Rest.trim(" \t\r");
  R.Deleted = Path.consume_back(" (deleted)");
  R.Path = Path.str();
  return R;
}

Expected<ProcMaps> ProcMaps::parse(StringRef Text, StringRef FileName) {
  ProcMaps M;
  size_t LineNo = 0;
  std::vector<size_t> LineOf;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    if (Line.trim().empty())
      continue;
    Expected<MappedRange> R = parseLine(Line);
    if (!R)
      return createStringError(inconvertibleErrorCode(),
                               "'" + FileName + "' line " + Twine(LineNo) +
                                   ": " + toString(R.takeError()));
    M.Ranges.push_back(std::move(*R));
    LineOf.push_back(LineNo);
  }
  // The kernel prints them sorted; a file pieced together may not be.
  std::vector<size_t> Order(M.Ranges.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    return M.Ranges[A].Start < M.Ranges[B].Start;
  });
  std::vector<MappedRange> Sorted;
  for (size_t I : Order) {
    if (!Sorted.empty() && Sorted.back().End > M.Ranges[I].Start)
      return createStringError(
          inconvertibleErrorCode(),
          "'" + FileName + "' line " + Twine(LineOf[I]) +
              ": the range overlaps another one (is it two processes' maps?)");
    Sorted.push_back(std::move(M.Ranges[I]));
  }
  M.Ranges = std::move(Sorted);
  return M;
}

const MappedRange *ProcMaps::find(uint64_t Address) const {
  auto It =
      llvm::upper_bound(Ranges, Address, [](uint64_t A, const MappedRange &R) {
        return A < R.Start;
      });
  if (It == Ranges.begin())
    return nullptr;
  --It;
  return Address < It->End ? &*It : nullptr;
}

std::optional<FileLocation> ProcMaps::fileLocation(uint64_t Address) const {
  const MappedRange *R = find(Address);
  if (!R || !R->isFile())
    return std::nullopt;
  // Offset + (Address - Start) may wrap only for a hostile file: then the
  // offset is in no segment of the table and nothing answers.
  return FileLocation{R->Path, R->Offset + (Address - R->Start)};
}

} // namespace dwarfpack
