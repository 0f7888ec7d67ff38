//===- RelocatableLayout.cpp - Addresses for relocatable objects ----------===//

#include "dwarfpack/Support/RelocatableLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace llvm;

namespace dwarfpack {

/// sh_addralign as written. SectionRef::getAlignment() would make a
/// MaybeAlign of it, which requires a power of two (an assertion, and an
/// undefined result without one).
static uint64_t rawAlignment(const object::SectionRef &S) {
  const object::ObjectFile *O = S.getObject();
  object::DataRefImpl D = S.getRawDataRefImpl();
  if (auto *E = dyn_cast<object::ELF64LEObjectFile>(O))
    return E->getSection(D)->sh_addralign;
  if (auto *E = dyn_cast<object::ELF64BEObjectFile>(O))
    return E->getSection(D)->sh_addralign;
  if (auto *E = dyn_cast<object::ELF32LEObjectFile>(O))
    return E->getSection(D)->sh_addralign;
  if (auto *E = dyn_cast<object::ELF32BEObjectFile>(O))
    return E->getSection(D)->sh_addralign;
  return 1;
}

std::vector<PlacedSection> relocatableLayout(const object::ObjectFile &Obj) {
  std::vector<PlacedSection> Out;
  uint64_t Next = 0;
  for (const object::SectionRef &S : Obj.sections()) {
    uint64_t Flags = object::ELFSectionRef(S).getFlags();
    if (!(Flags & ELF::SHF_EXECINSTR) || !(Flags & ELF::SHF_ALLOC) ||
        S.getSize() == 0)
      continue;
    // ELF allows only 0 and powers of two; another value counts as 1.
    uint64_t Align = rawAlignment(S);
    if (!isPowerOf2_64(Align))
      Align = 1;
    Next = alignTo(Next, Align);
    Out.push_back({S.getIndex(), Next, S.getSize()});
    Next += S.getSize();
  }
  return Out;
}

namespace {
class LayoutLoadInfo : public LoadedObjectInfoHelper<LayoutLoadInfo> {
public:
  explicit LayoutLoadInfo(const object::ObjectFile &Obj) {
    for (const PlacedSection &P : relocatableLayout(Obj))
      Start[P.Index] = P.Start;
  }
  uint64_t getSectionLoadAddress(const object::SectionRef &Sec) const override {
    return Start.lookup(Sec.getIndex());
  }

private:
  DenseMap<uint64_t, uint64_t> Start;
};
} // namespace

std::unique_ptr<LoadedObjectInfo>
relocatableLoadInfo(const object::ObjectFile &Obj) {
  return std::make_unique<LayoutLoadInfo>(Obj);
}

std::unique_ptr<MemoryBuffer> withoutAranges(const object::ObjectFile &Obj) {
  StringRef File = Obj.getData();
  SmallVector<size_t, 2> NameAt;
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    // The name lies in the file's section-name table.
    if (*Name == ".debug_aranges" && Name->data() >= File.data() &&
        Name->data() + Name->size() <= File.data() + File.size())
      NameAt.push_back(Name->data() - File.data());
  }
  if (NameAt.empty())
    return nullptr;
  std::unique_ptr<WritableMemoryBuffer> Copy =
      WritableMemoryBuffer::getNewUninitMemBuffer(File.size(),
                                                  Obj.getFileName());
  std::memcpy(Copy->getBufferStart(), File.data(), File.size());
  for (size_t At : NameAt)
    Copy->getBufferStart()[At + 1] = 'X'; // ".Xebug_aranges"
  return Copy;
}

} // namespace dwarfpack
