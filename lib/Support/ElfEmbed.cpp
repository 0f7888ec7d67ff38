//===- ElfEmbed.cpp - Copy an ELF file with sections added ----------------===//

#include "dwarfpack/Support/ElfEmbed.h"

#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace dwarfpack {

Error embedSections(MemoryBufferRef In, ArrayRef<EmbeddedSection> Sections,
                    raw_ostream &OS) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(In);
  if (!Obj)
    return Obj.takeError();
  if (!isa<object::ELFObjectFileBase>(Obj->get()))
    return createStringError(inconvertibleErrorCode(),
                             "embedding sections needs an ELF input");
  objcopy::ConfigManager Config;
  for (const EmbeddedSection &S : Sections) {
    bool Present = false;
    for (const object::SectionRef &Sec : (*Obj)->sections())
      if (Expected<StringRef> Name = Sec.getName(); Name && *Name == S.Name)
        Present = true;
      else if (!Name)
        consumeError(Name.takeError());
    auto Buf = MemoryBuffer::getMemBufferCopy(S.Data, S.Name);
    if (Present)
      Config.Common.UpdateSection.emplace_back(S.Name, std::move(Buf));
    else
      Config.Common.AddSection.emplace_back(S.Name, std::move(Buf));
  }
  return objcopy::executeObjcopyOnBinary(Config, **Obj, OS);
}

} // namespace dwarfpack
