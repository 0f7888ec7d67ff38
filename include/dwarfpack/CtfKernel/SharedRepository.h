//===- SharedRepository.h - Cross-module type deduplication ----*- C++ -*-===//
//
// Records every type of a set of modules (the core kernel, built-in and
// loadable modules) exactly once: types used by more than one module go to
// a shared parent dict, the rest to per-module child dicts that import it.
//
//  * Identity: each module's deduplicated table is hashed (neighbourhood
//    hashes, as in the per-object builder) and merged into one global graph;
//    an exact structural refinement over that graph then decides identity,
//    with a forward standing for its name's definition when all (eligible)
//    definitions of the name are one type.
//  * Sharing: a type used by two or more (non-blocklisted) modules is
//    shared; sharedness spreads to every type a shared type refers to and
//    between the complete and forward variants of a tagged name, until a
//    fixed point.
//  * Split: the parent holds the shared types, each child its module's
//    other types, with CTF child ids (top bit set) above the parent's. The
//    parent never refers to a child type: finish() checks every reference
//    and fails if one does.
//
// Everything depends only on the order of addModule() calls.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTFKERNEL_SHAREDREPOSITORY_H
#define DWARFPACK_CTFKERNEL_SHAREDREPOSITORY_H

#include "dwarfpack/Support/HashIdMap.h"
#include "dwarfpack/Types/TypeModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <string>
#include <vector>

namespace dwarfpack {
namespace ctfkernel {

/// In a child table, a reference with this bit set is the child's own type.
constexpr types::TypeId ChildBit = 0x80000000u;

/// Structural hashes of a table's types (types::hashTypes), comparable
/// across tables. Thread-safe; compute it where the table was built.
std::vector<uint64_t> hashTypeTable(const types::TypeTable &T);

struct RepositoryStats {
  uint64_t InputTypes = 0;       ///< Sum of the modules' table sizes.
  uint64_t GlobalNodes = 0;      ///< After merging by hash.
  uint64_t ResolvedForwards = 0; ///< Forwards standing for a definition.
  uint64_t Classes = 0;          ///< After exact refinement.
  uint64_t SharedByUse = 0;      ///< Used by two or more modules.
  uint64_t SharedTotal = 0;      ///< After contagion and alias fixup.
  uint64_t FixpointRounds = 0;
  uint64_t ChildTypes = 0;         ///< Sum over children.
  uint64_t StoredMoreThanOnce = 0; ///< Classes in several dicts (blocklist).
  /// Phase times of finish(): identity (forward resolution and
  /// refinement), the sharing fixpoint, the parent/child split.
  double IdentitySeconds = 0, SharingSeconds = 0, SplitSeconds = 0;
};

class SharedRepository {
public:
  /// Share=false puts nothing in the parent (every module standalone).
  explicit SharedRepository(bool Share = true) : Share(Share) {}
  // Neither copied nor moved: Strings refers to this object's Alloc.
  SharedRepository(const SharedRepository &) = delete;
  SharedRepository &operator=(const SharedRepository &) = delete;

  /// Adds one module's deduplicated table (Hashes from hashTypeTable).
  /// Names are copied; T may be freed afterwards. A blocklisted module's
  /// uses never make a type shared; it still refers to parent types that
  /// other modules share (identity is exact, so they are its types too).
  void addModule(llvm::StringRef Name, const types::TypeTable &T,
                 const std::vector<uint64_t> &Hashes, bool Blocklisted);

  struct Child {
    std::string Name;
    types::TypeTable Table; ///< References encoded as described at ChildBit.
  };
  struct Result {
    types::TypeTable Parent;
    std::vector<Child> Children; ///< In addModule() order.
    RepositoryStats Stats;
  };

  /// Decides identity and sharedness and builds the dicts' tables. Fails if
  /// a parent type would refer to a child type (a bug, never bad input).
  llvm::Expected<Result> finish();

private:
  struct Module {
    std::string Name;
    bool Blocklisted = false;
    std::vector<uint32_t> Nodes; ///< Global node of each local type.
    std::vector<types::Symbol> Variables, Functions; ///< Node ids.
  };

  llvm::StringRef intern(llvm::StringRef S);
  /// Keeps the merges of T's types into earlier nodes (Map) that are
  /// exact; NewNode(I) gives type I a node of its own (and sets IsNew[I]).
  /// Nodes from Before on were made for T, from its types MadeFrom.
  void verifyMatches(const types::TypeTable &T, size_t Before,
                     const std::vector<uint32_t> &MadeFrom,
                     const std::vector<bool> &IsNew,
                     llvm::function_ref<uint32_t(size_t)> NewNode,
                     std::vector<uint32_t> &Map);

  // finish()'s phases, in order, and what they hand on (defined in the .cpp).
  struct Redirection;
  struct Partition;
  struct ModuleUses;
  struct Placement;
  /// Identity: each forward's eligible definitions, optimistically taken.
  Redirection redirectForwards() const;
  /// Identity: the exact partition, withdrawing the redirections of
  /// forwards whose definitions differ (sets ResolvedForwards, Classes).
  Partition partition(Redirection &F, RepositoryStats &St) const;
  /// The coarsest stable refinement following Redirect, into Cls
  /// (Next is scratch); returns the number of classes.
  size_t refine(const std::vector<uint32_t> &Redirect,
                std::vector<uint32_t> &Cls, std::vector<uint32_t> &Next) const;
  /// Undoes the redirection of each forward whose definitions are not all
  /// of one class; returns whether any was undone.
  bool withdrawForwards(Redirection &F, const std::vector<uint32_t> &Cls) const;
  /// Identity: each module's classes, and which modules use them.
  ModuleUses collectUses(const Partition &P) const;
  /// Sharing: whether each class is shared (sets SharedByUse,
  /// FixpointRounds).
  std::vector<bool> decideShared(const Partition &P, const ModuleUses &U,
                                 RepositoryStats &St) const;
  /// The classes of each tagged name's complete types and forwards.
  std::vector<llvm::SmallVector<uint32_t, 2>>
  tagVariants(const Partition &P, const ModuleUses &U) const;
  /// Split: R.Parent from Pl.Shared, setting Pl.ParentIdx.
  llvm::Error buildParent(const Partition &P, const ModuleUses &U,
                          Placement &Pl, Result &R) const;
  /// Split: the classes a child stores (Used's unshared classes and the
  /// unshared classes they refer to), each given its LocalIdx.
  std::vector<uint32_t> childClasses(const Partition &P,
                                     llvm::ArrayRef<uint32_t> Used,
                                     Placement &Pl) const;
  /// Split: module MI's child; leaves Pl.LocalIdx all UINT32_MAX.
  llvm::Expected<Child> buildChild(size_t MI, const Partition &P,
                                   const ModuleUses &U, Placement &Pl,
                                   RepositoryStats &St) const;

  bool Share;
  llvm::BumpPtrAllocator Alloc;
  llvm::UniqueStringSaver Strings{Alloc};
  std::vector<types::Type> Nodes;
  HashIdMap ByHash;
  std::vector<Module> Modules;
  uint64_t InputTypes = 0;
};

/// Marks, per (namespace, name), every type after the first as hidden
/// (CTF non-root); complete types claim names before forwards; slices are
/// always hidden. The same rule as the per-object builder, per dict.
void computeHidden(types::TypeTable &T);

} // namespace ctfkernel
} // namespace dwarfpack

#endif
