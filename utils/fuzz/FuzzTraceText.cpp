//===- FuzzTraceText.cpp - Trace text and process maps, as --annotate reads
//
// The input is text, as `lookup --annotate` reads it (kernel oops lines,
// perf script with its mmap and task events, llvm-symbolizer input) and
// as --pid-maps reads a saved /proc/PID/maps. Every line goes through
// PerfMaps::observe, then, unless it was a perf event, through
// scanTraceLine, looksLikeTraceText and TraceAnnotator::annotate with a
// resolver that answers by the frame's address: no answer, an error, a
// frame without a location, or an inlined chain, so that every path of the
// annotation runs; each frame's symbol is also read as a profiler's
// demangled name and as a mangled one (demangledNameKey, -Keys). Checked:
// frames lie inside their line and in order; a line taken for a trace has a
// frame or a perf event; a line of no frame, or whose frames get no answer,
// comes out unchanged; each mmap event, added to a process's maps, is where its
// start is looked up, and the maps stay sorted and disjoint; maps that parse
// are sorted and disjoint; name keys have no blanks.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Support/Demangle.h"
#include "dwarfpack/Symbolize/ProcMaps.h"
#include "dwarfpack/Symbolize/TraceText.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

namespace {

void checkSortedAndDisjoint(const ProcMaps &M, const char *What) {
  std::vector<MappedRange> Ranges = M.ranges();
  for (size_t I = 0; I < Ranges.size(); ++I) {
    const MappedRange &R = Ranges[I];
    if (R.Start >= R.End)
      fail(Twine(What) + ": an empty range at " + utohexstr(R.Start));
    if (I > 0 && Ranges[I - 1].End > R.Start)
      fail(Twine(What) + ": ranges overlap at " + utohexstr(R.Start));
    if (M.find(R.Start) == nullptr || M.find(R.Start)->Start != R.Start ||
        M.find(R.End - 1)->Start != R.Start)
      fail(Twine(What) + ": the range at " + utohexstr(R.Start) +
           " is not found at its ends");
  }
}

/// A name key (what a perf frame's demangled name is looked up by) has no
/// blanks: `> >` and `>>` must read the same.
void checkNameKey(StringRef Key, StringRef Name) {
  if (llvm::any_of(Key, isSpace))
    fail("the name key of '" + Name + "' has a blank: '" + Key + "'");
}

/// Answers by the address's low bits, so that one text gets every kind of
/// answer.
Expected<LookupResult> answer(const TraceFrame &F) {
  uint64_t A = F.Address.value_or(F.Symbol ? F.Symbol->Offset : 0);
  LookupResult R;
  R.Address = A;
  switch (A % 4) {
  case 0:
    return R; // not found
  case 1:
    return createStringError(inconvertibleErrorCode(), "no table");
  case 2: // a function without a source location
    R.Frames.emplace_back();
    R.Frames.back().FunctionName = "f" + utohexstr(A);
    return R;
  default: // an inlined function in its caller
    for (unsigned I = 0; I < 2; ++I) {
      R.Frames.emplace_back();
      SourceFrame &S = R.Frames.back();
      S.FunctionName = I ? "_ZN1a5outerEv" : "inner";
      S.FileName = "/src/a.c";
      S.Line = uint32_t(A >> 2) + I;
    }
    return R;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Bytes), Size);
  if (Expected<ProcMaps> M = ProcMaps::parse(Text, "maps"))
    checkSortedAndDisjoint(*M, "--pid-maps");
  else
    consumeError(M.takeError());

  PerfMaps Perf;
  ProcMaps Events; // every process's events, as one process's
  AnnotateOptions Opts;
  Opts.Demangle = Size % 2;
  TraceAnnotator Annotator(Opts);
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    bool Event = Perf.observe(Line);
    if (Event && !parsePerfMmapEvent(Line)) {
      // A task event: the line stays as it is.
      if (!Line.contains(" PERF_RECORD_"))
        fail("a line without PERF_RECORD_ taken as an event");
      continue;
    }
    if (std::optional<std::pair<int64_t, MappedRange>> E =
            parsePerfMmapEvent(Line)) {
      if (!Event)
        fail("a mmap event that PerfMaps does not take as one");
      uint64_t Start = E->second.Start;
      if (Start < E->second.End) {
        MappedRange R = E->second;
        Events.add(std::move(R));
        const MappedRange *Found = Events.find(Start);
        if (!Found || Found->Start != Start || Found->End != E->second.End ||
            Found->Path != E->second.Path)
          fail("the mapping just added at " + utohexstr(Start) +
               " is not the one found there");
        checkSortedAndDisjoint(Events, "mmap events");
      }
      continue;
    }
    std::vector<TraceFrame> Frames = scanTraceLine(Line);
    if (looksLikeTraceText(Line) && Frames.empty() &&
        !Line.contains(" PERF_RECORD_"))
      fail("a line without frames or perf event taken for a trace: '" + Line +
           "'");
    size_t End = 0;
    for (const TraceFrame &F : Frames) {
      if (F.Begin > F.End || F.End > Line.size() || F.Begin < End)
        fail("frame bytes [" + Twine(F.Begin) + ", " + Twine(F.End) +
             ") out of line or out of order");
      End = F.End;
      if (F.Address)
        (void)Perf.fileLocation(*F.Address);
      if (F.Symbol) {
        checkNameKey(demangledNameKey(F.Symbol->Name), F.Symbol->Name);
        for (const std::string &Key : demangledNameKeys(F.Symbol->Name))
          checkNameKey(Key, F.Symbol->Name);
      }
    }
    bool AnyAnswer = false;
    std::string Out = Annotator.annotate(
        Line,
        [&](const TraceFrame &F) {
          Expected<LookupResult> R = answer(F);
          AnyAnswer |= R && !R->Frames.empty();
          return R;
        },
        consumeError);
    if (!AnyAnswer && Out != Line)
      fail("a line without answers changed: '" + Line + "' -> '" + Out + "'");
  }
  return 0;
}
