//===- CtfTest.cpp - CTF writer/reader and type merger unit tests ---------===//

#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Types/ElfSymbols.h"
#include "dwarfpack/Types/TypeHash.h"

#include "SymbolTypes.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <deque>
#include <random>

using namespace dwarfpack;
using namespace dwarfpack::types;

namespace {

Type integer(llvm::StringRef Name, uint64_t Size, uint8_t Enc) {
  Type T;
  T.Kind = TypeKind::Integer;
  T.Name = Name;
  T.Size = Size;
  T.Bits = Size * 8;
  T.Encoding = Enc;
  return T;
}
Type ref(TypeKind K, TypeId R, llvm::StringRef Name = {}) {
  Type T;
  T.Kind = K;
  T.Ref = R;
  T.Name = Name;
  return T;
}
Type aggregate(TypeKind K, llvm::StringRef Name, uint64_t Size,
               std::vector<Member> Members) {
  Type T;
  T.Kind = K;
  T.Name = Name;
  T.Size = Size;
  T.Members = std::move(Members);
  return T;
}
Type forward(llvm::StringRef Name) {
  Type T;
  T.Kind = TypeKind::Forward;
  T.Encoding = uint8_t(TypeKind::Struct);
  T.Name = Name;
  return T;
}

/// void, int, struct node { struct node *next; int x : 3; }, enum, array,
/// function, plus symbols.
TypeTable sampleTable() {
  TypeTable T;
  T.Types.emplace_back();                                   // 0 void
  T.Types.push_back(integer("int", 4, IntSigned));          // 1
  T.Types.push_back(aggregate(TypeKind::Struct, "node", 16, // 2
                              {{"next", 3, 0}, {"x", 4, 64}}));
  T.Types.push_back(ref(TypeKind::Pointer, 2)); // 3
  Type S = ref(TypeKind::Slice, 1);             // 4
  S.Bits = 3;
  S.Size = 1;
  T.Types.push_back(S);
  Type E;
  E.Kind = TypeKind::Enum; // 5
  E.Name = "color";
  E.Size = 4;
  E.Enumerators = {{"RED", -1}, {"BIG", 0x7fffffff}};
  T.Types.push_back(E);
  Type A;
  A.Kind = TypeKind::Array; // 6
  A.Ref = 1;
  A.IndexType = 1;
  A.NumElems = 7;
  T.Types.push_back(A);
  Type F;
  F.Kind = TypeKind::Function; // 7
  F.Ref = 1;
  F.Params = {3};
  F.Varargs = true;
  T.Types.push_back(F);
  T.Hidden.assign(T.Types.size(), false);
  T.Hidden[4] = true;
  T.Variables = {{"arr", 6}, {"head", 3}};
  T.Functions = {{"walk", 7}};
  return T;
}

/// Table's dict, uncompressed (empty, the test failed, if not written).
std::string uncompressedDict(const TypeTable &Table) {
  ctf::WriteOptions Opts;
  Opts.CompressThreshold = 0;
  llvm::Expected<std::string> Bytes = ctf::writeDict(Table, Opts);
  if (!Bytes) {
    ADD_FAILURE() << llvm::toString(Bytes.takeError());
    return {};
  }
  return std::move(*Bytes);
}

TEST(CtfWriter, RoundTripThroughReader) {
  TypeTable Table = sampleTable();
  std::string Bytes = uncompressedDict(Table);
  auto D = ctf::DictReader::open(Bytes);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  ASSERT_EQ(D->numTypes(), Table.Types.size());
  EXPECT_EQ(D->flags(), ctf::FlagNewFuncInfo | ctf::FlagIdxSorted);

  auto Node = D->type(3); // model 2 -> CTF 3
  EXPECT_EQ(ctf::infoKind(Node.Info), ctf::KStruct);
  EXPECT_EQ(D->string(Node.Name), "node");
  EXPECT_EQ(Node.Size, 16u);
  EXPECT_EQ(ctf::infoVlen(Node.Info), 2u);
  auto Slice = D->type(5);
  EXPECT_EQ(ctf::infoKind(Slice.Info), ctf::KSlice);
  EXPECT_FALSE(ctf::infoRoot(Slice.Info));
  auto Fn = D->type(8);
  EXPECT_EQ(ctf::infoKind(Fn.Info), ctf::KFunction);
  EXPECT_EQ(ctf::infoVlen(Fn.Info), 2u); // pointer arg + varargs marker

  auto Objects = D->dataObjects();
  ASSERT_EQ(Objects.size(), 2u);
  EXPECT_EQ(D->string(Objects[0].first), "arr");
  EXPECT_EQ(Objects[0].second, 7u);
  auto Funcs = D->functions();
  ASSERT_EQ(Funcs.size(), 1u);
  EXPECT_EQ(D->string(Funcs[0].first), "walk");
  EXPECT_EQ(Funcs[0].second, 8u);
}

TEST(CtfWriter, NamesSharingAnAddressKeepTheirLengths) {
  // The writer finds names by address first; names of hand-built tables
  // may start at one address with different lengths.
  static const char Buf[] = "lengthy";
  llvm::StringRef Short(Buf, 3), Long(Buf, 7);
  TypeTable Table;
  Table.Types.emplace_back();
  Table.Types.push_back(integer("int", 4, IntSigned));
  Table.Types.push_back(
      aggregate(TypeKind::Struct, Long, 8, {{Short, 1, 0}, {Long, 1, 32}}));
  Table.Types.push_back(aggregate(TypeKind::Union, Short, 4, {{Long, 1, 0}}));
  Table.Hidden.assign(Table.Types.size(), false);
  std::string Bytes = uncompressedDict(Table);
  auto D = ctf::DictReader::open(Bytes);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->string(D->type(3).Name), "lengthy");
  EXPECT_EQ(D->string(D->type(4).Name), "len");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  D->dump(OS);
  EXPECT_NE(
      Text.find("struct 'lengthy' size 8\n      'len' 0x2 at bit 0\n"
                "      'lengthy' 0x2 at bit 32\n"
                "  0x4: union 'len' size 4\n      'lengthy' 0x2 at bit 0"),
      std::string::npos)
      << Text;
}

