//===- DwarfTypeBuilder.cpp - DWARF to type model -------------------------===//

#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Types/TypeHash.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/LEB128.h"

#include <cstring>
#include <future>

using namespace llvm;

namespace dwarfpack {
namespace types {

using input::Die;
using input::FormValue;

namespace {

/// Deepest chain of nested type references followed before giving up; real
/// C never comes near it, corrupt DWARF might.
constexpr unsigned MaxDepth = 4000;
/// Largest type size believed (bytes); larger sizes are corrupt.
constexpr uint64_t MaxSaneSize = uint64_t(1) << 48;

/// The attributes the converter reads through a DieView, each in a slot
/// (input::AttrSlots): slotFor() numbers them in this order.
constexpr dwarf::Attribute ConverterAttrs[] = {
    dwarf::DW_AT_name,
    dwarf::DW_AT_byte_size,
    dwarf::DW_AT_type,
    dwarf::DW_AT_encoding,
    dwarf::DW_AT_declaration,
    dwarf::DW_AT_signature,
    dwarf::DW_AT_data_bit_offset,
    dwarf::DW_AT_data_member_location,
    dwarf::DW_AT_bit_offset,
    dwarf::DW_AT_bit_size,
    dwarf::DW_AT_external,
    dwarf::DW_AT_count,
    dwarf::DW_AT_upper_bound,
    dwarf::DW_AT_lower_bound,
    dwarf::DW_AT_const_value,
    dwarf::DW_AT_abstract_origin,
    dwarf::DW_AT_specification,
    dwarf::DW_AT_location,
    dwarf::DW_AT_low_pc,
    dwarf::DW_AT_ranges,
    dwarf::DW_AT_linkage_name,
    dwarf::DW_AT_MIPS_linkage_name,
};
constexpr unsigned NumSlots = std::size(ConverterAttrs);

/// The slot of A (NumSlots for none): a switch, which the compiler folds
/// for the constants the converter passes.
constexpr unsigned slotFor(dwarf::Attribute A) {
  switch (A) {
  case dwarf::DW_AT_name:
    return 0;
  case dwarf::DW_AT_byte_size:
    return 1;
  case dwarf::DW_AT_type:
    return 2;
  case dwarf::DW_AT_encoding:
    return 3;
  case dwarf::DW_AT_declaration:
    return 4;
  case dwarf::DW_AT_signature:
    return 5;
  case dwarf::DW_AT_data_bit_offset:
    return 6;
  case dwarf::DW_AT_data_member_location:
    return 7;
  case dwarf::DW_AT_bit_offset:
    return 8;
  case dwarf::DW_AT_bit_size:
    return 9;
  case dwarf::DW_AT_external:
    return 10;
  case dwarf::DW_AT_count:
    return 11;
  case dwarf::DW_AT_upper_bound:
    return 12;
  case dwarf::DW_AT_lower_bound:
    return 13;
  case dwarf::DW_AT_const_value:
    return 14;
  case dwarf::DW_AT_abstract_origin:
    return 15;
  case dwarf::DW_AT_specification:
    return 16;
  case dwarf::DW_AT_location:
    return 17;
  case dwarf::DW_AT_low_pc:
    return 18;
  case dwarf::DW_AT_ranges:
    return 19;
  case dwarf::DW_AT_linkage_name:
    return 20;
  case dwarf::DW_AT_MIPS_linkage_name:
    return 21;
  default:
    return NumSlots;
  }
}

constexpr bool slotsFollowTheList() {
  for (unsigned I = 0; I < NumSlots; ++I)
    if (slotFor(ConverterAttrs[I]) != I)
      return false;
  return true;
}
static_assert(slotsFollowTheList(), "slotFor() and ConverterAttrs disagree");

const input::AttrSlots &converterSlots() {
  static const input::AttrSlots Slots(ConverterAttrs);
  return Slots;
}

/// A DIE's attributes, located once: the converter asks a type or member
/// DIE for up to eight attributes (most of which it does not have), and
/// each Die::find would walk the abbreviation again.
class DieView {
public:
  DieView(const Die &D, const input::AbbrevSlots &Slots) : Attrs(D, &Slots) {}
  std::optional<FormValue> find(dwarf::Attribute A) const {
    assert(slotFor(A) < NumSlots && "an attribute the converter does not read");
    return Attrs.findSlot(slotFor(A));
  }
  bool has(dwarf::Attribute A) const { return Attrs.hasSlot(slotFor(A)); }
  const Die &die() const { return Attrs.die(); }
  dwarf::Tag getTag() const { return Attrs.getTag(); }
  Die::ChildRange children() const { return die().children(); }
  Die getAttributeValueAsReferencedDie(dwarf::Attribute A) const {
    if (auto V = find(A))
      return die().getAttributeValueAsReferencedDie(*V);
    return Die();
  }

private:
  input::DieAttrView Attrs;
};

/// Where a function begins (DW_AT_low_pc; functions described by ranges
/// only have no single answer here) or a variable lives (a location that
/// is just DW_OP_addr or DW_OP_addrx).
template <typename DieLike>
std::optional<uint64_t> symbolAddress(const DieLike &D) {
  if (D.getTag() == dwarf::DW_TAG_subprogram) {
    if (auto V = D.find(dwarf::DW_AT_low_pc))
      return V->getAsAddress();
    return std::nullopt;
  }
  auto V = D.find(dwarf::DW_AT_location);
  std::optional<ArrayRef<uint8_t>> Expr = V ? V->getAsBlock() : std::nullopt;
  if (!Expr || Expr->empty())
    return std::nullopt;
  const input::Unit &U = *V->unit();
  // One operation, and a 4- or 8-byte DW_OP_addr.
  std::optional<input::StaticLocation> L = input::staticLocation(U, *Expr);
  if (!L || L->PlusConst ||
      (L->Op == dwarf::DW_OP_addr && U.getAddressByteSize() != 4 &&
       U.getAddressByteSize() != 8))
    return std::nullopt;
  return L->Address;
}
/// GCC's clones that may take other arguments than the function they come
/// from (.isra, .constprop, .part) and its .cold fragments: LTO gives their
/// DIEs these names, and the prototype they inherit from the abstract
/// origin is not theirs. (Without LTO they carry the source name and do not
/// match their symbols.)
bool isSignatureClone(StringRef Name) {
  // A suffix is the kind, then digits (none for .cold), then the end of the
  // name or another suffix.
  for (StringRef Kind : {".isra.", ".constprop.", ".part.", ".cold"}) {
    for (size_t At = Name.find(Kind); At != StringRef::npos;
         At = Name.find(Kind, At + 1)) {
      StringRef Rest = Name.substr(At + Kind.size());
      size_t Digits = Rest.find_if_not(isDigit);
      if (Digits == StringRef::npos)
        Digits = Rest.size();
      if ((Digits > 0 || Kind == ".cold") &&
          (Digits == Rest.size() || Rest[Digits] == '.'))
        return true;
    }
  }
  return false;
}

/// Child DIEs, to size vectors once.
size_t numChildren(const Die &D) {
  size_t N = 0;
  for (Die C : D.children()) {
    (void)C;
    ++N;
  }
  return N;
}

/// Converts one unit.
class UnitConverter {
public:
  UnitConverter(const input::Unit &U, WarningLog &Log,
                const TypeUnitIndex *Sigs,
                function_ref<const StringSet<> *()> DeclaredNames,
                function_ref<bool()> NamesReady)
      : U(U), Log(Log), Sigs(Sigs), DeclaredNames(DeclaredNames),
        NamesReady(NamesReady), Slots(U, converterSlots()) {
    IndexMemo.assign(U.numDies(), NoMemo);
    // About one type for four DIEs in C units.
    Out.Types.reserve(U.numDies() / 4 + 1);
    Out.Types.emplace_back(); // void
  }

  UnitTypes run();

private:
  const input::Unit &U;
  WarningLog &Log;
  const TypeUnitIndex *Sigs;
  /// Asked for by collectSymbols(), after the types (see
  /// TypeTableBuilder).
  function_ref<const StringSet<> *()> DeclaredNames;
  /// Whether DeclaredNames() would answer without waiting (null: wait).
  function_ref<bool()> NamesReady;
  const StringSet<> *Declared = nullptr;
  UnitTypes Out;
  /// Whether the unit has any type DIE (one run() converts).
  bool HasTypeDies = false;
  /// Functions left out for describesNoType().
  unsigned Untyped = 0;
  /// The converter's attributes in U's abbreviations, and in those of the
  /// other units its references lead to.
  input::AbbrevSlots Slots;
  DenseMap<const input::Unit *, std::unique_ptr<input::AbbrevSlots>>
      ForeignSlots;
  DieView view(const Die &D) {
    const input::Unit *X = D.getDwarfUnit();
    if (X == &U)
      return DieView(D, Slots);
    std::unique_ptr<input::AbbrevSlots> &S = ForeignSlots[X];
    if (!S)
      S = std::make_unique<input::AbbrevSlots>(*X, converterSlots());
    return DieView(D, *S);
  }
  /// Converted DIEs: those of U by index (NoMemo: not converted yet),
  /// others (type units, other units, dwz's file) by identity.
  static constexpr TypeId NoMemo = UINT32_MAX;
  std::vector<TypeId> IndexMemo;
  DenseMap<std::pair<const void *, uint32_t>, TypeId> ForeignMemo;
  /// Memoized while a DIE's type is being resolved: a reference back to it
  /// (a cycle) then reads as unknown, without adding an unknown type to
  /// units where no cycle occurs.
  static constexpr TypeId Provisional = UINT32_MAX - 1;
  TypeId memoized(TypeId Id) { return Id == Provisional ? unknown() : Id; }
  TypeId UnknownId = 0, DefaultIndexId = 0, CharId = 0;
  unsigned Depth = 0;

