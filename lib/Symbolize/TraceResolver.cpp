//===- TraceResolver.cpp - Which table answers a frame of a trace ---------===//

#include "dwarfpack/Symbolize/TraceResolver.h"

#include "dwarfpack/Support/BuildId.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

static Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<SmallVector<uint8_t, 20>> readFileBuildId(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Bytes)
    return createFileError(Path, errorCodeToError(Bytes.getError()));
  Expected<SmallVector<uint8_t, 20>> Id = readBuildId(**Bytes);
  if (!Id)
    return createFileError(Path, Id.takeError());
  return Id;
}

//===----------------------------------------------------------------------===//
// DsoTables
//===----------------------------------------------------------------------===//

void DsoTables::setTable(StringRef Path, std::string TablePath) {
  Entry &E = Entries[Path];
  E.TablePath = std::move(TablePath);
  E.Owned.reset();
  E.Table = nullptr;
}

void DsoTables::setBuildId(StringRef Path, ArrayRef<uint8_t> Id) {
  Entries[Path].BuildId.emplace(Id.begin(), Id.end());
}

Error DsoTables::addBuildIdList(StringRef Text, StringRef FileName) {
  size_t LineNo = 0;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty())
      continue;
    auto [Hex, Path] = Line.split(' ');
    Path = Path.trim();
    Expected<SmallVector<uint8_t, 20>> Id = parseBuildId(Hex);
    if (!Id || Path.empty()) {
      if (!Id)
        consumeError(Id.takeError());
      return failure("'" + FileName + "' line " + Twine(LineNo) +
                     ": expected '<build-id> <path>' (as perf buildid-list "
                     "prints them)");
    }
    setBuildId(Path, *Id);
  }
  return Error::success();
}

Expected<const AddressSymbolizer &> DsoTables::table(StringRef Path) {
  Entry &E = Entries[Path];
  if (E.Table)
    return *E.Table;
  if (!E.TablePath.empty()) {
    Expected<std::unique_ptr<AddressSymbolizer>> T = Open(E.TablePath);
    if (!T)
      return T.takeError();
    E.Owned = std::move(*T);
    E.Table = E.Owned.get();
    return *E.Table;
  }
  return byBuildId(Path, E);
}

Expected<const AddressSymbolizer &> DsoTables::byBuildId(StringRef Path,
                                                         Entry &E) {
  // The file is read once: a trace names each DSO many times.
  if (!E.BuildId && E.NoBuildId.empty()) {
    if (!sys::fs::exists(Path)) {
      E.NoBuildId = "the file is not on this machine and no build-id list "
                    "names it";
    } else if (Expected<SmallVector<uint8_t, 20>> Id = readFileBuildId(Path);
               !Id) {
      E.NoBuildId = toString(Id.takeError());
    } else if (Id->empty()) {
      E.NoBuildId = "the file has no build-id";
    } else {
      E.BuildId = std::move(*Id);
      E.BuildIdFromFile = true;
    }
  }
  if (!E.BuildId)
    return failure("no table for '" + Path + "': " + E.NoBuildId);
  if (Main && !Main->uuid().empty() && Main->uuid() == ArrayRef(*E.BuildId))
    return *(E.Table = Main);
  std::string Missing;
  if (Store) {
    Expected<const AddressSymbolizer &> T = Store->open(*E.BuildId);
    if (T)
      return *(E.Table = &*T);
    Missing = ("'" + Path + "': " + toString(T.takeError())).str();
  } else {
    Missing = ("no table for '" + Path + "' (build-id " +
               toHex(*E.BuildId, true) + "): no store to look it up in")
                  .str();
  }
  if (const AddressSymbolizer *T = fromBinary(Path, E))
    return *T;
  return failure(Missing + (E.NoBinary.empty() ? "" : "; " + E.NoBinary));
}

const AddressSymbolizer *DsoTables::fromBinary(StringRef Path, Entry &E) {
  // Tried once: a trace names each DSO many times.
  if (!OpenBinary || !E.NoBinary.empty())
    return nullptr;
  if (!E.BuildIdFromFile) {
    Expected<SmallVector<uint8_t, 20>> Id = readFileBuildId(Path);
    if (!Id) {
      E.NoBinary = sys::fs::exists(Path) ? toString(Id.takeError())
                                         : "the file is not on this machine";
      consumeError(Id.takeError());
      return nullptr;
    }
    if (*Id != *E.BuildId) {
      E.NoBinary = "the file on this machine is of build-id " +
                   (Id->empty() ? std::string("none") : toHex(*Id, true));
      return nullptr;
    }
  }
  Expected<std::unique_ptr<AddressSymbolizer>> T = OpenBinary(Path);
  if (!T) {
    E.NoBinary = "the file on this machine: " + toString(T.takeError());
    return nullptr;
  }
  E.Owned = std::move(*T);
  return E.Table = E.Owned.get();
}