TEST(CtfWriter, SymbolSectionsFollowTheSymtabWhenMostlyTyped) {
  TypeTable Table = sampleTable();
  ctf::SymtabOrder Order;
  // Slots as libctf counts them; "pad" has no type, "tail" neither (trailing
  // pads are dropped).
  Order.Objects = {"head", "pad", "arr", "tail"};
  Order.Functions = {"walk"};
  ctf::WriteOptions Opts;
  Opts.CompressThreshold = 0;
  Opts.Symtab = &Order;
  ctf::WriteStats Stats;
  auto Bytes = ctf::writeDict(Table, Opts, &Stats);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  EXPECT_FALSE(Stats.ObjectsIndexed);
  EXPECT_FALSE(Stats.FunctionsIndexed);
  auto D = ctf::DictReader::open(*Bytes);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_FALSE(D->objectsIndexed());
  auto Objects = D->dataObjects();
  ASSERT_EQ(Objects.size(), 3u);
  EXPECT_EQ(Objects[0], std::make_pair(0u, 4u)); // head: model 3
  EXPECT_EQ(Objects[1], std::make_pair(1u, 0u)); // pad
  EXPECT_EQ(Objects[2], std::make_pair(2u, 7u)); // arr: model 6
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  D->dump(OS, &Order);
  EXPECT_NE(Out.find("data objects (2, .symtab order):\n  'head' (#0) -> "
                     "0x4\n  'arr' (#2) -> 0x7\n"),
            std::string::npos)
      << Out;

  // Three pads in four entries: indexed, as GNU ld decides.
  Order.Objects = {"p1", "p2", "head", "p3", "arr"};
  Bytes = ctf::writeDict(Table, Opts, &Stats);
  ASSERT_TRUE(bool(Bytes));
  EXPECT_FALSE(Stats.ObjectsIndexed); // 2 pads of 5
  Order.Objects = {"p1", "p2", "p3", "p4", "p5", "p6", "head", "arr"};
  Bytes = ctf::writeDict(Table, Opts, &Stats);
  ASSERT_TRUE(bool(Bytes));
  EXPECT_TRUE(Stats.ObjectsIndexed); // 6 pads of 8
  // A typed symbol without a slot (not an STT_OBJECT of .symtab): indexed.
  Order.Objects = {"head"};
  Bytes = ctf::writeDict(Table, Opts, &Stats);
  ASSERT_TRUE(bool(Bytes));
  EXPECT_TRUE(Stats.ObjectsIndexed);
  EXPECT_FALSE(Stats.FunctionsIndexed);
  D = ctf::DictReader::open(*Bytes);
  ASSERT_TRUE(bool(D));
  EXPECT_EQ(D->string(D->dataObjects()[0].first), "arr");
}

TEST(CtfWriter, CompressedReadsTheSame) {
  TypeTable Table = sampleTable();
  ctf::WriteOptions Plain, Packed;
  Plain.CompressThreshold = 0;
  Packed.CompressThreshold = 1;
  auto A = ctf::writeDict(Table, Plain);
  auto B = ctf::writeDict(Table, Packed);
  ASSERT_TRUE(A && B);
  EXPECT_TRUE(uint8_t((*B)[3]) & ctf::FlagCompress);
  std::string DumpA, DumpB;
  llvm::raw_string_ostream OA(DumpA), OB(DumpB);
  ASSERT_FALSE(bool(ctf::dump(*A, OA)));
  ASSERT_FALSE(bool(ctf::dump(*B, OB)));
  // Only the flags in the first line differ.
  EXPECT_EQ(DumpA.substr(DumpA.find('\n')), DumpB.substr(DumpB.find('\n')));
}

TEST(CtfReader, EveryTruncationIsAnError) {
  std::string Bytes = uncompressedDict(sampleTable());
  ASSERT_FALSE(Bytes.empty());
  for (size_t N = 0; N < Bytes.size(); ++N) {
    auto D = ctf::DictReader::open(llvm::StringRef(Bytes).take_front(N));
    EXPECT_FALSE(bool(D)) << "prefix of " << N << " bytes accepted";
    if (!D)
      llvm::consumeError(D.takeError());
  }
}

TEST(CtfReader, CorruptBytesNeverCrash) {
  for (uint64_t Threshold : {0, 1}) {
    ctf::WriteOptions Opts;
    Opts.CompressThreshold = Threshold;
    auto Bytes = ctf::writeDict(sampleTable(), Opts);
    ASSERT_TRUE(bool(Bytes));
    std::mt19937 Rng(42);
    unsigned Rejected = 0;
    for (int I = 0; I < 3000; ++I) {
      std::string Copy = *Bytes;
      for (int K = 0; K < 3; ++K)
        Copy[Rng() % Copy.size()] = char(Rng());
      std::string Out;
      llvm::raw_string_ostream OS(Out);
      if (llvm::Error E = ctf::dump(Copy, OS)) {
        ++Rejected;
        llvm::consumeError(std::move(E));
      }
    }
    EXPECT_GT(Rejected, 0u);
  }
}

// A compressed dict claiming far more bytes than its stream can inflate to
// is refused before the reader allocates them (fuzz-ctf: 2 GiB from a
// 100-byte file).
TEST(CtfReader, RejectsImplausibleInflatedSize) {
  std::string Bytes(ctf::HeaderSize + 48, '\0');
  Bytes[0] = char(0xf2);
  Bytes[1] = char(0xdf);
  Bytes[2] = char(ctf::Version3);
  Bytes[3] = char(ctf::FlagCompress);
  auto Set = [&](unsigned Field, uint32_t V) {
    llvm::support::endian::write32le(&Bytes[4 + 4 * Field], V);
  };
  Set(ctf::StrOff, 0);
  Set(ctf::StrLen, 1u << 30);
  auto D = ctf::DictReader::open(Bytes);
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(llvm::toString(D.takeError()),
            "corrupt CTF: uncompressed size 1073741824 exceeds what a zlib "
            "stream of 48 bytes can inflate to");
}

