//===- CtfReader.cpp - Validating reader for CTF v3 dicts -----------------===//

#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/CTF/SymtabOrder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace dwarfpack {
namespace ctf {

namespace {

uint32_t rd32(StringRef S, size_t Off) {
  return support::endian::read32le(S.data() + Off);
}
uint64_t rd64(StringRef S, size_t Off) {
  return support::endian::read64le(S.data() + Off);
}

Error corrupt(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "corrupt CTF: " + Msg);
}

/// Largest dict we agree to inflate; far above any real kernel's CTF.
constexpr uint64_t MaxInflated = uint64_t(1) << 31;
/// Deflate never expands data more than this (258 bytes from one 2-bit
/// code at best): a larger claimed size is a lie, and the buffer for it is
/// allocated before inflating.
constexpr uint64_t MaxDeflateRatio = 1032;

const char *kindString(unsigned K) {
  static const char *Names[] = {"unknown", "integer",  "float",   "pointer",
                                "array",   "function", "struct",  "union",
                                "enum",    "forward",  "typedef", "volatile",
                                "const",   "restrict", "slice"};
  return K <= KMax ? Names[K] : "invalid";
}

} // namespace

bool isDict(StringRef B) {
  return B.size() >= 4 && uint8_t(B[0]) == (Magic & 0xff) &&
         uint8_t(B[1]) == (Magic >> 8);
}

bool isArchive(StringRef B) {
  return B.size() >= 8 && rd64(B, 0) == ArchiveMagic;
}

Expected<DictReader> DictReader::open(StringRef Bytes) {
  if (Bytes.size() < HeaderSize)
    return corrupt("file shorter than the 52-byte CTF header");
  if (!isDict(Bytes)) {
    if (Bytes.size() >= 2 && uint8_t(Bytes[0]) == 0xdf &&
        uint8_t(Bytes[1]) == 0xf2)
      return createStringError(inconvertibleErrorCode(),
                               "big-endian CTF dicts are not supported");
    return corrupt("bad magic (not a CTF dict)");
  }
  if (uint8_t(Bytes[2]) != Version3)
    return createStringError(inconvertibleErrorCode(),
                             "unsupported CTF version %u (only CTF v3, "
                             "version byte 4, is read)",
                             unsigned(uint8_t(Bytes[2])));
  DictReader R;
  R.Flags = uint8_t(Bytes[3]);
  if (R.Flags & ~KnownFlags)
    return corrupt("unknown header flags 0x" + utohexstr(R.Flags));
  for (unsigned I = 0; I < NumHeaderFields; ++I)
    R.Field[I] = rd32(Bytes, 4 + 4 * I);
  uint64_t BodySize = uint64_t(R.Field[StrOff]) + R.Field[StrLen];
  StringRef Rest = Bytes.drop_front(HeaderSize);
  if (R.Flags & FlagCompress) {
    if (BodySize > MaxInflated)
      return corrupt("implausible uncompressed size");
    if (BodySize > Rest.size() * MaxDeflateRatio)
      return corrupt("uncompressed size " + Twine(BodySize) +
                     " exceeds what a zlib stream of " + Twine(Rest.size()) +
                     " bytes can inflate to");
    if (!compression::zlib::isAvailable())
      return createStringError(inconvertibleErrorCode(),
                               "compressed CTF needs zlib");
    if (Error E = compression::zlib::decompress(arrayRefFromStringRef(Rest),
                                                R.Inflated, BodySize))
      return corrupt("bad zlib stream: " + toString(std::move(E)));
    if (R.Inflated.size() != BodySize)
      return corrupt("zlib stream has the wrong size");
    R.Body = toStringRef(ArrayRef<uint8_t>(R.Inflated));
  } else {
    if (Rest.size() < BodySize)
      return corrupt("sections run past the end of the file");
    R.Body = Rest.take_front(BodySize);
  }
  // Sections tile the body in header order.
  for (unsigned I = LblOff; I < StrOff; ++I)
    if (R.Field[I] > R.Field[I + 1])
      return corrupt("section offsets out of order");
  if (R.Field[LblOff] != 0 && R.Field[LblOff] > R.Field[ObjtOff])
    return corrupt("bad label section");
  for (unsigned I = ObjtOff; I < TypeOff; ++I)
    if ((R.Field[I + 1] - R.Field[I]) % 4)
      return corrupt("symbol section size not a multiple of 4");
  if ((R.Field[TypeOff] - R.Field[VarOff]) % 8)
    return corrupt("variable section size not a multiple of 8");
  if (R.Field[StrLen] == 0 || R.Body.back() != '\0')
    return corrupt("string section not NUL-terminated");
  if (R.objectsIndexed() && R.Field[FuncIdxOff] - R.Field[ObjtIdxOff] !=
                                R.Field[FuncOff] - R.Field[ObjtOff])
    return corrupt("data object index and section differ in length");
  if (R.functionsIndexed() && R.Field[VarOff] - R.Field[FuncIdxOff] !=
                                  R.Field[ObjtIdxOff] - R.Field[FuncOff])
    return corrupt("function index and section differ in length");
  if (Error E = R.index())
    return std::move(E);
  return std::move(R);
}