//===----------------------------------------------------------------------===//
// KernelModuleTables
//===----------------------------------------------------------------------===//

Expected<const AddressSymbolizer *>
KernelModuleTables::table(StringRef Module, ArrayRef<uint8_t> Id) {
  std::string Path = Dir ? Dir->find(Module, Id) : "";
  if (Path.empty()) {
    if (!Store || Id.size() < 2)
      return nullptr;
    Expected<const AddressSymbolizer &> T = Store->open(Id);
    if (!T)
      return T.takeError();
    return &*T;
  }
  std::unique_ptr<AddressSymbolizer> &T = Opened[Path];
  if (!T) {
    Expected<std::unique_ptr<AddressSymbolizer>> O = Open(Path);
    if (!O)
      return O.takeError();
    T = std::move(*O);
  }
  if (!Id.empty() && !T->uuid().empty() && T->uuid() != Id)
    return failure("'" + Path + "': the table is of build-id " +
                   toHex(T->uuid(), true) + ", module '" + Module +
                   "' of the trace of build-id " + toHex(Id, true) +
                   "; its frames are left as they are");
  return T.get();
}

//===----------------------------------------------------------------------===//
// TraceResolver
//===----------------------------------------------------------------------===//

namespace {
/// What a perf DSO names: the kernel, a kernel module, a file, a mapping
/// of no file ([vdso]), nothing.
enum class ObjectKind { Kernel, Module, User, Pseudo, None };
} // namespace

/// perf's names of what is no file: `[unknown]`, `[vdso]` and the like.
static bool isPseudoObject(StringRef Name) {
  static const StringSet<> Pseudo = {"unknown",  "vdso",    "vdso32", "vdsox32",
                                     "vsyscall", "vvar",    "heap",   "stack",
                                     "anon",     "uprobes", "jit"};
  return Pseudo.contains(Name);
}

/// What perf's DSO names, and the kernel module's name for a module: perf
/// prints `[name]` or the path of its .ko.
static ObjectKind classifyObject(StringRef Dso, std::string &Module) {
  if (Dso.starts_with("[kernel.") || Dso.starts_with("[guest.kernel."))
    return ObjectKind::Kernel;
  if (Dso.size() > 2 && Dso.front() == '[' && Dso.back() == ']') {
    StringRef Name = Dso.drop_front().drop_back();
    if (isPseudoObject(Name))
      return ObjectKind::Pseudo;
    Module = Name.str();
    return ObjectKind::Module;
  }
  StringRef File = sys::path::filename(Dso);
  for (StringRef Ext : {".ko", ".ko.xz", ".ko.gz", ".ko.zst"})
    if (File.consume_back(Ext) && !File.empty()) {
      Module = File.str();
      std::replace(Module.begin(), Module.end(), '-', '_');
      return ObjectKind::Module;
    }
  return Dso.empty() ? ObjectKind::None : ObjectKind::User;
}

static Expected<LookupResult> byAddress(const AddressSymbolizer &T,
                                        uint64_t A) {
  return T.lookup(A);
}

static Expected<LookupResult> byFileOffset(const AddressSymbolizer &T,
                                           uint64_t Offset) {
  Expected<std::optional<uint64_t>> A = T.fileOffsetToAddress(Offset);
  if (!A)
    return A.takeError();
  if (!*A)
    return LookupResult();
  return T.lookup(**A);
}

Expected<LookupResult> TraceResolver::resolve(const TraceFrame &F) {
  switch (F.Kind) {
  case FrameKind::KernelSymbol:
    if (F.Symbol->Module)
      return moduleFrame(*F.Symbol->Module, F);
    return kernelFrame(F);
  case FrameKind::KernelAddress:
    return kernelFrame(F);
  case FrameKind::PerfFrame: {
    std::string Module;
    switch (classifyObject(F.Object, Module)) {
    case ObjectKind::Kernel:
      return kernelFrame(F);
    case ObjectKind::Module:
      return moduleFrame(Module, F);
    case ObjectKind::User:
      return dsoFrame(F);
    case ObjectKind::Pseudo: {
      // No file: only a table named for it answers, and none is no news.
      Expected<LookupResult> R = dsoFrame(F);
      if (R)
        return R;
      consumeError(R.takeError());
      return LookupResult();
    }
    case ObjectKind::None:
      return LookupResult();
    }
    llvm_unreachable("covered switch");
  }
  case FrameKind::Address:
  case FrameKind::Query:
    return queryFrame(F);
  }
  llvm_unreachable("covered switch");
}

