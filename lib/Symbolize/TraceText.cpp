//===- TraceText.cpp - Frames in profiler and kernel trace text -----------===//
//
// The scanner reads words (runs of non-blank bytes) and accepts a frame
// only when its text parses exactly: hex numbers of at most 16 digits,
// kernel names of the characters the kernel's symbols use, balanced
// brackets. Everything else is text, so hostile lines cost one pass and
// come out as they went in.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/TraceText.h"

#include "dwarfpack/Support/Demangle.h"
#include "dwarfpack/Symbolize/InputLine.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {

namespace {
/// A run of non-blank bytes of a line: [Begin, End).
struct Word {
  size_t Begin, End;
};
} // namespace

static bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\v' ||
         C == '\f';
}

static std::vector<Word> splitWords(StringRef Line) {
  std::vector<Word> Words;
  size_t I = 0;
  while (I < Line.size()) {
    while (I < Line.size() && isBlank(Line[I]))
      ++I;
    size_t B = I;
    while (I < Line.size() && !isBlank(Line[I]))
      ++I;
    if (I > B)
      Words.push_back({B, I});
  }
  return Words;
}

/// Kernel traces write "0x" in lower case only.
static bool parseHex0x(StringRef Text, uint64_t &V) {
  return Text.consume_front("0x") && parseHexDigits(Text, V);
}

/// The characters of the kernel's symbol names (C identifiers, GCC's
/// `.isra.0` and `.cold` suffixes, `$` of some assembly symbols).
static bool isKernelName(StringRef Name) {
  return !Name.empty() && all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '.' || C == '$';
  });
}

static bool isModuleName(StringRef Name) {
  return !Name.empty() && all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '-';
  });
}

/// A word that is a symbol name as llvm-symbolizer queries take it.
static bool isQueryName(StringRef Name) {
  return !Name.empty() &&
         (isAlpha(Name.front()) || Name.front() == '_' ||
          Name.front() == '.') &&
         all_of(Name, [](char C) {
           return isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '@';
         });
}

/// `NAME+0xOFF/0xSIZE` in word W: after any '(' and a segment prefix
/// (`RIP: 0010:name+...`), before any ')' or ','.
static std::optional<TraceFrame> kernelSymbol(StringRef Line, Word W) {
  size_t B = W.Begin, E = W.End;
  while (B < E && Line[B] == '(')
    ++B;
  while (E > B && (Line[E - 1] == ')' || Line[E - 1] == ','))
    --E;
  StringRef Text = Line.slice(B, E);
  if (size_t Colon = Text.rfind(':'); Colon != StringRef::npos) {
    B += Colon + 1;
    Text = Line.slice(B, E);
  }
  size_t Plus = Text.rfind('+');
  if (Plus == StringRef::npos)
    return std::nullopt;
  StringRef Name = Text.take_front(Plus);
  auto [OffText, SizeText] = Text.drop_front(Plus + 1).split('/');
  uint64_t Offset, Size;
  if (!isKernelName(Name) || !parseHex0x(OffText, Offset) ||
      !parseHex0x(SizeText, Size))
    return std::nullopt;
  TraceFrame F;
  F.Kind = FrameKind::KernelSymbol;
  F.Begin = B;
  F.End = E;
  F.Name = Name.str();
  F.Symbol = SymbolQuery{Name.str(), Offset, Size, std::nullopt};
  return F;
}

/// Reads the module word after a kernel symbol, `[mod]` or `[mod buildid]`
/// (two words), from Words[I]; the number of words it takes, 0 if none.
static size_t moduleWords(StringRef Line, ArrayRef<Word> Words, size_t I,
                          TraceFrame &F) {
  if (I >= Words.size())
    return 0;
  StringRef First = Line.slice(Words[I].Begin, Words[I].End);
  if (!First.consume_front("["))
    return 0;
  StringRef Closed = First.rtrim(")");
  if (Closed.consume_back("]")) {
    if (!isModuleName(Closed))
      return 0;
    F.Symbol->Module = Closed.str();
    return 1;
  }
  if (!isModuleName(First) || I + 1 >= Words.size())
    return 0;
  StringRef Id = Line.slice(Words[I + 1].Begin, Words[I + 1].End).rtrim(")");
  if (!Id.consume_back("]") || Id.size() > 128)
    return 0;
  Expected<SmallVector<uint8_t, 20>> B = parseBuildId(Id);
  if (!B) {
    consumeError(B.takeError());
    return 0;
  }
  F.Symbol->Module = First.str();
  F.BuildId = std::move(*B);
  return 2;
}

