//===- ObjectFrames.cpp - FRAME answers from an object's DWARF -----------===//

#include "dwarfpack/Symbolize/ObjectFrames.h"

#include "ObjectDwarf.h"

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/LEB128.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

using namespace llvm;

namespace dwarfpack {

namespace {

using input::Die;
using input::FormValue;

constexpr uint32_t None = UINT32_MAX;

bool isSubroutine(dwarf::Tag T) {
  return T == dwarf::DW_TAG_subprogram || T == dwarf::DW_TAG_inlined_subroutine;
}

/// DWARFDie::getSubroutineName(ShortName): a subroutine's DW_AT_name, from
/// its abstract origin or specification if need be.
StringRef subroutineName(const Die &D) {
  if (!D || !isSubroutine(D.getTag()))
    return StringRef();
  if (std::optional<FormValue> V = D.findRecursively({dwarf::DW_AT_name}))
    if (const char *S = V->cstr())
      return S;
  return StringRef();
}

/// The register of D's DW_AT_frame_base when that is DW_OP_regN.
std::optional<uint8_t> frameBaseReg(const Die &D) {
  if (std::optional<FormValue> V = D.find(dwarf::DW_AT_frame_base))
    if (std::optional<ArrayRef<uint8_t>> E = V->getAsBlock())
      if (!E->empty() && (*E)[0] >= dwarf::DW_OP_reg0 &&
          (*E)[0] <= dwarf::DW_OP_reg31)
        return uint8_t((*E)[0] - dwarf::DW_OP_reg0);
  return std::nullopt;
}

/// LLVM's getExpressionFrameOffset without its register test: a single
/// DW_OP_fbreg or DW_OP_bregN, optionally then DW_OP_deref (Fortran's
/// arrays), as (operation, offset).
std::optional<std::pair<uint8_t, int64_t>>
frameOffsetCandidate(ArrayRef<uint8_t> E) {
  if (E.empty() ||
      !(E[0] == dwarf::DW_OP_fbreg ||
        (E[0] >= dwarf::DW_OP_breg0 && E[0] <= dwarf::DW_OP_breg31)))
    return std::nullopt;
  // LLVM's decoder, so that a truncated offset reads as LLVM reads it.
  unsigned Count = 0;
  int64_t Offset = decodeSLEB128(E.data() + 1, &Count, E.end());
  if (E.size() == Count + 1 ||
      (E.size() == Count + 2 && E[Count + 1] == dwarf::DW_OP_deref))
    return std::make_pair(E[0], Offset);
  return std::nullopt;
}

/// One unit's pass: its subroutines' address map and its locals.
class UnitReader {
public:
  UnitReader(const input::UnitContext &C, ObjectFrames::Unit &R)
      : U(*C.Full), R(R), Files(C, Paths) {}

  void run() {
    // The DIEs in order (parents before children), with the context of
    // their ancestors.
    struct Context {
      uint32_t End = 0;
      uint32_t InlinedAt = None, InlinedName = 0;
      std::optional<uint8_t> InlinedBaseReg;
      bool InCode = false, InVariable = false;
    };
    std::vector<Context> Stack;
    const uint32_t N = U.numDies();
    for (uint32_t I = 0; I < N; ++I) {
      while (!Stack.empty() && I >= Stack.back().End)
        Stack.pop_back();
      Context Cur;
      Cur.End = N;
      if (!Stack.empty())
        Cur = Stack.back();
      Die D(&U, I);
      dwarf::Tag T = D.getTag();
      bool Local =
          T == dwarf::DW_TAG_variable || T == dwarf::DW_TAG_formal_parameter;
      // Only a subroutine with code answers for the variables under it:
      // those of abstract instances and of C++ methods' declarations (most
      // of a C++ unit's) are never asked for.
      if (Local && Cur.InCode && !Cur.InVariable)
        addLocal(D, Cur.InlinedAt, Cur.InlinedName, Cur.InlinedBaseReg);
      bool Code = isSubroutine(T) && addRanges(D);
      if (!D.hasChildren())
        continue;
      Context Next = Cur;
      Next.End = D.subtreeEnd();
      // LLVM looks for no locals under a variable.
      Next.InVariable |= Local;
      Next.InCode |= Code;
      if (T == dwarf::DW_TAG_inlined_subroutine)
        if (Die O = D.getAttributeValueAsReferencedDie(
                dwarf::DW_AT_abstract_origin)) {
          Next.InlinedAt = I;
          Next.InlinedName = name(subroutineName(O));
          Next.InlinedBaseReg = frameBaseReg(O);
        }
      Stack.push_back(Next);
    }
    makeSpans();
    // The declaration files join the unit's strings.
    std::vector<uint32_t> FileIds{0};
    for (const std::string &P : Paths)
      FileIds.push_back(name(P));
    for (ObjectFrames::Local &L : R.Locals)
      L.File = FileIds[L.File];
  }

private:
  uint32_t name(StringRef S) {
    if (S.empty())
      return 0;
    auto [It, New] = NameIds.try_emplace(S, R.Strings.size());
    if (New)
      R.Strings.push_back(S.str());
    return It->second;
  }