TEST(CtfReader, RejectsBadReferences) {
  TypeTable Table = sampleTable();
  Table.Types[3].Ref = 1000; // pointer to a type that does not exist
  std::string Bytes = uncompressedDict(Table);
  auto D = ctf::DictReader::open(Bytes);
  ASSERT_FALSE(bool(D));
  EXPECT_NE(llvm::toString(D.takeError()).find("missing type"),
            std::string::npos);
}

UnitTypes unit(std::vector<Type> Types) {
  UnitTypes U;
  U.Types.emplace_back(); // void
  for (Type &T : Types)
    U.Types.push_back(std::move(T));
  hashUnitTypes(U);
  return U;
}

size_t countNamed(const TypeTable &T, TypeKind K, llvm::StringRef Name) {
  size_t N = 0;
  for (const Type &X : T.Types)
    N += X.Kind == K && X.Name == Name;
  return N;
}

TEST(TypeMerger, SameTypeInTwoUnitsOnce) {
  TypeMerger M;
  for (int I = 0; I < 2; ++I)
    M.add(unit({integer("int", 4, IntSigned),
                aggregate(TypeKind::Struct, "node", 16, {{"next", 3, 0}}),
                ref(TypeKind::Pointer, 2)}));
  TypeTable T = M.finish(nullptr, nullptr);
  EXPECT_EQ(T.Types.size(), 4u); // void, int, struct node, pointer
}

/// hashUnitTypes() takes shortcuts (components found in one walk, the
/// terms of references leading out of a component summed once, what mix()
/// adds for a type computed once); every hash must still be what the plain
/// definition gives: a type in no cycle has its full recursive hash; the
/// members of a cycle (a strongly connected component) start from their
/// shallow hash mixed with the component's signature, the sum over its
/// members of their shallow hash mixed with the sum of their references
/// leading out of it, and take 8 rounds of neighbour hashing. Here: two
/// cycles, one reaching the other, look-alike members of one cycle, types
/// that reach a cycle, and a chain of pointers.
struct PlainHash {
  const UnitTypes &U;
  size_t N;
  std::vector<std::vector<bool>> Reach; // Reach[a][b]: a reaches b
  std::vector<uint64_t> Hash;
  std::vector<bool> HasHash;

  explicit PlainHash(const UnitTypes &U)
      : U(U), N(U.Types.size()), Reach(N, std::vector<bool>(N, false)), Hash(N),
        HasHash(N, false) {
    for (size_t I = 0; I < N; ++I)
      for (TypeId C : refs(I))
        Reach[I][C] = true;
    for (size_t K = 0; K < N; ++K) // transitive closure
      for (size_t I = 0; I < N; ++I)
        if (Reach[I][K])
          for (size_t J = 0; J < N; ++J)
            if (Reach[K][J])
              Reach[I][J] = true;
    while (std::find(HasHash.begin(), HasHash.end(), false) != HasHash.end())
      for (size_t I = 0; I < N; ++I)
        if (!HasHash[I] && readyToHash(I))
          hash(I);
  }
  std::vector<TypeId> refs(size_t I) const {
    std::vector<TypeId> R;
    U.Types[I].forEachRef([&](TypeId C) { R.push_back(C); });
    return R;
  }
  bool together(size_t A, size_t B) const {
    return A == B ? Reach[A][A] : Reach[A][B] && Reach[B][A];
  }
  static uint64_t term(uint64_t H, uint64_t Pos) {
    uint64_t T = (H ^ Pos) * 0xff51afd7ed558ccdULL;
    return T ^ (T >> 29);
  }
  /// The sum of I's references' terms, those into its own component taken
  /// from Inside, the others from their hashes.
  uint64_t refSum(size_t I, const std::vector<uint64_t> *Inside) const {
    uint64_t Sum = 0, Pos = 0;
    for (TypeId C : refs(I)) {
      Pos += 0x9e3779b97f4a7c15ULL;
      if (!together(I, C))
        Sum += term(Hash[C], Pos);
      else if (Inside)
        Sum += term((*Inside)[C], Pos);
    }
    return Sum;
  }
  bool readyToHash(size_t I) const {
    for (size_t J = 0; J < N; ++J)
      if (Reach[I][J] && !together(I, J) && !HasHash[J])
        return false;
    return true;
  }
  void hash(size_t I) {
    uint64_t H0 = shallowHash(U.Types[I]);
    if (!Reach[I][I]) {
      Hash[I] = refs(I).empty() ? H0 : mix(H0, refSum(I, nullptr));
      HasHash[I] = true;
      return;
    }
    std::vector<size_t> Members;
    uint64_t Signature = 0;
    for (size_t J = 0; J < N; ++J)
      if (together(I, J)) {
        Members.push_back(J);
        Signature += term(mix(shallowHash(U.Types[J]), refSum(J, nullptr)),
                          0x2545f4914f6cdd1dULL);
      }
    std::vector<uint64_t> Start(N), Cur(N), Next(N);
    for (size_t J : Members)
      Cur[J] = Start[J] = mix(shallowHash(U.Types[J]), Signature);
    for (int Round = 0; Round < 8; ++Round) {
      for (size_t J : Members)
        Next[J] = mix(Start[J], refSum(J, &Cur));
      std::swap(Cur, Next);
    }
    for (size_t J : Members) {
      Hash[J] = Cur[J];
      HasHash[J] = true;
    }
  }
};

std::vector<Type> hashSampleTypes() {
  std::vector<Type> Ts = {
      integer("int", 4, IntSigned),                              // 1
      aggregate(TypeKind::Struct, "node", 16, {{"next", 3, 0}}), // 2
      ref(TypeKind::Pointer, 2),                                 // 3
      ref(TypeKind::Const, 3),                                   // 4
      aggregate(TypeKind::Struct, "holder", 8, {{"p", 4, 0}, {"n", 1, 32}}),
      ref(TypeKind::Typedef, 5, "holder_t"), // 6
      // 7..12: struct a { struct b **b; node *n; }, struct b { struct a **a; }
      aggregate(TypeKind::Struct, "a", 16, {{"b", 10, 0}, {"n", 3, 64}}),
      aggregate(TypeKind::Struct, "b", 8, {{"a", 12, 0}}),
      ref(TypeKind::Pointer, 8),  // 9: struct b *
      ref(TypeKind::Pointer, 9),  // 10: struct b **
      ref(TypeKind::Pointer, 7),  // 11: struct a *
      ref(TypeKind::Pointer, 11), // 12: struct a **
  };
  for (int I = 0; I < 60; ++I) // 13..72: pointer to pointer ... to int
    Ts.push_back(ref(TypeKind::Pointer, I ? 12 + I : 1));
  return Ts;
}

