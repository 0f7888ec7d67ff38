//===- KernelSlide.cpp - A running kernel's KASLR offset ------------------===//

#include "dwarfpack/Kallsyms/KernelSlide.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

using namespace llvm;

namespace dwarfpack {
namespace kallsyms {

static Error slideError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

static std::string hexBytes(ArrayRef<uint8_t> Bytes) {
  return toHex(Bytes, /*LowerCase=*/true);
}

/// Whether a running build-id and a table's are the same; std::nullopt
/// when either is unknown.
static std::optional<bool> sameBuild(ArrayRef<uint8_t> Running,
                                     ArrayRef<uint8_t> Table) {
  if (Running.empty() || Table.empty())
    return std::nullopt;
  return Running == Table;
}

/// The start of each function of Table whose name starts one place only.
static Error uniqueFunctionStarts(const AddressSymbolizer &Table,
                                  StringMap<uint64_t> &Starts) {
  StringSet<> Repeated;
  if (Error E = Table.forEachFunction([&](uint64_t Start, StringRef Fn) {
        auto [It, New] = Starts.try_emplace(Fn, Start);
        if (!New && It->second != Start)
          Repeated.insert(Fn);
      }))
    return E;
  for (const auto &R : Repeated)
    Starts.erase(R.getKey());
  return Error::success();
}

/// For a table that records no `_text` (GSYM): the offset on which most
/// of the running kernel's core functions of unique name agree with the
/// table's function of that name (the smallest of equal counts).
static Error offsetFromNames(const AddressSymbolizer &Table,
                             const SymbolList &Running, Error NoText,
                             KernelSlide &Slide) {
  StringMap<uint64_t> Starts;
  if (Error E = uniqueFunctionStarts(Table, Starts)) {
    consumeError(std::move(E));
    return slideError("no link-time '_text' to measure the offset from: " +
                      toString(std::move(NoText)) +
                      "; give the offset with --adjust-vma");
  }
  StringMap<unsigned> Seen;
  for (const KernelSymbol &S : Running.Symbols)
    if (S.Module.empty() && (S.Type == 't' || S.Type == 'T'))
      ++Seen[S.Name];
  std::map<uint64_t, unsigned> Votes;
  for (const KernelSymbol &S : Running.Symbols) {
    if (!S.Module.empty() || (S.Type != 't' && S.Type != 'T') ||
        Seen[S.Name] != 1)
      continue;
    auto It = Starts.find(S.Name);
    if (It != Starts.end())
      ++Votes[S.Address - It->second];
  }
  if (Votes.empty())
    return slideError("the table records no '_text' (" +
                      toString(std::move(NoText)) +
                      ") and none of the running kernel's text symbols names "
                      "one of its functions: the table is not of this kernel");
  consumeError(std::move(NoText));
  for (const auto &[Offset, Count] : Votes)
    if (Count > Slide.NameVotes) {
      Slide.Offset = Offset;
      Slide.NameVotes = Count;
    }
  Slide.FromNames = true;
  return Error::success();
}

Expected<KernelSlide> findKernelSlide(const AddressSymbolizer &Table,
                                      const SymbolList &Running,
                                      unsigned MaxChecks,
                                      ArrayRef<uint8_t> RunningBuildId) {
  KernelSlide Slide;
  std::optional<bool> Same = sameBuild(RunningBuildId, Table.uuid());
  if (Same && !*Same)
    return slideError("the running kernel's build-id is " +
                      hexBytes(RunningBuildId) + " and the table's is " +
                      hexBytes(Table.uuid()) +
                      ": the table is of another kernel build");
  Slide.BuildIdMatched = Same.value_or(false);
  std::vector<uint64_t> Text; // core-kernel text symbols, in address order
  bool HasText = false;
  for (const KernelSymbol &S : Running.Symbols) {
    if (!S.Module.empty())
      continue;
    if (!HasText && S.Name == "_text") {
      Slide.RunningText = S.Address;
      HasText = true;
    }
    if (S.Type == 't' || S.Type == 'T')
      Text.push_back(S.Address);
  }
  Expected<uint64_t> TableText = Table.kernelTextAddress();
  if (TableText) {
    if (!HasText)
      return slideError("the running kernel's symbols have no '_text'");
    Slide.TableText = *TableText;
    Slide.Offset = Slide.RunningText - Slide.TableText;
  } else {
    if (Error E = offsetFromNames(Table, Running, TableText.takeError(), Slide))
      return std::move(E);
    if (HasText)
      Slide.TableText = Slide.RunningText - Slide.Offset;
  }
  // KASLR moves the whole image by pages (2 MiB on x86-64).
  if (Slide.Offset & 0xfff) {
    if (Slide.FromNames)
      return slideError("the offset that most (" + Twine(Slide.NameVotes) +
                        ") of the running kernel's functions agree on, " +
                        hexString(Slide.Offset) +
                        ", is not a whole number of pages, so the table is "
                        "not of this kernel");
    return slideError("'_text' is at " + hexString(Slide.RunningText) +
                      " in the running kernel and at " +
                      hexString(Slide.TableText) +
                      " in the table: " + hexString(Slide.Offset) +
                      " is not a whole number of pages, so the table is not "
                      "of this kernel");
  }
  // Symbols spread evenly over the kernel, deterministically.
  size_t N = std::min<size_t>(MaxChecks, Text.size());
  for (size_t I = 0; I < N; ++I) {
    uint64_t At = Text[I * Text.size() / N] - Slide.Offset;
    Expected<LookupResult> R = Table.lookup(At);
    if (!R)
      return R.takeError();
    ++Slide.Checked;
    // The outermost frame is the function (frames are innermost first).
    if (!R->Frames.empty() && R->Frames.back().StartAddress == At)
      ++Slide.Agreed;
  }
  if (Slide.Agreed * 2 < Slide.Checked)
    return slideError(
        "with the offset " + hexString(Slide.Offset) +
        (Slide.FromNames ? " (from the functions' names)" : " (from '_text')") +
        ", only " + Twine(Slide.Agreed) + " of " + Twine(Slide.Checked) +
        " symbols of the running kernel start a symbol of the table: the "
        "table is of another kernel build");
  return Slide;
}

RunningKernelSymbolizer::~RunningKernelSymbolizer() = default;

Expected<std::unique_ptr<RunningKernelSymbolizer>>
RunningKernelSymbolizer::create(const AddressSymbolizer &Table,
                                const SymbolList &Running, uint64_t Offset,
                                const ModuleTableOpener &OpenModule) {
  std::unique_ptr<RunningKernelSymbolizer> R(
      new RunningKernelSymbolizer(Table, Offset));
  SymbolList InModules;
  bool HasCore = false;
  StringSaver Names(R->NameStorage);
  R->Named.reserve(Running.Symbols.size());
  for (const KernelSymbol &S : Running.Symbols) {
    if (S.Type == 't' || S.Type == 'T')
      R->Named.push_back({Names.save(S.Name), S.Address});
    if (!S.Module.empty()) {
      InModules.Symbols.push_back(S);
      continue;
    }
    R->CoreLow = HasCore ? std::min(R->CoreLow, S.Address) : S.Address;
    R->CoreHigh = HasCore ? std::max(R->CoreHigh, S.Address) : S.Address;
    HasCore = true;
  }
  if (InModules.Symbols.empty())
    return std::move(R);
  // A ksym-blob: unlike the compact table, it holds addresses of any span
  // (modules and BPF programs may lie far apart).
  if (Error E = writeKsymBlob(InModules, R->ModuleBlob))
    return createStringError(inconvertibleErrorCode(),
                             "the running kernel's module symbols: " +
                                 toString(std::move(E)));
  Expected<std::unique_ptr<SymbolReader>> M = openSymbolTable(
      MemoryBuffer::getMemBuffer(R->ModuleBlob, "modules", false));
  if (!M)
    return M.takeError();
  R->Modules = std::move(*M);

  // Modules in the order of their first symbol's address.
  MapVector<StringRef, std::vector<const KernelSymbol *>> ByModule;
  for (const KernelSymbol &S : InModules.Symbols)
    ByModule[S.Module].push_back(&S);
  StringMap<std::pair<uint32_t, uint32_t>> Index; // name, placed
  for (auto &[Name, Syms] : ByModule) {
    auto &[NameIndex, PlacedIndex] = Index[Name];
    NameIndex = R->ModuleNames.size();
    PlacedIndex = UINT32_MAX;
    R->ModuleNames.push_back(Name.str());
    if (!OpenModule)
      continue;
    Expected<ModuleTable> T = OpenModule(Name);
    if (!T)
      return T.takeError();
    if (!T->Table)
      continue;
    if (Error E = R->placeModule(Name, Syms, std::move(*T)))
      return std::move(E);
    if (R->Placements.back().Placed)
      PlacedIndex = R->Placed.size() - 1;
  }
  R->Symbols.reserve(InModules.Symbols.size());
  for (const KernelSymbol &S : InModules.Symbols) {
    auto [NameIndex, PlacedIndex] = Index.find(S.Module)->second;
    R->Symbols.push_back({S.Address, PlacedIndex, NameIndex});
  }
  return std::move(R);
}

Error RunningKernelSymbolizer::placeModule(
    StringRef Name, ArrayRef<const KernelSymbol *> Running,
    ModuleTable ModTable) {
  StringMap<uint64_t> Starts;
  if (Error E = uniqueFunctionStarts(*ModTable.Table, Starts))
    return createFileError(ModTable.Name, std::move(E));
  PlacedModule PM;
  ModulePlacement Info;
  Info.Module = Name.str();
  Info.Table = ModTable.Name;
  for (const KernelSymbol *S : Running) {
    if (S->Type != 't' && S->Type != 'T')
      continue;
    ++Info.TextSymbols;
    auto It = Starts.find(S->Name);
    if (It == Starts.end())
      continue;
    PM.Anchors.push_back({S->Address, S->Address - It->second});
  }
  Info.Anchors = PM.Anchors.size();
  for (size_t I = 1; I < PM.Anchors.size(); ++I)
    Info.OffsetChanges += PM.Anchors[I].second != PM.Anchors[I - 1].second;
  // Of one build, the offset changes only where the running module starts
  // another section (a module has a few executable sections; Debian 6.1's
  // have at most 8, and change offsets at most twice). Of another build,
  // it changes wherever a function's size does.
  // A build-id settles it; the layout is the evidence without one.
  ArrayRef<uint8_t> TableBuildId = ModTable.Table->uuid();
  if (std::optional<bool> Same =
          sameBuild(ModTable.RunningBuildId, TableBuildId)) {
    Info.BuildIdCheck = *Same ? ModulePlacement::BuildId::Same
                              : ModulePlacement::BuildId::Different;
    Info.RunningBuildId = hexBytes(ModTable.RunningBuildId);
    Info.TableBuildId = hexBytes(TableBuildId);
  }
  switch (Info.BuildIdCheck) {
  case ModulePlacement::BuildId::Same:
    Info.Placed = Info.Anchors > 0;
    break;
  case ModulePlacement::BuildId::Different:
    Info.Placed = false;
    break;
  case ModulePlacement::BuildId::Unknown:
    Info.Placed = Info.Anchors > 0 && !(Info.OffsetChanges > MaxOffsetChanges &&
                                        Info.OffsetChanges * 4 > Info.Anchors);
    break;
  }
  if (Info.Placed) {
    PM.Table = std::move(ModTable.Table);
    Placed.push_back(std::move(PM));
  }
  Placements.push_back(std::move(Info));
  return Error::success();
}

Expected<std::optional<LookupResult>>
RunningKernelSymbolizer::lookupInModule(const PlacedModule &M, uint64_t Address,
                                        uint64_t SymbolAddress) const {
  // The anchors before and after the address: each section of a module is
  // loaded on its own, so either may be in the address's section.
  auto After =
      llvm::upper_bound(M.Anchors, Address,
                        [](uint64_t A, const std::pair<uint64_t, uint64_t> &P) {
                          return A < P.first;
                        });
  uint64_t Deltas[2];
  unsigned N = 0;
  // The nearest symbol is an anchor: its section's placement is known.
  bool Known = false;
  if (After != M.Anchors.begin()) {
    Deltas[N++] = std::prev(After)->second;
    Known = std::prev(After)->first == SymbolAddress;
  }
  if (!Known && After != M.Anchors.end() &&
      (N == 0 || After->second != Deltas[0]))
    Deltas[N++] = After->second;
  for (unsigned I = 0; I < N; ++I) {
    Expected<LookupResult> R = M.Table->lookup(Address - Deltas[I]);
    if (!R)
      return R.takeError();
    // Past the end of the nearest symbol's function (padding): nothing.
    if (Known && R->Frames.empty()) {
      R->Address = Address;
      return std::move(*R);
    }
    // The function found must start where the running kernel's nearest
    // symbol does: otherwise this is not the address's section.
    if (R->Frames.empty() ||
        R->Frames.back().StartAddress + Deltas[I] != SymbolAddress)
      continue;
    for (SourceFrame &F : R->Frames)
      F.StartAddress += Deltas[I];
    R->Address = Address;
    return std::move(*R);
  }
  return std::nullopt;
}

Expected<LookupResult> RunningKernelSymbolizer::lookup(uint64_t Address) const {
  // Outside the running core kernel's symbols, a module's first: a table
  // without an end address gives its last symbol everything above it.
  if (Modules && (Address < CoreLow || Address > CoreHigh)) {
    auto Sym = llvm::upper_bound(
        Symbols, Address,
        [](uint64_t A, const ModuleSymbol &S) { return A < S.Address; });
    if (Sym != Symbols.begin()) {
      const ModuleSymbol &Nearest = *std::prev(Sym);
      std::optional<LookupResult> Found;
      if (Nearest.Placed != UINT32_MAX) {
        Expected<std::optional<LookupResult>> InTable =
            lookupInModule(Placed[Nearest.Placed], Address, Nearest.Address);
        if (!InTable)
          return InTable.takeError();
        Found = std::move(*InTable);
      }
      if (!Found) {
        Expected<LookupResult> M = Modules->lookup(Address);
        if (!M)
          return M.takeError();
        // Kallsyms gives no sizes: the distance to the next symbol listed
        // is not the size a trace prints.
        for (SourceFrame &F : M->Frames)
          F.Size.reset();
        if (!M->Frames.empty())
          Found = std::move(*M);
      }
      if (Found) {
        if (!Found->Frames.empty())
          Found->Frames.back().Module = ModuleNames[Nearest.Module];
        return std::move(*Found);
      }
    }
  }
  Expected<LookupResult> R = Table.lookup(Address - Offset);
  if (R)
    R->StartSlide = Offset;
  return R;
}

Expected<std::optional<std::vector<uint64_t>>>
RunningKernelSymbolizer::functionsNamed(StringRef Name) const {
  std::call_once(NamedSorted, [this] { llvm::sort(Named); });
  auto It = llvm::partition_point(
      Named,
      [&](const std::pair<StringRef, uint64_t> &E) { return E.first < Name; });
  std::vector<uint64_t> Starts;
  for (; It != Named.end() && It->first == Name; ++It)
    if (Starts.empty() || Starts.back() != It->second)
      Starts.push_back(It->second);
  return Starts;
}

} // namespace kallsyms
} // namespace dwarfpack