  /// DWARFUnit::updateAddressDieMap: each range of a subroutine replaces
  /// what it covers of its parent's, splitting it. Whether D has a range.
  bool addRanges(const Die &D) {
    auto Ranges = U.ranges(D);
    if (!Ranges) {
      consumeError(Ranges.takeError());
      return false;
    }
    bool Any = false;
    for (const input::DieRange &X : *Ranges) {
      if (X.LowPC == X.HighPC)
        continue;
      Any = true;
      auto B = Map.upper_bound(X.LowPC);
      if (B != Map.begin() && X.LowPC < (--B)->second.first) {
        if (X.HighPC < B->second.first)
          Map[X.HighPC] = B->second;
        if (X.LowPC > B->first)
          Map[B->first].first = X.LowPC;
      }
      Map[X.LowPC] = {X.HighPC, D.index()};
    }
    return Any;
  }

  void addLocal(const Die &D, uint32_t InlinedAt, uint32_t InlinedName,
                std::optional<uint8_t> InlinedBaseReg) {
    ObjectFrames::Local L;
    L.Die = D.index();
    L.InlinedAt = InlinedAt;
    L.InlinedName = InlinedName;
    L.InlinedBaseReg = InlinedBaseReg;
    if (std::optional<FormValue> Loc = D.find(dwarf::DW_AT_location)) {
      auto Exprs = U.locationExpressions(*Loc);
      if (Exprs) {
        L.OffsetsBegin = R.Offsets.size();
        for (ArrayRef<uint8_t> E : *Exprs)
          if (auto C = frameOffsetCandidate(E))
            R.Offsets.push_back(*C);
        L.NumOffsets = R.Offsets.size() - L.OffsetsBegin;
      } else {
        // As LLVM: a list it cannot read gives no offset.
        consumeError(Exprs.takeError());
      }
    }
    if (std::optional<FormValue> V = D.find(dwarf::DW_AT_LLVM_tag_offset))
      L.TagOffset = V->getAsUnsignedConstant();
    // The rest is the abstract variable's, for an inlined or concrete one.
    Die Decl = D;
    if (Die O =
            D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin))
      Decl = O;
    if (std::optional<FormValue> V = Decl.find(dwarf::DW_AT_name))
      if (const char *S = V->cstr())
        L.Name = name(S);
    if (Die Type = Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_type))
      L.Size = typeSize(Type, U.getAddressByteSize());
    // The file numbers are those of the unit answering, as in LLVM.
    if (std::optional<FormValue> V = Decl.find(dwarf::DW_AT_decl_file))
      if (std::optional<uint64_t> F = V->getAsUnsignedConstant())
        L.File = Files.path(*F);
    if (std::optional<FormValue> V = Decl.find(dwarf::DW_AT_decl_line))
      L.Line = V->getAsUnsignedConstant().value_or(0);
    R.Locals.push_back(L);
  }

