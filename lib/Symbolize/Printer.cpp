//===- Printer.cpp - llvm-symbolizer and addr2line compatible output ------===//
//
// The formats follow llvm-symbolizer 19 (its DIPrinter): LLVM style prints
// "name\nfile:line:column\n" per frame and a blank line per address; GNU
// style "name\nfile:line\n" per frame; JSON one object per address with
// sorted keys, unknown strings as "" and unknown numbers as 0. Binutils'
// addr2line prints GNU's layout with its own unknowns.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/AddressTable/FunctionNames.h"
#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace llvm;

namespace dwarfpack {

ResultPrinter::ResultPrinter(raw_ostream &OS, PrinterOptions Opts)
    : OS(OS), Opts(std::move(Opts)) {}

ResultPrinter::~ResultPrinter() = default;

namespace {
/// "0x" and V in lower-case hex, without allocating.
class HexText {
public:
  explicit HexText(uint64_t V) {
    static constexpr char Digits[] = "0123456789abcdef";
    char *P = std::end(Buf);
    // Two digits a step while more than two are left (a batch prints two
    // or three addresses of 16 digits an answer).
    for (; V > 0xff; V >>= 8) {
      *--P = Digits[V & 15];
      *--P = Digits[(V >> 4) & 15];
    }
    do {
      *--P = Digits[V & 15];
      V >>= 4;
    } while (V);
    *--P = 'x';
    *--P = '0';
    Text = StringRef(P, std::end(Buf) - P);
  }
  operator StringRef() const { return Text; }

private:
  char Buf[18];
  StringRef Text;
};
} // namespace

static std::string toHex(uint64_t V) { return StringRef(HexText(V)).str(); }

std::string ResultPrinter::displayName(StringRef Name) const {
  std::string Storage;
  return displayName(Name, Storage).str();
}

StringRef ResultPrinter::displayName(StringRef Name,
                                     std::string &Storage) const {
  // Short names are chosen with the frames (selectFrames). Only names that
  // start so can be mangled (Itanium, Rust and D names with '_', MSVC's
  // with '?', type info with '.'): the others print as they are, without
  // a copy (and a C function named 'f' is not the type "float" to the C++
  // runtime's demangler).
  bool MaybeMangled =
      !Name.empty() && (Name[0] == '_' || Name[0] == '?' || Name[0] == '.');
  if (Opts.Functions == FunctionNames::Short || !Opts.Demangle || !MaybeMangled)
    return Name;
  // addr2line demangles as binutils does (lambdas as {lambda(...)#1}, not
  // LLVM's 'lambda'(...); Rust's legacy symbols without their hash).
  if (Opts.Style == OutputStyle::Addr2Line)
    Storage = gnuDemangle(Name);
  else if (llvmMayDemangle(Name))
    Storage = llvm::demangle(Name);
  else
    return Name; // C names such as __do_softirq, without a copy
  return Storage;
}

StringRef ResultPrinter::pathView(StringRef Path, bool Whole) const {
  // llvm-symbolizer strips the directories of a file its line table names
  // by a directory and a name; a name that is itself an absolute path it
  // prints whole. binutils' addr2line strips every path.
  if (Opts.Paths == PathStyle::BaseName &&
      (!Whole || Opts.Style == OutputStyle::Addr2Line))
    return Path.substr(Path.rfind('/') + 1); // npos + 1 is 0
  return Path;
}

void ResultPrinter::beginList() {
  if (Opts.Style == OutputStyle::JSON)
    List = std::make_unique<json::Array>();
}

void ResultPrinter::endList() {
  if (!List)
    return;
  json::Value V(std::move(*List));
  List.reset();
  json::OStream(OS, Opts.Pretty ? 2 : 0).value(V);
  OS << '\n';
  OS.flush();
}

void ResultPrinter::emit(json::Value V) {
  if (List) {
    List->push_back(std::move(V));
    return;
  }
  json::OStream(OS, Opts.Pretty ? 2 : 0).value(V);
  OS << '\n';
}

/// Whether frame I of F (innermost first) is of code only a symbol
/// describes. Without details, a frame without a line is taken for one (no
/// DWARF function); with them, a symbol's code has no short name.
static bool symbolOnly(ArrayRef<SourceFrame> F, size_t I, bool Details) {
  const SourceFrame &Fr = F[I];
  const SourceFrame &Fn = F.back();
  return Details ? Fn.HasShortName && Fn.ShortName.empty()
                 : Fr.FileName.empty() && !Fr.Line;
}

/// The name binutils' addr2line prints for frame I of F (innermost first):
/// the names DWARF gives; a symbol's for code only a symbol describes.
static std::string binutilsName(ArrayRef<SourceFrame> F, size_t I,
                                bool Details) {
  const SourceFrame &Fr = F[I];
  const SourceFrame &Fn = F.back();
  if (I + 1 == F.size() && symbolOnly(F, I, Details))
    return Fr.FunctionName;
  std::string Name =
      I + 1 == F.size() && Fn.HasDwarfName ? Fn.DwarfName : Fr.FunctionName;
  // GCC's clone parts (foo.cold) are the function they came from.
  Name.resize(std::min(Name.size(), cloneSuffix(Name)));
  return Name;
}

ArrayRef<SourceFrame>
ResultPrinter::selectFrames(const LookupResult &R,
                            std::vector<SourceFrame> &Changed) const {
  // Most answers print as the table gives them: no copy then.
  if (printsAsGiven(R.Frames.size(),
                    R.Frames.empty() || !R.Frames.back().FileName.empty()))
    return R.Frames;
  Changed = R.Frames;
  changeFrames(Changed, R.HasDetails);
  return Changed;
}

void ResultPrinter::changeFrames(std::vector<SourceFrame> &F,
                                 bool HasDetails) const {
  if (F.empty())
    return;
  if (Opts.Style == OutputStyle::Addr2Line) {
    std::vector<std::string> Names;
    for (size_t I = 0; I < F.size(); ++I)
      Names.push_back(binutilsName(F, I, HasDetails));
    for (size_t I = 0; I < F.size(); ++I) {
      F[I].FunctionName = std::move(Names[I]);
      // addr2line prints the row's discriminator on every frame.
      F[I].Discriminator = F.front().Discriminator;
    }
    // Code only a symbol describes is in the file of the symbol's STT_FILE
    // (an object's name such as "Value.cpp.o"; ":?" when it has no name).
    // binutils prints it for DWARF's functions too, but only where DWARF
    // gives no linkage name and only at the first lookup in each (later
    // ones print "??"): the table's symbol file is llvm-symbolizer's there.
    SourceFrame &Fn = F.back();
    if (Fn.HasSymbolFile && symbolOnly(F, F.size() - 1, HasDetails)) {
      Fn.FileName = Fn.SymbolFileName;
      Fn.FileNameWhole = false;
    } else {
      Fn.HasSymbolFile = false;
    }
  }
  // What llvm-symbolizer reads from DWARF alone with short names or none:
  // the names (a symbol-only function has none) and the function's start.
  const bool Dwarf = Opts.Functions != FunctionNames::Linkage &&
                     Opts.Style != OutputStyle::Addr2Line;
  if (Dwarf) {
    for (SourceFrame &Fr : F)
      Fr.FunctionName = shortName(Fr);
    SourceFrame &Fn = F.back();
    Fn.HasStartAddress = Fn.HasStartAddress && Fn.HasDwarfStart;
  } else if (Opts.Style != OutputStyle::Addr2Line &&
             F.back().FileName.empty()) {
    // An address without a line: the file of the function's local symbol
    // (a symbol's file is never kept whole).
    F.back().FileName = F.back().SymbolFileName;
    F.back().FileNameWhole = false;
  }
  // Short names come from DWARF only: llvm-symbolizer finds nothing for a
  // function the symbol table alone names (no file, no line).
  if (Opts.Functions == FunctionNames::Short && !HasDetails && F.size() == 1 &&
      F[0].FileName.empty() && !F[0].Line) {
    F.clear();
    return;
  }
  if (Opts.Inlines || F.size() <= 1)
    return;
  // GNU style asks for the inlined chain and keeps its innermost frame;
  // LLVM and JSON ask for the line at the address, whose name and start
  // are the symbol's (the outermost function) with linkage names, and the
  // innermost function's with short ones.
  SourceFrame One = F.front();
  bool Outer =
      Opts.Functions == FunctionNames::Linkage &&
      (Opts.Style == OutputStyle::LLVM || Opts.Style == OutputStyle::JSON);
  if (Outer) {
    const SourceFrame &Fn = F.back();
    One.FunctionName = Fn.FunctionName;
    One.StartAddress = Fn.StartAddress;
    One.HasStartAddress = Fn.HasStartAddress;
    One.Size = Fn.Size;
    One.Module = Fn.Module;
    One.SymbolType = Fn.SymbolType;
    if (One.FileName.empty()) {
      One.FileName = Fn.SymbolFileName;
      One.FileNameWhole = false;
    }
  }
  F.assign(1, std::move(One));
}

bool ResultPrinter::printsAsGiven(size_t NumFrames, bool LastHasFile) const {
  return Opts.Style != OutputStyle::Addr2Line &&
         Opts.Functions == FunctionNames::Linkage &&
         (Opts.Inlines || NumFrames <= 1) && LastHasFile;
}

std::string ResultPrinter::shortName(const SourceFrame &F) {
  if (F.HasShortName)
    return F.ShortName;
  return shortFunctionName(F.HasDwarfName ? F.DwarfName : F.FunctionName);
}

void ResultPrinter::printHeader(std::optional<uint64_t> Address) {
  if (!Address || !Opts.PrintAddress)
    return;
  markAddress();
  writeAddress(*Address);
  markAddressEnd();
  OS << (Opts.Pretty ? ": " : "\n");
}

void ResultPrinter::writeAddress(uint64_t Address) {
  if (Opts.Style == OutputStyle::Addr2Line)
    OS << format("0x%0*" PRIx64, int(Opts.AddressDigits), Address);
  else
    OS << StringRef(HexText(Address));
}

void ResultPrinter::printFrame(const FrameView *F, bool Inlined) {
  bool Binutils = Opts.Style == OutputStyle::Addr2Line;
  if (Opts.Pretty && Inlined &&
      (Opts.Functions != FunctionNames::None || Binutils))
    OS << " (inlined by) ";
  if (Opts.Functions != FunctionNames::None) {
    std::string Name = F ? displayName(F->FunctionName) : "";
    OS << (Name.empty() ? "??" : Name);
    // addr2line joins an unknown name to its location with a space.
    OS << (!Opts.Pretty ? "\n" : Binutils && !F ? " " : " at ");
  }
  std::string File = F ? displayPath(F->FileName, F->FileNameWhole) : "";
  // An empty STT_FILE name is printed as it is by addr2line.
  if (File.empty() && !(Binutils && F && F->HasSymbolFile))
    File = "??";
  uint32_t Line = F ? F->Line : 0;
  uint32_t Discriminator = F ? F->Discriminator : 0;
  if (Opts.Verbose && Opts.Style != OutputStyle::Addr2Line)
    return printVerbose(F, File);
  switch (Opts.Style) {
  case OutputStyle::LLVM:
  case OutputStyle::JSON:
    OS << File << ':' << Line << ':' << (F ? F->Column : 0) << '\n';
    writeContext(OS, File, Line);
    return;
  case OutputStyle::GNU:
    OS << File << ':' << Line;
    break;
  case OutputStyle::Addr2Line:
    // Nothing found is `??:0`; a frame without a line `FILE:?`.
    OS << File << ':';
    if (Line)
      OS << Line;
    else
      OS << (F ? "?" : "0");
    if (!Line)
      Discriminator = 0;
    break;
  }
  if (Discriminator)
    OS << " (discriminator " << Discriminator << ')';
  OS << '\n';
  if (Opts.Style == OutputStyle::GNU)
    writeContext(OS, File, Line);
}

void ResultPrinter::printVerbose(const FrameView *F, StringRef File) {
  OS << "  Filename: " << File << '\n';
  if (F && F->StartLine) {
    StringRef Start = pathView(F->StartFileName, F->StartFileNameWhole);
    // llvm-symbolizer's one-frame answers (--no-inlines in LLVM style,
    // symbol queries; GNU style prints the innermost of the inlined
    // frames) keep DILineInfo's placeholder for a declaration without a
    // file.
    if (Start.empty() &&
        (SingleFrame || (!Opts.Inlines && Opts.Style == OutputStyle::LLVM)))
      Start = "<invalid>";
    OS << "  Function start filename: " << Start << '\n';
    OS << "  Function start line: " << F->StartLine << '\n';
  }
  // GNU style leaves the start address out.
  if (F && F->HasStartAddress && Opts.Style == OutputStyle::LLVM)
    OS << "  Function start address: " << HexText(F->StartAddress) << '\n';
  OS << "  Line: " << (F ? F->Line : 0) << '\n';
  OS << "  Column: " << (F ? F->Column : 0) << '\n';
  if (F && F->Discriminator)
    OS << "  Discriminator: " << F->Discriminator << '\n';
}

void ResultPrinter::writeContext(raw_ostream &Out, StringRef File,
                                 uint32_t Line) const {
  // Called for every frame printed: nothing to look up unless asked.
  if (Opts.SourceContextLines <= 0 || File.empty())
    return;
  if (std::optional<StringRef> Text = Sources.text(File))
    writeSourceContext(Out, *Text, Line, Opts.SourceContextLines);
}

void ResultPrinter::printFooter() {
  if (Opts.Style == OutputStyle::LLVM)
    OS << '\n';
}

void ResultPrinter::printPlain(std::optional<uint64_t> Address,
                               ArrayRef<FrameView> Frames) {
  printHeader(Address);
  if (Frames.empty())
    printFrame(nullptr, false);
  for (size_t I = 0; I < Frames.size(); ++I)
    printFrame(&Frames[I], I > 0);
  printFooter();
}

template <typename MemberFn>
void ResultPrinter::forEachFrameMember(const FrameView *F,
                                       MemberFn &&Member) const {
  // In the order json::Object prints its keys (sorted), as llvm-symbolizer
  // does.
  auto Number = [&](StringRef Key, uint64_t V) { Member(Key, V); };
  auto String = [&](StringRef Key, StringRef V) { Member(Key, V); };
  bool Named = F && Opts.Functions != FunctionNames::None;
  Number("Column", F ? F->Column : 0);
  Number("Discriminator", F ? F->Discriminator : 0);
  String("FileName", F ? pathView(F->FileName, F->FileNameWhole) : "");
  std::string Demangled;
  String("FunctionName",
         Named ? displayName(F->FunctionName, Demangled) : StringRef());
  Number("Line", F ? F->Line : 0);
  if (F && Opts.SourceContextLines > 0) {
    std::string Source;
    raw_string_ostream Out(Source);
    writeContext(Out, pathView(F->FileName, F->FileNameWhole), F->Line);
    if (!Source.empty())
      String("Source", Source);
  }
  String("StartAddress", F && F->HasStartAddress
                             ? StringRef(HexText(F->StartAddress))
                             : StringRef());
  String("StartFileName",
         F ? pathView(F->StartFileName, F->StartFileNameWhole) : "");
  Number("StartLine", F ? F->StartLine : 0);
}

/// A member's value as a json::Value that owns its string, mended as
/// llvm-symbolizer mends one that is not UTF-8 (json::Value asserts
/// otherwise).
static json::Value owned(uint64_t V) { return V; }
static json::Value owned(StringRef V) {
  return json::isUTF8(V) ? V.str() : json::fixUTF8(V);
}

json::Object ResultPrinter::frameToJSON(const FrameView *F) const {
  json::Object O;
  // The object keeps its strings: a copy, not the StringRef.
  forEachFrameMember(F, [&](StringRef Key, auto V) { O[Key] = owned(V); });
  return O;
}

namespace {
/// Text built in a buffer of the caller's that keeps its capacity. The
/// pieces of a member (its comma, key and value) are written after one
/// bounds check: an answer in JSON is some 20 members, and a stream's call
/// for each of their 100 pieces cost more than the lookup.
class TextBuilder {
public:
  explicit TextBuilder(SmallVectorImpl<char> &Buf) : Buf(Buf) {
    Buf.resize_for_overwrite(std::max<size_t>(Buf.capacity(), 4096));
    P = Buf.data();
    E = P + Buf.size();
  }
  /// Room for N more bytes: where to write them, then to pass the end of
  /// what was written to commit(). (Written through a local pointer, which
  /// the compiler keeps in a register: through a member, each byte stored
  /// made it load the member again.)
  char *room(size_t N) {
    if (LLVM_UNLIKELY(size_t(E - P) < N))
      grow(N);
    return P;
  }
  void commit(char *End) { P = End; }
  static char *copy(char *To, StringRef S) {
    if (!S.empty())
      std::memcpy(To, S.data(), S.size());
    return To + S.size();
  }
  /// At most 20 bytes.
  static char *decimal(char *To, uint64_t V) {
    char Digits[20], *D = std::end(Digits);
    do {
      *--D = char('0' + V % 10);
      V /= 10;
    } while (V);
    return copy(To, StringRef(D, std::end(Digits) - D));
  }
  void put(StringRef S) { commit(copy(room(S.size()), S)); }
  size_t size() const { return P - Buf.data(); }
  /// Where At, a pointer room() gave, lies in the text.
  size_t offset(const char *At) const { return At - Buf.data(); }
  StringRef text() const { return StringRef(Buf.data(), size()); }

private:
  void grow(size_t N) {
    const size_t Used = size();
    Buf.resize_for_overwrite(std::max(2 * Buf.size(), Used + N));
    P = Buf.data() + Used;
    E = Buf.data() + Buf.size();
  }

