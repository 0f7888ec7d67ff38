//===- ElfTables.cpp - Symbol and relocation tables LLVM can walk ---------===//

#include "dwarfpack/Support/ElfTables.h"

#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {

namespace {

template <class ELFT> Error check(const ELFObjectFile<ELFT> &Obj) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  auto Sections = File.sections();
  if (!Sections)
    return Sections.takeError();
  auto Bad = [&](unsigned Index, const typename ELFT::Shdr &Sec,
                 const Twine &What) {
    StringRef Name = "<unnamed>";
    if (Expected<StringRef> N = File.getSectionName(Sec))
      Name = *N;
    else
      consumeError(N.takeError());
    return createStringError(inconvertibleErrorCode(),
                             "section [index " + Twine(Index) + "] (" + Name +
                                 "): " + What);
  };
  auto CheckSymtab = [&](const typename ELFT::Shdr &Sec) -> Error {
    // LLVM's errors name the section's index already.
    if (Expected<typename ELFT::SymRange> Syms = File.symbols(&Sec); !Syms)
      return Syms.takeError();
    if (Expected<StringRef> Strs = File.getStringTableForSymtab(Sec, *Sections);
        !Strs)
      return Strs.takeError();
    return Error::success();
  };
  for (unsigned I = 0; I < Sections->size(); ++I) {
    const typename ELFT::Shdr &Sec = (*Sections)[I];
    switch (Sec.sh_type) {
    case ELF::SHT_SYMTAB:
    case ELF::SHT_DYNSYM:
      if (Error E = CheckSymtab(Sec))
        return E;
      break;
    case ELF::SHT_REL:
    case ELF::SHT_RELA: {
      bool Rela = Sec.sh_type == ELF::SHT_RELA;
      uint64_t Want =
          Rela ? sizeof(typename ELFT::Rela) : sizeof(typename ELFT::Rel);
      if (Sec.sh_entsize != Want)
        return Bad(I, Sec,
                   "relocation entry size " + Twine(uint64_t(Sec.sh_entsize)) +
                       ", expected " + Twine(Want));
      if (Error E =
              Rela ? File.relas(Sec).takeError() : File.rels(Sec).takeError())
        return E;
      // The symbol table the relocations refer to (sh_link 0: none) and the
      // section they apply to. (A symbol index past the table is an error
      // LLVM reports for the relocation.)
      if (Sec.sh_link != 0) {
        Expected<const typename ELFT::Shdr *> Link =
            File.getSection(Sec.sh_link);
        if (!Link)
          return Bad(I, Sec, "sh_link: " + toString(Link.takeError()));
        if ((*Link)->sh_type != ELF::SHT_SYMTAB &&
            (*Link)->sh_type != ELF::SHT_DYNSYM)
          return Bad(I, Sec,
                     "sh_link " + Twine(uint64_t(Sec.sh_link)) +
                         " is not a symbol table");
      }
      if (Sec.sh_info != 0)
        if (Expected<const typename ELFT::Shdr *> Target =
                File.getSection(Sec.sh_info);
            !Target)
          return Bad(I, Sec, "sh_info: " + toString(Target.takeError()));
      break;
    }
    default:
      break;
    }
  }
  return Error::success();
}

} // namespace

Error checkElfTables(const ObjectFile &Obj) {
  if (const auto *E = dyn_cast<ELF64LEObjectFile>(&Obj))
    return check(*E);
  if (const auto *E = dyn_cast<ELF64BEObjectFile>(&Obj))
    return check(*E);
  if (const auto *E = dyn_cast<ELF32LEObjectFile>(&Obj))
    return check(*E);
  if (const auto *E = dyn_cast<ELF32BEObjectFile>(&Obj))
    return check(*E);
  return Error::success();
}

} // namespace dwarfpack
