//===- FunctionVisitor.cpp - A unit's functions, lines and inline trees ---===//
//
// Per unit: parse its line table once, turn every DW_TAG_subprogram with
// code into FunctionEntry records (one per address range) with line rows
// and inline trees, and collect the rows of code no subprogram describes.
// The rules (which row starts a function, how names are found, which
// ranges are dropped) are documented in docs/UserGuide.md under
// "dwarfpack gsym".
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/LineTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"

using namespace llvm;
using namespace dwarfpack::input;

namespace dwarfpack {

namespace {

std::string hex(uint64_t V) { return "0x" + utohexstr(V); }

/// Sorts Ranges and merges overlapping and touching ones.
void sortAndMerge(std::vector<AddressRange> &Ranges) {
  llvm::sort(Ranges);
  std::vector<AddressRange> Merged;
  for (const AddressRange &R : Ranges) {
    if (!Merged.empty() && R.Start <= Merged.back().End)
      Merged.back().End = std::max(Merged.back().End, R.End);
    else
      Merged.push_back(R);
  }
  Ranges = std::move(Merged);
}

/// The attributes of a subprogram or inlined subroutine the converter
/// reads, decoded in one pass.
struct DieAttrs {
  std::optional<FormValue> Name, LinkageName, AbstractOrigin, Specification,
      CallFile, CallLine, CallColumn, Discriminator, DeclFile, DeclLine, LowPC,
      HighPC, Ranges;
};

const AttrSet &wantedAttrs() {
  static const AttrSet Set = {dwarf::DW_AT_name,
                              dwarf::DW_AT_linkage_name,
                              dwarf::DW_AT_MIPS_linkage_name,
                              dwarf::DW_AT_abstract_origin,
                              dwarf::DW_AT_specification,
                              dwarf::DW_AT_call_file,
                              dwarf::DW_AT_call_line,
                              dwarf::DW_AT_call_column,
                              dwarf::DW_AT_GNU_discriminator,
                              dwarf::DW_AT_decl_file,
                              dwarf::DW_AT_decl_line,
                              dwarf::DW_AT_low_pc,
                              dwarf::DW_AT_high_pc,
                              dwarf::DW_AT_ranges};
  return Set;
}

DieAttrs readAttrs(const Die &D) {
  SmallVector<std::pair<dwarf::Attribute, FormValue>, 12> All;
  D.getDwarfUnit()->readAttrs(D.index(), wantedAttrs(), All);
  DieAttrs A;
  for (const auto &[Attr, V] : All) {
    switch (Attr) {
    case dwarf::DW_AT_name:
      A.Name = V;
      break;
    case dwarf::DW_AT_linkage_name:
    case dwarf::DW_AT_MIPS_linkage_name:
      A.LinkageName = V;
      break;
    case dwarf::DW_AT_abstract_origin:
      A.AbstractOrigin = V;
      break;
    case dwarf::DW_AT_specification:
      A.Specification = V;
      break;
    case dwarf::DW_AT_call_file:
      A.CallFile = V;
      break;
    case dwarf::DW_AT_call_line:
      A.CallLine = V;
      break;
    case dwarf::DW_AT_call_column:
      A.CallColumn = V;
      break;
    case dwarf::DW_AT_GNU_discriminator:
      A.Discriminator = V;
      break;
    case dwarf::DW_AT_decl_file:
      A.DeclFile = V;
      break;
    case dwarf::DW_AT_decl_line:
      A.DeclLine = V;
      break;
    case dwarf::DW_AT_low_pc:
      A.LowPC = V;
      break;
    case dwarf::DW_AT_high_pc:
      A.HighPC = V;
      break;
    case dwarf::DW_AT_ranges:
      A.Ranges = V;
      break;
    default:
      break;
    }
  }
  return A;
}

/// The model file of file Index of a line table: its path split at the
/// last '/', unless the table names the file by an absolute path, which
/// stays whole (FileEntry). None when the table has no such file.
std::optional<FileId> lineFile(FunctionModel &M, const LineTable &T,
                               uint64_t Index, StringRef CompDir) {
  std::string Path;
  bool Whole = false;
  if (!T.filePath(Index, CompDir, Path, &Whole))
    return std::nullopt;
  return Whole ? M.addFile(StringRef(), Path) : M.addFilePath(Path);
}

/// What a unit gives the model.
struct UnitFunctions : UnitResult {
  std::vector<FunctionEntry> Functions;
  /// Line rows of code without a subprogram (FunctionModel::LineOnlyCode).
  std::vector<FunctionEntry> LineOnly;
};

/// A worker's line table, decoded unit after unit into the same memory.
LineTable &threadLineTable() {
  static thread_local LineTable T;
  return T;
}

/// Converts one compile unit.
class UnitConverter {
public:
  /// Skel holds the line table; U, the DIEs: the same unit, or with split
  /// DWARF the skeleton and the full unit of its .dwo file. Exec: the
  /// object's executable ranges, sorted.
  UnitConverter(const Unit &Skel, const Unit &U, FunctionModel &M,
                ArrayRef<AddressRange> Exec, bool Relocatable, WarningLog &Log)
      : Skel(Skel), U(U), M(M), Exec(Exec), Relocatable(Relocatable), Log(Log) {
  }

