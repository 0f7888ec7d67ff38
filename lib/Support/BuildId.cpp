//===- BuildId.cpp - The GNU build-id of an ELF file ----------------------===//

#include "dwarfpack/Support/BuildId.h"

#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

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
        // As the note iterator aligns (it accepts 0, 1, 4 and 8): a raw 0
        // or 1 would misplace the description (and 0 asserts).
        ArrayRef<uint8_t> Desc =
            Note.getDesc(std::max<uint64_t>(S.sh_addralign, 4));
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

Expected<ArrayRef<uint8_t>> gnuBuildIdFromNotes(ArrayRef<uint8_t> Notes) {
  constexpr size_t HeaderSize = 12; // namesz, descsz, type
  for (size_t At = 0; At < Notes.size();) {
    if (Notes.size() - At < HeaderSize)
      return createStringError(inconvertibleErrorCode(),
                               "truncated note header at offset %zu", At);
    const uint8_t *P = Notes.data() + At;
    uint64_t NameSize = support::endian::read32le(P);
    uint64_t DescSize = support::endian::read32le(P + 4);
    uint32_t Type = support::endian::read32le(P + 8);
    uint64_t NameAt = At + HeaderSize;
    uint64_t DescAt = NameAt + alignTo(NameSize, 4);
    // The last note's padding may be cut off; its contents may not.
    if (DescAt + DescSize > Notes.size() || NameAt + NameSize > Notes.size())
      return createStringError(
          inconvertibleErrorCode(),
          "note at offset %zu (name %llu bytes, description %llu bytes) runs "
          "past the end (%zu bytes)",
          At, (unsigned long long)NameSize, (unsigned long long)DescSize,
          Notes.size());
    StringRef Name(reinterpret_cast<const char *>(Notes.data() + NameAt),
                   NameSize);
    if (Type == ELF::NT_GNU_BUILD_ID && Name.rtrim('\0') == "GNU")
      return Notes.slice(DescAt, DescSize);
    At = DescAt + alignTo(DescSize, 4);
  }
  return ArrayRef<uint8_t>();
}

Expected<SmallVector<uint8_t, 20>> readBuildId(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  ArrayRef<uint8_t> Id = gnuBuildId(**Obj);
  return SmallVector<uint8_t, 20>(Id.begin(), Id.end());
}

} // namespace dwarfpack