/// `[<hex>]` in word W (maybe after a segment prefix, `0010:[<...>]`).
static std::optional<TraceFrame> kernelAddress(StringRef Line, Word W) {
  StringRef Text = Line.slice(W.Begin, W.End);
  size_t Open = Text.find("[<");
  if (Open == StringRef::npos)
    return std::nullopt;
  size_t Close = Text.find(">]", Open);
  uint64_t V;
  if (Close == StringRef::npos ||
      !parseHexDigits(Text.slice(Open + 2, Close), V))
    return std::nullopt;
  TraceFrame F;
  F.Kind = FrameKind::KernelAddress;
  F.Begin = F.End = W.Begin + Close + 2;
  F.Address = V;
  return F;
}

/// `0x...` in word W, after any punctuation or `SEG:` / `name=` before it,
/// before any punctuation after it.
static std::optional<TraceFrame> hexAddress(StringRef Line, Word W) {
  StringRef Text = Line.slice(W.Begin, W.End);
  size_t Start = Text.find_last_of(":=");
  Start = Start == StringRef::npos ? 0 : Start + 1;
  while (Start < Text.size() && StringRef("([{<").contains(Text[Start]))
    ++Start;
  size_t End = Text.size();
  while (End > Start && StringRef(")]}>,;.:").contains(Text[End - 1]))
    --End;
  uint64_t V;
  if (!parseHex0x(Text.slice(Start, End), V))
    return std::nullopt;
  TraceFrame F;
  F.Kind = FrameKind::Address;
  F.Begin = F.End = W.Begin + End;
  F.Address = V;
  return F;
}

/// The length of `dmesg -x`'s `kern  :warn  : ` at the start of Line; 0
/// when there is none.
static size_t facilityLevelPrefix(StringRef Line) {
  size_t P = 0;
  for (int Part = 0; Part < 2; ++Part) {
    size_t Word = P;
    while (P < Line.size() && isLower(Line[P]))
      ++P;
    while (P < Line.size() && Line[P] == ' ')
      ++P;
    if (P == Word || P == Line.size() || Line[P] != ':')
      return 0;
    ++P;
  }
  return P;
}

/// Where a kernel call trace's frame starts in Line: after a syslog prefix
/// (`... kernel: `) or dmesg -x's, bracketed prefixes (dmesg's
/// `[ 12.345678]`, `[Thu Nov 28 23:00:00 2026]` and `[  T123]`), the `?` of
/// an unreliable frame and the `[<address>]` of older traces.
static size_t callTraceFrameStart(StringRef Line) {
  size_t P = facilityLevelPrefix(Line);
  if (size_t K = Line.take_front(128).find("kernel: "); K != StringRef::npos)
    P = K + 8;
  while (P < Line.size()) {
    if (isBlank(Line[P])) {
      ++P;
      continue;
    }
    if (Line[P] == '?' && (P + 1 == Line.size() || isBlank(Line[P + 1]))) {
      ++P;
      continue;
    }
    if (Line[P] != '[')
      break;
    size_t Close = Line.find(']', P);
    if (Close == StringRef::npos || Line.slice(P + 1, Close).contains('['))
      break;
    P = Close + 1;
  }
  return P;
}

/// The DSO of a perf frame: a path or perf's `[kernel.kallsyms]`-style name.
static bool isPerfDso(StringRef Dso) {
  return !Dso.empty() && (Dso.front() == '/' || Dso.front() == '[');
}

/// perf's `SYMBOL` field: `name+0xOFF`, `name`, or `[unknown]`.
static void readPerfSymbol(StringRef Sym, TraceFrame &F) {
  if (Sym == "[unknown]")
    return;
  F.Name = Sym.str();
  size_t Plus = Sym.rfind('+');
  uint64_t Offset;
  if (Plus == StringRef::npos || Plus == 0 ||
      !parseHex0x(Sym.drop_front(Plus + 1), Offset))
    return; // no offset: the name alone cannot be looked up
  F.Name = Sym.take_front(Plus).str();
  F.Symbol = SymbolQuery{F.Name, Offset, std::nullopt, std::nullopt};
}

