//===- InputObject.cpp - An object file opened and checked once -----------===//

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/Support/DwarfSections.h"
#include "dwarfpack/Support/ElfTables.h"
#include "dwarfpack/Support/SupplementaryDwarf.h"
#include "dwarfpack/Support/UnitIndex.h"

#include "MiniDebugInfo.h"
#include "Relocations.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Decompressor.h"
#include "llvm/Object/ELFObjectFile.h"

#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {
namespace input {

namespace {

Error inputError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The section kind a name stands for, and whether it is a .dwo form.
std::optional<std::pair<Sec, bool>> sectionKind(StringRef Name) {
  bool Dwo = Name.consume_back(".dwo");
  static const std::pair<const char *, Sec> Kinds[] = {
      {".debug_info", Sec::Info},
      {".debug_types", Sec::Types},
      {".debug_abbrev", Sec::Abbrev},
      {".debug_str", Sec::Str},
      {".debug_line_str", Sec::LineStr},
      {".debug_str_offsets", Sec::StrOffsets},
      {".debug_addr", Sec::Addr},
      {".debug_ranges", Sec::Ranges},
      {".debug_rnglists", Sec::RngLists},
      {".debug_loclists", Sec::LocLists},
      {".debug_loc", Sec::Loc},
      {".debug_line", Sec::Line},
      {".debug_cu_index", Sec::CuIndex},
      {".debug_tu_index", Sec::TuIndex}};
  for (const auto &[N, K] : Kinds)
    if (Name == N)
      return std::make_pair(K, Dwo);
  return std::nullopt;
}

/// Sections that have no .dwo form: a split unit's file shares them.
bool sharedByBothForms(Sec K) {
  return K == Sec::CuIndex || K == Sec::TuIndex || K == Sec::LineStr ||
         K == Sec::Addr;
}

} // namespace

InputObject::InputObject() = default;
InputObject::~InputObject() = default;

Expected<std::unique_ptr<InputObject>>
InputObject::open(StringRef Path, WarningLog &Log, const OpenOptions &Opts) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createFileError(Path, errorCodeToError(Buf.getError()));
  return open(std::move(*Buf), Path, Log, Opts);
}

Expected<std::unique_ptr<InputObject>>
InputObject::open(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                  WarningLog &Log, const OpenOptions &Opts) {
  std::unique_ptr<InputObject> O(new InputObject());
  O->Path = Name.str();
  O->FileMapping = Buffer->getBufferKind() == MemoryBuffer::MemoryBuffer_MMap;
  O->Bytes = MemoryBufferRef(Buffer->getBuffer(), O->Path);
  O->Owned = std::move(Buffer);
  if (Error E = O->load(Log, Opts))
    return createFileError(O->Path, std::move(E));
  return std::move(O);
}

Expected<std::unique_ptr<InputObject>>
InputObject::open(MemoryBufferRef Buffer, WarningLog &Log,
                  const OpenOptions &Opts) {
  std::unique_ptr<InputObject> O(new InputObject());
  O->Path = Buffer.getBufferIdentifier().str();
  O->FileMapping = Opts.BufferIsFileMapping;
  O->Bytes = MemoryBufferRef(Buffer.getBuffer(), O->Path);
  if (Error E = O->load(Log, Opts))
    return createFileError(O->Path, std::move(E));
  return std::move(O);
}

bool InputObject::hasDebugInfo() const {
  return !dwarf().section(Sec::Info).empty() ||
         !dwarf().section(Sec::Types).empty();
}

const object::ObjectFile &InputObject::symbolTableObject() const {
  if (Debug && Obj->symbols().empty())
    return Debug->object();
  return *Obj;
}

void InputObject::openMiniDebugInfo(WarningLog &Log) {
  std::optional<SectionRef> Section;
  for (const SectionRef &S : Obj->sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".gnu_debugdata")
      Section = S;
    else if (!Name)
      consumeError(Name.takeError());
  }
  if (!Section)
    return;
  auto Fail = [&](Error E) {
    Log.report("mini-debuginfo",
               "'.gnu_debugdata' (MiniDebugInfo): " + toString(std::move(E)) +
                   "; its symbols are not used");
  };
  Expected<StringRef> Compressed = Section->getContents();
  if (!Compressed)
    return Fail(Compressed.takeError());
  Expected<std::unique_ptr<MemoryBuffer>> Bytes = decompressXz(*Compressed);
  if (!Bytes)
    return Fail(Bytes.takeError());
  Expected<std::unique_ptr<ObjectFile>> Inner =
      ObjectFile::createObjectFile((*Bytes)->getMemBufferRef());
  if (!Inner)
    return Fail(Inner.takeError());
  if (!isa<ELFObjectFileBase>(Inner->get()))
    return Fail(inputError("the xz data is not an ELF file"));
  if (Error E = checkElfTables(**Inner))
    return Fail(std::move(E));
  MiniBytes = std::move(*Bytes);
  MiniObj.reset(cast<ELFObjectFileBase>(Inner->release()));
}