  SmallVectorImpl<char> &Buf;
  char *P, *E;
};

/// Writes JSON as json::OStream writes it unindented, without building a
/// json::Value of each member: a batch of a million answers spends most of
/// its time printing otherwise.
class JSONLineWriter {
public:
  explicit JSONLineWriter(TextBuilder &OS) : OS(OS) {}
  void objectBegin() {
    char *P = comma(OS.room(2));
    *P++ = '{';
    OS.commit(P);
    First = true;
  }
  void objectEnd() { close('}'); }
  void arrayBegin(StringRef Key) {
    char *P = key(Key, 1);
    *P++ = '[';
    OS.commit(P);
    First = true;
  }
  void arrayEnd() { close(']'); }
  void attribute(StringRef Key, StringRef V) {
    if (!plain(V))
      return attributeEscaped(Key, V);
    OS.commit(quoted(key(Key, V.size() + 2), V));
  }
  void attribute(StringRef Key, uint64_t V) {
    OS.commit(TextBuilder::decimal(key(Key, 20), V));
  }
  /// A member whose value, Value, needs no escapes; At learns where it
  /// lies in the text.
  void plainAttribute(StringRef Key, StringRef Value, size_t &At) {
    assert(plain(Value));
    char *P = key(Key, Value.size() + 2);
    At = OS.offset(P) + 1; // past the quote
    OS.commit(quoted(P, Value));
  }

private:
  char *comma(char *P) {
    if (!First)
      *P++ = ',';
    First = false;
    return P;
  }
  void close(char C) {
    char *P = OS.room(1);
    *P++ = C;
    OS.commit(P);
    First = false;
  }
  static char *quoted(char *P, StringRef V) {
    *P++ = '"';
    P = TextBuilder::copy(P, V);
    *P++ = '"';
    return P;
  }
  /// Writes the comma before K and K, with room for Then more bytes after
  /// them; returns where they go. Keys are llvm-symbolizer's member names:
  /// plain ASCII.
  char *key(StringRef K, size_t Then) {
    assert(plain(K));
    char *P = comma(OS.room(K.size() + 4 + Then));
    P = quoted(P, K);
    *P++ = ':';
    return P;
  }
  /// Escapes and mended UTF-8 exactly as json::OStream gives them.
  void attributeEscaped(StringRef Key, StringRef V) {
    std::string Escaped;
    raw_string_ostream Out(Escaped);
    json::OStream(Out).value(owned(V));
    OS.commit(TextBuilder::copy(key(Key, Escaped.size()), Escaped));
  }

