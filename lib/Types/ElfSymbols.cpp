//===- ElfSymbols.cpp - ELF symbols the type table is tied to -------------===//

#include "dwarfpack/Types/ElfSymbols.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <tuple>

using namespace llvm;

namespace dwarfpack {
namespace types {

StringRef unversionedName(StringRef Name) {
  size_t At = Name.find('@');
  if (At == 0 || At == StringRef::npos)
    return Name;
  StringRef Version = Name.substr(At + 1);
  Version.consume_front("@");
  return Version.empty() ? Name : Name.take_front(At);
}

namespace {
/// Name, size and (in a linked object) address of an ELF symbol.
ElfObject extentOf(const object::SymbolRef &S, StringRef Name, bool Linked) {
  ElfObject O;
  O.Name = Name;
  O.Size = object::ELFSymbolRef(S).getSize();
  if (Linked) {
    if (Expected<uint64_t> V = S.getValue())
      O.Address = *V;
    else
      consumeError(V.takeError());
  }
  return O;
}
} // namespace

ElfSymbolNames collectElfSymbols(const object::ObjectFile &Obj,
                                 bool GlobalDataOnly) {
  ElfSymbolNames R;
  bool Linked = !Obj.isRelocatableObject();
  if (isa<object::ELFObjectFileBase>(&Obj)) {
    // Room for every symbol in either list: growing them as a kernel's
    // 119,000 symbols came was a tenth of the samples of the thread.
    size_t N = std::distance(Obj.symbol_begin(), Obj.symbol_end());
    R.ObjectExtents.reserve(N);
    R.FunctionExtents.reserve(N);
  }
  for (const object::SymbolRef &S : Obj.symbols()) {
    Expected<uint32_t> Flags = S.getFlags();
    Expected<object::SymbolRef::Type> Ty = S.getType();
    Expected<StringRef> Name = S.getName();
    if (Name)
      *Name = unversionedName(*Name);
    if (!Flags || !Ty || !Name) {
      consumeError(Flags.takeError());
      consumeError(Ty.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & object::SymbolRef::SF_Undefined) || Name->empty())
      continue;
    if (*Ty == object::SymbolRef::ST_Data) {
      if (GlobalDataOnly && !(*Flags & object::SymbolRef::SF_Global))
        continue;
      R.Objects.insert(*Name);
      if (isa<object::ELFObjectFileBase>(&Obj))
        R.ObjectExtents.push_back(extentOf(S, *Name, Linked));
    } else if (*Ty == object::SymbolRef::ST_Function) {
      R.Functions.insert(*Name);
      if (isa<object::ELFObjectFileBase>(&Obj))
        R.FunctionExtents.push_back(extentOf(S, *Name, Linked));
    }
  }
  return R;
}

namespace {
/// The symbols that have an address, in address order (ties: in Syms'
/// order).
std::vector<const ElfObject *> sortByAddress(ArrayRef<ElfObject> Syms) {
  std::vector<const ElfObject *> R;
  for (const ElfObject &O : Syms)
    if (O.Address != Symbol::NoAddress)
      R.push_back(&O);
  llvm::stable_sort(R, [](const ElfObject *A, const ElfObject *B) {
    return A->Address < B->Address;
  });
  return R;
}

/// The size of the symbol at definition D's address that names it (by
/// its name or the name LTO gave it) and has a size Accept takes; 0: none.
uint64_t definitionSize(ArrayRef<const ElfObject *> Sorted, const Symbol &D,
                        function_ref<bool(uint64_t)> Accept) {
  auto It = llvm::partition_point(
      Sorted, [&](const ElfObject *O) { return O->Address < D.Address; });
  for (; It != Sorted.end() && (*It)->Address == D.Address; ++It)
    if ((*It)->Size && Accept((*It)->Size) &&
        ((*It)->Name == D.Name || ltoBaseName((*It)->Name) == D.Name))
      return (*It)->Size;
  return 0;
}

bool isQualifier(TypeKind K) {
  return K == TypeKind::Const || K == TypeKind::Volatile ||
         K == TypeKind::Restrict;
}
} // namespace

unsigned boundArraysBySymbolSize(TypeTable &Table,
                                 ArrayRef<ElfObject> Objects) {
  std::vector<Type> &Types = Table.Types;
  // The array of unknown bound under Id's qualifiers, if there is one.
  auto UnboundedArray = [&](TypeId Id) -> std::optional<TypeId> {
    for (unsigned Hops = 0; Hops < 8 && Id < Types.size(); ++Hops) {
      const Type &T = Types[Id];
      if (isQualifier(T.Kind)) {
        Id = T.Ref;
        continue;
      }
      if (T.Kind == TypeKind::Array && T.NumElems == 0)
        return Id;
      break;
    }
    return std::nullopt;
  };
  bool Any = false;
  for (const auto *Syms : {&Table.Variables, &Table.VariablesByAddress})
    for (const Symbol &S : *Syms)
      Any = Any || UnboundedArray(S.Type);
  if (!Any || Objects.empty())
    return 0;

  // Sizes by name (0 where symbols of one name disagree) and by address.
  StringMap<uint64_t> SizeByName;
  for (const ElfObject &O : Objects) {
    auto [It, New] = SizeByName.try_emplace(O.Name, O.Size);
    if (!New && It->second != O.Size)
      It->second = 0;
  }
  std::vector<const ElfObject *> ByAddress = sortByAddress(Objects);
  auto SizeAt = [&](const Symbol &S) {
    return definitionSize(ByAddress, S, [](uint64_t) { return true; });
  };

  // Arrays and qualified types by what they are made of, so that a
  // completed type that already exists (another unit's bounded definition)
  // is reused and each new one is made once.
  using Key = std::tuple<unsigned, TypeId, TypeId, uint64_t>;
  auto KeyOf = [](const Type &T) {
    return Key(unsigned(T.Kind), T.Ref, T.IndexType, T.NumElems);
  };
  DenseMap<Key, TypeId> Derived;
  for (TypeId I = 0; I < Types.size(); ++I)
    if (Types[I].Kind == TypeKind::Array || isQualifier(Types[I].Kind))
      Derived.try_emplace(KeyOf(Types[I]), I);
  auto Intern = [&](Type T) {
    auto [It, New] = Derived.try_emplace(KeyOf(T), TypeId(Types.size()));
    if (New)
      Types.push_back(std::move(T));
    return It->second;
  };
  auto Complete = [&](TypeId Id, TypeId Array, uint64_t Size) -> TypeId {
    uint64_t Elem = byteSizeOf(Types, Types[Array].Ref);
    if (!Size || !Elem || Size % Elem || Size / Elem > UINT32_MAX)
      return Id;
    SmallVector<TypeKind, 4> Quals;
    for (TypeId Q = Id; Q != Array; Q = Types[Q].Ref)
      Quals.push_back(Types[Q].Kind);
    Type Bounded = Types[Array];
    Bounded.NumElems = Size / Elem;
    TypeId R = Intern(std::move(Bounded));
    for (TypeKind K : llvm::reverse(Quals)) {
      Type Q;
      Q.Kind = K;
      Q.Ref = R;
      R = Intern(std::move(Q));
    }
    return R;
  };

  // The sizes are looked up only for the few symbols of unbounded arrays:
  // by address, for each of a kernel's 22,000 variables, that took 10-30 ms.
  unsigned Changed = 0;
  auto Update = [&](Symbol &S, function_ref<uint64_t()> Size) {
    if (std::optional<TypeId> A = UnboundedArray(S.Type)) {
      TypeId New = Complete(S.Type, *A, Size());
      Changed += New != S.Type;
      S.Type = New;
    }
  };
  auto SizeNamed = [&](const Symbol &S) -> uint64_t {
    auto It = SizeByName.find(S.Name);
    return It == SizeByName.end() ? 0 : It->second;
  };
  for (Symbol &S : Table.Variables)
    Update(S, [&] { return SizeNamed(S); });
  for (Symbol &S : Table.VariablesByAddress)
    Update(S, [&] {
      uint64_t Size = SizeAt(S);
      return Size ? Size : SizeNamed(S);
    });
  Table.Hidden.resize(Types.size(), false);
  return Changed;
}

namespace {
/// Owns the names typeAliasesByAddress adds, and keeps what the table's
/// storage held before.
struct AliasNameStorage {
  std::shared_ptr<const void> Previous;
  BumpPtrAllocator Alloc;
  StringSaver Saver{Alloc};
};

/// The symbols of Syms (by address) that alias a definition of ByAddress,
/// with its type. Sorted by name, unique names; names point into Syms.
/// Typed is sorted by name.
std::vector<Symbol> findAliases(ArrayRef<Symbol> Typed,
                                ArrayRef<Symbol> ByAddress,
                                ArrayRef<ElfObject> Syms) {
  auto IsTyped = [&](StringRef Name) {
    auto It = llvm::partition_point(
        Typed, [&](const Symbol &S) { return S.Name < Name; });
    return It != Typed.end() && It->Name == Name;
  };
  std::vector<const ElfObject *> Sorted = sortByAddress(Syms);
  // Whether a symbol of definition D at D's address has Size.
  auto HasSize = [&](const Symbol &D, uint64_t Size) {
    return definitionSize(Sorted, D, [&](uint64_t S) { return S == Size; });
  };
  // The type of the definitions at Alias's address whose symbols there
  // have its size, if they agree on one.
  auto TypeOf = [&](const ElfObject &Alias) -> std::optional<TypeId> {
    std::optional<TypeId> Found;
    auto D = llvm::partition_point(
        ByAddress, [&](const Symbol &S) { return S.Address < Alias.Address; });
    for (; D != ByAddress.end() && D->Address == Alias.Address; ++D) {
      if (!HasSize(*D, Alias.Size))
        continue;
      if (Found && *Found != D->Type)
        return std::nullopt;
      Found = D->Type;
    }
    return Found;
  };
  // Each alias's type; a name at two addresses is typed only when both
  // agree. The names are Syms', which outlive the map.
  StringMap<std::pair<StringRef, std::optional<TypeId>>> Aliases;
  for (size_t I = 0; I < Sorted.size(); ++I) {
    const ElfObject *O = Sorted[I];
    // An alias shares its address with another symbol (most symbols
    // do not: they are skipped without a look at their names).
    bool Shared =
        (I > 0 && Sorted[I - 1]->Address == O->Address) ||
        (I + 1 < Sorted.size() && Sorted[I + 1]->Address == O->Address);
    if (!Shared || O->Size == 0 || IsTyped(O->Name) ||
        IsTyped(ltoBaseName(O->Name)))
      continue;
    std::optional<TypeId> T = TypeOf(*O);
    auto [It, New] = Aliases.try_emplace(O->Name, O->Name, T);
    if (!New && It->second.second != T)
      It->second.second = std::nullopt;
  }
  std::vector<Symbol> Out;
  for (const auto &E : Aliases)
    if (auto [Name, Type] = E.second; Type)
      Out.push_back({Name, *Type});
  llvm::sort(Out,
             [](const Symbol &A, const Symbol &B) { return A.Name < B.Name; });
  return Out;
}
} // namespace

unsigned typeAliasesByAddress(TypeTable &Table, ArrayRef<ElfObject> Functions,
                              ArrayRef<ElfObject> Objects) {
  std::vector<Symbol> F =
      findAliases(Table.Functions, Table.FunctionsByAddress, Functions);
  std::vector<Symbol> V =
      findAliases(Table.Variables, Table.VariablesByAddress, Objects);
  if (F.empty() && V.empty())
    return 0;
  auto Names = std::make_shared<AliasNameStorage>();
  Names->Previous = std::move(Table.Storage);
  auto Merge = [&](std::vector<Symbol> &Into, std::vector<Symbol> &Add) {
    for (Symbol &S : Add)
      S.Name = Names->Saver.save(S.Name);
    std::vector<Symbol> Out;
    Out.reserve(Into.size() + Add.size());
    std::merge(Into.begin(), Into.end(), Add.begin(), Add.end(),
               std::back_inserter(Out), [](const Symbol &A, const Symbol &B) {
                 return A.Name < B.Name;
               });
    Into = std::move(Out);
  };
  Merge(Table.Functions, F);
  Merge(Table.Variables, V);
  Table.Storage = std::move(Names);
  return unsigned(F.size() + V.size());
}

} // namespace types
} // namespace dwarfpack
