//===- SharedRepository.cpp - Cross-module type deduplication -------------===//

#include "dwarfpack/CtfKernel/SharedRepository.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Types/TypeHash.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <chrono>

using namespace llvm;
using namespace dwarfpack::types;

namespace dwarfpack {
namespace ctfkernel {

namespace {

/// The C namespace of a type's name: 0 ordinary, else the tag kind.
unsigned nameSpace(const Type &T) {
  if (T.Kind == TypeKind::Forward)
    return T.Encoding;
  if (isTagged(T.Kind))
    return unsigned(T.Kind);
  return 0;
}

std::string describe(const Type &T) {
  return std::string(kindName(T.Kind)) + (T.Name.empty()
                                              ? std::string(" <anonymous>")
                                              : " '" + T.Name.str() + "'");
}

} // namespace

std::vector<uint64_t> hashTypeTable(const TypeTable &T) {
  // The hash of each unit's types (lib/Types): it stands for everything a
  // type reaches, so types that differ however far away hash apart (32
  // rounds of neighbour hashing merged types alike for 32 references).
  return hashTypes(T.Types);
}

void computeHidden(TypeTable &T) {
  T.Hidden.assign(T.Types.size(), false);
  DenseSet<std::pair<unsigned, StringRef>> Claimed;
  for (int Pass = 0; Pass < 2; ++Pass)
    for (size_t I = 0; I < T.Types.size(); ++I) {
      const Type &X = T.Types[I];
      if ((X.Kind == TypeKind::Forward) != (Pass == 1))
        continue;
      if (X.Kind == TypeKind::Slice) {
        T.Hidden[I] = true;
        continue;
      }
      if (X.Name.empty())
        continue;
      if (!Claimed.insert({nameSpace(X), X.Name}).second)
        T.Hidden[I] = true;
    }
}

StringRef SharedRepository::intern(StringRef S) {
  return S.empty() ? StringRef() : Strings.save(S);
}

void SharedRepository::addModule(StringRef Name, const TypeTable &T,
                                 const std::vector<uint64_t> &Hashes,
                                 bool Blocklisted) {
  Module M;
  M.Name = Name.str();
  M.Blocklisted = Blocklisted;
  size_t N = T.Types.size();
  InputTypes += N;
  std::vector<uint32_t> &Map = M.Nodes;
  Map.resize(N);
  // Nodes made for this module refer to its local ids until the end; each
  // stands for the module's type it was made from.
  const size_t Before = Nodes.size();
  std::vector<uint32_t> MadeFrom;
  std::vector<bool> IsNew(N, false);
  auto NewNode = [&](size_t I) {
    Type X = T.Types[I];
    X.Name = intern(X.Name);
    for (Member &Mb : X.Members)
      Mb.Name = intern(Mb.Name);
    for (Enumerator &E : X.Enumerators)
      E.Name = intern(E.Name);
    Nodes.push_back(std::move(X));
    MadeFrom.push_back(I);
    IsNew[I] = true;
    return uint32_t(Nodes.size() - 1);
  };
  for (size_t I = 0; I < N; ++I) {
    auto [Node, New] = ByHash.tryEmplace(Hashes[I], uint32_t(Nodes.size()));
    Map[I] = New ? NewNode(I) : Node;
  }
  verifyMatches(T, Before, MadeFrom, IsNew, NewNode, Map);
  for (size_t I = 0; I < N; ++I)
    if (IsNew[I])
      Nodes[Map[I]].forEachRefMut([&](TypeId &R) { R = Map[R]; });
  for (const Symbol &S : T.Variables)
    M.Variables.push_back({intern(S.Name), Map[S.Type]});
  for (const Symbol &S : T.Functions)
    M.Functions.push_back({intern(S.Name), Map[S.Type]});
  Modules.push_back(std::move(M));
}

void SharedRepository::verifyMatches(const TypeTable &T, size_t Before,
                                     const std::vector<uint32_t> &MadeFrom,
                                     const std::vector<bool> &IsNew,
                                     function_ref<uint32_t(size_t)> NewNode,
                                     std::vector<uint32_t> &Map) {
  // A match of hashes only proposes that a type is a merged one: it is
  // kept if the fields agree and each reference maps to the merged type's
  // reference, else the type gets a node of its own, which may reject the
  // types that refer to it in turn (rejections only grow: a fixed point).
  // Then a merge never joins two different types, whatever the hash.
  auto Mapped = [&](const Type &X) {
    SmallVector<TypeId, 8> R;
    X.forEachRef([&](TypeId C) { R.push_back(Map[C]); });
    return R;
  };
  auto Refs = [](const Type &X) {
    SmallVector<TypeId, 8> R;
    X.forEachRef([&](TypeId C) { R.push_back(C); });
    return R;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Map.size(); ++I) {
      if (IsNew[I])
        continue;
      const Type &X = T.Types[I];
      uint32_t G = Map[I];
      // A node made for this module still has the module's local ids.
      const Type &Other =
          G >= Before ? T.Types[MadeFrom[G - Before]] : Nodes[G];
      bool Same = sameShallow(X, Other) &&
                  Mapped(X) == (G >= Before ? Mapped(Other) : Refs(Other));
      if (Same)
        continue;
      Map[I] = NewNode(I);
      Changed = true;
    }
  }
}

/// The definitions a forward may stand for, and the one each stands for.
struct SharedRepository::Redirection {
  /// The eligible definitions of each (tag kind, name), in node order.
  DenseMap<std::pair<unsigned, StringRef>, SmallVector<uint32_t, 1>> Defs;
  /// The node each node stands for: a forward's definition, else itself.
  std::vector<uint32_t> Redirect;
};

/// Exact identity: the class of each node (through its redirection) and
/// the representative node of each class (UINT32_MAX: none, a class only
/// of redirected forwards).
struct SharedRepository::Partition {
  std::vector<uint32_t> Cls, Rep;
  size_t NumClasses = 0;
};

/// How the modules use the classes.
struct SharedRepository::ModuleUses {
  /// Each module's classes, unique, in first-use order.
  std::vector<std::vector<uint32_t>> Classes;
  /// The non-blocklisted modules using each class, counted up to 2.
  std::vector<uint8_t> Users;
  /// Whether a non-blocklisted module uses each class.
  std::vector<bool> Eligible;
};

/// Where each class is stored: in the parent if Shared (at ParentIdx), in
/// the child being built at LocalIdx (else UINT32_MAX), and in how many
/// children so far (Stored).
struct SharedRepository::Placement {
  std::vector<bool> Shared;
  std::vector<uint32_t> ParentIdx, LocalIdx;
  std::vector<uint8_t> Stored;
};

SharedRepository::Redirection SharedRepository::redirectForwards() const {
  // Forwards stand for the definition of their name when every definition
  // (in modules that may share) is one type: then `struct mm_struct *` in a
  // module that only declares mm_struct is the same type as in one that
  // defines it, as libctf's and libbpf's deduplicators also decide. Start
  // optimistic and withdraw names whose definitions turn out different
  // (withdrawing only splits classes, so this reaches a fixed point).
  size_t N = Nodes.size();
  std::vector<bool> NodeEligible(N, false);
  for (const Module &M : Modules)
    if (!M.Blocklisted)
      for (uint32_t Node : M.Nodes)
        NodeEligible[Node] = true;
  Redirection F;
  for (size_t I = 0; I < N; ++I)
    if (isTagged(Nodes[I].Kind) && !Nodes[I].Name.empty() && NodeEligible[I])
      F.Defs[{unsigned(Nodes[I].Kind), Nodes[I].Name}].push_back(I);
  F.Redirect.resize(N);
  for (size_t I = 0; I < N; ++I) {
    F.Redirect[I] = I;
    const Type &T = Nodes[I];
    if (T.Kind != TypeKind::Forward || T.Name.empty())
      continue;
    auto It = F.Defs.find({unsigned(T.Encoding), T.Name});
    if (It != F.Defs.end())
      F.Redirect[I] = It->second.front();
  }
  return F;
}

SharedRepository::Partition
SharedRepository::partition(Redirection &F, RepositoryStats &St) const {
  // Exact identity: the coarsest partition of the global graph stable under
  // "same shallow content and same classes of referenced types", references
  // to redirected forwards followed to their definition.
  size_t N = Nodes.size();
  Partition P;
  std::vector<uint32_t> Cls(N), Next(N);
  do
    P.NumClasses = refine(F.Redirect, Cls, Next);
  while (withdrawForwards(F, Cls));
  // The class of each node, through its redirection.
  for (size_t I = 0; I < N; ++I)
    Next[I] = Cls[F.Redirect[I]];
  P.Cls = std::move(Next);
  P.Rep.assign(P.NumClasses, UINT32_MAX);
  for (size_t I = 0; I < N; ++I)
    if (F.Redirect[I] == I && P.Rep[P.Cls[I]] == UINT32_MAX)
      P.Rep[P.Cls[I]] = I;
  for (size_t I = 0; I < N; ++I)
    if (F.Redirect[I] != I)
      ++St.ResolvedForwards;
  St.Classes = count_if(P.Rep, [](uint32_t R) { return R != UINT32_MAX; });
  return P;
}

size_t SharedRepository::refine(const std::vector<uint32_t> &Redirect,
                                std::vector<uint32_t> &Cls,
                                std::vector<uint32_t> &Next) const {
  size_t N = Nodes.size();
  size_t NumClasses = 0;
  {
    DenseMap<uint64_t, uint32_t> Ids;
    for (size_t I = 0; I < N; ++I)
      Cls[I] = Ids.try_emplace(shallowHash(Nodes[I]), Ids.size()).first->second;
    NumClasses = Ids.size();
  }
  while (true) {
    DenseMap<uint64_t, uint32_t> Ids;
    Ids.reserve(N);
    for (size_t I = 0; I < N; ++I) {
      uint64_t H = mix(0x51ed270b, Cls[I]);
      Nodes[I].forEachRef([&](TypeId C) { H = mix(H, Cls[Redirect[C]]); });
      Next[I] = Ids.try_emplace(H, Ids.size()).first->second;
    }
    std::swap(Cls, Next);
    if (Ids.size() == NumClasses)
      break;
    NumClasses = Ids.size();
  }
  return NumClasses;
}

bool SharedRepository::withdrawForwards(
    Redirection &F, const std::vector<uint32_t> &Cls) const {
  bool Changed = false;
  for (size_t I = 0; I < Nodes.size(); ++I) {
    const Type &T = Nodes[I];
    if (T.Kind != TypeKind::Forward || F.Redirect[I] == I)
      continue;
    const auto &D = F.Defs.find({unsigned(T.Encoding), T.Name})->second;
    if (any_of(D, [&](uint32_t X) { return Cls[X] != Cls[D.front()]; })) {
      F.Redirect[I] = I;
      Changed = true;
    }
  }
  return Changed;
}

SharedRepository::ModuleUses
SharedRepository::collectUses(const Partition &P) const {
  // Each module's classes, unique, in first-use order.
  ModuleUses U;
  U.Classes.resize(Modules.size());
  std::vector<uint32_t> Stamp(P.NumClasses, UINT32_MAX);
  U.Users.assign(P.NumClasses, 0);
  U.Eligible.assign(P.NumClasses, false);
  for (size_t MI = 0; MI < Modules.size(); ++MI) {
    const Module &M = Modules[MI];
    for (uint32_t Node : M.Nodes) {
      uint32_t C = P.Cls[Node];
      if (Stamp[C] == MI)
        continue;
      Stamp[C] = MI;
      U.Classes[MI].push_back(C);
      if (!M.Blocklisted) {
        U.Eligible[C] = true;
        if (U.Users[C] < 2)
          ++U.Users[C];
      }
    }
  }
  return U;
}

std::vector<bool> SharedRepository::decideShared(const Partition &P,
                                                 const ModuleUses &U,
                                                 RepositoryStats &St) const {
  // Sharedness: use by two modules, then contagion along references and
  // between the variants of a tagged name, to a fixed point.
  std::vector<bool> Shared(P.NumClasses, false);
  std::vector<uint32_t> Work;
  if (Share)
    for (uint32_t C = 0; C < P.NumClasses; ++C)
      if (U.Users[C] >= 2) {
        Shared[C] = true;
        Work.push_back(C);
        ++St.SharedByUse;
      }
  auto Closure = [&] {
    while (!Work.empty()) {
      uint32_t C = Work.back();
      Work.pop_back();
      Nodes[P.Rep[C]].forEachRef([&](TypeId Ref) {
        uint32_t D = P.Cls[Ref];
        if (!Shared[D]) {
          Shared[D] = true;
          Work.push_back(D);
        }
      });
    }
  };
  std::vector<SmallVector<uint32_t, 2>> Groups = tagVariants(P, U);
  while (Share) {
    Closure();
    ++St.FixpointRounds;
    bool Changed = false;
    for (const auto &G : Groups) {
      if (!any_of(G, [&](uint32_t C) { return bool(Shared[C]); }))
        continue;
      for (uint32_t C : G)
        if (!Shared[C]) {
          Shared[C] = true;
          Work.push_back(C);
          Changed = true;
        }
    }
    if (!Changed)
      break;
  }
  return Shared;
}

std::vector<SmallVector<uint32_t, 2>>
SharedRepository::tagVariants(const Partition &P, const ModuleUses &U) const {
  // Variants of a tag: the complete types and forwards of one (kind, name).
  std::vector<SmallVector<uint32_t, 2>> Groups;
  DenseMap<std::pair<unsigned, StringRef>, uint32_t> GroupOf;
  for (uint32_t C = 0; C < P.NumClasses; ++C) {
    if (P.Rep[C] == UINT32_MAX || !U.Eligible[C])
      continue;
    const Type &T = Nodes[P.Rep[C]];
    if (T.Name.empty() || !U.Eligible[C] ||
        !(isTagged(T.Kind) || T.Kind == TypeKind::Forward))
      continue;
    auto [It, New] =
        GroupOf.try_emplace({nameSpace(T), T.Name}, uint32_t(Groups.size()));
    if (New)
      Groups.emplace_back();
    Groups[It->second].push_back(C);
  }
  return Groups;
}

Error SharedRepository::buildParent(const Partition &P, const ModuleUses &U,
                                    Placement &Pl, Result &R) const {
  // The parent: shared classes in first-use order over the modules.
  Pl.ParentIdx.assign(P.NumClasses, UINT32_MAX);
  for (const auto &MC : U.Classes)
    for (uint32_t C : MC)
      if (Pl.Shared[C] && Pl.ParentIdx[C] == UINT32_MAX) {
        Pl.ParentIdx[C] = R.Parent.Types.size();
        R.Parent.Types.push_back(Nodes[P.Rep[C]]);
      }
  R.Stats.SharedTotal = R.Parent.Types.size();
  for (Type &T : R.Parent.Types) {
    Error E = Error::success();
    T.forEachRefMut([&](TypeId &Ref) {
      uint32_t PI = Pl.ParentIdx[P.Cls[Ref]];
      if (PI == UINT32_MAX && !E)
        E = createStringError(
            inconvertibleErrorCode(),
            "internal error: shared %s refers to %s, which is not shared "
            "(the parent would refer to a child type)",
            describe(T).c_str(), describe(Nodes[Ref]).c_str());
      Ref = PI;
    });
    if (E)
      return E;
  }
  computeHidden(R.Parent);
  return Error::success();
}

std::vector<uint32_t> SharedRepository::childClasses(const Partition &P,
                                                     ArrayRef<uint32_t> Used,
                                                     Placement &Pl) const {
  // The module's unshared types and the unshared types they need (a
  // resolved forward may bring a definition the module never saw).
  std::vector<uint32_t> List;
  auto Take = [&](uint32_t C) {
    if (Pl.Shared[C] || Pl.LocalIdx[C] != UINT32_MAX)
      return;
    Pl.LocalIdx[C] = List.size();
    List.push_back(C);
  };
  for (uint32_t C : Used)
    Take(C);
  for (size_t K = 0; K < List.size(); ++K)
    Nodes[P.Rep[List[K]]].forEachRef([&](TypeId Ref) { Take(P.Cls[Ref]); });
  return List;
}

Expected<SharedRepository::Child>
SharedRepository::buildChild(size_t MI, const Partition &P, const ModuleUses &U,
                             Placement &Pl, RepositoryStats &St) const {
  Child Ch;
  Ch.Name = Modules[MI].Name;
  std::vector<uint32_t> List = childClasses(P, U.Classes[MI], Pl);
  for (uint32_t C : List) {
    Ch.Table.Types.push_back(Nodes[P.Rep[C]]);
    if (Pl.Stored[C]++ == 1)
      ++St.StoredMoreThanOnce;
  }
  Error E = Error::success();
  auto Encode = [&](TypeId Node, const Type &From) -> TypeId {
    uint32_t C = P.Cls[Node];
    if (Pl.Shared[C])
      return Pl.ParentIdx[C];
    if (Pl.LocalIdx[C] == UINT32_MAX && !E)
      E = createStringError(inconvertibleErrorCode(),
                            "internal error: %s in module '%s' refers to a "
                            "type the module does not use",
                            describe(From).c_str(), Ch.Name.c_str());
    return ChildBit | Pl.LocalIdx[C];
  };
  // (Encode reads only the kind and name of T, which it never changes.)
  for (Type &T : Ch.Table.Types)
    T.forEachRefMut([&](TypeId &Ref) { Ref = Encode(Ref, T); });
  for (const Symbol &S : Modules[MI].Variables)
    Ch.Table.Variables.push_back({S.Name, Encode(S.Type, Nodes[S.Type])});
  for (const Symbol &S : Modules[MI].Functions)
    Ch.Table.Functions.push_back({S.Name, Encode(S.Type, Nodes[S.Type])});
  for (uint32_t C : List)
    Pl.LocalIdx[C] = UINT32_MAX;
  if (E)
    return std::move(E);
  computeHidden(Ch.Table);
  St.ChildTypes += Ch.Table.Types.size();
  return std::move(Ch);
}

Expected<SharedRepository::Result> SharedRepository::finish() {
  ByHash.clear();
  Result R;
  RepositoryStats &St = R.Stats;
  St.InputTypes = InputTypes;
  St.GlobalNodes = Nodes.size();

  using Clock = std::chrono::steady_clock;
  auto Since = [](Clock::time_point T) {
    return std::chrono::duration<double>(Clock::now() - T).count();
  };
  Clock::time_point T0 = Clock::now();
  Redirection F = redirectForwards();
  Partition P = partition(F, St);
  ModuleUses U = collectUses(P);

  St.IdentitySeconds = Since(T0);
  Clock::time_point T1 = Clock::now();
  Placement Pl;
  Pl.Shared = decideShared(P, U, St);

  St.SharingSeconds = Since(T1);
  Clock::time_point T2 = Clock::now();
  if (Error E = buildParent(P, U, Pl, R))
    return std::move(E);

  // The children: each module's unshared classes, referring to the parent's
  // types by parent id and to their own with the child bit.
  Pl.LocalIdx.assign(P.NumClasses, UINT32_MAX);
  Pl.Stored.assign(P.NumClasses, 0);
  for (size_t MI = 0; MI < Modules.size(); ++MI) {
    Expected<Child> Ch = buildChild(MI, P, U, Pl, St);
    if (!Ch)
      return Ch.takeError();
    R.Children.push_back(std::move(*Ch));
  }
  St.SplitSeconds = Since(T2);
  return std::move(R);
}

} // namespace ctfkernel
} // namespace dwarfpack