  void run(UnitFunctions &R) {
    Die CUDie = U.getUnitDIE();
    if (!CUDie)
      return;
    if (Die SkelDie = Skel.getUnitDIE())
      if (auto Dir = SkelDie.find(dwarf::DW_AT_comp_dir))
        if (const char *S = Dir->cstr())
          CompDir = S;
    parseLineTable();
    // Declarations and abstract instances (no low_pc, no ranges) are most
    // subprogram DIEs; an abbreviation without either tells, without
    // decoding the DIE.
    for (uint32_t I = 0, E = U.numDies(); I < E; ++I) {
      Die D(&U, I);
      if (D.getTag() == dwarf::DW_TAG_subprogram && mayHaveCode(D))
        convertSubprogram(D);
    }
    collectUncoveredLines();
    R.Functions = std::move(Out);
    R.LineOnly = std::move(LineOnly);
  }

private:
  void warn(StringRef Kind, const Twine &Msg) {
    Log.report(Kind, Msg + " (unit at " + hex(Skel.getOffset()) + ")");
  }
  void note(StringRef Kind, const Twine &Msg) {
    Log.note(Kind, Msg + " (unit at " + hex(Skel.getOffset()) + ")");
  }

  static bool mayHaveCode(const Die &D) {
    return D.hasAttribute(dwarf::DW_AT_low_pc) ||
           D.hasAttribute(dwarf::DW_AT_ranges);
  }

  void parseLineTable() {
    Die CUDie = Skel.getUnitDIE();
    std::optional<FormValue> StmtList =
        CUDie ? CUDie.find(dwarf::DW_AT_stmt_list) : std::nullopt;
    std::optional<uint64_t> Off =
        StmtList ? StmtList->getAsSectionOffset() : std::nullopt;
    if (!Off)
      return;
    LineSections S = lineSections(Skel);
    if (*Off >= S.Line.size()) {
      warn("bad-line-table",
           "DW_AT_stmt_list " + hex(*Off) + " is past the end of .debug_line");
      return;
    }
    LineTable &T = threadLineTable();
    Error E = T.decode(S, *Off, [&](Error Err) {
      warn("bad-line-table", toString(std::move(Err)));
    });
    if (E) {
      if (E.isA<UnsupportedLineHeader>())
        warn("bad-line-table", toString(std::move(E)) + "; line table ignored");
      else
        warn("bad-line-table", toString(std::move(E)));
      return;
    }
    LT = &T;
  }

  /// The model file for a DWARF file index of this unit's line table.
  std::optional<FileId> file(uint64_t Index) {
    if (!LT)
      return std::nullopt;
    if (Index < FileCache.size() && FileCache[Index] >= 0)
      return FileId(FileCache[Index]);
    if (Index < FileCache.size() && FileCache[Index] == -2)
      return std::nullopt;
    if (Index > (1u << 24) || !LT->hasFile(Index))
      return std::nullopt;
    std::optional<FileId> Found = lineFile(M, *LT, Index, CompDir);
    if (!Found)
      return std::nullopt;
    FileId Id = *Found;
    if (Index >= FileCache.size())
      FileCache.resize(Index + 1, -1);
    FileCache[Index] = Id;
    return Id;
  }

  StringRef cstr(const std::optional<FormValue> &V) {
    if (!V)
      return StringRef();
    Expected<const char *> S = V->getAsCString();
    if (!S) {
      warn("bad-string", toString(S.takeError()));
      return StringRef();
    }
    return *S ? StringRef(*S) : StringRef();
  }