  /// Whether json::OStream writes every byte of S as it is: printable
  /// ASCII but for '"' and '\\'. Sixteen or eight bytes at a time (names
  /// and paths are most of a batch's output).
  static bool plain(StringRef S) {
    const char *P = S.data(), *E = P + S.size();
#if defined(__SSE2__)
    // Signed bytes: below ' ' are the control bytes and every byte from
    // 0x80 on.
    auto Bad = [](const char *At) {
      const __m128i Space = _mm_set1_epi8(' '), Del = _mm_set1_epi8(0x7f),
                    Quote = _mm_set1_epi8('"'), Backslash = _mm_set1_epi8('\\');
      __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(At));
      return _mm_movemask_epi8(_mm_or_si128(
          _mm_or_si128(_mm_cmplt_epi8(V, Space), _mm_cmpeq_epi8(V, Del)),
          _mm_or_si128(_mm_cmpeq_epi8(V, Quote),
                       _mm_cmpeq_epi8(V, Backslash))));
    };
    if (E - P >= 16) {
      for (; E - P > 16; P += 16)
        if (Bad(P))
          return false;
      // The last 16 bytes, some of them tested already.
      return !Bad(E - 16);
    }
#endif
    constexpr uint64_t Ones = 0x0101010101010101ULL;
    constexpr uint64_t Highs = 0x8080808080808080ULL;
    // Whether some byte of V is 0 / below N / above N (exact for "some").
    auto AnyZero = [](uint64_t V) { return (V - Ones) & ~V & Highs; };
    auto AnyBelow = [](uint64_t V, uint64_t N) {
      return (V - Ones * N) & ~V & Highs;
    };
    auto AnyAbove = [](uint64_t V, uint64_t N) {
      return ((V + Ones * (127 - N)) | V) & Highs;
    };
    auto BadWord = [&](const char *At) {
      uint64_t V;
      std::memcpy(&V, At, 8);
      return AnyBelow(V, 0x20) | AnyAbove(V, 0x7e) | AnyZero(V ^ (Ones * '"')) |
             AnyZero(V ^ (Ones * '\\'));
    };
    if (E - P >= 8) {
      for (; E - P > 8; P += 8)
        if (BadWord(P))
          return false;
      return !BadWord(E - 8); // overlapping, as above
    }
    for (; P < E; ++P) {
      unsigned char C = *P;
      if (C < 0x20 || C >= 0x7f || C == '"' || C == '\\')
        return false;
    }
    return true;
  }

