//===- FunctionModel.cpp - In-memory model of an address table ------------===//

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Support/DenseKeys.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

FunctionModel::FunctionModel() {
  // File 0 is "no file" in every format we write.
  Files.push_back(FileEntry());
  FileIds[{StringRef(), StringRef()}] = 0;
}

StringRef FunctionModel::saveString(StringRef S) {
  if (S.empty())
    return StringRef();
  std::lock_guard<std::mutex> Lock(StringMutex);
  return Strings.save(S);
}

FileId FunctionModel::addFile(StringRef Dir, StringRef Base) {
  if (Dir.empty() && Base.empty())
    return 0;
  std::lock_guard<std::mutex> Lock(FileMutex);
  auto It = FileIds.find({Dir, Base});
  if (It != FileIds.end())
    return It->second;
  StringRef D, B;
  {
    std::lock_guard<std::mutex> SLock(StringMutex);
    D = Dir.empty() ? StringRef() : Strings.save(Dir);
    B = Base.empty() ? StringRef() : Strings.save(Base);
  }
  FileId Id = Files.size();
  Files.push_back({D, B});
  FileIds[{D, B}] = Id;
  return Id;
}

std::pair<StringRef, StringRef> splitPath(StringRef Path) {
  size_t Slash = Path.rfind('/');
  if (Slash == StringRef::npos)
    return {StringRef(), Path};
  StringRef Dir = Slash == 0 ? Path.take_front(1) : Path.take_front(Slash);
  return {Dir, Path.drop_front(Slash + 1)};
}

FileId FunctionModel::addFilePath(StringRef Path) {
  auto [Dir, Base] = splitPath(Path);
  return addFile(Dir, Base);
}

void FunctionModel::appendFunctions(std::vector<FunctionEntry> &&Fs) {
  if (Functions.empty()) {
    Functions = std::move(Fs);
    return;
  }
  // Grow geometrically: appending unit after unit must stay linear.
  size_t Need = Functions.size() + Fs.size();
  if (Need > Functions.capacity())
    Functions.reserve(std::max(Need, 2 * Functions.capacity()));
  for (FunctionEntry &F : Fs)
    Functions.push_back(std::move(F));
  Fs.clear();
}

//===----------------------------------------------------------------------===//
// Content order
//===----------------------------------------------------------------------===//

template <typename T> static int cmp3(const T &A, const T &B) {
  return A < B ? -1 : (B < A ? 1 : 0);
}

static int compareFiles(FileId A, FileId B, const FunctionModel &M) {
  if (A == B)
    return 0;
  const FileEntry &X = M.file(A), &Y = M.file(B);
  if (int C = X.Dir.compare(Y.Dir))
    return C;
  return X.Base.compare(Y.Base);
}

static int compareDecls(const Declaration &A, const Declaration &B,
                        const FunctionModel &M) {
  if (int C = compareFiles(A.File, B.File, M))
    return C;
  return cmp3(A.Line, B.Line);
}

static int compareNodes(const InlineNode &A, const InlineNode &B,
                        const FunctionModel &M) {
  if (int C = cmp3(A.Ranges.size(), B.Ranges.size()))
    return C;
  for (size_t I = 0; I < A.Ranges.size(); ++I)
    if (int C = cmp3(A.Ranges[I], B.Ranges[I]))
      return C;
  if (int C = A.Name.compare(B.Name))
    return C;
  if (int C = A.ShortName.compare(B.ShortName))
    return C;
  if (int C = compareFiles(A.CallFile, B.CallFile, M))
    return C;
  if (int C = cmp3(A.CallLine, B.CallLine))
    return C;
  if (int C = cmp3(A.CallColumn, B.CallColumn))
    return C;
  if (int C = cmp3(A.CallDiscriminator, B.CallDiscriminator))
    return C;
  if (int C = compareDecls(A.Decl, B.Decl, M))
    return C;
  if (int C = cmp3(A.LowPC, B.LowPC))
    return C;
  if (int C = cmp3(A.Children.size(), B.Children.size()))
    return C;
  for (size_t I = 0; I < A.Children.size(); ++I)
    if (int C = compareNodes(A.Children[I], B.Children[I], M))
      return C;
  return 0;
}

