//===- OpenTable.cpp - Any file dwarfpack writes, recognised by content ---===//

#include "dwarfpack/Symbolize/OpenTable.h"

#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/CTF/SymtabOrder.h"
#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/ElfEmbed.h"

#include "llvm/Object/ObjectFile.h"

#include <optional>

using namespace llvm;

namespace dwarfpack {
namespace {

/// Upcasts a reader's Expected to the interface every format offers.
template <typename Reader>
Expected<std::unique_ptr<AddressSymbolizer>>
asSymbolizer(Expected<std::unique_ptr<Reader>> R) {
  if (!R)
    return R.takeError();
  return std::unique_ptr<AddressSymbolizer>(std::move(*R));
}

//===-- Address tables ----------------------------------------------------===//

Expected<std::unique_ptr<AddressSymbolizer>>
openGsym(std::unique_ptr<MemoryBuffer> Buffer, const OpenOptions &) {
  return asSymbolizer(gsym::GsymReader::create(std::move(Buffer)));
}

Error dumpGsym(MemoryBufferRef Buffer, raw_ostream &OS, const OpenOptions &) {
  auto R = gsym::GsymReader::create(Buffer);
  if (!R)
    return R.takeError();
  return gsym::dumpGsym(**R, OS);
}

Expected<std::unique_ptr<AddressSymbolizer>>
openCompact(std::unique_ptr<MemoryBuffer> Buffer, const OpenOptions &) {
  return asSymbolizer(compact::CompactReader::create(std::move(Buffer)));
}

Error dumpCompact(MemoryBufferRef Buffer, raw_ostream &OS,
                  const OpenOptions &) {
  auto R = compact::CompactReader::create(Buffer);
  if (!R)
    return R.takeError();
  return compact::dumpCompact(**R, OS);
}

//===-- Kernel symbol tables ----------------------------------------------===//

/// Opens a kernel symbol table as the format it was recognised as (a
/// ksym-blob has no magic number: by its structure).
template <bool Blob>
Expected<std::unique_ptr<kallsyms::SymbolReader>>
openKernelTable(std::unique_ptr<MemoryBuffer> Buffer, const OpenOptions &Opts) {
  if (Blob)
    return kallsyms::openKsymBlob(std::move(Buffer));
  kallsyms::ReaderOptions RO;
  RO.Portable = Opts.PortableReaders;
  return kallsyms::openCompact(std::move(Buffer), RO);
}

template <bool Blob>
Expected<std::unique_ptr<AddressSymbolizer>>
openKernel(std::unique_ptr<MemoryBuffer> Buffer, const OpenOptions &Opts) {
  return asSymbolizer(openKernelTable<Blob>(std::move(Buffer), Opts));
}

template <bool Blob>
Error dumpKernel(MemoryBufferRef Buffer, raw_ostream &OS,
                 const OpenOptions &Opts) {
  auto R = openKernelTable<Blob>(
      MemoryBuffer::getMemBuffer(Buffer, /*RequiresNullTerminator=*/false),
      Opts);
  if (!R)
    return R.takeError();
  return (*R)->dump(OS);
}

//===-- Type archives (no addresses) --------------------------------------===//

bool identifyCtfDict(StringRef Contents) { return ctf::isDict(Contents); }
bool identifyCtfArchive(StringRef Contents) { return ctf::isArchive(Contents); }

Error dumpCtf(MemoryBufferRef Buffer, raw_ostream &OS, const OpenOptions &) {
  return ctf::dump(Buffer.getBuffer(), OS);
}

/// The .ctf section of an ELF file, if it has one.
std::optional<object::SectionRef> ctfSection(const object::ObjectFile &Obj) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".ctf")
      return S;
    consumeError(Name.takeError());
  }
  return std::nullopt;
}

Expected<std::unique_ptr<object::ObjectFile>> openElf(MemoryBufferRef Buffer) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Buffer);
  if (Obj && !(*Obj)->isELF())
    return createStringError(inconvertibleErrorCode(), "not an ELF file");
  return Obj;
}

/// Contents opened as an ELF file to identify it; null when it is none.
std::unique_ptr<object::ObjectFile> elfToIdentify(StringRef Contents) {
  if (!startsAsElf(Contents))
    return nullptr;
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      openElf(MemoryBufferRef(Contents, ""));
  if (!Obj) {
    consumeError(Obj.takeError());
    return nullptr;
  }
  return std::move(*Obj);
}

