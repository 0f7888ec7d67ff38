//===- KernelPack.cpp - A kernel and its modules, one walk each -----------===//

#include "dwarfpack/Pipeline/KernelPack.h"
#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CtfKernel/CtfArchive.h"
#include "dwarfpack/CtfKernel/GroupedBuild.h"
#include "dwarfpack/CtfKernel/ModuleMap.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/ElfEmbed.h"
#include "dwarfpack/Support/OutputFile.h"
#include "dwarfpack/Support/RunInOrder.h"
#include "dwarfpack/Support/Stopwatch.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <future>

using namespace llvm;
using namespace dwarfpack::ctfkernel;

namespace dwarfpack {
namespace pipeline {

namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error readLists(const KernelPackOptions &O, ModuleMap &MM) {
  using Parser = Error (ModuleMap::*)(StringRef, StringRef);
  for (auto [Path, Parse] :
       {std::pair<StringRef, Parser>{O.BuiltinModules,
                                     &ModuleMap::parseBuiltinModules},
        {O.BuiltinObjects, &ModuleMap::parseBuiltinObjects},
        {O.Blocklist, &ModuleMap::parseBlocklist}}) {
    if (Path.empty())
      continue;
    if (O.Standalone)
      return fail("-e takes no --builtin-objects, --builtin-modules or "
                  "--dedup-blocklist");
    auto B = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!B)
      return createFileError(Path, errorCodeToError(B.getError()));
    if (Error E = (MM.*Parse)(Path, (*B)->getBuffer()))
      return E;
  }
  return Error::success();
}

/// The inputs sorted into built-in module objects, core kernel objects and
/// loadable modules (by name: the outputs do not depend on argument order),
/// their units attributed through MM.
Expected<KernelObjects> classify(const KernelPackOptions &O,
                                 const ModuleMap &MM) {
  KernelObjects R;
  StringMap<std::string> SeenModule;
  for (const std::string &P : O.Inputs) {
    bool IsKo = StringRef(P).ends_with(".ko");
    std::string Name = ModuleMap::moduleNameFromPath(P);
    if (O.Standalone || IsKo) {
      if (!O.Standalone && MM.isBuiltinModule(Name))
        return fail(P + ": module '" + Name + "' is listed as built in (" +
                    O.BuiltinModules + ") and given as a loadable module");
      if (!O.Standalone && (Name == CoreModule || Name == "shared_ctf"))
        return fail(P + ": a module cannot be named '" + Name +
                    "' (the name of the core kernel's or the shared "
                    "parent's file)");
      auto [It, New] = SeenModule.try_emplace(Name, P);
      if (!New)
        return fail("module '" + Name + "' given twice: " + It->second +
                    " and " + P);
      R.Loadable.push_back({P, Name, std::nullopt});
    } else if (StringRef M = MM.builtinModuleForModuleObject(P); !M.empty()) {
      R.BuiltinObjs.push_back({P, M.str(), std::nullopt});
    } else {
      R.CoreObjs.push_back({P, CoreModule, std::nullopt});
    }
  }
  llvm::stable_sort(R.Loadable,
                    [](const KernelObject &X, const KernelObject &Y) {
                      return X.Module < Y.Module;
                    });
  R.ModuleForUnit = [&MM](StringRef Dir, StringRef Name) {
    return MM.moduleForUnit(Dir, Name);
  };
  R.IsBlocklisted = [&MM](StringRef M) { return MM.isBlocklisted(M); };
  R.IsBuiltinModule = [&MM](StringRef M) { return MM.isBuiltinModule(M); };
  return std::move(R);
}

bool isBlocklisted(const KernelObjects &In, StringRef Module) {
  return In.IsBlocklisted && In.IsBlocklisted(Module);
}

Expected<std::unique_ptr<input::InputObject>> openObject(const KernelObject &In,
                                                         WarningLog &Log) {
  input::OpenOptions Opts;
  Opts.SupConsequence = "types stored there are unknown";
  if (In.Bytes)
    return input::InputObject::open(MemoryBufferRef(*In.Bytes, In.Path), Log,
                                    Opts);
  return input::InputObject::open(In.Path, Log, Opts);
}

std::string tableFileName(StringRef Module, TableFormat F) {
  return (Module + (F == TableFormat::Gsym ? ".gsym" : ".dpat")).str();
}

/// Files an object's address table (none for an object without any
/// function, which is listed instead).
void addTable(StringRef Module, StringRef Path, std::string Table,
              const KernelPackOptions &O, KernelPackResult &R) {
  if (!O.AddressTables)
    return;
  if (Table.empty())
    R.WithoutFunctions.push_back(Path.str());
  else
    R.Tables[tableFileName(Module, O.Format)] = std::move(Table);
}

/// An object's address model, built beside its types in the same walk.
struct AddressSide {
  FunctionModel Model;
  std::unique_ptr<FunctionVisitor> Visitor;

