//===- SymbolQuery.cpp - Lookups by symbol name and offset ----------------===//

#include "dwarfpack/Symbolize/SymbolQuery.h"
#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <array>

using namespace llvm;

namespace dwarfpack {

bool parseHexDigits(StringRef Digits, uint64_t &Value) {
  if (Digits.empty() || Digits.size() > 16)
    return false;
  uint64_t V = 0;
  for (char C : Digits) {
    if (!isHexDigit(C))
      return false;
    V = V << 4 | hexDigitValue(C);
  }
  Value = V;
  return true;
}

// getAsInteger(0)'s radix guessing and overflow checks were 2% of a batch
// of a million addresses.
bool parseShortHex(StringRef Token, uint64_t &Value) {
  return Token.size() > 2 && Token[0] == '0' &&
         (Token[1] == 'x' || Token[1] == 'X') &&
         parseHexDigits(Token.drop_front(2), Value);
}

ParsedQuery parseQuery(StringRef Token) {
  ParsedQuery Q;
  uint64_t Value;
  if (Token.empty())
    return Q;
  if (parseShortHex(Token, Value) || !Token.getAsInteger(0, Value)) {
    Q.Address = Value;
    return Q;
  }
  if (isDigit(Token.front()))
    return Q;
  SymbolQuery S;
  S.Name = Token.str();
  size_t Plus = Token.rfind('+');
  if (Plus != StringRef::npos && Plus > 0) {
    StringRef Rest = Token.substr(Plus + 1);
    auto [OffsetText, SizeText] = Rest.split('/');
    uint64_t Offset, Size;
    if (!OffsetText.empty() && !OffsetText.getAsInteger(0, Offset)) {
      bool HasSize = Rest.contains('/');
      if (!HasSize || (!SizeText.empty() && !SizeText.getAsInteger(0, Size))) {
        S.Name = Token.take_front(Plus).str();
        S.Offset = Offset;
        if (HasSize)
          S.Size = Size;
      }
    }
  }
  Q.Symbol = std::move(S);
  return Q;
}

void parseModuleWord(StringRef Rest, SymbolQuery &Q) {
  StringRef Word = Rest.ltrim().take_until([](char C) { return isSpace(C); });
  if (Word.size() > 2 && Word.consume_front("[") && Word.consume_back("]"))
    Q.Module = Word.str();
}

/// Several entries of one function at one start count once.
static void addStart(SmallVector<uint64_t, 1> &V, uint64_t Start) {
  if (V.empty() || V.back() != Start)
    V.push_back(Start);
}

/// Fills Index with Keys(Name) of every function's name, then of every
/// name DWARF gives a function otherwise: each entry's starts in address
/// order, once each.
template <typename KeysFn>
static Error indexNames(const AddressSymbolizer &Table,
                        StringMap<SmallVector<uint64_t, 1>> &Index,
                        KeysFn Keys) {
  auto Add = [&](uint64_t Start, StringRef Fn) {
    for (const auto &Key : Keys(Fn))
      addStart(Index[Key], Start);
  };
  if (Error E = Table.forEachFunction(Add))
    return E;
  bool Other = false;
  if (Error E = Table.forEachDwarfName([&](uint64_t Start, StringRef Fn) {
        Other = true;
        Add(Start, Fn);
      }))
    return E;
  // A second pass may have added starts out of order.
  if (Other)
    for (auto &Entry : Index) {
      llvm::sort(Entry.second);
      Entry.second.erase(std::unique(Entry.second.begin(), Entry.second.end()),
                         Entry.second.end());
    }
  return Error::success();
}

Expected<std::vector<uint64_t>> SymbolResolver::starts(StringRef Name) {
  if (!Indexed) {
    Expected<std::optional<std::vector<uint64_t>>> Own =
        Table.functionsNamed(Name);
    if (!Own)
      return Own.takeError();
    if (*Own)
      return std::move(**Own);
    if (Error E = indexNames(Table, ByName, [](StringRef Fn) {
          return std::array<StringRef, 1>{Fn};
        }))
      return std::move(E);
    Indexed = true;
  }
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return std::vector<uint64_t>();
  return std::vector<uint64_t>(It->second.begin(), It->second.end());
}

Expected<std::vector<LookupResult>>
SymbolResolver::resolve(const SymbolQuery &Q,
                        std::vector<uint64_t> *SymbolStarts) {
  Expected<std::vector<uint64_t>> Starts = starts(Q.Name);
  if (!Starts)
    return Starts.takeError();
  return answer(Q, *Starts, SymbolStarts);
}

Expected<std::vector<LookupResult>>
SymbolResolver::resolveDemangled(const SymbolQuery &Q,
                                 std::vector<uint64_t> *SymbolStarts) {
  if (!ByDemangledName) {
    NameIndex Index;
    // Aliases of one start (GCC's C1 and C2 constructors) count once.
    if (Error E = indexNames(Table, Index, demangledNameKeys))
      return std::move(E);
    ByDemangledName = std::move(Index);
  }
  auto It = ByDemangledName->find(demangledNameKey(Q.Name));
  if (It == ByDemangledName->end())
    return std::vector<LookupResult>();
  return answer(Q, It->second, SymbolStarts);
}

Expected<std::vector<LookupResult>>
SymbolResolver::answer(const SymbolQuery &Q, ArrayRef<uint64_t> Starts,
                       std::vector<uint64_t> *SymbolStarts) {
  // The functions the offset falls in answer (the outermost frame is the
  // function). Tables made from DWARF list each part of a split function
  // (GCC's .cold parts) under the function's name, so the other parts do
  // not answer at their starts; only when it falls in none do all, at
  // their starts, as llvm-symbolizer ignores an offset past a symbol. A
  // trace's size that covers the offset says the address is inside the
  // symbol, though the table ends it sooner (it ends a function where the
  // next symbol starts, as at a thunk inside an assembly symbol): then the
  // function there answers, if there is one.
  bool SizeCovers = Q.Size && Q.Offset < *Q.Size;
  std::vector<LookupResult> Results, Outside;
  std::vector<uint64_t> Named;
  for (uint64_t Start : Starts) {
    Expected<LookupResult> R = Table.lookup(Start + Q.Offset);
    if (!R)
      return R.takeError();
    R->Address = Start + Q.Offset;
    bool Inside = !R->Frames.empty() &&
                  R->Frames.back().StartAddress + R->StartSlide == Start;
    if (Inside)
      Named.push_back(Start);
    (Inside ? Results : Outside).push_back(std::move(*R));
  }
  if (Results.empty()) {
    for (size_t I = 0; I < Outside.size(); ++I) {
      uint64_t Start = Starts[I];
      Named.push_back(Start);
      if (SizeCovers && !Outside[I].Frames.empty()) {
        Results.push_back(std::move(Outside[I]));
        continue;
      }
      Expected<LookupResult> R = Table.lookup(Start);
      if (!R)
        return R.takeError();
      R->Address = Start;
      Results.push_back(std::move(*R));
    }
  }
  if (Q.Module) {
    auto OfModule = [&](const LookupResult &R) {
      return !R.Frames.empty() && R.Frames.back().Module == *Q.Module;
    };
    if (llvm::any_of(Results, OfModule)) {
      size_t Kept = 0;
      for (size_t I = 0; I < Results.size(); ++I)
        if (OfModule(Results[I])) {
          if (Kept != I) {
            Named[Kept] = Named[I];
            Results[Kept] = std::move(Results[I]);
          }
          ++Kept;
        }
      Results.resize(Kept);
      Named.resize(Kept);
    }
  }
  if (SymbolStarts)
    *SymbolStarts = std::move(Named);
  return Results;
}

Expected<std::optional<DataSymbol>> symbolAt(const AddressSymbolizer &Table,
                                             uint64_t Address) {
  Expected<LookupResult> R = Table.lookup(Address);
  if (!R)
    return R.takeError();
  if (R->Frames.empty())
    return std::nullopt;
  const SourceFrame &Fn = R->Frames.back();
  DataSymbol S;
  S.Name = Fn.FunctionName;
  S.Start = Fn.StartAddress + R->StartSlide;
  if (Fn.Size) {
    S.Size = *Fn.Size;
    return S;
  }
  // Offsets from the start: Inside answers with this function, Outside
  // does not; double, then halve the distance between them.
  auto Holds = [&](uint64_t Offset) -> Expected<bool> {
    if (Offset > UINT64_MAX - S.Start)
      return false;
    Expected<LookupResult> L = Table.lookup(S.Start + Offset);
    if (!L)
      return L.takeError();
    return !L->Frames.empty() &&
           L->Frames.back().StartAddress + L->StartSlide == S.Start;
  };
  uint64_t Inside = Address - S.Start, Outside = Inside + 1;
  while (true) {
    Expected<bool> In = Holds(Outside);
    if (!In)
      return In.takeError();
    if (!*In)
      break;
    Inside = Outside;
    if (Outside > UINT64_MAX / 2)
      return S; // no end: size unknown
    Outside *= 2;
  }
  while (Outside - Inside > 1) {
    uint64_t Mid = Inside + (Outside - Inside) / 2;
    Expected<bool> In = Holds(Mid);
    if (!In)
      return In.takeError();
    (*In ? Inside : Outside) = Mid;
  }
  S.Size = Outside;
  return S;
}

} // namespace dwarfpack