  TypeId add(Type T) {
    Out.Types.push_back(std::move(T));
    return Out.Types.size() - 1;
  }
  TypeId unknown() {
    if (!UnknownId) {
      Type T;
      T.Kind = TypeKind::Unknown;
      UnknownId = add(std::move(T));
    }
    return UnknownId;
  }
  /// An integer type no DIE describes, made once per unit (in Id).
  TypeId syntheticInteger(TypeId &Id, StringRef Name, uint64_t Size,
                          unsigned Encoding) {
    if (!Id) {
      Type T;
      T.Kind = TypeKind::Integer;
      T.Name = Name;
      T.Size = Size;
      T.Bits = Size * 8;
      T.Encoding = Encoding;
      Id = add(std::move(T));
    }
    return Id;
  }
  /// The index of an array whose subrange names no type.
  TypeId defaultIndex() {
    return syntheticInteger(DefaultIndexId, "int", 4, IntSigned);
  }
  /// C's char, the element of a Fortran string (DWARF names none).
  TypeId charType() {
    return syntheticInteger(CharId, "char", 1, IntSigned | IntChar);
  }
  TypeId *memoFind(const Die &D) {
    if (D.getDwarfUnit() == &U) {
      TypeId &M = IndexMemo[D.index()];
      return M == NoMemo ? nullptr : &M;
    }
    auto It = ForeignMemo.find({D.getDwarfUnit(), D.index()});
    return It == ForeignMemo.end() ? nullptr : &It->second;
  }
  void memoSet(const Die &D, TypeId Id) {
    if (D.getDwarfUnit() == &U)
      IndexMemo[D.index()] = Id;
    else
      ForeignMemo[{D.getDwarfUnit(), D.index()}] = Id;
  }
  void warn(StringRef Kind, const DieView &D, const Twine &Msg) {
    warn(Kind, D.die(), Msg);
  }
  void warn(StringRef Kind, const Die &D, const Twine &Msg) {
    Log.report(Kind, "DIE 0x" + Twine::utohexstr(D.getOffset()) + ": " + Msg);
  }

