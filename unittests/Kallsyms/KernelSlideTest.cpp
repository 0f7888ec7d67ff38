//===- KernelSlideTest.cpp - The KASLR offset and its check ---------------===//

#include "dwarfpack/Kallsyms/KernelSlide.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;

namespace {

/// A table whose functions start exactly at the given addresses.
class FakeTable : public AddressSymbolizer {
public:
  std::set<uint64_t> Starts;
  uint64_t Text = 0x1000000;

  Expected<LookupResult> lookup(uint64_t Address) const override {
    LookupResult R;
    R.Address = Address;
    auto It = Starts.upper_bound(Address);
    if (It == Starts.begin())
      return R;
    SourceFrame F;
    F.StartAddress = *std::prev(It);
    R.Frames.push_back(F);
    return R;
  }
  Expected<uint64_t> kernelTextAddress() const override { return Text; }
  ArrayRef<uint8_t> uuid() const override { return Uuid; }
  std::vector<uint8_t> Uuid;
};

SymbolList running(uint64_t Slide, unsigned N) {
  SymbolList L;
  L.Symbols.push_back({0x1000000 + Slide, 'T', "_text", ""});
  for (unsigned I = 1; I < N; ++I)
    L.Symbols.push_back({0x1000000 + Slide + I * 0x100, 't', "f", ""});
  L.Symbols.push_back({0xffffffffc0000000, 't', "m", "mod"});
  return L;
}

TEST(KernelSlide, OffsetFromText) {
  FakeTable T;
  for (unsigned I = 0; I < 10; ++I)
    T.Starts.insert(0x1000000 + I * 0x100);
  SymbolList R = running(0x3e200000, 10);
  Expected<KernelSlide> S = findKernelSlide(T, R);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Offset, 0x3e200000u);
  EXPECT_EQ(S->RunningText, 0x3f200000u);
  EXPECT_EQ(S->TableText, 0x1000000u);
  // Module symbols are not checked: they move with their module.
  EXPECT_EQ(S->Checked, 10u);
  EXPECT_EQ(S->Agreed, 10u);
}

/// A table that cannot tell its `_text` but lists its functions (GSYM).
class NamedTable : public FakeTable {
public:
  std::vector<std::pair<uint64_t, std::string>> Functions;
  Expected<uint64_t> kernelTextAddress() const override {
    return createStringError(inconvertibleErrorCode(), "no _text here");
  }
  Error
  forEachFunction(function_ref<void(uint64_t, StringRef)> Fn) const override {
    for (const auto &[Start, Name] : Functions)
      Fn(Start, Name);
    return Error::success();
  }
};