/// A perf frame ending Line: `HEX SYMBOL (DSO)`. SYMBOL may hold blanks
/// (demangled C++), so the address is the last hex word that leaves a
/// symbol before the DSO, or the last word when there is no symbol.
static std::optional<TraceFrame> perfFrame(StringRef Line,
                                           ArrayRef<Word> Words) {
  size_t E = Line.size();
  while (E > 0 && isBlank(Line[E - 1]))
    --E;
  if (E == 0 || Line[E - 1] != ')')
    return std::nullopt;
  size_t Open = StringRef::npos;
  for (size_t I = E, Depth = 0; I-- > 0;) {
    if (Line[I] == ')')
      ++Depth;
    else if (Line[I] == '(' && --Depth == 0) {
      Open = I;
      break;
    }
  }
  if (Open == StringRef::npos || Open == 0 || !isBlank(Line[Open - 1]))
    return std::nullopt;
  StringRef Dso = Line.slice(Open + 1, E - 1).trim();
  if (!isPerfDso(Dso))
    return std::nullopt;
  size_t K = 0; // words before the DSO
  while (K < Words.size() && Words[K].End <= Open)
    ++K;
  if (K == 0)
    return std::nullopt;
  auto HexAt = [&](size_t J, uint64_t &V) {
    return parseHexDigits(Line.slice(Words[J].Begin, Words[J].End), V);
  };
  uint64_t V = 0;
  std::optional<size_t> A;
  for (size_t J = K - 1; J-- > 0 && !A;)
    if (HexAt(J, V))
      A = J;
  if (!A && HexAt(K - 1, V))
    A = K - 1; // no symbol (perf -F ip,dso)
  if (!A)
    return std::nullopt;
  TraceFrame F;
  F.Kind = FrameKind::PerfFrame;
  F.Address = V;
  // perf marks a file replaced since it was mapped; the path is the file's.
  Dso.consume_back(" (deleted)");
  F.Object = Dso.str();
  F.Begin = F.End = Words[*A].End;
  if (*A + 1 < K) {
    F.Begin = Words[*A + 1].Begin;
    F.End = Words[K - 1].End;
    readPerfSymbol(Line.slice(F.Begin, F.End), F);
  }
  return F;
}

/// A whole line as llvm-symbolizer reads it (InputLine.h), the module
/// optional. Prose is no query: nothing may follow the query, and a file
/// must look like a path unless the query is a number.
static std::optional<TraceFrame> queryLine(StringRef Line) {
  Expected<InputLine> Q = parseInputLine(Line, LineModules::FileOrBuildId);
  if (!Q) {
    consumeError(Q.takeError());
    Q = parseInputLine(Line, LineModules::None);
  }
  if (!Q) {
    consumeError(Q.takeError());
    return std::nullopt;
  }
  if (!Q->Rest.trim().empty())
    return std::nullopt;
  TraceFrame F;
  F.Kind = FrameKind::Query;
  F.Object = Q->File;
  if (Q->BuildId)
    F.BuildId = std::move(*Q->BuildId);
  // The query is the word that ends where Rest begins (both point into
  // Line); a query that parses holds no blank.
  StringRef Before = Line.take_front(Q->Rest.data() - Line.data());
  F.End = Before.size();
  F.Begin = Before.find_last_of(" \t\n\v\f\r") + 1; // npos + 1 is 0
  ParsedQuery &T = Q->Target;
  if (T.Address) {
    F.Address = T.Address;
    F.Begin = F.End;
    return F;
  }
  if (!isQueryName(T.Symbol->Name) ||
      (!F.Object.empty() && !StringRef(F.Object).contains('/')))
    return std::nullopt;
  F.Name = T.Symbol->Name;
  F.Symbol = std::move(T.Symbol);
  return F;
}

/// Kernel symbols, `[<address>]`s and `0x` numbers among Words.
static std::vector<TraceFrame> kernelFrames(StringRef Line,
                                            ArrayRef<Word> Words) {
  std::vector<TraceFrame> Frames;
  size_t Start = callTraceFrameStart(Line);
  for (size_t I = 0; I < Words.size(); ++I) {
    if (std::optional<TraceFrame> S = kernelSymbol(Line, Words[I])) {
      S->ReturnAddress = Words[I].Begin == Start && S->Symbol->Offset != 0;
      I += moduleWords(Line, Words, I + 1, *S);
      Frames.push_back(std::move(*S));
    } else if (std::optional<TraceFrame> A = kernelAddress(Line, Words[I])) {
      Frames.push_back(std::move(*A));
    } else if (std::optional<TraceFrame> H = hexAddress(Line, Words[I])) {
      Frames.push_back(std::move(*H));
    }
  }
  // `[<address>] ? name+off/size`: the symbol says it; annotate once.
  std::vector<TraceFrame> Kept;
  for (size_t I = 0; I < Frames.size(); ++I) {
    if (Frames[I].Kind == FrameKind::KernelAddress && I + 1 < Frames.size() &&
        Frames[I + 1].Kind == FrameKind::KernelSymbol &&
        Line.slice(Frames[I].End, Frames[I + 1].Begin).ltrim(" \t?").empty())
      continue;
    Kept.push_back(std::move(Frames[I]));
  }
  return Kept;
}