  /// Whether the subprogram D says nothing of its type because its unit
  /// has no types at all.
  bool describesNoType(const Die &D) const;
  TypeId typeOf(const Die &D);
  TypeId refType(const DieView &D, dwarf::Attribute A = dwarf::DW_AT_type);
  TypeId refType(const Die &D) { return refType(view(D)); }
  /// What refType(D) returns when it would neither convert a type nor
  /// warn: D's type is converted already.
  std::optional<TypeId> convertedType(const Die &D);
  /// A declaration's entry in Out.DeclaredVariables, if its name is asked
  /// for or may be.
  void addDeclaration(const Die &D);
  /// The type unit's type DIE of a signature, looked up in every file read.
  Die signatureTarget(uint64_t Signature) const {
    return Sigs ? Sigs->lookup(Signature) : Die();
  }
  TypeId convert(const DieView &D);
  void convertInto(const DieView &D, Type &T);
  void convertBase(const DieView &D, Type &T);
  void convertAggregate(const DieView &D, Type &T);
  void convertEnum(const DieView &D, Type &T);
  void convertArray(const DieView &D, Type &T);
  void convertFunction(const Die &D, Type &T);
  std::optional<uint64_t> memberBitOffset(const DieView &M, TypeId MemberType);
  void collectSymbols(const Die &Scope);
};

template <typename DieLike> StringRef nameOf(const DieLike &D) {
  if (auto V = D.find(dwarf::DW_AT_name))
    return V->str();
  return {};
}

template <typename DieLike> std::optional<uint64_t> byteSize(const DieLike &D) {
  if (auto V = D.find(dwarf::DW_AT_byte_size))
    return V->getAsUnsignedConstant();
  return std::nullopt;
}

TypeId UnitConverter::refType(const DieView &D, dwarf::Attribute A) {
  auto V = D.find(A);
  if (!V)
    return 0; // no type: void
  if (V->getForm() == dwarf::DW_FORM_ref_sig8) {
    // A type unit's signature as the reference itself (GCC's DWARF 5 type
    // units): found in the type units of every file read, where LLVM
    // looks only in the referring unit's own.
    if (Die T = signatureTarget(V->raw()))
      return typeOf(T);
    warn("bad-type-signature", D.die(), "type signature not found in any unit");
    return unknown();
  }
  Die T = D.die().getAttributeValueAsReferencedDie(*V);
  if (!T) {
    warn("bad-type-reference", D.die(),
         "type reference points outside the unit");
    return unknown();
  }
  return typeOf(T);
}

TypeId UnitConverter::typeOf(const Die &D) {
  if (TypeId *Known = memoFind(D))
    return memoized(*Known);
  if (Depth >= MaxDepth) {
    warn("type-too-deep", D, "type reference chain too deep");
    return unknown();
  }
  ++Depth;
  TypeId Id;
  DieView V = view(D);
  if (auto Sig = V.find(dwarf::DW_AT_signature)) {
    // A declaration standing for a type unit's definition (DWARF 4
    // -fdebug-types-section, DWARF 5 type units).
    Die Def;
    if (Sig->getForm() == dwarf::DW_FORM_ref_sig8)
      Def = signatureTarget(Sig->raw());
    if (Def && Def.getDwarfUnit()->header().isTypeUnit()) {
      memoSet(D, Provisional);
      Id = typeOf(Def);
      memoSet(D, Id);
      --Depth;
      return Id;
    }
    warn("bad-type-signature", D, "type signature not found in any unit");
  }
  if (D.getTag() == dwarf::DW_TAG_atomic_type) {
    // CTF has no _Atomic; like GCC, use the underlying type.
    warn("atomic-dropped", D, "_Atomic qualifier dropped");
    memoSet(D, Provisional);
    Id = refType(V);
    memoSet(D, Id);
  } else {
    Id = convert(V);
  }
  --Depth;
  return Id;
}

TypeId UnitConverter::convert(const DieView &D) {
  // Reserve the id first so self-references (struct node *next) resolve.
  TypeId Id = add(Type());
  memoSet(D.die(), Id);
  Type T;
  convertInto(D, T);
  Out.Types[Id] = std::move(T);
  return Id;
}

void UnitConverter::convertInto(const DieView &D, Type &T) {
  switch (D.getTag()) {
  case dwarf::DW_TAG_base_type:
    convertBase(D, T);
    return;
  case dwarf::DW_TAG_pointer_type:
    T.Kind = TypeKind::Pointer;
    T.Ref = refType(D);
    T.Size = byteSize(D).value_or(U.getAddressByteSize());
    return;
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
    warn("cxx-reference-as-pointer", D, "C++ reference written as a pointer");
    T.Kind = TypeKind::Pointer;
    T.Ref = refType(D);
    T.Size = U.getAddressByteSize();
    return;
  case dwarf::DW_TAG_typedef:
    T.Kind = TypeKind::Typedef;
    T.Name = nameOf(D);
    T.Ref = refType(D);
    return;
  case dwarf::DW_TAG_const_type:
    T.Kind = TypeKind::Const;
    T.Ref = refType(D);
    return;
  case dwarf::DW_TAG_volatile_type:
    T.Kind = TypeKind::Volatile;
    T.Ref = refType(D);
    return;
  case dwarf::DW_TAG_restrict_type:
    T.Kind = TypeKind::Restrict;
    T.Ref = refType(D);
    return;
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_union_type:
    convertAggregate(D, T);
    return;
  case dwarf::DW_TAG_enumeration_type:
    convertEnum(D, T);
    return;
  case dwarf::DW_TAG_array_type:
    convertArray(D, T);
    return;
  case dwarf::DW_TAG_subroutine_type:
  case dwarf::DW_TAG_subprogram:
    convertFunction(D.die(), T);
    return;
  case dwarf::DW_TAG_string_type:
    // Fortran's character(len=N): N characters, as C's char[N]. A length
    // known at run time only (DW_AT_string_length, `len=:`) has no CTF
    // form.
    // (DW_AT_string_length is not among the attributes DieView locates.)
    if (std::optional<uint64_t> N = byteSize(D);
        N && *N <= UINT32_MAX && !D.die().find(dwarf::DW_AT_string_length)) {
      T.Kind = TypeKind::Array;
      T.Ref = charType();
      T.IndexType = defaultIndex();
      T.NumElems = *N;
      return;
    }
    warn("unrepresentable-type", D,
         "string type whose length is known at run time only");
    T.Kind = TypeKind::Unknown;
    return;
  case dwarf::DW_TAG_unspecified_type:
    // void in C (some producers), nullptr_t in C++.
    if (nameOf(D) == "void") {
      T.Kind = TypeKind::Void;
      return;
    }
    [[fallthrough]];
  default:
    warn("unrepresentable-type", D,
         Twine("unrepresentable DWARF type ") + dwarf::TagString(D.getTag()));
    T.Kind = TypeKind::Unknown;
    T.Size = byteSize(D).value_or(0);
    if (T.Size > MaxSaneSize)
      T.Size = 0;
    return;
  }
}

void UnitConverter::convertBase(const DieView &D, Type &T) {
  T.Name = nameOf(D);
  uint64_t Size = byteSize(D).value_or(0);
  uint64_t Enc = 0;
  if (auto V = D.find(dwarf::DW_AT_encoding))
    Enc = V->getAsUnsignedConstant().value_or(0);
  bool IsFloat =
      Enc == dwarf::DW_ATE_float || Enc == dwarf::DW_ATE_complex_float;
  // CTF integers are at most 0xffff bits wide: C23's _BitInt reaches 65535
  // bits (clang's DW_ATE_unsigned_1024 and such are integers too).
  if (Size >= MaxSaneSize || (IsFloat && Size > 64)) {
    warn("absurd-size", D, "base type of " + Twine(Size) + " bytes");
    T.Kind = TypeKind::Unknown;
    return;
  }
  if (Size * 8 > 0xffff) {
    warn("unrepresentable-type", D,
         "base type '" + T.Name + "' of " + Twine(Size) +
             " bytes (CTF integers hold at most 65535 bits)");
    T.Kind = TypeKind::Unknown;
    T.Size = Size;
    return;
  }
  T.Size = Size;
  T.Bits = Size * 8;
  // A narrower value than its storage (_BitInt(31) in 4 bytes).
  if (auto V = D.find(dwarf::DW_AT_bit_size))
    if (uint64_t B = V->getAsUnsignedConstant().value_or(0); B && B < T.Bits)
      T.Bits = B;
  T.Kind = TypeKind::Integer;
  switch (Enc) {
  case dwarf::DW_ATE_signed:
    T.Encoding = IntSigned;
    break;
  case dwarf::DW_ATE_signed_char:
    T.Encoding = IntSigned | IntChar;
    break;
  case dwarf::DW_ATE_unsigned_char:
    T.Encoding = IntChar;
    break;
  case dwarf::DW_ATE_boolean:
    T.Encoding = IntBool;
    break;
  case dwarf::DW_ATE_unsigned:
  case dwarf::DW_ATE_UTF:
    T.Encoding = 0;
    break;
  case dwarf::DW_ATE_float:
    T.Kind = TypeKind::Float;
    T.Encoding = Size == 4   ? FloatSingle
                 : Size == 8 ? FloatDouble
                             : FloatLongDouble;
    break;
  case dwarf::DW_ATE_complex_float:
    T.Kind = TypeKind::Float;
    T.Encoding = Size == 8    ? FloatComplex
                 : Size == 16 ? FloatDoubleComplex
                              : FloatLongDoubleComplex;
    break;
  default:
    // Decimal and fixed-point floats have no CTF encoding.
    warn("unrepresentable-type", D,
         "base type '" + T.Name + "' with unsupported encoding");
    T.Kind = TypeKind::Unknown;
    break;
  }
}

std::optional<uint64_t> UnitConverter::memberBitOffset(const DieView &M,
                                                       TypeId MemberType) {
  if (auto V = M.find(dwarf::DW_AT_data_bit_offset))
    return V->getAsUnsignedConstant();
  uint64_t Bytes = 0;
  if (auto V = M.find(dwarf::DW_AT_data_member_location)) {
    if (auto C = V->getAsUnsignedConstant()) {
      Bytes = *C;
    } else if (auto B = V->getAsBlock()) {
      // DWARF 2 style: DW_OP_plus_uconst N (or DW_OP_constu N).
      ArrayRef<uint8_t> E = *B;
      if (E.empty() ||
          (E[0] != dwarf::DW_OP_plus_uconst && E[0] != dwarf::DW_OP_constu))
        return std::nullopt;
      unsigned Len = 0;
      const char *Err = nullptr;
      Bytes =
          decodeULEB128Bounded(E.data() + 1, &Len, E.data() + E.size(), &Err);
      if (Err || 1 + Len != E.size())
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  uint64_t Bits = Bytes * 8;
  // DWARF 2/3 bitfields: DW_AT_bit_offset counts from the most significant
  // bit of the storage unit (DW_AT_byte_size or the member type's size).
  if (auto V = M.find(dwarf::DW_AT_bit_offset)) {
    auto BitOff = V->getAsUnsignedConstant();
    uint64_t BitSize = 0;
    if (auto S = M.find(dwarf::DW_AT_bit_size))
      BitSize = S->getAsUnsignedConstant().value_or(0);
    // The member type's size (through typedefs and arrays) is looked up
    // only here, not for every member.
    std::optional<uint64_t> StorageBytes = byteSize(M);
    uint64_t Storage =
        (StorageBytes ? *StorageBytes : byteSizeOf(Out.Types, MemberType)) * 8;
    if (!BitOff || *BitOff + BitSize > Storage)
      return std::nullopt;
    if (U.isLittleEndian())
      Bits += Storage - *BitOff - BitSize;
    else
      Bits += *BitOff;
  }
  return Bits;
}

} // namespace

uint64_t byteSizeOf(const std::vector<Type> &Types, TypeId Id) {
  for (unsigned Hops = 0; Hops < 64 && Id < Types.size(); ++Hops) {
    const Type &T = Types[Id];
    switch (T.Kind) {
    case TypeKind::Typedef:
    case TypeKind::Const:
    case TypeKind::Volatile:
    case TypeKind::Restrict:
      Id = T.Ref;
      continue;
    case TypeKind::Array:
      return T.NumElems * byteSizeOf(Types, T.Ref);
    default:
      return T.Size;
    }
  }
  return 0;
}

namespace {

void UnitConverter::convertAggregate(const DieView &D, Type &T) {
  bool IsUnion = D.getTag() == dwarf::DW_TAG_union_type;
  T.Name = nameOf(D);
  if (auto V = D.find(dwarf::DW_AT_declaration);
      V && V->getAsUnsignedConstant().value_or(1)) {
    T.Kind = TypeKind::Forward;
    T.Encoding = uint8_t(IsUnion ? TypeKind::Union : TypeKind::Struct);
    return;
  }
  T.Kind = IsUnion ? TypeKind::Union : TypeKind::Struct;
  T.Size = byteSize(D).value_or(0);
  if (T.Size > MaxSaneSize) {
    warn("absurd-size", D, "aggregate of " + Twine(T.Size) + " bytes");
    T.Kind = TypeKind::Unknown;
    T.Size = 0;
    return;
  }
  T.Members.reserve(numChildren(D.die()));
  for (Die CD : D.children()) {
    dwarf::Tag Tag = CD.getTag();
    if (Tag != dwarf::DW_TAG_member && Tag != dwarf::DW_TAG_inheritance &&
        Tag != dwarf::DW_TAG_template_type_parameter &&
        Tag != dwarf::DW_TAG_template_value_parameter &&
        Tag != dwarf::DW_TAG_subprogram)
      continue;
    DieView C = view(CD);
    if (Tag == dwarf::DW_TAG_inheritance) {
      // The closest C form of a base class: an unnamed member at its offset.
      warn("cxx-base-class", C,
           "base class of '" + T.Name + "' written as an unnamed member");
      Member M;
      M.Type = refType(C);
      M.BitOffset = memberBitOffset(C, /*void*/ 0).value_or(0);
      T.Members.push_back(M);
      continue;
    }
    if (Tag == dwarf::DW_TAG_template_type_parameter ||
        Tag == dwarf::DW_TAG_template_value_parameter) {
      warn("template-parameter", C,
           "template parameter '" + nameOf(C) + "' of '" + T.Name +
               "' dropped");
      continue;
    }
    if (Tag == dwarf::DW_TAG_subprogram) {
      warn("member-function", C,
           "member function '" + nameOf(C) + "' of '" + T.Name + "' dropped");
      continue;
    }
    if (Tag != dwarf::DW_TAG_member)
      continue;
    // C++ static data members are declarations, not storage.
    if (C.has(dwarf::DW_AT_external) || C.has(dwarf::DW_AT_declaration)) {
      warn("static-member", C,
           "static data member '" + nameOf(C) + "' of '" + T.Name +
               "' dropped (not storage of the type)");
      continue;
    }
    Member M;
    M.Name = nameOf(C);
    if (!C.has(dwarf::DW_AT_type)) {
      warn("member-without-type", C,
           "member '" + M.Name + "' has no type; written as unknown");
      M.Type = unknown();
    } else {
      M.Type = refType(C);
    }
    auto Off = memberBitOffset(C, M.Type);
    if (!Off) {
      warn("bad-member-offset", C,
           "member '" + M.Name + "' has an unsupported location; placed at 0");
      Off = 0;
    }
    M.BitOffset = *Off;
    if (auto BS = C.find(dwarf::DW_AT_bit_size)) {
      uint64_t Bits = BS->getAsUnsignedConstant().value_or(0);
      if (Bits == 0 || Bits > 0xffff) {
        warn("bad-bitfield", C, "bitfield of " + Twine(Bits) + " bits");
      } else {
        Type S;
        S.Kind = TypeKind::Slice;
        S.Ref = M.Type;
        S.Bits = Bits;
        S.BitOffset = 0;
        // libctf's convention: the smallest power-of-two byte count.
        S.Size = PowerOf2Ceil((Bits + 7) / 8);
        M.Type = add(std::move(S));
      }
    }
    T.Members.push_back(M);
  }
}

void UnitConverter::convertEnum(const DieView &D, Type &T) {
  T.Name = nameOf(D);
  if (auto V = D.find(dwarf::DW_AT_declaration);
      V && V->getAsUnsignedConstant().value_or(1)) {
    T.Kind = TypeKind::Forward;
    T.Encoding = uint8_t(TypeKind::Enum);
    return;
  }
  T.Kind = TypeKind::Enum;
  T.Size = byteSize(D).value_or(4);
  if (T.Size > 16) {
    warn("absurd-size", D, "enum of " + Twine(T.Size) + " bytes");
    T.Kind = TypeKind::Unknown;
    T.Size = 0;
    return;
  }
  // Whether enumerator constants are unsigned: from the underlying type when
  // given, else from the form of each value.
  std::optional<bool> Unsigned;
  if (Die UT = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_type)) {
    for (unsigned I = 0; I < 8 && UT && UT.getTag() != dwarf::DW_TAG_base_type;
         ++I)
      UT = UT.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    if (UT)
      if (auto E = UT.find(dwarf::DW_AT_encoding))
        Unsigned =
            E->getAsUnsignedConstant().value_or(0) != dwarf::DW_ATE_signed &&
            E->getAsUnsignedConstant().value_or(0) != dwarf::DW_ATE_signed_char;
  }
  T.Enumerators.reserve(numChildren(D.die()));
  for (Die C : D.children()) {
    if (C.getTag() != dwarf::DW_TAG_enumerator)
      continue;
    auto V = C.find(dwarf::DW_AT_const_value);
    if (!V)
      continue;
    Enumerator E;
    E.Name = nameOf(C);
    bool IsUnsigned = Unsigned.value_or(V->getForm() == dwarf::DW_FORM_udata);
    if (IsUnsigned) {
      uint64_t X = V->getAsUnsignedConstant().value_or(
          uint64_t(V->getAsSignedConstant().value_or(0)));
      // CTF stores int32: a larger unsigned value would read back negative,
      // so it is dropped (as GCC does) rather than corrupted.
      if (X > uint64_t(INT32_MAX)) {
        warn("enum-value-out-of-range", C,
             "enumerator '" + E.Name + "' = " + Twine(X) +
                 " does not fit CTF's 32 bits; dropped");
        continue;
      }
      E.Value = int64_t(X);
    } else {
      int64_t X = V->getAsSignedConstant().value_or(0);
      if (X < INT32_MIN || X > INT32_MAX) {
        warn("enum-value-out-of-range", C,
             "enumerator '" + E.Name + "' = " + Twine(X) +
                 " does not fit CTF's 32 bits; dropped");
        continue;
      }
      E.Value = X;
    }
    T.Enumerators.push_back(E);
  }
}

void UnitConverter::convertArray(const DieView &D, Type &T) {
  TypeId Elem = refType(D);
  struct Dim {
    uint64_t N;
    TypeId Index;
  };
  SmallVector<Dim, 4> Dims;
  for (Die CD : D.children()) {
    if (CD.getTag() != dwarf::DW_TAG_subrange_type &&
        CD.getTag() != dwarf::DW_TAG_enumeration_type)
      continue;
    DieView C = view(CD);
    Dim X{0, C.has(dwarf::DW_AT_type) ? refType(C) : defaultIndex()};
    if (auto Cnt = C.find(dwarf::DW_AT_count)) {
      // A count that is an expression or reference is a VLA: 0.
      X.N = Cnt->getAsUnsignedConstant().value_or(0);
    } else if (auto UB = C.find(dwarf::DW_AT_upper_bound)) {
      uint64_t Lower = 0;
      if (auto LB = C.find(dwarf::DW_AT_lower_bound))
        Lower = LB->getAsUnsignedConstant().value_or(0);
      if (auto Up = UB->getAsUnsignedConstant()) {
        // upper_bound -1 (all ones) marks a flexible array in some producers.
        if (*Up != UINT64_MAX && *Up != UINT32_MAX && *Up >= Lower)
          X.N = *Up - Lower + 1;
      } else if (auto SUp = UB->getAsSignedConstant()) {
        if (*SUp >= int64_t(Lower))
          X.N = *SUp - Lower + 1;
      }
    }
    if (X.N > UINT32_MAX) {
      warn("absurd-size", C, "array of " + Twine(X.N) + " elements");
      T.Kind = TypeKind::Unknown;
      return;
    }
    Dims.push_back(X);
  }
  if (Dims.empty())
    Dims.push_back({0, defaultIndex()});
  // int a[3][4] is an array of 3 arrays of 4 ints: build from the innermost.
  TypeId Inner = Elem;
  for (size_t I = Dims.size(); I-- > 1;) {
    Type A;
    A.Kind = TypeKind::Array;
    A.Ref = Inner;
    A.IndexType = Dims[I].Index;
    A.NumElems = Dims[I].N;
    Inner = add(std::move(A));
  }
  T.Kind = TypeKind::Array;
  T.Ref = Inner;
  T.IndexType = Dims[0].Index;
  T.NumElems = Dims[0].N;
  if (byteSizeOf(Out.Types, Inner) * T.NumElems > MaxSaneSize && T.NumElems) {
    warn("absurd-size", D, "array larger than 2^48 bytes");
    T = Type();
    T.Kind = TypeKind::Unknown;
  }
}

void UnitConverter::convertFunction(const Die &D, Type &T) {
  T.Kind = TypeKind::Function;
  Die Decl = D;
  // Out-of-line instances of inline functions keep their prototype in the
  // abstract origin.
  if (Die O = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin))
    Decl = O;
  if (Die S = Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification))
    Decl = S;
  T.Ref = refType(Decl);
  for (Die C : Decl.children()) {
    if (C.getTag() == dwarf::DW_TAG_formal_parameter) {
      // Artificial ones (C++ `this`) too: they are real arguments.
      T.Params.push_back(refType(C));
    } else if (C.getTag() == dwarf::DW_TAG_unspecified_parameters) {
      T.Varargs = true;
    }
  }
}

bool UnitConverter::describesNoType(const Die &D) const {
  // A unit of -g1 or -gline-tables-only has no type DIEs, and its
  // subprograms no return type, no DW_AT_prototyped and no parameters. A
  // K&R `void f()` looks the same but for the types its unit has.
  if (HasTypeDies)
    return false;
  Die Decl = D;
  if (Die O = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin))
    Decl = O;
  if (Die S = Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification))
    Decl = S;
  if (Decl.find(dwarf::DW_AT_type) || Decl.find(dwarf::DW_AT_prototyped))
    return false;
  for (Die C : Decl.children())
    if (C.getTag() == dwarf::DW_TAG_formal_parameter ||
        C.getTag() == dwarf::DW_TAG_unspecified_parameters)
      return false;
  return true;
}