/// An ELF file carrying a .ctf section (`dwarfpack ctf --embed`, GNU ld).
bool identifyElfWithCtf(StringRef Contents) {
  std::unique_ptr<object::ObjectFile> Obj = elfToIdentify(Contents);
  return Obj && ctfSection(*Obj).has_value();
}

/// Dumps the .ctf section, naming the entries of unindexed symbol sections
/// from the file's own symbol table.
Error dumpElfCtf(MemoryBufferRef Buffer, raw_ostream &OS, const OpenOptions &) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = openElf(Buffer);
  if (!Obj)
    return Obj.takeError();
  std::optional<object::SectionRef> Sec = ctfSection(**Obj);
  if (!Sec)
    return createStringError(inconvertibleErrorCode(), "no .ctf section");
  Expected<StringRef> Contents = Sec->getContents();
  if (!Contents)
    return Contents.takeError();
  std::optional<ctf::SymtabOrder> Order = ctf::symtabOrder(**Obj);
  return ctf::dump(*Contents, OS, Order ? &*Order : nullptr);
}

//===-- Address tables embedded in their program --------------------------===//

/// The contents of the named section of an ELF file, if it has one.
std::optional<StringRef> elfSection(const object::ObjectFile &Obj,
                                    StringRef Wanted) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != Wanted)
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return std::nullopt;
    }
    return *Contents;
  }
  return std::nullopt;
}

/// An ELF file with an address table in a section (`dwarfpack pack
/// --embed`; docs/EmbeddedTable.md).
bool identifyElfWithTable(StringRef Contents) {
  std::unique_ptr<object::ObjectFile> Obj = elfToIdentify(Contents);
  return Obj && elfSection(*Obj, EmbeddedTableSection).has_value();
}

/// The table in its program: the program's bytes stay mapped as long as
/// the table is read.
class EmbeddedTable : public AddressSymbolizer {
public:
  EmbeddedTable(std::unique_ptr<MemoryBuffer> File,
                std::unique_ptr<AddressSymbolizer> Table)
      : File(std::move(File)), Table(std::move(Table)) {}
  Expected<LookupResult> lookup(uint64_t Address) const override {
    return Table->lookup(Address);
  }
  ArrayRef<uint8_t> uuid() const override { return Table->uuid(); }
  unsigned addressBytes() const override { return Table->addressBytes(); }
  Expected<std::optional<uint64_t>>
  fileOffsetToAddress(uint64_t Offset) const override {
    return Table->fileOffsetToAddress(Offset);
  }
  Expected<uint64_t> kernelTextAddress() const override {
    return Table->kernelTextAddress();
  }
  Error
  forEachFunction(function_ref<void(uint64_t, StringRef)> Fn) const override {
    return Table->forEachFunction(Fn);
  }
  Error
  forEachDwarfName(function_ref<void(uint64_t, StringRef)> Fn) const override {
    return Table->forEachDwarfName(Fn);
  }
  Expected<std::optional<std::vector<uint64_t>>>
  functionsNamed(StringRef Name) const override {
    return Table->functionsNamed(Name);
  }

private:
  std::unique_ptr<MemoryBuffer> File;
  std::unique_ptr<AddressSymbolizer> Table;
};

/// The embedded table's bytes, and the format they are in.
Expected<std::pair<StringRef, const FileFormat *>>
embeddedTable(MemoryBufferRef Buffer) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = openElf(Buffer);
  if (!Obj)
    return Obj.takeError();
  std::optional<StringRef> Bytes = elfSection(**Obj, EmbeddedTableSection);
  if (!Bytes)
    return createStringError(inconvertibleErrorCode(),
                             Twine("no readable ") + EmbeddedTableSection +
                                 " section");
  for (const FileFormat &F : knownFormats())
    if ((F.ID == FileFormat::Kind::CompactAddressTable ||
         F.ID == FileFormat::Kind::Gsym) &&
        F.Identify(*Bytes))
      return std::make_pair(*Bytes, &F);
  return createStringError(inconvertibleErrorCode(),
                           Twine("the ") + EmbeddedTableSection +
                               " section holds no address table");
}