  /// What a subprogram or inlined subroutine is called: the name lookups
  /// print by default (the linkage name found through
  /// DW_AT_abstract_origin / DW_AT_specification, else the bare
  /// DW_AT_name found the same way, as llvm-symbolizer prints it) and the
  /// DW_AT_name alone (--functions=short).
  struct DieNames {
    StringRef Name, Short;
  };

  /// The names of D, whose attributes are A. Names are cached per DIE, so
  /// the many inlined copies of one function resolve their shared origin
  /// once.
  const DieNames &namesOf(const Die &D, const DieAttrs &A) {
    const std::optional<FormValue> &Ref =
        A.AbstractOrigin ? A.AbstractOrigin : A.Specification;
    if (Ref && !(A.AbstractOrigin && A.Specification) && !A.Name &&
        !A.LinkageName) {
      Die Target = D.getAttributeValueAsReferencedDie(*Ref);
      if (Target && Target != D)
        return namesOf(Target);
    }
    return namesOf(D);
  }

  const DieNames &namesOf(const Die &D) {
    auto Key =
        std::make_pair(static_cast<const void *>(D.getDwarfUnit()), D.index());
    auto It = NameCache.find(Key);
    if (It != NameCache.end())
      return It->second;
    DieNames Result = computeNames(D);
    return NameCache[Key] = Result;
  }

  /// The walk of DWARFDie::findRecursively (depth first, a DIE's
  /// specification before its abstract origin, each DIE once), finding
  /// the first linkage name and the first DW_AT_name on the way.
  DieNames computeNames(const Die &Start) {
    constexpr unsigned MaxChain = 16;
    SmallVector<Die, 4> Work{Start};
    SmallVector<Die, 8> Seen{Start};
    StringRef Linkage, Short;
    bool HasShort = false;
    unsigned Steps = 0;
    while (!Work.empty() && (Linkage.empty() || !HasShort)) {
      Die D = Work.pop_back_val();
      if (++Steps > MaxChain) {
        warn("reference-chain-too-long",
             "DW_AT_abstract_origin/specification chain from DIE " +
                 hex(Start.getOffset()) + " is longer than " + Twine(MaxChain));
        break;
      }
      DieAttrs A = readAttrs(D);
      if (Linkage.empty())
        Linkage = cstr(A.LinkageName);
      if (!HasShort && A.Name) {
        Short = cstr(A.Name);
        HasShort = true;
      }
      for (const auto &Ref : {A.AbstractOrigin, A.Specification}) {
        if (!Ref)
          continue;
        Die Next = D.getAttributeValueAsReferencedDie(*Ref);
        if (!Next) {
          warn("bad-reference", "DIE " + hex(D.getOffset()) +
                                    " refers to a DIE that does not exist");
          continue;
        }
        if (llvm::is_contained(Seen, Next)) {
          warn("cyclic-reference",
               "DW_AT_abstract_origin/specification of DIE " +
                   hex(D.getOffset()) + " leads back to DIE " +
                   hex(Next.getOffset()));
          continue;
        }
        Seen.push_back(Next);
        Work.push_back(Next);
      }
    }
    DieNames N;
    N.Short = Short.empty() ? StringRef() : M.saveString(Short);
    N.Name = Linkage.empty() ? N.Short : M.saveString(Linkage);
    return N;
  }

  bool inExec(AddressRange R) const {
    auto It =
        llvm::upper_bound(Exec, R.Start, [](uint64_t A, const AddressRange &X) {
          return A < X.Start;
        });
    return It != Exec.begin() && std::prev(It)->contains(R);
  }