  TextBuilder &OS;
  bool First = true;
};
} // namespace

void ResultPrinter::printJSONLine(uint64_t Address,
                                  ArrayRef<FrameView> Frames) {
  TextBuilder Text(JSONText);
  JSONLineWriter J(Text);
  J.objectBegin();
  const HexText Hex(Address);
  size_t At;
  J.plainAttribute("Address", Hex, At);
  Shape.AddressAt = OS.tell() - AnswerStart + At;
  Shape.AddressSize = StringRef(Hex).size();
  J.attribute("ModuleName", Opts.ModuleName);
  J.arrayBegin("Symbol");
  auto Frame = [&](const FrameView *F) {
    J.objectBegin();
    forEachFrameMember(F, [&](StringRef Key, auto V) { J.attribute(Key, V); });
    J.objectEnd();
  };
  if (Frames.empty())
    Frame(nullptr);
  for (const FrameView &F : Frames)
    Frame(&F);
  J.arrayEnd();
  J.objectEnd();
  Text.put("\n");
  OS << Text.text();
}

json::Object ResultPrinter::requestToJSON(std::optional<uint64_t> Address,
                                          StringRef SymName) const {
  json::Object O;
  O["ModuleName"] = Opts.ModuleName;
  if (Address)
    O["Address"] = toHex(*Address);
  if (!SymName.empty())
    O["SymName"] = SymName.str();
  return O;
}

