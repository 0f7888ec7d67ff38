//===- ProcMaps.cpp - A process's memory map, as /proc/PID/maps shows it --===//

#include "dwarfpack/Symbolize/ProcMaps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cassert>
#include <cstring>

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

void ProcMaps::add(MappedRange R) {
  assert(R.Start < R.End && "an empty range");
  std::vector<MappedRange> Kept;
  Kept.reserve(Ranges.size() + 2);
  for (MappedRange &Old : Ranges) {
    if (Old.End <= R.Start || Old.Start >= R.End) {
      Kept.push_back(std::move(Old));
      continue;
    }
    if (Old.Start < R.Start) {
      MappedRange Left = Old;
      Left.End = R.Start;
      Kept.push_back(std::move(Left));
    }
    if (Old.End > R.End) {
      MappedRange Right = std::move(Old);
      Right.Offset += R.End - Right.Start;
      Right.Start = R.End;
      Kept.push_back(std::move(Right));
    }
  }
  auto At =
      llvm::upper_bound(Kept, R.Start, [](uint64_t A, const MappedRange &M) {
        return A < M.Start;
      });
  Kept.insert(At, std::move(R));
  Ranges = std::move(Kept);
}

/// A hex number with an optional 0x; perf prints a zero offset as `0`.
static bool hexNumber(StringRef Text, uint64_t &V) {
  Text.consume_front("0x");
  return hexField(Text, V);
}

std::optional<std::pair<int64_t, MappedRange>>
parsePerfMmapEvent(StringRef Line) {
  size_t At = Line.find(" PERF_RECORD_MMAP");
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Line.drop_front(At + strlen(" PERF_RECORD_MMAP"));
  Rest.consume_front("2");
  // PID/TID: [0xSTART(0xLENGTH) @ OFFSET ...]: PROT PATH
  StringRef Ids = nextField(Rest);
  int64_t Pid;
  if (!Ids.consume_back(":") || Ids.split('/').first.getAsInteger(10, Pid))
    return std::nullopt;
  Rest = Rest.ltrim(" \t");
  size_t Open = Rest.find('('), Close = Rest.find(')');
  size_t EndBracket = Rest.find("]: ");
  if (!Rest.consume_front("[") || Open == StringRef::npos ||
      Close == StringRef::npos || EndBracket == StringRef::npos ||
      !(Open < Close && Close < EndBracket))
    return std::nullopt;
  --Open, --Close, --EndBracket; // Rest lost its '['
  uint64_t Length;
  MappedRange R;
  StringRef Where = Rest.slice(Close + 1, EndBracket).ltrim(" \t");
  if (!hexNumber(Rest.take_front(Open), R.Start) ||
      !hexNumber(Rest.slice(Open + 1, Close), Length) ||
      !Where.consume_front("@") || !hexNumber(nextField(Where), R.Offset))
    return std::nullopt;
  R.End = R.Start + Length;
  if (R.End < R.Start)
    R.End = R.Start; // wraps: maps nothing
  Rest = Rest.drop_front(EndBracket + 3);
  R.Perms = nextField(Rest).str();
  StringRef Path = Rest.trim(" \t\r");
  R.Deleted = Path.consume_back(" (deleted)");
  R.Path = Path.str();
  return std::make_pair(Pid, std::move(R));
}

std::optional<uint64_t> parsePerfSamplePid(StringRef Line) {
  // COMM PID[/TID] [CPU] TIME: ... (COMM may be any word).
  SmallVector<StringRef, 8> Words;
  Line.split(Words, ' ', 6, /*KeepEmpty=*/false);
  auto IsDecimal = [](StringRef S) { return !S.empty() && all_of(S, isDigit); };
  for (size_t I = 1; I + 1 < Words.size(); ++I) {
    auto [Pid, Tid] = Words[I].split('/');
    if (!IsDecimal(Pid) || (Words[I].contains('/') && !IsDecimal(Tid)))
      continue;
    StringRef Next = Words[I + 1];
    bool Cpu = Next.size() > 2 && Next.front() == '[' && Next.back() == ']' &&
               IsDecimal(Next.drop_front().drop_back());
    auto [Secs, Frac] = Next.split('.');
    bool Time =
        Next.ends_with(":") && IsDecimal(Secs) && IsDecimal(Frac.drop_back());
    uint64_t V;
    if ((Cpu || Time) && !Pid.getAsInteger(10, V))
      return V;
  }
  return std::nullopt;
}

bool PerfMaps::observe(StringRef Line) {
  if (std::optional<std::pair<int64_t, MappedRange>> E =
          parsePerfMmapEvent(Line)) {
    // The kernel's own mapping (pid -1) places nothing: kernel frames are
    // answered by name.
    if (E->first >= 0 && E->second.Start < E->second.End)
      Processes[uint64_t(E->first)].add(std::move(E->second));
    return true;
  }
  if (std::optional<uint64_t> Pid = parsePerfSamplePid(Line))
    Current = *Pid;
  return false;
}

std::optional<FileLocation> PerfMaps::fileLocation(uint64_t Address) const {
  if (Current) {
    auto It = Processes.find(*Current);
    if (It != Processes.end())
      return It->second.fileLocation(Address);
  }
  std::optional<FileLocation> Found;
  for (const auto &[Pid, Maps] : Processes) {
    std::optional<FileLocation> L = Maps.fileLocation(Address);
    if (!L)
      continue;
    if (Found && (Found->Path != L->Path || Found->Offset != L->Offset))
      return std::nullopt; // processes disagree: no telling which
    Found = L;
  }
  return Found;
}

} // namespace dwarfpack
