//===- DwarfTypeBuilder.h - DWARF to type model, deduplicated ---*- C++ -*-===//
//
// Two stages:
//  * convertCompileUnit() turns the types, global variables and functions of
//    one compile unit into a CU-local graph (thread-safe for distinct units);
//  * TypeMerger takes the CU graphs in unit order and deduplicates them by
//    structural identity into one TypeTable.
// TypeTableBuilder (TypeTableBuilder.h) is the visitor of the DWARF walk
// (DwarfInput/UnitWalk.h) that drives both; buildTypeTable() runs it alone.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_DWARFTYPEBUILDER_H
#define DWARFPACK_TYPES_DWARFTYPEBUILDER_H

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/HashIdMap.h"
#include "dwarfpack/Types/ElfSymbols.h"
#include "dwarfpack/Types/TypeModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <new>
#include <type_traits>
#include <unordered_map>

namespace dwarfpack {
namespace input {
class InputObject;
}
namespace types {

/// The types of one compile unit. Local type 0 is void. Hashes[i] is a
/// structural hash of the types type i reaches (hashTypes()), comparable
/// across units: equal hashes propose "same type" to the merger, which
/// verifies each proposal.
struct UnitTypes {
  std::vector<Type> Types;
  std::vector<uint64_t> Hashes;
  /// Each type's own fields alone (shallowHash), for the merger's first
  /// partition.
  std::vector<uint64_t> ShallowHashes;
  std::vector<Symbol> Variables; ///< Local type ids.
  std::vector<Symbol> Functions; ///< Local ids of Function types.
  /// Variables the unit only declares (extern, no location), among the
  /// names convertCompileUnit was asked for: their type stands in where no
  /// unit defines the name (a copy-relocated `stderr`).
  std::vector<Symbol> DeclaredVariables;
  /// DeclaredVariables holds declarations of names not asked for too: the
  /// names were not known yet when the unit was converted. The merger's
  /// keepDeclarationsOf() leaves out the others.
  bool DeclarationsUnfiltered = false;
};

/// The type DIE of every type unit of the files a conversion reads (the
/// input, its .dwo files or package, dwz's file), by signature, for
/// DW_AT_signature and DW_FORM_ref_sig8: GCC's DWARF 5 split type units may
/// sit in another .dwo file than the unit that refers to them. The first
/// file added with a signature wins. Lookups may come from any thread.
class TypeUnitIndex {
public:
  void addFile(const input::DwarfFile &F);
  /// Every file the walk of Obj reads: Obj's, its supplementary file's, and
  /// (for split DWARF) the .dwo files and package of its skeletons, in
  /// unit order. Problems opening them go to Log.
  void addObject(const input::InputObject &Obj, WarningLog &Log);
  /// None when no file has the signature or its unit does not parse.
  input::Die lookup(uint64_t Signature) const;
  bool empty() const { return Map.empty(); }

private:
  /// Not a DenseMap: a signature may take any 64-bit value, its reserved
  /// keys included.
  std::unordered_map<
      uint64_t, std::pair<const input::DwarfFile *, const input::UnitHeader *>>
      Map;
};

/// Converts one unit. Recoverable problems (bad references, cycles,
/// unrepresentable C++ types) are counted in Log; the affected type becomes
/// Unknown. Declared: the names whose extern declarations are kept
/// (UnitTypes::DeclaredVariables).
UnitTypes convertCompileUnit(const input::Unit &U, WarningLog &Log,
                             const TypeUnitIndex *Sigs = nullptr,
                             const llvm::StringSet<> *Declared = nullptr);
/// The same, the names asked for only once the unit's types are converted
/// (the set may still be being read from the symbol table). With Ready, a
/// unit converted while Ready() is false does not wait for the set where
/// it need not: it keeps every declaration whose type is converted already
/// (UnitTypes::DeclarationsUnfiltered), and asks for the set only for a
/// declaration whose type would have to be converted.
UnitTypes
convertCompileUnit(const input::Unit &U, WarningLog &Log,
                   const TypeUnitIndex *Sigs,
                   llvm::function_ref<const llvm::StringSet<> *()> Declared,
                   llvm::function_ref<bool()> Ready = nullptr);

/// Fills UT.Hashes (done by convertCompileUnit; for units built otherwise).
void hashUnitTypes(UnitTypes &UT);

/// Structural hashes of Types (references are indexes into Types), equal
/// for types whose graphs are equal, whatever their order: a type in no
/// cycle hashes all it reaches; the types of a cycle share the signature
/// of its component and take 8 rounds of neighbour hashing inside it.
/// Each type's shallowHash() goes to Shallow if given. Thread-safe.
std::vector<uint64_t> hashTypes(llvm::ArrayRef<Type> Types,
                                std::vector<uint64_t> *Shallow = nullptr);

/// Breaks cycles through typedefs, qualifiers, arrays and slices (which no C
/// program can produce but corrupt DWARF can): the type closing the cycle
/// becomes Unknown. Returns the number of types changed.
unsigned breakTypedefCycles(std::vector<Type> &Types);

/// Merges unit graphs in unit order into one deduplicated table. The result
/// depends only on the order of add() calls, never on timing.
class TypeMerger {
public:
  /// StableInputs: the names of every unit added stay at the same address,
  /// with the same bytes, until finish() (one mapped object, as opposed to
  /// modules loaded and freed one after another). Then names are matched
  /// by address first, which spares most string comparisons.
  explicit TypeMerger(bool StableInputs = false);
  void add(UnitTypes &&U);
  /// Deduplicates exactly, resolves forwards to their unique definition and
  /// keeps the symbols named in ElfSymbols (all of them when null).
  /// Threads > 1 lets a second thread work beside the main one. Called
  /// once: the merged graph (about 60 MB for a vmlinux) is freed before
  /// the caller writes the table, which keeps only the names.
  TypeTable finish(const llvm::StringSet<> *ElfObjects,
                   const llvm::StringSet<> *ElfFunctions, unsigned Threads = 1);
  /// The same for an object's ELF symbols, then arrays of unknown bound
  /// bounded by their symbols' sizes (boundArraysBySymbolSize) and the
  /// aliases of typed symbols typed (typeAliasesByAddress).
  TypeTable finish(const ElfSymbolNames &Syms, unsigned Threads = 1);
  size_t numMerged() const { return Nodes.size(); }
  /// Adds the names of the variables the units define to Out.
  void collectDefinedVariables(llvm::StringSet<> &Out) const;
  /// Drops the declarations of Defined's names (defined by the units of
  /// another merger of the same object: a built-in module's variable that
  /// core kernel units declare).
  void dropDeclarations(const llvm::StringSet<> &Defined);
  /// Keeps the declarations of Names' names only: what units converted
  /// before their set was known (UnitTypes::DeclarationsUnfiltered) would
  /// have kept. Filtering names after merging keeps the same first
  /// declaration of each.
  void keepDeclarationsOf(const llvm::StringSet<> &Names);

private:
  /// Merged types in a compact form (a vmlinux has ~800k of them before the
  /// exact deduplication): references, member names/offsets and enumerators
  /// live in flat arrays, names are interned copies (the input's pages can
  /// then be released).
  struct Node {
    /// With WideSize, the size is in BigSizes.
    uint32_t Size = 0;
    uint32_t Name = 0;
    uint32_t NumElems = 0; ///< Arrays have at most UINT32_MAX elements.
    /// CTF's own limits (16-bit widths and slice offsets); the builder
    /// never makes wider ones.
    uint16_t Bits = 0;
    uint16_t BitOffset = 0;
    uint32_t RefBegin = 0, NumRefs = 0;
    uint32_t AuxBegin = 0, NumAux = 0;
    TypeKind Kind = TypeKind::Void;
    uint8_t Encoding = 0;
    // Flags as bits, so that a node takes 36 bytes, not 40 (a vmlinux's
    // 780k nodes). Bit-fields have no default initializers in C++17:
    // PagedArray value-initializes every node, which zeroes them.
    bool Varargs : 1;
    /// A member offset needs more than 32 bits: the values are in BigAux.
    bool WideAux : 1;
    /// The size needs more than 32 bits.
    bool WideSize : 1;
  };
  static_assert(sizeof(Node) <= 36, "Node grew");
  /// An append-only array in fixed pages: growing it never copies (a
  /// doubling vector of a vmlinux's merged nodes would briefly hold 1.5x
  /// their size), and no page is allocated before it is needed. A page's
  /// elements are constructed as they are appended, not when the page is
  /// allocated: zeroing whole pages first (2.4 MB of nodes) wrote every
  /// element twice and faulted in pages a small input never uses, a third
  /// of `ctf`'s time on a one-function program.
  template <typename T> class PagedArray {
    static_assert(std::is_trivially_destructible_v<T>,
                  "pages are freed without destroying their elements");

  public:
    static constexpr unsigned PageBits = 16;
    size_t size() const { return Size; }
    T &operator[](size_t I) {
      return Pages[I >> PageBits].get()[I & ((1u << PageBits) - 1)];
    }
    const T &operator[](size_t I) const {
      return Pages[I >> PageBits].get()[I & ((1u << PageBits) - 1)];
    }
    T &emplace_back() {
      if ((Size >> PageBits) == Pages.size())
        Pages.emplace_back(
            static_cast<T *>(::operator new(sizeof(T) << PageBits)));
      T *Slot = &(*this)[Size++];
      return *new (Slot) T(); // value-initialized: bit-fields zeroed
    }
    void push_back(const T &V) { emplace_back() = V; }

  private:
    struct FreePage {
      void operator()(T *P) const { ::operator delete(P); }
    };
    std::vector<std::unique_ptr<T, FreePage>> Pages;
    size_t Size = 0;
  };
  uint32_t intern(llvm::StringRef S);
  uint32_t internBytes(llvm::StringRef S);
  bool nameIs(llvm::StringRef S, uint32_t Id) const;
  bool sameAs(const Type &T, const Node &G,
              const std::vector<TypeId> &Map) const;
  std::vector<uint32_t> refine(const std::vector<TypeId> &Redirect,
                               unsigned Threads) const;
  Type expand(const Node &N) const;
  void releaseGraph();

