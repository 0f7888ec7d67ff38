//===- BuildTypeTable.cpp - The type model, a visitor of the walk ---------===//

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Types/ElfSymbols.h"
#include "dwarfpack/Types/TypeTableBuilder.h"

#include "llvm/Object/ObjectFile.h"

#include <chrono>
#include <cstring>
#include <future>

using namespace llvm;

namespace dwarfpack {
namespace types {

//===----------------------------------------------------------------------===//
// Type units by signature
//===----------------------------------------------------------------------===//

void TypeUnitIndex::addFile(const input::DwarfFile &F) {
  for (const input::UnitHeader &H : F.units())
    if (H.isTypeUnit())
      Map.try_emplace(H.TypeSignature, &F, &H);
}

namespace {
/// Whether any abbreviation names a .dwo file: only then can a unit be a
/// DWARF 4 skeleton, whose unit DIE must be read to tell.
bool mayHaveSkeletons(const input::DwarfFile &F) {
  for (const input::UnitHeader &H : F.units())
    if (H.UnitType == dwarf::DW_UT_skeleton)
      return true;
  // DW_AT_GNU_dwo_name (0x2130) as a ULEB128 in an abbreviation. memchr
  // for its first byte: StringRef::find took 10 ms over a vmlinux's 5 MB,
  // before the walk starts.
  StringRef A = F.section(input::Sec::Abbrev);
  const char *P = A.data(), *End = A.data() + A.size();
  while (P && End - P >= 2) {
    P = static_cast<const char *>(memchr(P, '\xb0', End - P - 1));
    if (P && *++P == '\x42')
      return true;
  }
  return false;
}
} // namespace

void TypeUnitIndex::addObject(const input::InputObject &Obj, WarningLog &Log) {
  addFile(Obj.dwarf());
  if (const input::InputObject *Sup = Obj.supplementary())
    addFile(Sup->dwarf());
  if (!mayHaveSkeletons(Obj.dwarf()))
    return;
  // The .dwo files of the skeletons, in unit order, before the walk: which
  // file's copy of a type unit counts must not depend on the schedule.
  input::Unit U;
  for (const input::WalkItem &I : input::compileUnits(Obj)) {
    if (Error E = U.parse(*I.File, *I.Header)) {
      consumeError(std::move(E));
      continue;
    }
    if (!U.isSkeleton())
      continue;
    // Problems of the files are reported when they are opened, here; a
    // missing file, by the walk, unit by unit.
    Expected<std::optional<input::SplitUnits::Found>> F =
        Obj.splitUnits().find(U, Log);
    if (!F) {
      consumeError(F.takeError());
      continue;
    }
    if (*F)
      addFile(*(*F)->File);
  }
}

input::Die TypeUnitIndex::lookup(uint64_t Signature) const {
  auto It = Map.find(Signature);
  if (It == Map.end())
    return input::Die();
  const auto &[File, Header] = It->second;
  const input::Unit *U = File->sharedUnit(*Header);
  if (!U)
    return input::Die();
  return U->getDIEForOffset(Header->Offset + Header->TypeOffset);
}

//===----------------------------------------------------------------------===//
// The visitor
//===----------------------------------------------------------------------===//

namespace {
struct UnitTypesResult : input::UnitResult {
  UnitTypes Types;
  /// Units of the supplementary file this unit imports (their offsets).
  SmallVector<uint64_t, 4> Imports;
};

/// The supplementary file's units that U's DW_TAG_imported_unit children
/// name.
void collectImports(const input::Unit &U, SmallVectorImpl<uint64_t> &Out) {
  input::Die CU = U.getUnitDIE();
  if (!CU)
    return;
  for (input::Die C : CU.children()) {
    if (C.getTag() != dwarf::DW_TAG_imported_unit)
      continue;
    std::optional<input::FormValue> V = C.find(dwarf::DW_AT_import);
    if (!V)
      continue;
    dwarf::Form F = V->getForm();
    if (F != dwarf::DW_FORM_GNU_ref_alt && F != dwarf::DW_FORM_ref_sup4 &&
        F != dwarf::DW_FORM_ref_sup8)
      continue;
    if (input::Die Target = C.getAttributeValueAsReferencedDie(*V))
      Out.push_back(Target.getDwarfUnit()->getOffset());
  }
}
} // namespace

TypeTableBuilder::TypeTableBuilder(const input::InputObject &Obj,
                                   WarningLog &Log, unsigned Threads)
    : Obj(Obj),
      // Reading a kernel's symbols took 28 ms, alone, before the walk;
      // the units need them only once their types are converted.
      Names(std::async(
          Threads > 1 ? std::launch::async : std::launch::deferred,
          [&Obj] { return collectElfSymbols(Obj.symbolTableObject()); })),
      // The object (and its decompressed sections) outlives the merger.
      Merger(/*StableInputs=*/true) {
  Sigs.addObject(Obj, Log);
}

TypeTableBuilder::~TypeTableBuilder() = default;

std::unique_ptr<input::UnitResult>
TypeTableBuilder::visit(const input::UnitContext &C) {
  auto R = std::make_unique<UnitTypesResult>();
  if (!C.Full) {
    C.Log.report("missing-dwo", *C.SplitError + ": its types are missing");
    return R;
  }
  std::shared_future<ElfSymbolNames> Symbols = Names; // a copy per thread
  R->Types = convertCompileUnit(
      *C.Full, C.Log, &Sigs, [&Symbols] { return &Symbols.get().Objects; },
      [&Symbols] {
        // Deferred (one thread): reading them now is no later than ever.
        return Symbols.wait_for(std::chrono::seconds(0)) !=
               std::future_status::timeout;
      });
  if (Obj.supplementary())
    collectImports(*C.Full, R->Imports);
  return R;
}

bool TypeTableBuilder::merge(size_t, input::UnitResult &R) {
  auto &U = static_cast<UnitTypesResult &>(R);
  Result.NumInputTypes += U.Types.Types.size();
  DeclarationsUnfiltered |= U.Types.DeclarationsUnfiltered;
  Merger.add(std::move(U.Types));
  Imported.insert(U.Imports.begin(), U.Imports.end());
  return true;
}

Expected<BuildResult> TypeTableBuilder::finish(const BuildOptions &Opts,
                                               WarningLog &Log) {
  // The partial units of dwz's file that the units import, directly or
  // through one another, once each, in the file's order: they hold the
  // types those units share with other files, used or not (as the same
  // build without dwz has them).
  if (const input::InputObject *Sup = Obj.supplementary()) {
    const input::DwarfFile &SF = Sup->dwarf();
    std::set<uint64_t> Done;
    SmallVector<uint64_t, 16> Work(Imported.begin(), Imported.end());
    while (!Work.empty()) {
      uint64_t Off = Work.pop_back_val();
      if (!Done.insert(Off).second)
        continue;
      if (const input::UnitHeader *H = SF.infoUnitAt(Off))
        if (const input::Unit *U = SF.sharedUnit(*H)) {
          SmallVector<uint64_t, 4> More;
          collectImports(*U, More);
          Work.append(More.begin(), More.end());
        }
    }
    std::vector<input::WalkItem> Items;
    for (uint64_t Off : Done)
      if (const input::UnitHeader *H = SF.infoUnitAt(Off))
        Items.push_back({&SF, H});
    input::WalkOptions W;
    W.Threads = Opts.NumThreads;
    W.ReleasePages = false;
    W.ReportUnitProblems = false;
    if (Error E = input::walkUnits(Obj, Items, {this}, W, Log))
      return std::move(E);
  }
  if (DeclarationsUnfiltered)
    Merger.keepDeclarationsOf(Names.get().Objects);
  Result.NumMergedTypes = Merger.numMerged();
  Result.Table = Merger.finish(Names.get(), std::max(1u, Opts.NumThreads));
  groupTypesByKind(Result.Table);
  return std::move(Result);
}

Expected<BuildResult> buildTypeTable(const input::InputObject &Obj,
                                     const BuildOptions &Opts,
                                     WarningLog &Log) {
  std::vector<input::WalkItem> Units = input::compileUnits(Obj);
  if (Units.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no DWARF compile units (no debug information)");
  TypeTableBuilder Builder(Obj, Log, std::max(1u, Opts.NumThreads));
  input::WalkOptions W;
  W.Threads = std::max(1u, Opts.NumThreads);
  W.Progress = Opts.Progress;
  if (Error E = input::walkUnits(Obj, Units, {&Builder}, W, Log))
    return std::move(E);
  Expected<BuildResult> R = Builder.finish(Opts, Log);
  if (R)
    R->NumUnits = Units.size();
  return R;
}

} // namespace types
} // namespace dwarfpack
