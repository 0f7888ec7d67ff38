//===- TableVerifier.cpp - Check an address table against DWARF -----------===//
//
// For every function of the table with debug info, the answer can only
// change at a line row or an inline range boundary (of either side), so
// comparing there covers the whole function. See TableVerifier.h for the
// mismatch kinds.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Verify/TableVerifier.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/DwarfSections.h"

#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/DenseKeys.h"
#include "dwarfpack/Support/DieChildren.h"
#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/ElfTables.h"
#include "dwarfpack/DwarfInput/LineTableHeader.h"
#include "dwarfpack/Support/RelocatableLayout.h"
#include "dwarfpack/Support/SplitDwarf.h"
#include "dwarfpack/Support/SupplementaryDwarf.h"
#include "dwarfpack/Symbolize/OpenTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <ctime>
#include <mutex>

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {
namespace verify {

namespace {

/// Calls Fn(Die, Ranges) for each DW_TAG_subprogram of U whose address
/// ranges read (those that do not are skipped, as the converters skip them).
template <typename FnT> void forEachSubprogram(DWARFUnit &U, FnT Fn) {
  for (const DWARFDebugInfoEntry &Entry : U.dies()) {
    DWARFDie Die(&U, &Entry);
    if (Die.getTag() != dwarf::DW_TAG_subprogram)
      continue;
    Expected<DWARFAddressRangesVector> Ranges = Die.getAddressRanges();
    if (!Ranges) {
      consumeError(Ranges.takeError());
      continue;
    }
    Fn(Die, *Ranges);
  }
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, true); }

/// ":column[ (discriminator N)] decl FILE:LINE start 0x..|none", the
/// details a frame is compared on.
std::string describeDetails(uint32_t Column, uint32_t Discriminator,
                            StringRef DeclFile, uint32_t DeclLine,
                            std::optional<uint64_t> Start) {
  std::string S = ":" + std::to_string(Column);
  if (Discriminator)
    S += " (discriminator " + std::to_string(Discriminator) + ")";
  S += " decl " + DeclFile.str() + ":" + std::to_string(DeclLine);
  S += " start " + (Start ? hex(*Start) : std::string("none"));
  return S;
}

/// A table's name matches a DWARF one when equal, when it is the name of a
/// compiler clone of it, or when it is the same name qualified with its
/// scopes (llvm-gsymutil qualifies short names, DWARF gives the bare
/// DW_AT_name).
bool namesMatch(StringRef Table, StringRef Dwarf) {
  if (Table == Dwarf)
    return true;
  // A symbol name of a compiler clone ("f.constprop.0", "f.cold",
  // "_Z1fv.isra.0") names the same source function.
  if (Table.size() > Dwarf.size() + 1 && Table.starts_with(Dwarf) &&
      Table[Dwarf.size()] == '.')
    return true;
  return Table.size() > Dwarf.size() + 2 && Table.ends_with(Dwarf) &&
         Table.drop_back(Dwarf.size()).ends_with("::");
}

bool filesMatch(StringRef Table, StringRef Dwarf) {
  if (Table == Dwarf)
    return true;
  SmallString<256> A(Table), B(Dwarf);
  sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  sys::path::remove_dots(B, /*remove_dot_dot=*/true);
  return A == B;
}

/// One frame of DWARF's answer.
struct DwarfFrame {
  llvm::StringRef Name; // DILineInfo::BadString when unknown
  llvm::StringRef File; // empty when unknown
  uint32_t Line = 0;
  uint32_t Column = 0;
  uint32_t Discriminator = 0;
  /// The frame's DIE's declaration and DW_AT_low_pc, as
  /// DWARFContext::getInliningInfoForAddress gives them.
  llvm::StringRef DeclFile;
  uint32_t DeclLine = 0;
  std::optional<uint64_t> LowPC;
  /// The frame of a caller whose call to the frame before names no file
  /// (call file 0 where DWARF 2 to 4 count from 1).
  bool NoCallFile = false;
};

/// DWARFContext::getInliningInfoForAddress, step for step with the same
/// primitives (inlined chain, line-table row, call file/line, subroutine
/// name, file name by index), but remembering names and paths per DIE and
/// per file index: those lookups dominate when every row of every function
/// is queried.
class DwarfOracle {
public:
  /// LineTables: every unit's line table, loaded beforehand (workers must
  /// not make DWARFContext parse).
  /// NoChain: units whose DIEs must not be read (SharedDwarf::NoDies):
  /// line rows only.
  DwarfOracle(DWARFContext &Ctx,
              const DenseMap<DWARFUnit *, const DWARFDebugLine::LineTable *>
                  &LineTables,
              const SupplementaryDwarf *Sup,
              const DenseSet<const DWARFUnit *> &NoChain,
              ArrayRef<PlacedSection> Placed)
      : Ctx(Ctx), LineTables(LineTables), Sup(Sup), NoChain(NoChain),
        Placed(Placed) {}
  // Neither copied nor moved: Saver refers to this object's Alloc.
  DwarfOracle(const DwarfOracle &) = delete;
  DwarfOracle &operator=(const DwarfOracle &) = delete;

  /// Addr with the index of the section that holds it in a relocatable
  /// object (whose line sequences carry one: a query without it finds
  /// none), else without.
  object::SectionedAddress sectioned(uint64_t Addr) const {
    auto It =
        llvm::upper_bound(Placed, Addr, [](uint64_t A, const PlacedSection &P) {
          return A < P.Start;
        });
    if (It != Placed.begin() &&
        Addr - std::prev(It)->Start < std::prev(It)->Size)
      return {Addr, std::prev(It)->Index};
    return {Addr, SectionedAddress::UndefSection};
  }

  /// False when DWARF knows nothing at Addr. A single frame named
  /// DILineInfo::BadString: a line row but no function.
  bool frames(uint64_t Addr, SmallVectorImpl<DwarfFrame> &Out) {
    Out.clear();
    DWARFCompileUnit *CU = Ctx.getCompileUnitForCodeAddress(Addr);
    if (!CU)
      return false;
    Chain.clear();
    if (!NoChain.contains(CU))
      CU->getInlinedChainForAddress(Addr, Chain);
    const DWARFDebugLine::LineTable *LT = lineTable(CU);
    if (Chain.empty()) {
      // Code without a subprogram (assembly): DWARFContext answers with the
      // line-table row alone and no function name.
      if (LT) {
        uint32_t Row = LT->lookupAddress(sectioned(Addr));
        if (Row != UINT32_MAX)
          if (std::optional<StringRef> File =
                  fileName(CU, LT, LT->Rows[Row].File)) {
            DwarfFrame F;
            F.Name = DILineInfo::BadString;
            F.File = *File;
            F.Line = LT->Rows[Row].Line;
            F.Column = LT->Rows[Row].Column;
            F.Discriminator = LT->Rows[Row].Discriminator;
            Out.push_back(F);
          }
      }
      return !Out.empty();
    }
    for (size_t I = 0; I < Chain.size(); ++I) {
      DwarfFrame F;
      F.Name = name(Chain[I]);
      const DieDetails &D = details(Chain[I]);
      F.DeclFile = D.DeclFile;
      F.DeclLine = D.DeclLine;
      F.LowPC = D.LowPC;
      if (I == 0) {
        if (LT) {
          uint32_t Row = LT->lookupAddress(sectioned(Addr));
          if (Row != UINT32_MAX) {
            const auto &R = LT->Rows[Row];
            if (std::optional<StringRef> File = fileName(CU, LT, R.File)) {
              F.File = *File;
              F.Line = R.Line;
              F.Column = R.Column;
              F.Discriminator = R.Discriminator;
            }
          }
        }
      } else {
        const CallSite &C = callSite(Chain[I - 1]);
        std::optional<StringRef> File;
        if (LT)
          File = fileName(CU, LT, C.File);
        if (File)
          F.File = *File;
        F.NoCallFile = !File && C.File == 0;
        F.Line = C.Line;
        F.Column = C.Column;
        F.Discriminator = C.Discriminator;
      }
      Out.push_back(F);
    }
    return true;
  }

private:
  struct CallSite {
    uint32_t File = 0, Line = 0, Column = 0, Discriminator = 0;
  };
  struct DieDetails {
    StringRef DeclFile;
    uint32_t DeclLine = 0;
    std::optional<uint64_t> LowPC;
  };
  /// What DWARFContext::getInliningInfoForAddress reads of a chain DIE
  /// besides its name, with LLVM's own getDeclFile and getDeclLine (the
  /// context locks its line tables when it is shared by threads).
  const DieDetails &details(const DWARFDie &D) {
    auto [It, New] = Details.try_emplace(D.getDebugInfoEntry());
    if (New) {
      // getDeclFile reads the line table of the unit that holds the value:
      // only when it was loaded beforehand (a header LLVM cannot take is
      // never handed to it).
      std::optional<DWARFFormValue> V =
          D.findRecursively(dwarf::DW_AT_decl_file);
      DWARFUnit *Owner = V ? const_cast<DWARFUnit *>(V->getUnit()) : nullptr;
      if (Owner && LineTables.lookup(Owner->getLinkedUnit()))
        It->second.DeclFile = Saver.save(D.getDeclFile(
            DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath));
      It->second.DeclLine = uint32_t(D.getDeclLine());
      if (std::optional<object::SectionedAddress> Low =
              dwarf::toSectionedAddress(D.find(dwarf::DW_AT_low_pc)))
        It->second.LowPC = Low->Address;
    }
    return It->second;
  }

  const DWARFDebugLine::LineTable *lineTable(DWARFUnit *CU) {
    return LineTables.lookup(CU);
  }
  StringRef name(const DWARFDie &D) {
    // By identity: DIEs of .dwo files and of dwz's supplementary file
    // have offsets of their own.
    auto [It, New] = Names.try_emplace(D.getDebugInfoEntry(), StringRef());
    if (New) {
      const char *N = subroutineName(D, Sup);
      It->second = N ? StringRef(N) : StringRef(DILineInfo::BadString);
    }
    return It->second;
  }
  const CallSite &callSite(const DWARFDie &D) {
    auto [It, New] = CallSites.try_emplace(D.getDebugInfoEntry());
    if (New)
      D.getCallerFrame(It->second.File, It->second.Line, It->second.Column,
                       It->second.Discriminator);
    return It->second;
  }
  std::optional<StringRef>
  fileName(DWARFUnit *CU, const DWARFDebugLine::LineTable *LT, uint64_t Index) {
    auto [It, New] = Files.try_emplace({LT, Index}, std::nullopt);
    if (New) {
      std::string Path;
      if (LT->getFileNameByIndex(
              Index, CU->getCompilationDir(),
              DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, Path))
        It->second = Saver.save(Path);
    }
    return It->second;
  }

  DWARFContext &Ctx;
  SmallVector<DWARFDie, 8> Chain;
  const DenseMap<DWARFUnit *, const DWARFDebugLine::LineTable *> &LineTables;
  const SupplementaryDwarf *Sup;
  const DenseSet<const DWARFUnit *> &NoChain;
  ArrayRef<PlacedSection> Placed;
  DenseMap<const void *, StringRef> Names;
  DenseMap<const void *, CallSite> CallSites;
  DenseMap<const void *, DieDetails> Details;
  DenseMap<std::pair<const void *, uint64_t>, std::optional<StringRef>> Files;
  BumpPtrAllocator Alloc;
  StringSaver Saver{Alloc};
};

/// What every worker shares, read-only: the text sections and each unit's
/// line table.
struct SharedDwarf {
  SmallVector<AddressRange, 8> TextRanges;
  DenseMap<DWARFUnit *, const DWARFDebugLine::LineTable *> LineTables;
  /// ELF symbols by address. The converter names a function after the symbol
  /// that starts where it starts (as llvm-symbolizer names the outermost
  /// frame), so that name is as right as the DWARF one.
  DenseMap<uint64_t, SmallVector<StringRef, 1>> SymbolsAt;
  /// Units, for the map below.
  ArrayRef<DWARFUnit *> Units;
  /// A relocatable object's executable sections where the converter placed
  /// them (empty for other files).
  std::vector<PlacedSection> Placed;
  /// dwz's supplementary file, if the binary has one.
  const SupplementaryDwarf *Sup = nullptr;
  /// Units whose DIEs LLVM is not asked about: skeleton units whose .dwo
  /// file could not be read, units without a readable unit DIE (LLVM 19
  /// crashes on their address lookups; the converter skips them too).
  DenseSet<const DWARFUnit *> NoDies;
  /// Units whose line-table header LLVM cannot take (LineTableHeader.h):
  /// compared without lines, as the converter ignores those tables too.
  DenseSet<const DWARFUnit *> NoLines;

  /// Names of the subprograms with a range starting at Addr (see
  /// Checker::isFoldedCopy). Only needed when a name differs, so it is built
  /// on first use.
  ArrayRef<StringRef> subprogramsAt(uint64_t Addr) const {
    std::call_once(SubprogramsOnce, [this] {
      for (DWARFUnit *U : Units)
        forEachSubprogram(*U, [&](const DWARFDie &Die,
                                  const DWARFAddressRangesVector &Ranges) {
          const char *Name = subroutineName(Die, Sup);
          if (!Name)
            return;
          for (const DWARFAddressRange &R : Ranges)
            if (isDenseKey(R.LowPC))
              SubprogramStarts[R.LowPC].push_back(Name);
        });
    });
    if (!isDenseKey(Addr))
      return {};
    auto It = SubprogramStarts.find(Addr);
    return It == SubprogramStarts.end() ? ArrayRef<StringRef>()
                                        : ArrayRef<StringRef>(It->second);
  }

private:
  mutable std::once_flag SubprogramsOnce;
  mutable DenseMap<uint64_t, SmallVector<StringRef, 2>> SubprogramStarts;
};

class Checker {
public:
  Checker(const VerifiableTable &T, const SharedDwarf &Shared,
          DWARFContext &Ctx, WarningLog &Log, TableVerifyStats &Stats)
      : T(T), Ctx(Ctx), Log(Log), Stats(Stats), TextRanges(Shared.TextRanges),
        SymbolsAt(Shared.SymbolsAt), Shared(Shared),
        Oracle(Ctx, Shared.LineTables, Shared.Sup, Shared.NoDies,
               Shared.Placed) {}

  void checkFunction(uint32_t Index);
  /// HasLines: the unit has a line table (LLVM could read).
  void checkDwarfSubprograms(DWARFUnit &U, bool HasLines);

private:
  void checkAddress(uint64_t Addr, uint32_t Index, const TableFunction &Func,
                    bool CrossCheck);
  void crossCheck(uint64_t Addr);
  void collectDwarfBoundaries(uint64_t Start, uint64_t End,
                              SmallVectorImpl<uint64_t> &Addrs);
  bool inText(uint64_t Lo, uint64_t Hi) const {
    return any_of(TextRanges, [&](const AddressRange &R) {
      return Lo >= R.Start && Hi <= R.End;
    });
  }
  bool isSymbolAt(uint64_t Addr, StringRef Name) const {
    if (!isDenseKey(Addr))
      return false;
    auto It = SymbolsAt.find(Addr);
    return It != SymbolsAt.end() && is_contained(It->second, Name);
  }
  /// Several subprograms describe the code at the function's start:
  /// identical code folding (template instances with the same code) or
  /// COMDAT copies from several units, which the linker points at the one
  /// kept copy although each unit inlined differently. A table may keep
  /// one of them (dwarfpack's keeps the one DWARFContext picks, another
  /// converter's need not) and DWARFContext pick another; both answers are
  /// DWARF's.
  bool isFoldedCopy(const TableFunction &Func) {
    return Shared.subprogramsAt(Func.Range.Start).size() >= 2;
  }
  bool hasLineTable(uint32_t Index) {
    Expected<bool> Has = T.hasLineTable(Index);
    if (!Has) {
      consumeError(Has.takeError()); // reported by checkFunction
      return true;
    }
    return *Has;
  }
  /// The table's file Dir/Base names the DWARF path Path. The exact join is
  /// checked without building the string; anything else goes through the
  /// slower normalising comparison.
  static bool fileMatches(const TableFrame &F, StringRef Path) {
    StringRef Dir = F.Dir, Base = F.Base;
    if (!Dir.empty() && !Base.empty() && Path.starts_with(Dir) &&
        Path.ends_with(Base) && !(Dir.contains('\\') && !Dir.contains('/'))) {
      size_t Mid = Path.size() - Dir.size() - Base.size();
      bool Sep = !Dir.ends_with("/") && !Base.starts_with("/");
      if (Path.size() >= Dir.size() + Base.size() &&
          (Sep ? Mid == 1 && Path[Dir.size()] == '/' : Mid == 0))
        return true;
    }
    return filesMatch(gsym::joinPath(Dir, Base), Path);
  }
  /// The frames; with Details, also what tables with details add.
  static std::string describeTable(ArrayRef<TableFrame> Frames,
                                   bool Details = false) {
    std::string S;
    for (const TableFrame &F : Frames) {
      if (!S.empty())
        S += " <- ";
      S += (F.Name + " " + gsym::joinPath(F.Dir, F.Base) + ":" + Twine(F.Line))
               .str();
      if (Details)
        S += describeDetails(F.Column, F.Discriminator, F.DeclFile, F.DeclLine,
                             F.Start);
    }
    return S.empty() ? "nothing" : S;
  }
  void mismatch(StringRef Kind, const Twine &Message) {
    ++Stats.Mismatches;
    Log.report(Kind, Message);
  }

  const VerifiableTable &T;
  DWARFContext &Ctx;
  WarningLog &Log;
  TableVerifyStats &Stats;
  ArrayRef<AddressRange> TextRanges;
  const DenseMap<uint64_t, SmallVector<StringRef, 1>> &SymbolsAt;
  const SharedDwarf &Shared;
  DwarfOracle Oracle;
  SmallVector<DwarfFrame, 8> DFrames;
  SmallVector<TableFrame, 8> TFrames;
  LookupResult Storage;
  const DILineInfoSpecifier Spec{
      DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
      DINameKind::LinkageName};
};

} // namespace

/// Frames as GSYM's readers give them: a call without a call file is left
/// out, its callee's frame taking the caller's function.
static void dropCallsWithoutFile(SmallVectorImpl<DwarfFrame> &Frames) {
  for (size_t I = 1; I < Frames.size();) {
    if (!Frames[I].NoCallFile) {
      ++I;
      continue;
    }
    DwarfFrame &Callee = Frames[I - 1];
    const DwarfFrame &Caller = Frames[I];
    Callee.Name = Caller.Name;
    Callee.DeclFile = Caller.DeclFile;
    Callee.DeclLine = Caller.DeclLine;
    Callee.LowPC = Caller.LowPC;
    Frames.erase(Frames.begin() + I);
  }
}

static std::string describe(ArrayRef<DwarfFrame> Frames, bool Details = false) {
  std::string S;
  for (const DwarfFrame &F : Frames) {
    if (!S.empty())
      S += " <- ";
    S += (F.Name + " " + F.File + ":" + Twine(F.Line)).str();
    if (Details)
      S += describeDetails(F.Column, F.Discriminator, F.DeclFile, F.DeclLine,
                           F.LowPC);
  }
  return S.empty() ? "nothing" : S;
}

static std::string describe(const DIInliningInfo &D) {
  std::string S;
  for (uint32_t I = 0; I < D.getNumberOfFrames(); ++I) {
    const DILineInfo &F = D.getFrame(I);
    if (!S.empty())
      S += " <- ";
    S += F.FunctionName + " " + F.FileName + ":" + std::to_string(F.Line);
  }
  return S.empty() ? "nothing" : S;
}

void Checker::checkAddress(uint64_t Addr, uint32_t Index,
                           const TableFunction &Func, bool CrossCheck) {
  ++Stats.AddressesChecked;
  // Answer as lookup() would; the reader may use the decoded record when
  // the address table picks this function (re-decoding per address is
  // quadratic in the size of the function for some formats).
  Expected<std::optional<uint32_t>> Picked = T.findFunction(Addr);
  if (!Picked) {
    mismatch("lookup-error", hex(Addr) + ": " + toString(Picked.takeError()));
    return;
  }
  // Another record may cover this address (overlapping entries): then its
  // answer is taken as lookup() gives it.
  if (Error E = T.frames(*Picked == Index ? &Func : nullptr, Addr, TFrames,
                         Storage)) {
    mismatch("lookup-error", hex(Addr) + ": " + toString(std::move(E)));
    return;
  }
  ArrayRef<TableFrame> F = TFrames;
  if (!Oracle.frames(Addr, DFrames)) {
    mismatch("no-dwarf", hex(Addr) + ": " + T.kind() + " says " +
                             describeTable(F) + ", DWARF has nothing there");
    return;
  }
  if (CrossCheck)
    crossCheck(Addr);
  if (!T.keepsCallsWithoutFile())
    dropCallsWithoutFile(DFrames);
  auto Report = [&](StringRef Kind, unsigned Frame) {
    if ((Kind == "function-name" || Kind == "frame-count" ||
         Kind == "declaration") &&
        isFoldedCopy(Func)) {
      ++Stats.FoldedAddresses;
      return;
    }
    bool Details = Kind == "column" || Kind == "discriminator" ||
                   Kind == "declaration" || Kind == "start-address";
    mismatch(Kind, hex(Addr) + " frame " + Twine(Frame) + ": " + T.kind() +
                       " " + describeTable(F, Details) + "; DWARF " +
                       describe(DFrames, Details));
  };
  if (F.size() != DFrames.size())
    return Report("frame-count", 0);
  for (unsigned I = 0; I < F.size(); ++I) {
    const DwarfFrame &DF = DFrames[I];
    // Without a subprogram DWARF names nothing; the file and line still
    // count.
    if (DF.Name != DILineInfo::BadString && !namesMatch(F[I].Name, DF.Name) &&
        !(I + 1 == F.size() && isSymbolAt(Func.Range.Start, F[I].Name)))
      return Report("function-name", I);
    // Where DWARF has no row (code before the first row of its sequence),
    // the table must still give one: GSYM readers require a row at the
    // function start, so the converter extends the first row down to it.
    if (DF.File.empty() && DF.Line == 0)
      continue;
    if (!fileMatches(F[I], DF.File))
      return Report("file", I);
    if (F[I].Line != DF.Line)
      return Report("line", I);
    if (!T.hasDetails())
      continue;
    if (F[I].Column != DF.Column)
      return Report("column", I);
    if (F[I].Discriminator != DF.Discriminator)
      return Report("discriminator", I);
    if (DF.Name == DILineInfo::BadString)
      continue; // no DIE: neither declares anything
    if (F[I].DeclLine != DF.DeclLine ||
        !(F[I].DeclFile == DF.DeclFile ||
          filesMatch(F[I].DeclFile, DF.DeclFile)))
      return Report("declaration", I);
    // The outermost frame's start is the function's (or its symbol's).
    if (I + 1 < F.size() && F[I].Start != DF.LowPC)
      return Report("start-address", I);
  }
}

/// The cached oracle must agree with DWARFContext itself; checked at every
/// function start (a small fraction of the addresses).
void Checker::crossCheck(uint64_t Addr) {
  if (DWARFCompileUnit *CU = Ctx.getCompileUnitForCodeAddress(Addr))
    if (Shared.NoDies.contains(CU) || Shared.NoLines.contains(CU))
      return;
  DIInliningInfo D =
      Ctx.getInliningInfoForAddress(Oracle.sectioned(Addr), Spec);
  bool Same = D.getNumberOfFrames() == DFrames.size();
  for (uint32_t I = 0; Same && I < D.getNumberOfFrames(); ++I) {
    const DILineInfo &A = D.getFrame(I);
    StringRef File =
        A.FileName == DILineInfo::BadString ? "" : StringRef(A.FileName);
    // LLVM does not read dwz's supplementary file: where it knows no
    // name, ours may come from there.
    bool NameFromSup = Shared.Sup && A.FunctionName == DILineInfo::BadString;
    const DwarfFrame &F = DFrames[I];
    Same = (A.FunctionName == F.Name || NameFromSup) && File == F.File &&
           A.Line == F.Line && A.Column == F.Column &&
           A.Discriminator == F.Discriminator && A.StartLine == F.DeclLine &&
           (NameFromSup || A.StartFileName == F.DeclFile ||
            (A.StartFileName == DILineInfo::BadString && F.DeclFile.empty())) &&
           (I + 1 == D.getNumberOfFrames() || A.StartAddress == F.LowPC);
  }
  if (!Same)
    mismatch("internal-oracle", hex(Addr) + ": cached DWARF answer " +
                                    describe(DFrames) + " but DWARFContext " +
                                    describe(D));
}

/// Adds DWARF's line rows and inline range boundaries in [Start, End).
void Checker::collectDwarfBoundaries(uint64_t Start, uint64_t End,
                                     SmallVectorImpl<uint64_t> &Addrs) {
  DWARFCompileUnit *CU = Ctx.getCompileUnitForCodeAddress(Start);
  if (!CU)
    return;
  if (const DWARFDebugLine::LineTable *LT = Shared.LineTables.lookup(CU)) {
    std::vector<uint32_t> Rows;
    if (LT->lookupAddressRange(Oracle.sectioned(Start), End - Start, Rows))
      for (uint32_t Row : Rows) {
        uint64_t A = LT->Rows[Row].Address.Address;
        if (A >= Start && A < End)
          Addrs.push_back(A);
      }
  }
  if (Shared.NoDies.contains(CU))
    return;
  DWARFDie Sub = CU->getSubroutineForAddress(Start);
  if (!Sub)
    return;
  // Inlined subroutines nest to a bounded depth in real DWARF; an explicit
  // stack keeps hostile input from recursing deeply.
  SmallVector<DWARFDie, 16> Work{Sub};
  while (!Work.empty()) {
    DWARFDie D = Work.pop_back_val();
    for (DWARFDie Child : DieChildren(D)) {
      dwarf::Tag T = Child.getTag();
      if (T == dwarf::DW_TAG_inlined_subroutine) {
        if (Expected<DWARFAddressRangesVector> Ranges =
                Child.getAddressRanges()) {
          for (const DWARFAddressRange &R : *Ranges) {
            if (R.LowPC >= Start && R.LowPC < End)
              Addrs.push_back(R.LowPC);
            if (R.HighPC > Start && R.HighPC < End)
              Addrs.push_back(R.HighPC);
          }
        } else {
          consumeError(Ranges.takeError());
        }
        Work.push_back(Child);
      } else if (T == dwarf::DW_TAG_lexical_block) {
        Work.push_back(Child);
      }
    }
  }
}

void Checker::checkFunction(uint32_t Index) {
  TableFunction F;
  if (Error E = T.function(Index, F)) {
    mismatch("lookup-error", "function " + Twine(Index) + " at " +
                                 hex(T.functionStart(Index)) + ": " +
                                 toString(std::move(E)));
    return;
  }
  if (!F.HasLineTable && !F.HasInline) {
    ++Stats.SymbolOnlyFunctions;
    return;
  }
  ++Stats.FunctionsChecked;
  const uint64_t Start = F.Range.Start, End = F.Range.End;
  SmallVector<uint64_t, 64> Addrs{Start};
  if (End > Start) {
    for (uint64_t A : F.Boundaries)
      if (A >= Start && A < End)
        Addrs.push_back(A);
    collectDwarfBoundaries(Start, End, Addrs);
  }
  std::sort(Addrs.begin(), Addrs.end());
  Addrs.erase(std::unique(Addrs.begin(), Addrs.end()), Addrs.end());
  for (uint64_t A : Addrs)
    checkAddress(A, Index, F, /*CrossCheck=*/A == Start);
}

void Checker::checkDwarfSubprograms(DWARFUnit &U, bool HasLines) {
  forEachSubprogram(U, [&](const DWARFDie &Die,
                           const DWARFAddressRangesVector &Ranges) {
    for (const DWARFAddressRange &R : Ranges) {
      // Skip discarded code (address 0 or tombstones) and anything outside
      // the text sections, as converters do.
      if (R.LowPC == 0 || R.LowPC >= R.HighPC || !inText(R.LowPC, R.HighPC))
        continue;
      ++Stats.DwarfRangesChecked;
      Expected<std::optional<uint32_t>> I = T.findFunction(R.LowPC);
      if (!I) {
        mismatch("lookup-error", hex(R.LowPC) + ": " + toString(I.takeError()));
        continue;
      }
      const char *Name = subroutineName(Die, Shared.Sup);
      if (*I && T.functionStart(**I) == R.LowPC) {
        // Found; but a record without line table there drops what DWARF
        // knows (e.g. a .cold part covered only by its symbol), unless
        // DWARF has no lines for the unit either.
        if (HasLines && !hasLineTable(**I))
          mismatch("symbol-only",
                   "DWARF subprogram " + Twine(Name ? Name : "<unnamed>") +
                       " range [" + hex(R.LowPC) + ", " + hex(R.HighPC) +
                       ") has only a symbol-table entry in " + T.kind());
        continue;
      }
      mismatch("not-in-gsym",
               "DWARF subprogram " + Twine(Name ? Name : "<unnamed>") +
                   " range [" + hex(R.LowPC) + ", " + hex(R.HighPC) +
                   ") starts no " + T.kind() + " function");
    }
  });
}

Expected<TableVerifyStats> verifyTable(const VerifiableTable &Table,
                                       const ObjectFile &Obj,
                                       DWARFContext &DICtx, WarningLog &Log,
                                       const TableVerifyOptions &Opts) {
  // Serial part: everything DWARFContext and DWARFUnit build lazily and
  // without locks (DIE arrays, each unit's address-to-DIE map, aranges,
  // line tables) is built here, so that the workers only read.
  const std::clock_t Start = std::clock();
  SharedDwarf Shared;
  // A relocatable object's sections all start at 0: the converter's layout
  // places them (and DICtx was made with it, see verifyTableAgainst).
  DenseMap<uint64_t, uint64_t> SectionStart;
  if (Obj.isRelocatableObject()) {
    Shared.Placed = relocatableLayout(Obj);
    for (const PlacedSection &P : Shared.Placed) {
      SectionStart[P.Index] = P.Start;
      Shared.TextRanges.push_back({P.Start, P.Start + P.Size});
    }
  } else {
    for (const SectionRef &S : Obj.sections())
      if (S.isText() && S.getSize() > 0)
        Shared.TextRanges.push_back(
            {S.getAddress(), S.getAddress() + S.getSize()});
  }
  auto AddSymbols = [&](auto Symbols) {
    for (const object::SymbolRef &Sym : Symbols) {
      Expected<uint64_t> Addr = Sym.getAddress();
      Expected<StringRef> Name = Sym.getName();
      if (Addr && !SectionStart.empty()) {
        Expected<object::section_iterator> Sec = Sym.getSection();
        if (Sec && *Sec != Obj.section_end())
          *Addr += SectionStart.lookup((*Sec)->getIndex());
        if (!Sec)
          consumeError(Sec.takeError());
      }
      if (Addr && Name && !Name->empty() && isDenseKey(*Addr))
        Shared.SymbolsAt[*Addr].push_back(*Name);
      if (!Addr)
        consumeError(Addr.takeError());
      if (!Name)
        consumeError(Name.takeError());
    }
  };
  AddSymbols(Obj.symbols());
  if (const auto *ELF = dyn_cast<object::ELFObjectFileBase>(&Obj))
    AddSymbols(ELF->getDynamicSymbolIterators());
  std::unique_ptr<SupplementaryDwarf> Sup =
      SupplementaryDwarf::openReporting(Obj, Obj.getFileName(), Log, "");
  Shared.Sup = Sup.get();
  std::vector<DWARFUnit *> Units;
  for (const std::unique_ptr<DWARFUnit> &U : DICtx.compile_units()) {
    // A unit whose own DIE cannot be read (a bad abbreviation offset) has
    // nothing to compare, and LLVM's address-to-DIE map dereferences it.
    if (!U->getUnitDIE(/*ExtractUnitDIEOnly=*/true)) {
      Log.report("unreadable-unit", "DWARF unit at 0x" +
                                        Twine::utohexstr(U->getOffset()) +
                                        " has no readable unit DIE: skipped");
      Shared.NoDies.insert(U.get());
      continue;
    }
    Units.push_back(U.get());
  }
  // With split DWARF the subprograms are in the .dwo files' units; those
  // are loaded here, one at a time (neither the loader nor the contexts
  // LLVM makes for them are thread-safe).
  // The oracle reads them as DWARFContext does (its inlined chains and the
  // cross-check use the .dwo LLVM loads for the skeleton), but LLVM reports
  // a damaged .dwo on stderr without naming it: each is read here first,
  // and one with problems is left out like a missing one.
  std::vector<DWARFUnit *> DieUnits(Units);
  {
    SplitDwarfLoader Dwo(Obj.getFileName(), Opts.Package);
    for (size_t I = 0; I < Units.size(); ++I) {
      Expected<DWARFUnit *> F = Dwo.fullUnit(*Units[I], /*ExtractAll=*/true);
      if (!F) {
        Log.report("missing-dwo", toString(F.takeError()));
        Shared.NoDies.insert(Units[I]);
        continue;
      }
      std::optional<SplitDwarfLoader::Source> Src = Dwo.sourceOf(**F);
      if (!Src)
        continue; // not a skeleton
      if (Src->Problems) {
        Log.report("missing-dwo", "'" + Src->Path +
                                      "': " + Twine(Src->Problems) +
                                      " problem(s) reading it: skipped");
        Shared.NoDies.insert(Units[I]);
        continue;
      }
      DWARFDie Full = Units[I]->getNonSkeletonUnitDIE(
          /*ExtractUnitDIEOnly=*/false, Src->Path);
      if (Full && Full.getDwarfUnit() != Units[I]) {
        DieUnits[I] = Full.getDwarfUnit();
      } else {
        Log.report("missing-dwo", "'" + Src->Path +
                                      "': LLVM's DWARF reader does not "
                                      "find the unit there");
        Shared.NoDies.insert(Units[I]);
      }
    }
  }
  unsigned Threads = Opts.NumThreads
                         ? Opts.NumThreads
                         : hardware_concurrency().compute_thread_count();
  // Each unit's DIE array and address-to-DIE map belong to that unit alone
  // (a thread-safe context locks its line-table cache), so units load in
  // parallel; the workers below then only read.
  for (DWARFUnit *U : Units)
    if (Error E = checkLineTableHeader(*U)) {
      Log.report("bad-line-table",
                 toString(std::move(E)) + "; compared without lines");
      Shared.NoLines.insert(U);
    }
  std::vector<const DWARFDebugLine::LineTable *> Tables(Units.size());
  auto LoadUnit = [&](size_t I) {
    // Extracts DIEs and builds the address-to-DIE map (of the skeleton and
    // of its .dwo unit, which the inlined chain then reads).
    Units[I]->getSubroutineForAddress(0);
    if (DieUnits[I] != Units[I])
      DieUnits[I]->getSubroutineForAddress(0);
    if (!Shared.NoLines.contains(Units[I]))
      Tables[I] = DICtx.getLineTableForUnit(Units[I]);
  };
  if (Threads > 1) { // DICtx is thread-safe then (see the header)
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    for (size_t I = 0; I < Units.size(); ++I)
      Pool.async(LoadUnit, I);
    Pool.wait();
  } else {
    for (size_t I = 0; I < Units.size(); ++I)
      LoadUnit(I);
  }
  for (size_t I = 0; I < Units.size(); ++I)
    Shared.LineTables[Units[I]] = Tables[I];
  Shared.Units = DieUnits;
  DICtx.getCompileUnitForCodeAddress(0); // builds the aranges
  const std::clock_t Loaded = std::clock();

  // Parallel part: functions in chunks, then units; each chunk has its own
  // log and counts, merged in chunk order so that the report does not depend
  // on the thread count.
  const uint32_t N = Table.numFunctions();
  const size_t FuncChunks =
      Threads > 1 ? std::min<size_t>(N, size_t(Threads) * 32) : (N ? 1 : 0);
  const size_t UnitChunks =
      Threads > 1 ? std::min<size_t>(Units.size(), size_t(Threads) * 8)
                  : (Units.empty() ? 0 : 1);
  struct Result {
    WarningLog Log;
    TableVerifyStats Stats;
  };
  std::vector<Result> Results(FuncChunks + UnitChunks);
  std::atomic<uint64_t> Done{0};
  std::mutex ProgressMutex;
  auto RunFunctions = [&](size_t K) {
    Result &R = Results[K];
    Checker C(Table, Shared, DICtx, R.Log, R.Stats);
    const uint32_t Begin = uint64_t(N) * K / FuncChunks;
    const uint32_t End = uint64_t(N) * (K + 1) / FuncChunks;
    for (uint32_t I = Begin; I < End; ++I)
      C.checkFunction(I);
    uint64_t D = Done += End - Begin;
    if (Opts.Progress) {
      std::lock_guard<std::mutex> Lock(ProgressMutex);
      Opts.Progress(D, N);
    }
  };
  auto RunUnits = [&](size_t K) {
    Result &R = Results[FuncChunks + K];
    Checker C(Table, Shared, DICtx, R.Log, R.Stats);
    const size_t Begin = Units.size() * K / UnitChunks;
    const size_t End = Units.size() * (K + 1) / UnitChunks;
    for (size_t I = Begin; I < End; ++I)
      C.checkDwarfSubprograms(*DieUnits[I],
                              Shared.LineTables.lookup(Units[I]) != nullptr);
  };
  if (Threads <= 1) {
    for (size_t K = 0; K < FuncChunks; ++K)
      RunFunctions(K);
    for (size_t K = 0; K < UnitChunks; ++K)
      RunUnits(K);
  } else {
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    for (size_t K = 0; K < FuncChunks; ++K)
      Pool.async(RunFunctions, K);
    for (size_t K = 0; K < UnitChunks; ++K)
      Pool.async(RunUnits, K);
    Pool.wait();
  }

  TableVerifyStats Stats;
  // A table made from another build would mismatch everywhere; say why.
  object::BuildIDRef BuildID = object::getBuildID(&Obj);
  ArrayRef<uint8_t> UUID = Table.uuid();
  if (!BuildID.empty() && !UUID.empty() && UUID != BuildID) {
    ++Stats.Mismatches;
    Log.report("uuid", Table.kind() + " UUID " + toHex(UUID, true) +
                           " is not the build-id " + toHex(BuildID, true) +
                           " of the binary");
  }
  if (std::optional<ArrayRef<LoadSegment>> Segs = Table.loadSegments()) {
    Expected<std::vector<LoadSegment>> Want = readLoadSegments(Obj);
    if (!Want)
      return Want.takeError();
    auto Text = [](const LoadSegment &S) {
      return "file [0x" + utohexstr(S.FileOffset, true) + ", 0x" +
             utohexstr(S.FileOffset + S.FileSize, true) + ") at 0x" +
             utohexstr(S.Address, true);
    };
    if (Segs->size() != Want->size()) {
      ++Stats.Mismatches;
      Log.report("segments",
                 Table.kind() + " table has " + Twine(Segs->size()) +
                     " load segments, the binary " + Twine(Want->size()));
    } else {
      for (size_t I = 0; I < Segs->size(); ++I)
        if ((*Segs)[I] != (*Want)[I]) {
          ++Stats.Mismatches;
          Log.report("segments", "load segment " + Twine(I) + ": " +
                                     Table.kind() + " " + Text((*Segs)[I]) +
                                     "; binary " + Text((*Want)[I]));
        }
    }
  }
  for (Result &R : Results) {
    Log.merge(R.Log);
    Stats.FunctionsChecked += R.Stats.FunctionsChecked;
    Stats.SymbolOnlyFunctions += R.Stats.SymbolOnlyFunctions;
    Stats.AddressesChecked += R.Stats.AddressesChecked;
    Stats.DwarfRangesChecked += R.Stats.DwarfRangesChecked;
    Stats.Mismatches += R.Stats.Mismatches;
    Stats.FoldedAddresses += R.Stats.FoldedAddresses;
  }
  Stats.LoadSeconds = double(Loaded - Start) / CLOCKS_PER_SEC;
  Stats.CompareSeconds = double(std::clock() - Loaded) / CLOCKS_PER_SEC;
  return Stats;
}

Expected<TableVerifyStats> verifyTableBuffer(MemoryBufferRef TableBytes,
                                             MemoryBufferRef ObjectBytes,
                                             WarningLog &Log,
                                             const TableVerifyOptions &Opts) {
  StringRef TablePath = TableBytes.getBufferIdentifier();
  StringRef ObjectPath = ObjectBytes.getBufferIdentifier();
  // The readers take ownership of a buffer: lend them a view.
  std::unique_ptr<MemoryBuffer> Buf =
      MemoryBuffer::getMemBuffer(TableBytes, /*RequiresNullTerminator=*/false);
  // Either reader; the view of the one that opened the file.
  std::unique_ptr<gsym::GsymReader> Gsym;
  std::unique_ptr<compact::CompactReader> Compact;
  std::unique_ptr<VerifiableTable> Table;
  const FileFormat *Format = identifyFormat(Buf->getBuffer());
  auto Is = [&](FileFormat::Kind K) { return Format && Format->ID == K; };
  if (!Is(FileFormat::Kind::CompactAddressTable) && !Is(FileFormat::Kind::Gsym))
    return createFileError(
        TablePath,
        createStringError(inconvertibleErrorCode(),
                          "not an address table (neither a compact table "
                          "nor GSYM)"));
  if (Is(FileFormat::Kind::CompactAddressTable)) {
    auto R = compact::CompactReader::create(std::move(Buf));
    if (!R)
      return createFileError(TablePath, R.takeError());
    Compact = std::move(*R);
    auto T = makeCompactTable(*Compact);
    if (!T)
      return createFileError(TablePath, T.takeError());
    Table = std::move(*T);
  } else {
    auto R = gsym::GsymReader::create(std::move(Buf));
    if (!R)
      return createFileError(TablePath, R.takeError());
    Gsym = std::move(*R);
    Table = makeGsymTable(*Gsym);
  }
  // Opened as every command opens an object, so that the same files are
  // refused with the same messages; the comparison then reads its DWARF
  // with LLVM's reader, independently of ours. dwz's file is the
  // verifier's own business.
  input::OpenOptions Open;
  Open.Supplementary = false;
  WarningLog OpenLog;
  Expected<std::unique_ptr<input::InputObject>> In =
      input::InputObject::open(ObjectBytes, OpenLog, Open);
  if (!In)
    return In.takeError();
  Expected<TableVerifyStats> S =
      verifyTableAgainst(*Table, (*In)->object(), Log, Opts);
  if (!S)
    return createFileError(ObjectPath, S.takeError());
  return S;
}

Expected<TableVerifyStats> verifyTableAgainst(const VerifiableTable &Table,
                                              const ObjectFile &Object,
                                              WarningLog &Log,
                                              const TableVerifyOptions &Opts) {
  const ObjectFile *Obj = &Object;
  if (Error E = checkElfTables(*Obj))
    return std::move(E);
  if (Error E = checkDebugSectionsReadable(*Obj))
    return std::move(E);
  // DWARF problems are the converter's business; the verifier only compares
  // answers, so it drops DWARFContext's own diagnostics.
  // A relocatable object's relocations resolve to the converter's layout
  // (with all sections at 0, LLVM could not tell their code apart).
  std::unique_ptr<LoadedObjectInfo> Layout;
  std::unique_ptr<MemoryBuffer> Hidden;
  std::unique_ptr<ObjectFile> HiddenObj;
  if (Obj->isRelocatableObject()) {
    if ((Hidden = withoutAranges(*Obj))) {
      Expected<std::unique_ptr<ObjectFile>> O =
          ObjectFile::createObjectFile(Hidden->getMemBufferRef());
      if (!O)
        return O.takeError();
      HiddenObj = std::move(*O);
      Obj = HiddenObj.get();
    }
    Layout = relocatableLoadInfo(*Obj);
  }
  std::unique_ptr<DWARFContext> Ctx = DWARFContext::create(
      *Obj, DWARFContext::ProcessDebugRelocations::Process, Layout.get(), "",
      [](Error E) { consumeError(std::move(E)); },
      [](Error E) { consumeError(std::move(E)); },
      /*ThreadSafe=*/Opts.NumThreads != 1);
  if (Error E = checkDieExtents(*Ctx, Opts.NumThreads))
    return std::move(E);
  return verifyTable(Table, *Obj, *Ctx, Log, Opts);
}

} // namespace verify
} // namespace dwarfpack
