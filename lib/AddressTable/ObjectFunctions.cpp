//===- ObjectFunctions.cpp - The address model of one object
//---------------===//
//
// The ELF side of the address model (the module's identity, the functions
// only symbols describe) and convertObject(), which puts it together with
// the DWARF walk.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/DenseKeys.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {

namespace {

template <typename ELFT>
Error readIdentity(const ELFObjectFile<ELFT> &Obj, bool Relocatable,
                   ArrayRef<PlacedSection> Layout, FunctionModel &M,
                   WarningLog &Log) {
  const ELFFile<ELFT> &EF = Obj.getELFFile();
  M.IsLittleEndian = ELFT::Endianness == llvm::endianness::little;
  M.AddressBytes = ELFT::Is64Bits ? 8 : 4;
  auto SectionsOrErr = EF.sections();
  if (!SectionsOrErr)
    return SectionsOrErr.takeError();

  // Base address: the first PT_LOAD (none in relocatable objects).
  M.BaseAddress = 0;
  if (!Relocatable) {
    auto PhdrsOrErr = EF.program_headers();
    if (!PhdrsOrErr)
      return PhdrsOrErr.takeError();
    for (const auto &P : *PhdrsOrErr)
      if (P.p_type == ELF::PT_LOAD) {
        M.BaseAddress = P.p_vaddr;
        break;
      }
  }

  // Executable sections: our layout of a relocatable object's.
  M.ExecutableRanges.clear();
  if (Relocatable) {
    for (const PlacedSection &P : Layout)
      M.ExecutableRanges.push_back({P.Start, P.Start + P.Size});
  } else {
    for (const auto &S : *SectionsOrErr)
      if ((S.sh_flags & ELF::SHF_EXECINSTR) && (S.sh_flags & ELF::SHF_ALLOC) &&
          S.sh_size != 0)
        M.ExecutableRanges.push_back({S.sh_addr, S.sh_addr + S.sh_size});
  }
  llvm::sort(M.ExecutableRanges);

  LoadSegmentNotes Notes;
  Expected<std::vector<LoadSegment>> Segments = readLoadSegments(Obj, &Notes);
  if (!Segments)
    return Segments.takeError();
  M.LoadSegments = std::move(*Segments);
  if (Notes.Dropped)
    Log.report("overlapping-segments",
               Twine(Notes.Dropped) +
                   " PT_LOAD segment(s) whose file bytes overlap another's "
                   "left out of the load map");
  if (Notes.Reconstructed)
    Log.note("reconstructed-segments",
             "a separate debug file: the binary's file offsets were "
             "reconstructed from the segments' addresses");
  ArrayRef<uint8_t> BuildId = gnuBuildId(Obj);
  if (BuildId.size() > 20)
    Log.report("build-id-too-long",
               "build-id of " + Twine(BuildId.size()) +
                   " bytes does not fit GSYM's 20-byte UUID; omitted");
  else
    M.UUID.assign(BuildId.begin(), BuildId.end());
  return Error::success();
}

} // namespace

Error readModuleIdentity(const input::InputObject &In, FunctionModel &M,
                         WarningLog &Log) {
  const ObjectFile &O = In.object();
  bool Rel = In.isRelocatable();
  if (auto *E = dyn_cast<ELF32LEObjectFile>(&O))
    return readIdentity(*E, Rel, In.layout(), M, Log);
  if (auto *E = dyn_cast<ELF32BEObjectFile>(&O))
    return readIdentity(*E, Rel, In.layout(), M, Log);
  if (auto *E = dyn_cast<ELF64LEObjectFile>(&O))
    return readIdentity(*E, Rel, In.layout(), M, Log);
  if (auto *E = dyn_cast<ELF64BEObjectFile>(&O))
    return readIdentity(*E, Rel, In.layout(), M, Log);
  return createStringError(inconvertibleErrorCode(), "not an ELF file");
}

namespace {

/// The function symbols of an object (and of its debug file), or with
/// AllKinds every symbol llvm-symbolizer answers DATA queries from, before
/// one name per address is chosen.
class SymbolCollector {
public:
  struct Candidate {
    uint64_t Addr, Size;
    StringRef Name;
    bool Typed;
    /// The STT_FILE symbol before a local symbol (SymbolFile).
    std::optional<StringRef> File;
  };

  SymbolCollector(const input::InputObject &In, bool AllKinds, bool KeepTags)
      : In(In), AllKinds(AllKinds), KeepTags(KeepTags),
        Arm(cast<ELFObjectFileBase>(In.object()).getEMachine() == ELF::EM_ARM) {
    for (const PlacedSection &P : In.layout())
      SectionBase[P.Index] = P.Start;
  }

  /// Visits the symbols of one table of From (an object's .symtab or
  /// .dynsym), in order.
  template <typename Range>
  void visitAll(const ELFObjectFileBase &From, Range Symbols) {
    CurrentFile.reset();
    for (const ELFSymbolRef &Sym : Symbols)
      visit(From, Sym);
  }

