//===- GroupedBuild.cpp - One object's units split among modules ----------===//

#include "dwarfpack/CtfKernel/GroupedBuild.h"
#include "dwarfpack/Types/ReleaseDIEs.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <deque>
#include <future>

using namespace llvm;
using namespace dwarfpack::types;

namespace dwarfpack {
namespace ctfkernel {

Expected<GroupedStats> convertUnitsInto(DWARFContext &Ctx,
                                        const BuildOptions &Opts,
                                        const UnitClassifier &Classify,
                                        WarningLog &Log) {
  std::vector<DWARFUnit *> Units;
  for (const auto &U : Ctx.info_section_units())
    if (!U->isTypeUnit())
      Units.push_back(U.get());
  if (Units.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no DWARF compile units (no debug information)");

  // Classify in unit order from the unit DIEs alone.
  GroupedStats R;
  std::vector<DWARFUnit *> Work;
  std::vector<UnitTarget> Into;
  for (DWARFUnit *U : Units) {
    DWARFDie CU = U->getUnitDIE(/*ExtractUnitDIEOnly=*/true);
    StringRef Name = dwarf::toStringRef(CU.find(dwarf::DW_AT_name));
    StringRef Dir = dwarf::toStringRef(CU.find(dwarf::DW_AT_comp_dir));
    if (UnitTarget T = Classify(Dir, Name); T.Merger) {
      Work.push_back(U);
      Into.push_back(T);
    } else {
      ++R.NumSkipped;
    }
  }
  R.NumUnits = Work.size();

  TypeSignatureMap Sigs = collectTypeUnits(Ctx);
  auto Merge = [&](size_t I, UnitTypes &&UT) {
    R.NumInputTypes += UT.Types.size();
    Into[I].Merger->add(std::move(UT));
  };
  unsigned Threads = Opts.NumThreads ? Opts.NumThreads : 1;
  // A unit's DIEs are freed after it, unless another unit may refer into
  // them (an LTO-built vmlinux.o).
  bool Release = Threads == 1 ||
                 !abbrevsMayCrossUnits(Ctx.getDWARFObj().getAbbrevSection());
  if (Threads == 1) {
    for (size_t I = 0; I < Work.size(); ++I) {
      Merge(I, convertCompileUnit(*Work[I], Log, &Sigs, 0, nullptr,
                                  Into[I].Declared));
      releaseUnitDIEs(*Work[I]);
    }
    return R;
  }
  // The classification above parsed each unit's abbreviations; with
  // references across units, their DIEs too, before the workers start.
  if (!Release)
    fillUnitsForThreads(Work, /*AllDIEs=*/true);
  // Converted in parallel within a bounded window, merged in unit order.
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  std::deque<std::shared_future<void>> Pending;
  std::vector<UnitTypes> Results(Work.size());
  size_t Next = 0, Window = 4 * Threads;
  for (size_t I = 0; I < Work.size(); ++I) {
    while (Next < Work.size() && Next < I + Window) {
      size_t J = Next++;
      Pending.push_back(Pool.async([&, J] {
        Results[J] = convertCompileUnit(*Work[J], Log, &Sigs, 0, nullptr,
                                        Into[J].Declared);
        if (Release)
          releaseUnitDIEs(*Work[J]);
      }));
    }
    Pending.front().wait();
    Pending.pop_front();
    Merge(I, std::move(Results[I]));
    Results[I] = UnitTypes();
  }
  Pool.wait();
  return R;
}

} // namespace ctfkernel
} // namespace dwarfpack
