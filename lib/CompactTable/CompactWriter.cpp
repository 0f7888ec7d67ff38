//===- CompactWriter.cpp - FunctionModel to a compact address table -------===//
//
// Layout: docs/CompactTable.md. The writer works in passes: count names,
// files and path components (ids follow decreasing use, so frequent ones
// take one byte), compute every line row's deltas (which do not depend on
// the special-opcode parameters) to choose those parameters, count columns
// for their prefix code, then encode records, address blocks and the name,
// path and file lists.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactWriter.h"
#include "FileHistory.h"
#include "dwarfpack/AddressTable/FunctionNames.h"
#include "dwarfpack/CompactTable/ColumnCode.h"
#include "dwarfpack/CompactTable/CompactFormat.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Support/RunInOrder.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {
namespace compact {

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

void appendU32(std::string &Out, uint32_t V) {
  char B[4];
  support::endian::write32le(B, V);
  Out.append(B, 4);
}

void appendU64(std::string &Out, uint64_t V) {
  char B[8];
  support::endian::write64le(B, V);
  Out.append(B, 8);
}

/// Assigns ids to keys in order of decreasing use count, ties broken by a
/// content comparison, so the numbering depends only on the model.
template <typename Key> class Numbering {
public:
  void use(const Key &K, uint64_t Times = 1) { Counts[K] += Times; }
  template <typename Less> void finish(Less KeyLess, uint32_t FirstId = 0) {
    finishCounted({Counts.begin(), Counts.end()}, KeyLess);
    for (size_t I = 0; I < Order.size(); ++I)
      Ids[Order[I]] = FirstId + I;
  }
  /// The order of keys counted elsewhere (each key once in All): id()
  /// knows none of them.
  template <typename Less>
  void finishCounted(std::vector<std::pair<Key, uint64_t>> All, Less KeyLess) {
    llvm::sort(All, [&](const auto &A, const auto &B) {
      if (A.second != B.second)
        return A.second > B.second;
      return KeyLess(A.first, B.first);
    });
    Order.clear();
    Order.reserve(All.size());
    for (auto &[K, C] : All)
      Order.push_back(K);
  }
  uint32_t id(const Key &K) const { return Ids.lookup(K); }
  const std::vector<Key> &order() const { return Order; }

private:
  DenseMap<Key, uint64_t> Counts;
  DenseMap<Key, uint32_t> Ids;
  std::vector<Key> Order;
};

/// Files that lookups would treat as "no file" (GSYM's empty entry).
bool isEmptyFile(const FunctionModel &M, FileId Id) {
  if (Id == 0 || Id >= M.numFiles())
    return true;
  const FileEntry &F = M.file(Id);
  return F.Dir.empty() && F.Base.empty();
}

/// One line row as the encoder sees it.
struct RowCode {
  bool FileSwitch = false;
  uint64_t FileOperand = 0; ///< SetFile operand (1 means SwapFile).
  uint64_t AddrDelta = 0;
  int64_t LineDelta = 0;
  uint32_t Discriminator = 0;
  /// A row stop: coded as a first row is, the file history restarting
  /// from it.
  bool Stop = false;
};

/// A name entry: the name and, with details, the declaration (model file
/// id << 32 | line) that lookups print with it, the short name when it is
/// recorded and the entry's NameEntryFlags.
using NameKey = std::tuple<StringRef, uint64_t, StringRef, uint64_t>;

// Inline (LLVM's are out of line in its shared library): the row coder asks
// for millions of sizes.
unsigned ulebSize(uint64_t V) {
  // 7 bits a byte: 1 + floor(log2(V) / 7), and 1 for 0.
  return 1 + (63 - llvm::countl_zero(V | 1)) / 7;
}
unsigned slebSize(int64_t V) {
  // The bits of V's value and its sign bit, 7 a byte.
  uint64_t Magnitude = V < 0 ? ~uint64_t(V) : uint64_t(V);
  return 1 + (64 - llvm::countl_zero(Magnitude)) / 7;
}

bool special(int LineBase, unsigned LineRange, uint64_t AddrDelta,
             int64_t LineDelta, uint8_t &Op) {
  if (LineDelta < LineBase || LineDelta >= LineBase + int64_t(LineRange))
    return false;
  if (AddrDelta > 255)
    return false;
  uint64_t V = uint64_t(LineDelta - LineBase) + AddrDelta * LineRange;
  if (V > 255u - FirstSpecial)
    return false;
  Op = uint8_t(V + FirstSpecial);
  return true;
}

/// Functions per chunk of the work done on worker threads.
constexpr size_t ChunkSize = 1024;

struct Writer {
  const FunctionModel &M;
  WriteOptions Opts;
  WriteStats S;

  Numbering<NameKey> NameIds;
  Numbering<FileId> FileIds; // model id -> compact id (1-based)
  Numbering<StringRef> PathIds;
  /// Without details: each function's rows, those that differ from the
  /// previous one only in column or discriminator left out.
  std::vector<std::vector<LineEntry>> PlainRows;
  ColumnCode Columns;
  int LineBase = 0;
  unsigned LineRange = 1;
  /// Some line table has row stops (header flag RowStops).
  bool HasRowStops = false;

  Writer(const FunctionModel &M, const WriteOptions &Options)
      : M(M), Opts(Options) {
    // A model without any (Breakpad input) is written without details.
    Opts.Details = Options.Details && hasDetails(M);
  }

  static bool hasDetails(const InlineNode &N) {
    if (N.CallColumn || N.CallDiscriminator || N.Decl.File || N.Decl.Line ||
        N.LowPC)
      return true;
    return llvm::any_of(N.Children,
                        [](const InlineNode &C) { return hasDetails(C); });
  }
  /// Whether a symbol renamed F's DWARF description (beyond a clone
  /// suffix, which derived names drop): --functions=short and addr2line
  /// print the DWARF name.
  static bool renamesDwarfName(const FunctionEntry &F) {
    return F.FromDwarf && !F.DwarfName.empty() && F.DwarfName != F.Name &&
           F.DwarfName != F.Name.take_front(cloneSuffix(F.Name));
  }
  static bool hasDetails(const FunctionModel &M) {
    return llvm::any_of(M.functions(), [](const FunctionEntry &F) {
      return F.Decl.File || F.Decl.Line || renamesDwarfName(F) ||
             llvm::any_of(F.Lines,
                          [](const LineEntry &L) {
                            return L.Column || L.Discriminator;
                          }) ||
             (F.Inline && hasDetails(*F.Inline));
    });
  }

  /// With details: the rows of functions whose code starts without a line
  /// (FunctionEntry::LinesFrom), a row of file 0 first.
  DenseMap<size_t, std::vector<LineEntry>> NoLineRows;

  ArrayRef<LineEntry> rows(size_t I) const {
    if (!Opts.Details)
      return PlainRows[I];
    auto It = NoLineRows.find(I);
    if (It != NoLineRows.end())
      return It->second;
    return M.functions()[I].Lines;
  }

