//===- SectionOffsets.cpp - Offsets in one section of an ELF object -------===//

#include "dwarfpack/Symbolize/SectionOffsets.h"

#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {

Expected<AddressRange> findElfSection(MemoryBufferRef Object, StringRef Name) {
  Expected<std::unique_ptr<ObjectFile>> Obj =
      ObjectFile::createObjectFile(Object);
  if (!Obj || !isa<ELFObjectFileBase>(**Obj)) {
    if (!Obj)
      consumeError(Obj.takeError());
    return createStringError(inconvertibleErrorCode(),
                             "not an ELF object: section offsets need the "
                             "binary's section headers, which a table does "
                             "not record");
  }
  for (const SectionRef &Sec : (*Obj)->sections()) {
    Expected<StringRef> SecName = Sec.getName();
    if (!SecName)
      return SecName.takeError();
    if (*SecName == Name)
      return AddressRange{Sec.getAddress(), Sec.getAddress() + Sec.getSize()};
  }
  return createStringError(inconvertibleErrorCode(),
                           "no section named '" + Name + "'");
}

} // namespace dwarfpack
