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
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    if (Line.trim().empty())
      continue;
    auto Fail = [&](const Twine &What) {
      return createStringError(inconvertibleErrorCode(),
                               "'" + FileName + "' line " + Twine(LineNo) +
                                   ": " + What);
    };
    Expected<MappedRange> R = parseLine(Line);
    if (!R)
      return Fail(toString(R.takeError()));
    // The kernel prints them sorted; a file pieced together may not be,
    // but two ranges of one process never overlap.
    auto After = M.Ranges.upper_bound(R->Start);
    bool Overlaps =
        (After != M.Ranges.end() && After->first < R->End) ||
        (After != M.Ranges.begin() && std::prev(After)->second.End > R->Start);
    if (Overlaps)
      return Fail("the range overlaps another one (is it two processes' "
                  "maps?)");
    M.Ranges.emplace_hint(After, R->Start, std::move(*R));
  }
  return M;
}

std::vector<MappedRange> ProcMaps::ranges() const {
  std::vector<MappedRange> Out;
  for (const auto &[Start, R] : Ranges)
    Out.push_back(R);
  return Out;
}

const MappedRange *ProcMaps::find(uint64_t Address) const {
  auto It = Ranges.upper_bound(Address);
  if (It == Ranges.begin())
    return nullptr;
  --It;
  return Address < It->second.End ? &It->second : nullptr;
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
  auto It = Ranges.upper_bound(R.Start);
  if (It != Ranges.begin() && std::prev(It)->second.End > R.Start)
    --It;
  while (It != Ranges.end() && It->first < R.End) {
    MappedRange Old = std::move(It->second);
    It = Ranges.erase(It);
    if (Old.End > R.End) { // its right end stays
      MappedRange Right = Old;
      Right.Offset += R.End - Old.Start;
      Right.Start = R.End;
      It = Ranges.emplace_hint(It, Right.Start, std::move(Right));
    }
    if (Old.Start < R.Start) { // and its left end
      Old.End = R.Start;
      Ranges.emplace_hint(It, Old.Start, std::move(Old));
    }
  }
  Ranges.emplace_hint(It, R.Start, std::move(R));
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

/// Reads `A:B` or `A/B` (decimal) at the front of Text.
static bool idPair(StringRef &Text, char Sep, uint64_t &A, uint64_t &B) {
  StringRef First = Text.take_while(isDigit);
  Text = Text.drop_front(First.size());
  if (!Text.consume_front(StringRef(&Sep, 1)))
    return false;
  StringRef Second = Text.take_while(isDigit);
  Text = Text.drop_front(Second.size());
  return !First.getAsInteger(10, A) && !Second.getAsInteger(10, B);
}

bool PerfMaps::observeTask(StringRef Record) {
  StringRef Rest = Record;
  uint64_t Pid, Tid, ParentPid, ParentTid;
  if (Rest.consume_front("FORK(")) {
    // (PID:TID):(PPID:PTID): a thread of PID, or a new process PID.
    if (!idPair(Rest, ':', Pid, Tid) || !Rest.consume_front("):(") ||
        !idPair(Rest, ':', ParentPid, ParentTid))
      return true; // an event, if not one we can read
    ProcessOf[Tid] = Pid;
    auto Parent = Processes.find(ParentPid);
    if (Pid != ParentPid && Parent != Processes.end())
      Processes[Pid] = Parent->second; // fork() copies the address space
    return true;
  }
  if (Rest.consume_front("COMM")) {
    // [ exec]: NAME:PID/TID; NAME may hold ':'.
    bool Exec = Rest.consume_front(" exec");
    size_t Colon = Rest.rfind(':');
    if (Colon == StringRef::npos)
      return true;
    Rest = Rest.drop_front(Colon + 1);
    if (!idPair(Rest, '/', Pid, Tid))
      return true;
    ProcessOf[Tid] = Pid;
    if (Exec)
      Processes.erase(Pid); // another program: its mappings follow
    return true;
  }
  return Rest.starts_with("EXIT");
}

bool PerfMaps::observe(StringRef Line) {
  // Events are rare: most lines are looked through once, for the marker.
  size_t At = Line.find(" PERF_RECORD_");
  if (At != StringRef::npos) {
    if (std::optional<std::pair<int64_t, MappedRange>> E =
            parsePerfMmapEvent(Line)) {
      // The kernel's own mapping (pid -1) places nothing: kernel frames
      // are answered by name.
      if (E->first >= 0 && E->second.Start < E->second.End)
        Processes[uint64_t(E->first)].add(std::move(E->second));
      return true;
    }
    if (observeTask(Line.drop_front(At + strlen(" PERF_RECORD_"))))
      return true;
  }
  if (std::optional<uint64_t> Id = parsePerfSamplePid(Line)) {
    // perf prints the thread's id unless asked for PID/TID.
    auto It = ProcessOf.find(*Id);
    Current = It == ProcessOf.end() ? *Id : It->second;
  }
  return false;
}

std::optional<FileLocation> PerfMaps::fileLocation(uint64_t Address) const {
  if (Current) {
    auto It = Processes.find(*Current);
    if (It != Processes.end())
      return It->second.fileLocation(Address);
  }
  // A guess for a program and its few processes; of a system-wide
  // profile's thousands, a scan a frame that would rarely find them agree.
  if (Processes.size() > MaxProcessesToAgree)
    return std::nullopt;
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
