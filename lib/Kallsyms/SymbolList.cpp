//===- SymbolList.cpp - Parse kallsyms, System.map and nm output ----------===//

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;

bool kallsyms::isMappingSymbol(StringRef Name) {
  if (Name.size() < 2 || Name[0] != '$')
    return false;
  if (!StringRef("adtx").contains(Name[1]))
    return false;
  return Name.size() == 2 || Name[2] == '.';
}

std::string kallsyms::demangleSymbol(StringRef Name) {
  if (!Name.starts_with("_Z") && !Name.starts_with("__Z") &&
      !Name.starts_with("_R"))
    return Name.str();
  // Legacy Rust mangling is Itanium-compatible: read as C++ it keeps its
  // escapes ($u7b$) and its hash path segment, which rustc-demangle drops.
  return readableDemangle(Name);
}

static Error lineError(StringRef Buffer, uint64_t Line, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           Buffer + ":" + Twine(Line) + ": " + What);
}

Error kallsyms::parseSymbolList(StringRef Text, StringRef BufferName,
                                const ParseOptions &Options, SymbolList &List,
                                WarningLog *Warnings) {
  // No text form of a symbol list has NUL bytes: a name with one could be
  // neither printed back nor looked up.
  if (size_t Nul = Text.find('\0'); Nul != StringRef::npos)
    return lineError(BufferName, 1 + Text.take_front(Nul).count('\n'),
                     "NUL byte at column " +
                         Twine(Nul - Text.take_front(Nul).rfind('\n')));
  List.Symbols.reserve(Text.size() / 40);
  uint64_t LineNo = 0;
  uint64_t PrevCore = 0;
  bool HaveCore = false, Sorted = true, AnyNonZero = false;
  const char *P = Text.begin(), *End = Text.end();
  while (P < End) {
    ++LineNo;
    const char *NL = static_cast<const char *>(memchr(P, '\n', End - P));
    const char *LineEnd = NL ? NL : End;
    StringRef Line(P, LineEnd - P);
    P = NL ? NL + 1 : End;
    if (Line.size() > Options.MaxLineLength)
      return lineError(BufferName, LineNo,
                       "line is longer than " + Twine(Options.MaxLineLength) +
                           " bytes");
    if (Line.ends_with("\r"))
      Line = Line.drop_back();
    if (Line.empty())
      continue;
    // nm prints undefined symbols with a blank address column.
    if (Line[0] == ' ') {
      StringRef Rest = Line.ltrim(' ');
      if (Rest.size() >= 2 && Rest[1] == ' ' && isAlpha(Rest[0]))
        continue;
      return lineError(BufferName, LineNo,
                       "expected '<address> <type> <name>'");
    }
    size_t Sp = Line.find(' ');
    if (Sp == StringRef::npos || Sp + 3 > Line.size() || Line[Sp + 2] != ' ')
      return lineError(BufferName, LineNo,
                       "expected '<address> <type> <name>'");
    StringRef Hex = Line.take_front(Sp);
    // Checked and converted in one pass (this loop is a good part of the
    // time to parse /proc/kallsyms).
    uint64_t Addr = 0;
    bool BadHex = Hex.size() > 16;
    for (char C : Hex) {
      unsigned V = hexDigitValue(C);
      BadHex |= V == ~0U;
      Addr = (Addr << 4) | (V & 15);
    }
    if (BadHex)
      return lineError(BufferName, LineNo,
                       "bad address '" + Hex.take_front(32) + "'");
    char Type = Line[Sp + 1];
    if (!isAlpha(Type) && Type != '?' && Type != '-')
      return lineError(BufferName, LineNo,
                       "bad symbol type '" + Twine(Type) + "'");
    StringRef Name = Line.drop_front(Sp + 3);
    StringRef Module;
    size_t Tab = Name.find('\t');
    if (Tab != StringRef::npos) {
      StringRef Mod = Name.drop_front(Tab + 1);
      Name = Name.take_front(Tab);
      if (Mod.size() < 3 || Mod.front() != '[' || Mod.back() != ']')
        return lineError(BufferName, LineNo,
                         "expected '[module]' after the tab");
      Module = Mod.drop_front().drop_back();
    }
    if (Name.empty())
      return lineError(BufferName, LineNo, "missing symbol name");
    if (!Options.AllTypes && Type != 't' && Type != 'T')
      continue;
    if (isMappingSymbol(Name)) {
      if (Warnings)
        Warnings->report("mapping-symbol", BufferName + ":" + Twine(LineNo) +
                                               ": ARM mapping symbol '" + Name +
                                               "' dropped");
      continue;
    }
    // The core kernel's symbols come in address order (System.map, nm -n,
    // the start of /proc/kallsyms). /proc/kallsyms lists each module's in
    // the order of its symbol table, and the modules in load order: those
    // are sorted below, as kallsyms readers do.
    if (Module.empty()) {
      if (HaveCore && Addr < PrevCore)
        return lineError(BufferName, LineNo,
                         formatv("address {0:x16} goes backwards (previous "
                                 "symbol is at {1:x16})",
                                 Addr, PrevCore));
      PrevCore = Addr;
      HaveCore = true;
    }
    Sorted &= List.Symbols.empty() || List.Symbols.back().Address <= Addr;
    AnyNonZero |= Addr != 0;
    if (Options.Demangle) {
      std::string D = demangleSymbol(Name);
      if (D != Name)
        Name = List.save(D);
    }
    List.Symbols.push_back({Addr, Type, Name, Module});
  }
  if (!Sorted)
    llvm::stable_sort(List.Symbols,
                      [](const KernelSymbol &A, const KernelSymbol &B) {
                        return A.Address < B.Address;
                      });
  if (List.Symbols.empty())
    return createStringError(
        inconvertibleErrorCode(),
        BufferName + ": no symbols" +
            (Options.AllTypes ? "" : " of type 't' or 'T'"));
  if (!AnyNonZero && List.Symbols.size() > 1)
    return createStringError(
        inconvertibleErrorCode(),
        BufferName + ": every address is zero (are kernel pointers "
                     "hidden by kptr_restrict? read /proc/kallsyms as root)");
  return Error::success();
}
