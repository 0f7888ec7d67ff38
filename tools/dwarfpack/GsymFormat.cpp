//===- GsymFormat.cpp - GSYM files for `lookup` and `dump` ----------------===//

#include "FormatRegistry.h"

#include "dwarfpack/GSYM/GsymReader.h"

using namespace llvm;
using namespace dwarfpack;

static Expected<std::unique_ptr<AddressSymbolizer>>
openGsym(std::unique_ptr<MemoryBuffer> Buffer) {
  auto R = gsym::GsymReader::create(std::move(Buffer));
  if (!R)
    return R.takeError();
  return std::unique_ptr<AddressSymbolizer>(std::move(*R));
}

static Error dumpGsymFile(MemoryBufferRef Buffer, raw_ostream &OS) {
  auto R = gsym::GsymReader::create(Buffer);
  if (!R)
    return R.takeError();
  return gsym::dumpGsym(**R, OS);
}

static const tool::FormatHandler GsymHandler = {
    "GSYM", gsym::GsymReader::isGsym, openGsym, dumpGsymFile};
static tool::FormatRegistration RegisterGsym(GsymHandler);
