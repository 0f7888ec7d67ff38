//===- BuildId.cpp - The GNU build-id of an ELF file ----------------------===//

#include "dwarfpack/Support/BuildId.h"

#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace dwarfpack {

namespace {
template <typename ELFT>
ArrayRef<uint8_t> fromSections(const object::ELFFile<ELFT> &EF) {
  Expected<typename ELFT::ShdrRange> Sections = EF.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return {};
  }
  for (const typename ELFT::Shdr &S : *Sections) {
    if (S.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    for (const typename ELFT::Note &Note : EF.notes(S, Err))
      if (Note.getType() == ELF::NT_GNU_BUILD_ID && Note.getName() == "GNU") {
        ArrayRef<uint8_t> Desc = Note.getDesc(S.sh_addralign);
        consumeError(std::move(Err));
        return Desc;
      }
    consumeError(std::move(Err));
  }
  return {};
}
} // namespace

ArrayRef<uint8_t> gnuBuildId(const object::ObjectFile &O) {
  ArrayRef<uint8_t> Id;
  if (const auto *E = dyn_cast<object::ELF32LEObjectFile>(&O))
    Id = fromSections(E->getELFFile());
  else if (const auto *E = dyn_cast<object::ELF32BEObjectFile>(&O))
    Id = fromSections(E->getELFFile());
  else if (const auto *E = dyn_cast<object::ELF64LEObjectFile>(&O))
    Id = fromSections(E->getELFFile());
  else if (const auto *E = dyn_cast<object::ELF64BEObjectFile>(&O))
    Id = fromSections(E->getELFFile());
  if (Id.empty())
    Id = object::getBuildID(&O);
  return Id;
}

} // namespace dwarfpack
