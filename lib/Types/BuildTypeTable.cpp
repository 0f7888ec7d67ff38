//===- BuildTypeTable.cpp - Whole-object driver for the type builder ------===//

#include "dwarfpack/Support/DieChildren.h"
#include "dwarfpack/Support/DwarfSections.h"
#include "dwarfpack/Support/SplitDwarf.h"
#include "dwarfpack/Support/SupplementaryDwarf.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Types/ElfSymbols.h"
#include "dwarfpack/Types/ReleaseDIEs.h"

#include "FastDwarf.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFObject.h"
#include "llvm/DebugInfo/DWARF/DWARFSection.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <deque>
#include <fcntl.h>
#include <future>
#include <map>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

// DWARFUnit::clearDIEs is private; LLVM befriends only its parallel DWARF
// linker's CompileUnit. Without freeing each unit's DIE array after use, a
// vmlinux conversion holds every DIE of the kernel (gigabytes) at once. This
// declares a class of that name with one static helper, used only here.
namespace llvm {
namespace dwarf_linker {
namespace parallel {
class CompileUnit {
public:
  static void releaseDIEs(DWARFUnit &U) { U.clearDIEs(/*KeepCUDie=*/true); }
};
} // namespace parallel
} // namespace dwarf_linker
} // namespace llvm

