//===- KernelSymbolizer.cpp - A running kernel, from its build's tables ---===//

#include "dwarfpack/Symbolize/KernelSymbolizer.h"

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {

char KernelInputError::ID;

static StringRef inputName(KernelInput I) {
  switch (I) {
  case KernelInput::Kallsyms:
    return "running kernel's symbols";
  case KernelInput::ModuleTables:
    return "module tables";
  case KernelInput::BuildIds:
    return "build-ids";
  case KernelInput::ModuleTable:
    return "module table";
  }
  return "";
}

void KernelInputError::log(raw_ostream &OS) const {
  OS << inputName(Msg.Input) << ": " << Msg.Message;
}

std::error_code KernelInputError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

static Error inputError(KernelInput I, const Twine &Message) {
  return make_error<KernelInputError>(I, Message.str());
}

Expected<std::optional<SmallVector<uint8_t, 20>>>
readBuildIdNotes(const Twine &Path) {
  SmallString<128> P;
  Path.toVector(P);
  if (!sys::fs::exists(P))
    return std::nullopt;
  // Read, not mapped: sysfs files have no size until read.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFileAsStream(P);
  if (!Buf)
    return createFileError(P, errorCodeToError(Buf.getError()));
  Expected<ArrayRef<uint8_t>> Id =
      gnuBuildIdFromNotes(arrayRefFromStringRef((*Buf)->getBuffer()));
  if (!Id)
    return createFileError(P, Id.takeError());
  return SmallVector<uint8_t, 20>(Id->begin(), Id->end());
}

Expected<ModuleTableDirectory> ModuleTableDirectory::scan(StringRef Dir) {
  if (!sys::fs::is_directory(Dir))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Dir + "': not a directory");
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Files.push_back(It->path());
  if (EC)
    return createFileError(Dir, errorCodeToError(EC));
  llvm::sort(Files);
  ModuleTableDirectory D;
  D.Dir = Dir.str();
  for (StringRef Ext : {".dpat", ".gsym"}) {
    StringMap<std::string> Seen;
    for (const std::string &F : Files) {
      StringRef Stem = sys::path::filename(F);
      if (!Stem.consume_back(Ext) || Stem.empty())
        continue;
      std::string Module = Stem.str();
      std::replace(Module.begin(), Module.end(), '-', '_');
      auto [It, New] = Seen.try_emplace(Module, F);
      if (!New)
        return createStringError(inconvertibleErrorCode(),
                                 "'" + It->second + "' and '" + F +
                                     "' are both tables of module '" + Module +
                                     "'");
      D.ByName.try_emplace(Module, F);
    }
  }
  return D;
}

std::string ModuleTableDirectory::find(StringRef Module,
                                       ArrayRef<uint8_t> BuildId) const {
  if (auto It = ByName.find(Module); It != ByName.end())
    return It->second;
  if (BuildId.size() >= 2)
    for (StringRef Ext : {"dpat", "gsym"}) {
      std::string P = TableStore::tablePath(Dir, BuildId, Ext);
      if (sys::fs::exists(P))
        return P;
    }
  return "";
}

namespace {

/// The build-ids of a running kernel, from /sys or a copy of its notes.
class BuildIdDirectory {
public:
  /// Checks Dir: it must hold kernel/notes or module/.
  static Expected<BuildIdDirectory> open(StringRef Dir) {
    BuildIdDirectory D;
    D.Dir = Dir.str();
    if (!sys::fs::is_directory(Dir))
      return inputError(KernelInput::BuildIds,
                        "'" + Dir + "': not a directory");
    if (!sys::fs::exists(D.path("kernel/notes")) &&
        !sys::fs::is_directory(D.path("module")))
      return inputError(KernelInput::BuildIds,
                        "'" + Dir +
                            "' has neither kernel/notes nor module/ (give "
                            "/sys or a copy of those files)");
    return D;
  }

  /// The running kernel's build-id; empty when unknown.
  Expected<SmallVector<uint8_t, 20>> kernel(const KernelWarningFn &Warn) const {
    return read(path("kernel/notes"), Warn);
  }

  /// The build-id of running module Module; empty when unknown.
  Expected<SmallVector<uint8_t, 20>> module(StringRef Module,
                                            const KernelWarningFn &Warn) const {
    return read(path("module/" + Module + "/notes/.note.gnu.build-id"), Warn);
  }

private:
  std::string path(const Twine &Rest) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Rest);
    return std::string(P);
  }

  /// A notes file without a build-id note is a warning: the check asked
  /// for cannot be made.
  static Expected<SmallVector<uint8_t, 20>> read(const std::string &Path,
                                                 const KernelWarningFn &Warn) {
    Expected<std::optional<SmallVector<uint8_t, 20>>> Id =
        readBuildIdNotes(Path);
    if (!Id)
      return inputError(KernelInput::BuildIds, toString(Id.takeError()));
    if (!*Id)
      return SmallVector<uint8_t, 20>();
    if ((*Id)->empty() && Warn)
      Warn({KernelInput::BuildIds, "'" + Path +
                                       "' has no GNU build-id note: the "
                                       "table is not checked against it"});
    return std::move(**Id);
  }

  std::string Dir;
};

} // namespace