static bool hasKernelFrame(ArrayRef<TraceFrame> Frames) {
  return any_of(Frames, [](const TraceFrame &F) {
    return F.Kind == FrameKind::KernelSymbol ||
           F.Kind == FrameKind::KernelAddress;
  });
}

std::vector<TraceFrame> scanTraceLine(StringRef Line) {
  std::vector<Word> Words = splitWords(Line);
  if (std::optional<TraceFrame> P = perfFrame(Line, Words))
    return {std::move(*P)};
  std::vector<TraceFrame> Frames = kernelFrames(Line, Words);
  if (hasKernelFrame(Frames))
    return Frames;
  if (std::optional<TraceFrame> Q = queryLine(Line))
    return {std::move(*Q)};
  // A query of another module than its line says would answer wrongly.
  if (any_of(Words, [&](Word W) {
        return Line.slice(W.Begin, W.End).starts_with("BUILDID:");
      }))
    return {};
  return Frames;
}

bool looksLikeTraceText(StringRef Line) {
  if (Line.contains(" PERF_RECORD_"))
    return true;
  return any_of(scanTraceLine(Line), [&](const TraceFrame &F) {
    return F.Kind == FrameKind::PerfFrame ||
           F.Kind == FrameKind::KernelAddress ||
           (F.Kind == FrameKind::KernelSymbol &&
            !Line.take_front(F.Begin).trim().empty());
  });
}

std::string TraceAnnotator::name(const SourceFrame &F) const {
  if (F.FunctionName.empty())
    return "??";
  // As perf and addr2line -C show a Rust legacy name: without its hash.
  return Opts.Demangle ? readableDemangle(F.FunctionName) : F.FunctionName;
}

std::string TraceAnnotator::location(const SourceFrame &F) const {
  if (F.FileName.empty())
    return "";
  return F.FileName + ":" + std::to_string(F.Line);
}

std::string TraceAnnotator::annotate(StringRef Line, FrameResolver Resolve,
                                     function_ref<void(Error)> OnError) const {
  std::vector<TraceFrame> Frames = scanTraceLine(Line);
  std::string Inlined, Out;
  size_t Done = 0;
  for (const TraceFrame &F : Frames) {
    TraceFrame Query = F;
    if (Opts.AdjustReturnAddresses && F.ReturnAddress) {
      if (Query.Symbol && Query.Symbol->Offset)
        --Query.Symbol->Offset;
      if (Query.Address && *Query.Address)
        --*Query.Address;
    }
    Expected<LookupResult> R = Resolve(Query);
    if (!R) {
      OnError(R.takeError());
      continue;
    }
    if (R->Frames.empty())
      continue;
    const SourceFrame &Outer = R->Frames.back();
    std::string Loc = location(Outer);
    // A name the line gives without a location adds nothing: keep it.
    if (Loc.empty() && !F.Name.empty())
      continue;
    std::string Text = F.Name.empty() ? name(Outer) : F.Name;
    if (!Loc.empty())
      Text += " (" + Loc + ")";
    StringRef Lead = F.Begin == F.End ? " " : "";
    // Each inlined line repeats the text before the frame: with several
    // frames in a line that would grow with the square of its length.
    if (Opts.Inlines && Frames.size() == 1)
      for (size_t I = 0; I + 1 < R->Frames.size(); ++I) {
        const SourceFrame &In = R->Frames[I];
        std::string InLoc = location(In);
        Inlined += (Line.take_front(F.Begin) + Lead + name(In)).str();
        if (!InLoc.empty())
          Inlined += " (" + InLoc + ")";
        Inlined += " (inlined)\n";
      }
    Out += (Line.slice(Done, F.Begin) + Lead + Text).str();
    Done = F.End;
  }
  Out += Line.drop_front(Done).str();
  return Inlined + Out;
}

} // namespace dwarfpack