void UnitConverter::collectSymbols(const Die &Scope) {
  for (Die C : Scope.children()) {
    switch (C.getTag()) {
    case dwarf::DW_TAG_namespace:
    case dwarf::DW_TAG_module: // Fortran's: its variables and procedures
      collectSymbols(C);
      break;
    case dwarf::DW_TAG_variable: {
      // Definitions (with a location) are objects; declarations count
      // only for the names asked for, and only where no unit defines them.
      if (!C.find(dwarf::DW_AT_location)) {
        addDeclaration(C);
        break;
      }
      const char *Name = C.getLinkageNameOrName();
      if (!Name || !*Name)
        break;
      // The type sits on the declaration (DW_AT_specification) or, for
      // LTO and inlined copies, on the abstract origin.
      Die Decl = C;
      for (unsigned Hops = 0; Hops < 4 && Decl && !Decl.find(dwarf::DW_AT_type);
           ++Hops) {
        Die Next =
            Decl.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
        if (!Next)
          Next = Decl.getAttributeValueAsReferencedDie(
              dwarf::DW_AT_abstract_origin);
        Decl = Next;
      }
      if (!Decl || !Decl.find(dwarf::DW_AT_type))
        break;
      Out.Variables.push_back(
          {Name, refType(Decl), symbolAddress(C).value_or(Symbol::NoAddress)});
      break;
    }
    case dwarf::DW_TAG_subprogram: {
      if (!C.find(dwarf::DW_AT_low_pc) && !C.find(dwarf::DW_AT_ranges))
        break;
      const char *Name = C.getLinkageNameOrName();
      if (!Name || !*Name || isSignatureClone(Name))
        break;
      if (describesNoType(C)) {
        ++Untyped;
        break;
      }
      Type F;
      convertFunction(C, F);
      Out.Functions.push_back({Name, add(std::move(F)),
                               symbolAddress(C).value_or(Symbol::NoAddress)});
      break;
    }
    default:
      break;
    }
  }
}

std::optional<TypeId> UnitConverter::convertedType(const Die &D) {
  DieView V = view(D);
  auto A = V.find(dwarf::DW_AT_type);
  if (!A)
    return TypeId(0);
  if (A->getForm() == dwarf::DW_FORM_ref_sig8)
    return std::nullopt;
  Die T = D.getAttributeValueAsReferencedDie(*A);
  TypeId *Known = T ? memoFind(T) : nullptr;
  if (!Known || *Known == Provisional)
    return std::nullopt;
  return *Known;
}

void UnitConverter::addDeclaration(const Die &D) {
  if ((!Declared && !Out.DeclarationsUnfiltered) ||
      !D.find(dwarf::DW_AT_declaration) || !D.find(dwarf::DW_AT_type))
    return;
  const char *Name = D.getLinkageNameOrName();
  if (!Name || !*Name)
    return;
  if (!Declared) {
    // The names are still being read: a declaration whose type is
    // converted costs nothing to keep, and the merger drops it if its name
    // is not asked for. Resolving any other type might convert types (and
    // warn) that the unit would not have had: only for a name asked for.
    if (std::optional<TypeId> Known = convertedType(D)) {
      Out.DeclaredVariables.push_back({Name, *Known});
      return;
    }
    Declared = DeclaredNames();
    if (!Declared)
      return;
  }
  if (Declared->contains(Name))
    Out.DeclaredVariables.push_back({Name, refType(D)});
}

UnitTypes UnitConverter::run() {
  Die CUDie = U.getUnitDIE();
  if (!CUDie)
    return std::move(Out);
  // Every type DIE, in DIE order, so that unused types are kept too (a
  // header's types are what consumers look up by name).
  const size_t TypesBefore = Out.Types.size();
  for (uint32_t I = 0, E = U.numDies(); I < E; ++I) {
    Die D(&U, I);
    switch (D.getTag()) {
    case dwarf::DW_TAG_base_type:
      // Except the base types clang makes for DWARF expressions
      // (DW_OP_convert), named after their encoding and size: no C type
      // has such a name. One that a type refers to is still converted.
      if (!nameOf(D).starts_with("DW_ATE_"))
        typeOf(D);
      break;
    case dwarf::DW_TAG_pointer_type:
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_structure_type:
    case dwarf::DW_TAG_union_type:
    case dwarf::DW_TAG_class_type:
    case dwarf::DW_TAG_enumeration_type:
    case dwarf::DW_TAG_array_type:
    case dwarf::DW_TAG_subroutine_type:
    case dwarf::DW_TAG_reference_type:
    case dwarf::DW_TAG_rvalue_reference_type:
    case dwarf::DW_TAG_ptr_to_member_type:
    case dwarf::DW_TAG_atomic_type:
      typeOf(D);
      break;
    default:
      break;
    }
  }
  HasTypeDies = Out.Types.size() > TypesBefore;
  // Waiting here for the names (read from the symbol table beside the
  // first units) held up both threads of a vmlinux's walk for 50 ms.
  if (NamesReady && !NamesReady())
    Out.DeclarationsUnfiltered = true;
  else
    Declared = DeclaredNames();
  collectSymbols(CUDie);
  if (Untyped)
    Log.report("untyped-functions",
               "unit at 0x" + Twine::utohexstr(U.getOffset()) + " ('" +
                   nameOf(CUDie) + "') describes " + Twine(Untyped) +
                   (Untyped == 1 ? " function" : " functions") +
                   " but no types (compiled with -g1 or "
                   "-gline-tables-only?): left out of the function section, "
                   "which would give each the type void ()");
  return std::move(Out);
}

// ---------------------------------------------------------------------------
// Hashing
//
// A type's hash stands for the graph of types it reaches. Types outside any
// cycle get their full recursive hash, bottom-up. The types of one cycle
// (one strongly connected component of the unit's reference graph) are
// first given the component's signature, an order-free sum over its members
// of their own fields and of the hashes of the types they reach outside
// it, which changes with any member anywhere in it; rounds of neighbour
// hashing inside the component then tell its members apart. Everything
// depends on the types' structure only, never on their order, so units
// agree. The hash only proposes which merged type a unit's type is;
// TypeMerger::add() verifies every proposal exactly.

/// Rounds of neighbour hashing inside a component: they need only tell
/// apart members that look alike within a few references (`struct a **`
/// and `struct b **`), since the signature already sees the whole
/// component. A vmlinux's units merge to 782k types with 4, 8 or 16
/// rounds, to 1.3M with 2 (48 rounds over whole units, without the
/// signature, left 778k for 1.7 times the hashing time).
constexpr unsigned ComponentRounds = 8;

} // namespace

