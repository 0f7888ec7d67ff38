//===- BuildTypeTable.cpp - Whole-object driver for the type builder ------===//

#include "dwarfpack/Types/DwarfTypeBuilder.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <deque>
#include <future>

using namespace llvm;

namespace dwarfpack {
namespace types {

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
  StringSet<> Objects, Functions;
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
    if (*Ty == object::SymbolRef::ST_Data)
      Objects.insert(*Name);
    else if (*Ty == object::SymbolRef::ST_Function)
      Functions.insert(*Name);
  }

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
    for (DWARFUnit *U : Units)
      Merge(convertCompileUnit(*U, Log, &Sigs));
  } else {
    // Units are converted in parallel and merged strictly in unit order, so
    // the output never depends on scheduling. A bounded window of units in
    // flight keeps memory proportional to the thread count.
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    std::deque<std::shared_future<void>> Pending;
    std::vector<UnitTypes> Results(Units.size());
    size_t Next = 0, Window = 4 * Threads;
    auto Submit = [&] {
      size_t I = Next++;
      Pending.push_back(Pool.async(
          [&, I] { Results[I] = convertCompileUnit(*Units[I], Log, &Sigs); }));
    };
    for (size_t I = 0; I < Units.size(); ++I) {
      while (Next < Units.size() && Next < I + Window)
        Submit();
      Pending.front().wait();
      Pending.pop_front();
      Merge(std::move(Results[I]));
      Results[I] = UnitTypes();
    }
    Pool.wait();
  }
  R.NumMergedTypes = Merger.numMerged();
  R.Table = Merger.finish(&Objects, &Functions);
  return std::move(R);
}

} // namespace types
} // namespace dwarfpack