/// By name where the frame gives one: KASLR moves addresses, not names.
Expected<LookupResult> TraceResolver::kernelFrame(const TraceFrame &F) {
  if (!Tables.Main)
    return LookupResult();
  if (F.Symbol) {
    SymbolQuery Q = *F.Symbol;
    Q.Module.reset();
    return byName(*Tables.Main, Q);
  }
  return byAddress(*Tables.Main, *F.Address - Tables.MainBias);
}

Expected<LookupResult> TraceResolver::moduleFrame(StringRef Module,
                                                  const TraceFrame &F) {
  if (Tables.Main && Tables.MainHasModules) {
    if (!F.Symbol)
      return byAddress(*Tables.Main, *F.Address);
    SymbolQuery Q = *F.Symbol;
    Q.Module = Module.str();
    return byName(*Tables.Main, Q);
  }
  // A module's own table is not placed where the module runs: only names
  // and offsets find its functions.
  if (!Tables.Module || !F.Symbol)
    return LookupResult();
  Expected<const AddressSymbolizer *> T = Tables.Module(Module, F.BuildId);
  if (!T)
    return T.takeError();
  if (!*T)
    return LookupResult();
  SymbolQuery Q = *F.Symbol;
  Q.Module.reset();
  return byName(**T, Q);
}

Expected<LookupResult> TraceResolver::mappedFrame(const FileLocation &L) {
  if (!Tables.Dsos)
    return LookupResult();
  Expected<const AddressSymbolizer &> T = Tables.Dsos->table(L.Path);
  if (!T)
    return T.takeError();
  return byFileOffset(*T, L.Offset);
}

std::optional<FileLocation> TraceResolver::locate(uint64_t Address) const {
  if (Tables.Maps)
    if (std::optional<FileLocation> L = Tables.Maps->fileLocation(Address))
      return L;
  if (Tables.Perf)
    return Tables.Perf->fileLocation(Address);
  return std::nullopt;
}

/// perf prints callchain addresses as the DSO's own, a sample's address
/// without a callchain as the process's: the maps tell the second (when
/// they map the address from the DSO perf names: a callchain's address
/// may fall in another file's mapping); else the symbol perf gives checks
/// the first, and answers by name when the address is not the DSO's.
Expected<LookupResult> TraceResolver::dsoFrame(const TraceFrame &F) {
  std::optional<FileLocation> L = locate(*F.Address);
  if (L && L->Path == F.Object) {
    Expected<LookupResult> R = mappedFrame(*L);
    if (R || !F.Symbol)
      return R;
    // A table without load segments still knows perf's symbol.
    Expected<LookupResult> Named = byNameIn(F.Object, *F.Symbol, F.Address);
    if (!Named || Named->Frames.empty()) {
      consumeError(Named.takeError());
      return R;
    }
    consumeError(R.takeError());
    return Named;
  }
  if (!Tables.Dsos)
    return LookupResult();
  Expected<const AddressSymbolizer &> T = Tables.Dsos->table(F.Object);
  if (!T)
    return T.takeError();
  Expected<LookupResult> R = byAddress(*T, *F.Address);
  if (!R || !F.Symbol)
    return R;
  if (!R->Frames.empty() && R->Frames.back().StartAddress + R->StartSlide ==
                                *F.Address - F.Symbol->Offset)
    return R;
  Expected<LookupResult> Named = byName(*T, *F.Symbol, F.Address);
  if (!Named || !Named->Frames.empty())
    return Named;
  return failure("'" + F.Object +
                 "': frames whose address and symbol the table does not "
                 "confirm are left as they are (absolute addresses need the "
                 "process's maps: --pid-maps, or perf script "
                 "--show-mmap-events; or is the table of another build?)");
}

Expected<LookupResult> TraceResolver::byNameIn(StringRef Dso,
                                               const SymbolQuery &Q,
                                               std::optional<uint64_t> Sample) {
  if (!Tables.Dsos)
    return LookupResult();
  Expected<const AddressSymbolizer &> T = Tables.Dsos->table(Dso);
  if (!T)
    return T.takeError();
  return byName(*T, Q, Sample);
}

