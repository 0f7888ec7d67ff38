//===- BreakpadParser.cpp - Breakpad text symbol files (.sym) -------------===//
//
// One pass over the text. Per line we only slice the mapped buffer; strings
// are interned once per record that keeps a name (FUNC, PUBLIC, FILE,
// INLINE_ORIGIN), and vectors grow per function, so a multi-megabyte file of
// line records costs no allocation per line.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Breakpad/BreakpadParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace llvm;

namespace dwarfpack {

BreakpadSink::~BreakpadSink() = default;

bool looksLikeBreakpad(StringRef Contents) {
  return Contents.starts_with("MODULE ");
}

namespace {

// FILE and INLINE_ORIGIN ids index dense tables; Breakpad numbers them from 0.
constexpr uint64_t MaxRecordId = 1u << 24;
constexpr FileId UndefinedFile = std::numeric_limits<FileId>::max();
constexpr uint32_t RootParent = std::numeric_limits<uint32_t>::max();

struct HexTable {
  int8_t V[256];
  constexpr HexTable() : V() {
    for (int I = 0; I < 256; ++I)
      V[I] = -1;
    for (int I = 0; I < 10; ++I)
      V['0' + I] = I;
    for (int I = 0; I < 6; ++I) {
      V['a' + I] = 10 + I;
      V['A' + I] = 10 + I;
    }
  }
};
constexpr HexTable Hex;

bool parseHex(StringRef T, uint64_t &Out) {
  if (T.empty() || T.size() > 16)
    return false;
  uint64_t V = 0;
  for (unsigned char C : T) {
    int8_t D = Hex.V[C];
    if (D < 0)
      return false;
    V = (V << 4) | uint64_t(D);
  }
  Out = V;
  return true;
}

bool parseDec(StringRef T, uint64_t Max, uint64_t &Out) {
  if (T.empty() || T.size() > 19)
    return false;
  uint64_t V = 0;
  for (char C : T) {
    if (C < '0' || C > '9')
      return false;
    V = V * 10 + uint64_t(C - '0');
  }
  if (V > Max)
    return false;
  Out = V;
  return true;
}

/// A decimal id that may be -1 ("no file" in INLINE and old INLINE_ORIGIN).
bool parseFileRef(StringRef T, int64_t &Out) {
  if (T == "-1") {
    Out = -1;
    return true;
  }
  uint64_t V;
  if (!parseDec(T, MaxRecordId - 1, V))
    return false;
  Out = int64_t(V);
  return true;
}

bool isDecimalToken(StringRef T) {
  return !T.empty() && all_of(T, [](char C) { return C >= '0' && C <= '9'; });
}

bool isValidName(StringRef S) {
  for (unsigned char C : S) {
    if (C == 0)
      return false;
    if (C >= 0x80) {
      const UTF8 *B = reinterpret_cast<const UTF8 *>(S.data());
      return isLegalUTF8String(&B, B + S.size());
    }
  }
  return true;
}

/// Fields of one record, separated by runs of spaces. The last field of
/// records with a name is the rest of the line and may contain spaces.
class Fields {
public:
  explicit Fields(StringRef Line) : P(Line.begin()), E(Line.end()) { skip(); }
  StringRef next() {
    const char *S = P;
    P = static_cast<const char *>(std::memchr(P, ' ', E - P));
    if (!P)
      P = E;
    StringRef T(S, P - S);
    skip();
    return T;
  }
  StringRef rest() { return StringRef(P, E - P); }
  bool done() const { return P == E; }

private:
  void skip() {
    while (P != E && *P == ' ')
      ++P;
  }
  const char *P;
  const char *E;
};

bool addOverflows(uint64_t A, uint64_t B) {
  return A > std::numeric_limits<uint64_t>::max() - B;
}

class Parser {
public:
  Parser(StringRef Contents, StringRef FileName, BreakpadSink &Sink,
         WarningLog &Log)
      : Text(Contents), FileName(FileName), Sink(Sink), Log(Log) {}