  /// Code before the first row of the line table has no line in
  /// llvm-symbolizer: a row of file 0 stands for it.
  void addNoLineRows() {
    if (!Opts.Details)
      return;
    for (size_t I = 0; I < M.functions().size(); ++I) {
      const FunctionEntry &F = M.functions()[I];
      if (F.Lines.empty() || F.linesStart() == F.Range.Start)
        continue;
      std::vector<LineEntry> &Out = NoLineRows[I];
      LineEntry None;
      None.Address = F.Range.Start;
      Out.push_back(None);
      if (F.linesStart() == F.Range.End)
        continue; // only the declaration's row, which is no line
      Out.insert(Out.end(), F.Lines.begin(), F.Lines.end());
      Out[1].Address = F.linesStart();
    }
  }

  void dropDetailRows() {
    if (Opts.Details)
      return;
    PlainRows.resize(M.functions().size());
    for (size_t I = 0; I < M.functions().size(); ++I)
      for (const LineEntry &L : M.functions()[I].Lines) {
        std::vector<LineEntry> &Out = PlainRows[I];
        // Files that read as "no file" are one file to a lookup.
        auto Same = [&](FileId A, FileId B) {
          return A == B || (isEmptyFile(M, A) && isEmptyFile(M, B));
        };
        if (!Out.empty() && Same(Out.back().File, L.File) &&
            Out.back().Line == L.Line)
          continue;
        LineEntry P;
        P.Address = L.Address;
        P.File = L.File;
        P.Line = L.Line;
        Out.push_back(P);
      }
  }

  /// Short names derived from stored names, per name that is not its own
  /// short name. numberAll fills it; the record encoders only read it, on
  /// several threads.
  using DerivedNames = DenseMap<StringRef, std::string>;
  DerivedNames Derived;
  void learnShortName(StringRef Name, DerivedNames &Into) const {
    // C names decide without the cache (most of a kernel's).
    if (!Opts.Details || isOwnShortName(Name))
      return;
    auto [It, New] = Into.try_emplace(Name);
    if (New)
      It->second = shortFunctionName(Name);
  }
  bool derivesTo(StringRef Name, StringRef Short,
                 const DerivedNames &From) const {
    if (isOwnShortName(Name))
      return Name == Short;
    auto It = From.find(Name);
    assert(It != From.end() && "a name numberAll did not learn");
    if (It == From.end())
      return shortFunctionName(Name) == Short;
    return It->second == Short;
  }

  /// The name entry of Name declared at D (D ignored without details),
  /// its short name Short recorded when the name does not derive to it.
  /// From: the short names learned (Derived once numberAll is done).
  NameKey nameKey(StringRef Name, const Declaration &D, StringRef Short = "",
                  bool Describe = false,
                  const DerivedNames *From = nullptr) const {
    if (!Opts.Details)
      return {Name, 0, StringRef(), 0};
    uint64_t Decl = 0;
    if (!(isEmptyFile(M, D.File) && D.Line == 0))
      Decl = uint64_t(isEmptyFile(M, D.File) ? 0 : D.File) << 32 | D.Line;
    uint64_t Flags = 0;
    if (Describe && !derivesTo(Name, Short, From ? *From : Derived))
      Flags |= NameHasShort;
    else
      Short = StringRef();
    return {Name, Decl, Short, Flags};
  }
  NameKey nameKey(const InlineNode &N,
                  const DerivedNames *From = nullptr) const {
    return nameKey(N.Name, N.Decl, N.ShortName, true, From);
  }

  /// Whether F's record names the DWARF name of a function a symbol
  /// renamed.
  bool recordsDwarfName(const FunctionEntry &F) const {
    return Opts.Details && renamesDwarfName(F);
  }
  /// The entry of F's name. It gives F's short name unless the record
  /// names a DWARF name entry that does; code only symbols describe has no
  /// short name.
  NameKey functionKey(const FunctionEntry &F,
                      const DerivedNames *From = nullptr) const {
    if (!F.FromDwarf)
      return nameKey(nameOf(F), F.Decl, "", true, From);
    if (recordsDwarfName(F))
      return nameKey(nameOf(F), F.Decl);
    return nameKey(nameOf(F), F.Decl, F.ShortName, true, From);
  }
  NameKey dwarfNameKey(const FunctionEntry &F,
                       const DerivedNames *From = nullptr) const {
    return nameKey(F.DwarfName, F.Decl, F.ShortName, true, From);
  }
  /// The file of F's local symbol, when an address of F can leave F's own
  /// frame without a file (llvm-symbolizer then prints it): code without a
  /// line, or an inlined call into F without a call file (DWARF 2 has no
  /// DW_AT_call_file). One without a name (file 0) only for code no DWARF
  /// describes, where binutils' addr2line prints it.
  std::optional<FileId> symbolFile(const FunctionEntry &F) const {
    if (!Opts.Details || !F.SymbolFile)
      return std::nullopt;
    const bool Unnamed = isEmptyFile(M, *F.SymbolFile);
    if (Unnamed && F.FromDwarf)
      return std::nullopt;
    bool NoLine = F.Lines.empty() || F.linesStart() > F.Range.Start;
    if (!NoLine && !(F.Inline && hasCallWithoutFile(*F.Inline)))
      return std::nullopt;
    return Unnamed ? 0 : *F.SymbolFile;
  }
  /// Whether a call inlined into the function whose inline tree Root is
  /// names no call file.
  bool hasCallWithoutFile(const InlineNode &Root) const {
    return any_of(Root.Children, [&](const InlineNode &C) {
      return isEmptyFile(M, C.CallFile);
    });
  }
  /// What numberAll counts in one chunk of functions, on a worker thread:
  /// the uses of each model file (in a vector: once per row, a hash lookup
  /// too many), the name entries used, by shard, and the short names
  /// learned.
  struct ChunkUses {
    static constexpr unsigned ShardBits = 6;
    std::vector<uint64_t> Files;
    std::vector<std::vector<NameKey>> Shards;
    DerivedNames Derived;

    static unsigned shardOf(const NameKey &K) {
      // The top bits of a scrambled hash: a shard's map indexes its
      // buckets with the low bits, which must not be all the same.
      uint64_t H = DenseMapInfo<NameKey>::getHashValue(K);
      return unsigned((H * 0x9e3779b97f4a7c15ULL) >> (64 - ShardBits));
    }
    void use(NameKey K) { Shards[shardOf(K)].push_back(K); }
    void useFile(FileId Id) {
      if (Id < Files.size())
        ++Files[Id];
    }
  };

  static StringRef nameOf(const FunctionEntry &F) {
    // GSYM cannot store an empty function name; its writer uses "??", and
    // so do we, so lookups agree.
    return F.Name.empty() ? StringRef("??") : F.Name;
  }

  DenseMap<NameKey, uint32_t> NameOffsets;
  /// Names are referred to by the offset of their entry in the name list
  /// (frequent names first, so most offsets are short): a lookup reaches a
  /// name without an index.
  uint32_t nameRef(const NameKey &K) const { return NameOffsets.lookup(K); }