TEST(KernelSlide, OffsetFromNames) {
  NamedTable T;
  SymbolList R;
  R.Symbols.push_back({0x3000000, 'T', "_text", ""});
  // Six functions; g0 and g1 are each named twice in the table, g2 twice
  // in the running kernel, and g3 moved 0x1000 further (another section):
  // those do not outvote the offset of the other three.
  for (unsigned I = 0; I < 6; ++I) {
    std::string Name = "g" + std::to_string(I);
    T.Starts.insert(0x1000000 + I * 0x100);
    T.Functions.push_back({0x1000000 + I * 0x100, Name});
    R.Symbols.push_back(
        {0x3000000 + I * 0x100 + (I == 3 ? 0x1000 : 0), 't', R.save(Name), ""});
  }
  T.Functions.push_back({0x1800000, "g0"});
  T.Functions.push_back({0x1900000, "g1"});
  R.Symbols.push_back({0x3700000, 't', "g2", ""});
  R.Symbols.push_back({0xffffffffc0000000, 't', "g4", "mod"});
  Expected<KernelSlide> S = findKernelSlide(T, R);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_TRUE(S->FromNames);
  EXPECT_EQ(S->Offset, 0x2000000u);
  EXPECT_EQ(S->NameVotes, 2u); // g4 and g5
  EXPECT_EQ(S->TableText, 0x1000000u);

  // Equal counts: the smaller offset.
  T.Functions = {{0x1000000, "a"}, {0x1000100, "b"}};
  T.Starts = {0x1000000, 0x1000100};
  SymbolList Tie;
  Tie.Symbols.push_back({0x3000000, 't', "a", ""});
  Tie.Symbols.push_back({0x4000100, 't', "b", ""});
  Tie.Symbols.push_back({0x5000000, 't', "c", ""});
  S = findKernelSlide(T, Tie);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(toString(S.takeError()),
            "with the offset 0x2000000 (from the functions' names), only 1 of "
            "3 symbols of the running kernel start a symbol of the table: the "
            "table is of another kernel build");

  SymbolList None;
  None.Symbols.push_back({0x3000000, 't', "c", ""});
  EXPECT_EQ(toString(findKernelSlide(T, None).takeError()),
            "the table records no '_text' (no _text here) and none of the "
            "running kernel's text symbols names one of its functions: the "
            "table is not of this kernel");
  // Neither _text nor functions.
  struct Bare : FakeTable {
    Expected<uint64_t> kernelTextAddress() const override {
      return createStringError(inconvertibleErrorCode(), "no _text here");
    }
  } B;
  EXPECT_EQ(toString(findKernelSlide(B, None).takeError()),
            "no link-time '_text' to measure the offset from: no _text here; "
            "give the offset with --adjust-vma");
}

TEST(KernelSlide, RunningBelowTheTable) {
  // The offset is modulo 2^64: a kernel may run below its link address.
  FakeTable T;
  T.Text = 0x5000000;
  for (unsigned I = 0; I < 4; ++I)
    T.Starts.insert(0x5000000 + I * 0x100);
  Expected<KernelSlide> S = findKernelSlide(T, running(0, 4));
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Offset, uint64_t(0) - 0x4000000);
}

TEST(KernelSlide, HalfMustAgree) {
  FakeTable T;
  // 8 running symbols; the table has the first K of them.
  for (unsigned K : {4u, 3u}) {
    T.Starts.clear();
    for (unsigned I = 0; I < K; ++I)
      T.Starts.insert(0x1000000 + I * 0x100);
    T.Starts.insert(0x1000000 + 0x10000); // far past the rest
    Expected<KernelSlide> S = findKernelSlide(T, running(0x200000, 8));
    if (K == 4) {
      ASSERT_TRUE(bool(S)) << toString(S.takeError());
      EXPECT_EQ(S->Agreed, 4u);
    } else {
      ASSERT_FALSE(bool(S));
      EXPECT_EQ(toString(S.takeError()),
                "with the offset 0x200000 (from '_text'), only 3 of 8 "
                "symbols of the running kernel start a symbol of the table: "
                "the table is of another kernel build");
    }
  }
}

TEST(KernelSlide, SpreadSample) {
  // At most MaxChecks symbols, spread over the whole kernel: a table that
  // only knows the first half of it fails.
  FakeTable T;
  for (unsigned I = 0; I < 500; ++I)
    T.Starts.insert(0x1000000 + I * 0x100);
  Expected<KernelSlide> S = findKernelSlide(T, running(0, 1000), 64);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Checked, 64u);
  EXPECT_EQ(S->Agreed, 32u);
  // Symbol 31 * 1000 / 64 = 484 is checked; 483 is not.
  T.Starts.erase(0x1000000 + 483 * 0x100);
  EXPECT_TRUE(bool(findKernelSlide(T, running(0, 1000), 64)));
  T.Starts.erase(0x1000000 + 484 * 0x100);
  EXPECT_FALSE(bool(findKernelSlide(T, running(0, 1000), 64)));
}