  Expected<BreakpadSymbols> run();

private:
  struct PendingInline {
    SmallVector<AddressRange, 1> Ranges;
    StringRef Name;
    FileId CallFile = 0;
    uint32_t CallLine = 0;
    uint32_t Parent = RootParent;
    /// Older INLINE form at depth 0: call file comes from the function.
    bool CallFileFromFunction = false;
    /// Declaration file of the origin (older INLINE_ORIGIN form), Breakpad id.
    int64_t OriginDeclFile = -1;
    /// All ranges were empty: kept only as the parent of deeper records.
    bool Hollow = false;
    /// Ranges of accepted children, sorted, to refuse overlapping siblings.
    SmallVector<AddressRange, 4> ChildRanges;
  };
  struct Origin {
    StringRef Name;
    int64_t File = -1; ///< Older form's declaration file, Breakpad id.
    bool Defined = false;
  };
  struct FuncRecord {
    FunctionEntry F;
    uint64_t LineNo;
  };
  struct PublicRecord {
    uint64_t Address;
    StringRef Name;
    uint64_t LineNo;
  };

  void reject(StringRef Kind, const Twine &Why) {
    ++Out.Stats.Rejected;
    Log.report(Kind, FileName + ":" + Twine(LineNo) + ": " + Why);
  }
  void rejectBad(StringRef Record) {
    reject("breakpad-bad-record", "malformed " + Record + " record");
  }

  Error parseModule(StringRef Line);
  void parseInfo(StringRef Line);
  void parseFile(StringRef Line);
  void parseInlineOrigin(StringRef Line);
  void parseFunc(StringRef Line);
  void parsePublic(StringRef Line);
  void parseInline(StringRef Line);
  /// Parses a line that starts with a record keyword; false when it does
  /// not start with one.
  Expected<bool> parseKeywordRecord(StringRef Line);
  /// The module's build-id: its code id, else derived from its id.
  void setUUID();
  /// An INLINE record's fields, before any check against the function.
  struct InlineFields {
    uint64_t Depth = 0, CallLine = 0, OriginId = 0;
    int64_t CallFileId = -1;
    bool HasCallFile = false;
    bool Ok = false;                     ///< All fields parse.
    bool Wraps = false;                  ///< A range wraps around.
    SmallVector<AddressRange, 1> Ranges; ///< Non-empty ones, in record order.
  };
  InlineFields parseInlineFields(StringRef Line);
  /// Whether Ranges each lie inside one range of the parent at Depth.
  bool insideParent(uint64_t Depth, uint32_t Parent,
                    ArrayRef<AddressRange> Ranges) const;
  /// The call file of an accepted inline at Depth.
  FileId inlineCallFile(const InlineFields &R, FileId CallFile,
                        uint32_t Parent);
  /// Makes P the inline at Depth, the parent of what follows deeper.
  void pushInline(uint64_t Depth, PendingInline P);
  void parseLineRecord(StringRef Line);
  void closeFunction();
  /// For records that belong to a FUNC: false (after counting or warning)
  /// when there is no current FUNC to add them to.
  bool needFunction(StringRef Record);
  /// The call-site file of an inlined call whose file the .sym does not
  /// give. GSYM readers (LLVM's and ours) take call file 0 for the concrete
  /// function and would drop the frame, so it gets the name "??", the usual
  /// mark of an unknown file.
  FileId unknownCallFile() {
    if (!UnknownFile)
      UnknownFile = Sink.addFilePath("??");
    return UnknownFile;
  }
  FileId lookupFile(int64_t BreakpadId) const {
    if (BreakpadId < 0 || uint64_t(BreakpadId) >= Files.size())
      return UndefinedFile;
    return Files[BreakpadId];
  }
  void finish();

  StringRef Text;
  StringRef FileName;
  BreakpadSink &Sink;
  WarningLog &Log;
  BreakpadSymbols Out;
  uint64_t LineNo = 0;

  std::vector<FileId> Files;
  FileId UnknownFile = 0;
  std::vector<Origin> Origins;
  std::vector<FuncRecord> Funcs;
  std::vector<PublicRecord> Publics;