Error InputObject::load(WarningLog &Log, const OpenOptions &Opts) {
  switch (identify_magic(Bytes.getBuffer())) {
  case file_magic::elf:
  case file_magic::elf_relocatable:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::elf_core:
    break;
  default:
    return inputError("not an ELF file");
  }
  Expected<std::unique_ptr<ObjectFile>> O = ObjectFile::createObjectFile(Bytes);
  if (!O)
    return O.takeError();
  if (!isa<ELFObjectFileBase>(O->get()))
    return inputError("not an ELF file");
  Obj = std::move(*O);
  if (Error E = checkElfTables(*Obj))
    return E;
  if (Error E = checkDebugSectionsReadable(*Obj, /*ReadsGnuCompression=*/true))
    return E;
  if (Obj->isRelocatableObject())
    Layout = relocatableLayout(*Obj);
  else if (Obj->symbols().empty())
    openMiniDebugInfo(Log);

  bool IsDwo = false;
  Expected<std::vector<Part>> Parts = collectSections(Opts.DwoSections, IsDwo);
  if (!Parts)
    return Parts.takeError();
  if (Obj->isRelocatableObject())
    if (Error E = relocate(*Parts, Log))
      return E;
  assemble(*Parts, IsDwo);
  // A package finds its units through its indexes: a damaged one makes it
  // unusable.
  if (IsDwo) {
    if (Error E = checkUnitIndex(Dwarf->section(Sec::CuIndex), isLittleEndian(),
                                 /*IsTypeIndex=*/false))
      return E;
    if (Error E = checkUnitIndex(Dwarf->section(Sec::TuIndex), isLittleEndian(),
                                 /*IsTypeIndex=*/true))
      return E;
  }
  UnitProblems = scanUnitsFromFile();
  Released.assign(size_t(Sec::NumKinds), 0);
  if (Opts.CheckAllUnits) {
    // What the units' DIEs report is reported once, here: other files'
    // units reach into them at any time.
    Unit U;
    for (const UnitHeader &H : Dwarf->units()) {
      if (Error E = U.parse(*Dwarf, H)) {
        if (isSectionOverrun(E))
          return E;
        UnitProblems.push_back(toString(std::move(E)));
      } else if (!U.partialProblem().empty()) {
        UnitProblems.push_back(U.partialProblem().str());
      }
    }
  }
  Splits = std::make_unique<SplitUnits>(Path, Opts.Package);
  // A stripped binary keeps dwz's link to a file that only its DWARF
  // (in its debug file, opened below) refers to: without units nothing
  // is missing.
  if (Opts.Supplementary && !IsDwo && !Dwarf->units().empty())
    openSupplementary(Log, Opts);
  if (!Opts.DebugFile.empty())
    return openDebugFile(Log, Opts);
  return Error::success();
}

Error InputObject::openDebugFile(WarningLog &Log, const OpenOptions &Opts) {
  if (isRelocatable())
    return inputError("a relocatable object has no separate debug file ('" +
                      Opts.DebugFile + "' given)");
  OpenOptions DebugOpts = Opts;
  DebugOpts.DebugFile.clear();
  Expected<std::unique_ptr<InputObject>> D =
      InputObject::open(Opts.DebugFile, Log, DebugOpts);
  if (!D)
    return D.takeError();
  if (Error E = checkSameBuild(*Obj, (*D)->object(), Opts.DebugFile))
    return E;
  Debug = std::move(*D);
  return Error::success();
}