StringRef DictReader::section(unsigned From, unsigned To) const {
  return Body.slice(Field[From], Field[To]);
}

/// Bytes of the variable-length part of a type record of kind K, vlen V
/// and size Size; none for a kind CTF does not define.
static std::optional<uint64_t> vlenBytes(unsigned K, uint64_t V,
                                         uint64_t Size) {
  switch (K) {
  case KInteger:
  case KFloat:
    return 4;
  case KArray:
    return 12;
  case KFunction:
    return 4 * (V + (V & 1));
  case KStruct:
  case KUnion:
    return V * (Size >= LStructThreshold ? 16 : 12);
  case KEnum:
    return V * 8;
  case KSlice:
    return 8;
  case KUnknown:
  case KPointer:
  case KForward:
  case KTypedef:
  case KVolatile:
  case KConst:
  case KRestrict:
    return 0;
  default:
    return std::nullopt;
  }
}

Error DictReader::index() {
  // First the record boundaries, then the references (which need the
  // number of types).
  if (Error E = indexRecords())
    return E;
  if (Error E = checkTypeReferences())
    return E;
  return checkSymbolEntries();
}

Error DictReader::indexRecords() {
  StringRef Types = section(TypeOff, StrOff);
  size_t Off = 0;
  while (Off < Types.size()) {
    if (Types.size() - Off < 12)
      return corrupt("truncated type record at 0x" + utohexstr(Off));
    if (Offsets.size() >= 0x7ffffffe)
      return corrupt("too many types");
    uint32_t Info = rd32(Types, Off + 4);
    uint32_t SizeField = rd32(Types, Off + 8);
    size_t HeadLen = 12;
    uint64_t Size = SizeField;
    if (SizeField == LSizeSentinel) {
      if (Types.size() - Off < 20)
        return corrupt("truncated large type record");
      Size = (uint64_t(rd32(Types, Off + 12)) << 32) | rd32(Types, Off + 16);
      HeadLen = 20;
    }
    std::optional<uint64_t> VlenBytes =
        vlenBytes(infoKind(Info), infoVlen(Info), Size);
    if (!VlenBytes)
      return corrupt("type " + Twine(Offsets.size() + 1) + " has kind " +
                     Twine(infoKind(Info)));
    if (Types.size() - Off - HeadLen < *VlenBytes)
      return corrupt("type " + Twine(Offsets.size() + 1) +
                     " runs past the type section");
    if (rd32(Types, Off) >= Field[StrLen] && !(rd32(Types, Off) >> 31))
      return corrupt("type " + Twine(Offsets.size() + 1) +
                     " has a name outside the string section");
    Offsets.push_back(Off);
    Off += HeadLen + *VlenBytes;
  }
  return Error::success();
}

bool DictReader::badRef(uint32_t Id) const {
  const uint32_t N = Offsets.size();
  if (isChild()) // parent types are not visible here
    return (Id & 0x80000000) ? (Id & 0x7fffffff) > N : false;
  return Id > N;
}

bool DictReader::badName(uint32_t Name) const {
  return !(Name >> 31) && Name >= Field[StrLen];
}