Expected<std::unique_ptr<AddressSymbolizer>>
openElfTable(std::unique_ptr<MemoryBuffer> Buffer, const OpenOptions &Opts) {
  Expected<std::pair<StringRef, const FileFormat *>> T =
      embeddedTable(Buffer->getMemBufferRef());
  if (!T)
    return T.takeError();
  Expected<std::unique_ptr<AddressSymbolizer>> Inner = T->second->Open(
      MemoryBuffer::getMemBuffer(T->first, Buffer->getBufferIdentifier(),
                                 /*RequiresNullTerminator=*/false),
      Opts);
  if (!Inner)
    return Inner.takeError();
  return std::make_unique<EmbeddedTable>(std::move(Buffer), std::move(*Inner));
}

Error dumpElfTable(MemoryBufferRef Buffer, raw_ostream &OS,
                   const OpenOptions &Opts) {
  Expected<std::pair<StringRef, const FileFormat *>> T = embeddedTable(Buffer);
  if (!T)
    return T.takeError();
  return T->second->Dump(
      MemoryBufferRef(T->first, Buffer.getBufferIdentifier()), OS, Opts);
}

using K = FileFormat::Kind;

// Formats with a magic number first (they cannot be confused); the
// ksym-blob, recognised by its structure alone, last.
const FileFormat Formats[] = {
    {K::CompactAddressTable, "compact address table",
     compact::CompactReader::isCompact, openCompact, dumpCompact},
    {K::CtfDict, "CTF", identifyCtfDict, nullptr, dumpCtf},
    {K::CtfArchive, "CTF archive", identifyCtfArchive, nullptr, dumpCtf},
    // An ELF file with both sections is looked up in its table.
    {K::ElfWithTable, "ELF with an address table", identifyElfWithTable,
     openElfTable, dumpElfTable},
    {K::ElfWithCtf, "ELF with a .ctf section", identifyElfWithCtf, nullptr,
     dumpElfCtf},
    {K::Gsym, "GSYM", gsym::GsymReader::isGsym, openGsym, dumpGsym},
    {K::KernelSymbolTable, "kernel symbol table", kallsyms::isCompact,
     openKernel<false>, dumpKernel<false>},
    {K::KsymBlob, "ksym-blob", kallsyms::isKsymBlob, openKernel<true>,
     dumpKernel<true>},
};

} // namespace

ArrayRef<FileFormat> knownFormats() { return Formats; }

const FileFormat *identifyFormat(StringRef Contents) {
  for (const FileFormat &F : Formats)
    if (F.Identify(Contents))
      return &F;
  return nullptr;
}

Expected<std::unique_ptr<MemoryBuffer>> mapInputFile(StringRef Path) {
  auto BufOrErr =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return createFileError(Path, errorCodeToError(BufOrErr.getError()));
  return std::move(*BufOrErr);
}

/// The error for bytes of no format we write, naming Name.
static Error unknownFormat(StringRef Name) {
  return createStringError(inconvertibleErrorCode(),
                           "'" + Name +
                               "': unknown file format (not a file dwarfpack "
                               "writes)");
}

Expected<IdentifiedFile> openIdentifiedFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = mapInputFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  const FileFormat *F = identifyFormat((*Buffer)->getBuffer());
  if (!F)
    return unknownFormat(Path);
  return IdentifiedFile{std::move(*Buffer), F};
}

/// Opens Buffer as openTable does; errors name Name.
static Expected<OpenedTable> openNamed(std::unique_ptr<MemoryBuffer> Buffer,
                                       StringRef Name,
                                       const OpenOptions &Opts) {
  const FileFormat *F = identifyFormat(Buffer->getBuffer());
  if (!F && Opts.Objects.Convert && startsAsElf(Buffer->getBuffer()))
    return openObjectTable(std::move(Buffer), Opts);
  if (!F)
    return unknownFormat(Name);
  if (!F->Open)
    return createFileError(
        Name, createStringError(inconvertibleErrorCode(),
                                Twine(F->Name) +
                                    " files have no addresses to look up"));
  Expected<std::unique_ptr<AddressSymbolizer>> S =
      F->Open(std::move(Buffer), Opts);
  if (!S)
    return createFileError(Name, S.takeError());
  return OpenedTable{std::move(*S), F, nullptr, nullptr};
}

Expected<OpenedTable> openTable(std::unique_ptr<MemoryBuffer> Buffer,
                                const OpenOptions &Opts) {
  std::string Name = Buffer->getBufferIdentifier().str();
  return openNamed(std::move(Buffer), Name, Opts);
}

Expected<OpenedTable> openTableFile(StringRef Path, const OpenOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = mapInputFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  return openNamed(std::move(*Buffer), Path, Opts);
}

} // namespace dwarfpack