Expected<std::vector<InputObject::Part>>
InputObject::collectSections(bool WantDwo, bool &IsDwo) {
  struct Found {
    Sec Kind;
    bool Dwo, Gnu;
    SectionRef Section;
    StringRef Name;
  };
  std::vector<Found> All;
  bool HasPlainInfo = false, HasDwoInfo = false;
  for (const SectionRef &Section : Obj->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    // The legacy GNU compression names the section it compresses with a
    // 'z': .zdebug_info is .debug_info.
    const bool Gnu = Name->starts_with(".zdebug_");
    if (Name->starts_with(".debug_") || Gnu)
      DebugBytes += Section.getSize();
    std::optional<std::pair<Sec, bool>> Kind =
        sectionKind(Gnu ? ("." + Name->drop_front(2)).str() : *Name);
    if (!Kind || Section.isBSS() || Section.isVirtual())
      continue;
    if (Kind->first == Sec::Info || Kind->first == Sec::Types)
      (Kind->second ? HasDwoInfo : HasPlainInfo) = true;
    All.push_back({Kind->first, Kind->second, Gnu, Section, *Name});
  }
  // The plain forms, unless asked for the .dwo forms or there are no
  // others.
  IsDwo = WantDwo || (HasDwoInfo && !HasPlainInfo);
  std::vector<Part> Parts;
  for (const Found &F : All) {
    if (F.Dwo != IsDwo && !sharedByBothForms(F.Kind))
      continue;
    Expected<StringRef> Data = F.Section.getContents();
    if (!Data)
      return Data.takeError();
    Part P{F.Kind, F.Section.getIndex(), *Data};
    if (F.Gnu) {
      Expected<GnuCompressedSection> G =
          readGnuCompressedSection(F.Name, *Data);
      if (!G)
        return G.takeError();
      Expected<std::unique_ptr<char[]>> Out = decompressGnuSection(*G);
      if (!Out)
        return inputError("failed to decompress '" + F.Name + "', " +
                          toString(Out.takeError()));
      P.Bytes = StringRef(Out->get(), G->Size);
      P.Writable = Out->get();
      Copies.push_back(std::move(*Out));
    } else if (F.Section.isCompressed()) {
      Expected<Decompressor> D = Decompressor::create(
          F.Name, *Data, Obj->isLittleEndian(), Obj->getBytesInAddress() == 8);
      if (!D)
        return inputError("failed to decompress '" + F.Name + "', " +
                          toString(D.takeError()));
      size_t Size = D->getDecompressedSize();
      std::unique_ptr<char[]> Out(new char[Size]);
      if (Error E = D->decompress(MutableArrayRef<uint8_t>(
              reinterpret_cast<uint8_t *>(Out.get()), Size)))
        return inputError("failed to decompress '" + F.Name + "', " +
                          toString(std::move(E)));
      P.Bytes = StringRef(Out.get(), Size);
      P.Writable = Out.get();
      Copies.push_back(std::move(Out));
    }
    Parts.push_back(std::move(P));
  }
  return std::move(Parts);
}

Error InputObject::relocate(std::vector<Part> &Parts, WarningLog &Log) {
  DenseMap<uint64_t, size_t> PartOf; // ELF section index -> part
  for (size_t I = 0; I < Parts.size(); ++I)
    PartOf[Parts[I].Index] = I;
  RelocationApplier Apply(*Obj, Layout);
  for (const SectionRef &RelSec : Obj->sections()) {
    Expected<section_iterator> Target = RelSec.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == Obj->section_end())
      continue;
    auto It = PartOf.find((*Target)->getIndex());
    if (It == PartOf.end())
      continue;
    Part &P = Parts[It->second];
    if (!P.Writable) {
      // Relocations write into a copy; the file stays untouched.
      std::unique_ptr<char[]> Copy(new char[P.Bytes.size()]);
      memcpy(Copy.get(), P.Bytes.data(), P.Bytes.size());
      P.Writable = Copy.get();
      P.Bytes = StringRef(Copy.get(), P.Bytes.size());
      Copies.push_back(std::move(Copy));
    }
    P.HasRelocations = true;
    Apply.apply(RelSec, MutableArrayRef<char>(P.Writable, P.Bytes.size()),
                P.Relocated);
  }
  Apply.report(Log);
  return Error::success();
}