Error DictReader::checkTypeReferences() const {
  for (uint32_t Id = 1; Id <= Offsets.size(); ++Id) {
    TypeRecord T = type(Id);
    SmallVector<uint32_t, 8> Refs;
    switch (infoKind(T.Info)) {
    case KPointer:
    case KTypedef:
    case KVolatile:
    case KConst:
    case KRestrict:
      Refs.push_back(T.Ref);
      break;
    case KArray:
      Refs.push_back(rd32(T.Vlen, 0));
      Refs.push_back(rd32(T.Vlen, 4));
      break;
    case KFunction:
      Refs.push_back(T.Ref);
      for (uint32_t I = 0; I < infoVlen(T.Info); ++I)
        Refs.push_back(rd32(T.Vlen, 4 * I));
      break;
    case KStruct:
    case KUnion: {
      bool Large = T.Size >= LStructThreshold;
      for (uint32_t I = 0; I < infoVlen(T.Info); ++I) {
        size_t M = I * (Large ? 16 : 12);
        if (badName(rd32(T.Vlen, M)))
          return corrupt("member name outside the string section");
        Refs.push_back(rd32(T.Vlen, M + 8));
      }
      break;
    }
    case KEnum:
      for (uint32_t I = 0; I < infoVlen(T.Info); ++I)
        if (badName(rd32(T.Vlen, 8 * I)))
          return corrupt("enumerator name outside the string section");
      break;
    case KSlice:
      Refs.push_back(rd32(T.Vlen, 0));
      break;
    default:
      break;
    }
    for (uint32_t R : Refs)
      if (badRef(R))
        return corrupt("type " + Twine(Id) + " refers to missing type " +
                       Twine(R));
  }
  return Error::success();
}

Error DictReader::checkSymbolEntries() const {
  for (auto [Name, Ty] : variables())
    if (badName(Name) || badRef(Ty))
      return corrupt("bad variable entry");
  for (auto &L : {dataObjects(), functions()})
    for (auto [Name, Ty] : L)
      if (badRef(Ty))
        return corrupt("bad symbol entry");
  if (objectsIndexed())
    for (auto [Name, Ty] : dataObjects())
      if (badName(Name))
        return corrupt("bad data object index entry");
  if (functionsIndexed())
    for (auto [Name, Ty] : functions())
      if (badName(Name))
        return corrupt("bad function index entry");
  return Error::success();
}

DictReader::TypeRecord DictReader::type(uint32_t Id) const {
  StringRef Types = section(TypeOff, StrOff);
  size_t Off = Offsets[Id - 1];
  size_t End = Id < Offsets.size() ? Offsets[Id] : Types.size();
  TypeRecord T;
  T.Name = rd32(Types, Off);
  T.Info = rd32(Types, Off + 4);
  uint32_t SizeField = rd32(Types, Off + 8);
  size_t HeadLen = 12;
  T.Size = T.Ref = SizeField;
  if (SizeField == LSizeSentinel) {
    T.Size = (uint64_t(rd32(Types, Off + 12)) << 32) | rd32(Types, Off + 16);
    HeadLen = 20;
  }
  T.Vlen = Types.slice(Off + HeadLen, End);
  return T;
}

StringRef DictReader::string(uint32_t Off) const {
  if (Off >> 31)
    return "<external>";
  if (Off >= Field[StrLen])
    return "<invalid>";
  StringRef S = Body.substr(Field[StrOff] + Off);
  return S.take_until([](char C) { return C == '\0'; });
}

static std::vector<std::pair<uint32_t, uint32_t>> symbolPairs(StringRef Types,
                                                              StringRef Index) {
  std::vector<std::pair<uint32_t, uint32_t>> Res;
  for (size_t I = 0; I + 4 <= Types.size(); I += 4)
    Res.push_back({Index.size() >= I + 4 ? rd32(Index, I) : uint32_t(I / 4),
                   rd32(Types, I)});
  return Res;
}

std::vector<std::pair<uint32_t, uint32_t>> DictReader::dataObjects() const {
  return symbolPairs(section(ObjtOff, FuncOff),
                     section(ObjtIdxOff, FuncIdxOff));
}
std::vector<std::pair<uint32_t, uint32_t>> DictReader::functions() const {
  return symbolPairs(section(FuncOff, ObjtIdxOff), section(FuncIdxOff, VarOff));
}
std::vector<std::pair<uint32_t, uint32_t>> DictReader::variables() const {
  std::vector<std::pair<uint32_t, uint32_t>> Res;
  StringRef V = section(VarOff, TypeOff);
  for (size_t I = 0; I + 8 <= V.size(); I += 8)
    Res.push_back({rd32(V, I), rd32(V, I + 4)});
  return Res;
}

static std::string typeRef(uint32_t Id) { return "0x" + utohexstr(Id, true); }