void ResultPrinter::print(const LookupResult &Result) {
  std::vector<SourceFrame> Changed;
  ArrayRef<SourceFrame> Selected = selectFrames(Result, Changed);
  SmallVector<FrameView, 8> Views(Selected.begin(), Selected.end());
  printFrames(Result.Address, Views);
}

void ResultPrinter::print(uint64_t Address, ArrayRef<FrameView> Frames,
                          bool HasDetails) {
  AnswerStart = OS.tell();
  Shape = AnswerShape();
  Shape.Repeatable = Opts.Style != OutputStyle::JSON || (!List && !Opts.Pretty);
  if (printsAsGiven(Frames.size(),
                    Frames.empty() || !Frames.back().FileName.empty()))
    return printFrames(Address, Frames);
  // The options change the frames: on copies.
  std::vector<SourceFrame> Changed;
  printedFrames(Frames, HasDetails, Changed);
  SmallVector<FrameView, 8> Views(Changed.begin(), Changed.end());
  printFrames(Address, Views);
}

void ResultPrinter::printAgain(StringRef Text, const AnswerShape &S,
                               uint64_t Address) {
  assert(S.Repeatable && S.AddressAt + S.AddressSize <= Text.size());
  if (!S.AddressSize) {
    OS << Text;
    return;
  }
  OS << Text.take_front(S.AddressAt);
  writeAddress(Address); // JSON's "Address" is plain hex too
  OS << Text.drop_front(S.AddressAt + S.AddressSize);
}