TEST(TypeHash, ShortcutsGiveThePlainDefinition) {
  UnitTypes U = unit(hashSampleTypes());
  PlainHash Plain(U);
  ASSERT_EQ(U.Hashes.size(), U.Types.size());
  for (size_t I = 1; I < U.Types.size(); ++I)
    EXPECT_EQ(U.Hashes[I], Plain.Hash[I]) << "type " << I;
  // The look-alike pointers of the cycle a <-> b differ.
  EXPECT_NE(U.Hashes[10], U.Hashes[12]);
  EXPECT_NE(U.Hashes[9], U.Hashes[11]);
}

/// Units list the same types in any order: each type's hash is the same.
TEST(TypeHash, IndependentOfTypeOrder) {
  std::vector<Type> Ts = hashSampleTypes();
  UnitTypes Ordered = unit(Ts);
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 5; ++Trial) {
    // Position P of the shuffled unit holds type Perm[P] (void stays 0).
    std::vector<TypeId> Perm(Ts.size() + 1);
    for (size_t I = 0; I < Perm.size(); ++I)
      Perm[I] = I;
    std::shuffle(Perm.begin() + 1, Perm.end(), Rng);
    std::vector<TypeId> NewId(Perm.size());
    for (size_t P = 0; P < Perm.size(); ++P)
      NewId[Perm[P]] = P;
    std::vector<Type> Shuffled;
    for (size_t P = 1; P < Perm.size(); ++P) {
      Type T = Ts[Perm[P] - 1];
      T.forEachRefMut([&](TypeId &R) { R = NewId[R]; });
      Shuffled.push_back(T);
    }
    UnitTypes U = unit(Shuffled);
    for (size_t P = 1; P < Perm.size(); ++P)
      EXPECT_EQ(U.Hashes[P], Ordered.Hashes[Perm[P]]) << "type " << Perm[P];
  }
}

/// Each name of Cases maps to its expected symbol name under F.
void expectNames(
    llvm::StringRef (*F)(llvm::StringRef),
    std::initializer_list<std::pair<const char *, const char *>> Cases) {
  for (const auto &[In, Want] : Cases)
    EXPECT_EQ(F(In), Want) << In;
}

TEST(TypeMerger, LtoBaseName) {
  expectNames(ltoBaseName,
              {{"helper.lto_priv.0", "helper"},
               {"helper.lto_priv.12", "helper"},
               {"open.llvm.13569036742520235066", "open"},
               {"f.part.0.lto_priv.1", "f.part.0"},
               // Not renames: clones, fragments, other suffixes, no base.
               {"f.isra.0", "f.isra.0"},
               {"f.lto_priv.0.cold", "f.lto_priv.0.cold"},
               {"f.lto_priv.", "f.lto_priv."},
               {"f.llvm.x1", "f.llvm.x1"},
               {".llvm.1", ".llvm.1"},
               {"plain", "plain"}});
}

using test::NamePairs;
using test::symbolTypes;

TEST(TypeMerger, LtoRenamedSymbolsTakeTheirBaseType) {
  TypeMerger M;
  UnitTypes U = unit({integer("int", 4, IntSigned), integer("char", 1, 0)});
  U.Functions.push_back({"helper", 1});
  U.Functions.push_back({"api", 2});
  U.Variables.push_back({"origin", 2});
  M.add(std::move(U));
  llvm::StringSet<> Objects, Functions;
  for (const char *N : {"helper.lto_priv.0", "helper.llvm.42", "api",
                        "api.isra.0", "other.lto_priv.0"})
    Functions.insert(N);
  Objects.insert("origin.lto_priv.3");
  TypeTable T = M.finish(&Objects, &Functions);
  EXPECT_EQ(symbolTypes(T.Functions, T),
            (NamePairs{{"api", "char"},
                       {"helper.llvm.42", "int"},
                       {"helper.lto_priv.0", "int"}}));
  EXPECT_EQ(symbolTypes(T.Variables, T),
            (NamePairs{{"origin.lto_priv.3", "char"}}));
}

/// void, int, int[], const int[], const (const int)[], struct (8 bytes)[],
/// int[3]: arrays of unknown bound as DWARF leaves them, and one complete.
TypeTable unboundedTable() {
  TypeTable T;
  T.Types.emplace_back();                          // 0 void
  T.Types.push_back(integer("int", 4, IntSigned)); // 1
  Type A;
  A.Kind = TypeKind::Array; // 2 int[]
  A.Ref = 1;
  A.IndexType = 1;
  T.Types.push_back(A);
  T.Types.push_back(ref(TypeKind::Const, 2)); // 3 const int[]
  T.Types.push_back(ref(TypeKind::Const, 1)); // 4 const int
  Type CA = A;                                // 5 (const int)[]
  CA.Ref = 4;
  T.Types.push_back(CA);
  T.Types.push_back(ref(TypeKind::Const, 5)); // 6 const (const int)[]
  T.Types.push_back(aggregate(TypeKind::Struct, "s", 8, {{"x", 1, 0}})); // 7
  Type SA = A; // 8 struct s[]
  SA.Ref = 7;
  T.Types.push_back(SA);
  Type Three = A; // 9 int[3]
  Three.NumElems = 3;
  T.Types.push_back(Three);
  T.Hidden.assign(T.Types.size(), false);
  return T;
}