TEST(KernelSlide, BuildIds) {
  FakeTable T;
  for (unsigned I = 0; I < 10; ++I)
    T.Starts.insert(0x1000000 + I * 0x100);
  SymbolList R = running(0x200000, 10);
  const std::vector<uint8_t> Id = {0xab, 0x01, 0xff};
  // Only compared when both are known.
  Expected<KernelSlide> S = findKernelSlide(T, R, 64, Id);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_FALSE(S->BuildIdMatched);
  T.Uuid = Id;
  S = findKernelSlide(T, R);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_FALSE(S->BuildIdMatched);
  S = findKernelSlide(T, R, 64, Id);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_TRUE(S->BuildIdMatched);
  EXPECT_EQ(S->Offset, 0x200000u);
  // Another build-id is refused even where the symbols agree.
  EXPECT_EQ(toString(findKernelSlide(T, R, 64, {0xab, 0x01}).takeError()),
            "the running kernel's build-id is ab01 and the table's is ab01ff: "
            "the table is of another kernel build");
}

TEST(KernelSlide, Errors) {
  FakeTable T;
  SymbolList NoText;
  NoText.Symbols.push_back({0x1000000, 'T', "startup_64", ""});
  EXPECT_EQ(toString(findKernelSlide(T, NoText).takeError()),
            "the running kernel's symbols have no '_text'");
  // A module's _text is not the kernel's.
  NoText.Symbols.push_back({0xffffffffc0000000, 't', "_text", "mod"});
  EXPECT_FALSE(bool(findKernelSlide(T, NoText)));
  EXPECT_EQ(toString(findKernelSlide(T, running(0x1800, 4)).takeError()),
            "'_text' is at 0x1001800 in the running kernel and at 0x1000000 "
            "in the table: 0x1800 is not a whole number of pages, so the "
            "table is not of this kernel");
}

/// A module's table: functions f0, f1, ... each 0x40 bytes, laid out one
/// after another from 0, except that the gap before function I grows by
/// 0x100 for every I in Moved (as if the running module's layout differed
/// there).
class FakeModuleTable : public AddressSymbolizer {
public:
  std::vector<std::pair<uint64_t, std::string>> Functions;

  FakeModuleTable(unsigned N, const std::set<unsigned> &Moved) {
    uint64_t At = 0;
    for (unsigned I = 0; I < N; ++I) {
      At += Moved.count(I) ? 0x140 : 0x40;
      Functions.push_back({At, "f" + std::to_string(I)});
    }
  }
  Expected<LookupResult> lookup(uint64_t Address) const override {
    LookupResult R;
    R.Address = Address;
    for (const auto &[Start, Name] : Functions)
      if (Address >= Start && Address < Start + 0x40) {
        SourceFrame F;
        F.FunctionName = Name + " (table)";
        F.StartAddress = Start;
        R.Frames.push_back(F);
      }
    return R;
  }
  Error
  forEachFunction(function_ref<void(uint64_t, StringRef)> Fn) const override {
    for (const auto &[Start, Name] : Functions)
      Fn(Start, Name);
    return Error::success();
  }
  ArrayRef<uint8_t> uuid() const override { return Uuid; }
  std::vector<uint8_t> Uuid;
};

/// The running kernel: its core, and module "m" with N functions, 0x40
/// bytes apart from 0xffffffffc0000000.
SymbolList runningModule(unsigned N) {
  SymbolList L = running(0, 2);
  L.Symbols.pop_back();
  for (unsigned I = 0; I < N; ++I)
    L.Symbols.push_back({0xffffffffc0000000 + I * 0x40, 't',
                         L.save("f" + std::to_string(I)), "m"});
  return L;
}

