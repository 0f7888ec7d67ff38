//===- BuildTypeTable.cpp - Whole-object driver for the type builder ------===//

#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Types/ElfSymbols.h"
#include "dwarfpack/Types/ReleaseDIEs.h"

#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <deque>
#include <future>
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

ElfSymbolNames collectElfSymbols(const object::ObjectFile &Obj,
                                 bool GlobalDataOnly) {
  ElfSymbolNames R;
  for (const object::SymbolRef &S : Obj.symbols()) {
    Expected<uint32_t> Flags = S.getFlags();
    Expected<object::SymbolRef::Type> Ty = S.getType();
    Expected<StringRef> Name = S.getName();
    if (!Flags || !Ty || !Name) {
      consumeError(Flags.takeError());
      consumeError(Ty.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & object::SymbolRef::SF_Undefined) || Name->empty())
      continue;
    if (*Ty == object::SymbolRef::ST_Data) {
      if (!GlobalDataOnly || (*Flags & object::SymbolRef::SF_Global))
        R.Objects.insert(*Name);
    } else if (*Ty == object::SymbolRef::ST_Function)
      R.Functions.insert(*Name);
  }
  return R;
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
    StringRef Data = U.getInfoSection().Data;
    if (!Enabled || Data.data() < File.data() ||
        Data.data() + Data.size() > File.data() + File.size() ||
        U.getNextUnitOffset() > Data.size())
      return;
    static const uintptr_t Page = sysconf(_SC_PAGESIZE);
    if (Data.data() != Section) {
      Section = Data.data();
      Released = uintptr_t(Section) & ~(Page - 1);
    }
    uintptr_t End =
        uintptr_t(Data.data() + U.getNextUnitOffset()) & ~(Page - 1);
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

Expected<BuildResult> buildTypeTable(const object::ObjectFile &Obj,
                                     DWARFContext &Ctx,
                                     const BuildOptions &Opts,
                                     WarningLog &Log) {
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
  // would race; only DW_FORM_ref_addr (LTO, dwz) crosses units, so look for
  // it in the abbreviations and keep every unit's DIEs if it occurs.
  bool CrossUnitRefs = false;
  for (DWARFUnit *U : Units)
    if (const DWARFAbbreviationDeclarationSet *Abbrevs = U->getAbbreviations())
      for (const DWARFAbbreviationDeclaration &Decl : *Abbrevs)
        for (const auto &Spec : Decl.attributes())
          CrossUnitRefs |= Spec.Form == dwarf::DW_FORM_ref_addr ||
                           Spec.Form == dwarf::DW_FORM_GNU_ref_alt;
  bool ReleaseDIEs = !CrossUnitRefs || Opts.NumThreads <= 1;

  // Reading the unit headers faulted in pages all over .debug_info.
  PageReleaser Pages(Obj.getData(), Opts.InputIsFileMapping);
  Pages.releaseAll(Units.front()->getInfoSection().Data);
  TypeSignatureMap Sigs = collectTypeUnits(Ctx);
  BuildResult R;
  R.NumUnits = Units.size();
  TypeMerger Merger;
  auto Merge = [&](UnitTypes &&UT) {
    R.NumInputTypes += UT.Types.size();
    Merger.add(std::move(UT));
  };

  unsigned Threads = Opts.NumThreads ? Opts.NumThreads : 1;
  if (Threads == 1) {
    for (DWARFUnit *U : Units) {
      Merge(convertCompileUnit(*U, Log, &Sigs));
      if (ReleaseDIEs)
        releaseUnitDIEs(*U);
      Pages.releaseUpTo(*U);
    }
  } else {
    // Units are converted in parallel and merged strictly in unit order, so
    // the output never depends on scheduling. A bounded window of units in
    // flight keeps memory proportional to the thread count.
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    std::deque<std::shared_future<void>> Pending;
    std::vector<UnitTypes> Results(Units.size());
    size_t Next = 0, Window = 2 * Threads;
    auto Submit = [&] {
      size_t I = Next++;
      Pending.push_back(Pool.async([&, I] {
        Results[I] = convertCompileUnit(*Units[I], Log, &Sigs);
        // Only this unit's own DIEs: type units stay, they are shared.
        if (ReleaseDIEs)
          releaseUnitDIEs(*Units[I]);
      }));
    };
    for (size_t I = 0; I < Units.size(); ++I) {
      while (Next < Units.size() && Next < I + Window)
        Submit();
      Pending.front().wait();
      Pending.pop_front();
      Merge(std::move(Results[I]));
      Pages.releaseUpTo(*Units[I]);
      Results[I] = UnitTypes();
    }
    Pool.wait();
  }
  R.NumMergedTypes = Merger.numMerged();
  R.Table = Merger.finish(&Syms.Objects, &Syms.Functions);
  groupTypesByKind(R.Table);
  return std::move(R);
}

} // namespace types
} // namespace dwarfpack
