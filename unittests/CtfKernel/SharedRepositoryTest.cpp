//===- SharedRepositoryTest.cpp - Cross-module dedup and module lists -----===//

#include "dwarfpack/CtfKernel/SharedRepository.h"
#include "dwarfpack/CtfKernel/CtfArchive.h"
#include "dwarfpack/CtfKernel/ModuleMap.h"

#include "llvm/Support/Endian.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::types;
using namespace dwarfpack::ctfkernel;

namespace {

Type voidType() { return Type(); }
Type integer(StringRef Name, uint64_t Size) {
  Type T;
  T.Kind = TypeKind::Integer;
  T.Name = Name;
  T.Size = Size;
  T.Bits = Size * 8;
  T.Encoding = IntSigned;
  return T;
}
Type pointer(TypeId To) {
  Type T;
  T.Kind = TypeKind::Pointer;
  T.Ref = To;
  return T;
}
Type forward(StringRef Name) {
  Type T;
  T.Kind = TypeKind::Forward;
  T.Encoding = uint8_t(TypeKind::Struct);
  T.Name = Name;
  return T;
}
Type structType(StringRef Name, uint64_t Size, std::vector<Member> M) {
  Type T;
  T.Kind = TypeKind::Struct;
  T.Name = Name;
  T.Size = Size;
  T.Members = std::move(M);
  return T;
}

TypeTable table(std::vector<Type> Types, std::vector<Symbol> Variables = {}) {
  TypeTable T;
  T.Types = std::move(Types);
  T.Variables = std::move(Variables);
  return T;
}

void add(SharedRepository &R, StringRef Name, const TypeTable &T,
         bool Blocklisted = false) {
  R.addModule(Name, T, hashTypeTable(T), Blocklisted);
}

bool hasNamed(const TypeTable &T, TypeKind K, StringRef Name) {
  for (const Type &X : T.Types)
    if (X.Kind == K && X.Name == Name)
      return true;
  return false;
}

/// Every reference of a parent type is a parent id; every child reference
/// is a parent id or one of the child's own.
void expectClosed(const SharedRepository::Result &R) {
  for (const Type &T : R.Parent.Types)
    T.forEachRef([&](TypeId Ref) { EXPECT_LT(Ref, R.Parent.Types.size()); });
  for (const SharedRepository::Child &C : R.Children)
    for (const Type &T : C.Table.Types)
      T.forEachRef([&](TypeId Ref) {
        if (Ref & ChildBit)
          EXPECT_LT(Ref & ~ChildBit, C.Table.Types.size()) << C.Name;
        else
          EXPECT_LT(Ref, R.Parent.Types.size()) << C.Name;
      });
}

TEST(SharedRepository, UsedByTwoModulesIsShared) {
  // void, int, struct s { int x; }, struct only { int y; }
  TypeTable A =
      table({voidType(), integer("int", 4), structType("s", 4, {{"x", 1, 0}}),
             structType("only_a", 4, {{"y", 1, 0}})},
            {{"va", 3}});
  TypeTable B =
      table({voidType(), integer("int", 4), structType("s", 4, {{"x", 1, 0}})});
  SharedRepository Repo;
  add(Repo, "a", A);
  add(Repo, "b", B);
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(hasNamed(R->Parent, TypeKind::Struct, "s"));
  EXPECT_TRUE(hasNamed(R->Parent, TypeKind::Integer, "int"));
  EXPECT_FALSE(hasNamed(R->Parent, TypeKind::Struct, "only_a"));
  ASSERT_EQ(R->Children.size(), 2u);
  EXPECT_EQ(R->Children[0].Table.Types.size(), 1u);
  EXPECT_TRUE(hasNamed(R->Children[0].Table, TypeKind::Struct, "only_a"));
  EXPECT_EQ(R->Children[0].Table.Variables[0].Type, ChildBit | 0);
  EXPECT_TRUE(R->Children[1].Table.Types.empty());
  EXPECT_EQ(R->Stats.StoredMoreThanOnce, 0u);
  expectClosed(*R);
}

TEST(SharedRepository, ForwardStandsForTheUniqueDefinition) {
  // a: struct h { struct foo *p; } with foo only declared;
  // b: the same struct h with foo defined. One struct h after resolution.
  TypeTable A = table({voidType(), forward("foo"), pointer(1),
                       structType("h", 8, {{"p", 2, 0}})});
  TypeTable B =
      table({voidType(), integer("int", 4), structType("foo", 4, {{"x", 1, 0}}),
             pointer(2), structType("h", 8, {{"p", 3, 0}})});
  SharedRepository Repo;
  add(Repo, "a", A);
  add(Repo, "b", B);
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  unsigned H = 0;
  for (const Type &T : R->Parent.Types)
    H += T.Kind == TypeKind::Struct && T.Name == "h";
  EXPECT_EQ(H, 1u);
  EXPECT_TRUE(hasNamed(R->Parent, TypeKind::Struct, "foo"));
  EXPECT_FALSE(hasNamed(R->Parent, TypeKind::Forward, "foo"));
  EXPECT_EQ(R->Stats.ResolvedForwards, 1u);
  expectClosed(*R);
}

TEST(SharedRepository, ConflictingDefinitionsKeepTheForwardAndShareBoth) {
  // c and d use `struct conf *`; e and f define different struct conf.
  TypeTable C = table({voidType(), forward("conf"), pointer(1)});
  TypeTable D = table({voidType(), forward("conf"), pointer(1)});
  TypeTable E = table(
      {voidType(), integer("int", 4), structType("conf", 4, {{"i", 1, 0}})});
  TypeTable F = table(
      {voidType(), integer("long", 8), structType("conf", 8, {{"l", 1, 0}})});
  SharedRepository Repo;
  for (auto [N, T] : {std::pair<StringRef, TypeTable *>{"c", &C},
                      {"d", &D},
                      {"e", &E},
                      {"f", &F}})
    add(Repo, N, *T);
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  unsigned Complete = 0;
  for (const Type &T : R->Parent.Types)
    Complete += T.Kind == TypeKind::Struct && T.Name == "conf";
  EXPECT_EQ(Complete, 2u);
  EXPECT_TRUE(hasNamed(R->Parent, TypeKind::Forward, "conf"));
  // Their members came along (contagion): long is used by f only.
  EXPECT_TRUE(hasNamed(R->Parent, TypeKind::Integer, "long"));
  EXPECT_TRUE(R->Children[3].Table.Types.empty());
  // One of the two struct conf is hidden from name lookup.
  unsigned Hidden = 0;
  for (size_t I = 0; I < R->Parent.Types.size(); ++I)
    Hidden += R->Parent.Types[I].Name == "conf" && R->Parent.Hidden[I];
  EXPECT_EQ(Hidden, 2u); // the forward and the second definition
  expectClosed(*R);
}

TEST(SharedRepository, BlocklistedUsesDoNotShare) {
  TypeTable A =
      table({voidType(), integer("int", 4), structType("s", 4, {{"x", 1, 0}})});
  SharedRepository Repo;
  add(Repo, "a", A);
  add(Repo, "b", A, /*Blocklisted=*/true);
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(R->Parent.Types.empty());
  EXPECT_EQ(R->Children[0].Table.Types.size(), 3u);
  EXPECT_EQ(R->Children[1].Table.Types.size(), 3u);
  EXPECT_EQ(R->Stats.StoredMoreThanOnce, 3u);
  expectClosed(*R);
}

TEST(SharedRepository, OutputDependsOnlyOnModuleOrder) {
  auto Run = [] {
    TypeTable A = table({voidType(), integer("int", 4), pointer(1)});
    TypeTable B = table({voidType(), pointer(2), integer("int", 4)});
    SharedRepository Repo;
    add(Repo, "a", A);
    add(Repo, "b", B);
    return cantFail(Repo.finish());
  };
  SharedRepository::Result X = Run(), Y = Run();
  ASSERT_EQ(X.Parent.Types.size(), 3u);
  for (size_t I = 0; I < X.Parent.Types.size(); ++I) {
    EXPECT_EQ(X.Parent.Types[I].Kind, Y.Parent.Types[I].Kind);
    EXPECT_EQ(X.Parent.Types[I].Ref, Y.Parent.Types[I].Ref);
  }
  // First-use order: module a's void, int, int *.
  EXPECT_EQ(X.Parent.Types[1].Kind, TypeKind::Integer);
  EXPECT_EQ(X.Parent.Types[2].Kind, TypeKind::Pointer);
  EXPECT_EQ(X.Parent.Types[2].Ref, 1u);
}

/// Types that differ only far from where they are named: two modules with
/// a chain of 40 typedefs of the same names, ending in int in one and in
/// long in the other. Each module's variable must still reach its own base
/// type (a hash that looks 32 references deep merged the chains' tops).
TEST(SharedRepository, DifferenceFortyReferencesDeepKeepsTypesApart) {
  auto Chain = [](StringRef Base, uint64_t Size, StringRef Var) {
    std::vector<Type> Ts = {voidType(), integer(Base, Size)};
    static const std::vector<std::string> Names = [] {
      std::vector<std::string> N;
      for (int I = 0; I < 40; ++I)
        N.push_back("t" + std::to_string(I));
      return N;
    }();
    for (int I = 0; I < 40; ++I) {
      Type T;
      T.Kind = TypeKind::Typedef;
      T.Name = Names[I];
      T.Ref = I + 1; // t0 -> the base, tN -> tN-1
      Ts.push_back(T);
    }
    return table(std::move(Ts), {{Var, 41}});
  };
  SharedRepository Repo;
  add(Repo, "a", Chain("int", 4, "va"));
  add(Repo, "b", Chain("long", 8, "vb"));
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  expectClosed(*R);
  ASSERT_EQ(R->Children.size(), 2u);
  for (size_t M = 0; M < 2; ++M) {
    const TypeTable &Child = R->Children[M].Table;
    ASSERT_EQ(Child.Variables.size(), 1u);
    auto At = [&](TypeId Id) -> const Type & {
      return Id & ChildBit ? Child.Types[Id & ~ChildBit] : R->Parent.Types[Id];
    };
    const Type *T = &At(Child.Variables[0].Type);
    for (int Hops = 0; T->Kind == TypeKind::Typedef && Hops < 50; ++Hops)
      T = &At(T->Ref);
    EXPECT_EQ(T->Name, M == 0 ? "int" : "long")
        << Child.Variables[0].Name.str();
  }
}

/// Hashes only propose: two modules whose different types are given the
/// same hashes (as a collision would) still keep them apart, and the types
/// citing a rejected one are rejected too.
TEST(SharedRepository, EqualHashesOfDifferentTypesAreNotMerged) {
  TypeTable A = table({voidType(), integer("int", 4),
                       structType("s", 4, {{"x", 1, 0}}), pointer(2)},
                      {{"va", 3}});
  TypeTable B = table({voidType(), integer("long", 8),
                       structType("s", 4, {{"x", 1, 0}}), pointer(2)},
                      {{"vb", 3}});
  SharedRepository Repo;
  const std::vector<uint64_t> Same = {10, 11, 12, 13};
  Repo.addModule("a", A, Same, false);
  Repo.addModule("b", B, Same, false);
  Expected<SharedRepository::Result> R = Repo.finish();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  expectClosed(*R);
  EXPECT_EQ(R->Stats.GlobalNodes, 7u); // void, and two of each other type
  ASSERT_EQ(R->Children.size(), 2u);
  for (size_t M = 0; M < 2; ++M) {
    const TypeTable &Child = R->Children[M].Table;
    auto At = [&](TypeId Id) -> const Type & {
      return Id & ChildBit ? Child.Types[Id & ~ChildBit] : R->Parent.Types[Id];
    };
    ASSERT_EQ(Child.Variables.size(), 1u);
    const Type &P = At(Child.Variables[0].Type);
    ASSERT_EQ(P.Kind, TypeKind::Pointer);
    const Type &S = At(P.Ref);
    ASSERT_EQ(S.Members.size(), 1u);
    EXPECT_EQ(At(S.Members[0].Type).Name, M == 0 ? "int" : "long");
  }
}

TEST(ModuleMap, Attribution) {
  ModuleMap M;
  ASSERT_FALSE(bool(M.parseBuiltinModules(
      "modules.builtin",
      "kernel/fs/ext4/ext4.ko\n"
      "kernel/drivers/x/xy.ko: drivers/x/a.o drivers/x/b.o\n")));
  ASSERT_FALSE(bool(M.parseBuiltinObjects("objects.builtin",
                                          "init/main.o\ndrivers/x/a.o\n")));
  EXPECT_TRUE(M.isBuiltinModule("ext4"));
  EXPECT_EQ(M.builtinModuleForModuleObject("/build/linux/fs/ext4/ext4.o"),
            "ext4");
  EXPECT_EQ(M.builtinModuleForModuleObject("fs/ext4/inode.o"), "");
  EXPECT_EQ(M.moduleForUnit("/build/linux", "init/main.c"), CoreModule);
  EXPECT_EQ(M.moduleForUnit("/build/linux", "/build/linux/drivers/x/b.c"),
            "xy");
  // Listed in objects.builtin too, but the module claims it first.
  EXPECT_EQ(M.moduleForUnit("/build/linux", "drivers/x/./a.c"), "xy");
  EXPECT_EQ(M.moduleForUnit("/build/linux", "kernel/fork.c"), "");
}

TEST(ModuleMap, Errors) {
  ModuleMap M;
  EXPECT_EQ(toString(M.parseBuiltinModules("mb", "kernel/a.ko\nkernel/b/a.ko")),
            "mb:2: module 'a' listed twice");
  EXPECT_EQ(toString(M.parseBlocklist("bl", "a\n\n# x\nb c\n")),
            "bl:4: expected one module name per line, got 'b c'");
  ModuleMap N;
  EXPECT_EQ(toString(N.parseBuiltinModules(
                "mb", "kernel/a.ko: x.o\nkernel/b.ko: x.o\n")),
            "mb:2: object 'x.o' is in modules 'a' and 'b'");
}

TEST(CtfArchive, Layout) {
  std::string Parent(60, 'p'), Child(13, 'c');
  std::string A = writeCtfArchive({{"zz", Child}, {".ctf", Parent}});
  auto U64 = [&](size_t Off) {
    return support::endian::read64le(A.data() + Off);
  };
  EXPECT_EQ(U64(0), 0x8b47f2a4d7623eebULL);
  EXPECT_EQ(U64(16), 2u); // members
  uint64_t Names = U64(24), Ctfs = U64(32);
  EXPECT_EQ(Ctfs, 40u + 2 * 16);
  // Sorted by name: ".ctf" first.
  EXPECT_STREQ(A.data() + Names + U64(40), ".ctf");
  EXPECT_STREQ(A.data() + Names + U64(56), "zz");
  EXPECT_EQ(U64(Ctfs + U64(48)), Parent.size());
  EXPECT_EQ(A.substr(Ctfs + U64(48) + 8, Parent.size()), Parent);
  EXPECT_EQ(U64(64) % 8, 0u);
  EXPECT_EQ(U64(Ctfs + U64(64)), Child.size());
  EXPECT_EQ(A.substr(Ctfs + U64(64) + 8, Child.size()), Child);
}

} // namespace