namespace {
/// hashTypes()' working arrays, kept by each thread from unit to unit:
/// allocating and clearing a score of arrays per unit (and faulting their
/// pages in) cost a tenth of the hashing.
struct HashScratch {
  std::vector<uint32_t> Begin, Adj, Order, Low, Members, Local, IBegin, ITarget;
  std::vector<uint64_t> IH0, ISum, ICur, INext, IPos;
  std::vector<std::pair<uint32_t, uint32_t>> Stack;
};

/// The term a reference at position Pos to a type of hash H adds to the
/// sum of a type's references.
inline uint64_t refTerm(uint64_t H, uint64_t Pos) {
  uint64_t T = (H ^ Pos) * 0xff51afd7ed558ccdULL;
  return T ^ (T >> 29);
}
constexpr uint64_t PosStep = 0x9e3779b97f4a7c15ULL;

/// Hashes the members of one component (Members, in any order) whose
/// references outside it have their hashes in Hashes already.
void hashComponent(ArrayRef<uint32_t> Members, HashScratch &S,
                   const std::vector<uint64_t> &H0,
                   std::vector<uint64_t> &Hashes) {
  const std::vector<uint32_t> &Begin = S.Begin, &Adj = S.Adj;
  size_t NM = Members.size();
  // References inside the component as compact arrays; those leading out
  // of it add the same term every round: summed once.
  std::vector<uint32_t> &Local = S.Local, &IBegin = S.IBegin,
                        &ITarget = S.ITarget;
  std::vector<uint64_t> &IH0 = S.IH0, &ISum = S.ISum, &ICur = S.ICur,
                        &INext = S.INext, &IPos = S.IPos;
  for (size_t K = 0; K < NM; ++K)
    Local[Members[K]] = K;
  IH0.resize(NM);
  ISum.resize(NM);
  ICur.resize(NM);
  INext.resize(NM);
  IBegin.resize(NM + 1);
  ITarget.clear();
  IPos.clear();
  uint64_t Signature = 0;
  for (size_t K = 0; K < NM; ++K) {
    uint32_t I = Members[K];
    IBegin[K] = ITarget.size();
    uint64_t Sum = 0, Pos = 0;
    for (uint32_t E = Begin[I], End = Begin[I + 1]; E < End; ++E) {
      Pos += PosStep;
      uint32_t C = Adj[E];
      if (Local[C] != UINT32_MAX) {
        ITarget.push_back(Local[C]);
        IPos.push_back(Pos);
        continue;
      }
      Sum += refTerm(Hashes[C], Pos);
    }
    ISum[K] = Sum;
    Signature += refTerm(mix(H0[I], Sum), 0x2545f4914f6cdd1dULL);
  }
  IBegin[NM] = ITarget.size();
  for (size_t K = 0; K < NM; ++K) {
    ICur[K] = IH0[K] = mix(H0[Members[K]], Signature);
    // With what mix() adds for the type, which no round changes.
    ISum[K] += mixAddend(IH0[K]);
  }
  for (unsigned R = 0; R < ComponentRounds; ++R) {
    for (size_t K = 0; K < NM; ++K) {
      uint64_t Sum = ISum[K];
      for (uint32_t E = IBegin[K], End = IBegin[K + 1]; E < End; ++E)
        Sum += refTerm(ICur[ITarget[E]], IPos[E]);
      INext[K] = mixSum(IH0[K], Sum); // mix(IH0[K], the terms' sum)
    }
    std::swap(ICur, INext);
  }
  for (size_t K = 0; K < NM; ++K) {
    Hashes[Members[K]] = ICur[K];
    Local[Members[K]] = UINT32_MAX;
  }
}

/// Calls F with each strongly connected component of the reference graph
/// in S.Begin/S.Adj (Tarjan's algorithm, without recursion), each after
/// every component it refers to: a component is complete when its
/// first-visited member is left.
void forEachComponent(size_t N, HashScratch &S,
                      function_ref<void(ArrayRef<uint32_t>)> F) {
  const std::vector<uint32_t> &Begin = S.Begin, &Adj = S.Adj;
  constexpr uint32_t Unseen = UINT32_MAX, Done = UINT32_MAX - 1;
  std::vector<uint32_t> &Order = S.Order, &Low = S.Low, &Members = S.Members;
  Order.assign(N, Unseen); // visit number, Done once in a component
  Low.resize(N);
  Members.clear();
  std::vector<std::pair<uint32_t, uint32_t>> &Stack = S.Stack; // type, next
  Stack.clear();
  uint32_t Visited = 0;
  for (size_t Root = 0; Root < N; ++Root) {
    if (Order[Root] != Unseen)
      continue;
    Order[Root] = Low[Root] = Visited++;
    Members.push_back(Root);
    Stack.push_back({uint32_t(Root), Begin[Root]});
    while (!Stack.empty()) {
      auto &[I, Next] = Stack.back();
      if (Next < Begin[I + 1]) {
        uint32_t C = Adj[Next++];
        if (Order[C] == Unseen) {
          Order[C] = Low[C] = Visited++;
          Members.push_back(C);
          Stack.push_back({C, Begin[C]});
        } else if (Order[C] != Done) {
          Low[I] = std::min(Low[I], Order[C]); // C is on the walk
        }
        continue;
      }
      uint32_t Left = I;
      Stack.pop_back();
      if (!Stack.empty())
        Low[Stack.back().first] = std::min(Low[Stack.back().first], Low[Left]);
      if (Low[Left] != Order[Left])
        continue;
      // Left closes a component: it and the types visited after it that
      // are in no completed component.
      size_t From = Members.size() - 1;
      while (Members[From] != Left)
        --From;
      F(ArrayRef<uint32_t>(Members.data() + From, Members.size() - From));
      for (size_t K = From; K < Members.size(); ++K)
        Order[Members[K]] = Done;
      Members.resize(From);
    }
  }
}
} // namespace

void hashUnitTypes(UnitTypes &UT) {
  UT.Hashes = hashTypes(UT.Types, &UT.ShallowHashes);
}

std::vector<uint64_t> hashTypes(ArrayRef<Type> Types,
                                std::vector<uint64_t> *Shallow) {
  static thread_local HashScratch S;
  size_t N = Types.size();
  // The references as flat arrays: the walk below touches them many times,
  // and walking the Type records themselves would be cache-hostile.
  std::vector<uint32_t> &Begin = S.Begin, &Adj = S.Adj;
  std::vector<uint64_t> H0(N), Hashes(N);
  Begin.resize(N + 1);
  Adj.clear();
  for (size_t I = 0; I < N; ++I) {
    Begin[I] = Adj.size();
    // A reference out of the table (which no table we build has) counts
    // as one to void.
    Types[I].forEachRef([&](TypeId C) { Adj.push_back(C < N ? C : 0); });
    H0[I] = shallowHash(Types[I]);
  }
  Begin[N] = Adj.size();
  S.Local.assign(N, UINT32_MAX); // hashComponent()'s, left as it finds it
  forEachComponent(N, S, [&](ArrayRef<uint32_t> Comp) {
    uint32_t I = Comp.front();
    bool SelfRef = false;
    for (uint32_t E = Begin[I]; E < Begin[I + 1] && !SelfRef; ++E)
      SelfRef = Adj[E] == I;
    if (Comp.size() > 1 || SelfRef) {
      hashComponent(Comp, S, H0, Hashes);
      return;
    }
    // Outside any cycle: the full recursive hash.
    uint64_t Sum = 0, Pos = 0;
    for (uint32_t E = Begin[I]; E < Begin[I + 1]; ++E)
      Sum += refTerm(Hashes[Adj[E]], Pos += PosStep);
    Hashes[I] = Begin[I] == Begin[I + 1] ? H0[I] : mix(H0[I], Sum);
  });
  if (Shallow)
    *Shallow = std::move(H0);
  return Hashes;
}

unsigned breakTypedefCycles(std::vector<Type> &Types) {
  // Colour walk over the edges that consumers follow to resolve a type
  // (typedef, qualifiers, array element, slice): a cycle there would hang
  // them. Pointers, functions and aggregates legitimately close cycles.
  auto Follows = [](const Type &T) {
    switch (T.Kind) {
    case TypeKind::Typedef:
    case TypeKind::Const:
    case TypeKind::Volatile:
    case TypeKind::Restrict:
    case TypeKind::Array:
    case TypeKind::Slice:
      return true;
    default:
      return false;
    }
  };
  enum : uint8_t { White, Grey, Black };
  std::vector<uint8_t> Colour(Types.size(), White);
  unsigned Broken = 0;
  for (size_t Start = 0; Start < Types.size(); ++Start) {
    if (Colour[Start] != White)
      continue;
    SmallVector<TypeId, 16> Path;
    TypeId Cur = Start;
    while (true) {
      if (Cur >= Types.size() || Colour[Cur] == Black || !Follows(Types[Cur])) {
        if (Cur < Types.size())
          Colour[Cur] = Black;
        break;
      }
      if (Colour[Cur] == Grey) {
        // Cycle: the type that closed it becomes unknown.
        TypeId Last = Path.back();
        Types[Last] = Type();
        Types[Last].Kind = TypeKind::Unknown;
        ++Broken;
        break;
      }
      Colour[Cur] = Grey;
      Path.push_back(Cur);
      Cur = Types[Cur].Ref;
    }
    for (TypeId P : Path)
      Colour[P] = Black;
  }
  return Broken;
}

namespace {
/// Cycle breaking and hashing, after either reader.
void finishUnit(UnitTypes &UT, WarningLog &Log) {
  if (unsigned N = breakTypedefCycles(UT.Types))
    Log.report("type-cycle", Twine(N) +
                                 " type(s) closing a cycle through typedefs, "
                                 "qualifiers or arrays written as unknown");
  hashUnitTypes(UT);
}
} // namespace

UnitTypes convertCompileUnit(const input::Unit &U, WarningLog &Log,
                             const TypeUnitIndex *Sigs,
                             function_ref<const StringSet<> *()> Declared,
                             function_ref<bool()> Ready) {
  UnitTypes UT = UnitConverter(U, Log, Sigs, Declared, Ready).run();
  finishUnit(UT, Log);
  return UT;
}

UnitTypes convertCompileUnit(const input::Unit &U, WarningLog &Log,
                             const TypeUnitIndex *Sigs,
                             const StringSet<> *Declared) {
  return convertCompileUnit(U, Log, Sigs, [Declared] { return Declared; });
}

// ---------------------------------------------------------------------------
// Merging

TypeMerger::TypeMerger(bool StableInputs)
    : NameIds(std::make_shared<NameMap>()), StableInputs(StableInputs) {
  NameById.push_back("");
  FirstAddress.push_back(nullptr);
  Nodes.emplace_back(); // void
  ShallowCls.push_back(0);
  ShallowIds.tryEmplace(types::shallowHash(Type()), 0);
}