  /// The map's entries, each with its subroutine's subtree and name.
  void makeSpans() {
    DenseMap<uint32_t, ObjectFrames::Span> ByDie;
    for (const auto &[Low, Entry] : Map) {
      auto [It, New] = ByDie.try_emplace(Entry.second);
      ObjectFrames::Span &S = It->second;
      if (New) {
        Die D(&U, Entry.second);
        // An inlined call answers with its function, whose frame base it
        // reads.
        Die Fn = D;
        if (D.getTag() == dwarf::DW_TAG_inlined_subroutine)
          if (Die O = D.getAttributeValueAsReferencedDie(
                  dwarf::DW_AT_abstract_origin))
            Fn = O;
        S.Die = Entry.second;
        S.SubtreeEnd = D.subtreeEnd();
        S.Name = name(subroutineName(Fn));
        S.BaseReg = frameBaseReg(Fn);
      }
      ObjectFrames::Span Out = S;
      Out.Low = Low;
      Out.High = Entry.first;
      R.Spans.push_back(Out);
    }
  }

  const input::Unit &U;
  ObjectFrames::Unit &R;
  std::vector<std::string> Paths; ///< Declaration files: 1 + index.
  UnitFiles Files;
  StringMap<uint32_t> NameIds;
  /// Low → (High, DIE index), as LLVM's AddrDieMap.
  std::map<uint64_t, std::pair<uint64_t, uint32_t>> Map;
};

/// The ranges of each unit's DIE (DWARFDebugAranges::generate's, for the
/// units .debug_aranges leaves out).
class RangesVisitor : public input::UnitVisitor {
public:
  struct Ranges : input::UnitResult {
    SmallVector<input::DieRange, 2> List;
  };

  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override {
    auto R = std::make_unique<Ranges>();
    if (Die CU = C.Skel.getUnitDIE()) {
      auto List = C.Skel.ranges(CU);
      if (List)
        R->List = std::move(*List);
      else
        C.Log.report("bad-unit-ranges", toString(List.takeError()) +
                                            " (unit at 0x" +
                                            utohexstr(C.Skel.getOffset()) +
                                            "): no FRAME answers from it");
    }
    return R;
  }

  bool merge(size_t, input::UnitResult &R) override {
    Units.push_back(std::move(static_cast<Ranges &>(R).List));
    return true;
  }

  std::vector<SmallVector<input::DieRange, 2>> Units;
};

/// Reads one unit as DWARFContext::getLocalsForAddress looks at it.
class FrameVisitor : public input::UnitVisitor {
public:
  struct Result : input::UnitResult {
    ObjectFrames::Unit Frames;
  };

  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override {
    auto R = std::make_unique<Result>();
    if (C.Full)
      UnitReader(C, R->Frames).run();
    return R;
  }

  bool merge(size_t, input::UnitResult &R) override {
    Frames = std::move(static_cast<Result &>(R).Frames);
    return true;
  }

  ObjectFrames::Unit Frames;
};

/// DWARFDebugAranges::construct over the units' own ranges: where ranges
/// of several units overlap, the first unit's.
std::vector<ObjectFrames::UnitSpan>
unitSpans(ArrayRef<SmallVector<input::DieRange, 2>> Units) {
  struct Edge {
    uint64_t At;
    bool Start;
    uint32_t Unit;
  };
  std::vector<Edge> Edges;
  for (uint32_t I = 0; I < Units.size(); ++I)
    for (const input::DieRange &R : Units[I])
      if (R.LowPC < R.HighPC) {
        Edges.push_back({R.LowPC, true, I});
        Edges.push_back({R.HighPC, false, I});
      }
  std::sort(Edges.begin(), Edges.end(), [](const Edge &A, const Edge &B) {
    return std::tie(A.At, A.Start, A.Unit) < std::tie(B.At, B.Start, B.Unit);
  });
  std::vector<ObjectFrames::UnitSpan> Out;
  std::multiset<uint32_t> Open;
  uint64_t Prev = 0;
  for (const Edge &E : Edges) {
    if (!Open.empty() && Prev < E.At) {
      uint32_t First = *Open.begin();
      if (!Out.empty() && Out.back().High == Prev && Out.back().Unit == First)
        Out.back().High = E.At;
      else
        Out.push_back({Prev, E.At, First});
    }
    Prev = E.At;
    if (E.Start)
      Open.insert(E.Unit);
    else
      Open.erase(Open.find(E.Unit));
  }
  return Out;
}

} // namespace

struct ObjectFrames::State {
  input::InputWithDebugFile In;
  std::vector<input::WalkItem> Items;
  std::vector<UnitSpan> UnitSpans; ///< By Low, not overlapping.
  std::mutex Lock;
  /// By item: null until a query falls in the unit (empty when it could
  /// not be read).
  std::vector<std::unique_ptr<Unit>> Units;