  /// Compact file ids by model file id (0 for files lookups treat as no
  /// file): the row coders ask for one per row, a hash lookup too many.
  std::vector<uint32_t> CompactFiles;
  uint32_t file(FileId Id) const {
    return Id < CompactFiles.size() ? CompactFiles[Id] : 0;
  }

  void countNode(const InlineNode &N, ChunkUses &U) const {
    learnShortName(N.Name, U.Derived);
    U.use(nameKey(N, &U.Derived));
    if (Opts.Details)
      U.useFile(N.Decl.File);
    U.useFile(N.CallFile);
    for (const InlineNode &C : N.Children)
      countNode(C, U);
  }
  void countFunction(size_t I, ChunkUses &U) const {
    const FunctionEntry &F = M.functions()[I];
    learnShortName(nameOf(F), U.Derived);
    U.use(functionKey(F, &U.Derived));
    if (recordsDwarfName(F)) {
      learnShortName(F.DwarfName, U.Derived);
      U.use(dwarfNameKey(F, &U.Derived));
    }
    if (Opts.Details)
      U.useFile(F.Decl.File);
    if (std::optional<FileId> Sym = symbolFile(F); Sym && *Sym)
      U.useFile(*Sym);
    for (const LineEntry &L : rows(I))
      U.useFile(L.File);
    if (F.Inline)
      countNode(*F.Inline, U);
  }

  /// Counts the uses of every name entry and model file. Chunks of
  /// functions list their uses on the threads; then each shard of the
  /// name entries is counted on its own. Counts do not depend on the
  /// order of the uses, so neither do the ids numberAll gives.
  void countUses(std::vector<uint64_t> &FileUses,
                 std::vector<std::pair<NameKey, uint64_t>> &NameUses) {
    const size_t N = M.functions().size();
    const size_t NumChunks = (N + ChunkSize - 1) / ChunkSize;
    const unsigned NumShards = 1u << ChunkUses::ShardBits;
    std::vector<ChunkUses> Chunks(NumChunks);
    FileUses.assign(M.numFiles(), 0);
    auto List = [&](size_t C) {
      ChunkUses &U = Chunks[C];
      U.Files.assign(M.numFiles(), 0);
      U.Shards.resize(NumShards);
      for (size_t I = C * ChunkSize; I < std::min(N, (C + 1) * ChunkSize); ++I)
        countFunction(I, U);
    };
    auto Add = [&](size_t C) -> Error {
      ChunkUses &U = Chunks[C];
      for (size_t F = 0; F < FileUses.size(); ++F)
        FileUses[F] += U.Files[F];
      U.Files = {};
      for (auto &[Name, Short] : U.Derived)
        Derived.try_emplace(Name, std::move(Short));
      U.Derived = DerivedNames(); // freed once merged
      return Error::success();
    };
    cantFail(
        runInOrder(NumChunks, Opts.Threads, /*WindowPerThread=*/4, List, Add));
    std::vector<std::vector<std::pair<NameKey, uint64_t>>> Counted(NumShards);
    auto Count = [&](size_t S) {
      DenseMap<NameKey, uint64_t> Counts;
      for (ChunkUses &U : Chunks) {
        for (const NameKey &K : U.Shards[S])
          ++Counts[K];
        U.Shards[S] = {};
      }
      Counted[S].assign(Counts.begin(), Counts.end());
    };
    NameUses.clear();
    auto Gather = [&](size_t S) -> Error {
      llvm::append_range(NameUses, Counted[S]);
      Counted[S] = {};
      return Error::success();
    };
    cantFail(runInOrder(NumShards, Opts.Threads, /*WindowPerThread=*/4, Count,
                        Gather));
  }

  bool fileLess(FileId A, FileId B) const {
    const FileEntry &FA = M.file(A), &FB = M.file(B);
    if (FA.Dir != FB.Dir)
      return FA.Dir < FB.Dir;
    return FA.Base < FB.Base;
  }

  void numberAll() {
    std::vector<uint64_t> FileUses;
    std::vector<std::pair<NameKey, uint64_t>> NameUses;
    countUses(FileUses, NameUses);
    // Files lookups treat as no file get no id.
    for (FileId Id = 0; Id < FileUses.size(); ++Id)
      if (FileUses[Id] && !isEmptyFile(M, Id))
        FileIds.use(Id, FileUses[Id]);
    // Ties by content: name, then declaration file path, then line.
    NameIds.finishCounted(
        std::move(NameUses), [&](const NameKey &A, const NameKey &B) {
          if (std::get<0>(A) != std::get<0>(B))
            return std::get<0>(A) < std::get<0>(B);
          FileId FA = FileId(std::get<1>(A) >> 32),
                 FB = FileId(std::get<1>(B) >> 32);
          if (FA != FB)
            return FA == 0 || (FB != 0 && fileLess(FA, FB));
          if (uint32_t(std::get<1>(A)) != uint32_t(std::get<1>(B)))
            return uint32_t(std::get<1>(A)) < uint32_t(std::get<1>(B));
          return std::tie(std::get<3>(A), std::get<2>(A)) <
                 std::tie(std::get<3>(B), std::get<2>(B));
        });
    FileIds.finish([&](FileId A, FileId B) { return fileLess(A, B); }, 1);
    CompactFiles.assign(M.numFiles(), 0);
    for (FileId F : FileIds.order())
      CompactFiles[F] = FileIds.id(F);
    for (FileId F : FileIds.order()) {
      PathIds.use(M.file(F).Dir);
      PathIds.use(M.file(F).Base);
    }
    PathIds.finish([](StringRef A, StringRef B) { return A < B; });
  }

  /// Bytes of a row's opcode and operands under the current window.
  unsigned rowBytes(uint64_t AddrDelta, int64_t LineDelta) const {
    uint8_t Op;
    if (special(LineBase, LineRange, AddrDelta, LineDelta, Op))
      return 1;
    return 1 + ulebSize(AddrDelta) + slebSize(LineDelta);
  }

  /// Counts of (address delta, line delta) pairs of rows that a
  /// special-opcode window could cover.
  using DeltaCounts = DenseMap<std::pair<uint64_t, int64_t>, uint64_t>;
  static constexpr int MinBase = -16;
  static constexpr int MaxLine = 64;

  /// The rows of a chunk of functions as encodeLines() writes them under
  /// one window, concatenated, with the end of each function's.
  struct CodedRows {
    std::string Bytes;
    std::vector<uint32_t> Ends;
    StringRef of(size_t K) const {
      const uint32_t Begin = K ? Ends[K - 1] : 0;
      return StringRef(Bytes).slice(Begin, Ends[K]);
    }
  };
  /// Every chunk's rows under the window countDeltas() tried: the records
  /// take them as they are when the window chosen is that one (it is for
  /// the kernel and SQLite), instead of coding the rows again.
  std::vector<CodedRows> TriedRows;
  int TriedBase = 0;
  unsigned TriedRange = 0;

