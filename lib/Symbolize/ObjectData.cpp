//===- ObjectData.cpp - DATA answers from an object's symbols and DWARF --===//

#include "dwarfpack/Symbolize/ObjectData.h"

#include "ObjectDwarf.h"

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

namespace {

using input::Die;
using input::FormValue;

/// Type DIEs, whose children LLVM does not search for variables (a C++
/// class's static members are declarations; their definitions are
/// outside).
bool isTypeTag(dwarf::Tag T) {
  switch (T) {
  case dwarf::DW_TAG_array_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_enumeration_type:
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
  case dwarf::DW_TAG_string_type:
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_subroutine_type:
  case dwarf::DW_TAG_typedef:
  case dwarf::DW_TAG_union_type:
  case dwarf::DW_TAG_ptr_to_member_type:
  case dwarf::DW_TAG_set_type:
  case dwarf::DW_TAG_subrange_type:
  case dwarf::DW_TAG_base_type:
  case dwarf::DW_TAG_const_type:
  case dwarf::DW_TAG_file_type:
  case dwarf::DW_TAG_packed_type:
  case dwarf::DW_TAG_volatile_type:
  case dwarf::DW_TAG_restrict_type:
  case dwarf::DW_TAG_atomic_type:
  case dwarf::DW_TAG_immutable_type:
  case dwarf::DW_TAG_interface_type:
  case dwarf::DW_TAG_unspecified_type:
  case dwarf::DW_TAG_shared_type:
    return true;
  default:
    return false;
  }
}

/// The address a global variable's location names: exactly DW_OP_addr or
/// DW_OP_addrx, optionally then DW_OP_plus_uconst (LLVM's
/// updateVariableDieMap). Location lists name no global.
std::optional<uint64_t> variableAddress(const Die &D) {
  std::optional<FormValue> L = D.find(dwarf::DW_AT_location);
  if (!L || L->isReference())
    return std::nullopt;
  std::optional<ArrayRef<uint8_t>> Expr = L->getAsBlock();
  if (!Expr)
    return std::nullopt;
  std::optional<input::StaticLocation> S =
      input::staticLocation(*D.getDwarfUnit(), *Expr);
  if (!S || S->Op == dwarf::DW_OP_GNU_addr_index)
    return std::nullopt;
  return S->Address;
}

/// One unit's variables, with their declarations' file paths.
struct UnitVariables : input::UnitResult {
  std::vector<ObjectData::Variable> Variables; ///< File: 1 + index in Paths
  std::vector<std::string> Paths;
};

/// Collects the global variables of each unit, as LLVM's
/// DWARFUnit::updateVariableDieMap finds them.
class VariableVisitor : public input::UnitVisitor {
public:
  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override {
    auto R = std::make_unique<UnitVariables>();
    if (!C.Full)
      return R;
    UnitFiles Files(C, R->Paths);
    const input::Unit &U = *C.Full;
    for (uint32_t I = 0, E = U.numDies(); I < E;) {
      Die D(&U, I);
      // A type's subtree holds declarations only.
      if (isTypeTag(D.getTag())) {
        I = D.subtreeEnd();
        continue;
      }
      ++I;
      if (D.getTag() == dwarf::DW_TAG_variable)
        addVariable(D, Files, *R);
    }
    // Later DIEs of a start replace earlier ones, as in LLVM's map.
    std::stable_sort(
        R->Variables.begin(), R->Variables.end(),
        [](const auto &A, const auto &B) { return A.Start < B.Start; });
    auto &V = R->Variables;
    std::vector<ObjectData::Variable> Kept;
    for (size_t J = 0; J < V.size(); ++J)
      if (J + 1 == V.size() || V[J + 1].Start != V[J].Start)
        Kept.push_back(V[J]);
    V = std::move(Kept);
    return R;
  }

  bool merge(size_t, input::UnitResult &R) override {
    Units.push_back(std::move(static_cast<UnitVariables &>(R)));
    return true;
  }

  std::vector<UnitVariables> Units;

private:
  static void addVariable(const Die &D, UnitFiles &Files, UnitVariables &R) {
    std::optional<uint64_t> Start = variableAddress(D);
    if (!Start)
      return;
    uint64_t Size = 1; // no type: the exact address still answers
    if (D.hasAttribute(dwarf::DW_AT_type))
      if (std::optional<uint64_t> S =
              typeSize(D, D.getDwarfUnit()->getAddressByteSize()))
        Size = *S;
    ObjectData::Variable V;
    V.Start = *Start;
    // Wrapping as LLVM's does: a size that wraps (a hostile bound) makes a
    // range that holds no address, not one that holds every address after
    // the variable.
    V.End = *Start + Size;
    // The declaration may be on the DIE this one specifies; file numbers
    // are those of this unit's line table.
    Die Decl = D;
    for (unsigned Hops = 0; Decl && Hops < 4; ++Hops) {
      std::optional<FormValue> File = Decl.find(dwarf::DW_AT_decl_file);
      std::optional<FormValue> Line = Decl.find(dwarf::DW_AT_decl_line);
      if (File || Line) {
        if (File)
          V.File = Files.path(File->getAsUnsignedConstant().value_or(~0ULL));
        if (Line)
          V.Line = uint32_t(std::min<uint64_t>(
              Line->getAsUnsignedConstant().value_or(0), UINT32_MAX));
        break;
      }
      Die Next =
          Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
      if (!Next)
        Next =
            Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
      Decl = Next && Next.getDwarfUnit() == D.getDwarfUnit() ? Next : Die();
    }
    R.Variables.push_back(V);
  }
};

} // namespace

