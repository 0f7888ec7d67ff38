//===- CtfFormat.cpp - CTF dicts and archives for `dwarfpack dump` --------===//

#include "FormatRegistry.h"

#include "dwarfpack/CTF/CtfReader.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {
namespace {

bool identifyDict(StringRef Contents) { return ctf::isDict(Contents); }
bool identifyArchive(StringRef Contents) { return ctf::isArchive(Contents); }

Error dumpCtf(MemoryBufferRef Buffer, raw_ostream &OS) {
  return ctf::dump(Buffer.getBuffer(), OS);
}

// CTF describes types, not addresses: no Open.
const FormatHandler DictHandler = {"CTF", identifyDict, nullptr, dumpCtf};
const FormatHandler ArchiveHandler = {"CTF archive", identifyArchive, nullptr,
                                      dumpCtf};
FormatRegistration RegDict(DictHandler);
FormatRegistration RegArchive(ArchiveHandler);

} // namespace
} // namespace tool
} // namespace dwarfpack