void ResultPrinter::printedFrames(ArrayRef<FrameView> Frames, bool HasDetails,
                                  std::vector<SourceFrame> &Out) const {
  Out.clear();
  Out.reserve(Frames.size());
  for (const FrameView &F : Frames)
    Out.push_back(F.toSourceFrame());
  if (!printsAsGiven(Frames.size(),
                     Frames.empty() || !Frames.back().FileName.empty()))
    changeFrames(Out, HasDetails);
}

void ResultPrinter::printFrames(uint64_t Address, ArrayRef<FrameView> Frames) {
  if (Opts.Style != OutputStyle::JSON) {
    printPlain(Address, Frames);
    return;
  }
  if (!List && !Opts.Pretty)
    return printJSONLine(Address, Frames);
  if (!List) {
    // Indented by json::OStream, still written as it is made rather than
    // built as a json::Object first.
    json::OStream J(OS, 2);
    auto Frame = [&](const FrameView *F) {
      J.object([&] {
        forEachFrameMember(
            F, [&](StringRef Key, auto V) { J.attribute(Key, owned(V)); });
      });
    };
    J.object([&] {
      J.attribute("Address", toHex(Address));
      J.attribute("ModuleName", Opts.ModuleName);
      J.attributeArray("Symbol", [&] {
        if (Frames.empty())
          Frame(nullptr);
        for (const FrameView &F : Frames)
          Frame(&F);
      });
    });
    OS << '\n';
    return;
  }
  json::Array Symbols;
  if (Frames.empty())
    Symbols.push_back(frameToJSON(nullptr));
  for (const FrameView &F : Frames)
    Symbols.push_back(frameToJSON(&F));
  json::Object O = requestToJSON(Address, "");
  O["Symbol"] = std::move(Symbols);
  emit(std::move(O));
}