/// Places a FakeModuleTable for module "m"; with its build-id TableId and
/// the running module's RunningId (empty: unknown).
Expected<std::unique_ptr<RunningKernelSymbolizer>>
placeOne(const FakeTable &Core, const SymbolList &Running, unsigned N,
         const std::set<unsigned> &Moved,
         const std::vector<uint8_t> &TableId = {},
         const std::vector<uint8_t> &RunningId = {}) {
  return RunningKernelSymbolizer::create(
      Core, Running, 0, [&](StringRef Module) -> Expected<ModuleTable> {
        ModuleTable T;
        if (Module == "m") {
          auto Table = std::make_unique<FakeModuleTable>(N, Moved);
          Table->Uuid = TableId;
          T.Table = std::move(Table);
          T.Name = "m.dpat";
          T.RunningBuildId.assign(RunningId.begin(), RunningId.end());
        }
        return T;
      });
}

TEST(KernelSlide, ModuleTablePlacedByItsSymbols) {
  FakeTable Core;
  SymbolList R = runningModule(20);
  // Two runs of offsets (as two sections): every function is answered by
  // the table, at its own start in the running kernel.
  auto S = placeOne(Core, R, 20, {10});
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  ASSERT_EQ((*S)->placements().size(), 1u);
  EXPECT_TRUE((*S)->placements()[0].Placed);
  EXPECT_EQ((*S)->placements()[0].Anchors, 20u);
  EXPECT_EQ((*S)->placements()[0].OffsetChanges, 1u);
  for (unsigned I : {0u, 9u, 10u, 19u}) {
    Expected<LookupResult> L = (*S)->lookup(0xffffffffc0000000 + I * 0x40 + 4);
    ASSERT_TRUE(bool(L)) << toString(L.takeError());
    ASSERT_EQ(L->Frames.size(), 1u);
    EXPECT_EQ(L->Frames[0].FunctionName, "f" + std::to_string(I) + " (table)");
    EXPECT_EQ(L->Frames[0].StartAddress, 0xffffffffc0000000 + I * 0x40);
  }
}

TEST(KernelSlide, ModuleTableOfAnotherBuild) {
  FakeTable Core;
  // Offsets that change at MaxOffsetChanges functions are of one build;
  // at one more, of another build when that is over a quarter of them.
  std::set<unsigned> Moved;
  for (unsigned I = 1; I <= MaxOffsetChanges; ++I)
    Moved.insert(I * 2);
  SymbolList R20 = runningModule(20);
  auto S = placeOne(Core, R20, 20, Moved);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ((*S)->placements()[0].OffsetChanges, MaxOffsetChanges);
  EXPECT_TRUE((*S)->placements()[0].Placed);
  Moved.insert(19);
  S = placeOne(Core, R20, 20, Moved);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_FALSE((*S)->placements()[0].Placed);
  // The kallsyms name answers instead.
  Expected<LookupResult> L = (*S)->lookup(0xffffffffc0000000 + 4);
  ASSERT_TRUE(bool(L));
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "f0");
  // The same changes over 40 functions are under a quarter of them.
  SymbolList R40 = runningModule(40);
  S = placeOne(Core, R40, 40, Moved);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_TRUE((*S)->placements()[0].Placed);
}

TEST(KernelSlide, ModuleTableBuildIds) {
  FakeTable Core;
  SymbolList R = runningModule(20);
  using BuildId = ModulePlacement::BuildId;
  // A layout that reads as another build is used when the build-ids say it
  // is the running one.
  std::set<unsigned> Moved;
  for (unsigned I = 1; I < 20; I += 2)
    Moved.insert(I);
  auto S = placeOne(Core, R, 20, Moved);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_FALSE((*S)->placements()[0].Placed);
  EXPECT_EQ((*S)->placements()[0].BuildIdCheck, BuildId::Unknown);
  S = placeOne(Core, R, 20, Moved, {1, 2, 3}, {1, 2, 3});
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_TRUE((*S)->placements()[0].Placed);
  EXPECT_EQ((*S)->placements()[0].BuildIdCheck, BuildId::Same);
  // A perfect layout is not used when the build-ids differ.
  S = placeOne(Core, R, 20, {}, {1, 2, 3}, {1, 2, 4});
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  const ModulePlacement &P = (*S)->placements()[0];
  EXPECT_FALSE(P.Placed);
  EXPECT_EQ(P.BuildIdCheck, BuildId::Different);
  EXPECT_EQ(P.TableBuildId, "010203");
  EXPECT_EQ(P.RunningBuildId, "010204");
  Expected<LookupResult> L = (*S)->lookup(0xffffffffc0000000 + 4);
  ASSERT_TRUE(bool(L));
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "f0");
  // Either unknown: the layout decides.
  S = placeOne(Core, R, 20, {}, {}, {1, 2, 4});
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_TRUE((*S)->placements()[0].Placed);
  EXPECT_EQ((*S)->placements()[0].BuildIdCheck, BuildId::Unknown);
}