  /// Codes every function's rows under the current window, counts their
  /// deltas and keeps their bytes (TriedRows), in chunks on worker
  /// threads; the error of the first function in order is reported.
  Error countDeltas(DeltaCounts &Deltas) {
    const size_t N = M.functions().size();
    const size_t NumChunks = (N + ChunkSize - 1) / ChunkSize;
    std::vector<DeltaCounts> Counts(NumChunks);
    std::vector<std::string> Problems(NumChunks);
    TriedRows.assign(NumChunks, CodedRows());
    TriedBase = LineBase;
    TriedRange = LineRange;
    auto Work = [&](size_t C) {
      std::vector<RowCode> Codes;
      CodedRows &Coded = TriedRows[C];
      for (size_t I = C * ChunkSize; I < std::min(N, (C + 1) * ChunkSize);
           ++I) {
        Error E = computeRowsOf(I, Codes);
        if (!E && !rows(I).empty())
          E = encodeLines(M.functions()[I], rows(I), Codes, Coded.Bytes);
        if (!E && Coded.Bytes.size() > UINT32_MAX)
          E = makeError("line rows beyond 4 GiB");
        if (E) {
          Problems[C] = toString(std::move(E));
          return;
        }
        Coded.Ends.push_back(Coded.Bytes.size());
        for (const RowCode &R : Codes)
          if (!R.Stop && R.AddrDelta <= 255 && R.LineDelta >= MinBase &&
              R.LineDelta < MaxLine)
            ++Counts[C][{R.AddrDelta, R.LineDelta}];
      }
    };
    auto Merge = [&](size_t C) -> Error {
      if (!Problems[C].empty())
        return makeError(Problems[C]);
      for (const auto &[Pair, Count] : Counts[C])
        Deltas[Pair] += Count;
      return Error::success();
    };
    return runInOrder(NumChunks, Opts.Threads, /*WindowPerThread=*/4, Work,
                      Merge);
  }

  /// The operations of function I's rows, in Out. Each row takes the
  /// context that codes it in the fewest bytes under the current
  /// special-opcode window: the current one, an earlier one of the same
  /// file (the caller's line after an inlined callee's, in one file), or a
  /// new one.
  Error computeRowsOf(size_t I, std::vector<RowCode> &Out) const {
    const FunctionEntry &F = M.functions()[I];
    ArrayRef<LineEntry> Lines = rows(I);
    Out.clear();
    if (Lines.empty())
      return Error::success();
    Out.reserve(Lines.size());
    FileHistory H;
    const LineEntry &First = Lines.front();
    if (First.Address < F.Range.Start)
      return makeError("function '" + nameOf(F) + "': line row at 0x" +
                       utohexstr(First.Address) + " before its start");
    H.start(file(First.File), First.Line);
    uint64_t PrevAddr = First.Address;
    const uint64_t StopMask = rowStopMask(Lines.size());
    for (size_t R = 1; R < Lines.size(); ++R) {
      const LineEntry &L = Lines[R];
      if (L.Address < PrevAddr)
        return makeError("function '" + nameOf(F) +
                         "': line rows not ascending at 0x" +
                         utohexstr(L.Address));
      RowCode C;
      C.AddrDelta = L.Address - PrevAddr;
      C.Discriminator = L.Discriminator;
      const uint32_t File = file(L.File);
      if ((R & StopMask) == 0) {
        C.Stop = true;
        H.start(File, L.Line);
        PrevAddr = L.Address;
        Out.push_back(C);
        continue;
      }
      auto Delta = [&](uint32_t Base) {
        return int64_t(L.Line) - int64_t(Base);
      };
      // Cost and choice: -1 stays, 0 a new context, k >= 1 entry k.
      unsigned Best = ~0u;
      int Choice = -2;
      if (H.file(0) == File) {
        Best = rowBytes(C.AddrDelta, Delta(H.line(0)));
        Choice = -1;
      }
      // An earlier context costs its switch (a byte at least) and a row
      // (a byte at least): only a front context dearer than 2 bytes can
      // lose to one.
      for (unsigned K = 1; K < H.size() && Best > 2; ++K) {
        if (H.file(K) != File)
          continue;
        unsigned Cost = (K == 1 ? 1 : 1 + ulebSize(K)) +
                        rowBytes(C.AddrDelta, Delta(H.line(K)));
        if (Cost < Best) {
          Best = Cost;
          Choice = int(K);
        }
      }
      const uint32_t CurrentLine = H.line(0);
      if (Choice == -2) {
        C.FileSwitch = true;
        C.FileOperand = H.size() + uint64_t(File);
        H.add(File, CurrentLine);
      } else if (Choice > 0) {
        C.FileSwitch = true;
        C.FileOperand = unsigned(Choice);
        H.select(unsigned(Choice));
      }
      C.LineDelta = Delta(H.line(0));
      uint8_t Op;
      if (!special(LineBase, LineRange, C.AddrDelta, C.LineDelta, Op))
        H.push();
      H.setLine(L.Line);
      PrevAddr = L.Address;
      Out.push_back(C);
    }
    return Error::success();
  }

  /// Chooses the special-opcode window that saves the most bytes on rows
  /// of these deltas.
  void chooseLineParams(const DeltaCounts &Deltas) {
    std::vector<std::pair<std::pair<uint64_t, int64_t>, uint64_t>> Pairs(
        Deltas.begin(), Deltas.end());
    llvm::sort(Pairs);
    uint64_t Best = 0;
    LineBase = 0;
    LineRange = 1;
    for (int Base = MinBase; Base <= 0; ++Base)
      for (unsigned Range = 1; Range <= 64; ++Range) {
        uint64_t Saved = 0;
        for (auto &[Key, Count] : Pairs) {
          uint8_t Op;
          if (special(Base, Range, Key.first, Key.second, Op))
            Saved += Count * (ulebSize(Key.first) + slebSize(Key.second));
        }
        if (Saved > Best) {
          Best = Saved;
          LineBase = Base;
          LineRange = Range;
        }
      }
  }

  /// The prefix code of the rows' columns; empty when every column is 0
  /// (or without details).
  void chooseColumnCode() {
    if (!Opts.Details)
      return;
    // Columns are 16-bit: counted in an array (a hash lookup per row cost
    // a tenth of the writer's time on a kernel), as long as the largest
    // column (zeroing all 65,536 counts first was a tenth of a small
    // program's conversion).
    static_assert(sizeof(LineEntry::Column) == 2, "a count per column value");
    std::vector<uint64_t> Counts(1);
    // Over the rows written (rows()), which add rows of code without a
    // line to the model's: every column encoded must have a code.
    for (size_t I = 0; I < M.functions().size(); ++I)
      for (const LineEntry &L : rows(I)) {
        if (L.Column >= Counts.size())
          Counts.resize(size_t(L.Column) + 1);
        ++Counts[L.Column];
      }
    if (llvm::all_of(ArrayRef(Counts).drop_front(),
                     [](uint64_t C) { return C == 0; }))
      return;
    std::vector<std::pair<uint16_t, uint64_t>> List;
    for (uint32_t Value = 0; Value < Counts.size(); ++Value)
      if (Counts[Value])
        List.push_back({uint16_t(Value), Counts[Value]});
    Columns = ColumnCode::fromCounts(List);
  }