uint32_t TypeMerger::intern(StringRef S) {
  if (S.empty())
    return 0;
  // Short names (often inline DW_FORM_string, at a new address in every
  // unit) are their own key.
  if (S.size() < 8) {
    uint64_t Key = uint64_t(S.size()) << 56;
    memcpy(&Key, S.data(), S.size());
    auto [It, New] = ShortIds.try_emplace(Key, 0);
    if (New)
      It->second = internBytes(S);
    return It->second;
  }
  // A linked object's longer names are mostly in .debug_str, each once:
  // their address names them without hashing their bytes.
  if (StableInputs) {
    auto [It, New] = ByAddress.try_emplace(S.data(), 0);
    if (!New && NameById[It->second].size() == S.size())
      return It->second;
    uint32_t Id = internBytes(S);
    if (New)
      It->second = Id;
    return Id;
  }
  return internBytes(S);
}

uint32_t TypeMerger::internBytes(StringRef S) {
  auto [It, New] = NameIds->try_emplace(S, NameById.size());
  if (New) {
    NameById.push_back(It->getKey());
    FirstAddress.push_back(S.data());
  }
  return It->second;
}

bool TypeMerger::nameIs(StringRef S, uint32_t Id) const {
  StringRef N = NameById[Id];
  if (S.size() != N.size())
    return false;
  // DWARF names are NUL-terminated, so one address is one string; and a
  // linked object's .debug_str holds each string once.
  return (StableInputs && S.data() == FirstAddress[Id]) || S == N;
}

void TypeMerger::add(UnitTypes &&UT) {
  size_t N = UT.Types.size();
  std::vector<TypeId> Map(N);
  std::vector<bool> IsNew(N, false);
  // The slots of the hashes some types ahead are loaded while the current
  // one is looked up: the table is far larger than the caches.
  constexpr size_t Ahead = 8;
  for (size_t I = 1; I < N && I <= Ahead; ++I)
    ByHash.prefetch(UT.Hashes[I]);
  for (size_t I = 1; I < N; ++I) {
    if (I + Ahead < N)
      ByHash.prefetch(UT.Hashes[I + Ahead]);
    auto [Id, Inserted] = ByHash.tryEmplace(UT.Hashes[I], Nodes.size());
    if (Inserted) {
      Nodes.emplace_back();
      ShallowCls.emplace_back();
      IsNew[I] = true;
    }
    Map[I] = Id;
  }
  // A hash match is only a candidate: keep it only if the type agrees with
  // the merged one in every field and each reference maps to the merged
  // type's reference. Then the mapping is a label-preserving homomorphism of
  // the type graphs, so merged types are exactly equivalent whatever the
  // hash depth. Rejecting one type can invalidate the types citing it:
  // repeat until nothing changes (rejections only grow).
  // Types new in this unit are compared with their first local copy.
  DenseMap<TypeId, uint32_t> FirstCopy;
  for (size_t I = 1; I < N; ++I)
    if (IsNew[I])
      FirstCopy.try_emplace(Map[I], I);
  auto SameLocal = [&](const Type &A, const Type &B) {
    if (!sameShallow(A, B))
      return false;
    SmallVector<TypeId, 8> RA, RB;
    A.forEachRef([&](TypeId C) { RA.push_back(Map[C]); });
    B.forEachRef([&](TypeId C) { RB.push_back(Map[C]); });
    return RA == RB;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 1; I < N; ++I) {
      if (IsNew[I])
        continue;
      auto It = FirstCopy.find(Map[I]);
      if (It != FirstCopy.end() ? SameLocal(UT.Types[I], UT.Types[It->second])
                                : sameAs(UT.Types[I], Nodes[Map[I]], Map))
        continue;
      Map[I] = Nodes.size();
      Nodes.emplace_back();
      ShallowCls.emplace_back();
      IsNew[I] = true;
      Changed = true;
    }
  }
  // The shallow classes' slots of the new types, prefetched as above.
  const bool HaveShallow = UT.ShallowHashes.size() == N;
  size_t NextToLoad = 1;
  auto LoadNextNew = [&] {
    while (NextToLoad < N && !IsNew[NextToLoad])
      ++NextToLoad;
    if (NextToLoad < N)
      ShallowIds.prefetch(UT.ShallowHashes[NextToLoad++]);
  };
  for (size_t K = 0; HaveShallow && K < Ahead; ++K)
    LoadNextNew();
  for (size_t I = 1; I < N; ++I) {
    if (!IsNew[I])
      continue;
    if (HaveShallow)
      LoadNextNew();
    const Type &T = UT.Types[I];
    // The unit's shallow hash covers the node's fields (names by their
    // bytes, which stand for the interned ids).
    uint64_t SH = HaveShallow ? UT.ShallowHashes[I] : types::shallowHash(T);
    ShallowCls[Map[I]] = ShallowIds.tryEmplace(SH, ShallowIds.size()).first;
    Node &G = Nodes[Map[I]];
    G.Kind = T.Kind;
    G.Encoding = T.Encoding;
    G.Varargs = T.Varargs;
    G.Name = intern(T.Name);
    G.Size = uint32_t(T.Size);
    G.WideSize = T.Size > UINT32_MAX;
    if (G.WideSize)
      BigSizes[&G] = T.Size;
    G.NumElems = T.NumElems;
    G.Bits = T.Bits;
    G.BitOffset = T.BitOffset;
    G.RefBegin = Refs.size();
    T.forEachRef([&](TypeId R) { Refs.push_back(Map[R]); });
    G.NumRefs = Refs.size() - G.RefBegin;
    G.AuxBegin = AuxNames.size();
    for (const Member &M : T.Members) {
      if (M.BitOffset > UINT32_MAX) {
        G.WideAux = true;
        BigAux[AuxNames.size()] = M.BitOffset;
      }
      AuxNames.push_back(intern(M.Name));
      AuxValues.push_back(uint32_t(M.BitOffset));
    }
    for (const Enumerator &E : T.Enumerators) {
      AuxNames.push_back(intern(E.Name));
      AuxValues.push_back(uint32_t(int32_t(E.Value))); // int32 (converter)
    }
    G.NumAux = AuxNames.size() - G.AuxBegin;
  }
  for (const Symbol &S : UT.Variables) {
    uint32_t Name = intern(S.Name);
    if (SeenVariables.insert(Name).second)
      Variables.push_back({Name, Map[S.Type]});
    if (S.Address != Symbol::NoAddress)
      AddressedVariables.push_back({S.Address, Name, Map[S.Type]});
  }
  for (const Symbol &S : UT.DeclaredVariables) {
    uint32_t Name = intern(S.Name);
    if (SeenDeclared.insert(Name).second)
      DeclaredVariables.push_back({Name, Map[S.Type]});
  }
  for (const Symbol &S : UT.Functions) {
    uint32_t Name = intern(S.Name);
    if (SeenFunctions.insert(Name).second)
      Functions.push_back({Name, Map[S.Type]});
    if (S.Address != Symbol::NoAddress)
      AddressedFunctions.push_back({S.Address, Name, Map[S.Type]});
  }
}

uint64_t TypeMerger::auxValue(const Node &N, uint32_t I) const {
  uint32_t V = AuxValues[N.AuxBegin + I];
  if (N.Kind == TypeKind::Enum)
    return uint64_t(int64_t(int32_t(V)));
  if (N.WideAux) {
    auto It = BigAux.find(N.AuxBegin + I);
    if (It != BigAux.end())
      return It->second;
  }
  return V;
}

bool TypeMerger::sameAs(const Type &T, const Node &G,
                        const std::vector<TypeId> &Map) const {
  if (T.Kind != G.Kind || T.Encoding != G.Encoding || T.Varargs != G.Varargs ||
      T.Size != sizeOf(G) || T.NumElems != G.NumElems || T.Bits != G.Bits ||
      T.BitOffset != G.BitOffset || !nameIs(T.Name, G.Name) ||
      T.Members.size() + T.Enumerators.size() != G.NumAux)
    return false;
  for (size_t I = 0; I < T.Members.size(); ++I)
    if (T.Members[I].BitOffset != auxValue(G, I) ||
        !nameIs(T.Members[I].Name, AuxNames[G.AuxBegin + I]))
      return false;
  for (size_t I = 0; I < T.Enumerators.size(); ++I)
    if (uint64_t(T.Enumerators[I].Value) != auxValue(G, I) ||
        !nameIs(T.Enumerators[I].Name, AuxNames[G.AuxBegin + I]))
      return false;
  uint32_t R = 0;
  bool Same = true;
  T.forEachRef([&](TypeId C) {
    Same &= R < G.NumRefs && Refs[G.RefBegin + R] == Map[C];
    ++R;
  });
  return Same && R == G.NumRefs;
}

