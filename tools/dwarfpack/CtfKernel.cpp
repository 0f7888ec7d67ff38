//===- CtfKernel.cpp - `dwarfpack ctf` over a kernel and its modules ------===//
//
// Reads the core kernel and its modules, deduplicates their types into a
// shared parent and per-module children (lib/CtfKernel), and writes them to
// an output directory (and optionally one CTF archive), replacing only files
// whose content changed, all at the end of a successful run.
//
//===----------------------------------------------------------------------===//

#include "CtfKernel.h"
#include "Command.h"

#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CtfKernel/CtfArchive.h"
#include "dwarfpack/CtfKernel/GroupedBuild.h"
#include "dwarfpack/CtfKernel/ModuleMap.h"
#include "dwarfpack/CtfKernel/SharedRepository.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/ElfEmbed.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <deque>
#include <future>
#include <map>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::ctfkernel;

namespace {

cl::SubCommand &Sub = tool::ctfSubCommand();

cl::opt<std::string>
    BuiltinObjects("builtin-objects",
                   cl::desc("objects.builtin: object files always built in "
                            "(kernel mode)"),
                   cl::value_desc("file"), cl::sub(Sub),
                   cl::cat(tool::category()));
cl::opt<std::string>
    BuiltinModules("builtin-modules",
                   cl::desc("modules.builtin: modules built into the kernel, "
                            "optionally with their objects (kernel mode)"),
                   cl::value_desc("file"), cl::sub(Sub),
                   cl::cat(tool::category()));
cl::opt<std::string>
    Blocklist("dedup-blocklist",
              cl::desc("Modules that never contribute types to the shared "
                       "parent (one name per line)"),
              cl::value_desc("file"), cl::sub(Sub), cl::cat(tool::category()));
cl::opt<bool> Standalone("e",
                         cl::desc("Out-of-tree modules: one dict per input, "
                                  "nothing shared, no parent"),
                         cl::sub(Sub), cl::cat(tool::category()));
cl::opt<std::string>
    ArchiveOut("archive",
               cl::desc("Also write everything as one CTF archive (parent "
                        "member '.ctf')"),
               cl::value_desc("file"), cl::sub(Sub), cl::cat(tool::category()));

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

Expected<std::unique_ptr<MemoryBuffer>> readList(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!B)
    return createFileError(Path, errorCodeToError(B.getError()));
  return std::move(*B);
}

/// An opened input object with its DWARF.
using OpenObject = std::unique_ptr<input::InputObject>;

Expected<OpenObject> openObject(StringRef Path, WarningLog &Log) {
  input::OpenOptions Opts;
  Opts.SupConsequence = "types stored there are unknown";
  return input::InputObject::open(Path, Log, Opts);
}

/// One module's types from one or more inputs.
struct ModuleBuild {
  types::TypeMerger Merger;
  ElfSymbolNames Symbols;
  uint64_t Units = 0;
};

/// A loadable module converted on a worker thread.
struct LoadedModule {
  Error Err = Error::success();
  OpenObject Obj;
  types::TypeTable Table;
  std::vector<uint64_t> Hashes;
};

/// The outputs of a run: file name in OUTDIR -> content.
using OutputSet = std::map<std::string, std::string>;

/// Writes every output whose content differs from the file on disk, to a
/// temporary first; renames all temporaries only once all were written.
Error commitOutputs(StringRef Dir, const OutputSet &Outs, uint64_t &Written,
                    uint64_t &Unchanged, StringRef ArchivePath,
                    const std::string *Archive) {
  std::vector<StagedOutput> Staged; // removed unless committed
  auto Stage = [&](const std::string &Final, StringRef Data) -> Error {
    // Refused before anything is renamed: a rename onto it would fail
    // after others succeeded.
    if (sys::fs::is_directory(Final))
      return createStringError(inconvertibleErrorCode(),
                               "cannot write '" + Final + "': is a directory");
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
  for (auto &[Name, Data] : Outs) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    if (Error E = Stage(std::string(P), Data))
      return E;
  }
  if (Archive)
    if (Error E = Stage(ArchivePath.str(), *Archive))
      return E;
  for (StagedOutput &Out : Staged)
    if (Error E = Out.commit())
      return E;
  return Error::success();
}

} // namespace