void DictReader::dumpHeader(raw_ostream &OS) const {
  OS << "CTF dict: version 3, flags 0x" << utohexstr(Flags, true) << ", "
     << numTypes() << " types";
  if (Field[ParName])
    OS << ", parent '" << string(Field[ParName]) << "'";
  if (Field[CuName])
    OS << ", unit '" << string(Field[CuName]) << "'";
  OS << "\n";
}

/// The rest of an integer's or a float's line: size and encoding.
static void dumpEncoding(raw_ostream &OS, const DictReader::TypeRecord &T) {
  uint32_t Enc = rd32(T.Vlen, 0);
  OS << " size " << T.Size << " encoding 0x" << utohexstr(Enc >> 24, true)
     << " offset " << ((Enc >> 16) & 0xff) << " bits " << (Enc & 0xffff)
     << "\n";
}

/// The rest of a function type's line: return and argument types.
static void dumpSignature(raw_ostream &OS, const DictReader::TypeRecord &T) {
  OS << " returns " << typeRef(T.Ref) << " (";
  uint32_t V = infoVlen(T.Info);
  for (uint32_t I = 0; I < V; ++I) {
    uint32_t A = rd32(T.Vlen, 4 * I);
    OS << (I ? ", " : "") << (A == 0 && I + 1 == V ? "..." : typeRef(A));
  }
  OS << ")\n";
}

/// A struct's or union's size, then a line per member.
static void dumpMembers(raw_ostream &OS, const DictReader &D,
                        const DictReader::TypeRecord &T) {
  OS << " size " << T.Size << "\n";
  bool Large = T.Size >= LStructThreshold;
  for (uint32_t I = 0; I < infoVlen(T.Info); ++I) {
    size_t M = I * (Large ? 16 : 12);
    uint64_t Off =
        Large ? (uint64_t(rd32(T.Vlen, M + 4)) << 32) | rd32(T.Vlen, M + 12)
              : rd32(T.Vlen, M + 4);
    OS << "      '" << D.string(rd32(T.Vlen, M)) << "' "
       << typeRef(rd32(T.Vlen, M + 8)) << " at bit " << Off << "\n";
  }
}

/// An enum's size, then a line per enumerator.
static void dumpEnumerators(raw_ostream &OS, const DictReader &D,
                            const DictReader::TypeRecord &T) {
  OS << " size " << T.Size << "\n";
  for (uint32_t I = 0; I < infoVlen(T.Info); ++I)
    OS << "      '" << D.string(rd32(T.Vlen, 8 * I))
       << "' = " << int32_t(rd32(T.Vlen, 8 * I + 4)) << "\n";
}

/// What follows a type's kind, name and visibility, by kind.
static void dumpTypeBody(raw_ostream &OS, const DictReader &D,
                         const DictReader::TypeRecord &T) {
  switch (infoKind(T.Info)) {
  case KInteger:
  case KFloat:
    dumpEncoding(OS, T);
    break;
  case KUnknown:
    OS << " size " << T.Size << "\n";
    break;
  case KPointer:
  case KTypedef:
  case KVolatile:
  case KConst:
  case KRestrict:
    OS << " -> " << typeRef(T.Ref) << "\n";
    break;
  case KForward:
    OS << " of " << kindString(T.Ref <= KMax ? T.Ref : 15) << "\n";
    break;
  case KArray:
    OS << " of " << typeRef(rd32(T.Vlen, 0)) << " [" << rd32(T.Vlen, 8)
       << "] index " << typeRef(rd32(T.Vlen, 4)) << "\n";
    break;
  case KFunction:
    dumpSignature(OS, T);
    break;
  case KStruct:
  case KUnion:
    dumpMembers(OS, D, T);
    break;
  case KEnum:
    dumpEnumerators(OS, D, T);
    break;
  case KSlice:
    OS << " of " << typeRef(rd32(T.Vlen, 0)) << " size " << T.Size << " offset "
       << (rd32(T.Vlen, 4) & 0xffff) << " bits " << (rd32(T.Vlen, 4) >> 16)
       << "\n";
    break;
  }
}

/// Every type record under the id that type references use for it (the
/// top bit set in a child dict).
static void dumpTypes(raw_ostream &OS, const DictReader &D) {
  OS << "types:\n";
  uint32_t Base = D.isChild() ? 0x80000000 : 0;
  for (uint32_t Id = 1; Id <= D.numTypes(); ++Id) {
    DictReader::TypeRecord T = D.type(Id);
    OS << "  " << typeRef(Base | Id) << ": " << kindString(infoKind(T.Info));
    StringRef Name = D.string(T.Name);
    if (!Name.empty())
      OS << " '" << Name << "'";
    if (!infoRoot(T.Info))
      OS << " (hidden)";
    dumpTypeBody(OS, D, T);
  }
}