  PagedArray<Node> Nodes; ///< Nodes[0] is void.
  PagedArray<TypeId> Refs;
  PagedArray<uint32_t> AuxNames; ///< member or enumerator names
  /// Member bit offsets, enumerator values (int32, sign-extended when
  /// read); see auxValue().
  PagedArray<uint32_t> AuxValues;
  llvm::DenseMap<uint32_t, uint64_t> BigAux; ///< by index, for WideAux nodes
  /// Sizes of WideSize nodes (which never move: PagedArray).
  llvm::DenseMap<const Node *, uint64_t> BigSizes;
  uint64_t sizeOf(const Node &N) const {
    return N.WideSize ? BigSizes.lookup(&N) : N.Size;
  }
  uint64_t auxValue(const Node &N, uint32_t I) const;
  /// Entries in a bump allocator (none is ever erased): a vmlinux's 340k
  /// names each cost a malloc header and rounding otherwise, 5 MB of the
  /// conversion's peak.
  using NameMap = llvm::StringMap<uint32_t, llvm::BumpPtrAllocator>;
  std::shared_ptr<NameMap> NameIds;
  bool StableInputs;
  std::vector<llvm::StringRef> NameById; ///< keys of NameIds; [0] is ""
  /// With StableInputs: the input address each name was first seen at.
  std::vector<const char *> FirstAddress;
  /// With StableInputs: names by input address (the same address holds
  /// the same bytes; the length is checked).
  llvm::DenseMap<const char *, uint32_t> ByAddress;
  /// Names of up to 7 bytes by their bytes and length packed in 64 bits.
  llvm::DenseMap<uint64_t, uint32_t> ShortIds;
  /// Merged types by unit hash (TypeMerger::add prefetches its slots).
  HashIdMap ByHash;
  /// Each node's class by its own fields alone (refine's first partition),
  /// numbered as the nodes are filled in: the tail of a conversion then
  /// need not hash every node again.
  PagedArray<uint32_t> ShallowCls;
  HashIdMap ShallowIds;
  uint32_t NumShallowCls = 0;
  struct SymbolRef {
    uint32_t Name;
    TypeId Type;
  };
  std::vector<SymbolRef> Variables, Functions;
  struct AddressedRef {
    uint64_t Address;
    uint32_t Name;
    TypeId Type;
  };
  std::vector<AddressedRef> AddressedVariables, AddressedFunctions;
  /// Declared-only variables, first declaration of each name.
  std::vector<SymbolRef> DeclaredVariables;
  llvm::DenseSet<uint32_t> SeenDeclared;
  llvm::DenseSet<uint32_t> SeenVariables, SeenFunctions;
};

/// Renumbers the types of Table (void stays 0) grouped by kind, then by the
/// types they refer to: records of one kind sit together, which makes the
/// dict compress about 4% better. Symbols and non-root flags follow.
void groupTypesByKind(TypeTable &Table);

struct BuildOptions {
  unsigned NumThreads = 1;
  /// Called after each unit: (units done, units in all).
  ProgressFn Progress;
};

struct BuildResult {
  TypeTable Table;
  uint64_t NumUnits = 0;
  uint64_t NumInputTypes = 0;  ///< Sum of the units' type counts.
  uint64_t NumMergedTypes = 0; ///< After the per-unit hash merge.
};

/// Builds the table for a whole object: all compile units (type units are
/// reached through DW_AT_signature references), symbols filtered by the
/// object's ELF symbol table. Fails when the object has no DWARF, or DIEs
/// whose values run past their section.
llvm::Expected<BuildResult> buildTypeTable(const input::InputObject &Obj,
                                           const BuildOptions &Opts,
                                           WarningLog &Log);

} // namespace types
} // namespace dwarfpack

#endif