/// Sorts Fs by the key KeyOf gives each entry (a pair, compared as pairs
/// are), ties by TieLess, moving each entry about once. The keys are
/// compared in an array of their own, and the entries (272 bytes, that a
/// sort would move about log2(n) times each) are reached only to break
/// ties. The order is the one sorting the entries by the same comparison
/// gives.
///
/// The entries are put in order where they are, one cycle of the
/// permutation at a time, not moved into a new vector: a kernel has 90,000
/// entries before finalize() drops duplicates, 25 MB of fresh memory for
/// each sort, and in a profile of gsym on vmlinux on a VM most of
/// finalize()'s time went to the kernel clearing fresh pages.
template <typename KeyFn, typename TieFn>
static void sortEntries(std::vector<FunctionEntry> &Fs, KeyFn KeyOf,
                        TieFn TieLess, bool Stable = false) {
  struct Keyed {
    std::pair<uint64_t, uint64_t> Key;
    uint32_t Index;
  };
  std::vector<Keyed> Order(Fs.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = {KeyOf(Fs[I]), I};
  auto Less = [&](const Keyed &A, const Keyed &B) {
    if (A.Key != B.Key)
      return A.Key < B.Key;
    return TieLess(Fs[A.Index], Fs[B.Index]);
  };
  if (Stable)
    std::stable_sort(Order.begin(), Order.end(), Less);
  else
    llvm::sort(Order, Less);
  // Order[I].Index is the entry that belongs at I; an entry put in place
  // marks its slot with its own index.
  for (uint32_t I = 0; I < Order.size(); ++I) {
    if (Order[I].Index == I)
      continue;
    FunctionEntry Held = std::move(Fs[I]);
    uint32_t To = I;
    for (uint32_t From = Order[To].Index; From != I; From = Order[To].Index) {
      Fs[To] = std::move(Fs[From]);
      Order[To].Index = To;
      To = From;
    }
    Fs[To] = std::move(Held);
    Order[To].Index = To;
  }
}

static std::pair<uint64_t, uint64_t> rangeKey(const FunctionEntry &F) {
  return {F.Range.Start, F.Range.End};
}
static bool noTie(const FunctionEntry &, const FunctionEntry &) {
  return false;
}

int compareFunctions(const FunctionEntry &A, const FunctionEntry &B,
                     const FunctionModel &M) {
  if (int C = cmp3(A.Range, B.Range))
    return C;
  // Debug info first: it wins among equal ranges.
  if (int C = cmp3(!A.hasDebugInfo(), !B.hasDebugInfo()))
    return C;
  // The kept copy of COMDAT code is described first (FunctionEntry).
  if (A.hasDebugInfo()) {
    if (int C = cmp3(A.InputOrder, B.InputOrder))
      return C;
    // In one unit, the last subprogram of a range describes it.
    if (int C = cmp3(B.UnitOrder, A.UnitOrder))
      return C;
  }
  // Named entries first, then by name.
  if (int C = cmp3(A.Name.empty(), B.Name.empty()))
    return C;
  if (int C = A.Name.compare(B.Name))
    return C;
  if (int C = cmp3(A.Lines.size(), B.Lines.size()))
    return C;
  for (size_t I = 0; I < A.Lines.size(); ++I) {
    const LineEntry &X = A.Lines[I], &Y = B.Lines[I];
    if (int C = cmp3(X.Address, Y.Address))
      return C;
    if (int C = compareFiles(X.File, Y.File, M))
      return C;
    if (int C = cmp3(X.Line, Y.Line))
      return C;
    if (int C = cmp3(X.Column, Y.Column))
      return C;
    if (int C = cmp3(X.Discriminator, Y.Discriminator))
      return C;
  }
  if (int C = compareDecls(A.Decl, B.Decl, M))
    return C;
  if (int C = cmp3(A.linesStart(), B.linesStart()))
    return C;
  if (int C = cmp3(A.FromDwarf, B.FromDwarf))
    return C;
  if (int C = A.DwarfName.compare(B.DwarfName))
    return C;
  if (int C = A.ShortName.compare(B.ShortName))
    return C;
  if (int C = cmp3(A.LowPC, B.LowPC))
    return C;
  if (int C = cmp3(A.SymbolFile.has_value(), B.SymbolFile.has_value()))
    return C;
  if (int C =
          compareFiles(A.SymbolFile.value_or(0), B.SymbolFile.value_or(0), M))
    return C;
  if (int C = cmp3(A.Inline.has_value(), B.Inline.has_value()))
    return C;
  if (A.Inline)
    return compareNodes(*A.Inline, *B.Inline, M);
  return 0;
}

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

/// Clips N's ranges to R and drops children left without ranges. Returns
/// false when N itself has nothing left.
static bool clipNode(InlineNode &N, AddressRange R) {
  std::vector<AddressRange> Kept;
  for (AddressRange X : N.Ranges) {
    AddressRange Y{std::max(X.Start, R.Start), std::min(X.End, R.End)};
    if (Y.Start < Y.End)
      Kept.push_back(Y);
  }
  N.Ranges = std::move(Kept);
  if (N.Ranges.empty())
    return false;
  llvm::erase_if(N.Children, [&](InlineNode &C) { return !clipNode(C, R); });
  return true;
}

void copyDescription(const FunctionEntry &From, FunctionEntry &To) {
  To.FromDwarf = From.FromDwarf;
  To.DwarfName = From.DwarfName;
  To.ShortName = From.ShortName;
  To.LowPC = From.LowPC;
  To.SymbolFile = From.SymbolFile;
}

FunctionEntry sliceFunction(const FunctionEntry &F, AddressRange R) {
  FunctionEntry S;
  S.Range = {std::max(F.Range.Start, R.Start), std::min(F.Range.End, R.End)};
  S.Name = F.Name;
  S.Decl = F.Decl;
  S.InputOrder = F.InputOrder;
  S.UnitOrder = F.UnitOrder;
  copyDescription(F, S);
  S.LinesFrom = std::min(std::max(F.LinesFrom, S.Range.Start), S.Range.End);
  if (!F.Lines.empty()) {
    // The row in effect at S.Range.Start is the last one at or before it.
    auto It = llvm::upper_bound(
        F.Lines, S.Range.Start,
        [](uint64_t A, const LineEntry &L) { return A < L.Address; });
    if (It != F.Lines.begin())
      --It;
    for (; It != F.Lines.end() && It->Address < S.Range.End; ++It) {
      LineEntry L = *It;
      L.Address = std::max(L.Address, S.Range.Start);
      if (!S.Lines.empty() && S.Lines.back().Address == L.Address)
        S.Lines.back() = L;
      else
        S.Lines.push_back(L);
    }
  }
  if (F.Inline) {
    InlineNode Root = *F.Inline;
    if (clipNode(Root, S.Range) && !Root.Children.empty())
      S.Inline = std::move(Root);
  }
  return S;
}

//===----------------------------------------------------------------------===//
// finalize
//===----------------------------------------------------------------------===//

static std::string hex(uint64_t V) { return "0x" + utohexstr(V); }

static std::string describe(const FunctionEntry &F) {
  return (F.Name + " [" + hex(F.Range.Start) + ", " + hex(F.Range.End) + ")")
      .str();
}

namespace {
/// Resolves overlaps among entries of one class (all with debug info, or all
/// without) so that every address belongs to the latest-starting entry that
/// covers it. Input sorted by compareFunctions; output sorted, disjoint.
class OverlapResolver {
public:
  OverlapResolver(std::vector<FunctionEntry> &In, WarningLog &Log,
                  StringRef Kind)
      : In(In), Log(Log), Kind(Kind) {}

  std::vector<FunctionEntry> run() {
    // Sort by start, then longer first, so an enclosing entry is open before
    // the entries it encloses. Ties keep the content order (stable).
    sortEntries(
        In,
        [](const FunctionEntry &F) {
          return std::pair<uint64_t, uint64_t>(F.Range.Start, ~F.Range.End);
        },
        noTie, /*Stable=*/true);
    Out.reserve(In.size());
    for (size_t I = 0; I < In.size(); ++I) {
      uint64_t S = In[I].Range.Start;
      advanceTo(S);
      if (!Open.empty()) {
        if (!Kind.empty())
          Log.report(Kind, describe(In[I]) + " overlaps " +
                               describe(In[Open.back()]) +
                               "; the later start wins");
        emit(Open.back(), Pos, S);
      }
      Open.push_back(I);
      Pos = S;
    }
    advanceTo(UINT64_MAX);
    return std::move(Out);
  }

private:
  void advanceTo(uint64_t X) {
    while (!Open.empty()) {
      size_t T = Open.back();
      if (In[T].Range.End <= Pos) { // entirely shadowed by later entries
        Open.pop_back();
        continue;
      }
      if (In[T].Range.End > X)
        break;
      emit(T, Pos, In[T].Range.End);
      Pos = In[T].Range.End;
      Open.pop_back();
    }
  }

  void emit(size_t Idx, uint64_t From, uint64_t To) {
    if (From >= To)
      return;
    FunctionEntry &F = In[Idx];
    if (From == F.Range.Start && To == F.Range.End)
      Out.push_back(std::move(F));
    else
      Out.push_back(sliceFunction(F, {From, To}));
  }

  std::vector<FunctionEntry> &In;
  WarningLog &Log;
  StringRef Kind;
  std::vector<FunctionEntry> Out;
  SmallVector<size_t, 8> Open;
  uint64_t Pos = 0;
};
} // namespace

/// Makes the line table of F well formed: ascending, inside the range, first
/// row at the start, one row per address (the last one, which is the one a
/// lookup returns).
static void normalizeLines(FunctionEntry &F, WarningLog &Log) {
  if (F.Lines.empty())
    return;
  if (!std::is_sorted(F.Lines.begin(), F.Lines.end(),
                      [](const LineEntry &A, const LineEntry &B) {
                        return A.Address < B.Address;
                      })) {
    Log.report("unsorted-line-rows",
               "line rows of " + describe(F) + " were not ascending");
    std::stable_sort(F.Lines.begin(), F.Lines.end(),
                     [](const LineEntry &A, const LineEntry &B) {
                       return A.Address < B.Address;
                     });
  }
  if (F.Lines.front().Address != F.Range.Start ||
      F.Lines.back().Address >= F.Range.End) {
    F = sliceFunction(F, F.Range);
    if (!F.Lines.empty())
      F.Lines.front().Address = F.Range.Start;
  }
}

static bool sameDebugInfo(const FunctionEntry &A, const FunctionEntry &B,
                          const FunctionModel &M) {
  if (A.Lines != B.Lines || A.Inline.has_value() != B.Inline.has_value() ||
      compareDecls(A.Decl, B.Decl, M) != 0)
    return false;
  return !A.Inline || compareNodes(*A.Inline, *B.Inline, M) == 0;
}

/// Rule 8: symbol entries Syms (sorted, disjoint) take the line rows of the
/// line-only code they cover, cut where those rows start and end.
static std::vector<FunctionEntry>
attachLineOnlyCode(std::vector<FunctionEntry> Syms,
                   std::vector<FunctionEntry> &Code) {
  if (Code.empty())
    return Syms;
  sortEntries(Code, rangeKey, noTie);
  std::vector<FunctionEntry> Out;
  Out.reserve(Syms.size());
  size_t C = 0;
  for (FunctionEntry &P : Syms) {
    while (C < Code.size() && Code[C].Range.End <= P.Range.Start)
      ++C;
    if (C == Code.size() || Code[C].Range.Start >= P.Range.End) {
      Out.push_back(std::move(P));
      continue;
    }
    uint64_t Pos = P.Range.Start;
    for (size_t K = C; K < Code.size() && Code[K].Range.Start < P.Range.End;
         ++K) {
      uint64_t From = std::max(Pos, Code[K].Range.Start);
      uint64_t To = std::min(P.Range.End, Code[K].Range.End);
      if (From >= To)
        continue;
      if (From > Pos) {
        FunctionEntry Plain;
        Plain.Range = {Pos, From};
        Plain.Name = P.Name;
        Plain.SymbolFile = P.SymbolFile;
        Out.push_back(std::move(Plain));
      }
      FunctionEntry Piece = sliceFunction(Code[K], {From, To});
      Piece.Name = P.Name;
      Piece.SymbolFile = P.SymbolFile;
      Out.push_back(std::move(Piece));
      Pos = To;
    }
    if (Pos < P.Range.End) {
      FunctionEntry Plain;
      Plain.Range = {Pos, P.Range.End};
      Plain.Name = P.Name;
      Plain.SymbolFile = P.SymbolFile;
      Out.push_back(std::move(Plain));
    }
  }
  return Out;
}

/// The outermost name of a debug entry is the name of the symbol that
/// starts at the same address, when there is one (the smallest name if
/// several): llvm-symbolizer does the same, and the symbol says which copy
/// of a function this is (GCC's "foo.part.0", "foo.isra.0", "foo.cold",
/// whose DWARF names the original "foo"), which alias the linker kept, and
/// gives a mangled name where GCC's DWARF has none (anonymous namespaces).
static void adoptSymbolNames(std::vector<FunctionEntry> &All) {
  DenseMap<uint64_t, const FunctionEntry *> SymbolAt;
  for (const FunctionEntry &F : All) {
    if (F.hasDebugInfo() || F.Name.empty() || !isDenseKey(F.Range.Start))
      continue;
    auto [It, Inserted] = SymbolAt.try_emplace(F.Range.Start, &F);
    if (!Inserted && F.Name < It->second->Name)
      It->second = &F;
  }
  if (SymbolAt.empty())
    return;
  for (FunctionEntry &F : All) {
    if (!F.hasDebugInfo() || !isDenseKey(F.Range.Start))
      continue;
    auto It = SymbolAt.find(F.Range.Start);
    if (It == SymbolAt.end())
      continue;
    F.SymbolFile = It->second->SymbolFile;
    if (It->second->Name == F.Name)
      continue;
    F.Name = It->second->Name;
    if (F.Inline)
      F.Inline->Name = F.Name;
  }
}

/// Rule 6: a symbol that starts inside an entry with debug info names the
/// code from its start to its end (or the entry's): assembly functions with
/// DWARF carry global labels such as entry_SYSCALL_64_after_hwframe, which
/// llvm-symbolizer and the kernel's kallsyms print for the code after them.
/// Debug and Symbols are sorted and disjoint; Starts are the start addresses
/// of the symbols (not of pieces left after an inner symbol ended).
static std::vector<FunctionEntry>
nameInnerSymbols(std::vector<FunctionEntry> Debug,
                 const std::vector<FunctionEntry> &Symbols,
                 const DenseSet<uint64_t> &Starts) {
  std::vector<FunctionEntry> Out;
  Out.reserve(Debug.size());
  size_t P = 0;
  for (FunctionEntry &D : Debug) {
    while (P < Symbols.size() && Symbols[P].Range.End <= D.Range.Start)
      ++P;
    uint64_t Pos = D.Range.Start;
    bool Cut = false;
    for (size_t K = P;
         K < Symbols.size() && Symbols[K].Range.Start < D.Range.End; ++K) {
      const FunctionEntry &S = Symbols[K];
      if (S.Range.Start <= D.Range.Start || !isDenseKey(S.Range.Start) ||
          !Starts.count(S.Range.Start) || S.Name.empty() || S.Name == D.Name)
        continue;
      if (S.Range.Start > Pos)
        Out.push_back(sliceFunction(D, {Pos, S.Range.Start}));
      Pos = std::min(S.Range.End, D.Range.End);
      FunctionEntry Named = sliceFunction(D, {S.Range.Start, Pos});
      Named.Name = S.Name;
      Named.SymbolFile = S.SymbolFile;
      if (Named.Inline)
        Named.Inline->Name = S.Name;
      Out.push_back(std::move(Named));
      Cut = true;
    }
    if (!Cut)
      Out.push_back(std::move(D));
    else if (Pos < D.Range.End)
      Out.push_back(sliceFunction(D, {Pos, D.Range.End}));
  }
  return Out;
}

/// Rule 1: gives zero-size entries the size up to the next entry's start
/// or their section's end, and drops those that get none.
static void sizeZeroSizeEntries(std::vector<FunctionEntry> &All,
                                ArrayRef<AddressRange> ExecutableRanges,
                                WarningLog &Log) {
  std::vector<uint64_t> Starts;
  Starts.reserve(All.size());
  for (const FunctionEntry &F : All)
    Starts.push_back(F.Range.Start);
  llvm::sort(Starts);
  for (FunctionEntry &F : All) {
    if (F.Range.End > F.Range.Start)
      continue;
    uint64_t Start = F.Range.Start;
    uint64_t End = 0;
    auto Next = std::upper_bound(Starts.begin(), Starts.end(), Start);
    if (Next != Starts.end())
      End = *Next;
    auto Sec = llvm::upper_bound(
        ExecutableRanges, Start,
        [](uint64_t A, const AddressRange &R) { return A < R.Start; });
    if (Sec != ExecutableRanges.begin() && std::prev(Sec)->contains(Start))
      End = End ? std::min(End, std::prev(Sec)->End) : std::prev(Sec)->End;
    F.Range.End = End > Start ? End : Start;
  }
  llvm::erase_if(All, [&](const FunctionEntry &F) {
    if (F.Range.End > F.Range.Start)
      return false;
    Log.report("zero-size-dropped",
               describe(F) + " has no size and nothing follows it");
    return true;
  });
}

/// Rule 3: one entry per identical range, the first in compareFunctions'
/// order; the survivors split into those with debug info and the rest.
static void keepOnePerRange(std::vector<FunctionEntry> &&All,
                            const FunctionModel &M, WarningLog &Log,
                            std::vector<FunctionEntry> &Debug,
                            std::vector<FunctionEntry> &Plain) {
  // compareFunctions orders by range first.
  sortEntries(All, rangeKey,
              [&M](const FunctionEntry &A, const FunctionEntry &B) {
                return compareFunctions(A, B, M) < 0;
              });
  // Sized once: grown, each would take fresh memory for every doubling.
  size_t NumDebug = 0, NumPlain = 0;
  for (size_t I = 0; I < All.size(); ++I)
    if (I == 0 || !(All[I].Range == All[I - 1].Range))
      ++(All[I].hasDebugInfo() ? NumDebug : NumPlain);
  Debug.reserve(NumDebug);
  Plain.reserve(NumPlain);
  for (size_t I = 0; I < All.size();) {
    size_t J = I + 1;
    for (; J < All.size() && All[J].Range == All[I].Range; ++J) {
      // Aliases (same code, other name) are normal, and so are copies of
      // one function (same name) that several units describe: GNU ld points
      // the DWARF of discarded COMDAT copies at the kept one, whose unit
      // comes first and wins. Different debug info under different names
      // for the same code is worth a warning.
      if (All[J].hasDebugInfo() && All[J].Name != All[I].Name &&
          !sameDebugInfo(All[I], All[J], M))
        Log.report("duplicate-range", describe(All[J]) +
                                          " has the same range as " +
                                          describe(All[I]) + "; dropped");
    }
    if (All[I].hasDebugInfo())
      Debug.push_back(std::move(All[I]));
    else
      Plain.push_back(std::move(All[I]));
    I = J;
  }
}

/// Rule 7: the pieces of the (sorted, disjoint) symbol entries that no
/// (sorted, disjoint) debug entry covers.
static std::vector<FunctionEntry>
symbolGaps(const std::vector<FunctionEntry> &Plain,
           const std::vector<FunctionEntry> &Debug) {
  std::vector<FunctionEntry> Result;
  Result.reserve(Debug.size() + Plain.size());
  size_t D = 0;
  for (const FunctionEntry &P : Plain) {
    uint64_t Pos = P.Range.Start, End = P.Range.End;
    while (D < Debug.size() && Debug[D].Range.End <= Pos)
      ++D;
    size_t K = D;
    while (Pos < End) {
      if (K < Debug.size() && Debug[K].Range.Start < End) {
        if (Debug[K].Range.Start > Pos) {
          FunctionEntry Piece = P;
          Piece.Range = {Pos, Debug[K].Range.Start};
          Result.push_back(std::move(Piece));
        }
        Pos = std::max(Pos, Debug[K].Range.End);
        ++K;
        continue;
      }
      FunctionEntry Piece = P;
      Piece.Range = {Pos, End};
      Result.push_back(std::move(Piece));
      break;
    }
  }
  return Result;
}

void FunctionModel::finalize(WarningLog &Log) {
  std::vector<FunctionEntry> All = std::move(Functions);
  Functions.clear();
  llvm::sort(ExecutableRanges);
  sizeZeroSizeEntries(All, ExecutableRanges, Log); // rule 1
  for (FunctionEntry &F : All)
    normalizeLines(F, Log);
  adoptSymbolNames(All); // rule 2
  std::vector<FunctionEntry> Debug, Plain;
  keepOnePerRange(std::move(All), *this, Log, Debug, Plain); // rule 3
  All.clear();
  All.shrink_to_fit();

  // Rules 4 and 5.
  DenseSet<uint64_t> SymbolStarts;
  for (const FunctionEntry &F : Plain)
    if (isDenseKey(F.Range.Start))
      SymbolStarts.insert(F.Range.Start);
  Debug = OverlapResolver(Debug, Log, "overlapping-functions").run();
  Plain = OverlapResolver(Plain, Log, StringRef()).run();
  Debug = nameInnerSymbols(std::move(Debug), Plain, SymbolStarts);

  std::vector<FunctionEntry> Result = symbolGaps(Plain, Debug); // rule 7
  Result = attachLineOnlyCode(std::move(Result), LineOnlyCode); // rule 8
  LineOnlyCode.clear();
  LineOnlyCode.shrink_to_fit();
  for (FunctionEntry &F : Debug)
    Result.push_back(std::move(F));
  sortEntries(
      Result,
      [](const FunctionEntry &F) {
        return std::pair<uint64_t, uint64_t>(F.Range.Start, 0);
      },
      noTie);
  Functions = std::move(Result);
}

} // namespace dwarfpack

static_assert(std::is_nothrow_move_constructible_v<dwarfpack::FunctionEntry>,
              "vectors of functions must move, not copy, when they grow");
