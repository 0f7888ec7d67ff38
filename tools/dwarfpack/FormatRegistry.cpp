//===- FormatRegistry.cpp - Our file formats, recognised by content -------===//

#include "FormatRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

static SmallVector<const FormatHandler *, 8> &handlers() {
  static SmallVector<const FormatHandler *, 8> Handlers;
  return Handlers;
}

FormatRegistration::FormatRegistration(const FormatHandler &Handler) {
  handlers().push_back(&Handler);
}

const FormatHandler *identifyFormat(StringRef Contents) {
  for (const FormatHandler *H : handlers())
    if (H->Identify(Contents))
      return H;
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

Expected<KnownFile> openKnownFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = mapInputFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  const FormatHandler *H = identifyFormat((*Buffer)->getBuffer());
  if (!H)
    return createStringError(inconvertibleErrorCode(),
                             "'" + Path +
                                 "': unknown file format (not a file "
                                 "dwarfpack writes)");
  return KnownFile{std::move(*Buffer), H};
}

} // namespace tool
} // namespace dwarfpack