  /// The candidates, without untyped labels at a typed symbol's address
  /// (unless AllKinds, as llvm-symbolizer keeps them).
  std::vector<Candidate> take() {
    // An untyped label at a function's address is an alias of it.
    if (!AllKinds)
      llvm::erase_if(Cands, [&](const Candidate &C) {
        return !C.Typed && isDenseKey(C.Addr) && TypedAddrs.count(C.Addr);
      });
    return std::move(Cands);
  }

private:
  void visit(const ELFObjectFileBase &From, const ELFSymbolRef &Sym);
  /// Where a symbol lies: its (untagged) address, its section's end, and
  /// the tag its value carries (as a difference, 0 when none).
  struct Place {
    uint64_t Addr, SecEnd, Tag;
  };
  /// Where the symbol lies, when in an executable section (any allocated
  /// one with AllKinds).
  std::optional<Place> place(const ELFObjectFileBase &From,
                             const ELFSymbolRef &Sym, bool Typed);

  const input::InputObject &In;
  /// Data objects too, in any allocated section (SymbolizableObjectFile's
  /// list: STT_FUNC, STT_GNU_IFUNC, STT_OBJECT, STT_NOTYPE).
  const bool AllKinds;
  /// AllKinds' symbols keep the tag of a tagged value.
  const bool KeepTags;
  const bool Arm; ///< Typed symbols' values have the Thumb bit.
  DenseMap<uint64_t, uint64_t> SectionBase;
  // The STT_FILE symbol that precedes a local symbol names its file, as
  // llvm-symbolizer reads it (FunctionEntry::SymbolFile).
  std::optional<StringRef> CurrentFile;
  std::vector<Candidate> Cands;
  DenseSet<uint64_t> TypedAddrs;
};

void SymbolCollector::visit(const ELFObjectFileBase &From,
                            const ELFSymbolRef &Sym) {
  uint8_t Type = Sym.getELFType();
  if (Type == ELF::STT_FILE) {
    Expected<StringRef> NameOrErr = Sym.getName();
    CurrentFile = NameOrErr ? *NameOrErr : StringRef();
    if (!NameOrErr)
      consumeError(NameOrErr.takeError());
    return;
  }
  bool Typed = Type == ELF::STT_FUNC || Type == ELF::STT_GNU_IFUNC;
  if (!Typed && Type != ELF::STT_NOTYPE &&
      !(AllKinds && Type == ELF::STT_OBJECT))
    return;
  Expected<StringRef> NameOrErr = Sym.getName();
  if (!NameOrErr) {
    consumeError(NameOrErr.takeError());
    return;
  }
  StringRef Name = *NameOrErr;
  // Mapping symbols ($x, $d, $a, $t, ...) and assembler-local labels.
  if (Name.empty() || Name.starts_with("$") || Name.starts_with(".L"))
    return;
  std::optional<Place> Placed = place(From, Sym, Typed);
  if (!Placed)
    return;
  uint64_t Addr = Placed->Addr;
  uint64_t Size = std::min<uint64_t>(Sym.getSize(), Placed->SecEnd - Addr);
  if (KeepTags)
    Addr += Placed->Tag;
  std::optional<StringRef> File;
  if (Sym.getBinding() == ELF::STB_LOCAL)
    File = CurrentFile;
  Cands.push_back({Addr, Size, Name, Typed, File});
  if (Typed && isDenseKey(Addr))
    TypedAddrs.insert(Addr);
}

std::optional<SymbolCollector::Place>
SymbolCollector::place(const ELFObjectFileBase &From, const ELFSymbolRef &Sym,
                       bool Typed) {
  Expected<section_iterator> SecOrErr = Sym.getSection();
  if (!SecOrErr) {
    consumeError(SecOrErr.takeError());
    return std::nullopt;
  }
  if (*SecOrErr == From.section_end())
    return std::nullopt;
  ELFSectionRef Sec(**SecOrErr);
  if (!(Sec.getFlags() & (AllKinds ? ELF::SHF_ALLOC : ELF::SHF_EXECINSTR)))
    return std::nullopt;
  Expected<uint64_t> ValueOrErr = Sym.getValue();
  if (!ValueOrErr) {
    consumeError(ValueOrErr.takeError());
    return std::nullopt;
  }
  uint64_t Value = *ValueOrErr;
  if (Arm && Typed)
    Value &= ~1ULL; // Thumb bit
  // HWASan gives each global a tag in its address's top byte, which its
  // symbol's value carries: the global lies at the value without it (bit
  // 55 extended, as llvm-symbolizer untags, so that a kernel's addresses
  // keep their ones). Functions are never tagged.
  const uint64_t Tagged = Value;
  if (AllKinds)
    Value = uint64_t(int64_t(Value << 8) >> 8);
  uint64_t Addr = Value;
  uint64_t SecStart = Sec.getAddress(), SecEnd = SecStart + Sec.getSize();
  if (In.isRelocatable()) {
    auto It = SectionBase.find(Sec.getIndex());
    if (It == SectionBase.end())
      return std::nullopt;
    Addr = It->second + Value;
    SecStart = It->second;
    SecEnd = SecStart + Sec.getSize();
  }
  // Section end markers such as _etext name no function; llvm-symbolizer
  // keeps them among data symbols (_edata, _end).
  if (Addr < SecStart || Addr > SecEnd || (Addr == SecEnd && !AllKinds))
    return std::nullopt;
  return Place{Addr, SecEnd, Tagged - Value};
}

} // namespace