void ResultPrinter::printError(uint64_t Address, StringRef Message) {
  if (Opts.Style != OutputStyle::JSON) {
    printPlain(Address, {});
    return;
  }
  json::Object O = requestToJSON(Address, "");
  O["Error"] = json::Object{{"Message", Message.str()}};
  emit(std::move(O));
}

void ResultPrinter::printNoAnswer(uint64_t Address) {
  if (Opts.Style != OutputStyle::JSON) {
    printPlain(Address, {});
    return;
  }
  json::Object O = requestToJSON(Address, "");
  O["Symbol"] = json::Array();
  emit(std::move(O));
}

void ResultPrinter::printSymbol(StringRef SymName,
                                ArrayRef<LookupResult> Matches) {
  // llvm-symbolizer finds each match's line as --no-inlines does in LLVM
  // style.
  PrinterOptions Saved = Opts;
  Opts.Inlines = false;
  OutputStyle Style = Opts.Style;
  if (Style != OutputStyle::JSON)
    Opts.Style = OutputStyle::LLVM;
  std::vector<SourceFrame> Frames;
  std::vector<SourceFrame> Changed;
  for (const LookupResult &M : Matches)
    llvm::append_range(Frames, selectFrames(M, Changed));
  Opts = Saved;
  SmallVector<FrameView, 8> Views(Frames.begin(), Frames.end());
  if (Style != OutputStyle::JSON) {
    if (Views.empty())
      return printPlain(std::nullopt, {});
    SingleFrame = true;
    for (const FrameView &F : Views)
      printFrame(&F, false);
    SingleFrame = false;
    printFooter();
    return;
  }
  json::Array Loc;
  for (const FrameView &F : Views)
    Loc.push_back(frameToJSON(&F));
  json::Object O = requestToJSON(std::nullopt, SymName);
  O["Loc"] = std::move(Loc);
  emit(std::move(O));
}