bool dwarfpack::tool::kernelCtfRequested() {
  return !BuiltinObjects.empty() || !BuiltinModules.empty() ||
         !Blocklist.empty() || Standalone || !ArchiveOut.empty();
}

int dwarfpack::tool::runKernelCtf(const CtfDriverArgs &A) {
  Clock::time_point Start = Clock::now();
  ModuleMap MM;
  for (auto [Path, Parse] :
       {std::pair<StringRef, Error (ModuleMap::*)(StringRef, StringRef)>{
            BuiltinModules, &ModuleMap::parseBuiltinModules},
        {BuiltinObjects, &ModuleMap::parseBuiltinObjects},
        {Blocklist, &ModuleMap::parseBlocklist}}) {
    if (Path.empty())
      continue;
    if (Standalone)
      return tool::reportError("-e takes no --builtin-objects, "
                               "--builtin-modules or --dedup-blocklist");
    Expected<std::unique_ptr<MemoryBuffer>> B = readList(Path);
    if (!B)
      return tool::reportError(B.takeError());
    if (Error E = (MM.*Parse)(Path, (*B)->getBuffer()))
      return tool::reportError(std::move(E));
  }
  if (A.Output.empty())
    return tool::reportError("-o OUTDIR is required");
  if (A.Output == "-")
    return tool::reportError("-o -: the kernel mode writes a directory of "
                             "files (standard output can take the archive: "
                             "--archive -)");
  // Removed again, if new, when the run fails.
  Expected<OutputDirectories> OutDir = OutputDirectories::create(A.Output);
  if (!OutDir)
    return tool::reportError(OutDir.takeError());
  if (!sys::fs::is_directory(A.Output))
    return tool::reportError(A.Output + ": not a directory");

  // Sort the inputs into built-in module objects, core kernel objects and
  // loadable modules; a module may appear once.
  struct Input {
    std::string Path, Module;
  };
  std::vector<Input> BuiltinObjs, CoreObjs, Loadable;
  StringMap<std::string> SeenModule;
  for (const std::string &P : A.Inputs) {
    bool IsKo = StringRef(P).ends_with(".ko");
    std::string Name = ModuleMap::moduleNameFromPath(P);
    if (Standalone || IsKo) {
      if (!Standalone && MM.isBuiltinModule(Name))
        return tool::reportError(P + ": module '" + Name +
                                 "' is listed as built in (" + BuiltinModules +
                                 ") and given as a loadable module");
      if (!Standalone && (Name == CoreModule || Name == "shared_ctf"))
        return tool::reportError(P + ": a module cannot be named '" + Name +
                                 "' (the name of the core kernel's or the "
                                 "shared parent's file)");
      auto [It, New] = SeenModule.try_emplace(Name, P);
      if (!New)
        return tool::reportError("module '" + Name +
                                 "' given twice: " + It->second + " and " + P);
      Loadable.push_back({P, Name});
    } else if (StringRef M = MM.builtinModuleForModuleObject(P); !M.empty()) {
      BuiltinObjs.push_back({P, M.str()});
    } else {
      CoreObjs.push_back({P, CoreModule});
    }
  }
  // Loadable modules by name: the output does not depend on argument order.
  llvm::stable_sort(Loadable, [](const Input &X, const Input &Y) {
    return X.Module < Y.Module;
  });

  WarningLog Log;
  types::BuildOptions BOpts;
  BOpts.NumThreads = A.NumThreads;
  ctf::WriteOptions WOpts;
  // The indexed data-object section already maps each global variable's
  // name to its type; the variable section would repeat it.
  WOpts.VariableSection = false;
  if (A.NoCompress)
    WOpts.CompressThreshold = 0;
  OutputSet Outs;
  uint64_t UncompressedTotal = 0, SizeTotal = 0;
  auto Fail = [&](Error E) {
    if (!A.Quiet)
      reportWarningSummary(Log);
    return tool::reportError(std::move(E));
  };

  bool ShowProgress =
      Loadable.size() >= 32 && sys::Process::StandardErrIsDisplayed();
  // Loadable modules are converted on a pool, a bounded window at a time,
  // and consumed strictly in order by Consume.
  auto ForEachLoadable =
      [&](function_ref<Error(const Input &, LoadedModule &)> Consume) -> Error {
    unsigned Threads = std::max(1u, A.NumThreads);
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    std::vector<LoadedModule> Results(Loadable.size());
    std::deque<std::shared_future<void>> Pending;
    size_t Next = 0, Window = 2 * Threads;
    Error Failure = Error::success();
    for (size_t I = 0; I < Loadable.size(); ++I) {
      while (Next < Loadable.size() && Next < I + Window) {
        size_t J = Next++;
        Pending.push_back(Pool.async([&, J] {
          LoadedModule &R = Results[J];
          cantFail(std::move(R.Err));
          Expected<OpenObject> O = openObject(Loadable[J].Path, Log);
          if (!O) {
            R.Err = O.takeError();
            return;
          }
          R.Obj = std::move(*O);
          // One thread per module: modules are the unit of parallelism.
          types::BuildOptions One;
          types::TypeMerger Merger;
          ElfSymbolNames Syms = collectElfSymbols(R.Obj->object(), true);
          Expected<GroupedStats> GS = convertUnitsInto(
              *R.Obj, One,
              [&](StringRef, StringRef) { return UnitTarget{&Merger}; },
              &Syms.Objects, Log);
          if (!GS) {
            R.Err = createFileError(Loadable[J].Path, GS.takeError());
            return;
          }
          R.Table = Merger.finish(Syms);
          R.Hashes = hashTypeTable(R.Table);
        }));
      }
      Pending.front().wait();
      Pending.pop_front();
      LoadedModule R = std::move(Results[I]);
      Results[I] = LoadedModule();
      // Progress for people watching a terminal; a kernel has ~1,000
      // modules and the run takes tens of seconds.
      if (ShowProgress && (I % 16 == 15 || I + 1 == Loadable.size())) {
        errs() << "\rdwarfpack ctf: " << (I + 1) << "/" << Loadable.size()
               << " modules";
        if (I + 1 == Loadable.size())
          errs() << "\n";
      }
      if (!Failure) {
        if (R.Err)
          Failure = std::move(R.Err);
        else
          Failure = Consume(Loadable[I], R);
      }
      consumeError(std::move(R.Err));
    }
    Pool.wait();
    for (LoadedModule &R : Results)
      consumeError(std::move(R.Err));
    return Failure;
  };

  double ReadTime = 0, DedupTime = 0, WriteTime = 0;
  RepositoryStats RS;
  std::string ArchiveBytes;

  if (Standalone) {
    // Each module alone: merged within itself, a plain dict, no parent.
    Clock::time_point T0 = Clock::now();
    Error E = ForEachLoadable([&](const Input &In, LoadedModule &R) -> Error {
      ctf::WriteStats WS;
      Expected<std::string> D = ctf::writeDict(R.Table, WOpts, &WS);
      if (!D)
        return createFileError(In.Path, D.takeError());
      UncompressedTotal += WS.UncompressedSize;
      SizeTotal += WS.Size;
      if (A.Embed) {
        std::string Copy;
        raw_string_ostream OS(Copy);
        if (Error E = embedSections(R.Obj->buffer(), {{".ctf", *D}}, OS))
          return createFileError(In.Path, std::move(E));
        Outs[In.Module + ".ko"] = std::move(Copy);
      }
      Outs[In.Module + ".mod.ctf"] = std::move(*D);
      return Error::success();
    });
    if (E)
      return Fail(std::move(E));
    ReadTime = secondsSince(T0);
  } else {
    // Reading: built-in module objects first, so their units are theirs
    // even when vmlinux.o contains them too; a unit seen twice in a module
    // is processed once.
    Clock::time_point T0 = Clock::now();
    std::map<std::string, ModuleBuild> Builds; // by module name
    StringSet<> SeenUnits;                     // comp_dir \0 name
    std::vector<OpenObject> KeepOpen;          // the mergers' strings
    for (const std::vector<Input> *List : {&BuiltinObjs, &CoreObjs})
      for (const Input &In : *List) {
        Expected<OpenObject> O = openObject(In.Path, Log);
        if (!O)
          return Fail(O.takeError());
        ElfSymbolNames Syms = collectElfSymbols((*O)->object(), true);
        StringSet<> Touched;
        bool FixedModule = List == &BuiltinObjs;
        auto Classify = [&](StringRef Dir, StringRef Name) -> UnitTarget {
          StringRef M =
              FixedModule ? StringRef(In.Module) : MM.moduleForUnit(Dir, Name);
          if (M.empty())
            M = CoreModule;
          // A unit belongs to one module: the first input that has it
          // processes it (built-in module objects come first).
          if (!SeenUnits.insert((Dir + Twine('\0') + Name).str()).second)
            return {};
          Touched.insert(M);
          ModuleBuild &B = Builds[M.str()];
          ++B.Units;
          return {&B.Merger};
        };
        Expected<GroupedStats> GS =
            convertUnitsInto(**O, BOpts, Classify, &Syms.Objects, Log);
        if (!GS)
          return Fail(createFileError(In.Path, GS.takeError()));
        for (const auto &M : Touched) {
          ModuleBuild &B = Builds[M.getKey().str()];
          for (const auto &S : Syms.Objects)
            B.Symbols.Objects.insert(S.getKey());
          for (const auto &S : Syms.Functions)
            B.Symbols.Functions.insert(S.getKey());
          llvm::append_range(B.Symbols.ObjectExtents, Syms.ObjectExtents);
        }
        KeepOpen.push_back(std::move(*O));
      }

    // A declaration stands in for a variable only where no unit of any
    // module defines it (vmlinux's units declare what built-in modules
    // define): the ELF defines it and no DWARF does (jiffies, in assembly).
    StringSet<> Defined;
    for (auto &[Name, B] : Builds)
      B.Merger.collectDefinedVariables(Defined);
    for (auto &[Name, B] : Builds)
      B.Merger.dropDeclarations(Defined);

    SharedRepository Repo(/*Share=*/true);
    std::vector<std::string> BuiltinOrder; // vmlinux first, then by name
    if (Builds.count(CoreModule))
      BuiltinOrder.push_back(CoreModule);
    for (auto &[Name, B] : Builds)
      if (Name != CoreModule)
        BuiltinOrder.push_back(Name);
    for (const std::string &Name : BuiltinOrder) {
      ModuleBuild &B = Builds[Name];
      types::TypeTable T = B.Merger.finish(B.Symbols);
      Repo.addModule(Name, T, hashTypeTable(T), MM.isBlocklisted(Name));
      Builds.erase(Name);
    }
    KeepOpen.clear();
    Error E = ForEachLoadable([&](const Input &In, LoadedModule &R) -> Error {
      Repo.addModule(In.Module, R.Table, R.Hashes, MM.isBlocklisted(In.Module));
      return Error::success();
    });
    if (E)
      return Fail(std::move(E));
    ReadTime = secondsSince(T0);

    Clock::time_point T1 = Clock::now();
    Expected<SharedRepository::Result> Res = Repo.finish();
    if (!Res)
      return Fail(Res.takeError());
    RS = Res->Stats;
    DedupTime = secondsSince(T1);

    // Writing: the dicts are independent; serialise (and compress) them in
    // parallel, each into its own slot.
    Clock::time_point T2 = Clock::now();
    size_t NumDicts = Res->Children.size() + 1;
    std::vector<Expected<std::string>> Dicts;
    std::vector<ctf::WriteStats> WS(NumDicts);
    for (size_t I = 0; I < NumDicts; ++I)
      Dicts.push_back(std::string());
    {
      DefaultThreadPool Pool(hardware_concurrency(std::max(1u, A.NumThreads)));
      for (size_t I = 0; I < NumDicts; ++I)
        Pool.async([&, I] {
          ctf::WriteOptions O = WOpts;
          if (I == 0) {
            Dicts[I] = ctf::writeDict(Res->Parent, O, &WS[I]);
            return;
          }
          O.ParentName = ParentMemberName;
          Dicts[I] = ctf::writeDict(Res->Children[I - 1].Table, O, &WS[I]);
        });
      Pool.wait();
    }
    std::vector<ArchiveMember> Members;
    for (size_t I = 0; I < NumDicts; ++I) {
      if (!Dicts[I])
        return Fail(Dicts[I].takeError());
      UncompressedTotal += WS[I].UncompressedSize;
      SizeTotal += WS[I].Size;
      std::string Name =
          I == 0 ? std::string("shared_ctf") : Res->Children[I - 1].Name;
      bool Loaded = I > 0 && !MM.isBuiltinModule(Name) && Name != CoreModule &&
                    llvm::any_of(Loadable, [&](const Input &In) {
                      return In.Module == Name;
                    });
      Members.push_back({I == 0 ? ParentMemberName : Name, *Dicts[I]});
      Outs[Name + (Loaded ? ".mod.ctf" : ".builtin.ctf")] = *Dicts[I];
    }
    if (!ArchiveOut.empty())
      ArchiveBytes = writeCtfArchive(Members);
    if (A.Embed)
      for (const Input &In : Loadable) {
        Expected<OpenObject> O = openObject(In.Path, Log);
        if (!O)
          return Fail(O.takeError());
        std::string Copy;
        raw_string_ostream OS(Copy);
        if (Error E = embedSections(
                (*O)->buffer(), {{".ctf", Outs[In.Module + ".mod.ctf"]}}, OS))
          return Fail(createFileError(In.Path, std::move(E)));
        Outs[In.Module + ".ko"] = std::move(Copy);
      }
    WriteTime = secondsSince(T2);
  }

  Clock::time_point T3 = Clock::now();
  uint64_t Written = 0, Unchanged = 0;
  if (Error E = commitOutputs(A.Output, Outs, Written, Unchanged, ArchiveOut,
                              ArchiveOut.empty() ? nullptr : &ArchiveBytes))
    return Fail(std::move(E));
  OutDir->keep();
  WriteTime += secondsSince(T3);
  if (!A.Quiet)
    reportWarningSummary(Log);
  if (A.Stats) {
    raw_ostream &OS = reportStream(ArchiveOut);
    OS << "modules: " << Outs.size() << " files ("
       << (Standalone ? "standalone" : "shared") << ")\n";
    OS << "written: " << Written << ", unchanged: " << Unchanged << "\n";
    if (!Standalone) {
      OS << "input types: " << RS.InputTypes << "\n";
      OS << "global nodes: " << RS.GlobalNodes << "\n";
      OS << "resolved forwards: " << RS.ResolvedForwards << "\n";
      OS << "classes: " << RS.Classes << "\n";
      OS << "shared by use: " << RS.SharedByUse << "\n";
      OS << "parent types: " << RS.SharedTotal << "\n";
      OS << "child types: " << RS.ChildTypes << "\n";
      OS << "sharing rounds: " << RS.FixpointRounds << "\n";
      OS << "stored more than once: " << RS.StoredMoreThanOnce << "\n";
    }
    OS << "uncompressed size: " << UncompressedTotal << "\n";
    OS << "size: " << SizeTotal << "\n";
    if (!ArchiveOut.empty())
      OS << "archive size: " << ArchiveBytes.size() << "\n";
    OS << format("time: read %.2f s, dedup+sharing %.2f s (identity "
                 "%.2f s, sharing %.2f s, split %.2f s), write %.2f s, "
                 "total %.2f s\n",
                 ReadTime, DedupTime, RS.IdentitySeconds, RS.SharingSeconds,
                 RS.SplitSeconds, WriteTime, secondsSince(Start));
  }
  return 0;
}