namespace dwarfpack {
namespace types {

void releaseUnitDIEs(DWARFUnit &U) {
  llvm::dwarf_linker::parallel::CompileUnit::releaseDIEs(U);
}

bool abbrevsMayCrossUnits(StringRef Abbrev) {
  // A hand-rolled walk: this runs before any unit is converted, and LLVM's
  // cursor-checked reads took 50 ms on a kernel's 5 MB of abbreviations.
  const uint8_t *P = Abbrev.bytes_begin(), *End = Abbrev.bytes_end();
  bool Bad = false;
  auto ULEB = [&]() -> uint64_t {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      if (P == End || Shift >= 64) {
        Bad = true;
        return 0;
      }
      uint8_t B = *P++;
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  };
  while (!Bad && P != End) {
    if (ULEB() == 0)
      continue; // end of one unit's table
    ULEB();     // tag
    if (P == End)
      return true;
    ++P; // children
    while (!Bad) {
      uint64_t Attr = ULEB(), Form = ULEB();
      if (Attr == 0 && Form == 0)
        break;
      if (Form == dwarf::DW_FORM_ref_addr ||
          Form == dwarf::DW_FORM_GNU_ref_alt || Form == dwarf::DW_FORM_indirect)
        return true;
      if (Form == dwarf::DW_FORM_implicit_const)
        ULEB(); // an SLEB128: the same bytes
    }
  }
  return Bad;
}

void fillUnitsForThreads(ArrayRef<DWARFUnit *> Units, bool AllDIEs) {
  for (DWARFUnit *U : Units) {
    if (AllDIEs)
      U->getUnitDIE(/*ExtractUnitDIEOnly=*/false);
    else
      U->getAbbreviations();
  }
}

namespace {
/// Hands back the resident pages of .debug_info bytes already converted,
/// when they lie in the file mapping of the object (never a decompressed or
/// relocated copy, which must not be discarded). Units are released in
/// order, so everything before the end of the last merged unit goes; the
/// pages come back from the file if anything touches them again.
class PageReleaser {
public:
  PageReleaser(StringRef File, bool Enabled) : File(File), Enabled(Enabled) {}
  void releaseUpTo(DWARFUnit &U) {
    releaseRange(U.getInfoSection().Data, U.getNextUnitOffset());
  }
  /// The same for the first Size bytes of Section (a section of the
  /// object), released in increasing order.
  void releaseRange(StringRef Section, uint64_t Size) {
    if (!Enabled || Section.data() < File.data() ||
        Section.data() + Section.size() > File.data() + File.size() ||
        Size > Section.size())
      return;
    static const uintptr_t Page = sysconf(_SC_PAGESIZE);
    if (Section.data() != this->Section) {
      this->Section = Section.data();
      Released = uintptr_t(Section.data()) & ~(Page - 1);
    }
    uintptr_t End = uintptr_t(Section.data() + Size) & ~(Page - 1);
    if (End > Released) {
      madvise(reinterpret_cast<void *>(Released), End - Released,
              MADV_DONTNEED);
      Released = End;
    }
  }
  /// Drops every page of the section (after the unit headers were read).
  void releaseAll(StringRef Data) {
    if (!Enabled || Data.data() < File.data() ||
        Data.data() + Data.size() > File.data() + File.size())
      return;
    static const uintptr_t Page = sysconf(_SC_PAGESIZE);
    uintptr_t Begin = uintptr_t(Data.data()) & ~(Page - 1);
    uintptr_t End = uintptr_t(Data.data() + Data.size()) & ~(Page - 1);
    if (End > Begin)
      madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_DONTNEED);
  }

private:
  StringRef File;
  bool Enabled;
  const char *Section = nullptr;
  uintptr_t Released = 0;
};
} // namespace

namespace {
/// A compile unit's bytes in .debug_info.
struct UnitSpan {
  uint64_t Offset = 0, Length = 0;
};

/// Reads Len bytes at Off of Info: from the file with pread when Fd is
/// open (the mapping's pages then stay untouched), else from memory.
bool readAt(StringRef Info, int Fd, uint64_t FileOff, uint64_t Off, void *Buf,
            size_t Len) {
  if (Off > Info.size() || Info.size() - Off < Len)
    return false;
  if (Fd >= 0)
    return pread(Fd, Buf, Len, FileOff + Off) == ssize_t(Len);
  memcpy(Buf, Info.data() + Off, Len);
  return true;
}

/// The compile units of .debug_info from their headers alone. Returns
/// nothing when a header is malformed or the section holds type units or
/// skeleton units of split DWARF (whose DIEs are in .dwo files; those of
/// DWARF 4 are told by the .debug_addr section that comes with them,
/// HasAddr): the caller then lets LLVM parse the section its own way.
std::optional<std::vector<UnitSpan>> scanUnits(StringRef Info, int Fd,
                                               uint64_t FileOff, bool HasAddr) {
  std::vector<UnitSpan> Spans;
  for (uint64_t Off = 0; Off < Info.size();) {
    uint8_t H[16];
    size_t Avail = std::min<uint64_t>(sizeof(H), Info.size() - Off);
    if (Avail < 7 || !readAt(Info, Fd, FileOff, Off, H, Avail))
      return std::nullopt;
    uint64_t Len = support::endian::read32le(H);
    unsigned LenSize = 4;
    if (Len == 0xffffffff) {
      if (Avail < 15)
        return std::nullopt;
      Len = support::endian::read64le(H + 4);
      LenSize = 12;
    } else if (Len >= 0xfffffff0) {
      return std::nullopt;
    }
    if (Len < 3 || Len > Info.size() - Off - LenSize)
      return std::nullopt;
    uint16_t Version = support::endian::read16le(H + LenSize);
    if (Version < 2 || Version > 5 || (Version < 5 && HasAddr))
      return std::nullopt;
    if (Version == 5) {
      uint8_t UnitType = H[LenSize + 2];
      if (UnitType == dwarf::DW_UT_type ||
          UnitType == dwarf::DW_UT_split_type ||
          UnitType == dwarf::DW_UT_skeleton)
        return std::nullopt;
    }
    Spans.push_back({Off, LenSize + Len});
    Off += LenSize + Len;
  }
  return Spans;
}

/// Runs Convert(I) for I in [0, N) on Threads threads and Merge(I, result)
/// strictly in order on the calling thread, so the output never depends on
/// scheduling; a bounded window of units in flight keeps memory
/// proportional to the thread count.
template <typename ConvertFn, typename MergeFn>
void convertInOrder(size_t N, unsigned Threads, ConvertFn Convert,
                    MergeFn Merge) {
  if (Threads <= 1) {
    for (size_t I = 0; I < N; ++I)
      Merge(I, Convert(I));
    return;
  }
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  std::deque<std::shared_future<void>> Pending;
  std::vector<UnitTypes> Results(N);
  // Units differ a lot in size: with only 2 per thread in flight, a large
  // unit at the head stalls the pool (vmlinux: 4 per thread is ~3 % faster
  // for ~7 MiB more peak memory).
  size_t Next = 0, Window = 4 * Threads;
  for (size_t I = 0; I < N; ++I) {
    while (Next < N && Next < I + Window) {
      size_t J = Next++;
      Pending.push_back(Pool.async([&, J] { Results[J] = Convert(J); }));
    }
    Pending.front().wait();
    Pending.pop_front();
    Merge(I, std::move(Results[I]));
    // The unit's records were allocated by a pool thread: freeing them
    // there keeps the merging thread's work (the critical path) short.
    Pool.async([Dead = std::move(Results[I])] {});
    Results[I] = UnitTypes();
  }
  Pool.wait();
}
} // namespace

Expected<BuildResult> buildTypeTable(const object::ObjectFile &Obj,
                                     DWARFContext &Ctx,
                                     const BuildOptions &Opts,
                                     WarningLog &Log) {
  if (Error E = checkDebugSectionsReadable(Obj))
    return std::move(E);
  // dwz's common file: strings and DIEs (types) several files share.
  std::unique_ptr<SupplementaryDwarf> Sup = SupplementaryDwarf::openReporting(
      Obj, Obj.getFileName(), Log, "types stored there are unknown");
  const DWARFObject &DObj = Ctx.getDWARFObj();
  PageReleaser Pages(Obj.getData(), Opts.InputIsFileMapping);
  unsigned Threads = Opts.NumThreads ? Opts.NumThreads : 1;
  // The object (and its decompressed sections) outlives the merger.
  TypeMerger Merger(/*StableInputs=*/true);
  BuildResult R;
  auto Merge = [&](size_t, UnitTypes &&UT) {
    R.NumInputTypes += UT.Types.size();
    Merger.add(std::move(UT));
  };

  // A linked object whose units stand alone (no type units, no references
  // across units) is converted with one small DWARFContext per unit over
  // that unit's slice of .debug_info: LLVM then never reads all unit
  // headers at once (one page per unit, which with the kernel's
  // fault-around maps nearly all of vmlinux's .debug_info) and each unit's
  // abbreviations and DIEs go with its context (all of a kernel's
  // abbreviation tables decoded take ~75 MiB).
  StringRef Info;
  unsigned NumInfo = 0, NumTypes = 0;
  DObj.forEachInfoSections([&](const DWARFSection &S) {
    Info = S.Data;
    ++NumInfo;
  });
  DObj.forEachTypesSections([&](const DWARFSection &) { ++NumTypes; });
  std::optional<std::vector<UnitSpan>> Spans;
  if (!Sup && !Obj.isRelocatableObject() && NumInfo == 1 && NumTypes == 0 &&
      !abbrevsMayCrossUnits(DObj.getAbbrevSection())) {
    StringRef File = Obj.getData();
    int Fd = -1;
    uint64_t FileOff = 0;
    if (Opts.InputIsFileMapping && Info.data() >= File.data() &&
        Info.data() + Info.size() <= File.data() + File.size()) {
      Fd = open(Obj.getFileName().str().c_str(), O_RDONLY | O_CLOEXEC);
      FileOff = Info.data() - File.data();
    }
    Spans = scanUnits(Info, Fd, FileOff, !DObj.getAddrSection().Data.empty());
    if (Fd >= 0)
      close(Fd);
  }

  if (Spans) {
    if (Spans->empty())
      return createStringError(inconvertibleErrorCode(),
                               "no DWARF compile units (no debug information)");
    // The units keep declarations of the ELF's data symbols (those no unit
    // defines, such as copy-relocated library variables, take their type).
    ElfSymbolNames Names = collectElfSymbols(Obj);
    R.NumUnits = Spans->size();
    uint8_t AddrSize = Obj.getBytesInAddress();
    bool LE = Obj.isLittleEndian();
    auto OnError = [&Log](Error E) {
      Log.report("dwarf-error", toString(std::move(E)));
    };
    auto OnWarning = [&Log](Error E) {
      Log.report("dwarf-warning", toString(std::move(E)));
    };
    std::atomic<uint64_t> NumFast{0};
    fast::Unit::Sections FastSecs{
        DObj.getAbbrevSection(), DObj.getStrSection(), DObj.getLineStrSection(),
        DObj.getStrOffsetsSection().Data, DObj.getAddrSection().Data};
    convertInOrder(
        Spans->size(), Threads,
        [&](size_t I) {
          const UnitSpan &S = (*Spans)[I];
          if (Opts.FastReader) {
            static thread_local fast::Unit FU;
            if (FU.parse(Info.substr(S.Offset, S.Length), FastSecs, LE)) {
              ++NumFast;
              return convertCompileUnit(FU, Log, S.Offset, &Names.Objects);
            }
          }
          StringMap<std::unique_ptr<MemoryBuffer>> Sections =
              dwarfSectionBuffers(DObj, Info.substr(S.Offset, S.Length));
          std::unique_ptr<DWARFContext> UCtx =
              DWARFContext::create(Sections, AddrSize, LE, OnError, OnWarning);
          for (const auto &U : UCtx->info_section_units())
            return convertCompileUnit(*U, Log, nullptr, S.Offset, Sup.get(),
                                      &Names.Objects);
          return UnitTypes();
        },
        [&](size_t I, UnitTypes &&UT) {
          Merge(I, std::move(UT));
          const UnitSpan &S = (*Spans)[I];
          Pages.releaseRange(Info, S.Offset + S.Length);
        });
    R.NumFastUnits = NumFast;
    R.NumMergedTypes = Merger.numMerged();
    R.Table = Merger.finish(Names, Threads);
    groupTypesByKind(R.Table);
    return std::move(R);
  }

  std::vector<DWARFUnit *> Units;
  for (const auto &U : Ctx.info_section_units())
    if (!U->isTypeUnit())
      Units.push_back(U.get());
  if (Units.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no DWARF compile units (no debug information)");

  // The ELF symbols the variables and functions are tied to.
  ElfSymbolNames Syms = collectElfSymbols(Obj);

  // Freeing a unit's DIEs while another thread follows a reference into it
  // would race; only DW_FORM_ref_addr (LTO, dwz) crosses units, so keep
  // every unit's DIEs if the abbreviations use it.
  bool ReleaseDIEs =
      !abbrevsMayCrossUnits(DObj.getAbbrevSection()) || Threads <= 1;

  // Reading the unit headers faulted in pages all over .debug_info.
  Pages.releaseAll(Units.front()->getInfoSection().Data);
  TypeSignatureMap Sigs = collectTypeUnits(Ctx);
  // With split DWARF the types are in the units of the .dwo files (or of a
  // .dwp package), with their type units: loaded here, one at a time (the
  // loader is not thread-safe; the units it returns are read by the
  // workers, hence thread-safe contexts when there are several).
  std::vector<DWARFUnit *> DieUnits(Units);
  SmallPtrSet<DWARFContext *, 4> SplitContexts;
  SplitDwarfLoader Dwo(Obj.getFileName(), /*ThreadSafe=*/Threads > 1);
  for (DWARFUnit *&U : DieUnits) {
    Expected<DWARFUnit *> F = Dwo.fullUnit(*U, /*ExtractAll=*/true);
    if (!F) {
      Log.report("missing-dwo",
                 toString(F.takeError()) + ": its types are missing");
      continue;
    }
    if (*F != U && SplitContexts.insert(&(*F)->getContext()).second)
      for (auto &[Sig, Die] : collectTypeUnits((*F)->getContext()))
        Sigs.try_emplace(Sig, Die);
    U = *F;
  }
  // The partial units of dwz's supplementary file that the units import
  // (DW_TAG_imported_unit), directly or through one another, are converted
  // too, once each, in the file's order: they hold the types those units
  // share with other files, used or not (as the same build without dwz
  // has them). Partial units of the input itself are among its units.
  size_t NumOwn = DieUnits.size();
  if (Sup) {
    std::map<uint64_t, DWARFUnit *> SupUnits;
    SmallVector<DWARFUnit *, 16> Work(DieUnits.begin(), DieUnits.end());
    while (!Work.empty()) {
      DWARFUnit *U = Work.pop_back_val();
      for (DWARFDie C :
           DieChildren(U->getUnitDIE(/*ExtractUnitDIEOnly=*/false))) {
        if (C.getTag() != dwarf::DW_TAG_imported_unit)
          continue;
        std::optional<DWARFFormValue> V = C.find(dwarf::DW_AT_import);
        if (!V || !SupplementaryDwarf::isReferenceForm(V->getForm()))
          continue;
        DWARFDie Target = referencedDie(C, *V, Sup.get());
        if (!Target)
          continue;
        DWARFUnit *TU = Target.getDwarfUnit();
        if (SupUnits.try_emplace(TU->getOffset(), TU).second)
          Work.push_back(TU);
      }
    }
    for (auto &[Off, U] : SupUnits)
      DieUnits.push_back(U);
  }
  // With references across units, all DIEs (they are kept to the end then
  // anyway); else only the abbreviations (DIEs are freed unit by unit).
  if (Threads > 1)
    fillUnitsForThreads(DieUnits, /*AllDIEs=*/!ReleaseDIEs);
  R.NumUnits = Units.size();
  convertInOrder(
      DieUnits.size(), Threads,
      [&](size_t I) {
        UnitTypes UT = convertCompileUnit(*DieUnits[I], Log, &Sigs, 0,
                                          Sup.get(), &Syms.Objects);
        // Only this unit's own DIEs: type units stay, they are shared, and
        // so do the supplementary file's, read by every unit.
        if (ReleaseDIEs && I < NumOwn)
          releaseUnitDIEs(*DieUnits[I]);
        return UT;
      },
      [&](size_t I, UnitTypes &&UT) {
        Merge(I, std::move(UT));
        if (I < NumOwn)
          Pages.releaseUpTo(*Units[I]);
      });
  R.NumMergedTypes = Merger.numMerged();
  R.Table = Merger.finish(Syms, Threads);
  groupTypesByKind(R.Table);
  return std::move(R);
}

} // namespace types
} // namespace dwarfpack