  /// The column codes of a function's rows, as a line table stores them.
  std::string encodeColumns(ArrayRef<LineEntry> Lines) const {
    BitWriter W;
    for (const LineEntry &L : Lines)
      Columns.encode(L.Column, W);
    return W.finish();
  }

  /// Rows between row stops, less one, for a table of NumRows rows; all
  /// ones (no stop) when it has no more than that many rows.
  uint64_t rowStopMask(size_t NumRows) const {
    if (Opts.RowStopShift == 0 || NumRows <= (size_t(1) << Opts.RowStopShift))
      return ~uint64_t(0);
    return (uint64_t(1) << Opts.RowStopShift) - 1;
  }

  /// A row coded whole, as the first row and the row stops are: file (with
  /// details and a flag for the discriminator), line, discriminator.
  void encodeWholeRow(const LineEntry &L, std::string &Out) const {
    if (Opts.Details) {
      appendULEB128(Out, uint64_t(file(L.File)) << 1 | (L.Discriminator != 0));
      appendULEB128(Out, L.Line);
      if (L.Discriminator)
        appendULEB128(Out, L.Discriminator);
    } else {
      appendULEB128(Out, file(L.File));
      appendULEB128(Out, L.Line);
    }
  }

  /// The row stop index of a line table whose stops are the rows with
  /// stop codes, at StopOffsets in its rows' bytes: for each, the deltas
  /// of its address, its byte offset and its column codes' bit offset.
  void encodeRowStops(const FunctionEntry &F, ArrayRef<LineEntry> Lines,
                      ArrayRef<RowCode> Rows, ArrayRef<uint64_t> StopOffsets,
                      std::string &Out) const {
    std::string Index;
    uint64_t PrevAddr = F.Range.Start, PrevOffset = 0, PrevBits = 0, Bits = 0;
    size_t Stop = 0;
    for (size_t R = 1; R < Lines.size(); ++R) {
      if (!Columns.empty())
        Bits += Columns.length(Lines[R - 1].Column);
      if (!Rows[R - 1].Stop)
        continue;
      appendULEB128(Index, Lines[R].Address - PrevAddr);
      appendULEB128(Index, StopOffsets[Stop] - PrevOffset);
      if (!Columns.empty())
        appendULEB128(Index, Bits - PrevBits);
      PrevAddr = Lines[R].Address;
      PrevOffset = StopOffsets[Stop++];
      PrevBits = Bits;
    }
    appendULEB128(Out, Index.size());
    Out += Index;
  }

  Error encodeLines(const FunctionEntry &F, ArrayRef<LineEntry> Lines,
                    ArrayRef<RowCode> Rows, std::string &Out) const {
    const LineEntry &First = Lines.front();
    // The rows go straight to Out; a table with stops then gets its index
    // inserted in front of them.
    const size_t RowsAt = Out.size();
    SmallVector<uint64_t, 16> StopOffsets;
    appendULEB128(Out, First.Address - F.Range.Start);
    encodeWholeRow(First, Out);
    for (size_t R = 1; R < Lines.size(); ++R) {
      const RowCode &C = Rows[R - 1];
      if (C.Stop) {
        StopOffsets.push_back(Out.size() - RowsAt);
        appendULEB128(Out, Lines[R].Address - F.Range.Start);
        encodeWholeRow(Lines[R], Out);
        continue;
      }
      if (C.Discriminator) {
        Out.push_back(char(SetDiscriminator));
        appendULEB128(Out, C.Discriminator);
      }
      if (C.FileSwitch) {
        if (C.FileOperand == 1) {
          Out.push_back(char(SwapFile));
        } else {
          Out.push_back(char(SetFile));
          appendULEB128(Out, C.FileOperand);
        }
      }
      uint8_t Op;
      if (special(LineBase, LineRange, C.AddrDelta, C.LineDelta, Op)) {
        Out.push_back(char(Op));
      } else {
        Out.push_back(char(LongRow));
        appendULEB128(Out, C.AddrDelta);
        appendSLEB128(Out, C.LineDelta);
      }
    }
    if (!StopOffsets.empty()) {
      std::string Index;
      encodeRowStops(F, Lines, Rows, StopOffsets, Index);
      Out.insert(RowsAt, Index);
    }
    return Error::success();
  }

  Error encodeNode(const InlineNode &N, uint64_t ParentBase,
                   ArrayRef<AddressRange> ParentRanges, uint32_t &PrevFile,
                   uint32_t &PrevLine, unsigned Depth, std::string &Out,
                   WriteStats &Stats) const {
    if (Depth > MaxInlineDepth)
      return makeError("inline tree of '" + N.Name + "' is deeper than " +
                       Twine(MaxInlineDepth));
    if (N.Ranges.empty())
      return makeError("inline node '" + N.Name + "' has no address range");
    uint64_t Prev = ParentBase;
    for (const AddressRange &R : N.Ranges) {
      if (R.Start < Prev || R.End <= R.Start)
        return makeError("inline node '" + N.Name +
                         "' has unsorted, overlapping or empty ranges");
      if (!ParentRanges.empty() &&
          llvm::none_of(ParentRanges,
                        [&](const AddressRange &P) { return P.contains(R); }))
        return makeError("inline range of '" + N.Name +
                         "' not contained in its parent");
      Prev = R.End;
    }
    const bool StartAtFirst =
        Opts.Details && N.LowPC && *N.LowPC == N.Ranges.front().Start;
    uint64_t Extra = 0;
    if (Opts.Details && N.LowPC && !StartAtFirst)
      Extra |= ExtraStartAddress;
    if (Opts.Details && N.CallDiscriminator)
      Extra |= ExtraCallDiscriminator;
    uint64_t Flags = N.Ranges.size() > 1 ? uint64_t(NodeMultiRange) : 0;
    if (StartAtFirst)
      Flags |= NodeStartAtFirstRange;
    if (Extra)
      Flags |= NodeExtra;
    appendULEB128(Out,
                  (uint64_t(N.Children.size()) << nodeFlagBits(Opts.Details)) |
                      Flags);
    if (N.Ranges.size() > 1)
      appendULEB128(Out, N.Ranges.size());
    Prev = ParentBase;
    for (const AddressRange &R : N.Ranges) {
      appendULEB128(Out, R.Start - Prev);
      appendULEB128(Out, R.size());
      Prev = R.End;
    }
    appendULEB128(Out, nameRef(nameKey(N)));
    uint32_t CallFile = file(N.CallFile);
    appendULEB128(Out, CallFile == PrevFile ? 0 : uint64_t(CallFile) + 1);
    appendSLEB128(Out, int64_t(N.CallLine) - int64_t(PrevLine));
    PrevFile = CallFile;
    PrevLine = N.CallLine;
    if (Opts.Details) {
      appendULEB128(Out, N.CallColumn);
      if (Extra) {
        appendULEB128(Out, Extra);
        if (Extra & ExtraStartAddress)
          appendSLEB128(Out, int64_t(*N.LowPC - N.Ranges.front().Start));
        if (Extra & ExtraCallDiscriminator)
          appendULEB128(Out, N.CallDiscriminator);
      }
    }
    if (N.Children.empty())
      return Error::success();
    // The children's bytes come after their size, so that a lookup skips
    // the subtree of a node off its address's path in one step.
    std::string Children;
    uint32_t ChildFile = 0, ChildLine = 0;
    for (const InlineNode &C : N.Children) {
      ++Stats.InlineNodes;
      if (Error E = encodeNode(C, N.Ranges.front().Start, N.Ranges, ChildFile,
                               ChildLine, Depth + 1, Children, Stats))
        return E;
    }
    appendULEB128(Out, Children.size());
    Out += Children;
    return Error::success();
  }

