//===- ObjectData.cpp - DATA answers from an object's symbols and DWARF --===//

#include "dwarfpack/Symbolize/ObjectData.h"

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/LineTable.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
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

/// An array bound. DW_FORM_data1 to data8 carry no sign: GCC gives the
/// bound 200 of a `char[201]` as data1 0xc8, which LLVM 19 reads as -56
/// (its variable then holds no address); only the signed forms are read as
/// signed here.
std::optional<int64_t> bound(const FormValue &V) {
  dwarf::Form F = V.getForm();
  if (F == dwarf::DW_FORM_sdata || F == dwarf::DW_FORM_implicit_const)
    return V.getAsSignedConstant();
  if (std::optional<uint64_t> U = V.getAsUnsignedConstant())
    return int64_t(*U);
  return V.getAsSignedConstant();
}

/// DWARFDie::getTypeSize: the bytes of D's type (D a variable or a type),
/// following qualifiers and typedefs, arrays times their subranges' counts.
/// Depth bounds a hostile chain of references.
std::optional<uint64_t> typeSize(const Die &D, unsigned PointerSize,
                                 unsigned Depth = 0) {
  if (!D || Depth > 64)
    return std::nullopt;
  if (std::optional<FormValue> S = D.find(dwarf::DW_AT_byte_size))
    if (std::optional<uint64_t> Size = S->getAsUnsignedConstant())
      return Size;
  Die Base = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
  switch (D.getTag()) {
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
    return PointerSize;
  case dwarf::DW_TAG_ptr_to_member_type:
    return Base && Base.getTag() == dwarf::DW_TAG_subroutine_type
               ? 2 * PointerSize
               : PointerSize;
  case dwarf::DW_TAG_array_type: {
    std::optional<uint64_t> Size = typeSize(Base, PointerSize, Depth + 1);
    if (!Size)
      return std::nullopt;
    for (Die C : D.children()) {
      if (C.getTag() != dwarf::DW_TAG_subrange_type)
        continue;
      if (std::optional<FormValue> N = C.find(dwarf::DW_AT_count))
        if (std::optional<uint64_t> Count = N->getAsUnsignedConstant())
          *Size *= *Count;
      if (std::optional<FormValue> U = C.find(dwarf::DW_AT_upper_bound))
        if (std::optional<int64_t> Upper = bound(*U)) {
          int64_t Lower = 0;
          if (std::optional<FormValue> L = C.find(dwarf::DW_AT_lower_bound))
            Lower = bound(*L).value_or(0);
          *Size *= uint64_t(*Upper - Lower + 1);
        }
    }
    return Size;
  }
  default:
    return typeSize(Base, PointerSize, Depth + 1);
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
    UnitFiles Files(C, *R);
    const input::Unit &U = *C.Full;
    for (uint32_t I = 0, E = U.numDies(); I < E;) {
      Die D(&U, I);
      // A type's subtree holds declarations only.
      if (isTypeTag(D.getTag())) {
        I = nextOutside(U, I);
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
  /// The paths of one unit's declaration files, its line table decoded at
  /// the first one asked for.
  class UnitFiles {
  public:
    UnitFiles(const input::UnitContext &C, UnitVariables &R) : C(C), R(R) {}

    /// 1 + the index in R.Paths of file Index of the unit's line table; 0
    /// when the table has no such file.
    uint32_t path(uint64_t Index) {
      if (!Decoded)
        decode();
      if (!Table || !Table->hasFile(Index))
        return 0;
      auto [It, New] = Known.try_emplace(Index, 0);
      if (New) {
        std::string Path;
        if (Table->filePath(Index, CompDir, Path)) {
          R.Paths.push_back(std::move(Path));
          It->second = R.Paths.size();
        }
      }
      return It->second;
    }

  private:
    void decode() {
      Decoded = true;
      Die CU = C.Skel.getUnitDIE();
      if (!CU)
        return;
      if (std::optional<FormValue> Dir = CU.find(dwarf::DW_AT_comp_dir))
        if (const char *S = Dir->cstr())
          CompDir = S;
      std::optional<FormValue> List = CU.find(dwarf::DW_AT_stmt_list);
      input::LineSections S = input::lineSections(C.Skel);
      uint64_t Off = UINT64_MAX;
      if (List)
        Off = List->getAsSectionOffset().value_or(UINT64_MAX);
      if (Off >= S.Line.size())
        return;
      Expected<input::LineTable> T =
          input::LineTable::parse(S, Off, [](Error E) {
            // Rows do not matter here: the file names come first.
            consumeError(std::move(E));
          });
      if (!T) {
        C.Log.report("bad-line-table", toString(T.takeError()) +
                                           " (unit at 0x" +
                                           utohexstr(C.Skel.getOffset()) +
                                           "): no declaration files");
        return;
      }
      Table = std::move(*T);
    }

    const input::UnitContext &C;
    UnitVariables &R;
    bool Decoded = false;
    std::optional<input::LineTable> Table;
    std::string CompDir;
    DenseMap<uint64_t, uint32_t> Known;
  };

  /// The index of the first DIE after I's subtree.
  static uint32_t nextOutside(const input::Unit &U, uint32_t I) {
    Die D(&U, I);
    if (Die S = D.getSibling())
      return S.index();
    // The last child: past the parent's subtree, or the unit's end.
    for (Die P = D.getParent(); P; P = P.getParent())
      if (Die S = P.getSibling())
        return S.index();
    return U.numDies();
  }

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
                                      WarningLog &Log, unsigned Threads) {
  ObjectData Data;
  for (const SymbolFunction &S : collectSymbolizerSymbols(Obj))
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

Expected<const ObjectData &> ObjectDataSource::get() {
  std::call_once(Once, [&] {
    WarningLog Log;
    Expected<input::InputWithDebugFile> In =
        input::openWithDebugFile(Object->getMemBufferRef(), Debug, Log);
    if (!In) {
      Problem = toString(In.takeError());
      return;
    }
    Expected<ObjectData> D = ObjectData::read(*In->Object, Log, Threads);
    if (!D) {
      Problem = toString(D.takeError());
      return;
    }
    Data = std::move(*D);
  });
  if (!Data)
    return createStringError(inconvertibleErrorCode(), Problem);
  return *Data;
}

} // namespace dwarfpack