/// Unindexed sections have an entry per symbol of the ELF symbol table
/// (docs/CTF.md), pads (type 0) included: only typed entries are listed.
static void dumpSymbols(raw_ostream &OS, const DictReader &D, const char *Title,
                        bool Indexed,
                        const std::vector<std::pair<uint32_t, uint32_t>> &L,
                        const std::vector<StringRef> *Names) {
  size_t Typed = 0;
  for (auto [Name, Ty] : L)
    Typed += Indexed || Ty != 0;
  OS << Title << " (" << Typed;
  if (!Indexed)
    OS << ", .symtab order";
  OS << "):\n";
  for (auto [Name, Ty] : L) {
    if (Indexed)
      OS << "  '" << D.string(Name) << "'";
    else if (Ty == 0)
      continue;
    else if (Names && Name < Names->size())
      OS << "  '" << (*Names)[Name] << "' (#" << Name << ")";
    else
      OS << "  symbol #" << Name;
    OS << " -> " << typeRef(Ty) << "\n";
  }
}

void DictReader::dump(raw_ostream &OS, const SymtabOrder *Symtab) const {
  dumpHeader(OS);
  dumpTypes(OS, *this);
  dumpSymbols(OS, *this, "data objects", objectsIndexed(), dataObjects(),
              Symtab ? &Symtab->Objects : nullptr);
  dumpSymbols(OS, *this, "functions", functionsIndexed(), functions(),
              Symtab ? &Symtab->Functions : nullptr);
  dumpSymbols(OS, *this, "variables", true, variables(), nullptr);
}

Error dump(StringRef Bytes, raw_ostream &OS, const SymtabOrder *Symtab) {
  if (!isArchive(Bytes)) {
    Expected<DictReader> D = DictReader::open(Bytes);
    if (!D)
      return D.takeError();
    D->dump(OS, Symtab);
    return Error::success();
  }
  // struct ctf_archive: magic, model, ndicts, names, ctfs (all LE u64),
  // then ndicts (name_offset, ctf_offset) pairs sorted by name.
  if (Bytes.size() < 40)
    return corrupt("truncated archive header");
  uint64_t Model = rd64(Bytes, 8), NDicts = rd64(Bytes, 16),
           Names = rd64(Bytes, 24), Ctfs = rd64(Bytes, 32);
  if (NDicts > (Bytes.size() - 40) / 16)
    return corrupt("archive member table runs past the end");
  if (Names > Bytes.size() || Ctfs > Bytes.size())
    return corrupt("archive table offsets past the end");
  OS << "CTF archive: model " << Model << ", " << NDicts << " dicts\n";
  for (uint64_t I = 0; I < NDicts; ++I) {
    uint64_t NameOff = rd64(Bytes, 40 + 16 * I);
    uint64_t CtfOff = rd64(Bytes, 48 + 16 * I);
    if (NameOff >= Bytes.size() - Names)
      return corrupt("archive member name past the end");
    StringRef Tail = Bytes.substr(Names + NameOff);
    size_t NameLen = Tail.find('\0');
    if (NameLen == StringRef::npos)
      return corrupt("archive member name at offset " + Twine(Names + NameOff) +
                     " is not NUL-terminated");
    StringRef Name = Tail.take_front(NameLen);
    if (CtfOff > Bytes.size() - Ctfs || Bytes.size() - Ctfs - CtfOff < 8)
      return corrupt("archive member past the end");
    uint64_t Size = rd64(Bytes, Ctfs + CtfOff);
    StringRef Rest = Bytes.substr(Ctfs + CtfOff + 8);
    // ld 2.40 counts the 8-byte size field in the size; accept both.
    if (Size > Rest.size())
      Size = Size - 8 <= Rest.size() ? Size - 8 : Size;
    if (Size > Rest.size())
      return corrupt("archive member '" + Name + "' past the end");
    OS << "member '" << Name << "':\n";
    Expected<DictReader> D = DictReader::open(Rest.take_front(Size));
    if (!D)
      return D.takeError();
    D->dump(OS);
  }
  return Error::success();
}

} // namespace ctf
} // namespace dwarfpack