  /// Children of the root are encoded with the function's first line row
  /// as the reference for the first call site.
  Error encodeChildren(const FunctionEntry &F, ArrayRef<LineEntry> Lines,
                       const InlineNode &Root, std::string &Out,
                       WriteStats &Stats) const {
    uint32_t PrevFile = Lines.empty() ? 0 : file(Lines.front().File);
    uint32_t PrevLine = Lines.empty() ? 0 : Lines.front().Line;
    appendULEB128(Out, Root.Children.size());
    for (const InlineNode &C : Root.Children) {
      ++Stats.InlineNodes;
      if (Error E = encodeNode(C, Root.Ranges.front().Start, Root.Ranges,
                               PrevFile, PrevLine, 1, Out, Stats))
        return E;
    }
    return Error::success();
  }

  /// A root that the record can leave implicit: the function itself.
  bool isStandardRoot(const FunctionEntry &F, const InlineNode &R) const {
    if (R.Ranges.size() != 1 || !(R.Ranges.front() == F.Range) ||
        R.Name != nameOf(F) || file(R.CallFile) != 0 || R.CallLine != 0)
      return false;
    return !Opts.Details ||
           (nameKey(R.Name, R.Decl) == nameKey(nameOf(F), F.Decl) &&
            R.ShortName == F.ShortName && R.CallColumn == 0 &&
            R.CallDiscriminator == 0 && !R.LowPC);
  }

  /// Appends function I's record, its rows coded as Codes (or, when
  /// Coded is not empty, already encoded as Coded), to Out and counts it in
  /// Stats. Reads the writer's state only: records are encoded on several
  /// threads.
  Error encodeRecord(size_t I, ArrayRef<RowCode> Codes, StringRef Coded,
                     std::string &Out, WriteStats &Stats) const {
    const FunctionEntry &F = M.functions()[I];
    ArrayRef<LineEntry> Lines = rows(I);
    const size_t Start = Out.size();
    uint64_t Flags = 0;
    if (!Lines.empty())
      Flags |= HasLines;
    bool StandardRoot = false;
    if (F.Inline) {
      StandardRoot = isStandardRoot(F, *F.Inline);
      Flags |= StandardRoot ? HasInlineChildren : HasInlineRoot;
    }
    const bool DwarfName = recordsDwarfName(F);
    const std::optional<FileId> SymFile = symbolFile(F);
    if (Opts.Details) {
      if (!F.FromDwarf || !F.LowPC)
        Flags |= NoDwarfStart;
      if (DwarfName)
        Flags |= HasDwarfName;
      if (SymFile)
        Flags |= HasSymbolFile;
    }
    appendULEB128(Out, (uint64_t(nameRef(functionKey(F)))
                        << recordFlagBits(Opts.Details)) |
                           Flags);
    if (DwarfName)
      appendULEB128(Out, nameRef(dwarfNameKey(F)));
    if (SymFile)
      appendULEB128(Out, file(*SymFile)); // 0: an STT_FILE without a name
    Stats.FramingBytes += Out.size() - Start;
    if (!Lines.empty()) {
      size_t Before = Out.size();
      appendULEB128(Out, Lines.size());
      if (!Columns.empty()) {
        std::string Bits = encodeColumns(Lines);
        appendULEB128(Out, Bits.size());
        Out += Bits;
        Stats.ColumnBytes += Out.size() - Before - ulebSize(Lines.size());
      }
      std::string Encoded;
      if (Coded.empty())
        if (Error E = encodeLines(F, Lines, Codes, Encoded))
          return E;
      StringRef Rows = Coded.empty() ? StringRef(Encoded) : Coded;
      // With an inline tree after the rows, their size lets a lookup stop
      // decoding rows at its address and jump to the tree.
      if (F.Inline)
        appendULEB128(Out, Rows.size());
      Out += Rows;
      Stats.LineBytes += Out.size() - Before;
      Stats.LineRows += Lines.size();
    }
    if (F.Inline) {
      size_t Before = Out.size();
      if (StandardRoot) {
        if (Error E = encodeChildren(F, Lines, *F.Inline, Out, Stats))
          return E;
      } else {
        uint32_t PrevFile = 0, PrevLine = 0;
        if (Error E = encodeNode(*F.Inline, F.Range.Start, {}, PrevFile,
                                 PrevLine, 0, Out, Stats))
          return E;
      }
      Stats.InlineBytes += Out.size() - Before;
    }
    return Error::success();
  }

  /// The records of a run of functions, concatenated, with each one's
  /// size, what they add to the statistics and the first one's error.
  struct RecordChunk {
    std::string Bytes;
    std::vector<size_t> Sizes;
    WriteStats Stats;
    std::string Problem;
  };

  RecordChunk encodeChunk(size_t Begin, size_t End) const {
    RecordChunk C;
    C.Sizes.reserve(End - Begin);
    std::vector<RowCode> Codes;
    // run() keeps the tried rows only when the window chosen is theirs.
    const CodedRows *Tried = Begin / ChunkSize < TriedRows.size()
                                 ? &TriedRows[Begin / ChunkSize]
                                 : nullptr;
    for (size_t I = Begin; I < End; ++I) {
      size_t Before = C.Bytes.size();
      StringRef Coded = Tried ? Tried->of(I - Begin) : StringRef();
      Error E = Error::success();
      if (Coded.empty())
        E = computeRowsOf(I, Codes);
      if (!E)
        E = encodeRecord(I, Codes, Coded, C.Bytes, C.Stats);
      if (E) {
        C.Problem = toString(std::move(E));
        break;
      }
      C.Sizes.push_back(C.Bytes.size() - Before);
    }
    return C;
  }

  /// What the records add to the statistics.
  static void addRecordStats(WriteStats &To, const WriteStats &From) {
    To.LineRows += From.LineRows;
    To.InlineNodes += From.InlineNodes;
    To.FramingBytes += From.FramingBytes;
    To.LineBytes += From.LineBytes;
    To.ColumnBytes += From.ColumnBytes;
    To.InlineBytes += From.InlineBytes;
  }

  /// The sections the records make: block index, address blocks, records.
  struct RecordSections {
    std::string Index, Blocks, Records;
  };

