//===- QuerySession.cpp - Answering llvm-symbolizer's queries -------------===//

#include "dwarfpack/Symbolize/QuerySession.h"
#include "dwarfpack/Symbolize/ObjectData.h"

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {

void SessionTables::setFixed(const AddressSymbolizer &Table, std::string Name,
                             std::shared_ptr<ObjectDataSource> Data) {
  Fixed.emplace();
  Fixed->Table = &Table;
  Fixed->Name = std::move(Name);
  Fixed->Data = std::move(Data);
}

void SessionTables::setStore(TableStore &S,
                             std::optional<SmallVector<uint8_t, 20>> BuildId) {
  Store = &S;
  StoreBuildId = std::move(BuildId);
}

LineModules SessionTables::lineModules() const {
  if (Fixed || StoreBuildId)
    return LineModules::None;
  // A store answers build-ids only, as a server of profiles asks.
  return Store ? LineModules::BuildIdOnly : LineModules::FileOrBuildId;
}

std::string SessionTables::moduleName(const InputLine &Q) const {
  if (Fixed)
    return Fixed->Name;
  if (StoreBuildId)
    return toHex(*StoreBuildId);
  if (Q.BuildId)
    return toHex(*Q.BuildId);
  return Q.File;
}

Expected<QueryModule &> SessionTables::find(const InputLine &Q) {
  if (Fixed)
    return *Fixed;
  if (StoreBuildId || Q.BuildId)
    return findBuildId(StoreBuildId ? *StoreBuildId : *Q.BuildId);
  auto It = ByPath.find(Q.File);
  if (It != ByPath.end())
    return It->second;
  Expected<OpenedTable> T = openTableFile(Q.File, Opts);
  if (!T)
    return T.takeError();
  QueryModule &M = ByPath[Q.File];
  adopt(M, *T, Q.File, Owned);
  return M;
}

Expected<QueryModule &> SessionTables::findBuildId(ArrayRef<uint8_t> Id) {
  std::string Key = toHex(Id, /*LowerCase=*/true);
  auto It = ByBuildId.find(Key);
  if (It != ByBuildId.end())
    return It->second;
  if (Store) {
    Expected<const AddressSymbolizer &> T = Store->open(Id);
    if (!T)
      return T.takeError();
    QueryModule &M = ByBuildId[Key];
    M.Table = &*T;
    M.Name = toHex(Id);
    return M;
  }
  Expected<std::string> Path = debugFileOf(Id);
  if (!Path)
    return Path.takeError();
  Expected<OpenedTable> T = openTableFile(*Path, Opts);
  if (!T)
    return T.takeError();
  // A file filed under another build-id's name answers for another build.
  ArrayRef<uint8_t> Recorded = T->Table->uuid();
  if (!Recorded.empty() && Recorded != Id)
    return createStringError(inconvertibleErrorCode(),
                             "'" + *Path + "' is of build-id " +
                                 toHex(Recorded, true) + ", not " + Key);
  QueryModule &M = ByBuildId[Key];
  adopt(M, *T, toHex(Id), Owned);
  return M;
}

Expected<std::string> SessionTables::debugFileOf(ArrayRef<uint8_t> Id) const {
  std::vector<std::string> Dirs = Opts.Objects.DebugFileDirectories;
  if (!is_contained(Dirs, input::SystemDebugDirectory))
    Dirs.push_back(input::SystemDebugDirectory);
  std::vector<std::string> Looked;
  if (std::optional<std::string> P = input::findBuildIdFile(Dirs, Id, Looked))
    return std::move(*P);
  std::string Where = "no debug file of build-id " + toHex(Id, true) +
                      " (looked for " + join(Looked, ", ") + ")";
  if (!Opts.Objects.FetchDebugFile)
    return createStringError(inconvertibleErrorCode(),
                             Where + "; give --debug-file-directory, a "
                                     "debuginfod server or --store");
  Expected<std::string> Fetched = Opts.Objects.FetchDebugFile(Id);
  if (!Fetched)
    return createStringError(inconvertibleErrorCode(),
                             Where + "; " + toString(Fetched.takeError()));
  return Fetched;
}

void SessionTables::adopt(
    QueryModule &M, OpenedTable &T, std::string Name,
    std::vector<std::unique_ptr<AddressSymbolizer>> &Owned) {
  Owned.push_back(std::move(T.Table));
  M.Table = Owned.back().get();
  M.Name = std::move(Name);
  if (T.Converted) {
    M.Missing = T.Converted->missing();
    M.ConversionWarnings = T.Converted->Log.summaryLines();
  }
  M.Data = std::move(T.Data);
}

void QuerySession::warn(const Twine &Message, StringRef Once,
                        StringRef Repeats) {
  if (Warn)
    Warn({Message.str(), Once.str(), Repeats.str()});
}

void QuerySession::warnUnanswered(const QueryModule &M, uint64_t Value,
                                  const char *What) {
  StringRef Kind = Opts.FileOffsets ? "file offsets" : "addresses";
  warnUnanswered(
      M,
      [&] {
        return Opts.FileOffsets ? "file offset " + hexString(Value)
                                : hexString(Value);
      },
      What, (Kind + " " + What).str());
}

void QuerySession::warnUnanswered(const QueryModule &M,
                                  function_ref<std::string()> Queried,
                                  const char *What, StringRef Total) {
  // The first of a module's is named, the others counted: a profile may
  // hold many addresses of code the table does not describe (JIT code,
  // another module's).
  auto [It, New] = Repeats.try_emplace({&M, What});
  Unanswered &U = It->second;
  // A query before the one warned of (a batch answers out of line order)
  // is warned of too: the batch puts warnings in line order, and the
  // printer shows the first.
  if (!New && QueryIndex >= U.FirstIndex) {
    ++U.More;
    if (!U.InOrder) {
      U.InOrder = true;
      RepeatOrder.push_back(size_t(It - Repeats.begin()));
    }
    return;
  }
  U.FirstIndex = QueryIndex;
  if (New) {
    U.Once = M.Name + "\n" + What;
    U.Total = ("'" + M.Name + "': " + Total).str();
  }
  warn("'" + M.Name + "': " + Queried() + ": " + What, U.Once, U.Total);
}

void QuerySession::flushCounts() {
  for (size_t I : RepeatOrder) {
    Unanswered &U = (Repeats.begin() + I)->second;
    if (U.More && Warn)
      Warn({"", U.Once, U.Total, U.More});
    U.More = 0;
  }
}

void QuerySession::answerLine(StringRef Line) {
  Same = SameAnswers();
  if (Line.empty()) {
    P.printInvalidInput(/*WithModule=*/false);
    return;
  }
  Expected<InputLine> Q = parseInputLine(Line, Modules.lineModules());
  if (!Q) {
    warn("'" + Line + "': " + toString(Q.takeError()));
    P.printInvalidInput();
    return;
  }
  std::string Name = Modules.moduleName(*Q);
  P.setModuleName(Name);
  Expected<QueryModule &> M = Modules.find(*Q);
  if (!M) {
    std::string Msg = toString(M.takeError());
    warn(Msg, Name);
    // The error is reported with the first query; later ones get no answer.
    bool First = Failed.insert(Name).second;
    if (Q->Target.Address && First)
      P.printError(*Q->Target.Address, Msg);
    else if (Q->Target.Address)
      P.printNoAnswer(*Q->Target.Address);
    else if (Q->Command == QueryCommand::Data)
      P.printData(std::nullopt, std::nullopt, Q->Target.Symbol->Name);
    else
      P.printSymbol(Q->Target.Symbol->Name, {});
    return;
  }
  for (const std::string &W : M->ConversionWarnings)
    warn("'" + Name + "': " + W, Name + "\n" + W);
  if (!M->Missing.empty())
    warn("'" + Name + "': " + M->Missing, Name);
  if (Q->Target.Address)
    return answerAddress(*M, *Q->Target.Address, Q->Command);
  answerSymbol(*M, std::move(*Q->Target.Symbol), Q->Rest, Q->Command);
}

void QuerySession::answerNothing(const QueryModule &M, uint64_t Value,
                                 const char *What) {
  warnUnanswered(M, Value, What);
  LookupResult None;
  None.Address = Value;
  P.print(None);
}

std::optional<uint64_t> QuerySession::toAddress(QueryModule &M,
                                                uint64_t Value) {
  if (Opts.Section) {
    if (Value < Opts.Section->size())
      return Opts.Section->Start + Value;
    answerNothing(M, Value, "past the end of the section");
    return std::nullopt;
  }
  if (!Opts.FileOffsets)
    return Value - Opts.AddressOffset; // one that wraps is not found
  Expected<std::optional<uint64_t>> A = M.Table->fileOffsetToAddress(Value);
  if (!A) {
    std::string Msg = toString(A.takeError());
    warn("'" + M.Name + "': " + Msg, M.Name);
    P.printError(Value, Msg);
    return std::nullopt;
  }
  if (!*A) { // in no loaded segment: not found
    answerNothing(M, Value, "in no loaded segment of the table");
  }
  return *A;
}

void QuerySession::answerAddress(QueryModule &M, uint64_t Value,
                                 QueryCommand Command, bool WarnUnanswered) {
  Same = SameAnswers();
  if (Command == QueryCommand::Frame)
    return answerFrame(M, Value);
  std::optional<uint64_t> Addr = toAddress(M, Value);
  if (!Addr)
    return;
  if (Command == QueryCommand::Data)
    return answerData(M, Value, *Addr);
  if (Error E = M.Table->lookupViews(*Addr, Answer)) {
    std::string Msg = toString(std::move(E));
    warn("'" + M.Name + "': " + Msg);
    P.printError(Value, Msg);
    return;
  }
  if (Answer.Frames.empty() && WarnUnanswered)
    warnUnanswered(M, Value, "in no function of the table");
  // Printed as queried, as llvm-symbolizer does.
  P.print(Value, Answer.Frames, Answer.HasDetails);
  noteSameAnswers(M, Value, *Addr);
}

void QuerySession::noteSameAnswers(const QueryModule &M, uint64_t Value,
                                   uint64_t Address) {
  // Offsets in a file or section map to addresses piecewise: only the
  // address of a plain query (less AddressOffset) is kept.
  if (Answer.Frames.empty() || Opts.FileOffsets || Opts.Section ||
      !Answer.answersSame(Address))
    return;
  const uint64_t Before = Address - Answer.SameFrom;
  const uint64_t After = Answer.SameTo - Address; // at least 1
  if (Before > Value || After > UINT64_MAX - Value)
    return; // the values would wrap
  Same = {&M, Value - Before, Value + After};
}

void QuerySession::warnObject(const QueryModule &M, StringRef Command,
                              ArrayRef<std::string> Problems) {
  for (const std::string &W : Problems)
    warn("'" + M.Name + "': " + Command + ": " + W,
         (M.Name + "\n" + Command + "\n" + W).str());
}

void QuerySession::answerFrame(QueryModule &M, uint64_t Value) {
  if (M.Data) {
    std::optional<uint64_t> Addr = toAddress(M, Value);
    if (!Addr)
      return;
    std::vector<std::string> Problems;
    Expected<const ObjectFrames &> F = M.Data->frames(&Problems);
    warnObject(M, "FRAME", Problems);
    if (F) {
      Problems.clear();
      std::optional<std::vector<FrameLocal>> Locals = F->find(*Addr, &Problems);
      warnObject(M, "FRAME", Problems);
      if (!Locals)
        warnUnanswered(M, Value, "in no function of the object's DWARF");
      P.printLocals(Value, Locals ? *Locals : std::vector<FrameLocal>());
      return;
    }
    warn("'" + M.Name + "': FRAME: " + toString(F.takeError()),
         M.Name + "\nFRAME");
  }
  if (!WarnedFrame)
    warn("FRAME: tables record no local variables; every FRAME query "
         "answers the unknown answer",
         "FRAME"); // once for every thread's session too
  WarnedFrame = true;
  P.printNoLocals(Value);
}

Expected<std::optional<DataSymbol>>
QueryModule::dataAt(uint64_t Address, std::vector<std::string> &Problems,
                    bool &FromObject) const {
  FromObject = false;
  if (Data) {
    Expected<const ObjectData &> D = Data->get(&Problems);
    if (D) {
      FromObject = true;
      return D->find(Address);
    }
    // The table still names the functions.
    Problems.push_back(toString(D.takeError()));
  }
  return symbolAt(*Table, Address);
}

void QuerySession::answerData(QueryModule &M, uint64_t Value,
                              uint64_t Address) {
  std::vector<std::string> Problems;
  bool FromObject;
  Expected<std::optional<DataSymbol>> S =
      M.dataAt(Address, Problems, FromObject);
  warnObject(M, "DATA", Problems);
  if (!S) {
    std::string Msg = toString(S.takeError());
    warn("'" + M.Name + "': " + Msg);
    P.printError(Value, Msg);
    return;
  }
  if (!*S)
    warnUnanswered(M, Value,
                   FromObject ? "in no symbol or variable of the object"
                              : "in no function of the table (tables record no "
                                "variables)");
  P.printData(Value, *S);
}

void QuerySession::answerSymbol(QueryModule &M, SymbolQuery Q, StringRef Rest,
                                QueryCommand Command) {
  Same = SameAnswers();
  // llvm-symbolizer answers DATA and FRAME by address only.
  if (Command == QueryCommand::Data)
    return P.printData(std::nullopt, std::nullopt, Q.Name);
  if (Command == QueryCommand::Frame)
    return P.printNoLocals(std::nullopt, Q.Name);
  parseModuleWord(Rest, Q);
  if (!M.Names)
    M.Names = std::make_unique<SymbolResolver>(*M.Table);
  std::vector<uint64_t> Named;
  Expected<std::vector<LookupResult>> R = M.Names->resolve(Q, &Named);
  if (!R) {
    warn("'" + M.Name + "': " + toString(R.takeError()));
    P.printSymbol(Q.Name, {});
    return;
  }
  if (R->empty())
    warnUnanswered(
        M, [&] { return "'" + Q.Name + "'"; },
        "no function of the table has this name",
        "names that no function of the table has");
  // A trace's symbol size that the table contradicts: another build.
  if (Q.Size)
    for (size_t I = 0; I < R->size(); ++I) {
      const LookupResult &Match = (*R)[I];
      if (Match.Frames.empty() || !Match.Frames.back().Size)
        continue;
      const SourceFrame &Fn = Match.Frames.back();
      if (Fn.StartAddress + Match.StartSlide != Named[I])
        // The trace's size covers the offset; the table's next function
        // answered.
        warn("'" + M.Name + "': '" + Q.Name + "' ends before offset " +
             hexString(Q.Offset) + " in the table, is " + hexString(*Q.Size) +
             " bytes long in the query (is the table of another build?)");
      else if (*Fn.Size != *Q.Size)
        warn("'" + M.Name + "': '" + Q.Name + "' is " + hexString(*Fn.Size) +
             " bytes long in the table, " + hexString(*Q.Size) +
             " in the query (is the table of another build?)");
    }
  P.printSymbol(Q.Name, *R);
}

} // namespace dwarfpack
