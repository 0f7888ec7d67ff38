//===- CtfWriter.cpp - Type model to CTF v3 dict --------------------------===//

#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CTF/CtfFormat.h"
#include "dwarfpack/Support/Compression.h"
#include "dwarfpack/Types/ElfSymbols.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"

#include <future>

using namespace llvm;
using namespace dwarfpack::types;

namespace dwarfpack {
namespace ctf {

namespace {

/// A string to sort, with its first eight bytes as a number that orders
/// like them (big-endian, zero-padded; a shorter string that they equal
/// is a prefix or holds NULs, and the whole strings decide): most of a
/// sort's comparisons then need no memcmp.
struct SortKey {
  SortKey(StringRef S, uint32_t Id) : S(S), Id(Id) {
    char B[8] = {};
    memcpy(B, S.data(), std::min<size_t>(S.size(), 8));
    Prefix = support::endian::read64be(B);
  }
  bool operator<(const SortKey &O) const {
    return Prefix != O.Prefix ? Prefix < O.Prefix : S < O.S;
  }
  uint64_t Prefix;
  StringRef S;
  uint32_t Id;
};

/// The string section. Strings are added while the records are written,
/// each standing for a reference that finalize() turns into its offset
/// (Buffer::str): the layout needs every string first.
class StringTable {
public:
  /// S's reference (0: the empty string, at offset 0). Not after
  /// finalize(), except for strings already added.
  uint32_t add(StringRef S) {
    if (S.empty())
      return 0;
    // The names of a merged table are one interned copy each, named again
    // and again (member names): their address finds them without hashing
    // their bytes. An address seen with another length (the tables of
    // tests) is looked up by its bytes each time.
    auto [It, New] = ByAddress.try_emplace(S.data(), 0, 0);
    if (!New && It->second.first == S.size())
      return It->second.second;
    auto [E, Added] = Refs.try_emplace(S, Entries.size() + 1);
    if (Added) {
      assert(Offsets.empty() && "string added after the layout");
      Entries.push_back(&*E);
    }
    if (New)
      It->second = {uint32_t(S.size()), E->second};
    return E->second;
  }
  uint32_t offset(uint32_t Ref) const { return Ref ? Offsets[Ref - 1] : 0; }
  void finalize() {
    // Tail merging: a string that ends another ("id" in "pid") is stored
    // once, inside the longer one. Sorting by reversed bytes puts each
    // string just before the strings it is a suffix of. The reversed
    // strings are copied out so that the sort compares them with memcmp.
    size_t Bytes = 0;
    for (const Entry *E : Entries)
      Bytes += E->getKeyLength();
    std::string Reversed(Bytes, '\0');
    std::vector<SortKey> Rev;
    Rev.reserve(Entries.size());
    char *P = Reversed.data();
    for (uint32_t I = 0; I < Entries.size(); ++I) {
      StringRef K = Entries[I]->getKey();
      std::reverse_copy(K.begin(), K.end(), P);
      Rev.emplace_back(StringRef(P, K.size()), I);
      P += K.size();
    }
    // Keys are distinct, so the order is total: equal to comparing the
    // bytes from the end, shorter (a suffix) first.
    llvm::sort(Rev);
    std::vector<uint32_t> Owner(Rev.size());
    for (size_t I = Rev.size(); I-- > 0;) {
      Owner[I] = I;
      if (I + 1 < Rev.size() && Rev[I + 1].S.starts_with(Rev[I].S))
        Owner[I] = Owner[I + 1];
    }
    // Strings that own their bytes are laid out in ascending order, so the
    // name offsets of the name-sorted symbol index sections mostly ascend,
    // which zlib compresses far better than scattered offsets.
    std::vector<SortKey> Heads;
    for (size_t I = 0; I < Rev.size(); ++I)
      if (Owner[I] == I)
        Heads.emplace_back(Entries[Rev[I].Id]->getKey(), Rev[I].Id);
    llvm::sort(Heads);
    Offsets.assign(Entries.size(), 0);
    Data.assign(1, '\0');
    for (const SortKey &H : Heads) {
      Offsets[H.Id] = Data.size();
      Data.append(H.S.data(), H.S.size());
      Data.push_back('\0');
    }
    for (size_t I = 0; I < Rev.size(); ++I) {
      uint32_t O = Rev[Owner[I]].Id, E = Rev[I].Id;
      Offsets[E] = Offsets[O] +
                   (Entries[O]->getKeyLength() - Entries[E]->getKeyLength());
    }
  }
  const std::string &data() const { return Data; }

private:
  using Entry = StringMapEntry<uint32_t>;
  StringMap<uint32_t> Refs;
  std::vector<const Entry *> Entries; ///< by reference - 1
  /// Length and reference of the strings added, by address.
  DenseMap<const char *, std::pair<uint32_t, uint32_t>> ByAddress;
  std::vector<uint32_t> Offsets; ///< by reference - 1, once laid out
  std::string Data;
};

class Buffer {
public:
  void u32(uint32_t V) {
    char B[4];
    support::endian::write32le(B, V);
    Data.append(B, 4);
  }
  void u16(uint16_t V) {
    char B[2];
    support::endian::write16le(B, V);
    Data.append(B, 2);
  }
  /// A string's offset: its reference (StringTable::add) for now,
  /// replaced by resolve().
  void str(uint32_t Ref) {
    if (Ref)
      Fixups.push_back(Data.size());
    u32(Ref);
  }
  void resolve(const StringTable &S) {
    for (size_t Pos : Fixups) {
      char *P = Data.data() + Pos;
      support::endian::write32le(P, S.offset(support::endian::read32le(P)));
    }
    Fixups.clear();
  }
  std::string Data;

private:
  std::vector<size_t> Fixups;
};

unsigned ctfKind(TypeKind K) {
  switch (K) {
  case TypeKind::Void:
  case TypeKind::Integer:
    return KInteger;
  case TypeKind::Unknown:
    return KUnknown;
  case TypeKind::Float:
    return KFloat;
  case TypeKind::Pointer:
    return KPointer;
  case TypeKind::Array:
    return KArray;
  case TypeKind::Function:
    return KFunction;
  case TypeKind::Struct:
    return KStruct;
  case TypeKind::Union:
    return KUnion;
  case TypeKind::Enum:
    return KEnum;
  case TypeKind::Forward:
    return KForward;
  case TypeKind::Typedef:
    return KTypedef;
  case TypeKind::Volatile:
    return KVolatile;
  case TypeKind::Const:
    return KConst;
  case TypeKind::Restrict:
    return KRestrict;
  case TypeKind::Slice:
    return KSlice;
  }
  return KUnknown;
}

uint32_t ctfId(TypeId Id) { return Id + 1; }

void writeSize(Buffer &B, uint64_t Size) {
  if (Size <= MaxSize) {
    B.u32(Size);
    return;
  }
  B.u32(LSizeSentinel);
  B.u32(Size >> 32);
  B.u32(uint32_t(Size));
}

/// The unindexed form of a symbol section: the type of each symbol of
/// Order (0 for a pad), trailing pads dropped. False when the section must
/// stay indexed: no order, a typed symbol without an entry (STT_TLS data),
/// or too many pads (GNU ld's threshold: indexed once 3/4 would be pads).
/// A symbol whose address (Addrs, when given) is that of a definition of
/// its name (or of the name LTO renamed it from) takes that definition's
/// type: statics of one name in several units each get their own. Other
/// symbols take their name's type.
bool unindexedSection(ArrayRef<Symbol> Syms, ArrayRef<Symbol> ByAddress,
                      const std::vector<StringRef> *Order,
                      const std::vector<uint64_t> *Addrs,
                      std::vector<uint32_t> &Out) {
  Out.clear();
  if (!Order || Syms.empty())
    return false;
  if (Addrs && Addrs->size() != Order->size())
    Addrs = nullptr;
  // Each name's type, and whether the order placed it yet.
  StringMap<std::pair<TypeId, bool>> ByName;
  for (const Symbol &S : Syms)
    ByName.try_emplace(S.Name, S.Type, false);
  auto AtAddress = [&](StringRef Name, uint64_t Addr) -> std::optional<TypeId> {
    auto It = llvm::partition_point(
        ByAddress, [&](const Symbol &S) { return S.Address < Addr; });
    StringRef Base = types::ltoBaseName(Name);
    for (; It != ByAddress.end() && It->Address == Addr; ++It)
      if (It->Name == Name || It->Name == Base)
        return It->Type;
    return std::nullopt;
  };
  size_t Last = 0, Typed = 0, Placed = 0;
  Out.reserve(Order->size());
  for (size_t I = 0; I < Order->size(); ++I) {
    StringRef Name = types::unversionedName((*Order)[I]);
    auto It = ByName.find(Name);
    if (It == ByName.end()) {
      Out.push_back(0);
      continue;
    }
    std::optional<TypeId> Own;
    if (Addrs)
      Own = AtAddress(Name, (*Addrs)[I]);
    Out.push_back(ctfId(Own.value_or(It->second.first)));
    if (!It->second.second) {
      It->second.second = true;
      ++Placed;
    }
    Last = Out.size();
    ++Typed;
  }
  if (Placed != ByName.size())
    return false;
  Out.resize(Last);
  size_t Pads = Last - Typed;
  return Pads * 4 < Last * 3;
}

} // namespace

Expected<std::string> writeDict(const TypeTable &Table,
                                const WriteOptions &Opts, WriteStats *Stats) {
  if (Table.Types.size() >= 0x7fffffff)
    return createStringError(inconvertibleErrorCode(),
                             "too many types for one CTF dict");
  StringTable Strings;
  Buffer Types, Objt, ObjtIdx, Func, FuncIdx, Vars;
  std::vector<uint32_t> ObjtSlots, FuncSlots;
  bool ObjtUnindexed = false, FuncUnindexed = false;
  // The symbol sections' layouts do not depend on the strings: with more
  // than one thread, the functions' is worked out while pass 0 collects
  // them, and the objects' after it (the functions' alone took longer
  // than the types of a kernel).
  const SymtabOrder *O = Opts.Symtab;
  auto LayoutObjects = [&] {
    ObjtUnindexed = unindexedSection(
        Table.Variables, Table.VariablesByAddress, O ? &O->Objects : nullptr,
        O ? &O->ObjectAddresses : nullptr, ObjtSlots);
  };
  auto LayoutFunctions = [&] {
    FuncUnindexed = unindexedSection(
        Table.Functions, Table.FunctionsByAddress, O ? &O->Functions : nullptr,
        O ? &O->FunctionAddresses : nullptr, FuncSlots);
  };
  std::future<void> FunctionsLaidOut =
      std::async(Opts.Threads != 1 ? std::launch::async : std::launch::deferred,
                 LayoutFunctions);
  // The records name strings by reference until all are known.
  auto EmitTypes = [&]() -> Error {
    for (size_t I = 0; I < Table.Types.size(); ++I) {
      const Type &T = Table.Types[I];
      bool Root = !(I < Table.Hidden.size() && Table.Hidden[I]);
      unsigned K = ctfKind(T.Kind);
      StringRef Name = T.Kind == TypeKind::Void ? StringRef("void") : T.Name;
      // Kinds that cannot carry names in CTF are written nameless.
      switch (T.Kind) {
      case TypeKind::Pointer:
      case TypeKind::Array:
      case TypeKind::Function:
      case TypeKind::Volatile:
      case TypeKind::Const:
      case TypeKind::Restrict:
      case TypeKind::Slice:
      case TypeKind::Unknown:
        Name = {};
        break;
      default:
        break;
      }
      uint32_t NameRef = Strings.add(Name);
      switch (T.Kind) {
      case TypeKind::Void:
      case TypeKind::Integer:
      case TypeKind::Float: {
        Types.str(NameRef);
        Types.u32(typeInfo(K, Root, 1));
        uint64_t Size = T.Kind == TypeKind::Void ? 0 : T.Size;
        writeSize(Types, Size);
        uint32_t Enc = T.Kind == TypeKind::Void ? 1 : T.Encoding;
        uint32_t Bits = T.Kind == TypeKind::Void ? 0 : T.Bits;
        Types.u32((Enc << 24) | (Bits & 0xffff));
        break;
      }
      case TypeKind::Unknown:
        Types.u32(0);
        Types.u32(typeInfo(K, Root, 0));
        writeSize(Types, T.Size);
        break;
      case TypeKind::Pointer:
      case TypeKind::Typedef:
      case TypeKind::Volatile:
      case TypeKind::Const:
      case TypeKind::Restrict:
        Types.str(NameRef);
        Types.u32(typeInfo(K, Root, 0));
        Types.u32(ctfId(T.Ref));
        break;
      case TypeKind::Forward:
        Types.str(NameRef);
        Types.u32(typeInfo(K, Root, 0));
        Types.u32(ctfKind(TypeKind(T.Encoding)));
        break;
      case TypeKind::Array:
        Types.u32(0);
        Types.u32(typeInfo(K, Root, 0));
        Types.u32(0);
        Types.u32(ctfId(T.Ref));
        Types.u32(ctfId(T.IndexType));
        Types.u32(uint32_t(T.NumElems));
        break;
      case TypeKind::Function: {
        uint32_t Vlen = T.Params.size() + (T.Varargs ? 1 : 0);
        if (Vlen > MaxVlen)
          return createStringError(inconvertibleErrorCode(),
                                   "function type with too many parameters");
        Types.u32(0);
        Types.u32(typeInfo(K, Root, Vlen));
        Types.u32(ctfId(T.Ref));
        for (TypeId P : T.Params)
          Types.u32(ctfId(P));
        if (T.Varargs)
          Types.u32(0);
        if (Vlen & 1)
          Types.u32(0); // keep records 4-byte aligned in pairs, as ctf.h says
        break;
      }
      case TypeKind::Struct:
      case TypeKind::Union: {
        if (T.Members.size() > MaxVlen)
          return createStringError(inconvertibleErrorCode(),
                                   "struct '%s' has too many members",
                                   T.Name.str().c_str());
        Types.str(NameRef);
        Types.u32(typeInfo(K, Root, T.Members.size()));
        writeSize(Types, T.Size);
        bool Large = T.Size >= LStructThreshold;
        for (const Member &M : T.Members) {
          uint32_t MName = Strings.add(M.Name);
          if (Large) {
            Types.str(MName);
            Types.u32(uint32_t(M.BitOffset >> 32));
            Types.u32(ctfId(M.Type));
            Types.u32(uint32_t(M.BitOffset));
          } else {
            Types.str(MName);
            Types.u32(uint32_t(M.BitOffset));
            Types.u32(ctfId(M.Type));
          }
        }
        break;
      }
      case TypeKind::Enum:
        if (T.Enumerators.size() > MaxVlen)
          return createStringError(inconvertibleErrorCode(),
                                   "enum with too many enumerators");
        Types.str(NameRef);
        Types.u32(typeInfo(K, Root, T.Enumerators.size()));
        writeSize(Types, T.Size);
        for (const Enumerator &E : T.Enumerators) {
          Types.str(Strings.add(E.Name));
          Types.u32(uint32_t(int32_t(E.Value)));
        }
        break;
      case TypeKind::Slice:
        Types.u32(0);
        Types.u32(typeInfo(K, Root, 0));
        writeSize(Types, T.Size);
        Types.u32(ctfId(T.Ref));
        Types.u16(T.BitOffset);
        Types.u16(T.Bits);
        break;
      }
    }

    return Error::success();
  };
  auto EmitSymbols = [&] {
    // Symbol sections: indexed (a name per entry) and sorted by name, so they
    // do not depend on the ELF symbol table's order.
    // Unindexed ones follow the ELF symbol table and need no names.
    if (ObjtUnindexed)
      for (uint32_t Id : ObjtSlots)
        Objt.u32(Id);
    else
      for (const Symbol &S : Table.Variables) {
        Objt.u32(ctfId(S.Type));
        ObjtIdx.str(Strings.add(S.Name));
      }
    if (FuncUnindexed)
      for (uint32_t Id : FuncSlots)
        Func.u32(Id);
    else
      for (const Symbol &S : Table.Functions) {
        Func.u32(ctfId(S.Type));
        FuncIdx.str(Strings.add(S.Name));
      }
    if (Opts.VariableSection)
      for (const Symbol &S : Table.Variables) {
        Vars.str(Strings.add(S.Name));
        Vars.u32(ctfId(S.Type));
      }

    Strings.add(Opts.ParentName); // child dicts (see WriteOptions)
  };
  Error TypesError = EmitTypes();
  LayoutObjects();
  FunctionsLaidOut.get();
  if (TypesError)
    return std::move(TypesError);
  EmitSymbols();
  Strings.finalize();
  for (Buffer *B : {&Types, &ObjtIdx, &FuncIdx, &Vars})
    B->resolve(Strings);
  const std::string &StrData = Strings.data();

  std::string Body;
  uint32_t Fields[NumHeaderFields] = {};
  // Child dicts: see WriteOptions::ParentName (ids are already encoded).
  Fields[ParName] = Strings.offset(Strings.add(Opts.ParentName));
  Fields[LblOff] = 0;
  Fields[ObjtOff] = Body.size();
  Body += Objt.Data;
  Fields[FuncOff] = Body.size();
  Body += Func.Data;
  Fields[ObjtIdxOff] = Body.size();
  Body += ObjtIdx.Data;
  Fields[FuncIdxOff] = Body.size();
  Body += FuncIdx.Data;
  Fields[VarOff] = Body.size();
  Body += Vars.Data;
  Fields[TypeOff] = Body.size();
  Body += Types.Data;
  Fields[StrOff] = Body.size();
  Body += StrData;
  Fields[StrLen] = StrData.size();
  if (Body.size() > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(),
                             "CTF dict larger than 4 GiB");

  uint8_t Flags = FlagNewFuncInfo | FlagIdxSorted;
  SmallVector<uint8_t, 0> Packed;
  bool Compress = Opts.CompressThreshold &&
                  HeaderSize + Body.size() >= Opts.CompressThreshold;
  if (Compress)
    if (Error E = compressZlib(arrayRefFromStringRef(Body), Opts.Threads,
                               Packed, Opts.ZlibLevel))
      return std::move(E);
  if (Compress)
    Flags |= FlagCompress;
  Buffer Out;
  Out.u16(Magic);
  Out.Data.push_back(char(Version3));
  Out.Data.push_back(char(Flags));
  for (uint32_t F : Fields)
    Out.u32(F);
  if (Compress)
    Out.Data.append(reinterpret_cast<const char *>(Packed.data()),
                    Packed.size());
  else
    Out.Data += Body;
  if (Stats) {
    Stats->ObjectsIndexed = !ObjtUnindexed;
    Stats->FunctionsIndexed = !FuncUnindexed;
    Stats->UncompressedSize = HeaderSize + Body.size();
    Stats->Size = Out.Data.size();
    Stats->Compressed = Compress;
  }
  return std::move(Out.Data);
}

} // namespace ctf
} // namespace dwarfpack