TEST(ElfSymbols, UnboundedArraysTakeTheSymbolSize) {
  TypeTable T = unboundedTable();
  size_t Before = T.Types.size();
  T.Variables = {{"a", 2},     {"b", 6},     {"c", 8},      {"odd", 2},
                 {"empty", 2}, {"plain", 1}, {"missing", 2}};
  std::vector<ElfObject> Syms = {{"a", 0x100, 12},    {"b", 0x110, 20},
                                 {"c", 0x200, 24},    {"odd", 0x300, 10},
                                 {"empty", 0x400, 0}, {"plain", 0x500, 4}};
  EXPECT_EQ(boundArraysBySymbolSize(T, Syms), 3u);
  // a: int[3] already exists and is reused.
  EXPECT_EQ(T.Variables[0].Type, 9u);
  // b: const (const int)[5], qualifiers kept in order.
  const Type &B = T.Types[T.Variables[1].Type];
  EXPECT_EQ(B.Kind, TypeKind::Const);
  EXPECT_EQ(T.Types[B.Ref].Kind, TypeKind::Array);
  EXPECT_EQ(T.Types[B.Ref].NumElems, 5u);
  EXPECT_EQ(T.Types[B.Ref].Ref, 4u);
  // c: struct s[3].
  EXPECT_EQ(T.Types[T.Variables[2].Type].NumElems, 3u);
  EXPECT_EQ(T.Types[T.Variables[2].Type].Ref, 7u);
  // Not a multiple of the element, no size, not an array, no symbol.
  EXPECT_EQ(T.Variables[3].Type, 2u);
  EXPECT_EQ(T.Variables[4].Type, 2u);
  EXPECT_EQ(T.Variables[5].Type, 1u);
  EXPECT_EQ(T.Variables[6].Type, 2u);
  // Three new types (const int[5], its const, struct s[3]); visible.
  EXPECT_EQ(T.Types.size(), Before + 3);
  EXPECT_EQ(T.Hidden.size(), T.Types.size());
}

TEST(ElfSymbols, StaticsOfOneNameEachTakeTheirOwnSize) {
  TypeTable T = unboundedTable();
  T.Variables = {{"tab", 2}};
  T.VariablesByAddress = {
      {"tab", 2, 0x100}, {"tab", 2, 0x200}, {"renamed", 2, 0x300}};
  std::vector<ElfObject> Syms = {
      {"tab", 0x100, 8}, {"tab", 0x200, 16}, {"renamed.lto_priv.0", 0x300, 12}};
  EXPECT_EQ(boundArraysBySymbolSize(T, Syms), 3u);
  // By name the sizes disagree: left unbounded.
  EXPECT_EQ(T.Variables[0].Type, 2u);
  EXPECT_EQ(T.Types[T.VariablesByAddress[0].Type].NumElems, 2u);
  EXPECT_EQ(T.Types[T.VariablesByAddress[1].Type].NumElems, 4u);
  EXPECT_EQ(T.VariablesByAddress[2].Type, 9u);
}

TEST(ElfSymbols, AliasesTakeTheTypeOfTheirDefinition) {
  TypeTable T = unboundedTable();
  // Functions: impl (type 3) at 0x10; folded code of two types at 0x20;
  // a static defined at 0x30 and 0x40 with one type.
  T.Functions = {{"impl", 3}, {"one", 1}, {"st", 4}, {"two", 2}};
  T.FunctionsByAddress = {{"impl", 3, 0x10},
                          {"one", 1, 0x20},
                          {"two", 2, 0x20},
                          {"st", 4, 0x30},
                          {"st", 4, 0x40}};
  T.Variables = {{"var", 7}};
  T.VariablesByAddress = {{"var", 7, 0x100}};
  auto Storage = std::make_shared<int>(0);
  T.Storage = Storage;
  std::string Names = "alias marker weak folded stalias renamed";
  std::vector<ElfObject> Funcs = {
      {"impl", 0x10, 8},
      {llvm::StringRef(Names).substr(0, 5), 0x10, 8},
      {"marker", 0x10, 1},
      {"weak", 0x10, 8},
      {"one", 0x20, 4},
      {"two", 0x20, 4},
      {"folded", 0x20, 4},
      {"st", 0x30, 2},
      {"st", 0x40, 6},
      {"stalias", 0x30, 2},
      {"stalias", 0x40, 6},
      {"zero", 0x10, 0},
      {"impl", Symbol::NoAddress, 8}};
  std::vector<ElfObject> Objs = {{"var.lto_priv.0", 0x100, 24},
                                 {"renamed", 0x100, 24}};
  EXPECT_EQ(typeAliasesByAddress(T, Funcs, Objs), 4u);
  Names.assign(Names.size(), 'x'); // the table owns the names it added
  auto FunctionNames = [&] {
    std::vector<std::pair<std::string, TypeId>> R;
    for (const Symbol &S : T.Functions)
      R.emplace_back(S.Name.str(), S.Type);
    return R;
  };
  // Not folded (two types), marker (another size), zero (no size).
  std::vector<std::pair<std::string, TypeId>> Expected = {
      {"alias", 3},   {"impl", 3}, {"one", 1}, {"st", 4},
      {"stalias", 4}, {"two", 2},  {"weak", 3}};
  EXPECT_EQ(FunctionNames(), Expected);
  ASSERT_EQ(T.Variables.size(), 2u);
  EXPECT_EQ(T.Variables[0].Name, "renamed");
  EXPECT_EQ(T.Variables[0].Type, 7u);
  EXPECT_EQ(T.Variables[1].Name, "var");
  // The storage the table had is kept.
  EXPECT_EQ(Storage.use_count(), 2);
  // Once typed, the aliases are names the table defines.
  Names = "alias marker weak folded stalias renamed";
  EXPECT_EQ(typeAliasesByAddress(T, Funcs, Objs), 0u);
}

TEST(ElfSymbols, UnversionedName) {
  expectNames(unversionedName,
              {{"stderr@GLIBC_2.2.5", "stderr"},
               {"f@@VERS_1", "f"},
               {"plain", "plain"},
               // Not versions: nothing before or after the '@'.
               {"@x", "@x"},
               {"f@", "f@"},
               {"f@@", "f@@"}});
}