/// The symbols of In's tables that SymbolCollector keeps, one per address.
static std::vector<SymbolFunction> collectSymbols(const input::InputObject &In,
                                                  bool AllKinds,
                                                  bool KeepTags = false) {
  const auto &Obj = cast<ELFObjectFileBase>(In.object());
  SymbolCollector Collector(In, AllKinds, KeepTags);
  Collector.visitAll(Obj, Obj.symbols());
  // A stripped binary's symbol table is in its debug file; the dynamic
  // symbols stay in the binary (the debug file has them as NOBITS).
  if (const input::InputObject *Debug = In.debugFile()) {
    const auto &DebugObj = cast<ELFObjectFileBase>(Debug->object());
    Collector.visitAll(DebugObj, DebugObj.symbols());
  }
  // As llvm-symbolizer, .dynsym only without .symtab (a stripped binary):
  // the two list the same exported functions, and which of several aliases
  // names an address depends on the one table's order.
  if (Obj.symbols().empty()) {
    // Without a debug file, a stripped binary's MiniDebugInfo has the
    // symbols that stripping removed and .dynsym does not list (static
    // functions), as GDB and perf read them.
    if (const ELFObjectFileBase *Mini = In.miniDebugInfo())
      if (!In.debugFile())
        Collector.visitAll(*Mini, Mini->symbols());
    Collector.visitAll(Obj, Obj.getDynamicSymbolIterators());
  }

  // One name per address, chosen as llvm-symbolizer 19 chooses among
  // aliases (SymbolizableObjectFile: a stable sort by address and size,
  // the last of each address kept): the largest size, then the last in
  // table order.
  std::vector<SymbolCollector::Candidate> Cands = Collector.take();
  std::stable_sort(Cands.begin(), Cands.end(),
                   [](const auto &A, const auto &B) {
                     return std::tie(A.Addr, A.Size) < std::tie(B.Addr, B.Size);
                   });
  std::vector<SymbolFunction> Syms;
  Syms.reserve(Cands.size());
  for (size_t I = 0; I < Cands.size(); ++I)
    if (I + 1 == Cands.size() || Cands[I + 1].Addr != Cands[I].Addr)
      Syms.push_back({{Cands[I].Addr, Cands[I].Addr + Cands[I].Size},
                      Cands[I].Name,
                      Cands[I].File});
  return Syms;
}

std::vector<SymbolFunction>
collectSymbolFunctions(const input::InputObject &In) {
  return collectSymbols(In, /*AllKinds=*/false);
}

std::vector<SymbolFunction>
collectSymbolizerSymbols(const input::InputObject &In, bool KeepTags) {
  return collectSymbols(In, /*AllKinds=*/true, KeepTags);
}

uint64_t addSymbolFunctions(ArrayRef<SymbolFunction> Syms, FunctionModel &M) {
  // Made in place in the model: an entry is 272 bytes, and building a list
  // first and appending it moved each one twice more (a kernel has 46,000).
  std::vector<FunctionEntry> &Fs = M.functions();
  Fs.reserve(Fs.size() + Syms.size());
  for (const SymbolFunction &S : Syms) {
    FunctionEntry &F = Fs.emplace_back();
    F.Range = S.Range;
    F.Name = M.saveString(S.Name);
    if (S.File)
      F.SymbolFile = M.addFilePath(*S.File);
  }
  return Syms.size();
}

uint64_t readSymbolFunctions(const input::InputObject &In, FunctionModel &M) {
  return addSymbolFunctions(collectSymbolFunctions(In), M);
}

Error convertObject(const input::InputObject &Obj, FunctionModel &M,
                    const ConvertOptions &Options, WarningLog &Log,
                    ConvertStats *StatsOut) {
  ConvertStats Stats;
  Stats.DebugBytes = Obj.debugBytes();
  if (Error E = readModuleIdentity(Obj, M, Log))
    return createFileError(Obj.path(), std::move(E));
  std::vector<input::WalkItem> Units = input::compileUnits(Obj);
  Stats.CompileUnits = Units.size();
  FunctionVisitor Functions(Obj, M);
  input::WalkOptions W;
  W.Threads = Options.NumThreads;
  W.Progress = Options.Progress;
  if (Error E = input::walkUnits(Obj, Units, {&Functions}, W, Log))
    return createFileError(Obj.path(), std::move(E));
  Stats.DwarfFunctions = Functions.numDwarfFunctions();
  Stats.SymbolFunctions = readSymbolFunctions(Obj, M);
  if (StatsOut)
    *StatsOut = Stats;
  return Error::success();
}

} // namespace dwarfpack