/// Exact structural equivalence (coarsest stable partition) over the merged
/// graph, with references to redirected forwards followed to their target.
/// Each round splits the classes by their members' signatures (own class,
/// classes referred to), as plain rounds over every node would, but only
/// nodes that moved or refer to one that moved can have a new signature:
/// the others keep their class, and a class that splits keeps its id for
/// its part holding the unchanged members (or its first member), so ids
/// only change where the partition does. The partition is the same; the
/// ids are only compared.
std::vector<uint32_t> TypeMerger::refine(const std::vector<TypeId> &Redirect,
                                         unsigned Threads) const {
  size_t N = Nodes.size();
  std::vector<uint32_t> Cls(N);
  for (size_t I = 0; I < N; ++I)
    Cls[I] = ShallowCls[I];
  uint32_t NumCls = NumShallowCls;
  // The redirected references are read through Refs each round, not
  // copied into flat arrays first: the copy (16 MB for a vmlinux) was part
  // of the conversion's peak memory, for a step that takes a few percent
  // of its time.
  auto Ref = [&](uint32_t R) { return Redirect[Refs[R]]; };

  // Per class: members, the signature its members last had, and per round
  // how many members have to be looked at and whether one claimed it.
  std::vector<uint32_t> Size(NumCls), Seen(NumCls), Round(NumCls, 0);
  std::vector<uint64_t> Sig(NumCls);
  // Nodes moved to another class in the last round.
  std::vector<uint8_t> Moved(N, 1);
  DenseMap<uint64_t, uint32_t> NewIds;
  auto NewClass = [&](uint64_t H) {
    auto [It, New] = NewIds.try_emplace(H, NumCls);
    if (New) {
      ++NumCls;
      Sig.push_back(H);
      Size.push_back(0);
      Seen.push_back(0);
      Round.push_back(0);
    }
    return It->second;
  };
  for (size_t I = 0; I < N; ++I)
    ++Size[Cls[I]];
  // Each round looks at the nodes that moved in the last one or refer to
  // one that did (Dirty: all, in the first round); the others keep their
  // class. Their signatures (own class, classes referred to, before the
  // round) go to Hash. Finding and hashing them reads the classes of
  // every reference at random, most of a round's time: with two threads
  // each takes half of the nodes; what follows is in node order.
  std::vector<uint8_t> Dirty(N);
  std::vector<uint64_t> Hash(N);
  auto Scan = [&](size_t Begin, size_t End) {
    size_t NumDirty = 0;
    for (size_t I = Begin; I < End; ++I) {
      bool D = Moved[I];
      const Node &X = Nodes[I];
      uint32_t R = X.RefBegin, RefEnd = R + X.NumRefs;
      for (; !D && R < RefEnd; ++R)
        D = Moved[Ref(R)];
      Dirty[I] = D;
      if (!D)
        continue;
      ++NumDirty;
      uint64_t H = mix(0x51ed270b, Cls[I]);
      for (R = X.RefBegin; R < RefEnd; ++R)
        H = mix(H, Cls[Ref(R)]);
      Hash[I] = H;
    }
    return NumDirty;
  };
  // (node, class before the round) of the nodes that moved.
  std::vector<std::pair<uint32_t, uint32_t>> Moves;
  // At most every node moves in a round (most of a kernel's do in the
  // first): the room, reserved, is only written as far as needed, where
  // each doubling took as much fresh memory again.
  Moves.reserve(N);
  std::vector<uint32_t> Claimed;
  for (uint32_t R = 1;; ++R) {
    size_t NumDirty;
    if (Threads > 1 && N >= 4096) {
      std::future<size_t> Upper =
          std::async(std::launch::async, Scan, N / 2, N);
      NumDirty = Scan(0, N / 2);
      NumDirty += Upper.get();
    } else {
      NumDirty = Scan(0, N);
    }
    if (!NumDirty)
      break;
    for (size_t I = 0; I < N; ++I) {
      if (!Dirty[I])
        continue;
      uint32_t C = Cls[I];
      if (Round[C] != R) {
        Round[C] = R;
        Seen[C] = 0;
      }
      ++Seen[C];
    }
    for (auto [I, C] : Moves)
      Moved[I] = 0;
    if (R == 1)
      std::fill(Moved.begin(), Moved.end(), 0);
    Moves.clear();
    NewIds.clear();
    Claimed.clear();
    for (size_t I = 0; I < N; ++I) {
      if (!Dirty[I])
        continue;
      uint32_t C = Cls[I];
      uint64_t H = Hash[I];
      // Seen[C] == Size[C]: every member is looked at, none is known to
      // keep the class: the first one claims it (marked by Size[C] = 0).
      if (Seen[C] == Size[C]) {
        Sig[C] = H;
        Size[C] = 0;
        Claimed.push_back(C);
      } else if (H != Sig[C]) {
        Cls[I] = NewClass(H);
        Moved[I] = 1;
        Moves.push_back({uint32_t(I), C});
      }
    }
    for (uint32_t C : Claimed)
      Size[C] = Seen[C];
    for (auto [I, C] : Moves) {
      --Size[C];
      ++Size[Cls[I]];
    }
  }
  return Cls;
}

Type TypeMerger::expand(const Node &N) const {
  Type T;
  T.Kind = N.Kind;
  T.Encoding = N.Encoding;
  T.Varargs = N.Varargs;
  T.Name = NameById[N.Name];
  T.Size = sizeOf(N);
  T.NumElems = N.NumElems;
  T.Bits = N.Bits;
  T.BitOffset = N.BitOffset;
  auto R = [&](uint32_t I) { return Refs[N.RefBegin + I]; };
  switch (N.Kind) {
  case TypeKind::Pointer:
  case TypeKind::Typedef:
  case TypeKind::Volatile:
  case TypeKind::Const:
  case TypeKind::Restrict:
  case TypeKind::Slice:
    T.Ref = R(0);
    break;
  case TypeKind::Array:
    T.Ref = R(0);
    T.IndexType = R(1);
    break;
  case TypeKind::Function:
    T.Ref = R(0);
    for (uint32_t I = 1; I < N.NumRefs; ++I)
      T.Params.push_back(R(I));
    break;
  case TypeKind::Struct:
  case TypeKind::Union:
    for (uint32_t I = 0; I < N.NumAux; ++I)
      T.Members.push_back(
          {NameById[AuxNames[N.AuxBegin + I]], R(I), auxValue(N, I)});
    break;
  case TypeKind::Enum:
    for (uint32_t I = 0; I < N.NumAux; ++I)
      T.Enumerators.push_back(
          {NameById[AuxNames[N.AuxBegin + I]], int64_t(auxValue(N, I))});
    break;
  default:
    break;
  }
  return T;
}

TypeTable TypeMerger::finish(const ElfSymbolNames &Syms, unsigned Threads) {
  TypeTable T = finish(&Syms.Objects, &Syms.Functions, Threads);
  boundArraysBySymbolSize(T, Syms.ObjectExtents);
  typeAliasesByAddress(T, Syms.FunctionExtents, Syms.ObjectExtents);
  return T;
}

void TypeMerger::collectDefinedVariables(StringSet<> &Out) const {
  for (const SymbolRef &S : Variables)
    Out.insert(NameById[S.Name]);
}

void TypeMerger::keepDeclarationsOf(const StringSet<> &Names) {
  llvm::erase_if(DeclaredVariables, [&](const SymbolRef &S) {
    return !Names.contains(NameById[S.Name]);
  });
}

void TypeMerger::dropDeclarations(const StringSet<> &Defined) {
  llvm::erase_if(DeclaredVariables, [&](const SymbolRef &S) {
    return Defined.contains(NameById[S.Name]);
  });
}

StringRef ltoBaseName(StringRef Name) {
  // Most names do not end in a digit: they are passed over without a
  // search for either suffix (a kernel's 77,000 symbols took 15 ms).
  if (Name.empty() || !isDigit(Name.back()))
    return Name;
  for (StringRef Suffix : {".lto_priv.", ".llvm."}) {
    size_t At = Name.rfind(Suffix);
    if (At == StringRef::npos || At == 0)
      continue;
    StringRef Digits = Name.substr(At + Suffix.size());
    if (!Digits.empty() && llvm::all_of(Digits, isDigit))
      return Name.take_front(At);
  }
  return Name;
}