void InputObject::assemble(std::vector<Part> &Parts, bool IsDwo) {
  DwarfSections S;
  std::array<RelocatedOffsets, size_t(Sec::NumKinds)> Relocated;
  std::array<bool, size_t(Sec::NumKinds)> HasRelocated{};
  for (size_t K = 0; K < size_t(Sec::NumKinds); ++K) {
    SmallVector<Part *, 1> OfKind;
    for (Part &P : Parts)
      if (size_t(P.Kind) == K)
        OfKind.push_back(&P);
    if (OfKind.empty())
      continue;
    if (OfKind.size() == 1) {
      S.Data[K] = OfKind.front()->Bytes;
      Relocated[K] = std::move(OfKind.front()->Relocated);
      HasRelocated[K] = OfKind.front()->HasRelocations;
      continue;
    }
    // Several sections of one kind (type units in COMDAT groups of an
    // object file): one after another, their units unchanged.
    size_t Size = 0;
    for (Part *P : OfKind)
      Size += P->Bytes.size();
    std::unique_ptr<char[]> Joined(new char[Size]);
    size_t At = 0;
    for (Part *P : OfKind) {
      memcpy(Joined.get() + At, P->Bytes.data(), P->Bytes.size());
      Relocated[K].appendShifted(P->Relocated, At);
      HasRelocated[K] |= P->HasRelocations;
      At += P->Bytes.size();
    }
    S.Data[K] = StringRef(Joined.get(), Size);
    Copies.push_back(std::move(Joined));
  }
  Dwarf = std::make_unique<DwarfFile>(S, Obj->isLittleEndian(), IsDwo, Path);
  if (Obj->isRelocatableObject())
    for (size_t K = 0; K < size_t(Sec::NumKinds); ++K)
      Dwarf->setRelocated(Sec(K), std::move(Relocated[K]));
}

void InputObject::openSupplementary(WarningLog &Log, const OpenOptions &Opts) {
  auto Missing = [&](Error E) {
    std::string Msg = toString(std::move(E));
    if (!Opts.SupConsequence.empty())
      Msg += ": " + Opts.SupConsequence;
    Log.report("missing-supplementary", Msg);
  };
  Expected<std::optional<std::string>> SupPath =
      findSupplementaryFile(*Obj, Path);
  if (!SupPath)
    return Missing(SupPath.takeError());
  if (!*SupPath)
    return;
  OpenOptions SupOpts;
  SupOpts.Supplementary = false;
  SupOpts.CheckAllUnits = true;
  Expected<std::unique_ptr<InputObject>> S =
      InputObject::open(**SupPath, Log, SupOpts);
  if (!S)
    return Missing(S.takeError());
  Sup = std::move(*S);
  for (const std::string &P : Sup->unitProblems())
    Log.report("dwarf-warning", "'" + Sup->path() + "': " + P);
  Dwarf->Sup = &Sup->dwarf();
}

//===----------------------------------------------------------------------===//
// Reading the file's pages with care for the resident set
//===----------------------------------------------------------------------===//

std::vector<std::string> InputObject::scanUnitsFromFile() {
  // Unit headers are a few bytes in each of a big object's pages: reading
  // them from the mapping would bring all of .debug_info into memory
  // (fault-around maps whole blocks) before the walk frees it page by page.
  StringRef File = Bytes.getBuffer();
  int Fd = FileMapping ? ::open(Path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
  auto Read = [&](Sec S, uint64_t Offset, void *Buf, size_t Len) {
    StringRef Data = Dwarf->section(S);
    if (Fd < 0 || Data.data() < File.data() ||
        Data.data() + Data.size() > File.data() + File.size())
      return false;
    uint64_t At = (Data.data() - File.data()) + Offset;
    return pread(Fd, Buf, Len, At) == ssize_t(Len);
  };
  std::vector<std::string> Problems =
      Fd >= 0 ? Dwarf->scanUnits(Read) : Dwarf->scanUnits();
  if (Fd >= 0)
    ::close(Fd);
  return Problems;
}

void InputObject::releaseSectionPrefix(Sec S, uint64_t Size) const {
  if (Debug)
    return Debug->releaseSectionPrefix(S, Size);
  StringRef Data = Dwarf->section(S);
  StringRef File = Bytes.getBuffer();
  if (!FileMapping || Size > Data.size() || Data.data() < File.data() ||
      Data.data() + Data.size() > File.data() + File.size())
    return;
  static const uintptr_t Page = sysconf(_SC_PAGESIZE);
  // A page fault maps more than its page: the pages around it that are in
  // the page cache (fault-around, 64 KiB by default) or the whole large
  // folio that holds it (up to 2 MiB). Reading the next unit brings back
  // released pages of its block, so each release starts again at the 2 MiB
  // block of the last one (a few hundred page table entries to clear).
  const uintptr_t FaultAround = std::max<uintptr_t>(Page, 2 * 1024 * 1024);
  uint64_t &Done = Released[size_t(S)];
  uintptr_t Begin =
      std::max((uintptr_t(Data.data()) + Done) & ~(FaultAround - 1),
               uintptr_t(Data.data()) & ~(Page - 1));
  uintptr_t End = uintptr_t(Data.data() + Size) & ~(Page - 1);
  if (End > Begin) {
    madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_DONTNEED);
    ++Releases;
  }
  Done = std::max<uint64_t>(Done, Size);
}

} // namespace input
} // namespace dwarfpack
