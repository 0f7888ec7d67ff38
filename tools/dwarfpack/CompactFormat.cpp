//===- CompactFormat.cpp - Compact address tables for `lookup` and `dump` -===//

#include "FormatRegistry.h"

#include "dwarfpack/CompactTable/CompactReader.h"

using namespace llvm;
using namespace dwarfpack;

static Expected<std::unique_ptr<AddressSymbolizer>>
openCompact(std::unique_ptr<MemoryBuffer> Buffer) {
  auto R = compact::CompactReader::create(std::move(Buffer));
  if (!R)
    return R.takeError();
  return std::unique_ptr<AddressSymbolizer>(std::move(*R));
}

static Error dumpCompactFile(MemoryBufferRef Buffer, raw_ostream &OS) {
  auto R = compact::CompactReader::create(Buffer);
  if (!R)
    return R.takeError();
  return compact::dumpCompact(**R, OS);
}

static const tool::FormatHandler CompactHandler = {
    "compact address table", compact::CompactReader::isCompact, openCompact,
    dumpCompactFile};
static tool::FormatRegistration RegisterCompact(CompactHandler);