TypeTable TypeMerger::finish(const StringSet<> *ElfObjects,
                             const StringSet<> *ElfFunctions,
                             unsigned Threads) {
  // The symbols kept, sorted by name, with their merged types: they do not
  // depend on the type classes, so with a second thread they are picked
  // while the classes are refined.
  using Picked = std::vector<std::pair<StringRef, TypeId>>;
  // ELF symbols that LTO renamed (a.lto_priv.0, a.llvm.123) stand for the
  // DWARF symbol of the base name, prototype unchanged. Their names are
  // interned here, before the second thread starts: the table outlives
  // the ELF names.
  using RenameMap = StringMap<SmallVector<uint32_t, 1>>;
  auto RenamedIn = [&](const StringSet<> *Filter) {
    RenameMap R;
    if (Filter)
      for (const auto &E : *Filter) {
        StringRef Base = ltoBaseName(E.getKey());
        if (Base.size() != E.getKey().size())
          R[Base].push_back(internBytes(E.getKey()));
      }
    return R;
  };
  RenameMap RenamedObjects = RenamedIn(ElfObjects);
  RenameMap RenamedFunctions = RenamedIn(ElfFunctions);
  auto Pick = [&](const std::vector<SymbolRef> &In, const StringSet<> *Filter,
                  const RenameMap &Renamed) {
    Picked Res;
    for (const SymbolRef &S : In) {
      StringRef Name = NameById[S.Name];
      if (!Filter || Filter->contains(Name))
        Res.push_back({Name, S.Type});
      auto It = Renamed.find(Name);
      if (It != Renamed.end())
        for (uint32_t R : It->second)
          Res.push_back({NameById[R], S.Type});
    }
    // Names are unique (SeenVariables, SeenFunctions; a renamed symbol has
    // one base name), except for declarations of defined variables and
    // names that DWARF itself gives an LTO suffix: the first entry wins.
    llvm::stable_sort(
        Res, [](const auto &A, const auto &B) { return A.first < B.first; });
    Res.erase(std::unique(Res.begin(), Res.end(),
                          [](const auto &A, const auto &B) {
                            return A.first == B.first;
                          }),
              Res.end());
    return Res;
  };
  std::future<std::pair<Picked, Picked>> PickedSyms =
      std::async(Threads > 1 ? std::launch::async : std::launch::deferred, [&] {
        // A declaration comes after every definition: the sort below is
        // stable, so it names a variable only where no unit defines it.
        std::vector<SymbolRef> Vars = Variables;
        llvm::append_range(Vars, DeclaredVariables);
        return std::make_pair(Pick(Vars, ElfObjects, RenamedObjects),
                              Pick(Functions, ElfFunctions, RenamedFunctions));
      });
  ByHash.clear(); // not needed any more: free it
  ByAddress = DenseMap<const char *, uint32_t>();
  ShortIds = DenseMap<uint64_t, uint32_t>();
  NumShallowCls = ShallowIds.size();
  ShallowIds.clear();
  size_t N = Nodes.size();
  std::vector<TypeId> Redirect(N);
  for (size_t I = 0; I < N; ++I)
    Redirect[I] = I;

  // Complete definitions by (kind, name), for forward resolution.
  // The named forwards are picked out in the same pass over the nodes.
  DenseMap<std::pair<unsigned, uint32_t>, SmallVector<TypeId, 1>> Defs;
  std::vector<TypeId> Forwards;
  for (size_t I = 0; I < N; ++I) {
    const Node &T = Nodes[I];
    if (!T.Name)
      continue;
    if (isTagged(T.Kind))
      Defs[{unsigned(T.Kind), T.Name}].push_back(I);
    else if (T.Kind == TypeKind::Forward)
      Forwards.push_back(I);
  }

  // A forward stands for the definition of its name when all definitions
  // of that name are one type. Start optimistic (every named forward points
  // at the first definition) and withdraw the redirection for names whose
  // definitions turn out different; withdrawing only splits classes, so
  // this reaches a fixed point, and it handles cycles (task_struct <->
  // mm_struct) that a pessimistic start could never resolve.
  for (TypeId I : Forwards) {
    auto It = Defs.find({unsigned(Nodes[I].Encoding), Nodes[I].Name});
    if (It != Defs.end())
      Redirect[I] = It->second.front();
  }
  std::vector<uint32_t> Cls;
  while (true) {
    Cls = refine(Redirect, Threads);
    bool Changed = false;
    for (TypeId I : Forwards) {
      if (Redirect[I] == I)
        continue;
      const Node &T = Nodes[I];
      const auto &D = Defs.find({unsigned(T.Encoding), T.Name})->second;
      for (TypeId X : D)
        if (Cls[X] != Cls[D.front()]) {
          Redirect[I] = I;
          Changed = true;
          break;
        }
    }
    if (!Changed)
      break;
  }

  // Representatives: the first type of each class, in merge order.
  std::vector<TypeId> ClassRep(N, UINT32_MAX), Reps;
  for (size_t I = 0; I < N; ++I) {
    if (Redirect[I] != I)
      continue; // resolved forward
    uint32_t C = Cls[I];
    if (ClassRep[C] != UINT32_MAX)
      continue;
    ClassRep[C] = Reps.size();
    Reps.push_back(I);
  }
  TypeTable Table;
  // No copies of growing arrays of records, not even for the few arrays
  // that boundArraysBySymbolSize() adds (a vmlinux's 19 moved all 48,000
  // records into fresh memory: 7 ms of the serial tail).
  Table.Types.reserve(Reps.size() + Reps.size() / 64 + 64);
  for (TypeId I : Reps)
    Table.Types.push_back(expand(Nodes[I]));
  auto MapId = [&](TypeId R) { return ClassRep[Cls[Redirect[R]]]; };
  for (Type &T : Table.Types)
    T.forEachRefMut([&](TypeId &R) { R = MapId(R); });

  // Root/non-root: the first type of a name in each C namespace is visible
  // to name lookup; later ones (and bitfield slices) are hidden. Complete
  // types claim names before forwards.
  Table.Hidden.assign(Table.Types.size(), false);
  DenseMap<std::pair<unsigned, StringRef>, bool> Claimed;
  auto Namespace = [](const Type &T) -> unsigned {
    if (T.Kind == TypeKind::Forward)
      return T.Encoding;
    if (isTagged(T.Kind))
      return unsigned(T.Kind);
    return 0;
  };
  for (int Pass = 0; Pass < 2; ++Pass)
    for (size_t I = 0; I < Table.Types.size(); ++I) {
      const Type &T = Table.Types[I];
      if ((T.Kind == TypeKind::Forward) != (Pass == 1))
        continue;
      if (T.Kind == TypeKind::Slice) {
        Table.Hidden[I] = true;
        continue;
      }
      if (T.Name.empty())
        continue;
      if (!Claimed.try_emplace({Namespace(T), T.Name}, true).second)
        Table.Hidden[I] = true;
    }

  auto Finish = [&](const Picked &In) {
    std::vector<Symbol> Res;
    Res.reserve(In.size());
    for (const auto &[Name, Type] : In)
      Res.push_back({Name, MapId(Type)});
    return Res;
  };
  std::pair<Picked, Picked> Syms = PickedSyms.get();
  Table.Variables = Finish(Syms.first);
  Table.Functions = Finish(Syms.second);
  auto SortByAddress = [&](std::vector<AddressedRef> &In) {
    std::stable_sort(In.begin(), In.end(), [](const auto &A, const auto &B) {
      return A.Address < B.Address;
    });
    std::vector<Symbol> Res;
    Res.reserve(In.size());
    for (const AddressedRef &S : In)
      Res.push_back({NameById[S.Name], MapId(S.Type), S.Address});
    In = std::vector<AddressedRef>();
    return Res;
  };
  Table.VariablesByAddress = SortByAddress(AddressedVariables);
  Table.FunctionsByAddress = SortByAddress(AddressedFunctions);
  Table.Storage = NameIds;
  releaseGraph();
  return Table;
}

void TypeMerger::releaseGraph() {
  Nodes = PagedArray<Node>();
  Refs = PagedArray<TypeId>();
  AuxNames = PagedArray<uint32_t>();
  AuxValues = PagedArray<uint32_t>();
  ShallowCls = PagedArray<uint32_t>();
  BigAux = DenseMap<uint32_t, uint64_t>();
  BigSizes = DenseMap<const Node *, uint64_t>();
  NameById = std::vector<StringRef>();
  FirstAddress = std::vector<const char *>();
  Variables = Functions = DeclaredVariables = std::vector<SymbolRef>();
  SeenDeclared = SeenVariables = SeenFunctions = DenseSet<uint32_t>();
}

/// Rank of each kind in the output: referenced kinds (integers, tags)
/// first, then the reference kinds, functions last.
static unsigned kindRank(TypeKind K) {
  switch (K) {
  case TypeKind::Void:
    return 0;
  case TypeKind::Integer:
    return 1;
  case TypeKind::Float:
    return 2;
  case TypeKind::Enum:
    return 3;
  case TypeKind::Forward:
    return 4;
  case TypeKind::Struct:
    return 5;
  case TypeKind::Union:
    return 6;
  case TypeKind::Typedef:
    return 7;
  case TypeKind::Pointer:
    return 8;
  case TypeKind::Const:
    return 9;
  case TypeKind::Volatile:
    return 10;
  case TypeKind::Restrict:
    return 11;
  case TypeKind::Array:
    return 12;
  case TypeKind::Slice:
    return 13;
  case TypeKind::Function:
    return 14;
  case TypeKind::Unknown:
    return 15;
  }
  return 16;
}

/// The old ids in their new order. Void stays type 0; the rest by kind,
/// then by the (old) ids they refer to, then in their old order: a total
/// order, so the result is deterministic.
static std::vector<TypeId> kindOrder(const std::vector<Type> &Types) {
  const size_t N = Types.size();
  std::vector<uint32_t> RefBegin(N + 1);
  std::vector<TypeId> Refs;
  // The sort reads these flat arrays, not the (large) type records.
  std::vector<uint8_t> Ranks(N);
  for (size_t I = 0; I < N; ++I) {
    RefBegin[I] = Refs.size();
    Types[I].forEachRef([&](TypeId R) { Refs.push_back(R); });
    Ranks[I] = kindRank(Types[I].Kind);
  }
  RefBegin[N] = Refs.size();
  std::vector<TypeId> Order(N);
  for (size_t I = 0; I < N; ++I)
    Order[I] = I;
  std::sort(Order.begin() + 1, Order.end(), [&](TypeId A, TypeId B) {
    unsigned RA = Ranks[A], RB = Ranks[B];
    if (RA != RB)
      return RA < RB;
    ArrayRef<TypeId> XA(Refs.data() + RefBegin[A],
                        RefBegin[A + 1] - RefBegin[A]);
    ArrayRef<TypeId> XB(Refs.data() + RefBegin[B],
                        RefBegin[B + 1] - RefBegin[B]);
    if (XA != XB)
      return std::lexicographical_compare(XA.begin(), XA.end(), XB.begin(),
                                          XB.end());
    return A < B;
  });
  return Order;
}

void groupTypesByKind(TypeTable &Table) {
  const size_t N = Table.Types.size();
  if (N < 3)
    return;
  const std::vector<TypeId> Order = kindOrder(Table.Types);
  std::vector<TypeId> NewId(N);
  for (size_t I = 0; I < N; ++I)
    NewId[Order[I]] = I;
  std::vector<bool> Hidden(N, false);
  for (size_t I = 0; I < N; ++I)
    Hidden[I] = Order[I] < Table.Hidden.size() && Table.Hidden[Order[I]];
  Table.Hidden = std::move(Hidden);
  // Types[I] takes the type at Order[I], cycle by cycle in place: a second
  // array of records (6 MB for a vmlinux) would be fresh memory, every page
  // of it faulted in.
  std::vector<bool> Placed(N, false);
  for (size_t Start = 0; Start < N; ++Start) {
    if (Placed[Start])
      continue;
    Type Held = std::move(Table.Types[Start]);
    size_t J = Start;
    for (; Order[J] != Start; J = Order[J]) {
      Table.Types[J] = std::move(Table.Types[Order[J]]);
      Placed[J] = true;
    }
    Table.Types[J] = std::move(Held);
    Placed[J] = true;
  }
  for (Type &T : Table.Types)
    T.forEachRefMut([&](TypeId &R) { R = NewId[R]; });
  for (auto *Syms : {&Table.Variables, &Table.Functions,
                     &Table.VariablesByAddress, &Table.FunctionsByAddress})
    for (Symbol &S : *Syms)
      S.Type = NewId[S.Type];
}

const char *kindName(TypeKind K) {
  switch (K) {
  case TypeKind::Void:
    return "void";
  case TypeKind::Unknown:
    return "unknown";
  case TypeKind::Integer:
    return "integer";
  case TypeKind::Float:
    return "float";
  case TypeKind::Pointer:
    return "pointer";
  case TypeKind::Array:
    return "array";
  case TypeKind::Function:
    return "function";
  case TypeKind::Struct:
    return "struct";
  case TypeKind::Union:
    return "union";
  case TypeKind::Enum:
    return "enum";
  case TypeKind::Forward:
    return "forward";
  case TypeKind::Typedef:
    return "typedef";
  case TypeKind::Volatile:
    return "volatile";
  case TypeKind::Const:
    return "const";
  case TypeKind::Restrict:
    return "restrict";
  case TypeKind::Slice:
    return "slice";
  }
  return "?";
}

std::vector<std::pair<TypeKind, uint64_t>> countByKind(const TypeTable &T) {
  std::vector<uint64_t> Counts(unsigned(TypeKind::Slice) + 1, 0);
  for (const Type &X : T.Types)
    ++Counts[unsigned(X.Kind)];
  std::vector<std::pair<TypeKind, uint64_t>> Res;
  for (unsigned K = 0; K < Counts.size(); ++K)
    if (Counts[K])
      Res.push_back({TypeKind(K), Counts[K]});
  return Res;
}

} // namespace types
} // namespace dwarfpack