Expected<RunningKernel> openRunningKernel(const AddressSymbolizer &Table,
                                          StringRef TableName,
                                          const RunningKernelSources &Sources) {
  kallsyms::SymbolList Symbols;
  if (Error E =
          kallsyms::parseSymbolList(Sources.Kallsyms, Sources.KallsymsName,
                                    kallsyms::ParseOptions(), Symbols))
    return std::move(E);
  RunningKernel Kernel;
  std::optional<BuildIdDirectory> BuildIds;
  SmallVector<uint8_t, 20> KernelBuildId;
  if (!Sources.BuildIds.empty()) {
    Expected<BuildIdDirectory> D = BuildIdDirectory::open(Sources.BuildIds);
    if (!D)
      return D.takeError();
    BuildIds = std::move(*D);
    Expected<SmallVector<uint8_t, 20>> Id = BuildIds->kernel(Sources.Warn);
    if (!Id)
      return Id.takeError();
    KernelBuildId = std::move(*Id);
  }
  Expected<kallsyms::KernelSlide> Slide = kallsyms::findKernelSlide(
      Table, Symbols, kallsyms::DefaultSlideChecks, KernelBuildId);
  if (!Slide)
    return inputError(KernelInput::Kallsyms,
                      "'" + TableName + "' and '" + Sources.KallsymsName +
                          "': " + toString(Slide.takeError()));
  Kernel.Slide = *Slide;

  kallsyms::ModuleTableOpener OpenModule;
  std::optional<ModuleTableDirectory> Modules;
  if (!Sources.ModuleTables.empty()) {
    Expected<ModuleTableDirectory> D =
        ModuleTableDirectory::scan(Sources.ModuleTables);
    if (!D)
      return inputError(KernelInput::ModuleTables, toString(D.takeError()));
    Modules = std::move(*D);
    OpenModule = [&](StringRef Module) -> Expected<kallsyms::ModuleTable> {
      SmallVector<uint8_t, 20> BuildId;
      if (BuildIds) {
        Expected<SmallVector<uint8_t, 20>> Id =
            BuildIds->module(Module, Sources.Warn);
        if (!Id)
          return Id.takeError();
        BuildId = std::move(*Id);
      }
      std::string Path = Modules->find(Module, BuildId);
      if (Path.empty())
        return kallsyms::ModuleTable();
      Expected<OpenedTable> T = openTableFile(Path, Sources.Open);
      if (!T)
        return inputError(KernelInput::ModuleTables, toString(T.takeError()));
      return kallsyms::ModuleTable{std::move(T->Table), Path,
                                   std::move(BuildId)};
    };
  }
  auto R = kallsyms::RunningKernelSymbolizer::create(Table, Symbols,
                                                     Slide->Offset, OpenModule);
  if (!R)
    return R.takeError();
  Kernel.Symbolizer = std::move(*R);
  if (Sources.Warn)
    for (const kallsyms::ModulePlacement &P : Kernel.Symbolizer->placements())
      if (std::optional<std::string> Why = unplacedReason(P))
        Sources.Warn({KernelInput::ModuleTable, std::move(*Why)});
  return Kernel;
}

std::optional<std::string> unplacedReason(const kallsyms::ModulePlacement &P) {
  if (P.Placed)
    return std::nullopt;
  if (P.BuildIdCheck == kallsyms::ModulePlacement::BuildId::Different)
    return "'" + P.Table + "': the table is of build-id " + P.TableBuildId +
           ", module '" + P.Module + "' that runs is of build-id " +
           P.RunningBuildId + "; its addresses get kallsyms names only";
  if (P.Anchors == 0)
    return ("'" + P.Table + "': none of the " + Twine(P.TextSymbols) +
            " functions that module '" + P.Module +
            "' runs names one function of the table (is it of another "
            "build?); its addresses get kallsyms names only")
        .str();
  return ("'" + P.Table + "': the table is not of the build of module '" +
          P.Module + "' that runs: its functions lie apart differently (" +
          Twine(P.OffsetChanges) + " changes of offset over " +
          Twine(P.Anchors) +
          " functions); its addresses get kallsyms names "
          "only")
      .str();
}

} // namespace dwarfpack
