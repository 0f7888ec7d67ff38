//===- UnitWalk.cpp - One walk over an object's units, many visitors ------===//

#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/RunInOrder.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>
#include <thread>

using namespace llvm;

namespace dwarfpack {
namespace input {

std::vector<WalkItem> compileUnits(const InputObject &Obj) {
  std::vector<WalkItem> Items;
  const DwarfFile &F = Obj.dwarf();
  for (const UnitHeader &H : F.units())
    if (!H.InTypesSection && !H.isTypeUnit())
      Items.push_back({&F, &H});
  return Items;
}

namespace {

/// What a worker made of one unit: the walk's and the visitors' warnings
/// and results.
struct Made {
  /// What the walk itself reports (units that do not parse, missing .dwo
  /// files), then each visitor's warnings.
  std::unique_ptr<WarningLog> Log;
  std::vector<std::unique_ptr<WarningLog>> VisitorLogs;
  std::vector<std::unique_ptr<UnitResult>> Results;
};

/// One unit until it is merged.
struct Slot {
  Made Unit;
  /// The thread that made it, which also frees what the merge leaves.
  std::thread::id Maker;
  Error Fatal = Error::success();
};

/// What the merges left of units other threads made, until those threads
/// free it. A block freed by a thread other than the one that allocated
/// it goes back to that thread's malloc arena under the arena's lock,
/// which the allocating thread is busy taking itself: on vmlinux, `pack`
/// spent about 4 % of its CPU in malloc's futex waits and wake-ups.
class SpentUnits {
public:
  void give(std::thread::id Maker, Made &&M) {
    std::lock_guard<std::mutex> L(Lock);
    for (auto &[Id, List] : Bins)
      if (Id == Maker) {
        List.push_back(std::move(M));
        return;
      }
    Bins.emplace_back(Maker, std::vector<Made>());
    Bins.back().second.push_back(std::move(M));
  }
  /// Frees what was left for the calling thread.
  void freeOwn() {
    std::vector<Made> Mine;
    {
      std::lock_guard<std::mutex> L(Lock);
      for (auto &[Id, List] : Bins)
        if (Id == std::this_thread::get_id())
          std::swap(Mine, List);
    }
  }

private:
  std::mutex Lock;
  SmallVector<std::pair<std::thread::id, std::vector<Made>>, 4> Bins;
};

/// A worker's reusable buffers: parsing unit after unit into them spares
/// an allocation (and its page faults) per array and unit.
struct WorkerUnits {
  Unit Skel, Full;
};

} // namespace

Error walkUnits(const InputObject &Obj, ArrayRef<WalkItem> Items,
                ArrayRef<UnitVisitor *> Visitors, const WalkOptions &Opts,
                WarningLog &Log) {
  if (Opts.ReportUnitProblems)
    for (const std::string &P : Obj.unitProblems())
      Log.report("dwarf-warning", P);
  std::vector<Slot> Slots(Items.size());
  for (Slot &S : Slots)
    consumeError(std::move(S.Fatal));
  SplitUnits &Splits = Obj.splitUnits();
  SpentUnits Spent;

  auto Convert = [&](size_t I) {
    static thread_local WorkerUnits W;
    Spent.freeOwn();
    Slot &Sl = Slots[I];
    Sl.Maker = std::this_thread::get_id();
    Made &S = Sl.Unit;
    S.Log = std::make_unique<WarningLog>();
    const WalkItem &Item = Items[I];
    if (Error E = W.Skel.parse(*Item.File, *Item.Header, nullptr,
                               Opts.UnitDiesOnly)) {
      if (isSectionOverrun(E))
        Sl.Fatal = std::move(E);
      else
        S.Log->report("dwarf-warning", toString(std::move(E)));
      return;
    }
    // Units of other files (dwz's) had theirs reported when the file was
    // opened.
    if (!W.Skel.partialProblem().empty() && Item.File == &Obj.dwarf())
      S.Log->report("dwarf-warning", W.Skel.partialProblem());
    UnitContext C{Obj, W.Skel, &W.Skel, std::nullopt, StringRef(), I, *S.Log};
    if (W.Skel.isSkeleton() && Opts.UnitDiesOnly) {
      C.Full = nullptr;
    } else if (W.Skel.isSkeleton()) {
      Expected<std::optional<SplitUnits::Found>> F =
          Splits.find(W.Skel, *S.Log);
      if (!F) {
        C.Full = nullptr;
        C.SplitError = toString(F.takeError());
      } else if (*F) {
        C.SplitPath = (*F)->Path;
        if (Error E = W.Full.parse(*(*F)->File, *(*F)->Header, &W.Skel)) {
          // Opening the file reported why (SplitUnits).
          consumeError(std::move(E));
          C.Full = nullptr;
          C.SplitError = "split DWARF unit at 0x" +
                         utohexstr(W.Skel.getOffset()) + ": its unit in '" +
                         (*F)->Path.str() + "' has no readable DIE";
        } else {
          C.Full = &W.Full;
        }
      }
    }
    for (UnitVisitor *V : Visitors) {
      S.VisitorLogs.push_back(std::make_unique<WarningLog>());
      UnitContext VC{C.Object,
                     C.Skel,
                     C.Full,
                     C.SplitError,
                     C.SplitPath,
                     C.Index,
                     *S.VisitorLogs.back()};
      S.Results.push_back(V->visit(VC));
    }
  };

  size_t Done = 0;
  uint64_t MergedTo = 0, ReleasedTo = 0;
  // A unit reads its abbreviations when it is parsed, and units may share
  // a table: AbbrevsFrom[I] is where the tables of the object's units from
  // I on start; the part of .debug_abbrev before it is released with the
  // units (a vmlinux has 5 MB of tables, one per unit, in unit order).
  std::vector<uint64_t> AbbrevsFrom(Items.size() + 1);
  AbbrevsFrom.back() = Obj.dwarf().section(Sec::Abbrev).size();
  for (size_t I = Items.size(); I-- > 0;) {
    const UnitHeader &H = *Items[I].Header;
    AbbrevsFrom[I] = AbbrevsFrom[I + 1];
    if (Items[I].File == &Obj.dwarf())
      AbbrevsFrom[I] =
          std::min(AbbrevsFrom[I], H.AbbrevOffset + H.Contrib.Abbrev);
  }
  uint64_t AbbrevsTo = 0;
  auto Release = [&] {
    Obj.releaseSectionPrefix(Sec::Info, MergedTo);
    Obj.releaseSectionPrefix(Sec::Abbrev, AbbrevsTo);
    ReleasedTo = MergedTo;
  };
  auto Merge = [&](size_t I) -> Error {
    Slot &Sl = Slots[I];
    if (Sl.Fatal)
      return std::move(Sl.Fatal);
    Made &S = Sl.Unit;
    if (S.Log)
      Log.merge(*S.Log);
    for (size_t V = 0; V < S.Results.size(); ++V)
      if (Visitors[V]->merge(I, *S.Results[V]))
        Log.merge(*S.VisitorLogs[V]);
    if (Sl.Maker == std::this_thread::get_id())
      S = Made();
    else
      Spent.give(Sl.Maker, std::move(S));
    const WalkItem &Item = Items[I];
    AbbrevsTo = std::max(AbbrevsTo, AbbrevsFrom[I + 1]);
    if (Opts.ReleasePages && Item.File == &Obj.dwarf() &&
        !Item.Header->InTypesSection) {
      MergedTo = std::max(MergedTo, Item.Header->end());
      if (MergedTo - ReleasedTo >= Opts.ReleaseStep)
        Release();
    }
    if (Opts.Progress)
      Opts.Progress(++Done, Items.size());
    return Error::success();
  };
  Error Fatal = runInOrder(Items.size(), Opts.Threads, /*WindowPerThread=*/4,
                           Convert, Merge);
  if (MergedTo > ReleasedTo)
    Release();
  // The units after the first unusable one are not merged.
  for (Slot &S : Slots)
    consumeError(std::move(S.Fatal));
  return Fatal;
}

} // namespace input
} // namespace dwarfpack