TEST(TypeMerger, DeclarationsStandInOnlyForUndefinedNames) {
  TypeMerger M;
  UnitTypes A = unit({integer("int", 4, IntSigned), integer("long", 8, 1)});
  A.DeclaredVariables = {{"both", 2}, {"declared", 2}};
  M.add(std::move(A));
  UnitTypes B = unit({integer("int", 4, IntSigned)});
  B.Variables = {{"both", 1}};
  B.DeclaredVariables = {{"declared", 1}}; // a later declaration: ignored
  M.add(std::move(B));
  llvm::StringSet<> Objects;
  Objects.insert("both");
  Objects.insert("declared");
  TypeTable T = M.finish(&Objects, nullptr);
  EXPECT_EQ(symbolTypes(T.Variables, T),
            (NamePairs{{"both", "int"}, {"declared", "long"}}));
}

TEST(TypeMerger, DeclarationsDefinedByAnotherMergerAreDropped) {
  // Two modules of one object: core declares what builtin defines.
  TypeMerger Core, Builtin;
  UnitTypes C = unit({integer("int", 4, IntSigned)});
  C.DeclaredVariables = {{"param", 1}, {"in_asm", 1}};
  Core.add(std::move(C));
  UnitTypes B = unit({integer("int", 4, IntSigned)});
  B.Variables = {{"param", 1}};
  Builtin.add(std::move(B));
  llvm::StringSet<> Defined;
  Core.collectDefinedVariables(Defined);
  Builtin.collectDefinedVariables(Defined);
  EXPECT_EQ(Defined.size(), 1u);
  Core.dropDeclarations(Defined);
  llvm::StringSet<> Objects;
  Objects.insert("param");
  Objects.insert("in_asm");
  TypeTable T = Core.finish(&Objects, nullptr);
  EXPECT_EQ(symbolTypes(T.Variables, T), (NamePairs{{"in_asm", "int"}}));
}

TEST(ElfSymbols, NothingToDoLeavesTheTableAlone) {
  TypeTable T = unboundedTable();
  T.Variables = {{"x", 9}, {"y", 1}};
  std::vector<ElfObject> Syms = {{"x", 0x100, 24}, {"y", 0x200, 4}};
  size_t Before = T.Types.size();
  EXPECT_EQ(boundArraysBySymbolSize(T, Syms), 0u);
  EXPECT_EQ(T.Types.size(), Before);
  EXPECT_EQ(T.Variables[0].Type, 9u); // a bound is never changed
}

TEST(TypeMerger, ForwardResolvesToTheUniqueDefinition) {
  TypeMerger M;
  // Unit 1: struct a { struct b *p; } with b only declared.
  M.add(unit({aggregate(TypeKind::Struct, "a", 8, {{"p", 2, 0}}),
              ref(TypeKind::Pointer, 3), forward("b")}));
  // Unit 2: the same struct a, with struct b { struct a *q; } defined.
  M.add(unit({aggregate(TypeKind::Struct, "a", 8, {{"p", 2, 0}}),
              ref(TypeKind::Pointer, 3),
              aggregate(TypeKind::Struct, "b", 8, {{"q", 4, 0}}),
              ref(TypeKind::Pointer, 1)}));
  EXPECT_GT(M.numMerged(), 0u);
  TypeTable T = M.finish(nullptr, nullptr);
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "a"), 1u);
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "b"), 1u);
  EXPECT_EQ(countNamed(T, TypeKind::Forward, "b"), 0u);
  // The merged graph is freed once the table is made; its names stay.
  EXPECT_EQ(M.numMerged(), 0u);
  M = TypeMerger();
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "b"), 1u);
}

TEST(TypeMerger, RefinesTheSameOnOneAndTwoThreads) {
  // Enough types (over 4,096 merged) that finish() refines on two threads
  // when given two: struct s<i> { struct s<i+1> *next; struct s<i> *self; }
  // in units of 300, each unit declaring the next unit's first struct, and
  // s150 defined twice apart, so that its forward stays.
  std::deque<std::string> Names;
  auto Name = [&](unsigned I) -> llvm::StringRef {
    return Names.emplace_back("s" + std::to_string(I));
  };
  auto UnitOf = [&](unsigned First, unsigned Count, uint64_t Size) {
    std::vector<Type> Types;
    for (unsigned I = First; I < First + Count; ++I) {
      TypeId B = 1 + Types.size();
      Types.push_back(aggregate(TypeKind::Struct, Name(I), Size,
                                {{"next", B + 1, 0}, {"self", B + 3, 64}}));
      Types.push_back(ref(TypeKind::Pointer, B + 2));
      Types.push_back(forward(Name(I + 1)));
      Types.push_back(ref(TypeKind::Pointer, B));
    }
    return unit(std::move(Types));
  };
  auto Build = [&](unsigned Threads) {
    TypeMerger M;
    for (unsigned U = 0; U < 12; ++U)
      M.add(UnitOf(U * 300, 300, 16));
    M.add(UnitOf(150, 1, 24));
    EXPECT_GE(M.numMerged(), 4096u);
    return M.finish(nullptr, nullptr, Threads);
  };
  TypeTable One = Build(1), Two = Build(2);
  EXPECT_EQ(countNamed(One, TypeKind::Forward, "s151"), 0u);
  EXPECT_EQ(countNamed(One, TypeKind::Forward, "s150"), 1u);
  EXPECT_EQ(countNamed(One, TypeKind::Struct, "s150"), 2u);
  ctf::WriteOptions Opts;
  auto A = ctf::writeDict(One, Opts), B = ctf::writeDict(Two, Opts);
  ASSERT_TRUE(A && B);
  EXPECT_TRUE(*A == *B) << "the dicts differ"; // not printed: 100 kB
}

