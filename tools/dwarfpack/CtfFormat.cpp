//===- CtfFormat.cpp - CTF dicts and archives for `dwarfpack dump` --------===//

#include "FormatRegistry.h"

#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/CTF/SymtabOrder.h"

#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {
namespace {

bool identifyDict(StringRef Contents) { return ctf::isDict(Contents); }
bool identifyArchive(StringRef Contents) { return ctf::isArchive(Contents); }

Error dumpCtf(MemoryBufferRef Buffer, raw_ostream &OS) {
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

/// An ELF file carrying a .ctf section (`dwarfpack ctf --embed`, GNU ld).
bool identifyElfWithCtf(StringRef Contents) {
  if (!Contents.starts_with("\x7f"
                            "ELF"))
    return false;
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      openElf(MemoryBufferRef(Contents, ""));
  if (!Obj) {
    consumeError(Obj.takeError());
    return false;
  }
  return ctfSection(**Obj).has_value();
}

/// Dumps the .ctf section, naming the entries of unindexed symbol sections
/// from the file's own symbol table.
Error dumpElfCtf(MemoryBufferRef Buffer, raw_ostream &OS) {
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

// CTF describes types, not addresses: no Open.
const FormatHandler DictHandler = {"CTF", identifyDict, nullptr, dumpCtf};
const FormatHandler ArchiveHandler = {"CTF archive", identifyArchive, nullptr,
                                      dumpCtf};
const FormatHandler ElfHandler = {"ELF with a .ctf section", identifyElfWithCtf,
                                  nullptr, dumpElfCtf};
FormatRegistration RegDict(DictHandler);
FormatRegistration RegArchive(ArchiveHandler);
FormatRegistration RegElf(ElfHandler);

} // namespace
} // namespace tool
} // namespace dwarfpack