Expected<ObjectData> ObjectData::read(const input::InputObject &Obj,
                                      WarningLog &Log, unsigned Threads,
                                      bool KeepTags) {
  ObjectData Data;
  for (const SymbolFunction &S : collectSymbolizerSymbols(Obj, KeepTags))
    Data.Symbols.push_back(
        {S.Range.Start, S.Range.End - S.Range.Start, S.Name.str(),
         S.File ? std::optional<std::string>(S.File->str()) : std::nullopt});
  VariableVisitor Variables;
  input::WalkOptions W;
  W.Threads = Threads;
  W.ReleasePages = false;
  W.ReportUnitProblems = false;
  input::UnitVisitor *V = &Variables;
  if (Error E = input::walkUnits(Obj, input::compileUnits(Obj), V, W, Log))
    return std::move(E);
  StringMap<uint32_t> FileIds;
  for (UnitVariables &U : Variables.Units) {
    // Paths become one list: unit-local indexes are renumbered.
    std::vector<uint32_t> Renumber(U.Paths.size() + 1, 0);
    for (size_t I = 0; I < U.Paths.size(); ++I) {
      auto [It, New] = FileIds.try_emplace(U.Paths[I], Data.Files.size());
      if (New)
        Data.Files.push_back(U.Paths[I]);
      Renumber[I + 1] = It->second;
    }
    for (Variable &Var : U.Variables)
      Var.File = Renumber[Var.File];
    Data.Units.push_back(std::move(U.Variables));
  }
  return std::move(Data);
}

size_t ObjectData::numVariables() const {
  size_t N = 0;
  for (const std::vector<Variable> &U : Units)
    N += U.size();
  return N;
}

std::optional<DataSymbol> ObjectData::find(uint64_t Address) const {
  DataSymbol Out;
  bool Found = false;
  auto S = std::upper_bound(
      Symbols.begin(), Symbols.end(), Address,
      [](uint64_t A, const Symbol &Sym) { return A < Sym.Start; });
  if (S != Symbols.begin()) {
    --S;
    if (S->Size == 0 || Address - S->Start < S->Size) {
      Out.Name = S->Name;
      Out.Start = S->Start;
      Out.Size = S->Size;
      if (S->File)
        Out.DeclFile = *S->File;
      Found = true;
    }
  }
  // The first unit (in unit order) with a variable over Address, as
  // DWARFContext::getCompileUnitForDataAddress walks them.
  for (const std::vector<Variable> &U : Units) {
    auto V = std::upper_bound(
        U.begin(), U.end(), Address,
        [](uint64_t A, const Variable &Var) { return A < Var.Start; });
    if (V == U.begin())
      continue;
    --V;
    if (Address >= V->End)
      continue;
    // A declaration without a line leaves the symbol's file.
    if (V->Line) {
      Out.DeclFile = Files[V->File];
      Out.DeclLine = V->Line;
      Found = true;
    }
    break;
  }
  if (!Found)
    return std::nullopt;
  return Out;
}

template <typename T, typename ReadFn>
Expected<const T &> ObjectDataSource::read(Lazy<T> &L,
                                           std::vector<std::string> *Warnings,
                                           ReadFn ReadFrom) {
  bool First = false;
  std::call_once(L.Once, [&] {
    First = true;
    WarningLog Log;
    Expected<input::InputWithDebugFile> In =
        input::openWithDebugFile(Object->getMemBufferRef(), Debug, Log);
    if (!In) {
      L.Problem = toString(In.takeError());
      return;
    }
    Expected<T> V = ReadFrom(std::move(*In), Log);
    if (!V) {
      L.Problem = toString(V.takeError());
      return;
    }
    L.Value = std::move(*V);
    L.Warnings = Log.summaryLines();
  });
  // Only the call that read it reports what it found.
  if (First && Warnings)
    *Warnings = std::move(L.Warnings);
  if (!L.Value)
    return createStringError(inconvertibleErrorCode(), L.Problem);
  return *L.Value;
}

Expected<const ObjectData &>
ObjectDataSource::get(std::vector<std::string> *Warnings) {
  return read(Data, Warnings,
              [&](input::InputWithDebugFile In, WarningLog &Log) {
                return ObjectData::read(*In.Object, Log, Threads, KeepTags);
              });
}

Expected<const ObjectFrames &>
ObjectDataSource::frames(std::vector<std::string> *Warnings) {
  return read(Frames, Warnings,
              [&](input::InputWithDebugFile In, WarningLog &Log) {
                return ObjectFrames::read(std::move(In), Log, Threads);
              });
}

} // namespace dwarfpack