  /// Appends the records of the chunk that starts at function Begin, and
  /// their functions' entries in the address blocks.
  Error appendChunk(size_t Begin, const RecordChunk &C, uint64_t Base,
                    RecordSections &Out) {
    if (!C.Problem.empty())
      return makeError(C.Problem);
    const std::vector<FunctionEntry> &Fs = M.functions();
    const uint32_t PerBlock = 1u << Opts.BlockShift;
    size_t Offset = 0;
    for (size_t K = 0; K < C.Sizes.size(); ++K) {
      const size_t I = Begin + K;
      const FunctionEntry &F = Fs[I];
      bool First = I % PerBlock == 0;
      bool Last = I % PerBlock == PerBlock - 1 || I + 1 == Fs.size();
      if (First) {
        appendU64(Out.Index, F.Range.Start - Base);
        appendU32(Out.Index, Out.Blocks.size());
        appendU32(Out.Index, Out.Records.size());
      } else {
        appendULEB128(Out.Blocks, F.Range.Start - Fs[I - 1].Range.End);
      }
      appendULEB128(Out.Blocks, F.Range.size());
      if (!Last)
        appendULEB128(Out.Blocks, C.Sizes[K]);
      Out.Records.append(C.Bytes, Offset, C.Sizes[K]);
      Offset += C.Sizes[K];
      if (Out.Records.size() > UINT32_MAX || Out.Blocks.size() > UINT32_MAX)
        return makeError("records beyond 4 GiB");
    }
    addRecordStats(S, C.Stats);
    return Error::success();
  }

  /// Codes the rows and encodes the records in chunks on worker threads
  /// and appends them in function order, so the bytes, the statistics and
  /// the error reported (the first function's) do not depend on the
  /// threads. Only the chunks run ahead are held besides the records.
  Error encodeRecords(uint64_t Base, RecordSections &Out) {
    const size_t N = M.functions().size();
    const size_t NumChunks = (N + ChunkSize - 1) / ChunkSize;
    std::vector<RecordChunk> Chunks(NumChunks);
    auto Work = [&](size_t C) {
      Chunks[C] = encodeChunk(C * ChunkSize, std::min(N, (C + 1) * ChunkSize));
    };
    auto Append = [&](size_t C) -> Error {
      RecordChunk Done = std::move(Chunks[C]); // freed once appended
      if (C < TriedRows.size())
        TriedRows[C] = CodedRows();
      return appendChunk(C * ChunkSize, Done, Base, Out);
    };
    return runInOrder(NumChunks, Opts.Threads, /*WindowPerThread=*/4, Work,
                      Append);
  }

  /// A list section: u32 offsets of every 16th entry (relative to the first
  /// entry), then the entries.
  static std::string makeList(const std::vector<std::string> &Entries) {
    std::string Index, Body;
    for (size_t I = 0; I < Entries.size(); ++I) {
      if ((I & ((1u << ListIndexShift) - 1)) == 0)
        appendU32(Index, Body.size());
      Body += Entries[I];
    }
    return Index + Body;
  }

  /// What follows a name in its entry, with details: the declaration and
  /// the entry's flags, then the short name when the flags say so.
  struct NameDetails {
    uint64_t FileAndFlags = 0; ///< Compact file id << NameEntryFlagBits.
    uint32_t Line = 0;
    StringRef Short;
    bool HasShort = false;
  };

  /// Token-encodes Strings. Returns the list section (WithIndex) or the
  /// bare entries, and each entry's offset among the entries. Details,
  /// when given, follow the entries (their short names token-encoded too).
  static Expected<std::string>
  makeNameList(const std::vector<StringRef> &Strings, token::Separators Seps,
               std::string &TokenBytes, bool WithIndex,
               std::vector<uint32_t> *Offsets = nullptr,
               const std::vector<NameDetails> *Details = nullptr) {
    token::TokenTableBuilder B(Seps);
    for (StringRef Str : Strings)
      B.addName(Str);
    if (Details)
      for (const NameDetails &D : *Details)
        if (D.HasShort)
          B.addName(D.Short);
    Expected<token::TokenEncoder> Enc = B.finish();
    if (!Enc)
      return Enc.takeError();
    // Inside each range of ids whose codes have one length, order the ids
    // by the tokens' bytes: no entry changes size (so no offset moves), and
    // front coding finds the prefixes sorted tokens share. The front-coded
    // table (version 2) is written when it is smaller.
    const token::IdCode &C = Enc->code();
    Enc->sortWithin({C.OneByte, C.twoByteLimit(), Enc->numTokens()});
    std::string FrontCoded = Enc->frontCoded();
    if (FrontCoded.size() < Enc->serialized().size())
      TokenBytes = std::move(FrontCoded);
    else
      TokenBytes = Enc->serialized().str();
    std::vector<std::string> Entries;
    Entries.reserve(Strings.size());
    SmallVector<uint32_t, 16> Ids;
    SmallVector<uint8_t, 64> Code;
    // A byte length (not a token count) lets readers skip entries without
    // decoding them.
    auto Append = [&](StringRef Str, std::string &E) {
      Ids.clear();
      Code.clear();
      bool OK = Enc->tokenize(Str, Ids);
      assert(OK && "every word was counted");
      (void)OK;
      for (uint32_t Id : Ids)
        Enc->code().encode(Id, Code);
      appendULEB128(E, Code.size());
      E.append(reinterpret_cast<const char *>(Code.data()), Code.size());
    };
    for (size_t I = 0; I < Strings.size(); ++I) {
      std::string E;
      Append(Strings[I], E);
      if (Details) {
        const NameDetails &D = (*Details)[I];
        appendULEB128(E, D.FileAndFlags);
        appendULEB128(E, D.Line);
        if (D.HasShort)
          Append(D.Short, E);
      }
      Entries.push_back(std::move(E));
    }
    if (WithIndex)
      return makeList(Entries);
    std::string Body;
    for (const std::string &E : Entries) {
      if (Offsets)
        Offsets->push_back(Body.size());
      Body += E;
    }
    return Body;
  }

  /// The name list section and its token table, and each entry's offset
  /// (in NameIds order). Names come first in the records' needs: records
  /// refer to them by offset. With details each entry ends with its
  /// declaration, flags and short name.
  struct NameList {
    std::string Tokens, List;
    std::vector<uint32_t> Offsets;
  };
  Expected<NameList> buildNames() const {
    NameList Out;
    std::vector<StringRef> NameStrings;
    std::vector<NameDetails> Decls;
    for (const NameKey &K : NameIds.order()) {
      NameStrings.push_back(std::get<0>(K));
      if (!Opts.Details)
        continue;
      NameDetails D;
      FileId DeclFile = FileId(std::get<1>(K) >> 32);
      D.FileAndFlags = uint64_t(DeclFile ? FileIds.id(DeclFile) : 0)
                           << NameEntryFlagBits |
                       std::get<3>(K);
      D.Line = uint32_t(std::get<1>(K));
      D.HasShort = std::get<3>(K) & NameHasShort;
      D.Short = std::get<2>(K);
      Decls.push_back(D);
    }
    Expected<std::string> List =
        makeNameList(NameStrings, token::Separators{'_', '.'}, Out.Tokens,
                     false, &Out.Offsets, Opts.Details ? &Decls : nullptr);
    if (!List)
      return List.takeError();
    if (List->size() > UINT32_MAX)
      return makeError("names beyond 4 GiB");
    Out.List = std::move(*List);
    return std::move(Out);
  }