  /// Checks one DWARF range. Malformed ones are counted and skipped; the
  /// function's other ranges are kept.
  std::optional<AddressRange> mapRange(const DieRange &R, const Die &D,
                                       StringRef What) {
    uint64_t Tomb = dwarf::computeTombstoneAddress(U.getAddressByteSize());
    if (R.LowPC == Tomb || R.LowPC == Tomb - 1 ||
        (!Relocatable && R.LowPC == 0)) {
      // Normal in every linked program (COMDAT copies, --gc-sections):
      // counted for --stats, not a warning.
      note("discarded-code", What + " of DIE " + hex(D.getOffset()) +
                                 " was discarded by the linker (low_pc " +
                                 hex(R.LowPC) + ")");
      return std::nullopt;
    }
    if (R.HighPC <= R.LowPC) {
      warn("empty-range", What + " of DIE " + hex(D.getOffset()) +
                              " is empty or reversed: [" + hex(R.LowPC) + ", " +
                              hex(R.HighPC) + ")");
      return std::nullopt;
    }
    bool Placed = R.P == Placement::Linked || R.P == Placement::Executable;
    AddressRange Mapped{R.LowPC, R.HighPC};
    if (Placed && inExec(Mapped))
      return Mapped;
    warn("range-outside-text",
         What + " of DIE " + hex(D.getOffset()) + " [" + hex(R.LowPC) + ", " +
             hex(R.HighPC) +
             (R.P == Placement::None
                  ? ") has no relocation that places it in a section"
                  : ") is not inside an executable section"));
    return std::nullopt;
  }

  void convertSubprogram(const Die &D) {
    DieAttrs A = readAttrs(D);
    if (!A.LowPC && !A.Ranges)
      return; // a declaration or an abstract instance: no code
    Expected<SmallVector<DieRange, 2>> RangesOrErr =
        U.rangesFrom(A.LowPC, A.HighPC, A.Ranges);
    if (!RangesOrErr) {
      warn("bad-ranges", "DIE " + hex(D.getOffset()) + ": " +
                             toString(RangesOrErr.takeError()));
      return;
    }
    StringRef Name, Short;
    bool Named = false;
    // llvm-symbolizer's StartAddress with --functions=short|none.
    std::optional<uint64_t> LowPC = placedLowPC(A);
    for (const DieRange &R : *RangesOrErr) {
      std::optional<AddressRange> Range = mapRange(R, D, "range");
      if (!Range)
        continue;
      if (!Named) {
        const DieNames &N = namesOf(D, A);
        Name = N.Name;
        Short = N.Short;
        Named = true;
      }
      FunctionEntry F;
      F.Range = *Range;
      F.Name = Name;
      F.FromDwarf = true;
      F.DwarfName = Name;
      F.ShortName = Short;
      F.LowPC = LowPC;
      F.Decl = declarationOf(D);
      addLines(F, D, A);
      addInlineTree(F, D);
      Out.push_back(std::move(F));
    }
  }

  /// Line rows for the code at Mapped.
  void collectLines(AddressRange Mapped, StringRef What,
                    std::vector<LineEntry> &Lines) {
    RowIndexes.clear();
    if (!LT)
      return;
    findRows(Mapped.Start, Mapped.End);
    ArrayRef<LineRow> Rows = LT->rows();
    for (uint32_t Idx : RowIndexes) {
      if (Idx >= Rows.size())
        break;
      const LineRow &Row = Rows[Idx];
      if (Row.endSequence())
        continue;
      uint64_t Addr = Row.Address;
      if (Addr >= Mapped.End)
        break;
      Addr = std::max(Addr, Mapped.Start);
      std::optional<FileId> File = file(Row.File);
      if (!File) {
        warn("invalid-file-index", "line row at " + hex(Row.Address) +
                                       " names file " + Twine(Row.File) +
                                       ", which the line table does not have");
        continue;
      }
      if (!Lines.empty() && Lines.back().Address > Addr) {
        warn("unsorted-line-rows",
             "line rows of " + What + " go backwards at " + hex(Addr));
        break;
      }
      LineEntry L;
      L.Address = Addr;
      L.File = *File;
      L.Line = Row.Line;
      L.Column = Row.Column;
      L.Discriminator = Row.Discriminator;
      pushRow(Lines, L);
    }
    if (!Lines.empty()) {
      FirstRow = Lines.front().Address;
      Lines.front().Address = Mapped.Start;
    }
  }