  /// The unit of item I, read at the first call.
  const Unit &unit(uint32_t I, std::vector<std::string> *Problems);
};

ObjectFrames::ObjectFrames() = default;
ObjectFrames::ObjectFrames(ObjectFrames &&) = default;
ObjectFrames &ObjectFrames::operator=(ObjectFrames &&) = default;
ObjectFrames::~ObjectFrames() = default;

Expected<ObjectFrames> ObjectFrames::read(input::InputWithDebugFile In,
                                          WarningLog &Log, unsigned Threads) {
  auto S = std::make_unique<State>();
  S->In = std::move(In);
  S->Items = input::compileUnits(*S->In.Object);
  RangesVisitor Visitor;
  input::WalkOptions W;
  W.Threads = Threads;
  W.ReleasePages = false;
  W.ReportUnitProblems = false;
  W.UnitDiesOnly = true;
  input::UnitVisitor *V = &Visitor;
  if (Error E = input::walkUnits(*S->In.Object, S->Items, V, W, Log))
    return std::move(E);
  S->UnitSpans = unitSpans(Visitor.Units);
  S->Units.resize(S->Items.size());
  ObjectFrames Out;
  Out.S = std::move(S);
  return std::move(Out);
}

const ObjectFrames::Unit &
ObjectFrames::State::unit(uint32_t I, std::vector<std::string> *Problems) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Units[I])
    return *Units[I];
  Units[I] = std::make_unique<Unit>();
  FrameVisitor Visitor;
  input::WalkOptions W;
  W.ReleasePages = false;
  W.ReportUnitProblems = false;
  WarningLog Log;
  input::UnitVisitor *V = &Visitor;
  std::vector<std::string> Found;
  if (Error E = input::walkUnits(*In.Object, Items[I], V, W, Log))
    Found.push_back(toString(std::move(E)));
  else
    *Units[I] = std::move(Visitor.Frames);
  llvm::append_range(Found, Log.summaryLines());
  if (Problems)
    *Problems = std::move(Found);
  return *Units[I];
}

std::optional<std::vector<FrameLocal>>
ObjectFrames::find(uint64_t Address, std::vector<std::string> *Problems) const {
  auto ByLow = [](uint64_t A, const auto &X) { return A < X.Low; };
  const std::vector<UnitSpan> &Spans = S->UnitSpans;
  auto US = std::upper_bound(Spans.begin(), Spans.end(), Address, ByLow);
  if (US == Spans.begin() || Address >= (--US)->High)
    return std::nullopt;
  const Unit &U = S->unit(US->Unit, Problems);
  auto Fn = std::upper_bound(U.Spans.begin(), U.Spans.end(), Address, ByLow);
  if (Fn == U.Spans.begin() || Address >= (--Fn)->High)
    return std::nullopt;
  auto L = std::lower_bound(
      U.Locals.begin(), U.Locals.end(), Fn->Die,
      [](const Local &X, uint32_t Die) { return X.Die < Die; });
  std::vector<FrameLocal> Out;
  for (; L != U.Locals.end() && L->Die < Fn->SubtreeEnd; ++L) {
    // Inside an inlined call that is inside the answering DIE, the call's
    // function is the variable's.
    bool Inlined = L->InlinedAt != None && L->InlinedAt >= Fn->Die;
    std::optional<uint8_t> Reg = Inlined ? L->InlinedBaseReg : Fn->BaseReg;
    FrameLocal F;
    F.FunctionName = U.Strings[Inlined ? L->InlinedName : Fn->Name];
    F.Name = U.Strings[L->Name];
    F.DeclFile = U.Strings[L->File];
    F.DeclLine = L->Line;
    for (auto [Op, Offset] :
         ArrayRef(U.Offsets).slice(L->OffsetsBegin, L->NumOffsets))
      if (Op == dwarf::DW_OP_fbreg ||
          (Reg && Op == dwarf::DW_OP_breg0 + *Reg)) {
        F.FrameOffset = Offset;
        break;
      }
    F.Size = L->Size;
    F.TagOffset = L->TagOffset;
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace dwarfpack