void ResultPrinter::printData(std::optional<uint64_t> Address,
                              const std::optional<DataSymbol> &Symbol,
                              StringRef SymName) {
  std::string Name;
  if (Symbol)
    Name = dataName(Symbol->Name);
  uint64_t Start = Symbol ? Symbol->Start : 0, Size = Symbol ? Symbol->Size : 0;
  if (Opts.Style == OutputStyle::JSON) {
    json::Object O = requestToJSON(Address, SymName);
    O["Data"] = json::Object{
        {"Name", Name}, {"Size", toHex(Size)}, {"Start", toHex(Start)}};
    emit(std::move(O));
    return;
  }
  printHeader(Address);
  OS << (Name.empty() ? "??" : Name) << '\n';
  OS << Start << ' ' << Size << '\n';
  if (!Symbol || Symbol->DeclFile.empty())
    OS << "??:?\n";
  else
    OS << Symbol->DeclFile << ':' << Symbol->DeclLine << '\n';
  printFooter();
}

void ResultPrinter::printNoLocals(std::optional<uint64_t> Address,
                                  StringRef SymName) {
  if (Opts.Style == OutputStyle::JSON) {
    json::Object O = requestToJSON(Address, SymName);
    O["Frame"] = json::Array();
    emit(std::move(O));
    return;
  }
  printHeader(Address);
  OS << "??\n";
  printFooter();
}

template <typename T>
void ResultPrinter::printNumber(const std::optional<T> &V) {
  if (V)
    OS << *V;
  else
    OS << "??";
}

void ResultPrinter::printLocals(uint64_t Address, ArrayRef<FrameLocal> Locals) {
  if (Opts.Style == OutputStyle::JSON) {
    json::Array Frame;
    for (const FrameLocal &L : Locals) {
      json::Object O{{"FunctionName", L.FunctionName},
                     {"Name", L.Name},
                     {"DeclFile", L.DeclFile},
                     {"DeclLine", int64_t(L.DeclLine)},
                     {"Size", L.Size ? toHex(*L.Size) : ""},
                     {"TagOffset", L.TagOffset ? toHex(*L.TagOffset) : ""}};
      if (L.FrameOffset)
        O["FrameOffset"] = *L.FrameOffset;
      Frame.push_back(std::move(O));
    }
    json::Object O = requestToJSON(Address, "");
    O["Frame"] = std::move(Frame);
    emit(std::move(O));
    return;
  }
  if (Locals.empty())
    return printNoLocals(Address);
  printHeader(Address);
  auto OrUnknown = [](StringRef S) { return S.empty() ? StringRef("??") : S; };
  for (const FrameLocal &L : Locals) {
    OS << OrUnknown(L.FunctionName) << '\n' << OrUnknown(L.Name) << '\n';
    OS << OrUnknown(L.DeclFile) << ':' << L.DeclLine << '\n';
    printNumber(L.FrameOffset);
    OS << ' ';
    printNumber(L.Size);
    OS << ' ';
    printNumber(L.TagOffset);
    OS << '\n';
  }
  printFooter();
}

void ResultPrinter::printInvalidInput(bool WithModule) {
  if (Opts.Style != OutputStyle::JSON) {
    printPlain(std::nullopt, {});
    return;
  }
  json::Object O;
  O["ModuleName"] = WithModule ? Opts.ModuleName : "";
  O["Symbol"] = json::Array{frameToJSON(nullptr)};
  emit(std::move(O));
}

} // namespace dwarfpack