  // The FUNC the following line and INLINE records belong to.
  bool InFunc = false;
  bool FuncRejected = false;
  FunctionEntry Cur;
  uint64_t CurLineNo = 0;
  uint64_t LastLineEnd = 0;
  std::vector<PendingInline> Inlines;
  SmallVector<AddressRange, 4> RootChildRanges;
  /// Accepted INLINE records on the path to the current depth.
  SmallVector<uint32_t, 8> DepthStack;
};

Error Parser::parseModule(StringRef Line) {
  Fields F(Line.drop_front(7));
  StringRef OS = F.next(), Arch = F.next(), Id = F.next(), Name = F.rest();
  if (OS.empty() || Arch.empty() || Id.empty() || Name.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s:1: malformed MODULE record",
                             FileName.str().c_str());
  Out.Module.OS = OS.str();
  Out.Module.Arch = Arch.str();
  Out.Module.Id = Id.str();
  Out.Module.Name = Name.str();
  return Error::success();
}

void Parser::parseInfo(StringRef Line) {
  Fields F(Line.drop_front(5));
  if (F.next() != "CODE_ID") {
    ++Out.Stats.InfoSkipped;
    return;
  }
  StringRef Id = F.next();
  if (Id.empty() || Id.size() % 2 != 0 ||
      !all_of(Id, [](char C) { return Hex.V[(unsigned char)C] >= 0; }))
    return rejectBad("INFO CODE_ID");
  Out.Module.CodeId = Id.str();
}

void Parser::parseFile(StringRef Line) {
  Fields F(Line.drop_front(5));
  uint64_t Id;
  if (!parseDec(F.next(), MaxRecordId - 1, Id) || F.done())
    return rejectBad("FILE");
  StringRef Name = F.rest();
  if (!isValidName(Name))
    return reject("breakpad-bad-utf8", "FILE name is not valid UTF-8");
  if (Id < Files.size() && Files[Id] != UndefinedFile)
    return reject("breakpad-duplicate-id",
                  "FILE " + Twine(Id) + " defined twice");
  if (Id >= Files.size())
    Files.resize(Id + 1, UndefinedFile);
  Files[Id] = Sink.addFilePath(Name);
  ++Out.Stats.Files;
}

void Parser::parseInlineOrigin(StringRef Line) {
  Fields F(Line.drop_front(14));
  uint64_t Id;
  if (!parseDec(F.next(), MaxRecordId - 1, Id) || F.done())
    return rejectBad("INLINE_ORIGIN");
  // The older form has a file id before the name: a number (or -1)
  // followed by more text.
  int64_t DeclFile = -1;
  StringRef Rest = F.rest();
  size_t Space = Rest.find(' ');
  if (Space != StringRef::npos) {
    StringRef First = Rest.take_front(Space);
    if (First == "-1" || isDecimalToken(First)) {
      if (!parseFileRef(F.next(), DeclFile))
        return rejectBad("INLINE_ORIGIN");
      Rest = F.rest();
    }
  }
  if (Rest.empty())
    return rejectBad("INLINE_ORIGIN");
  if (!isValidName(Rest))
    return reject("breakpad-bad-utf8", "INLINE_ORIGIN name is not valid UTF-8");
  if (Id < Origins.size() && Origins[Id].Defined)
    return reject("breakpad-duplicate-id",
                  "INLINE_ORIGIN " + Twine(Id) + " defined twice");
  if (Id >= Origins.size())
    Origins.resize(Id + 1);
  Origins[Id] = {Sink.saveString(Rest), DeclFile, true};
  ++Out.Stats.InlineOrigins;
}

void Parser::parseFunc(StringRef Line) {
  closeFunction();
  InFunc = true;
  FuncRejected = true; // until the record proves good
  Fields F(Line.drop_front(5));
  StringRef T = F.next();
  if (T == "m")
    T = F.next();
  uint64_t Addr, Size, Param;
  if (!parseHex(T, Addr) || !parseHex(F.next(), Size) ||
      !parseHex(F.next(), Param) || F.done())
    return rejectBad("FUNC");
  if (addOverflows(Addr, Size))
    return reject("breakpad-bad-record", "FUNC range wraps around");
  if (Size == 0) {
    // Breakpad's own processor ignores empty ranges silently, and dump_syms
    // writes some; so do we, counting them.
    ++Out.Stats.EmptyRanges;
    return;
  }
  StringRef Name = F.rest();
  if (!isValidName(Name))
    return reject("breakpad-bad-utf8", "FUNC name is not valid UTF-8");
  FuncRejected = false;
  Cur = FunctionEntry();
  Cur.Range = {Addr, Addr + Size};
  Cur.Name = Sink.saveString(Name);
  CurLineNo = LineNo;
  LastLineEnd = Addr;
  Inlines.clear();
  RootChildRanges.clear();
  DepthStack.clear();
}

void Parser::parsePublic(StringRef Line) {
  closeFunction();
  Fields F(Line.drop_front(7));
  StringRef T = F.next();
  if (T == "m")
    T = F.next();
  uint64_t Addr, Param;
  if (!parseHex(T, Addr) || !parseHex(F.next(), Param) || F.done())
    return rejectBad("PUBLIC");
  StringRef Name = F.rest();
  if (!isValidName(Name))
    return reject("breakpad-bad-utf8", "PUBLIC name is not valid UTF-8");
  if (Addr == 0) {
    ++Out.Stats.PublicsAtZero;
    return;
  }
  Publics.push_back({Addr, Name, LineNo});
}

bool Parser::needFunction(StringRef Record) {
  if (InFunc && !FuncRejected)
    return true;
  if (InFunc)
    ++Out.Stats.DroppedWithFunction;
  else
    reject("breakpad-no-function", Record + " record outside a FUNC");
  return false;
}

void Parser::parseLineRecord(StringRef Line) {
  if (!needFunction("line"))
    return;
  Fields F(Line);
  uint64_t Addr, Size, LineNum, File;
  if (!parseHex(F.next(), Addr) || !parseHex(F.next(), Size) ||
      !parseDec(F.next(), std::numeric_limits<uint32_t>::max(), LineNum) ||
      !parseDec(F.next(), MaxRecordId - 1, File) || !F.done())
    return rejectBad("line");
  if (Size == 0) {
    ++Out.Stats.EmptyRanges;
    return;
  }
  if (addOverflows(Addr, Size) || Addr < Cur.Range.Start ||
      Addr + Size > Cur.Range.End)
    return reject("breakpad-outside-function",
                  "line record outside its FUNC (line " + Twine(CurLineNo) +
                      ")");
  if (Addr < LastLineEnd)
    return reject("breakpad-out-of-order",
                  "line record overlaps or precedes the previous one");
  FileId FId = lookupFile(int64_t(File));
  if (FId == UndefinedFile)
    return reject("breakpad-unknown-file",
                  "line record names undefined FILE " + Twine(File));
  std::vector<LineEntry> &Lines = Cur.Lines;
  // Code between line records has no line: keep it so with a row of line 0.
  if (Addr > LastLineEnd)
    Lines.push_back({LastLineEnd, 0, 0});
  if (Lines.empty() || Addr != LastLineEnd || Lines.back().File != FId ||
      Lines.back().Line != LineNum)
    Lines.push_back({Addr, FId, uint32_t(LineNum)});
  LastLineEnd = Addr + Size;
  ++Out.Stats.LineRecords;
}

Parser::InlineFields Parser::parseInlineFields(StringRef Line) {
  Fields F(Line.drop_front(7));
  SmallVector<StringRef, 8> Tok;
  while (!F.done())
    Tok.push_back(F.next());
  InlineFields R;
  // Breakpad tells the forms apart by parity: the current one has a
  // call-site file id, making the count of fields even.
  R.HasCallFile = Tok.size() % 2 == 0;
  size_t I = 0;
  R.Ok = Tok.size() >= 5 && parseDec(Tok[I++], 1u << 16, R.Depth) &&
         parseDec(Tok[I++], std::numeric_limits<uint32_t>::max(), R.CallLine);
  if (R.Ok && R.HasCallFile)
    R.Ok = parseFileRef(Tok[I++], R.CallFileId);
  R.Ok = R.Ok && parseDec(Tok[I++], MaxRecordId - 1, R.OriginId);
  for (; R.Ok && I + 1 < Tok.size(); I += 2) {
    uint64_t A, S;
    R.Ok = parseHex(Tok[I], A) && parseHex(Tok[I + 1], S);
    if (R.Ok && S == 0)
      ++Out.Stats.EmptyRanges;
    else if (R.Ok && addOverflows(A, S))
      R.Wraps = true;
    else if (R.Ok)
      R.Ranges.push_back({A, A + S});
  }
  return R;
}

bool Parser::insideParent(uint64_t Depth, uint32_t Parent,
                          ArrayRef<AddressRange> Ranges) const {
  ArrayRef<AddressRange> ParentRanges =
      Depth == 0 ? ArrayRef<AddressRange>(Cur.Range)
                 : ArrayRef<AddressRange>(Inlines[Parent].Ranges);
  return llvm::all_of(Ranges, [&](const AddressRange &R) {
    auto It = llvm::upper_bound(
        ParentRanges, R.Start,
        [](uint64_t A, const AddressRange &PR) { return A < PR.Start; });
    return It != ParentRanges.begin() && std::prev(It)->contains(R);
  });
}

/// Whether any of Ranges overlaps one of the sorted Siblings.
static bool overlapsSibling(ArrayRef<AddressRange> Siblings,
                            ArrayRef<AddressRange> Ranges) {
  return llvm::any_of(Ranges, [&](const AddressRange &R) {
    auto It = llvm::lower_bound(Siblings, R);
    return (It != Siblings.end() && It->Start < R.End) ||
           (It != Siblings.begin() && std::prev(It)->End > R.Start);
  });
}

FileId Parser::inlineCallFile(const InlineFields &R, FileId CallFile,
                              uint32_t Parent) {
  if (R.HasCallFile)
    return CallFile ? CallFile : unknownCallFile();
  // Older form: the call sits in the parent inline's body, which the
  // older INLINE_ORIGIN form places in its declaration file.
  FileId PF = lookupFile(Inlines[Parent].OriginDeclFile);
  return PF == UndefinedFile ? unknownCallFile() : PF;
}

void Parser::pushInline(uint64_t Depth, PendingInline P) {
  DepthStack.resize(Depth);
  DepthStack.push_back(uint32_t(Inlines.size()));
  Inlines.push_back(std::move(P));
}

void Parser::parseInline(StringRef Line) {
  if (!needFunction("INLINE"))
    return;
  InlineFields R = parseInlineFields(Line);
  const uint64_t Depth = R.Depth;
  // On any rejection the records nested below this one lose their parent.
  auto Fail = [&](StringRef Kind, const Twine &Why) {
    if (R.Ok && Depth < DepthStack.size())
      DepthStack.resize(Depth);
    reject(Kind, Why);
  };
  if (!R.Ok || R.Wraps)
    return Fail("breakpad-bad-record", "malformed INLINE record");
  if (Depth > DepthStack.size())
    return Fail("breakpad-inline-depth", "INLINE depth " + Twine(Depth) +
                                             " has no parent at depth " +
                                             Twine(Depth - 1));
  if (R.OriginId >= Origins.size() || !Origins[R.OriginId].Defined)
    return Fail("breakpad-unknown-origin",
                "INLINE names undefined INLINE_ORIGIN " + Twine(R.OriginId));
  FileId CallFile = 0;
  if (R.CallFileId >= 0) {
    CallFile = lookupFile(R.CallFileId);
    if (CallFile == UndefinedFile)
      return Fail("breakpad-unknown-file",
                  "INLINE names undefined FILE " + Twine(R.CallFileId));
  }
  // Adjacent ranges stay apart: a frame starts where its range starts, as
  // in Breakpad. A child range must then lie inside one of them.
  llvm::sort(R.Ranges);
  for (size_t I = 1; I < R.Ranges.size(); ++I)
    if (R.Ranges[I].Start < R.Ranges[I - 1].End)
      return Fail("breakpad-inline-overlap", "INLINE ranges overlap");

  const uint32_t Parent = Depth == 0 ? RootParent : DepthStack[Depth - 1];
  if (R.Ranges.empty()) {
    // Only empty ranges (dump_syms writes such records, nested ones too):
    // nothing to look up, but it stays the parent of deeper records.
    PendingInline P;
    P.Parent = Parent;
    P.Hollow = true;
    pushInline(Depth, std::move(P));
    ++Out.Stats.EmptyInlines;
    return;
  }
  if (!insideParent(Depth, Parent, R.Ranges))
    return Fail("breakpad-inline-outside",
                Depth == 0 ? Twine("INLINE range outside its FUNC")
                           : Twine("INLINE range outside its parent INLINE"));
  SmallVector<AddressRange, 4> &Siblings =
      Depth == 0 ? RootChildRanges : Inlines[Parent].ChildRanges;
  if (overlapsSibling(Siblings, R.Ranges))
    return Fail("breakpad-inline-overlap",
                "INLINE range overlaps a sibling INLINE");
  for (const AddressRange &Range : R.Ranges)
    Siblings.insert(llvm::lower_bound(Siblings, Range), Range);

  const Origin &O = Origins[R.OriginId];
  PendingInline P;
  P.Ranges = R.Ranges;
  P.Name = O.Name;
  P.CallLine = uint32_t(R.CallLine);
  P.Parent = Parent;
  if (!R.HasCallFile && Depth == 0)
    P.CallFileFromFunction = true;
  else
    P.CallFile = inlineCallFile(R, CallFile, Parent);
  P.OriginDeclFile = O.File;
  pushInline(Depth, std::move(P));
  ++Out.Stats.Inlines;
}

void Parser::closeFunction() {
  if (!InFunc)
    return;
  InFunc = false;
  if (FuncRejected)
    return;
  if (!Cur.Lines.empty() && LastLineEnd < Cur.Range.End)
    Cur.Lines.push_back({LastLineEnd, 0, 0});
  if (!Inlines.empty()) {
    FileId FuncFile = 0;
    for (const LineEntry &L : Cur.Lines)
      if (L.File) {
        FuncFile = L.File;
        break;
      }
    std::vector<InlineNode> Nodes(Inlines.size());
    for (size_t I = 0; I < Inlines.size(); ++I) {
      PendingInline &P = Inlines[I];
      InlineNode &N = Nodes[I];
      N.Ranges.assign(P.Ranges.begin(), P.Ranges.end());
      N.Name = P.Name;
      N.CallFile = P.CallFileFromFunction
                       ? (FuncFile ? FuncFile : unknownCallFile())
                       : P.CallFile;
      N.CallLine = P.CallLine;
    }
    InlineNode Root;
    Root.Ranges.push_back(Cur.Range);
    Root.Name = Cur.Name;
    auto ByStart = [](const InlineNode &A, const InlineNode &B) {
      return A.Ranges.front().Start < B.Ranges.front().Start;
    };
    // Records come parent first, so walking backwards moves every node only
    // after all of its children have been moved into it.
    for (size_t I = Inlines.size(); I-- > 0;) {
      if (Inlines[I].Hollow)
        continue; // its children are hollow too: nothing fits inside
      llvm::sort(Nodes[I].Children, ByStart);
      uint32_t P = Inlines[I].Parent;
      (P == RootParent ? Root : Nodes[P])
          .Children.push_back(std::move(Nodes[I]));
    }
    llvm::sort(Root.Children, ByStart);
    Cur.Inline = std::move(Root);
  }
  Funcs.push_back({std::move(Cur), CurLineNo});
  Cur = FunctionEntry();
}

/// Code of a FUNC that no line record covers has no file or line in
/// Breakpad. GSYM readers (LLVM's and ours) refuse a row without a file, so
/// such stretches become entries of their own with the function's name and
/// no line table, and the covered stretches keep their rows and inlines.
static void splitAtGaps(FunctionEntry &F, std::vector<FunctionEntry> &Out) {
  if (llvm::none_of(F.Lines, [](const LineEntry &L) { return L.File == 0; })) {
    Out.push_back(std::move(F));
    return;
  }
  const std::vector<LineEntry> &Rows = F.Lines;
  for (size_t I = 0; I < Rows.size();) {
    bool Gap = Rows[I].File == 0;
    size_t J = I + 1;
    while (J < Rows.size() && (Rows[J].File == 0) == Gap)
      ++J;
    AddressRange R{Rows[I].Address,
                   J < Rows.size() ? Rows[J].Address : F.Range.End};
    if (Gap) {
      FunctionEntry E;
      E.Range = R;
      E.Name = F.Name;
      Out.push_back(std::move(E));
    } else {
      Out.push_back(sliceFunction(F, R));
    }
    I = J;
  }
}

void Parser::finish() {
  closeFunction();
  // Overlapping FUNCs: in address order (file order for equal starts) the
  // later one goes.
  llvm::sort(Funcs, [](const FuncRecord &A, const FuncRecord &B) {
    return A.F.Range.Start != B.F.Range.Start
               ? A.F.Range.Start < B.F.Range.Start
               : A.LineNo < B.LineNo;
  });
  std::vector<FunctionEntry> Kept;
  Kept.reserve(Funcs.size() + Publics.size());
  uint64_t KeptEnd = 0, KeptLine = 0;
  for (FuncRecord &R : Funcs) {
    if (!Kept.empty() && R.F.Range.Start < KeptEnd) {
      LineNo = R.LineNo;
      reject("breakpad-overlapping-func", "FUNC " + R.F.Name +
                                              " overlaps the FUNC at line " +
                                              Twine(KeptLine));
      continue;
    }
    KeptEnd = R.F.Range.End;
    KeptLine = R.LineNo;
    Kept.push_back(std::move(R.F));
  }
  Funcs.clear();
  size_t NumFuncs = Kept.size();
  Out.Stats.Functions = NumFuncs;

  // PUBLIC: Breakpad lets one cover the code up to the next address any
  // FUNC or PUBLIC mentions; a FUNC covering the same address wins.
  llvm::stable_sort(Publics, [](const PublicRecord &A, const PublicRecord &B) {
    return A.Address < B.Address;
  });
  std::vector<PublicRecord> Unique;
  for (const PublicRecord &P : Publics) {
    if (!Unique.empty() && Unique.back().Address == P.Address) {
      LineNo = P.LineNo;
      reject("breakpad-duplicate-public",
             "second PUBLIC at the address of the PUBLIC at line " +
                 Twine(Unique.back().LineNo));
      continue;
    }
    Unique.push_back(P);
  }
  ArrayRef<FunctionEntry> FuncView(Kept.data(), NumFuncs);
  std::vector<uint64_t> FuncStarts;
  FuncStarts.reserve(NumFuncs);
  for (const FunctionEntry &F : FuncView)
    FuncStarts.push_back(F.Range.Start);
  for (size_t I = 0; I < Unique.size(); ++I) {
    uint64_t A = Unique[I].Address;
    size_t After = llvm::upper_bound(FuncStarts, A) - FuncStarts.begin();
    if (After > 0 && FuncView[After - 1].Range.contains(A)) {
      ++Out.Stats.PublicsInFunctions;
      continue;
    }
    uint64_t End = std::numeric_limits<uint64_t>::max();
    if (After < FuncStarts.size())
      End = FuncStarts[After];
    if (I + 1 < Unique.size())
      End = std::min(End, Unique[I + 1].Address);
    FunctionEntry E;
    // The last one: Breakpad lets it run to the end of the module, whose
    // size the .sym does not give; it covers its own address.
    E.Range = {A, End == std::numeric_limits<uint64_t>::max() ? A + 1 : End};
    E.Name = Sink.saveString(Unique[I].Name);
    Kept.push_back(std::move(E));
    ++Out.Stats.Publics;
  }
  std::vector<FunctionEntry> All;
  All.reserve(Kept.size());
  for (size_t I = 0; I < NumFuncs; ++I)
    splitAtGaps(Kept[I], All);
  for (size_t I = NumFuncs; I < Kept.size(); ++I)
    All.push_back(std::move(Kept[I]));
  llvm::sort(All, [](const FunctionEntry &A, const FunctionEntry &B) {
    return A.Range.Start < B.Range.Start;
  });
  Out.Functions = std::move(All);
}

Expected<bool> Parser::parseKeywordRecord(StringRef Line) {
  switch (Line[0]) {
  case 'F':
    if (Line.starts_with("FUNC ")) {
      parseFunc(Line);
      return true;
    }
    if (Line.starts_with("FILE ")) {
      parseFile(Line);
      return true;
    }
    return false;
  case 'I':
    if (Line.starts_with("INLINE ")) {
      parseInline(Line);
      return true;
    }
    if (Line.starts_with("INLINE_ORIGIN ")) {
      parseInlineOrigin(Line);
      return true;
    }
    if (Line.starts_with("INFO ")) {
      parseInfo(Line);
      return true;
    }
    return false;
  case 'P':
    if (Line.starts_with("PUBLIC ")) {
      parsePublic(Line);
      return true;
    }
    return false;
  case 'S':
    if (Line.starts_with("STACK CFI ") || Line.starts_with("STACK WIN ")) {
      ++Out.Stats.StackRecords;
      return true;
    }
    return false;
  case 'M':
    if (!Line.starts_with("MODULE "))
      return false;
    if (LineNo != 1)
      reject("breakpad-bad-record", "second MODULE record");
    else if (Error Err = parseModule(Line))
      return std::move(Err);
    return true;
  default:
    return false;
  }
}

void Parser::setUUID() {
  std::string CodeId = Out.Module.CodeId;
  if (!CodeId.empty() && CodeId.size() <= 40) {
    for (size_t I = 0; I < CodeId.size(); I += 2)
      Out.Module.UUID.push_back(uint8_t(Hex.V[(unsigned char)CodeId[I]] << 4 |
                                        Hex.V[(unsigned char)CodeId[I + 1]]));
  } else {
    Out.Module.UUID = uuidFromBreakpadModuleId(Out.Module.OS, Out.Module.Id);
  }
}

Expected<BreakpadSymbols> Parser::run() {
  if (!looksLikeBreakpad(Text))
    return createStringError(inconvertibleErrorCode(),
                             "%s: not a Breakpad symbol file (no MODULE "
                             "record on the first line)",
                             FileName.str().c_str());
  const char *P = Text.begin(), *E = Text.end();
  while (P != E) {
    const char *NL = static_cast<const char *>(std::memchr(P, '\n', E - P));
    const char *LineEnd = NL ? NL : E;
    StringRef Line(P, LineEnd - P);
    P = NL ? NL + 1 : E;
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line = Line.drop_back();
    if (Line.empty())
      continue;
    // Keywords are upper case; a line record starts with a lower-case hex
    // digit (Breakpad writes hex in lower case).
    Expected<bool> Keyword = parseKeywordRecord(Line);
    if (!Keyword)
      return Keyword.takeError();
    if (*Keyword)
      continue;
    char C = Line[0];
    if ((C >= '0' && C <= '9') || (C >= 'a' && C <= 'f')) {
      parseLineRecord(Line);
      continue;
    }
    reject("breakpad-unknown-record",
           "unknown record '" +
               Line.take_until([](char C) { return C == ' '; }).take_front(32) +
               "'");
  }
  Out.Stats.TextLines = LineNo;
  finish();
  if (Out.Functions.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: no usable FUNC or PUBLIC record",
                             FileName.str().c_str());
  setUUID();
  return std::move(Out);
}

} // namespace

SmallVector<uint8_t, 20> uuidFromBreakpadModuleId(StringRef OS, StringRef Id) {
  SmallVector<uint8_t, 20> Bytes;
  StringRef Digits = Id.take_front(32);
  if (Digits.size() < 2 ||
      !all_of(Digits, [](char C) { return Hex.V[(unsigned char)C] >= 0; }))
    return Bytes;
  for (size_t I = 0; I + 1 < Digits.size(); I += 2)
    Bytes.push_back(uint8_t(Hex.V[(unsigned char)Digits[I]] << 4 |
                            Hex.V[(unsigned char)Digits[I + 1]]));
  if (OS == "Linux" && Bytes.size() == 16) {
    std::reverse(Bytes.begin(), Bytes.begin() + 4);
    std::reverse(Bytes.begin() + 4, Bytes.begin() + 6);
    std::reverse(Bytes.begin() + 6, Bytes.begin() + 8);
  }
  return Bytes;
}

Expected<BreakpadSymbols> parseBreakpad(StringRef Contents, StringRef FileName,
                                        BreakpadSink &Sink, WarningLog &Log) {
  return Parser(Contents, FileName, Sink, Log).run();
}

} // namespace dwarfpack