  /// Indexes of the rows that describe [Lo, Hi): from every sequence that
  /// overlaps it, the row in effect at the start of the overlap and the
  /// rows after it. Unlike LLVM's lookupAddressRange this also finds rows
  /// when Lo itself lies before the first sequence (GCC starts the sequence
  /// of a .cold part after its first bytes).
  void findRows(uint64_t Lo, uint64_t Hi) {
    ArrayRef<LineSequence> Seqs = LT->sequences();
    ArrayRef<LineRow> Rows = LT->rows();
    // Sorted by (section, end address); the relocated sections of an
    // object file share one address space, so the section is the same.
    auto It = llvm::upper_bound(
        Seqs, std::make_pair(NoSection, Lo),
        [](const std::pair<uint64_t, uint64_t> &V, const LineSequence &S) {
          return V < std::make_pair(S.SectionIndex, S.HighPC);
        });
    for (; It != Seqs.end() && It->SectionIndex == NoSection && It->LowPC < Hi;
         ++It) {
      if (It->FirstRow >= It->EndRow || It->EndRow > Rows.size())
        continue;
      auto First = Rows.begin() + It->FirstRow;
      auto Last = Rows.begin() + It->EndRow;
      // The last row at or before Lo, else the sequence's first row.
      auto R =
          std::upper_bound(First, Last, Lo, [](uint64_t A, const LineRow &Row) {
            return A < Row.Address;
          });
      if (R != First)
        --R;
      for (; R != Last && R->Address < Hi; ++R)
        RowIndexes.push_back(uint32_t(R - Rows.begin()));
    }
  }

  void addLines(FunctionEntry &F, Die D, const DieAttrs &A) {
    collectLines(F.Range, F.Name, F.Lines);
    if (!F.Lines.empty()) {
      F.LinesFrom = FirstRow;
      return;
    }
    // llvm-symbolizer finds no line anywhere in the function.
    F.LinesFrom = F.Range.End;
    // No rows: fall back to the declaration, as llvm-gsymutil does. An
    // out-of-line definition (often a ".cold" part) carries it on the DIE
    // it specifies; without a row its inline frames would be lost too.
    std::optional<FormValue> DeclFile = A.DeclFile, DeclLine = A.DeclLine;
    for (unsigned Hops = 0; (!DeclFile || !DeclLine) && Hops < 4; ++Hops) {
      Die Decl = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
      if (!Decl)
        Decl = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
      // File numbers index this unit's line table only.
      if (!Decl || Decl.getDwarfUnit() != &U)
        break;
      D = Decl;
      DeclFile = D.find(dwarf::DW_AT_decl_file);
      DeclLine = D.find(dwarf::DW_AT_decl_line);
    }
    if (DeclFile && DeclLine) {
      std::optional<FileId> File =
          file(DeclFile->getAsUnsignedConstant().value_or(~0ULL));
      uint64_t Line = DeclLine->getAsUnsignedConstant().value_or(0);
      if (File && Line <= UINT32_MAX) {
        LineEntry Decl;
        Decl.Address = F.Range.Start;
        Decl.File = *File;
        Decl.Line = uint32_t(Line);
        F.Lines.push_back(Decl);
      }
    }
  }

  /// The code the unit says it has (DW_AT_ranges, or low and high pc),
  /// none when it does not say. A line sequence runs on over code between
  /// the unit's functions that is not the unit's (a compiler's generated
  /// function without DWARF, GNAT's for one): the row in effect there
  /// belongs to the function before, and llvm-symbolizer and GDB, which
  /// find the unit by its ranges first, give such code no line.
  std::optional<std::vector<AddressRange>> unitRanges() {
    Die CU = Skel.getUnitDIE();
    if (!CU)
      return std::nullopt;
    Expected<SmallVector<DieRange, 2>> RS = Skel.ranges(CU);
    if (!RS) {
      consumeError(RS.takeError());
      return std::nullopt;
    }
    if (RS->empty())
      return std::nullopt;
    std::vector<AddressRange> Ranges;
    uint64_t Tomb = dwarf::computeTombstoneAddress(U.getAddressByteSize());
    for (const DieRange &R : *RS) {
      if (R.HighPC <= R.LowPC || R.LowPC == Tomb || R.LowPC == Tomb - 1 ||
          (!Relocatable && R.LowPC == 0))
        continue;
      if (R.P == Placement::Linked || R.P == Placement::Executable)
        Ranges.push_back({R.LowPC, R.HighPC});
    }
    // Disjoint, so the ones ending after an address are a suffix.
    sortAndMerge(Ranges);
    return Ranges;
  }

