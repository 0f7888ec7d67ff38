//===- ObjectConverter.cpp - ELF + DWARF + symbols to a FunctionModel -----===//
//
// One task per compile unit: extract its DIEs, parse its line table once,
// turn every DW_TAG_subprogram with code into FunctionEntry records (one per
// address range) with line rows and inline trees, then free the DIEs. Results
// are merged in unit order, so the model does not depend on thread timing.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DWARF/ObjectConverter.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/DenseKeys.h"
#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/DwarfSections.h"
#include "dwarfpack/Support/ElfTables.h"
#include "dwarfpack/Support/LineTableHeader.h"
#include "dwarfpack/Support/RelocatableLayout.h"
#include "dwarfpack/Support/SplitDwarf.h"
#include "dwarfpack/Support/SupplementaryDwarf.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {

namespace {

static std::string hex(uint64_t V) { return "0x" + utohexstr(V); }

/// Sorts Ranges and merges overlapping and touching ones.
static void sortAndMerge(std::vector<AddressRange> &Ranges) {
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

/// Where code lives: link-time addresses, or (relocatable objects) our own
/// layout of the executable sections.
class AddressLayout {
public:
  bool Relocatable = false;
  /// Section index -> start address (relocatable objects only).
  DenseMap<uint64_t, uint64_t> SectionBase;
  /// Sorted, disjoint.
  std::vector<AddressRange> Exec;

  /// The address of a DWARF (section, offset) pair, if it is in an
  /// executable section we know.
  std::optional<uint64_t> map(object::SectionedAddress A) const {
    if (!Relocatable)
      return A.Address;
    // UndefSection (~0): an address no relocation placed.
    if (!isDenseKey(A.SectionIndex))
      return std::nullopt;
    auto It = SectionBase.find(A.SectionIndex);
    if (It == SectionBase.end())
      return std::nullopt;
    return It->second + A.Address;
  }

  bool inExec(AddressRange R) const {
    auto It =
        llvm::upper_bound(Exec, R.Start, [](uint64_t A, const AddressRange &X) {
          return A < X.Start;
        });
    return It != Exec.begin() && std::prev(It)->contains(R);
  }
};

/// Counted warnings land in the log of the unit being converted on this
/// thread (so unit logs merge in a fixed order), or the global one.
thread_local WarningLog *CurrentLog = nullptr;

/// The attributes of one DIE that we need, read in one pass.
struct DieAttrs {
  std::optional<DWARFFormValue> Name, LinkageName, AbstractOrigin,
      Specification, CallFile, CallLine, CallColumn, Discriminator, DeclFile,
      DeclLine, LowPC, HighPC, Ranges;
};

DieAttrs readAttrs(const DWARFDie &D) {
  DieAttrs A;
  for (const DWARFAttribute &Attr : D.attributes()) {
    switch (Attr.Attr) {
    case dwarf::DW_AT_name:
      A.Name = Attr.Value;
      break;
    case dwarf::DW_AT_linkage_name:
    case dwarf::DW_AT_MIPS_linkage_name:
      A.LinkageName = Attr.Value;
      break;
    case dwarf::DW_AT_abstract_origin:
      A.AbstractOrigin = Attr.Value;
      break;
    case dwarf::DW_AT_specification:
      A.Specification = Attr.Value;
      break;
    case dwarf::DW_AT_call_file:
      A.CallFile = Attr.Value;
      break;
    case dwarf::DW_AT_call_line:
      A.CallLine = Attr.Value;
      break;
    case dwarf::DW_AT_call_column:
      A.CallColumn = Attr.Value;
      break;
    case dwarf::DW_AT_GNU_discriminator:
      A.Discriminator = Attr.Value;
      break;
    case dwarf::DW_AT_decl_file:
      A.DeclFile = Attr.Value;
      break;
    case dwarf::DW_AT_decl_line:
      A.DeclLine = Attr.Value;
      break;
    case dwarf::DW_AT_low_pc:
      A.LowPC = Attr.Value;
      break;
    case dwarf::DW_AT_high_pc:
      A.HighPC = Attr.Value;
      break;
    case dwarf::DW_AT_ranges:
      A.Ranges = Attr.Value;
      break;
    default:
      break;
    }
  }
  return A;
}

StringRef cstr(const std::optional<DWARFFormValue> &V,
               const SupplementaryDwarf *Sup) {
  if (!V)
    return StringRef();
  Expected<const char *> S = stringOf(*V, Sup);
  if (!S) {
    std::string Msg = toString(S.takeError());
    if (CurrentLog)
      CurrentLog->report("bad-string", Msg);
    return StringRef();
  }
  return *S ? StringRef(*S) : StringRef();
}

/// The address ranges of a DIE from attributes read once, exactly as
/// DWARFDie::getAddressRanges() computes them (which would scan the
/// attributes again for each of low_pc, high_pc and ranges).
Expected<DWARFAddressRangesVector> rangesOf(const DieAttrs &A, DWARFUnit &U) {
  if (A.LowPC && A.HighPC) {
    if (std::optional<object::SectionedAddress> Low =
            A.LowPC->getAsSectionedAddress()) {
      uint64_t Tomb = dwarf::computeTombstoneAddress(U.getAddressByteSize());
      if (Low->Address != Tomb) {
        std::optional<uint64_t> High = A.HighPC->getAsAddress();
        if (!High)
          if (std::optional<uint64_t> Off = A.HighPC->getAsUnsignedConstant())
            High = Low->Address + *Off;
        if (High)
          return DWARFAddressRangesVector{
              {Low->Address, *High, Low->SectionIndex}};
      }
    }
  }
  if (A.Ranges) {
    std::optional<uint64_t> Off = A.Ranges->getAsSectionOffset();
    if (!Off)
      return createStringError(inconvertibleErrorCode(),
                               "DW_AT_ranges of an unexpected form");
    if (A.Ranges->getForm() == dwarf::DW_FORM_rnglistx)
      return U.findRnglistFromIndex(*Off);
    return U.findRnglistFromOffset(*Off);
  }
  return DWARFAddressRangesVector();
}

/// Converts one compile unit.
class UnitConverter {
public:
  /// Skel holds the line table; U, the DIEs: the same unit, or with split
  /// DWARF the skeleton and the full unit of its .dwo file. Sup: dwz's
  /// supplementary file, if the input has one.
  UnitConverter(DWARFContext &Ctx, DWARFUnit &Skel, DWARFUnit &U,
                const SupplementaryDwarf *Sup, FunctionModel &M,
                const AddressLayout &Layout, WarningLog &Log)
      : Ctx(Ctx), Skel(Skel), U(U), Sup(Sup), M(M), Layout(Layout), Log(Log) {}

  std::vector<FunctionEntry> run() {
    DWARFDie CUDie = U.getUnitDIE(/*ExtractUnitDIEOnly=*/false);
    if (!CUDie)
      return {};
    if (const char *Dir = Skel.getCompilationDir())
      CompDir = Dir;
    parseLineTable(Skel.getUnitDIE());
    // Declarations and abstract instances (no low_pc, no ranges) are most
    // subprogram DIEs; their abbreviation tells, without decoding them.
    DenseMap<const DWARFAbbreviationDeclaration *, bool> HasCode;
    for (const DWARFDebugInfoEntry &E : U.dies()) {
      if (E.getTag() != dwarf::DW_TAG_subprogram)
        continue;
      const DWARFAbbreviationDeclaration *Abbrev =
          E.getAbbreviationDeclarationPtr();
      if (!Abbrev)
        continue;
      auto [It, Inserted] = HasCode.try_emplace(Abbrev, false);
      if (Inserted)
        It->second = Abbrev->findAttributeIndex(dwarf::DW_AT_low_pc) ||
                     Abbrev->findAttributeIndex(dwarf::DW_AT_ranges);
      if (It->second)
        convertSubprogram(DWARFDie(&U, &E));
    }
    collectUncoveredLines();
    return std::move(Out);
  }

  /// Line rows of code without a subprogram (valid after run()).
  std::vector<FunctionEntry> LineOnly;

private:
  void warn(StringRef Kind, const Twine &Msg) {
    Log.report(Kind, Msg + " (unit at " + hex(Skel.getOffset()) + ")");
  }
  void note(StringRef Kind, const Twine &Msg) {
    Log.note(Kind, Msg + " (unit at " + hex(Skel.getOffset()) + ")");
  }

  void parseLineTable(DWARFDie CUDie) {
    auto Off = dwarf::toSectionOffset(CUDie.find(dwarf::DW_AT_stmt_list));
    if (!Off)
      return;
    const DWARFObject &Obj = Ctx.getDWARFObj();
    DWARFDataExtractor Data(Obj, Obj.getLineSection(), Ctx.isLittleEndian(),
                            Skel.getAddressByteSize());
    if (*Off >= Data.size()) {
      warn("bad-line-table",
           "DW_AT_stmt_list " + hex(*Off) + " is past the end of .debug_line");
      return;
    }
    if (Error E = checkLineTableHeader(Data, *Off)) {
      warn("bad-line-table", toString(std::move(E)) + "; line table ignored");
      return;
    }
    auto Table = std::make_unique<DWARFDebugLine::LineTable>();
    uint64_t Offset = *Off;
    Error E = Table->parse(Data, &Offset, Ctx, &Skel, [&](Error Err) {
      warn("bad-line-table", toString(std::move(Err)));
    });
    if (E) {
      warn("bad-line-table", toString(std::move(E)));
      // Keep whatever rows were parsed before the problem.
    }
    LT = std::move(Table);
  }

  /// The model file for a DWARF file index of this unit's line table.
  std::optional<FileId> file(uint64_t Index) {
    if (!LT)
      return std::nullopt;
    if (Index < FileCache.size() && FileCache[Index] >= 0)
      return FileId(FileCache[Index]);
    if (Index < FileCache.size() && FileCache[Index] == -2)
      return std::nullopt;
    if (Index > (1u << 24) || !LT->Prologue.hasFileAtIndex(Index))
      return std::nullopt;
    std::string Path;
    if (!LT->getFileNameByIndex(
            Index, CompDir,
            DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, Path))
      return std::nullopt;
    FileId Id = M.addFilePath(Path);
    if (Index >= FileCache.size())
      FileCache.resize(Index + 1, -1);
    FileCache[Index] = Id;
    return Id;
  }

  /// Name of a subprogram or inlined subroutine: the linkage name found
  /// through DW_AT_abstract_origin / DW_AT_specification, else the bare
  /// DW_AT_name found the same way, as llvm-symbolizer prints it.
  /// A is D's attributes. Names are cached per DIE, so the many inlined
  /// copies of one function resolve their shared origin once.
  StringRef nameOf(DWARFDie D, const DieAttrs &A) {
    StringRef Linkage = cstr(A.LinkageName, Sup);
    if (!Linkage.empty())
      return M.saveString(Linkage);
    const std::optional<DWARFFormValue> &Ref =
        A.AbstractOrigin ? A.AbstractOrigin : A.Specification;
    if (Ref && !(A.AbstractOrigin && A.Specification) && !A.Name) {
      DWARFDie Target = referencedDie(D, *Ref, Sup);
      if (Target && Target.getDebugInfoEntry() != D.getDebugInfoEntry())
        return nameOf(Target);
    }
    return nameOf(D);
  }

  StringRef nameOf(DWARFDie D) {
    auto It = NameCache.find(D.getDebugInfoEntry());
    if (It != NameCache.end())
      return It->second;
    StringRef Result = computeName(D);
    NameCache[D.getDebugInfoEntry()] = Result;
    return Result;
  }

  StringRef computeName(DWARFDie Start) {
    constexpr unsigned MaxChain = 16;
    SmallVector<DWARFDie, 4> Work{Start};
    // DIEs by identity: those of the supplementary file have offsets of
    // their own.
    SmallVector<const void *, 8> Seen{Start.getDebugInfoEntry()};
    StringRef Short;
    unsigned Steps = 0;
    while (!Work.empty()) {
      DWARFDie D = Work.pop_back_val();
      if (++Steps > MaxChain) {
        warn("reference-chain-too-long",
             "DW_AT_abstract_origin/specification chain from DIE " +
                 hex(Start.getOffset()) + " is longer than " + Twine(MaxChain));
        break;
      }
      DieAttrs A = readAttrs(D);
      StringRef Linkage = cstr(A.LinkageName, Sup);
      if (!Linkage.empty())
        return M.saveString(Linkage);
      if (Short.empty())
        Short = cstr(A.Name, Sup);
      for (const auto &Ref : {A.AbstractOrigin, A.Specification}) {
        if (!Ref)
          continue;
        DWARFDie Next = referencedDie(D, *Ref, Sup);
        if (!Next) {
          warn("bad-reference", "DIE " + hex(D.getOffset()) +
                                    " refers to a DIE that does not exist");
          continue;
        }
        if (llvm::is_contained(Seen, Next.getDebugInfoEntry())) {
          warn("cyclic-reference",
               "DW_AT_abstract_origin/specification of DIE " +
                   hex(D.getOffset()) + " leads back to DIE " +
                   hex(Next.getOffset()));
          continue;
        }
        Seen.push_back(Next.getDebugInfoEntry());
        Work.push_back(Next);
      }
    }
    return Short.empty() ? StringRef() : M.saveString(Short);
  }

  /// Checks and maps one DWARF range. Malformed ones are counted and
  /// skipped; the function's other ranges are kept.
  std::optional<AddressRange> mapRange(const DWARFAddressRange &R, DWARFDie D,
                                       StringRef What) {
    uint64_t Tomb = dwarf::computeTombstoneAddress(U.getAddressByteSize());
    if (R.LowPC == Tomb || R.LowPC == Tomb - 1 ||
        (!Layout.Relocatable && R.LowPC == 0)) {
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
    std::optional<uint64_t> Lo = Layout.map({R.LowPC, R.SectionIndex});
    if (Lo) {
      AddressRange Mapped{*Lo, *Lo + (R.HighPC - R.LowPC)};
      if (Layout.inExec(Mapped))
        return Mapped;
    }
    // In a relocatable object, an address that no relocation placed.
    bool Unplaced = Layout.Relocatable &&
                    R.SectionIndex == object::SectionedAddress::UndefSection;
    warn("range-outside-text",
         What + " of DIE " + hex(D.getOffset()) + " [" + hex(R.LowPC) + ", " +
             hex(R.HighPC) +
             (Unplaced ? ") has no relocation that places it in a section"
                       : ") is not inside an executable section"));
    return std::nullopt;
  }

  void convertSubprogram(DWARFDie D) {
    DieAttrs A = readAttrs(D);
    if (!A.LowPC && !A.Ranges)
      return; // a declaration or an abstract instance: no code
    Expected<DWARFAddressRangesVector> RangesOrErr = rangesOf(A, U);
    if (!RangesOrErr) {
      warn("bad-ranges", "DIE " + hex(D.getOffset()) + ": " +
                             toString(RangesOrErr.takeError()));
      return;
    }
    if (RangesOrErr->empty())
      return;
    StringRef Name;
    bool Named = false;
    for (const DWARFAddressRange &R : *RangesOrErr) {
      std::optional<AddressRange> Range = mapRange(R, D, "range");
      if (!Range)
        continue;
      if (!Named) {
        Name = nameOf(D, A);
        Named = true;
      }
      FunctionEntry F;
      F.Range = *Range;
      F.Name = Name;
      F.Decl = declarationOf(D);
      addLines(F, R, D, A);
      addInlineTree(F, D);
      Out.push_back(std::move(F));
    }
  }

  /// Line rows for the code at Mapped, which is DWARF's [Low, Low + size)
  /// in section SecIdx.
  void collectLines(uint64_t Low, uint64_t SecIdx, AddressRange Mapped,
                    StringRef What, std::vector<LineEntry> &Lines) {
    RowIndexes.clear();
    if (!LT)
      return;
    findRows(Low, Low + Mapped.size(), SecIdx);
    if (RowIndexes.empty() && SecIdx != object::SectionedAddress::UndefSection)
      findRows(Low, Low + Mapped.size(),
               object::SectionedAddress::UndefSection);
    int64_t Delta = int64_t(Mapped.Start - Low);
    for (uint32_t Idx : RowIndexes) {
      if (Idx >= LT->Rows.size())
        break;
      const DWARFDebugLine::Row &Row = LT->Rows[Idx];
      if (Row.EndSequence)
        continue;
      uint64_t Addr = Row.Address.Address + Delta;
      if (Addr >= Mapped.End)
        break;
      Addr = std::max(Addr, Mapped.Start);
      std::optional<FileId> File = file(Row.File);
      if (!File) {
        warn("invalid-file-index", "line row at " + hex(Row.Address.Address) +
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
    if (!Lines.empty())
      Lines.front().Address = Mapped.Start;
  }

  /// Indexes of the rows that describe [Lo, Hi) in section SecIdx: from
  /// every sequence that overlaps it, the row in effect at the start of the
  /// overlap and the rows after it. Unlike LineTable::lookupAddressRange
  /// this also finds rows when Lo itself lies before the first sequence
  /// (GCC starts the sequence of a .cold part after its first bytes).
  void findRows(uint64_t Lo, uint64_t Hi, uint64_t SecIdx) {
    const auto &Seqs = LT->Sequences;
    const auto &Rows = LT->Rows;
    // Sequences are sorted by (section, end address).
    auto It =
        llvm::upper_bound(Seqs, std::make_pair(SecIdx, Lo),
                          [](const std::pair<uint64_t, uint64_t> &V,
                             const DWARFDebugLine::Sequence &S) {
                            return V < std::make_pair(S.SectionIndex, S.HighPC);
                          });
    for (; It != Seqs.end() && It->SectionIndex == SecIdx && It->LowPC < Hi;
         ++It) {
      if (It->FirstRowIndex >= It->LastRowIndex ||
          It->LastRowIndex > Rows.size())
        continue;
      auto First = Rows.begin() + It->FirstRowIndex;
      auto Last = Rows.begin() + It->LastRowIndex;
      // The last row at or before Lo, else the sequence's first row.
      auto R = std::upper_bound(First, Last, Lo,
                                [](uint64_t A, const DWARFDebugLine::Row &Row) {
                                  return A < Row.Address.Address;
                                });
      if (R != First)
        --R;
      for (; R != Last && R->Address.Address < Hi; ++R)
        RowIndexes.push_back(uint32_t(R - Rows.begin()));
    }
  }

  void addLines(FunctionEntry &F, const DWARFAddressRange &R, DWARFDie D,
                const DieAttrs &A) {
    collectLines(R.LowPC, R.SectionIndex, F.Range, F.Name, F.Lines);
    if (!F.Lines.empty())
      return;
    // No rows: fall back to the declaration, as llvm-gsymutil does. An
    // out-of-line definition (often a ".cold" part) carries it on the DIE
    // it specifies; without a row its inline frames would be lost too.
    std::optional<DWARFFormValue> DeclFile = A.DeclFile, DeclLine = A.DeclLine;
    for (unsigned Hops = 0; (!DeclFile || !DeclLine) && Hops < 4; ++Hops) {
      DWARFDie Decl =
          D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
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
    Expected<DWARFAddressRangesVector> RS =
        Skel.getUnitDIE().getAddressRanges();
    if (!RS) {
      consumeError(RS.takeError());
      return std::nullopt;
    }
    if (RS->empty())
      return std::nullopt;
    std::vector<AddressRange> Ranges;
    uint64_t Tomb = dwarf::computeTombstoneAddress(U.getAddressByteSize());
    for (const DWARFAddressRange &R : *RS) {
      if (R.HighPC <= R.LowPC || R.LowPC == Tomb || R.LowPC == Tomb - 1 ||
          (!Layout.Relocatable && R.LowPC == 0))
        continue;
      if (std::optional<uint64_t> Lo = Layout.map({R.LowPC, R.SectionIndex}))
        Ranges.push_back({*Lo, *Lo + (R.HighPC - R.LowPC)});
    }
    // Disjoint, so the ones ending after an address are a suffix.
    sortAndMerge(Ranges);
    return Ranges;
  }

  /// Line rows of code that no subprogram of this unit describes:
  /// assembly files, functions emitted without a DIE. finalize() hands them
  /// to the symbols that cover that code.
  /// Only code inside the unit's ranges counts.
  void collectUncoveredLines() {
    if (!LT || LT->Sequences.empty())
      return;
    std::vector<AddressRange> Covered;
    Covered.reserve(Out.size());
    for (const FunctionEntry &F : Out)
      Covered.push_back(F.Range);
    llvm::sort(Covered);
    std::optional<std::vector<AddressRange>> UnitRanges = unitRanges();
    for (const DWARFDebugLine::Sequence &Seq : LT->Sequences) {
      if (Seq.HighPC <= Seq.LowPC)
        continue;
      std::optional<uint64_t> Lo = Layout.map({Seq.LowPC, Seq.SectionIndex});
      if (!Lo || (!Layout.Relocatable && Seq.LowPC == 0))
        continue;
      AddressRange S{*Lo, *Lo + (Seq.HighPC - Seq.LowPC)};
      if (!Layout.inExec(S))
        continue;
      uint64_t Pos = S.Start;
      auto It = llvm::lower_bound(Covered, AddressRange{S.Start, 0});
      if (It != Covered.begin())
        --It;
      auto EmitPart = [&](uint64_t From, uint64_t To) {
        FunctionEntry F;
        F.Range = {From, To};
        collectLines(Seq.LowPC + (From - S.Start), Seq.SectionIndex, F.Range,
                     "a line sequence", F.Lines);
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
  void addCallSiteDetails(DWARFDie D, const DieAttrs &A, InlineNode &N) {
    auto U32 = [](const std::optional<DWARFFormValue> &V) {
      return V ? uint32_t(V->getAsUnsignedConstant().value_or(0)) : 0u;
    };
    if (A.CallLine)
      N.CallLine = uint32_t(std::min<uint64_t>(
          A.CallLine->getAsUnsignedConstant().value_or(0), UINT32_MAX));
    N.CallColumn = U32(A.CallColumn);
    N.CallDiscriminator = U32(A.Discriminator);
    N.Decl = declarationOf(D);
    if (A.LowPC)
      if (std::optional<object::SectionedAddress> Low =
              A.LowPC->getAsSectionedAddress())
        N.LowPC = Layout.map(*Low);
  }

  /// The declaration llvm-symbolizer prints for a subprogram or inlined
  /// call D (StartFileName, StartLine): DW_AT_decl_file and DW_AT_decl_line
  /// found on D or through DW_AT_abstract_origin / DW_AT_specification, as
  /// DWARFDie::getDeclFile and getDeclLine find them.
  Declaration declarationOf(DWARFDie D) {
    Declaration Decl;
    Decl.Line = uint32_t(D.getDeclLine());
    if (std::optional<DWARFFormValue> V =
            D.findRecursively(dwarf::DW_AT_decl_file))
      Decl.File = declFile(*V);
    return Decl;
  }

  /// The file of a DW_AT_decl_file value, an index into the line table of
  /// the unit that holds the value. A DW_FORM_implicit_const value (GCC
  /// uses it for the unit's main file) carries no unit in LLVM 19, whose
  /// getDeclFile then gives nothing: llvm-symbolizer prints no
  /// StartFileName, and we record none.
  FileId declFile(const DWARFFormValue &V) {
    const DWARFUnit *Owner = V.getUnit();
    if (!Owner || !V.isFormClass(DWARFFormValue::FC_Constant))
      return 0;
    std::optional<uint64_t> Index = V.getAsUnsignedConstant();
    if (!Index)
      return 0;
    if (Owner == &U || Owner == &Skel)
      return file(*Index).value_or(0);
    return fileOfOtherUnit(*Owner, *Index);
  }

  /// File Index of the line table of another compile unit of this context
  /// (a declaration that a DW_FORM_ref_addr reached).
  FileId fileOfOtherUnit(const DWARFUnit &Owner, uint64_t Index) {
    auto [It, New] = OtherFiles.try_emplace({&Owner, Index}, 0);
    if (!New)
      return It->second;
    if (&Owner.getContext() != &Ctx || Owner.isDWOUnit())
      return 0;
    DWARFCompileUnit *Found = Ctx.getCompileUnitForOffset(Owner.getOffset());
    if (!Found || Found != &Owner)
      return 0;
    DWARFUnit &Other = *Found;
    if (Error E = checkLineTableHeader(Other)) {
      consumeError(std::move(E)); // reported when that unit is converted
      return 0;
    }
    const DWARFDebugLine::LineTable *T = Ctx.getLineTableForUnit(&Other);
    std::string Path;
    if (T && T->Prologue.hasFileAtIndex(Index) &&
        T->getFileNameByIndex(
            Index, Other.getCompilationDir() ? Other.getCompilationDir() : "",
            DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, Path))
      It->second = M.addFilePath(Path);
    return It->second;
  }

  void addInlineTree(FunctionEntry &F, DWARFDie D) {
    if (!D.hasChildren())
      return;
    InlineNode Root;
    Root.Ranges.push_back(F.Range);
    Root.Name = F.Name;
    Root.Decl = F.Decl;
    for (DWARFDie C = D.getFirstChild(); C; C = C.getSibling())
      walkInline(C, Root, F.Range, 0);
    if (!Root.Children.empty())
      F.Inline = std::move(Root);
  }

  /// Adds the inlined calls under D to Parent. Ranges are clipped to the
  /// function's range Bound; a node's ranges also take in its children's,
  /// because llvm-symbolizer builds the chain from DIE nesting, and GCC
  /// sometimes gives a child code outside its parent's own ranges.
  void walkInline(DWARFDie D, InlineNode &Parent, AddressRange Bound,
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
        for (DWARFDie C = D.getFirstChild(); C; C = C.getSibling())
          walkInline(C, Parent, Bound, Depth + 1);
      return;
    }
    DieAttrs A = readAttrs(D);
    Expected<DWARFAddressRangesVector> RangesOrErr = rangesOf(A, U);
    if (!RangesOrErr) {
      warn("bad-ranges", "DIE " + hex(D.getOffset()) + ": " +
                             toString(RangesOrErr.takeError()));
      return;
    }
    InlineNode N;
    for (const DWARFAddressRange &R : *RangesOrErr) {
      if (R.HighPC <= R.LowPC)
        continue;
      std::optional<uint64_t> Lo = Layout.map({R.LowPC, R.SectionIndex});
      if (!Lo)
        continue;
      AddressRange X{std::max(Bound.Start, *Lo),
                     std::min(Bound.End, *Lo + (R.HighPC - R.LowPC))};
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
    }
    addCallSiteDetails(D, A, N);
    N.Name = nameOf(D, A);
    if (N.Name.empty())
      N.Name = "??";
    if (D.hasChildren())
      for (DWARFDie C = D.getFirstChild(); C; C = C.getSibling())
        walkInline(C, N, Bound, Depth + 1);
    for (const InlineNode &C : N.Children)
      N.Ranges.insert(N.Ranges.end(), C.Ranges.begin(), C.Ranges.end());
    if (N.Ranges.empty())
      return; // in another range of the function, or empty
    // As LLVM's AddressRanges keeps them.
    sortAndMerge(N.Ranges);
    Parent.Children.push_back(std::move(N));
  }

  DWARFContext &Ctx;
  DWARFUnit &Skel;
  DWARFUnit &U;
  const SupplementaryDwarf *Sup;
  FunctionModel &M;
  const AddressLayout &Layout;
  WarningLog &Log;
  std::vector<FunctionEntry> Out;
  std::unique_ptr<DWARFDebugLine::LineTable> LT;
  std::vector<int64_t> FileCache; // -1 unknown, -2 invalid
  DenseMap<const void *, StringRef> NameCache;
  DenseMap<std::pair<const void *, uint64_t>, FileId> OtherFiles;
  std::string CompDir;
  std::vector<uint32_t> RowIndexes;
};

//===----------------------------------------------------------------------===//
// ELF side: identity, layout, symbols
//===----------------------------------------------------------------------===//

template <typename ELFT>
Error readElf(const ELFObjectFile<ELFT> &Obj, StringRef Path, FunctionModel &M,
              AddressLayout &Layout, WarningLog &Log, ConvertStats &Stats) {
  const ELFFile<ELFT> &EF = Obj.getELFFile();
  M.IsLittleEndian = ELFT::Endianness == llvm::endianness::little;
  Layout.Relocatable = EF.getHeader().e_type == ELF::ET_REL;

  auto SectionsOrErr = EF.sections();
  if (!SectionsOrErr)
    return SectionsOrErr.takeError();
  auto Sections = *SectionsOrErr;

  // Base address: the first PT_LOAD (none in relocatable objects).
  M.BaseAddress = 0;
  if (!Layout.Relocatable) {
    auto PhdrsOrErr = EF.program_headers();
    if (!PhdrsOrErr)
      return PhdrsOrErr.takeError();
    for (const auto &P : *PhdrsOrErr)
      if (P.p_type == ELF::PT_LOAD) {
        M.BaseAddress = P.p_vaddr;
        break;
      }
  }

  // Executable sections and the relocatable layout.
  if (Layout.Relocatable) {
    for (const PlacedSection &P : relocatableLayout(Obj)) {
      Layout.SectionBase[P.Index] = P.Start;
      Layout.Exec.push_back({P.Start, P.Start + P.Size});
    }
  } else {
    for (const auto &S : Sections)
      if ((S.sh_flags & ELF::SHF_EXECINSTR) && (S.sh_flags & ELF::SHF_ALLOC) &&
          S.sh_size != 0)
        Layout.Exec.push_back({S.sh_addr, S.sh_addr + S.sh_size});
  }
  llvm::sort(Layout.Exec);
  M.ExecutableRanges = Layout.Exec;

  // Build-id and DWARF size.
  for (const auto &S : Sections) {
    Expected<StringRef> Name = EF.getSectionName(S);
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (Name->starts_with(".debug_") || Name->starts_with(".zdebug_"))
      Stats.DebugBytes += S.sh_size;
  }
  unsigned Dropped = 0;
  Expected<std::vector<LoadSegment>> Segments = readLoadSegments(Obj, &Dropped);
  if (!Segments)
    return Segments.takeError();
  M.LoadSegments = std::move(*Segments);
  if (Dropped)
    Log.report("overlapping-segments",
               Twine(Dropped) + " PT_LOAD segment(s) whose file bytes overlap "
                                "another's left out of the load map");
  ArrayRef<uint8_t> BuildId = gnuBuildId(Obj);
  if (BuildId.size() > 20)
    Log.report("build-id-too-long",
               "build-id of " + Twine(BuildId.size()) +
                   " bytes does not fit GSYM's 20-byte UUID; omitted");
  else
    M.UUID.assign(BuildId.begin(), BuildId.end());
  return Error::success();
}

/// Function symbols from .symtab and .dynsym, plus untyped symbols in
/// executable sections (hand-written assembly).
void readSymbols(const ELFObjectFileBase &Obj, const AddressLayout &Layout,
                 FunctionModel &M, WarningLog &Log,
                 std::vector<FunctionEntry> &Out) {
  struct Candidate {
    uint64_t Addr, Size;
    StringRef Name;
    bool Typed;
  };
  std::vector<Candidate> Cands;
  DenseSet<uint64_t> TypedAddrs;
  bool Arm = Obj.getEMachine() == ELF::EM_ARM;

  auto Visit = [&](const ELFSymbolRef &Sym) {
    uint8_t Type = Sym.getELFType();
    bool Typed = Type == ELF::STT_FUNC || Type == ELF::STT_GNU_IFUNC;
    if (!Typed && Type != ELF::STT_NOTYPE)
      return;
    Expected<StringRef> NameOrErr = Sym.getName();
    if (!NameOrErr) {
      consumeError(NameOrErr.takeError());
      return;
    }
    StringRef Name = *NameOrErr;
    // Mapping symbols ($x, $d, $a, $t, ...) and assembler-local labels.
    if (Name.empty() || Name.starts_with("$") || Name.starts_with(".L"))
      return;
    Expected<section_iterator> SecOrErr = Sym.getSection();
    if (!SecOrErr) {
      consumeError(SecOrErr.takeError());
      return;
    }
    if (*SecOrErr == Obj.section_end())
      return;
    ELFSectionRef Sec(**SecOrErr);
    if (!(Sec.getFlags() & ELF::SHF_EXECINSTR))
      return;
    Expected<uint64_t> ValueOrErr = Sym.getValue();
    if (!ValueOrErr) {
      consumeError(ValueOrErr.takeError());
      return;
    }
    uint64_t Value = *ValueOrErr;
    if (Arm && Typed)
      Value &= ~1ULL; // Thumb bit
    uint64_t Addr = Value;
    uint64_t SecStart = Sec.getAddress(), SecEnd = SecStart + Sec.getSize();
    if (Layout.Relocatable) {
      auto It = Layout.SectionBase.find(Sec.getIndex());
      if (It == Layout.SectionBase.end())
        return;
      Addr = It->second + Value;
      SecStart = It->second;
      SecEnd = SecStart + Sec.getSize();
    }
    if (Addr < SecStart || Addr >= SecEnd)
      return; // section end markers such as _etext
    uint64_t Size = std::min<uint64_t>(Sym.getSize(), SecEnd - Addr);
    Cands.push_back({Addr, Size, Name, Typed});
    if (Typed && isDenseKey(Addr))
      TypedAddrs.insert(Addr);
  };
  for (const ELFSymbolRef &Sym : Obj.symbols())
    Visit(Sym);
  for (const ELFSymbolRef &Sym : Obj.getDynamicSymbolIterators())
    Visit(Sym);

  // An untyped label at a function's address is an alias of it.
  llvm::erase_if(Cands, [&](const Candidate &C) {
    return !C.Typed && isDenseKey(C.Addr) && TypedAddrs.count(C.Addr);
  });
  // One name per address, chosen as llvm-symbolizer chooses among aliases:
  // the largest size, then the last in table order (.symtab, then .dynsym).
  std::stable_sort(Cands.begin(), Cands.end(),
                   [](const Candidate &A, const Candidate &B) {
                     return std::tie(A.Addr, A.Size) < std::tie(B.Addr, B.Size);
                   });
  for (size_t I = 0; I < Cands.size(); ++I) {
    if (I + 1 < Cands.size() && Cands[I + 1].Addr == Cands[I].Addr)
      continue;
    FunctionEntry F;
    F.Range = {Cands[I].Addr, Cands[I].Addr + Cands[I].Size};
    F.Name = M.saveString(Cands[I].Name);
    Out.push_back(std::move(F));
  }
}

} // namespace

Error convertObjectFile(StringRef Path, FunctionModel &M,
                        const ConvertOptions &Options, WarningLog &Log,
                        ConvertStats *StatsOut) {
  auto BufOrErr = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return createFileError(Path, errorCodeToError(BufOrErr.getError()));
  return convertObject((*BufOrErr)->getMemBufferRef(), M, Options, Log,
                       StatsOut);
}

Error convertObject(MemoryBufferRef Buffer, FunctionModel &M,
                    const ConvertOptions &Options, WarningLog &Log,
                    ConvertStats *StatsOut) {
  StringRef Path = Buffer.getBufferIdentifier();
  switch (identify_magic(Buffer.getBuffer())) {
  case file_magic::elf:
  case file_magic::elf_relocatable:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::elf_core:
    break;
  default:
    return createFileError(
        Path, createStringError(inconvertibleErrorCode(), "not an ELF file"));
  }
  Expected<std::unique_ptr<Binary>> BinOrErr = createBinary(Buffer);
  if (!BinOrErr)
    return createFileError(Path, BinOrErr.takeError());
  auto *Obj = dyn_cast<ELFObjectFileBase>(BinOrErr->get());
  if (!Obj)
    return createFileError(
        Path, createStringError(inconvertibleErrorCode(), "not an ELF file"));
  if (Error E = checkElfTables(*Obj))
    return createFileError(Path, std::move(E));

  ConvertStats Stats;
  AddressLayout Layout;
  Error E = Error::success();
  if (auto *O = dyn_cast<ELF32LEObjectFile>(Obj))
    E = readElf(*O, Path, M, Layout, Log, Stats);
  else if (auto *O = dyn_cast<ELF32BEObjectFile>(Obj))
    E = readElf(*O, Path, M, Layout, Log, Stats);
  else if (auto *O = dyn_cast<ELF64LEObjectFile>(Obj))
    E = readElf(*O, Path, M, Layout, Log, Stats);
  else if (auto *O = dyn_cast<ELF64BEObjectFile>(Obj))
    E = readElf(*O, Path, M, Layout, Log, Stats);
  if (E)
    return createFileError(Path, std::move(E));
  if (Error E = checkDebugSectionsReadable(*Obj))
    return createFileError(Path, std::move(E));

  auto OnError = [&Log](Error Err) {
    WarningLog &L = CurrentLog ? *CurrentLog : Log;
    L.report("dwarf-error", toString(std::move(Err)));
  };
  auto OnWarning = [&Log](Error Err) {
    WarningLog &L = CurrentLog ? *CurrentLog : Log;
    L.report("dwarf-warning", toString(std::move(Err)));
  };

  // The master context decompresses the sections and, for relocatable
  // objects, applies the DWARF relocations. Executables already have them
  // applied (and vmlinux carries --emit-relocs sections that must not be
  // applied again).
  std::unique_ptr<DWARFContext> Master = DWARFContext::create(
      *Obj,
      Layout.Relocatable ? DWARFContext::ProcessDebugRelocations::Process
                         : DWARFContext::ProcessDebugRelocations::Ignore,
      nullptr, "", OnError, OnWarning);
  if (Error E = checkDieExtents(*Master, Options.NumThreads))
    return createFileError(Path, std::move(E));

  // dwz's common file: names and DIEs several files share.
  std::unique_ptr<SupplementaryDwarf> Sup = SupplementaryDwarf::openReporting(
      *Obj, Path, Log, "names stored there are missing");

  std::vector<unsigned> UnitIdx;
  std::vector<uint64_t> UnitBytes;
  unsigned NumAll = 0;
  for (const auto &U : Master->info_section_units()) {
    if (!U->isTypeUnit()) {
      UnitIdx.push_back(NumAll);
      UnitBytes.push_back(U->getLength());
    }
    ++NumAll;
  }
  Stats.CompileUnits = UnitIdx.size();

  std::vector<std::vector<FunctionEntry>> Results(UnitIdx.size());
  std::vector<std::vector<FunctionEntry>> LineOnly(UnitIdx.size());
  std::vector<std::unique_ptr<WarningLog>> Logs(UnitIdx.size());
  std::atomic<uint64_t> Done{0};
  auto ConvertUnit = [&](DWARFContext &Ctx, SplitDwarfLoader &Dwo, size_t I) {
    Logs[I] = std::make_unique<WarningLog>();
    CurrentLog = Logs[I].get();
    DWARFUnit *U = Ctx.getUnitAtIndex(UnitIdx[I]);
    if (U) {
      // A .dwo that cannot be read leaves the skeleton's line table and
      // the symbol table: functions without inline frames.
      DWARFUnit *Full = U;
      if (Expected<DWARFUnit *> F = Dwo.fullUnit(*U, /*ExtractAll=*/true))
        Full = *F;
      else
        Logs[I]->report("missing-dwo",
                        toString(F.takeError()) +
                            ": its functions have no inline frames");
      UnitConverter C(Ctx, *U, *Full, Sup.get(), M, Layout, *Logs[I]);
      Results[I] = C.run();
      for (FunctionEntry &F : Results[I])
        F.InputOrder = uint32_t(I);
      LineOnly[I] = std::move(C.LineOnly);
    }
    CurrentLog = nullptr;
    uint64_t N = ++Done;
    if (Options.Progress)
      Options.Progress(N, UnitIdx.size());
  };

  unsigned Threads = Options.NumThreads;
  if (Threads == 0)
    Threads = llvm::hardware_concurrency().compute_thread_count();
  if (Layout.Relocatable) {
    // Relocations live in the master context; modules are small, so one
    // thread converts them all.
    SplitDwarfLoader Dwo(Path);
    for (size_t I = 0; I < UnitIdx.size(); ++I)
      ConvertUnit(*Master, Dwo, I);
  } else {
    // Units are converted in chunks of about ChunkBytes of .debug_info, each
    // with a context of its own over the shared sections: no shared lazy
    // state between threads, and a chunk's DIEs, line tables and caches are
    // freed as soon as it is done, which bounds memory.
    StringRef Info;
    Master->getDWARFObj().forEachInfoSections([&](const DWARFSection &S) {
      if (Info.empty())
        Info = S.Data;
    });
    StringMap<std::unique_ptr<MemoryBuffer>> Sections =
        dwarfSectionBuffers(Master->getDWARFObj(), Info);
    uint8_t AddrSize = Obj->getBytesInAddress();
    bool LE = Obj->isLittleEndian();
    // About 4 MiB per chunk, but at least four chunks per thread when the
    // input is small, so that every thread has work. Chunking changes only
    // the schedule, never the output.
    uint64_t TotalBytes = 0;
    for (uint64_t B : UnitBytes)
      TotalBytes += B;
    uint64_t ChunkBytes = std::clamp<uint64_t>(
        TotalBytes / (uint64_t(std::max(1u, Threads)) * 4), 1, 4 << 20);
    std::vector<std::pair<size_t, size_t>> Chunks;
    for (size_t I = 0; I < UnitIdx.size();) {
      size_t J = I;
      uint64_t Bytes = 0;
      while (J < UnitIdx.size() && (J == I || Bytes < ChunkBytes))
        Bytes += UnitBytes[J++];
      Chunks.push_back({I, J});
      I = J;
    }
    auto RunChunk = [&](size_t C) {
      std::unique_ptr<DWARFContext> Ctx =
          DWARFContext::create(Sections, AddrSize, LE, OnError, OnWarning);
      // The chunk's .dwo files are closed with its context.
      SplitDwarfLoader Dwo(Path);
      for (size_t I = Chunks[C].first; I < Chunks[C].second; ++I)
        ConvertUnit(*Ctx, Dwo, I);
    };
    if (Threads <= 1 || Chunks.size() <= 1) {
      for (size_t C = 0; C < Chunks.size(); ++C)
        RunChunk(C);
    } else {
      DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
      for (size_t C = 0; C < Chunks.size(); ++C)
        Pool.async([&, C] { RunChunk(C); });
      Pool.wait();
    }
  }
  for (size_t I = 0; I < UnitIdx.size(); ++I) {
    if (Logs[I])
      Log.merge(*Logs[I]);
    Stats.DwarfFunctions += Results[I].size();
    M.appendFunctions(std::move(Results[I]));
    for (FunctionEntry &F : LineOnly[I])
      M.LineOnlyCode.push_back(std::move(F));
  }
  Results.clear();

  std::vector<FunctionEntry> Syms;
  readSymbols(*Obj, Layout, M, Log, Syms);
  Stats.SymbolFunctions = Syms.size();
  M.appendFunctions(std::move(Syms));
  if (StatsOut)
    *StatsOut = Stats;
  return Error::success();
}

} // namespace dwarfpack
