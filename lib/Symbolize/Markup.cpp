//===- Markup.cpp - Symbolizer markup filtered into readable text ---------===//
//
// The layout of every replacement is llvm-symbolizer 19's (its
// MarkupFilter), which users' scripts and tests already read; so are the
// rules for what is a valid element, and the messages.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Markup.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

namespace {

/// The length of the SGR escape at the start of S (ESC [ 0 m, ESC [ 1 m,
/// ESC [ 30 m ... ESC [ 37 m), or 0.
size_t sgrLength(StringRef S) {
  if (!S.starts_with("\033["))
    return 0;
  StringRef Code = S.drop_front(2);
  if (Code.size() >= 2 && (Code[0] == '0' || Code[0] == '1') && Code[1] == 'm')
    return 4;
  if (Code.size() >= 3 && Code[0] == '3' && Code[1] >= '0' && Code[1] <= '7' &&
      Code[2] == 'm')
    return 5;
  return 0;
}

/// Text outside elements, split so that each SGR escape is a node of its own.
void splitText(StringRef Text, std::vector<MarkupNode> &Out) {
  size_t Start = 0;
  for (size_t I = Text.find('\033'); I != StringRef::npos;
       I = Text.find('\033', I + 1)) {
    size_t Len = sgrLength(Text.drop_front(I));
    if (!Len)
      continue;
    if (I > Start)
      Out.push_back({Text.slice(Start, I), {}, {}});
    Out.push_back({Text.substr(I, Len), {}, {}});
    Start = I + Len;
    I = Start - 1;
  }
  if (Start < Text.size())
    Out.push_back({Text.drop_front(Start), {}, {}});
}

/// The first element of Text with a tag (`{{{}}}` and `{{{:x}}}` are text).
std::optional<MarkupNode> nextElement(StringRef Text) {
  for (;;) {
    size_t Begin = Text.find("{{{");
    if (Begin == StringRef::npos)
      return std::nullopt;
    size_t End = Text.find("}}}", Begin + 3);
    if (End == StringRef::npos)
      return std::nullopt;
    MarkupNode N;
    N.Text = Text.slice(Begin, End + 3);
    Text = Text.drop_front(End + 3);
    StringRef Content = N.Text.drop_front(3).drop_back(3);
    StringRef Fields;
    std::tie(N.Tag, Fields) = Content.split(':');
    if (N.Tag.empty())
      continue;
    if (!Fields.empty())
      Fields.split(N.Fields, ':');
    else if (Content.ends_with(":"))
      N.Fields.push_back(Fields);
    return N;
  }
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

bool known(const MarkupFrame &F) {
  return !F.Function.empty() || !F.File.empty() || F.Line || F.Column;
}

/// llvm-symbolizer's word for what it does not know.
StringRef orInvalid(StringRef S) { return S.empty() ? "<invalid>" : S; }

} // namespace

void parseMarkupLine(StringRef Line, std::vector<MarkupNode> &Out) {
  Out.clear();
  while (std::optional<MarkupNode> E = nextElement(Line)) {
    splitText(Line.take_front(E->Text.begin() - Line.begin()), Out);
    Line = Line.drop_front(E->Text.end() - Line.begin());
    Out.push_back(std::move(*E));
  }
  splitText(Line, Out);
}

MarkupFilter::MarkupFilter(raw_ostream &OS, MarkupSymbolizer &Symbolizer,
                           bool Colors, MarkupDiagnosticFn Diagnose)
    : OS(OS), Symbolizer(Symbolizer), Colors(Colors),
      Diagnose(std::move(Diagnose)) {}

MarkupFilter::~MarkupFilter() = default;

void MarkupFilter::filter(StringRef L) {
  Line = L.str();
  resetColor();
  std::vector<MarkupNode> Nodes;
  parseMarkupLine(Line, Nodes);
  // A line with a contextual element is not printed: what it says goes
  // into the module summary, and the rest of the line is dropped.
  for (size_t I = 0; I < Nodes.size(); ++I)
    if (tryContextual(Nodes[I], ArrayRef(Nodes).take_front(I)))
      return;
  printBefore(Nodes);
}

void MarkupFilter::printBefore(ArrayRef<MarkupNode> Nodes) {
  endSummary();
  for (const MarkupNode &N : Nodes)
    filterNode(N);
}

void MarkupFilter::finish() {
  endSummary();
  resetColor();
  MMaps.clear();
  Modules.clear();
}

StringRef MarkupFilter::lineEnd() const {
  return StringRef(Line).ends_with("\r\n") ? "\r\n" : "\n";
}

//===-- Contextual elements -----------------------------------------------===//

bool MarkupFilter::tryContextual(const MarkupNode &N,
                                 ArrayRef<MarkupNode> Before) {
  return tryMMap(N, Before) || tryReset(N, Before) || tryModule(N, Before);
}

bool MarkupFilter::tryModule(const MarkupNode &N, ArrayRef<MarkupNode> Before) {
  if (N.Tag != "module")
    return false;
  if (!hasFieldsAtLeast(N, 3))
    return true;
  std::optional<uint64_t> ID = parseInteger(N.Fields[0], "module ID", 0);
  if (!ID)
    return true;
  if (N.Fields[2] != "elf") {
    diagnose(false, "unknown module type", N.Fields[2].begin());
    return true;
  }
  if (!hasFields(N, 4))
    return true;
  Expected<SmallVector<uint8_t, 20>> BuildId = parseBuildId(N.Fields[3]);
  if (!BuildId) {
    consumeError(BuildId.takeError());
    diagnose(false, "expected build ID; found '" + N.Fields[3] + "'",
             N.Fields[3].begin());
    return true;
  }
  auto [It, Added] = Modules.try_emplace(*ID);
  if (!Added) {
    diagnose(false, "duplicate module ID", N.Fields[0].begin());
    return true;
  }
  It->second.reset(new Module{*ID, N.Fields[1].str(), std::move(*BuildId)});
  printBefore(Before);
  beginSummary(*It->second);
  OS << "; BuildID=";
  printValue(toHex(It->second->BuildId, /*LowerCase=*/true));
  return true;
}

bool MarkupFilter::tryMMap(const MarkupNode &N, ArrayRef<MarkupNode> Before) {
  if (N.Tag != "mmap")
    return false;
  if (!hasFieldsAtLeast(N, 3))
    return true;
  std::optional<uint64_t> Addr = parseAddress(N.Fields[0]);
  if (!Addr)
    return true;
  std::optional<uint64_t> Size = parseInteger(N.Fields[1], "size", 0);
  if (!Size)
    return true;
  if (*Size && *Addr + (*Size - 1) < *Addr) {
    diagnose(false, "mmap past the end of the address space",
             N.Fields[1].begin());
    return true;
  }
  if (N.Fields[2] != "load") {
    diagnose(false, "unknown mmap type", N.Fields[2].begin());
    return true;
  }
  if (!hasFields(N, 6))
    return true;
  std::optional<uint64_t> ID = parseInteger(N.Fields[3], "module ID", 0);
  if (!ID)
    return true;
  // r, w and x, each at most once and in that order, in either case.
  StringRef Mode = N.Fields[4];
  StringRef Rest = Mode;
  Rest.consume_front_insensitive("r");
  Rest.consume_front_insensitive("w");
  Rest.consume_front_insensitive("x");
  if (Mode.empty() || !Rest.empty()) {
    diagnose(false, "expected mode; found '" + Mode + "'", Mode.begin());
    return true;
  }
  auto Mod = Modules.find(*ID);
  if (Mod == Modules.end()) {
    diagnose(false, "unknown module ID", N.Fields[3].begin());
    return true;
  }
  std::optional<uint64_t> ModuleAddr = parseAddress(N.Fields[5]);
  if (!ModuleAddr)
    return true;
  MMap M{*Addr, *Size, Mod->second.get(), Mode.lower(), *ModuleAddr};
  // Overlapping: the new one holds the start of the next, or the one
  // before holds its start.
  auto Next = MMaps.lower_bound(M.Addr);
  const MMap *Overlap = nullptr;
  if (Next != MMaps.end() && (Next->first == M.Addr || M.contains(Next->first)))
    Overlap = &Next->second;
  else if (Next != MMaps.begin() && std::prev(Next)->second.contains(M.Addr))
    Overlap = &std::prev(Next)->second;
  if (Overlap) {
    diagnose(false,
             "overlapping mmap: #" + hex(Overlap->Mod->ID) + " [" +
                 hex(Overlap->Addr) + "-" +
                 hex(Overlap->Addr + Overlap->Size - 1) + "]",
             N.Fields[0].begin());
    return true;
  }
  const MMap &Added = MMaps.emplace(M.Addr, std::move(M)).first->second;
  if (!Pending || Pending->Mod != Added.Mod) {
    printBefore(Before);
    beginSummary(*Added.Mod);
    OS << "; adds";
  }
  Pending->MMaps.push_back(&Added);
  return true;
}

bool MarkupFilter::tryReset(const MarkupNode &N, ArrayRef<MarkupNode> Before) {
  if (N.Tag != "reset")
    return false;
  if (!hasFields(N, 0))
    return true;
  // A reset with nothing to forget is dropped without a word.
  if (Modules.empty() && MMaps.empty())
    return true;
  printBefore(Before);
  printRaw(N);
  OS << lineEnd();
  MMaps.clear();
  Modules.clear();
  return true;
}

void MarkupFilter::beginSummary(const Module &M) {
  highlight();
  OS << "[[[ELF module";
  printValue(" #" + hex(M.ID) + " ");
  OS << '"';
  printValue(M.Name);
  OS << '"';
  Pending = Summary{&M, {}};
}

void MarkupFilter::endSummary() {
  if (!Pending)
    return;
  std::stable_sort(
      Pending->MMaps.begin(), Pending->MMaps.end(),
      [](const MMap *A, const MMap *B) { return A->Addr < B->Addr; });
  for (const MMap *M : Pending->MMaps) {
    OS << (M == Pending->MMaps.front() ? ' ' : ',') << '[';
    printValue(hex(M->Addr));
    OS << '-';
    printValue(hex(M->Addr + M->Size - 1));
    OS << "](";
    printValue(M->Mode);
    OS << ')';
  }
  OS << "]]]" << lineEnd();
  restoreColor();
  Pending.reset();
}

//===-- Presentation elements ---------------------------------------------===//

void MarkupFilter::filterNode(const MarkupNode &N) {
  if (!N.Tag.empty()) {
    if (any_of(N.Tag, [](char C) { return C < 'a' || C > 'z'; })) {
      diagnose(false, "tags must be all lowercase characters", N.Tag.begin());
      return;
    }
    if (N.Tag == "symbol")
      return printSymbol(N);
    if (N.Tag == "pc")
      return printPC(N);
    if (N.Tag == "bt")
      return printBacktrace(N);
    if (N.Tag == "data")
      return printData(N);
  } else if (applySGR(N.Text)) {
    return;
  }
  OS << N.Text; // an element of another kind stays as it is
}

void MarkupFilter::printSymbol(const MarkupNode &N) {
  if (!hasFields(N, 1))
    return;
  highlight();
  OS << llvm::demangle(N.Fields[0]);
  restoreColor();
}

std::optional<MarkupFilter::Located>
MarkupFilter::locate(const MarkupNode &N, size_t At,
                     std::optional<PCType> Type) {
  std::optional<uint64_t> Addr = parseAddress(N.Fields[At]);
  if (!Addr)
    return std::nullopt;
  if (Type && N.Fields.size() > At + 1) {
    Type = parsePCType(N.Fields[At + 1]);
    if (!Type)
      return std::nullopt;
  }
  if (Type == PCType::ReturnAddress)
    --*Addr; // into the call instruction
  const MMap *M = mmapOf(*Addr, N.Fields[At]);
  if (!M) {
    printRaw(N);
    return std::nullopt;
  }
  return Located{*Addr, M, *Addr - M->Addr + M->ModuleAddr};
}

void MarkupFilter::printPC(const MarkupNode &N) {
  if (!hasFieldsAtLeast(N, 1))
    return;
  warnFieldsAtMost(N, 2);
  // A lone pc is where the code is; a backtrace's, where it returns to.
  std::optional<Located> L = locate(N, 0, PCType::Precise);
  if (!L)
    return;
  const Module &Mod = *L->Map->Mod;
  Expected<std::vector<MarkupFrame>> Frames =
      Symbolizer.code(Mod.BuildId, L->ModuleAddr, /*Inlines=*/false);
  if (!Frames)
    return symbolizeFailed(N, Mod, Frames.takeError());
  if (Frames->empty() || !known(Frames->front())) {
    unanswered(Mod, L->ModuleAddr, "in no function of the table", N.Fields[0]);
    return printRaw(N);
  }
  const MarkupFrame &F = Frames->front();
  highlight();
  printValue(orInvalid(F.Function));
  OS << '[';
  printValue(orInvalid(F.File));
  OS << ':';
  printValue(Twine(F.Line));
  OS << ']';
  restoreColor();
}

void MarkupFilter::printBacktrace(const MarkupNode &N) {
  if (!hasFieldsAtLeast(N, 2))
    return;
  warnFieldsAtMost(N, 3);
  std::optional<uint64_t> Number =
      parseInteger(N.Fields[0], "frame number", 10);
  if (!Number)
    return;
  std::optional<Located> L = locate(N, 1, PCType::ReturnAddress);
  if (!L)
    return;
  const Module &Mod = *L->Map->Mod;
  Expected<std::vector<MarkupFrame>> Frames =
      Symbolizer.code(Mod.BuildId, L->ModuleAddr, /*Inlines=*/true);
  if (!Frames)
    return symbolizeFailed(N, Mod, Frames.takeError());
  if (Frames->empty() || !known(Frames->front()))
    unanswered(Mod, L->ModuleAddr, "in no function of the table", N.Fields[1]);
  if (Frames->empty())
    Frames->emplace_back(); // printed without a location
  // "    #N" (right-aligned in six), then ".I" for the inlined frames
  // (innermost first, I from 1) or nothing for the function itself.
  std::string Number6 = "#" + utostr(*Number);
  if (Number6.size() < 6)
    Number6.insert(0, 6 - Number6.size(), ' ');
  const size_t Hash = Number6.find('#') + 1;
  std::string Hex16 = utohexstr(L->Addr, /*LowerCase=*/true);
  Hex16.insert(0, 16 - std::min<size_t>(16, Hex16.size()), '0');
  highlight();
  for (size_t I = 0, E = Frames->size(); I < E; ++I) {
    const MarkupFrame &F = (*Frames)[I];
    OS << StringRef(Number6).take_front(Hash);
    printValue(StringRef(Number6).drop_front(Hash));
    if (I + 1 == E) {
      OS << "   ";
    } else {
      OS << '.';
      std::string Inlined = utostr(I + 1);
      if (Inlined.size() < 2)
        Inlined.push_back(' ');
      printValue(Inlined);
    }
    printValue(" 0x" + Hex16 + " ");
    if (known(F)) {
      printValue(orInvalid(F.Function));
      OS << ' ';
      printValue(orInvalid(F.File));
      OS << ':';
      printValue(Twine(F.Line));
      OS << ':';
      printValue(Twine(F.Column));
      OS << ' ';
    }
    OS << '(';
    printValue(Mod.Name);
    OS << '+';
    printValue(hex(L->ModuleAddr));
    OS << ')';
    if (I + 1 != E)
      OS << lineEnd();
  }
  restoreColor();
}

void MarkupFilter::printData(const MarkupNode &N) {
  if (!hasFields(N, 1))
    return;
  std::optional<Located> L = locate(N, 0, std::nullopt);
  if (!L)
    return;
  const Module &Mod = *L->Map->Mod;
  std::string Why;
  Expected<std::string> Name = Symbolizer.data(Mod.BuildId, L->ModuleAddr, Why);
  if (!Name)
    return symbolizeFailed(N, Mod, Name.takeError());
  if (Name->empty())
    unanswered(Mod, L->ModuleAddr, Why, N.Fields[0]);
  highlight();
  OS << orInvalid(*Name);
  restoreColor();
}

void MarkupFilter::printRaw(const MarkupNode &N) {
  highlight();
  OS << "[[[";
  printValue(N.Tag);
  for (StringRef F : N.Fields) {
    OS << ':';
    printValue(F);
  }
  OS << "]]]";
  restoreColor();
}

//===-- Colours -----------------------------------------------------------===//

bool MarkupFilter::applySGR(StringRef Text) {
  size_t Len = sgrLength(Text);
  if (!Len || Len != Text.size())
    return false;
  if (Text[2] == '0') {
    resetColor();
  } else if (Text[2] == '1') {
    Bold = true;
    if (Colors)
      OS.changeColor(raw_ostream::SAVEDCOLOR, Bold);
  } else {
    // ESC [ 3N m: the colours are raw_ostream's first eight, in order.
    Color = raw_ostream::Colors(Text[3] - '0');
    if (Colors)
      OS.changeColor(*Color);
  }
  return true;
}

/// What the filter writes stands out from the markup's own colour.
void MarkupFilter::highlight() {
  if (Colors)
    OS.changeColor(Color == raw_ostream::BLUE ? raw_ostream::CYAN
                                              : raw_ostream::BLUE,
                   Bold);
}

void MarkupFilter::printValue(const Twine &V) {
  if (Colors)
    OS.changeColor(raw_ostream::GREEN, Bold);
  OS << V;
  highlight();
}

void MarkupFilter::restoreColor() {
  if (!Colors)
    return;
  if (Color) {
    OS.changeColor(*Color, Bold);
    return;
  }
  OS.resetColor();
  if (Bold)
    OS.changeColor(raw_ostream::SAVEDCOLOR, Bold);
}

void MarkupFilter::resetColor() {
  if (!Color && !Bold)
    return;
  Color.reset();
  Bold = false;
  if (Colors)
    OS.resetColor();
}

//===-- Fields and diagnostics --------------------------------------------===//

const MarkupFilter::MMap *MarkupFilter::mmapOf(uint64_t Address,
                                               StringRef Field) {
  auto It = MMaps.upper_bound(Address);
  if (It != MMaps.begin() && std::prev(It)->second.contains(Address))
    return &std::prev(It)->second;
  diagnose(false, "no mmap covers address", Field.begin());
  return nullptr;
}

std::optional<uint64_t> MarkupFilter::parseAddress(StringRef Field) {
  // 0x and hex digits; 0 may be written as zeros alone.
  if (!Field.empty() && all_of(Field, [](char C) { return C == '0'; }))
    return 0;
  uint64_t V;
  if (!Field.starts_with("0x") || Field.drop_front(2).getAsInteger(16, V)) {
    diagnose(false, "expected address; found '" + Field + "'", Field.begin());
    return std::nullopt;
  }
  return V;
}

std::optional<uint64_t>
MarkupFilter::parseInteger(StringRef Field, const char *What, unsigned Radix) {
  uint64_t V;
  if (Field.getAsInteger(Radix, V)) {
    diagnose(false, Twine("expected ") + What + "; found '" + Field + "'",
             Field.begin());
    return std::nullopt;
  }
  return V;
}

std::optional<MarkupFilter::PCType> MarkupFilter::parsePCType(StringRef Field) {
  if (Field == "ra")
    return PCType::ReturnAddress;
  if (Field == "pc")
    return PCType::Precise;
  diagnose(false, "expected PC type; found '" + Field + "'", Field.begin());
  return std::nullopt;
}

bool MarkupFilter::hasFields(const MarkupNode &N, size_t Count) {
  if (N.Fields.size() == Count)
    return true;
  // Too many is only a warning: the element is used without the rest.
  bool TooMany = N.Fields.size() > Count;
  diagnose(TooMany,
           "expected " + Twine(Count) + " field(s); found " +
               Twine(N.Fields.size()),
           N.Tag.end());
  return TooMany;
}

bool MarkupFilter::hasFieldsAtLeast(const MarkupNode &N, size_t Count) {
  if (N.Fields.size() >= Count)
    return true;
  diagnose(false,
           "expected at least " + Twine(Count) + " field(s); found " +
               Twine(N.Fields.size()),
           N.Tag.end());
  return false;
}

void MarkupFilter::warnFieldsAtMost(const MarkupNode &N, size_t Count) {
  if (N.Fields.size() > Count)
    diagnose(true,
             "expected at most " + Twine(Count) + " field(s); found " +
                 Twine(N.Fields.size()),
             N.Tag.end());
}

void MarkupFilter::diagnose(bool IsWarning, const Twine &Message,
                            std::optional<StringRef::iterator> At,
                            std::string Repeats) {
  if (!Diagnose)
    return;
  MarkupDiagnostic D;
  D.IsWarning = IsWarning;
  D.Message = Message.str();
  D.Line = Line;
  D.Repeats = std::move(Repeats);
  if (At)
    D.Column = size_t(*At - Line.data());
  Diagnose(D);
}

void MarkupFilter::unanswered(const Module &M, uint64_t ModuleAddr,
                              StringRef Why, StringRef Field) {
  std::string Mod = "ELF module #" + hex(M.ID) + " \"" + M.Name + "\"";
  diagnose(true, Mod + ": " + hex(ModuleAddr) + ": " + Why, Field.begin(),
           Mod + ": addresses " + Why.str());
}

void MarkupFilter::symbolizeFailed(const MarkupNode &N, const Module &M,
                                   Error E) {
  diagnose(false,
           "ELF module #" + hex(M.ID) + " \"" + M.Name +
               "\" (BuildID=" + toHex(M.BuildId, /*LowerCase=*/true) +
               "): " + toString(std::move(E)),
           std::nullopt);
  printRaw(N);
}

} // namespace dwarfpack