  /// Line rows of code that no subprogram of this unit describes:
  /// assembly files, functions emitted without a DIE. finalize() hands them
  /// to the symbols that cover that code. Only code inside the unit's
  /// ranges counts.
  void collectUncoveredLines() {
    if (!LT || LT->sequences().empty())
      return;
    std::vector<AddressRange> Covered;
    Covered.reserve(Out.size());
    for (const FunctionEntry &F : Out)
      Covered.push_back(F.Range);
    llvm::sort(Covered);
    std::optional<std::vector<AddressRange>> UnitRanges = unitRanges();
    for (const LineSequence &Seq : LT->sequences()) {
      if (Seq.HighPC <= Seq.LowPC || (!Relocatable && Seq.LowPC == 0))
        continue;
      AddressRange S{Seq.LowPC, Seq.HighPC};
      if (!inExec(S))
        continue;
      uint64_t Pos = S.Start;
      auto It = llvm::lower_bound(Covered, AddressRange{S.Start, 0});
      if (It != Covered.begin())
        --It;
      auto EmitPart = [&](uint64_t From, uint64_t To) {
        FunctionEntry F;
        F.Range = {From, To};
        collectLines(F.Range, "a line sequence", F.Lines);
        if (!F.Lines.empty())
          LineOnly.push_back(std::move(F));
      };
      auto Emit = [&](uint64_t From, uint64_t To) {
        if (!UnitRanges) {
          if (From < To)
            EmitPart(From, To);
          return;
        }
        auto R = llvm::partition_point(
            *UnitRanges, [&](const AddressRange &X) { return X.End <= From; });
        for (; R != UnitRanges->end() && R->Start < To; ++R)
          if (std::max(From, R->Start) < std::min(To, R->End))
            EmitPart(std::max(From, R->Start), std::min(To, R->End));
      };
      for (; It != Covered.end() && It->Start < S.End; ++It) {
        if (It->End <= Pos)
          continue;
        Emit(Pos, std::min(It->Start, S.End));
        Pos = std::max(Pos, It->End);
      }
      Emit(Pos, S.End);
    }
  }

  /// Appends a row, keeping one row per address (the last, which lookups
  /// return) and dropping rows that repeat the previous position (file,
  /// line, column and discriminator).
  static void pushRow(std::vector<LineEntry> &Lines, LineEntry L) {
    if (!Lines.empty() && Lines.back().Address == L.Address) {
      Lines.back() = L;
      size_t N = Lines.size();
      if (N >= 2 && Lines[N - 2].sameLocation(L))
        Lines.pop_back();
      return;
    }
    if (!Lines.empty() && Lines.back().sameLocation(L))
      return;
    Lines.push_back(L);
  }

  /// What llvm-symbolizer prints of an inlined call besides its name and
  /// call file: the call's line, column and discriminator (read as
  /// DWARFDie::getCallerFrame reads them), the function's declaration and
  /// the DIE's DW_AT_low_pc (its StartAddress).
  void addCallSiteDetails(const Die &D, const DieAttrs &A, InlineNode &N) {
    auto U32 = [](const std::optional<FormValue> &V) {
      return V ? uint32_t(V->getAsUnsignedConstant().value_or(0)) : 0u;
    };
    if (A.CallLine)
      N.CallLine = uint32_t(std::min<uint64_t>(
          A.CallLine->getAsUnsignedConstant().value_or(0), UINT32_MAX));
    N.CallColumn = U32(A.CallColumn);
    N.CallDiscriminator = U32(A.Discriminator);
    N.Decl = declarationOf(D);
    N.LowPC = placedLowPC(A);
  }

  /// The DIE's DW_AT_low_pc, when it is an address in the program (the DIE
  /// may give its code as DW_AT_ranges instead).
  static std::optional<uint64_t> placedLowPC(const DieAttrs &A) {
    if (A.LowPC)
      if (std::optional<uint64_t> Low = A.LowPC->getAsAddress()) {
        Placement P = A.LowPC->placement();
        if (P == Placement::Linked || P == Placement::Executable)
          return *Low;
      }
    return std::nullopt;
  }

  /// The declaration llvm-symbolizer prints for a subprogram or inlined
  /// call D (StartFileName, StartLine): DW_AT_decl_file and DW_AT_decl_line
  /// found on D or through DW_AT_abstract_origin / DW_AT_specification, as
  /// DWARFDie::getDeclFile and getDeclLine find them.
  Declaration declarationOf(const Die &D) {
    Declaration Decl;
    if (std::optional<FormValue> V = D.findRecursively(dwarf::DW_AT_decl_line))
      Decl.Line = uint32_t(V->getAsUnsignedConstant().value_or(0));
    if (std::optional<FormValue> V = D.findRecursively(dwarf::DW_AT_decl_file))
      Decl.File = declFile(*V);
    return Decl;
  }