TEST(TypeMerger, DifferentSameNamedStructsStayApart) {
  TypeMerger M;
  M.add(unit({integer("int", 4, IntSigned),
              aggregate(TypeKind::Struct, "conflict", 4, {{"a", 1, 0}})}));
  M.add(unit({integer("long", 8, IntSigned),
              aggregate(TypeKind::Struct, "conflict", 8, {{"b", 1, 0}})}));
  // A forward to an ambiguous name stays a forward.
  M.add(unit({forward("conflict"), ref(TypeKind::Pointer, 1)}));
  TypeTable T = M.finish(nullptr, nullptr);
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "conflict"), 2u);
  EXPECT_EQ(countNamed(T, TypeKind::Forward, "conflict"), 1u);
  // Only the first of each name is visible to name lookup.
  unsigned Visible = 0;
  for (size_t I = 0; I < T.Types.size(); ++I)
    if (T.Types[I].Name == "conflict" && !T.Hidden[I])
      ++Visible;
  EXPECT_EQ(Visible, 1u);
}

TEST(TypeMerger, DeepDifferenceKeepsTypesApart) {
  // struct outer { struct inner *p; } is the same at the top in both units,
  // but the two struct inner differ: outer must not be merged either.
  TypeMerger M;
  M.add(unit({aggregate(TypeKind::Struct, "outer", 8, {{"p", 2, 0}}),
              ref(TypeKind::Pointer, 3),
              aggregate(TypeKind::Struct, "inner", 4, {{"x", 4, 0}}),
              integer("int", 4, IntSigned)}));
  M.add(unit({aggregate(TypeKind::Struct, "outer", 8, {{"p", 2, 0}}),
              ref(TypeKind::Pointer, 3),
              aggregate(TypeKind::Struct, "inner", 4, {{"y", 4, 0}}),
              integer("int", 4, IntSigned)}));
  TypeTable T = M.finish(nullptr, nullptr);
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "outer"), 2u);
  EXPECT_EQ(countNamed(T, TypeKind::Struct, "inner"), 2u);
}

TEST(TypeMerger, DifferenceBeyondTheHashDepthIsKept) {
  // 40 pointers deep, then struct leaf { int x; } in one unit and
  // struct leaf { long x; } in the other. The second unit is given the
  // first's hashes, as a hash that looked less deep (or a collision) would
  // give it: only exact verification keeps the two chains apart.
  auto Chain = [](llvm::StringRef Int, uint64_t Size) {
    std::vector<Type> Ts;
    const unsigned Depth = 40;
    for (unsigned I = 0; I < Depth; ++I)
      Ts.push_back(ref(TypeKind::Pointer, I + 2)); // ids 1..Depth
    Ts.push_back(aggregate(TypeKind::Struct, "leaf", Size,
                           {{"x", Depth + 2, 0}})); // id Depth+1
    Ts.push_back(integer(Int, Size, IntSigned));    // id Depth+2
    UnitTypes U = unit(std::move(Ts));
    U.Variables.push_back({Int == "int" ? "a" : "b", 1});
    return U;
  };
  TypeMerger M;
  UnitTypes First = Chain("int", 4), Second = Chain("long", 8);
  Second.Hashes = First.Hashes;
  M.add(std::move(First));
  M.add(std::move(Second));
  TypeTable T = M.finish(nullptr, nullptr);
  ASSERT_EQ(T.Variables.size(), 2u);
  for (const Symbol &V : T.Variables) {
    TypeId Id = V.Type;
    unsigned Steps = 0;
    // Bounded: a wrong merge can even close the chain into a loop.
    while (T.Types[Id].Kind == TypeKind::Pointer && Steps++ < 100)
      Id = T.Types[Id].Ref;
    EXPECT_EQ(Steps, 40u) << V.Name.str();
    ASSERT_EQ(T.Types[Id].Kind, TypeKind::Struct);
    const Type &X = T.Types[T.Types[Id].Members[0].Type];
    EXPECT_EQ(X.Name, V.Name == "a" ? "int" : "long") << V.Name.str();
  }
}

/// struct head { 60 pointers -> struct leaf { INT x; struct head *back; } }:
/// two units that differ only in the leaf's integer, the second given the
/// first's hashes (as a hash that missed the leaf, or a collision, would):
/// every type of the second unit is proposed as the first's; verification
/// rejects the integer and the leaf, and the rejection climbs the cycle one
/// type at a time, within a round when the types come leaf first and from
/// round to round when they come head first. Variables a and b must reach
/// their own leaf.
TEST(TypeMerger, RejectionsClimbACycle) {
  const unsigned Depth = 60;
  auto Unit = [&](llvm::StringRef Int, uint64_t Size, bool HeadFirst) {
    // Ids: head, pointers 1..Depth (pointer k refers to k+1, the last to
    // the leaf), leaf, the integer, the head's pointer; head first or the
    // reverse.
    const TypeId N = Depth + 4;
    auto Id = [&](TypeId I) { return HeadFirst ? I + 1 : N - I; };
    std::vector<Type> Ts(N);
    Ts[Id(0) - 1] = aggregate(TypeKind::Struct, "head", 8, {{"p", Id(1), 0}});
    for (TypeId K = 1; K <= Depth; ++K)
      Ts[Id(K) - 1] = ref(TypeKind::Pointer, Id(K + 1));
    Ts[Id(Depth + 1) - 1] =
        aggregate(TypeKind::Struct, "leaf", 16,
                  {{"x", Id(Depth + 2), 0}, {"back", Id(Depth + 3), 64}});
    Ts[Id(Depth + 2) - 1] = integer(Int, Size, IntSigned);
    Ts[Id(Depth + 3) - 1] = ref(TypeKind::Pointer, Id(0));
    UnitTypes U = unit(std::move(Ts));
    U.Variables.push_back({Int == "int" ? "a" : "b", Id(0)});
    return U;
  };
  for (bool HeadFirst : {true, false}) {
    TypeMerger M;
    UnitTypes First = Unit("int", 4, HeadFirst);
    UnitTypes Second = Unit("long", 8, HeadFirst);
    Second.Hashes = First.Hashes;
    M.add(std::move(First));
    M.add(std::move(Second));
    TypeTable T = M.finish(nullptr, nullptr);
    ASSERT_EQ(T.Variables.size(), 2u);
    for (const Symbol &V : T.Variables) {
      const Type &Head = T.Types[V.Type];
      ASSERT_EQ(Head.Kind, TypeKind::Struct);
      TypeId Id = Head.Members[0].Type;
      unsigned Steps = 0;
      while (T.Types[Id].Kind == TypeKind::Pointer && Steps++ < 100)
        Id = T.Types[Id].Ref;
      EXPECT_EQ(Steps, Depth);
      ASSERT_EQ(T.Types[Id].Name, "leaf");
      const Type &X = T.Types[T.Types[Id].Members[0].Type];
      EXPECT_EQ(X.Name, V.Name == "a" ? "int" : "long")
          << V.Name.str() << (HeadFirst ? ", head first" : ", leaf first");
    }
  }
}