Expected<LookupResult> TraceResolver::queryFrame(const TraceFrame &F) {
  const AddressSymbolizer *T = Tables.Main;
  uint64_t Bias = Tables.MainBias;
  bool Offsets = false;
  if (!F.BuildId.empty()) {
    if (!Tables.Store)
      return LookupResult();
    Expected<const AddressSymbolizer &> S = Tables.Store->open(F.BuildId);
    if (!S)
      return S.takeError();
    T = &*S;
    Bias = 0;
    Offsets = Tables.FileOffsets;
  } else if (!F.Object.empty()) {
    if (!Tables.Dsos)
      return LookupResult();
    Expected<const AddressSymbolizer &> D = Tables.Dsos->table(F.Object);
    if (!D)
      return D.takeError();
    T = &*D;
    Bias = 0;
  } else if (F.Address) {
    if (std::optional<FileLocation> L = locate(*F.Address))
      return mappedFrame(*L);
  }
  if (!T)
    return LookupResult();
  if (F.Symbol)
    return byName(*T, *F.Symbol);
  if (Offsets)
    return byFileOffset(*T, *F.Address);
  return byAddress(*T, *F.Address - Bias);
}

/// One answer at the function's start plus the offset, or none. A name
/// the table does not have may be a C++ function's as perf shows it,
/// demangled. Kernel names with GCC's suffixes (`.isra.0`, `.part.0`) that
/// a table made from DWARF does not know are tried without them, when the
/// trace's size says the function found is the clone: the original of a
/// clone or part is another function of that name, and usually longer.
Expected<LookupResult> TraceResolver::byName(const AddressSymbolizer &T,
                                             const SymbolQuery &Q,
                                             std::optional<uint64_t> Sample) {
  Expected<std::optional<LookupResult>> R =
      atNamedStart(T, Q, NameForm::Symbol, Sample);
  if (R && !*R)
    R = atNamedStart(T, Q, NameForm::Demangled, Sample);
  if (!R)
    return R.takeError();
  if (*R)
    return std::move(**R);
  size_t Dot = StringRef(Q.Name).find('.');
  if (Dot == 0 || Dot == StringRef::npos || !Q.Size)
    return LookupResult();
  SymbolQuery Base = Q;
  Base.Name = Q.Name.substr(0, Dot);
  R = atNamedStart(T, Base);
  if (!R)
    return R.takeError();
  if (!*R || (*R)->Frames.empty())
    return LookupResult();
  // The function must end where the trace's symbol does, or before.
  const SourceFrame &Outer = (*R)->Frames.back();
  uint64_t Start = Outer.StartAddress + (*R)->StartSlide;
  Expected<LookupResult> Past = T.lookup(Start + *Q.Size);
  if (!Past)
    return Past.takeError();
  if (!Past->Frames.empty() &&
      Past->Frames.back().StartAddress + Past->StartSlide == Start)
    return LookupResult();
  return std::move(**R);
}

/// std::nullopt when no function has Q's name. SymbolResolver answers an
/// offset past a function at its start, as llvm-symbolizer does; a trace's
/// frame is not there, so only answers at start plus offset count.
/// A name may be several functions' (static functions of one name in
/// different files; overloads, demangled without parameters): a DSO is
/// mapped page by page, so a function whose address differs from the
/// sample's (Sample, when given) by other than whole pages is not the
/// frame.
Expected<std::optional<LookupResult>>
TraceResolver::atNamedStart(const AddressSymbolizer &T, const SymbolQuery &Q,
                            NameForm Form, std::optional<uint64_t> Sample) {
  std::unique_ptr<SymbolResolver> &Resolver = Names[&T];
  if (!Resolver)
    Resolver = std::make_unique<SymbolResolver>(T);
  std::vector<uint64_t> Starts;
  Expected<std::vector<LookupResult>> R =
      Form == NameForm::Symbol ? Resolver->resolve(Q, &Starts)
                               : Resolver->resolveDemangled(Q, &Starts);
  if (!R)
    return R.takeError();
  if (R->empty())
    return std::nullopt;
  constexpr uint64_t MinPageSize = 4096;
  auto SamePageOffset = [&](uint64_t Address) {
    return !Sample || (Address - *Sample) % MinPageSize == 0;
  };
  std::vector<LookupResult> At;
  for (size_t I = 0; I < R->size(); ++I)
    if (!(*R)[I].Frames.empty() && (*R)[I].Address == Starts[I] + Q.Offset &&
        SamePageOffset((*R)[I].Address))
      At.push_back(std::move((*R)[I]));
  if (At.size() > 1)
    return failure("'" + Q.Name + "' names " + Twine(At.size()) +
                   " functions of the table that the offset falls in; its "
                   "frames are left as they are");
  if (At.empty())
    return LookupResult();
  return std::move(At.front());
}

} // namespace dwarfpack
