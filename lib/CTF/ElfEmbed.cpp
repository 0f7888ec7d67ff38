//===- ElfEmbed.cpp - Copy an ELF file with a .ctf section added ----------===//

#include "dwarfpack/CTF/ElfEmbed.h"

#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace dwarfpack {
namespace ctf {

Error embedCtfSection(object::Binary &In, StringRef Data, raw_ostream &OS) {
  auto *Obj = dyn_cast<object::ELFObjectFileBase>(&In);
  if (!Obj)
    return createStringError(inconvertibleErrorCode(),
                             "--embed needs an ELF input");
  bool HasCtf = false;
  for (const object::SectionRef &S : Obj->sections())
    if (Expected<StringRef> Name = S.getName(); Name && *Name == ".ctf")
      HasCtf = true;
    else if (!Name)
      consumeError(Name.takeError());
  // llvm-objcopy's library does the ELF rewriting (layout, section headers,
  // string table), exactly as `llvm-objcopy --add-section` would.
  objcopy::ConfigManager Config;
  auto Buf = MemoryBuffer::getMemBufferCopy(Data, ".ctf");
  if (HasCtf)
    Config.Common.UpdateSection.emplace_back(".ctf", std::move(Buf));
  else
    Config.Common.AddSection.emplace_back(".ctf", std::move(Buf));
  return objcopy::executeObjcopyOnBinary(Config, In, OS);
}

} // namespace ctf
} // namespace dwarfpack