TEST(KernelSlide, RunningNames) {
  FakeTable Core;
  for (unsigned I = 0; I < 4; ++I)
    Core.Starts.insert(0x1000000 + I * 0x100);
  auto R = std::make_unique<SymbolList>(running(0x2000000, 4));
  // "f" in the core kernel (three of them) and in two modules, one placed
  // by its table; names are copied, the list need not live on.
  R->Symbols.pop_back();
  R->Symbols.push_back({0xffffffffc0000000, 't', R->save("f"), "m"});
  R->Symbols.push_back({0xffffffffc0000040, 't', "f1", "m"});
  R->Symbols.push_back({0xffffffffc0001000, 't', "f", "other"});
  R->Symbols.push_back({0xffffffffc0001000, 'd', "data_f", "other"});
  auto S = RunningKernelSymbolizer::create(
      Core, *R, 0x2000000, [&](StringRef Module) -> Expected<ModuleTable> {
        ModuleTable T;
        if (Module == "m") {
          auto Table =
              std::make_unique<FakeModuleTable>(0, std::set<unsigned>());
          Table->Functions = {{0x40, "f"}, {0x80, "f1"}};
          T.Table = std::move(Table);
          T.Name = "m.dpat";
        }
        return T;
      });
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  R.reset();
  Expected<std::optional<std::vector<uint64_t>>> F = (*S)->functionsNamed("f");
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  ASSERT_TRUE(F->has_value());
  EXPECT_EQ(**F,
            (std::vector<uint64_t>{0x3000100, 0x3000200, 0x3000300,
                                   0xffffffffc0000000, 0xffffffffc0001000}));
  F = (*S)->functionsNamed("data_f");
  ASSERT_TRUE(bool(F));
  EXPECT_TRUE((*F)->empty());
  F = (*S)->functionsNamed("g");
  ASSERT_TRUE(bool(F));
  EXPECT_TRUE((*F)->empty());

  // The core kernel: the table's starts, and the offset to the running ones.
  Expected<LookupResult> L = (*S)->lookup(0x3000204);
  ASSERT_TRUE(bool(L));
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].StartAddress, 0x1000200u);
  EXPECT_EQ(L->StartSlide, 0x2000000u);
  EXPECT_EQ(L->Frames[0].Module, "");
  // Modules, by table or by kallsyms: running starts, the module named,
  // and no size from kallsyms (it gives none).
  L = (*S)->lookup(0xffffffffc0000004);
  ASSERT_TRUE(bool(L));
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "f (table)");
  EXPECT_EQ(L->Frames[0].Module, "m");
  EXPECT_EQ(L->StartSlide, 0u);
  L = (*S)->lookup(0xffffffffc0001004);
  ASSERT_TRUE(bool(L));
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "f");
  EXPECT_EQ(L->Frames[0].StartAddress, 0xffffffffc0001000u);
  EXPECT_EQ(L->Frames[0].Module, "other");
  EXPECT_FALSE(L->Frames[0].Size.has_value());
  EXPECT_EQ(L->StartSlide, 0u);
}

} // namespace