  Error start(const input::InputObject &Obj, WarningLog &Log) {
    if (Error E = readModuleIdentity(Obj, Model, Log))
      return createFileError(Obj.path(), std::move(E));
    Visitor = std::make_unique<FunctionVisitor>(Obj, Model);
    return Error::success();
  }
  /// After the walk: the symbols' functions, finalize, the table's bytes.
  Expected<std::string> finish(const input::InputObject &Obj, TableFormat F,
                               WarningLog &Log, unsigned Threads = 1) {
    readSymbolFunctions(Obj, Model);
    Model.finalize(Log);
    if (Model.functions().empty())
      return std::string();
    Expected<std::string> Bytes = encodeTable(Model, F, Threads);
    if (!Bytes)
      return createFileError(Obj.path(), Bytes.takeError());
    return Bytes;
  }
};

/// A loadable module converted on a worker thread: its own types and
/// warnings (merged in module order), and its address table.
struct LoadedModule {
  WarningLog Log;
  std::unique_ptr<input::InputObject> Obj;
  types::TypeTable Table;
  std::vector<uint64_t> Hashes;
  std::string AddressTable;
};

Expected<std::unique_ptr<LoadedModule>> loadModule(const KernelObject &In,
                                                   const KernelPackOptions &O) {
  auto R = std::make_unique<LoadedModule>();
  Expected<std::unique_ptr<input::InputObject>> Obj = openObject(In, R->Log);
  if (!Obj)
    return Obj.takeError();
  R->Obj = std::move(*Obj);
  // One thread per module: modules are the unit of parallelism.
  types::BuildOptions One;
  types::TypeMerger Merger;
  types::ElfSymbolNames Syms = types::collectElfSymbols(R->Obj->object(), true);
  AddressSide Addresses;
  SmallVector<input::UnitVisitor *, 1> More;
  if (O.AddressTables) {
    if (Error E = Addresses.start(*R->Obj, R->Log))
      return std::move(E);
    More.push_back(Addresses.Visitor.get());
  }
  Expected<GroupedStats> GS = convertUnitsInto(
      *R->Obj, One, [&](StringRef, StringRef) { return UnitTarget{&Merger}; },
      &Syms.Objects, R->Log, More);
  if (!GS)
    return createFileError(In.Path, GS.takeError());
  R->Table = Merger.finish(Syms);
  R->Hashes = hashTypeTable(R->Table);
  if (O.AddressTables) {
    Expected<std::string> T = Addresses.finish(*R->Obj, O.Format, R->Log);
    if (!T)
      return T.takeError();
    R->AddressTable = std::move(*T);
  }
  return std::move(R);
}

/// Converts the loadable modules on a pool and hands each to Consume in
/// module order (the first error stops the consuming).
Error forEachLoadable(
    ArrayRef<KernelObject> Loadable, const KernelPackOptions &O,
    WarningLog &Log,
    function_ref<Error(const KernelObject &, LoadedModule &)> Consume) {
  std::vector<Expected<std::unique_ptr<LoadedModule>>> Results;
  for (size_t I = 0; I < Loadable.size(); ++I)
    Results.push_back(nullptr);
  // Modules differ in size by three orders of magnitude: while a big one
  // is converted, the other threads go on with the small ones after it
  // (with a window of 2, Debian's 1,121 modules kept two cores about 85 %
  // busy); each done module holds its object until it is consumed.
  Error Failure = runInOrder(
      Loadable.size(), std::max(1u, O.NumThreads), /*WindowPerThread=*/8,
      [&](size_t J) { Results[J] = loadModule(Loadable[J], O); },
      [&](size_t I) -> Error {
        Expected<std::unique_ptr<LoadedModule>> R = std::move(Results[I]);
        Results[I] = nullptr;
        if (O.Progress)
          O.Progress(I + 1, Loadable.size());
        if (!R)
          return R.takeError();
        Log.merge((*R)->Log);
        return Consume(Loadable[I], **R);
      });
  // The modules after the first failure are not consumed.
  for (Expected<std::unique_ptr<LoadedModule>> &R : Results)
    if (!R)
      consumeError(R.takeError());
  return Failure;
}

/// Out-of-tree modules: each merged within itself into a plain dict.
Error packStandalone(const KernelObjects &In, const KernelPackOptions &O,
                     const ctf::WriteOptions &WOpts, KernelPackResult &R,
                     WarningLog &Log) {
  return forEachLoadable(
      In.Loadable, O, Log,
      [&](const KernelObject &I, LoadedModule &M) -> Error {
        ctf::WriteStats WS;
        Expected<std::string> D = ctf::writeDict(M.Table, WOpts, &WS);
        if (!D)
          return createFileError(I.Path, D.takeError());
        R.UncompressedSize += WS.UncompressedSize;
        R.Size += WS.Size;
        if (O.EmbedModules) {
          std::string Copy;
          raw_string_ostream OS(Copy);
          if (Error E = embedSections(M.Obj->buffer(), {{".ctf", *D}}, OS))
            return createFileError(I.Path, std::move(E));
          R.Files[I.Module + ".ko"] = std::move(Copy);
        }
        R.Files[I.Module + ".mod.ctf"] = std::move(*D);
        addTable(I.Module, I.Path, std::move(M.AddressTable), O, R);
        return Error::success();
      });
}

/// A built-in object's address table, finished on a thread of its own.
struct PendingTable {
  const KernelObject *In = nullptr;
  AddressSide Addresses;
  WarningLog Log;
  std::future<Expected<std::string>> Bytes;
};

/// One module's types from one or more inputs.
struct ModuleBuild {
  types::TypeMerger Merger;
  types::ElfSymbolNames Symbols;
  uint64_t Units = 0;
};

/// The core kernel's and built-in modules' objects into the repository:
/// built-in module objects first, so their units are theirs even when
/// vmlinux.o contains them too; a unit seen twice is converted once.
Error addBuiltIn(const KernelObjects &In, const KernelPackOptions &O,
                 SharedRepository &Repo, KernelPackResult &R, WarningLog &Log) {
  std::map<std::string, ModuleBuild> Builds; // by module name
  StringSet<> SeenUnits;                     // comp_dir \0 name
  // The mergers' strings point into the objects until they are finished.
  std::vector<std::unique_ptr<input::InputObject>> KeepOpen;
  types::BuildOptions BOpts;
  BOpts.NumThreads = O.NumThreads;
  // The last object's address table (vmlinux's) is finished beside the
  // built-in modules' type tables, which wait for nothing else; an earlier
  // object's is taken, with its warnings, before the next object is opened, so
  // the warnings keep their order. (Declared after KeepOpen: on an early return
  // it is waited for before the objects close.)
  std::unique_ptr<PendingTable> Pending;
  auto TakePending = [&]() -> Error {
    if (!Pending)
      return Error::success();
    std::unique_ptr<PendingTable> P = std::move(Pending);
    Expected<std::string> T = P->Bytes.get();
    Log.merge(P->Log);
    if (!T)
      return T.takeError();
    addTable(sys::path::stem(P->In->Path), P->In->Path, std::move(*T), O, R);
    return Error::success();
  };
  for (const std::vector<KernelObject> *List : {&In.BuiltinObjs, &In.CoreObjs})
    for (const KernelObject &I : *List) {
      if (Error E = TakePending())
        return E;
      Expected<std::unique_ptr<input::InputObject>> Obj = openObject(I, Log);
      if (!Obj)
        return Obj.takeError();
      types::ElfSymbolNames Syms =
          types::collectElfSymbols((*Obj)->object(), true);
      StringSet<> Touched;
      bool FixedModule = List == &In.BuiltinObjs;
      auto Classify = [&](StringRef Dir, StringRef Name) -> UnitTarget {
        StringRef M = FixedModule        ? StringRef(I.Module)
                      : In.ModuleForUnit ? In.ModuleForUnit(Dir, Name)
                                         : StringRef();
        if (M.empty())
          M = CoreModule;
        if (!SeenUnits.insert((Dir + Twine('\0') + Name).str()).second)
          return {};
        Touched.insert(M);
        ModuleBuild &B = Builds[M.str()];
        ++B.Units;
        return {&B.Merger};
      };
      auto Table = std::make_unique<PendingTable>();
      SmallVector<input::UnitVisitor *, 1> More;
      if (O.AddressTables) {
        if (Error E = Table->Addresses.start(**Obj, Log))
          return E;
        More.push_back(Table->Addresses.Visitor.get());
      }
      Expected<GroupedStats> GS =
          convertUnitsInto(**Obj, BOpts, Classify, &Syms.Objects, Log, More);
      if (!GS)
        return createFileError(I.Path, GS.takeError());
      if (O.AddressTables) {
        Table->In = &I;
        PendingTable &P = *Table;
        const input::InputObject &Object = **Obj;
        P.Bytes = std::async(
            O.NumThreads > 1 ? std::launch::async : std::launch::deferred,
            [&P, &Object, &O] {
              return P.Addresses.finish(Object, O.Format, P.Log, O.NumThreads);
            });
        Pending = std::move(Table);
      }
      for (const auto &M : Touched) {
        ModuleBuild &B = Builds[M.getKey().str()];
        for (const auto &S : Syms.Objects)
          B.Symbols.Objects.insert(S.getKey());
        for (const auto &S : Syms.Functions)
          B.Symbols.Functions.insert(S.getKey());
        llvm::append_range(B.Symbols.ObjectExtents, Syms.ObjectExtents);
      }
      KeepOpen.push_back(std::move(*Obj));
    }

  // A declaration stands in for a variable only where no unit of any
  // module defines it (vmlinux's units declare what built-in modules
  // define): the ELF defines it and no DWARF does (jiffies, in assembly).
  StringSet<> Defined;
  for (auto &[Name, B] : Builds)
    B.Merger.collectDefinedVariables(Defined);
  for (auto &[Name, B] : Builds)
    B.Merger.dropDeclarations(Defined);

  std::vector<std::string> Order; // vmlinux first, then by name
  if (Builds.count(CoreModule))
    Order.push_back(CoreModule);
  for (auto &[Name, B] : Builds)
    if (Name != CoreModule)
      Order.push_back(Name);
  for (const std::string &Name : Order) {
    ModuleBuild &B = Builds[Name];
    types::TypeTable T = B.Merger.finish(B.Symbols);
    Repo.addModule(Name, T, hashTypeTable(T), isBlocklisted(In, Name));
    Builds.erase(Name);
  }
  return TakePending();
}

/// The repository's parent and children as dicts, in parallel (each into
/// its own slot), named as docs/CTF-kernel.md says, and the archive.
Error writeDicts(const SharedRepository::Result &Res, const KernelObjects &In,
                 const KernelPackOptions &O, const ctf::WriteOptions &WOpts,
                 KernelPackResult &R) {
  size_t NumDicts = Res.Children.size() + 1;
  std::vector<Expected<std::string>> Dicts;
  std::vector<ctf::WriteStats> WS(NumDicts);
  for (size_t I = 0; I < NumDicts; ++I)
    Dicts.push_back(std::string());
  {
    DefaultThreadPool Pool(hardware_concurrency(std::max(1u, O.NumThreads)));
    for (size_t I = 0; I < NumDicts; ++I)
      Pool.async([&, I] {
        ctf::WriteOptions W = WOpts;
        if (I == 0) {
          Dicts[I] = ctf::writeDict(Res.Parent, W, &WS[I]);
          return;
        }
        W.ParentName = ParentMemberName;
        Dicts[I] = ctf::writeDict(Res.Children[I - 1].Table, W, &WS[I]);
      });
    Pool.wait();
  }
  std::vector<ArchiveMember> Members;
  Error Failure = Error::success();
  for (size_t I = 0; I < NumDicts; ++I) {
    if (!Dicts[I]) {
      if (!Failure)
        Failure = Dicts[I].takeError();
      else
        consumeError(Dicts[I].takeError());
      continue;
    }
    R.UncompressedSize += WS[I].UncompressedSize;
    R.Size += WS[I].Size;
    std::string Name =
        I == 0 ? std::string("shared_ctf") : Res.Children[I - 1].Name;
    bool Loaded = I > 0 && !(In.IsBuiltinModule && In.IsBuiltinModule(Name)) &&
                  Name != CoreModule &&
                  llvm::any_of(In.Loadable, [&](const KernelObject &X) {
                    return X.Module == Name;
                  });
    Members.push_back({I == 0 ? ParentMemberName : Name, *Dicts[I]});
    R.Files[Name + (Loaded ? ".mod.ctf" : ".builtin.ctf")] =
        std::move(*Dicts[I]);
  }
  if (Failure)
    return Failure;
  R.Archive = writeCtfArchive(Members);
  return Error::success();
}

/// Copies of the loadable modules with their child dicts in .ctf.
Error embedModules(const KernelObjects &In, KernelPackResult &R,
                   WarningLog &Log) {
  for (const KernelObject &I : In.Loadable) {
    Expected<std::unique_ptr<input::InputObject>> Obj = openObject(I, Log);
    if (!Obj)
      return Obj.takeError();
    std::string Copy;
    raw_string_ostream OS(Copy);
    if (Error E = embedSections((*Obj)->buffer(),
                                {{".ctf", R.Files[I.Module + ".mod.ctf"]}}, OS))
      return createFileError(I.Path, std::move(E));
    R.Files[I.Module + ".ko"] = std::move(Copy);
  }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<KernelPackResult>>
packKernel(const KernelPackOptions &O, WarningLog &Log) {
  ModuleMap MM;
  if (Error E = readLists(O, MM))
    return std::move(E);
  Expected<KernelObjects> In = classify(O, MM);
  if (!In)
    return In.takeError();
  return packKernelObjects(*In, O, Log);
}

Expected<std::unique_ptr<KernelPackResult>>
packKernelObjects(const KernelObjects &In, const KernelPackOptions &O,
                  WarningLog &Log) {
  auto R = std::make_unique<KernelPackResult>();
  ctf::WriteOptions WOpts;
  // The indexed data-object section already maps each global variable's
  // name to its type; the variable section would repeat it.
  WOpts.VariableSection = false;
  if (O.NoCompress)
    WOpts.CompressThreshold = 0;

  Stopwatch T0;
  if (O.Standalone) {
    if (Error E = packStandalone(In, O, WOpts, *R, Log))
      return std::move(E);
    R->ReadSeconds = T0.seconds();
    return std::move(R);
  }
  SharedRepository Repo(/*Share=*/true);
  if (Error E = addBuiltIn(In, O, Repo, *R, Log))
    return std::move(E);
  Error E = forEachLoadable(
      In.Loadable, O, Log,
      [&](const KernelObject &I, LoadedModule &M) -> Error {
        Repo.addModule(I.Module, M.Table, M.Hashes,
                       isBlocklisted(In, I.Module));
        addTable(I.Module, I.Path, std::move(M.AddressTable), O, *R);
        return Error::success();
      });
  if (E)
    return std::move(E);
  R->ReadSeconds = T0.seconds();

  Stopwatch T1;
  Expected<SharedRepository::Result> Res = Repo.finish();
  if (!Res)
    return Res.takeError();
  R->Repository = Res->Stats;
  R->DedupSeconds = T1.seconds();

  Stopwatch T2;
  if (Error E = writeDicts(*Res, In, O, WOpts, *R))
    return std::move(E);
  if (O.EmbedModules)
    if (Error E = embedModules(In, *R, Log))
      return std::move(E);
  R->WriteSeconds = T2.seconds();
  return std::move(R);
}

Error commitKernelOutputs(StringRef Dir,
                          const std::map<std::string, std::string> &Files,
                          ArrayRef<std::pair<std::string, StringRef>> Extra,
                          uint64_t &Written, uint64_t &Unchanged) {
  std::vector<StagedOutput> Staged; // removed unless committed
  auto Stage = [&](const std::string &Final, StringRef Data) -> Error {
    // Refused before anything is renamed: a rename onto it would fail
    // after others succeeded.
    if (sys::fs::is_directory(Final))
      return fail("cannot write '" + Final + "': is a directory");
    // Only a regular file is compared: reading a FIFO would wait for a
    // writer ("-" is standard output, whatever the directory holds).
    if (Final != "-" && sys::fs::is_regular_file(Final))
      if (auto Old = MemoryBuffer::getFile(Final, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
          Old && (*Old)->getBuffer() == Data) {
        ++Unchanged;
        return Error::success();
      }
    Expected<StagedOutput> Out = StagedOutput::create(Final, Data);
    if (!Out)
      return Out.takeError();
    Staged.push_back(std::move(*Out));
    ++Written;
    return Error::success();
  };
  for (auto &[Name, Data] : Files) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    if (Error E = Stage(std::string(P), Data))
      return E;
  }
  for (const auto &[Path, Data] : Extra)
    if (Error E = Stage(Path, Data))
      return E;
  for (StagedOutput &Out : Staged)
    if (Error E = Out.commit())
      return E;
  return Error::success();
}

} // namespace pipeline
} // namespace dwarfpack