  Expected<std::string> run() {
    const std::vector<FunctionEntry> &Fs = M.functions();
    if (Fs.empty())
      return makeError("no functions to write");
    if (Fs.size() > UINT32_MAX)
      return makeError("too many functions: " + Twine(Fs.size()));
    if (M.UUID.size() > 255)
      return makeError("UUID longer than 255 bytes");
    if (Opts.BlockShift > MaxBlockShift)
      return makeError("block shift above " + Twine(MaxBlockShift));
    if (Opts.RowStopShift && (Opts.RowStopShift < MinRowStopShift ||
                              Opts.RowStopShift > MaxRowStopShift))
      return makeError("row stop shift not in " + Twine(MinRowStopShift) +
                       ".." + Twine(MaxRowStopShift));
    for (size_t I = 0; I < Fs.size(); ++I) {
      if (Fs[I].Range.End <= Fs[I].Range.Start)
        return makeError("function '" + nameOf(Fs[I]) + "' at 0x" +
                         utohexstr(Fs[I].Range.Start) + " has no size");
      if (I && Fs[I].Range.Start < Fs[I - 1].Range.End)
        return makeError("functions not sorted or overlapping at 0x" +
                         utohexstr(Fs[I].Range.Start));
    }
    dropDetailRows();
    addNoLineRows();
    numberAll();
    // Only a table with a stop says so: the others stay readable by
    // readers that know no row stops.
    for (size_t I = 0; I < Fs.size() && !HasRowStops; ++I)
      HasRowStops = ~rowStopMask(rows(I).size()) != 0;
    // The contexts rows take depend on the special-opcode window, and the
    // window on the rows' deltas: deltas under a common window choose the
    // window, under which the records code the rows again.
    // The column code comes first: row stops hold the bit offsets of their
    // rows' codes, in the trial's rows as in the records'.
    chooseColumnCode();
    LineBase = -4;
    LineRange = 13;
    DeltaCounts Deltas;
    if (Error E = countDeltas(Deltas))
      return std::move(E);
    chooseLineParams(Deltas);
    if (LineBase != TriedBase || LineRange != TriedRange)
      TriedRows = std::vector<CodedRows>();
    Expected<NameList> Names = buildNames();
    if (!Names)
      return Names.takeError();
    const std::string &NameTokens = Names->Tokens;
    for (size_t I = 0; I < Names->Offsets.size(); ++I)
      NameOffsets[NameIds.order()[I]] = Names->Offsets[I];

    // Records and address blocks.
    const uint64_t Base = std::min(M.BaseAddress, Fs.front().Range.Start);
    const uint32_t PerBlock = 1u << Opts.BlockShift;
    const uint64_t N = Fs.size();
    const uint64_t NumBlocks = (N + PerBlock - 1) / PerBlock;
    RecordSections RS;
    if (Error E = encodeRecords(Base, RS))
      return std::move(E);
    const std::string &Index = RS.Index, &Blocks = RS.Blocks,
                      &Records = RS.Records;

    // Names, paths, files.
    std::string PathTokens;
    Expected<std::string> Paths = makeNameList(
        PathIds.order(), token::Separators{'/', 0}, PathTokens, true);
    if (!Paths)
      return Paths.takeError();
    std::vector<std::string> FileEntries;
    for (FileId F : FileIds.order()) {
      std::string E;
      appendULEB128(E, PathIds.id(M.file(F).Dir));
      appendULEB128(E, PathIds.id(M.file(F).Base));
      FileEntries.push_back(std::move(E));
    }
    std::string Files = makeList(FileEntries);

    std::string UUID(M.UUID.begin(), M.UUID.end());
    if (Error E = checkLoadSegments(M.LoadSegments))
      return std::move(E);
    std::string Segments;
    for (const LoadSegment &Seg : M.LoadSegments) {
      appendU64(Segments, Seg.FileOffset);
      appendU64(Segments, Seg.Address);
      appendU64(Segments, Seg.FileSize);
    }
    std::string ColumnSection;
    Columns.serialize(ColumnSection);
    S.ColumnBytes += ColumnSection.size();
    S.LineBytes += ColumnSection.size();
    const std::string *Sections[NumSections] = {
        &UUID,       &Index,  &Blocks, &Records,  &NameTokens,   &Names->List,
        &PathTokens, &*Paths, &Files,  &Segments, &ColumnSection};

    std::string Out;
    appendU32(Out, Magic);
    Out.push_back(char(Version & 0xff));
    Out.push_back(char(Version >> 8));
    Out.push_back(char(Opts.BlockShift));
    Out.push_back(char((Opts.Details ? HasDetails : 0) |
                       (M.AddressBytes == 4 ? Addr32 : 0) |
                       (HasRowStops ? RowStops : 0)));
    appendU64(Out, Base);
    appendU32(Out, N);
    appendU32(Out, NumBlocks);
    Out.push_back(char(int8_t(LineBase)));
    Out.push_back(char(LineRange));
    Out.push_back(char(HasRowStops ? Opts.RowStopShift : 0));
    Out.push_back(0);
    appendU32(Out, FileIds.order().size());
    appendU32(Out, NameIds.order().size());
    appendU32(Out, PathIds.order().size());
    assert(Out.size() == HeaderSize);
    // Sections start 4-aligned (the token tables are read as u32s).
    uint64_t Off = HeaderSize + SectionTableSize;
    for (const std::string *Sec : Sections) {
      Off = alignTo(Off, 4);
      appendU32(Out, Off);
      appendU32(Out, Sec->size());
      Off += Sec->size();
    }
    if (Off > UINT32_MAX)
      return makeError("compact table beyond 4 GiB");
    for (const std::string *Sec : Sections) {
      Out.resize(alignTo(Out.size(), 4), '\0');
      Out += *Sec;
    }

    S.Functions = N;
    S.Names = NameIds.order().size();
    S.Paths = PathIds.order().size();
    S.Files = FileIds.order().size();
    S.Bytes = Out.size();
    S.AddressBytes = Index.size() + Blocks.size();
    S.NameBytes = NameTokens.size() + Names->List.size();
    S.PathBytes = PathTokens.size() + Paths->size() + Files.size();
    S.HeaderBytes = S.Bytes - S.AddressBytes - S.NameBytes - S.PathBytes -
                    S.FramingBytes - S.LineBytes - S.InlineBytes;
    return std::move(Out);
  }
};

} // namespace

Expected<std::string> encodeCompact(const FunctionModel &Model,
                                    WriteStats *Stats,
                                    const WriteOptions &Options) {
  Writer W(Model, Options);
  Expected<std::string> Out = W.run();
  if (Out && Stats)
    *Stats = W.S;
  return Out;
}

} // namespace compact
} // namespace dwarfpack