TEST(TypeMerger, ForwardResolutionMergesLongChainsOnly) {
  // Three chains of 30 pointers: to struct leaf { int x; }, to a forward of
  // leaf (resolved to that definition) and to struct leaf2 { long x; }. The
  // pointers all start in one class; the split at the bottom climbs one
  // level per refinement round, so the first two chains end up one and the
  // third stays apart.
  const unsigned Depth = 30;
  auto Chain = [&](llvm::StringRef Var, std::vector<Type> Bottom) {
    std::vector<Type> Ts;
    for (unsigned I = 0; I < Depth; ++I)
      Ts.push_back(ref(TypeKind::Pointer, I + 2)); // ids 1..Depth
    for (Type &T : Bottom)
      Ts.push_back(std::move(T)); // ids Depth+1...
    UnitTypes U = unit(std::move(Ts));
    U.Variables.push_back({Var, 1});
    return U;
  };
  TypeMerger M;
  M.add(
      Chain("a", {aggregate(TypeKind::Struct, "leaf", 4, {{"x", Depth + 2, 0}}),
                  integer("int", 4, IntSigned)}));
  M.add(Chain("b", {forward("leaf")}));
  M.add(Chain("c",
              {aggregate(TypeKind::Struct, "leaf2", 8, {{"x", Depth + 2, 0}}),
               integer("long", 8, IntSigned)}));
  TypeTable T = M.finish(nullptr, nullptr);
  ASSERT_EQ(T.Variables.size(), 3u);
  EXPECT_EQ(T.Variables[0].Type, T.Variables[1].Type);
  EXPECT_NE(T.Variables[0].Type, T.Variables[2].Type);
  size_t Pointers = 0;
  for (const Type &X : T.Types)
    Pointers += X.Kind == TypeKind::Pointer;
  EXPECT_EQ(Pointers, 2 * Depth);
  EXPECT_EQ(countNamed(T, TypeKind::Forward, "leaf"), 0u);
}

TEST(TypeMerger, KeepsWideOffsetsNegativeEnumeratorsAndWidths) {
  // The merger stores sizes, member offsets and enumerators in 32 bits,
  // with side tables for sizes and offsets beyond (structs over 512 MiB).
  TypeMerger M(/*StableInputs=*/true);
  Type E;
  E.Kind = TypeKind::Enum;
  E.Name = "e";
  E.Size = 4;
  E.Enumerators = {{"NEG", -5}, {"MAX", 0x7fffffff}};
  Type Slice;
  Slice.Kind = TypeKind::Slice;
  Slice.Ref = 1;
  Slice.Bits = 0xffff;
  Slice.Size = 8;
  for (int I = 0; I < 2; ++I)
    M.add(unit({integer("int", 4, IntSigned),
                aggregate(TypeKind::Struct, "huge", uint64_t(1) << 40,
                          {{"a", 1, 0}, {"far", 1, (uint64_t(1) << 38) + 32}}),
                E, Slice}));
  TypeTable T = M.finish(nullptr, nullptr);
  ASSERT_EQ(T.Types.size(), 5u);
  for (const Type &X : T.Types) {
    if (X.Kind == TypeKind::Struct) {
      EXPECT_EQ(X.Size, uint64_t(1) << 40);
      ASSERT_EQ(X.Members.size(), 2u);
      EXPECT_EQ(X.Members[1].BitOffset, (uint64_t(1) << 38) + 32);
    } else if (X.Kind == TypeKind::Enum) {
      ASSERT_EQ(X.Enumerators.size(), 2u);
      EXPECT_EQ(X.Enumerators[0].Value, -5);
      EXPECT_EQ(X.Enumerators[1].Value, 0x7fffffff);
    } else if (X.Kind == TypeKind::Slice) {
      EXPECT_EQ(X.Bits, 0xffffu);
    }
  }
}

TEST(TypeMerger, GroupsTypesByKind) {
  TypeMerger M;
  M.add(unit({ref(TypeKind::Pointer, 2), integer("int", 4, IntSigned),
              aggregate(TypeKind::Struct, "s", 8, {{"p", 1, 0}}),
              ref(TypeKind::Const, 2)}));
  TypeTable T = M.finish(nullptr, nullptr);
  groupTypesByKind(T);
  ASSERT_EQ(T.Types.size(), 5u);
  EXPECT_EQ(T.Types[0].Kind, TypeKind::Void);
  EXPECT_EQ(T.Types[1].Kind, TypeKind::Integer);
  EXPECT_EQ(T.Types[2].Kind, TypeKind::Struct);
  EXPECT_EQ(T.Types[3].Kind, TypeKind::Pointer);
  EXPECT_EQ(T.Types[4].Kind, TypeKind::Const);
  // References follow the renumbering.
  EXPECT_EQ(T.Types[2].Members[0].Type, 3u);
  EXPECT_EQ(T.Types[3].Ref, 1u);
  EXPECT_EQ(T.Types[4].Ref, 1u);
}

TEST(TypeBuilder, TypedefCycleIsBroken) {
  std::vector<Type> Types(1);
  Types.push_back(ref(TypeKind::Typedef, 2, "a"));
  Types.push_back(ref(TypeKind::Typedef, 1, "b"));
  Types.push_back(ref(TypeKind::Pointer, 3)); // pointer cycles are fine
  EXPECT_EQ(breakTypedefCycles(Types), 1u);
  EXPECT_EQ(Types[3].Kind, TypeKind::Pointer);
  unsigned Unknown = 0;
  for (const Type &T : Types)
    Unknown += T.Kind == TypeKind::Unknown;
  EXPECT_EQ(Unknown, 1u);
}

} // namespace
