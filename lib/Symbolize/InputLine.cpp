//===- InputLine.cpp - Queries as llvm-symbolizer and addr2line read them -===//

#include "dwarfpack/Symbolize/InputLine.h"

#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {

/// llvm-symbolizer's word delimiters: not tabs.
static constexpr const char *Delimiters = " \n\r";

static Error lineError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// The next word of Source, unquoted when it is quoted ("..." or '...');
/// std::nullopt when a quote is not closed. Source is left after it.
static std::optional<StringRef> nextWord(StringRef &Source) {
  Source = Source.drop_while(
      [](char C) { return StringRef(Delimiters).contains(C); });
  if (!Source.empty() && (Source.front() == '"' || Source.front() == '\'')) {
    char Quote = Source.front();
    size_t End = Source.find(Quote, 1);
    if (End == StringRef::npos)
      return std::nullopt;
    StringRef Word = Source.slice(1, End);
    Source = Source.drop_front(End + 1);
    return Word;
  }
  size_t End = Source.find_first_of(Delimiters);
  StringRef Word = Source.take_front(End);
  Source = Source.drop_front(Word.size());
  return Word;
}

/// Reads the module a line names (`FILE:`, `BUILDID:` or a bare path) into
/// Q, leaving Rest after it.
static Error parseModule(StringRef &Rest, LineModules Modules, InputLine &Q) {
  bool File = false, BuildId = false;
  while (true) {
    Rest = Rest.ltrim();
    if (Rest.consume_front("FILE:")) {
      if (File || BuildId)
        return lineError("duplicate input file specification prefix");
      File = true;
    } else if (Rest.consume_front("BUILDID:")) {
      if (File || BuildId)
        return lineError("duplicate input file specification prefix");
      BuildId = true;
    } else {
      break;
    }
  }
  if (Modules == LineModules::None) {
    if (File || BuildId)
      return lineError("input file has already been specified");
    return Error::success();
  }
  if (Modules == LineModules::BuildIdOnly && !BuildId)
    return lineError("expected 'BUILDID:<hex> <address or symbol>'");
  Rest = Rest.ltrim();
  if (Rest.empty()) {
    if (File)
      return lineError("must be followed by an input file");
    if (BuildId)
      return lineError("must be followed by a hash");
  }
  std::optional<StringRef> Word = nextWord(Rest);
  if (!Word)
    return lineError("unbalanced quotes in input file name");
  if (Word->empty())
    return lineError("no input filename has been specified");
  if (!BuildId) {
    Q.File = Word->str();
    return Error::success();
  }
  Expected<SmallVector<uint8_t, 20>> Id = parseBuildId(*Word);
  if (!Id)
    return Id.takeError();
  Q.BuildId = std::move(*Id);
  return Error::success();
}

Expected<InputLine> parseInputLine(StringRef Line, LineModules Modules) {
  InputLine Q;
  StringRef Rest = Line;
  if (Rest.consume_front("CODE "))
    Q.Command = QueryCommand::Code;
  else if (Rest.consume_front("DATA "))
    Q.Command = QueryCommand::Data;
  else if (Rest.consume_front("FRAME "))
    Q.Command = QueryCommand::Frame;
  if (Error E = parseModule(Rest, Modules, Q))
    return std::move(E);
  // Everything after the first word is ignored, as GNU addr2line does, but
  // a kernel trace's module word.
  Rest = Rest.trim();
  size_t End = Rest.find_first_of(Delimiters);
  StringRef Spec = Rest.take_front(End);
  Q.Target = parseQuery(Spec);
  if (!Q.Target.Address && !Q.Target.Symbol)
    return lineError("expected an address or a symbol name");
  Q.Rest = Rest.drop_front(Spec.size());
  return Q;
}

uint64_t parseAddr2LineAddress(StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("0x"))
    Line.consume_front("0X");
  uint64_t V = 0;
  for (char C : Line) {
    if (!isHexDigit(C))
      break;
    if (V > (UINT64_MAX >> 4))
      return UINT64_MAX; // strtoul's saturation
    V = V << 4 | hexDigitValue(C);
  }
  return V;
}

bool isAddr2LineEndMarker(StringRef Line) {
  StringRef Digits = Line.ltrim();
  if (!Digits.consume_front("0x"))
    Digits.consume_front("0X");
  if (Digits.empty() || !isHexDigit(Digits.front()))
    return true;
  uint64_t V = parseAddr2LineAddress(Line);
  return V == UINT64_MAX || V == UINT32_MAX;
}

} // namespace dwarfpack
