//===- Demangle.cpp - Rust names, and names as binutils prints them -------===//

#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Demangle/Demangle.h"

#include <cstdlib>
#include <cxxabi.h>

using namespace llvm;

namespace dwarfpack {

namespace {

/// The length-prefixed segments of a legacy symbol's path ("3foo3bar"), or
/// none when the text is not exactly such segments, none of them empty.
std::optional<SmallVector<StringRef, 8>> legacySegments(StringRef Path) {
  SmallVector<StringRef, 8> Out;
  while (!Path.empty()) {
    size_t Digits = 0, Len = 0;
    while (Digits < Path.size() && isDigit(Path[Digits]) &&
           Len <= Path.size()) // stops before the length can overflow
      Len = Len * 10 + (Path[Digits++] - '0');
    if (Digits == 0 || Path[0] == '0' || Len > Path.size() - Digits)
      return std::nullopt;
    Out.push_back(Path.substr(Digits, Len));
    Path = Path.drop_front(Digits + Len);
  }
  return Out;
}

/// 'h' and 16 lowercase hex digits, at least 5 of them different: what
/// rustc appends, and what tells a Rust symbol from a C++ one.
bool isLegacyHash(StringRef S) {
  if (S.size() != 17 || S[0] != 'h')
    return false;
  unsigned Seen = 0;
  for (char C : S.drop_front()) {
    if (!isDigit(C) && !(C >= 'a' && C <= 'f'))
      return false;
    Seen |= 1u << hexDigitValue(C);
  }
  return llvm::popcount(Seen) >= 5;
}

/// The character of an escape's code (the text between its '$'s), or 0.
char legacyEscape(StringRef Code) {
  static const std::pair<StringRef, char> Named[] = {
      {"C", ','},  {"SP", '@'}, {"BP", '*'}, {"RF", '&'},
      {"LT", '<'}, {"GT", '>'}, {"LP", '('}, {"RP", ')'}};
  for (const auto &[Name, C] : Named)
    if (Code == Name)
      return C;
  // $uXX$: printable ASCII by its lowercase hex code.
  if (Code.size() != 3 || Code[0] != 'u' || isUpper(Code[1]) ||
      isUpper(Code[2]) || !isHexDigit(Code[1]) || !isHexDigit(Code[2]))
    return 0;
  unsigned V = hexDigitValue(Code[1]) * 16 + hexDigitValue(Code[2]);
  return V >= 0x20 && V < 0x80 ? char(V) : 0;
}

void appendLegacySegment(StringRef S, std::string &Out) {
  // The mangler puts '_' before a segment that starts with an escape.
  if (S.starts_with("_$"))
    S = S.drop_front();
  while (!S.empty()) {
    if (S[0] == '$') {
      size_t End = S.find('$', 1);
      char C = End == StringRef::npos ? 0 : legacyEscape(S.slice(1, End));
      if (!C) {
        Out += S; // binutils prints the rest of the segment as it is
        return;
      }
      Out += C;
      S = S.drop_front(End + 1);
    } else if (S[0] == '.') {
      bool Path = S.size() > 1 && S[1] == '.';
      Out += Path ? "::" : ".";
      S = S.drop_front(Path ? 2 : 1);
    } else {
      size_t Plain = std::min(S.find_first_of("$."), S.size());
      Out += S.take_front(Plain);
      S = S.drop_front(Plain);
    }
  }
}

} // namespace

/// Name without the `.llvm.<digits>` suffix LLVM's LTO adds to a symbol it
/// promotes, which binutils' Rust demangler ignores.
static StringRef withoutLlvmSuffix(StringRef Name) {
  size_t At = Name.find(".llvm.");
  if (At != StringRef::npos && all_of(Name.drop_front(At + 6), [](char C) {
        return isHexDigit(C) || C == '@';
      }))
    return Name.take_front(At);
  return Name;
}

std::optional<std::string> demangleRustLegacy(StringRef Name) {
  Name = withoutLlvmSuffix(Name);
  if (!Name.consume_front("_ZN") || !Name.consume_back("E") ||
      !all_of(Name, [](char C) {
        return isAlnum(C) || C == '_' || C == '$' || C == '.' || C == ':';
      }))
    return std::nullopt;
  std::optional<SmallVector<StringRef, 8>> Segments = legacySegments(Name);
  if (!Segments || Segments->size() < 2 || !isLegacyHash(Segments->back()))
    return std::nullopt;
  std::string Out;
  for (StringRef S : ArrayRef(*Segments).drop_back()) {
    if (!Out.empty())
      Out += "::";
    appendLegacySegment(S, Out);
  }
  return Out;
}

bool llvmMayDemangle(StringRef Name) {
  if (Name.empty())
    return false;
  if (Name[0] == '?' || Name[0] == '.')
    return true;
  size_t Kind = Name.find_first_not_of("_.");
  if (Kind == 0 || Kind == StringRef::npos || Kind > 6)
    return false;
  return Name[Kind] == 'Z' || Name[Kind] == 'R' || Name[Kind] == 'D';
}

std::string readableDemangle(StringRef Name) {
  if (std::optional<std::string> Rust = demangleRustLegacy(Name))
    return *Rust;
  return llvm::demangle(Name);
}

std::string gnuDemangle(StringRef Name) {
  // Rust's legacy symbols are also valid Itanium names: Rust first, as
  // binutils tries it.
  if (std::optional<std::string> Rust = demangleRustLegacy(Name))
    return *Rust;
  char *D = nullptr;
  if (Name.starts_with("_R")) {
    // v0 names have no '.': binutils ignores what follows one (.llvm.N,
    // the .0 of a static's second symbol), which LLVM would print.
    StringRef V0 = Name.take_until([](char C) { return C == '.'; });
    D = rustDemangle(std::string_view(V0.data(), V0.size()));
  } else {
    int Status = 0;
    D = abi::__cxa_demangle(Name.str().c_str(), nullptr, nullptr, &Status);
  }
  std::string Result = D ? std::string(D) : Name.str();
  std::free(D);
  return Result;
}

std::string demangledNameKey(StringRef Shown) {
  std::string Key;
  Key.reserve(Shown.size());
  for (size_t I = 0; I < Shown.size(); ++I) {
    // GNU's " [clone .cold]" and LLVM's " (.cold)" after the name.
    if (Shown[I] == ' ' && (Shown.substr(I).starts_with(" [clone .") ||
                            Shown.substr(I).starts_with(" (."))) {
      char Close = Shown[I + 1] == '[' ? ']' : ')';
      size_t End = Shown.find(Close, I);
      if (End != StringRef::npos) {
        I = End;
        continue;
      }
    }
    if (!isSpace(Shown[I]))
      Key += Shown[I];
  }
  return Key;
}

/// The name GNU's demangler prints without DMGL_PARAMS, from the one it
/// prints with them (Full): the outermost function's parameters and
/// qualifiers go, and so does a function template's return type, while
/// the parameters of enclosing functions (of a lambda, a local class)
/// stay. Full's parentheses, angle brackets and braces are balanced but
/// for operator names (`operator<`), which at worst leave it unchanged.
static std::string gnuWithoutParameters(StringRef Full) {
  // Full is of a symbol without its clone suffix: no " [clone .cold]".
  StringRef S = Full;
  for (bool Again = true; Again;) {
    Again = false;
    for (StringRef Qual : {" const", " volatile", " &&", " &"})
      if (S.consume_back(Qual))
        Again = true;
  }
  if (!S.ends_with(")"))
    return S.str();
  size_t Depth = 0, Open = StringRef::npos;
  for (size_t I = S.size(); I-- > 0;) {
    if (S[I] == ')')
      ++Depth;
    else if (S[I] == '(' && --Depth == 0) {
      Open = I;
      break;
    }
  }
  if (Open == StringRef::npos || Open == 0)
    return S.str();
  S = S.take_front(Open);
  if (!S.ends_with(">"))
    return S.str();
  // A template's return type ends at the last blank outside brackets.
  Depth = 0;
  for (size_t I = S.size(); I-- > 0;) {
    char C = S[I];
    if (C == '>' || C == ')' || C == '}' || C == ']')
      ++Depth;
    else if ((C == '<' || C == '(' || C == '{' || C == '[') && Depth > 0)
      --Depth;
    else if (C == ' ' && Depth == 0)
      return S.drop_front(I + 1).str();
  }
  return S.str();
}

SmallVector<std::string, 3> demangledNameKeys(StringRef Mangled) {
  SmallVector<std::string, 3> Keys;
  // No Itanium or Rust name has a '.': what follows one is a clone's
  // suffix (.cold, .isra.0, .llvm.123), which perf leaves out without the
  // parameters.
  StringRef Symbol = Mangled.take_until([](char C) { return C == '.'; });
  if (!Symbol.starts_with("_Z") && !Symbol.starts_with("_R"))
    return Keys;
  std::string Full = gnuDemangle(Symbol);
  if (Full == Symbol)
    return Keys;
  Keys.push_back(demangledNameKey(Full));
  // The demangler's names point into the text it parsed.
  std::string Text = Symbol.str();
  ItaniumPartialDemangler D;
  if (Symbol.starts_with("_Z") && !D.partialDemangle(Text.c_str()) &&
      D.isFunction())
    if (char *Name = D.getFunctionName(nullptr, nullptr)) {
      std::string Short = demangledNameKey(Name);
      std::free(Name);
      if (!is_contained(Keys, Short))
        Keys.push_back(std::move(Short));
    }
  // LLVM's demangler spells lambdas and other local entities as GNU's does
  // not (`'lambda'(int)` for `{lambda(int)#1}`).
  std::string Gnu = demangledNameKey(gnuWithoutParameters(Full));
  if (!is_contained(Keys, Gnu))
    Keys.push_back(std::move(Gnu));
  return Keys;
}

} // namespace dwarfpack