  /// The file of a DW_AT_decl_file value, an index into the line table of
  /// the unit that holds the value. A DW_FORM_implicit_const value (GCC
  /// uses it for the unit's main file) carries no unit in LLVM 19, whose
  /// getDeclFile then gives nothing: llvm-symbolizer prints no
  /// StartFileName, and we record none.
  FileId declFile(const FormValue &V) {
    switch (V.getForm()) {
    case dwarf::DW_FORM_data1:
    case dwarf::DW_FORM_data2:
    case dwarf::DW_FORM_data4:
    case dwarf::DW_FORM_data8:
    case dwarf::DW_FORM_udata:
    case dwarf::DW_FORM_sdata:
      break;
    default:
      return 0;
    }
    std::optional<uint64_t> Index = V.getAsUnsignedConstant();
    if (!Index)
      return 0;
    const Unit *Owner = V.unit();
    if (Owner == &U || Owner == &Skel)
      return file(*Index).value_or(0);
    return fileOfOtherUnit(*Owner, *Index);
  }

  /// File Index of the line table of another compile unit of this file (a
  /// declaration that a DW_FORM_ref_addr reached). LLVM finds none for a
  /// unit of another file (dwz's, a .dwo).
  FileId fileOfOtherUnit(const Unit &Owner, uint64_t Index) {
    auto [It, New] = OtherFiles.try_emplace({&Owner, Index}, 0);
    if (!New)
      return It->second;
    if (&Owner.file() != &Skel.file() || Owner.file().isDwo())
      return 0;
    auto [T, Fresh] = OtherTables.try_emplace(&Owner);
    if (Fresh) {
      Die CU = Owner.getUnitDIE();
      std::optional<FormValue> StmtList =
          CU ? CU.find(dwarf::DW_AT_stmt_list) : std::nullopt;
      std::optional<uint64_t> Off =
          StmtList ? StmtList->getAsSectionOffset() : std::nullopt;
      auto Table = std::make_unique<LineTable>();
      if (Off && !Table->decode(lineSections(Owner), *Off,
                                [](Error E) { consumeError(std::move(E)); }))
        T->second.Table = std::move(Table);
      if (std::optional<FormValue> Dir =
              CU ? CU.find(dwarf::DW_AT_comp_dir) : std::nullopt)
        if (const char *S = Dir->cstr())
          T->second.CompDir = S;
    }
    const LineTable *Other = T->second.Table.get();
    if (Other && Other->hasFile(Index))
      if (std::optional<FileId> Id =
              lineFile(M, *Other, Index, T->second.CompDir))
        It->second = *Id;
    return It->second;
  }

  void addInlineTree(FunctionEntry &F, const Die &D) {
    if (!D.hasChildren())
      return;
    InlineNode Root;
    Root.Ranges.push_back(F.Range);
    Root.Name = F.Name;
    Root.ShortName = F.ShortName;
    Root.Decl = F.Decl;
    for (Die C = D.getFirstChild(); C; C = C.getSibling())
      walkInline(C, Root, F.Range, 0);
    if (!Root.Children.empty())
      F.Inline = std::move(Root);
  }

