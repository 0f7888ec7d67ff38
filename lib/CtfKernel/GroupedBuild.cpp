//===- GroupedBuild.cpp - One object's units split among modules ----------===//

#include "dwarfpack/CtfKernel/GroupedBuild.h"
#include "dwarfpack/DwarfInput/InputObject.h"

using namespace llvm;
using namespace dwarfpack::types;

namespace dwarfpack {
namespace ctfkernel {

namespace {
struct GroupedUnit : input::UnitResult {
  StringRef CompDir, Name;
  UnitTypes Types;
};

/// Converts every unit on the walk's threads; places each in unit order.
class GroupedVisitor : public input::UnitVisitor {
public:
  GroupedVisitor(const input::InputObject &Obj, const UnitClassifier &Classify,
                 const StringSet<> *Declared, WarningLog &Log)
      : Classify(Classify), Declared(Declared) {
    Sigs.addObject(Obj, Log);
  }
  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override {
    auto R = std::make_unique<GroupedUnit>();
    input::Die CU = C.Skel.getUnitDIE();
    if (std::optional<input::FormValue> V = CU.find(dwarf::DW_AT_name))
      if (const char *S = V->cstr())
        R->Name = S;
    if (std::optional<input::FormValue> V = CU.find(dwarf::DW_AT_comp_dir))
      if (const char *S = V->cstr())
        R->CompDir = S;
    if (!C.Full) {
      C.Log.report("missing-dwo", *C.SplitError + ": its types are missing");
      return R;
    }
    R->Types = convertCompileUnit(*C.Full, C.Log, &Sigs, Declared);
    return R;
  }
  bool merge(size_t, input::UnitResult &R) override {
    auto &U = static_cast<GroupedUnit &>(R);
    UnitTarget T = Classify(U.CompDir, U.Name);
    if (!T.Merger) {
      ++Stats.NumSkipped;
      return false;
    }
    ++Stats.NumUnits;
    Stats.NumInputTypes += U.Types.Types.size();
    T.Merger->add(std::move(U.Types));
    return true;
  }
  GroupedStats Stats;

private:
  const UnitClassifier &Classify;
  const StringSet<> *Declared;
  TypeUnitIndex Sigs;
};
} // namespace

Expected<GroupedStats>
convertUnitsInto(const input::InputObject &Obj, const BuildOptions &Opts,
                 const UnitClassifier &Classify, const StringSet<> *Declared,
                 WarningLog &Log, ArrayRef<input::UnitVisitor *> More) {
  std::vector<input::WalkItem> Units = input::compileUnits(Obj);
  if (Units.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no DWARF compile units (no debug information)");
  GroupedVisitor V(Obj, Classify, Declared, Log);
  SmallVector<input::UnitVisitor *, 2> Visitors{&V};
  Visitors.append(More.begin(), More.end());
  input::WalkOptions W;
  W.Threads = std::max(1u, Opts.NumThreads);
  W.Progress = Opts.Progress;
  if (Error E = input::walkUnits(Obj, Units, Visitors, W, Log))
    return std::move(E);
  return V.Stats;
}

} // namespace ctfkernel
} // namespace dwarfpack
