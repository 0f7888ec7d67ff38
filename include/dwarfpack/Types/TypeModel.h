//===- TypeModel.h - In-memory C type graph ---------------------*- C++ -*-===//
//
// A format-neutral model of C types, global variables and function symbols:
// what the DWARF builder produces and the CTF writer consumes. Types refer to
// each other by index into TypeTable::Types; index 0 is always `void`.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TYPES_TYPEMODEL_H
#define DWARFPACK_TYPES_TYPEMODEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dwarfpack {
namespace types {

using TypeId = uint32_t;

enum class TypeKind : uint8_t {
  Void,
  Unknown, ///< Unrepresentable in C (C++ pointer-to-member, ...).
  Integer,
  Float,
  Pointer,
  Array,
  Function,
  Struct,
  Union,
  Enum,
  Forward, ///< Declaration only; ForwardKind says struct, union or enum.
  Typedef,
  Volatile,
  Const,
  Restrict,
  Slice, ///< A bitfield: Bits bits at BitOffset of the integer/enum Ref.
};

const char *kindName(TypeKind K);

/// Integer encoding flags, the same bits as CTF's.
enum IntFlags : uint8_t {
  IntSigned = 1,
  IntChar = 2,
  IntBool = 4,
};

/// Floating-point encodings, the same values as CTF's.
enum FloatEncoding : uint8_t {
  FloatSingle = 1,
  FloatDouble = 2,
  FloatComplex = 3,
  FloatDoubleComplex = 4,
  FloatLongDoubleComplex = 5,
  FloatLongDouble = 6,
};

struct Member {
  llvm::StringRef Name; ///< Empty for anonymous struct/union members.
  TypeId Type = 0;
  uint64_t BitOffset = 0;
};

struct Enumerator {
  llvm::StringRef Name;
  int64_t Value = 0;
};

/// One type. Value type; which fields matter depends on Kind.
struct Type {
  TypeKind Kind = TypeKind::Void;
  /// Integer: IntFlags; Float: FloatEncoding; Forward: the TypeKind
  /// (Struct/Union/Enum) declared.
  uint8_t Encoding = 0;
  bool Varargs = false; ///< Function.
  llvm::StringRef Name;
  uint64_t Size = 0;      ///< Bytes (Integer, Float, Struct, Union, Enum, ...).
  TypeId Ref = 0;         ///< Pointee, element, return, target or sliced type.
  TypeId IndexType = 0;   ///< Array.
  uint64_t NumElems = 0;  ///< Array; 0 for flexible arrays and VLAs.
  uint32_t Bits = 0;      ///< Integer/Float/Slice width in bits.
  uint32_t BitOffset = 0; ///< Slice.
  std::vector<TypeId> Params;          ///< Function.
  std::vector<Member> Members;         ///< Struct, Union.
  std::vector<Enumerator> Enumerators; ///< Enum.

  /// Calls F on every type this one refers to, in a fixed order.
  template <typename Fn> void forEachRef(Fn F) const { visitRefs(*this, F); }
  /// The same, with F free to change each reference.
  template <typename Fn> void forEachRefMut(Fn F) { visitRefs(*this, F); }

private:
  template <typename Self, typename Fn> static void visitRefs(Self &T, Fn &F) {
    switch (T.Kind) {
    case TypeKind::Pointer:
    case TypeKind::Typedef:
    case TypeKind::Volatile:
    case TypeKind::Const:
    case TypeKind::Restrict:
    case TypeKind::Slice:
      F(T.Ref);
      break;
    case TypeKind::Array:
      F(T.Ref);
      F(T.IndexType);
      break;
    case TypeKind::Function:
      F(T.Ref);
      for (auto &P : T.Params)
        F(P);
      break;
    case TypeKind::Struct:
    case TypeKind::Union:
      for (auto &M : T.Members)
        F(M.Type);
      break;
    default:
      break;
    }
  }
};

/// A named object tied to an ELF symbol: a global variable (Type is its
/// type) or a function (Type is a Function type).
struct Symbol {
  static constexpr uint64_t NoAddress = ~uint64_t(0);
  llvm::StringRef Name;
  TypeId Type = 0;
  /// Where the definition is (a function's DW_AT_low_pc, a variable's
  /// DW_OP_addr), when DWARF says so plainly.
  uint64_t Address = NoAddress;
};

/// The deduplicated result for one object. Names point into Storage (or,
/// for tables built by hand, into data the caller keeps alive).
struct TypeTable {
  std::vector<Type> Types;       ///< Types[0] is void.
  std::vector<Symbol> Variables; ///< Sorted by name, unique names.
  std::vector<Symbol> Functions; ///< Sorted by name, unique names.
  /// Every definition with an address (several units may define a static
  /// of one name), sorted by address, then in unit order: the unindexed
  /// symbol sections give each ELF symbol the type defined at its address.
  std::vector<Symbol> VariablesByAddress, FunctionsByAddress;
  /// Set on types that must be hidden from name lookup because an earlier
  /// type of the same name and namespace exists (CTF "non-root").
  std::vector<bool> Hidden;
  /// Owns the bytes the names point to when they are not the input's.
  std::shared_ptr<const void> Storage;
};

/// The name an LTO link gave a symbol without changing its prototype, with
/// that suffix removed: GCC's `.lto_priv.N` for statics it made global,
/// ThinLTO's `.llvm.N` for promoted locals. Other names are returned
/// unchanged, as are clones whose signature may differ (`.isra.N`,
/// `.constprop.N`, `.part.N`) and fragments (`.cold`).
llvm::StringRef ltoBaseName(llvm::StringRef Name);

/// Size in bytes of type Id of Types, through typedefs and qualifiers (an
/// array's is its count times its element's); 0 when unknown.
uint64_t byteSizeOf(const std::vector<Type> &Types, TypeId Id);

/// Counts of types by kind, for summaries and benchmarks.
std::vector<std::pair<TypeKind, uint64_t>> countByKind(const TypeTable &T);

} // namespace types
} // namespace dwarfpack

#endif