  /// Adds the inlined calls under D to Parent. Ranges are clipped to the
  /// function's range Bound; a node's ranges also take in its children's,
  /// because llvm-symbolizer builds the chain from DIE nesting, and GCC
  /// sometimes gives a child code outside its parent's own ranges.
  void walkInline(const Die &D, InlineNode &Parent, AddressRange Bound,
                  unsigned Depth) {
    if (Depth > 256) {
      warn("inline-too-deep", "inline tree under DIE " + hex(D.getOffset()) +
                                  " is deeper than 256 levels");
      return;
    }
    dwarf::Tag T = D.getTag();
    if (T == dwarf::DW_TAG_subprogram)
      return; // a nested function is an entry of its own
    if (T != dwarf::DW_TAG_inlined_subroutine) {
      // Lexical blocks and the like: look through them.
      if (D.hasChildren())
        for (Die C = D.getFirstChild(); C; C = C.getSibling())
          walkInline(C, Parent, Bound, Depth + 1);
      return;
    }
    DieAttrs A = readAttrs(D);
    Expected<SmallVector<DieRange, 2>> RangesOrErr =
        U.rangesFrom(A.LowPC, A.HighPC, A.Ranges);
    if (!RangesOrErr) {
      warn("bad-ranges", "DIE " + hex(D.getOffset()) + ": " +
                             toString(RangesOrErr.takeError()));
      return;
    }
    InlineNode N;
    for (const DieRange &R : *RangesOrErr) {
      if (R.HighPC <= R.LowPC || R.P == Placement::None ||
          R.P == Placement::OtherSection)
        continue;
      AddressRange X{std::max(Bound.Start, R.LowPC),
                     std::min(Bound.End, R.HighPC)};
      if (X.Start < X.End)
        N.Ranges.push_back(X);
    }
    if (A.CallFile) {
      std::optional<FileId> File =
          file(A.CallFile->getAsUnsignedConstant().value_or(~0ULL));
      if (!File) {
        warn("invalid-file-index",
             "DW_AT_call_file of inlined subroutine " + hex(D.getOffset()) +
                 " names a file the line table does not have; call dropped");
        return;
      }
      N.CallFile = *File;
    } else if (std::optional<FileId> File = file(0)) {
      // No DW_AT_call_file (DWARF 2 has none): file 0, as LLVM reads it,
      // which DWARF 5 counts as the unit's primary file; before, no file.
      N.CallFile = *File;
    }
    addCallSiteDetails(D, A, N);
    const DieNames &Names = namesOf(D, A);
    N.Name = Names.Name.empty() ? StringRef("??") : Names.Name;
    N.ShortName = Names.Short;
    if (D.hasChildren())
      for (Die C = D.getFirstChild(); C; C = C.getSibling())
        walkInline(C, N, Bound, Depth + 1);
    for (const InlineNode &C : N.Children)
      N.Ranges.insert(N.Ranges.end(), C.Ranges.begin(), C.Ranges.end());
    if (N.Ranges.empty())
      return; // in another range of the function, or empty
    // As LLVM's AddressRanges keeps them.
    sortAndMerge(N.Ranges);
    Parent.Children.push_back(std::move(N));
  }

  const Unit &Skel;
  const Unit &U;
  FunctionModel &M;
  ArrayRef<AddressRange> Exec;
  bool Relocatable;
  WarningLog &Log;
  std::vector<FunctionEntry> Out, LineOnly;
  const LineTable *LT = nullptr;
  std::vector<int64_t> FileCache; // -1 unknown, -2 invalid
  DenseMap<std::pair<const void *, uint32_t>, DieNames> NameCache;
  /// Other units' line tables, for declarations a reference reached.
  struct OtherTable {
    std::unique_ptr<LineTable> Table;
    std::string CompDir;
  };
  DenseMap<const Unit *, OtherTable> OtherTables;
  DenseMap<std::pair<const Unit *, uint64_t>, FileId> OtherFiles;
  std::string CompDir;
  std::vector<uint32_t> RowIndexes;
  /// Address of the first row collectLines found, before it was moved to
  /// the start of the range.
  uint64_t FirstRow = 0;
};

} // namespace

FunctionVisitor::FunctionVisitor(const InputObject &Obj, FunctionModel &M)
    : Obj(Obj), M(M), Exec(M.ExecutableRanges) {}

std::unique_ptr<UnitResult> FunctionVisitor::visit(const UnitContext &C) {
  auto R = std::make_unique<UnitFunctions>();
  const Unit *Full = C.Full;
  if (!Full) {
    // A .dwo that cannot be read leaves the skeleton's line table and the
    // symbol table: functions without inline frames.
    C.Log.report("missing-dwo",
                 *C.SplitError + ": its functions have no inline frames");
    Full = &C.Skel;
  }
  UnitConverter(C.Skel, *Full, M, Exec, Obj.isRelocatable(), C.Log).run(*R);
  for (size_t I = 0; I < R->Functions.size(); ++I) {
    R->Functions[I].InputOrder = uint32_t(C.Index);
    R->Functions[I].UnitOrder = uint32_t(I);
  }
  return R;
}

bool FunctionVisitor::merge(size_t, UnitResult &R) {
  auto &U = static_cast<UnitFunctions &>(R);
  NumFunctions += U.Functions.size();
  M.appendFunctions(std::move(U.Functions));
  for (FunctionEntry &F : U.LineOnly)
    M.LineOnlyCode.push_back(std::move(F));
  return true;
}

} // namespace dwarfpack
