//===- ObjectTable.cpp - An ELF object opened for lookups -----------------===//
//
// llvm-symbolizer and addr2line are given the binary itself: to stand in
// for them, lookups accept it too, converted in memory by the pipeline that
// `dwarfpack gsym` runs. The table is the one gsym would write, so answers
// are those of the table a user would make first.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/OpenTable.h"

#include "dwarfpack/Pipeline/PackObject.h"

using namespace llvm;

namespace dwarfpack {

static const FileFormat &compactFormat() {
  for (const FileFormat &F : knownFormats())
    if (F.ID == FileFormat::Kind::CompactAddressTable)
      return F;
  llvm_unreachable("the compact format is always known");
}

Expected<OpenedTable> openObjectTable(std::unique_ptr<MemoryBuffer> Buffer,
                                      const OpenOptions &Opts) {
  std::string Name = Buffer->getBufferIdentifier().str();
  auto C = std::make_unique<ObjectConversion>();
  input::DebugFileOptions Debug;
  Debug.Where.Directories = Opts.Objects.DebugFileDirectories;
  Expected<input::InputWithDebugFile> In =
      input::openWithDebugFile(Buffer->getMemBufferRef(), Debug, C->Log);
  if (!In)
    return In.takeError();
  pipeline::PackOptions Pack;
  Pack.NumThreads = Opts.Objects.Threads;
  Pack.Progress = Opts.Objects.Progress;
  Expected<std::unique_ptr<pipeline::PackResult>> R =
      pipeline::packObject(*In->Object, Pack, C->Log);
  if (!R)
    return R.takeError();
  if ((*R)->Model.functions().empty()) {
    std::string Why = "no functions found (no DWARF with code and no "
                      "function symbols)";
    if (!In->Tried.empty())
      Why += "; no separate debug file found (" +
             std::to_string(In->Tried.size()) + " paths tried, the first '" +
             In->Tried.front() + "')";
    return createFileError(Name,
                           createStringError(inconvertibleErrorCode(), Why));
  }
  C->DebugFile = In->Debug;
  C->HasDwarf = (*R)->HasDwarf;
  C->Relocatable = In->Object->isRelocatable();
  C->Tried = In->Tried;
  const FileFormat &F = compactFormat();
  Expected<std::unique_ptr<AddressSymbolizer>> S =
      F.Open(MemoryBuffer::getMemBufferCopy((*R)->Table, Name), Opts);
  if (!S)
    return createFileError(Name, S.takeError());
  return OpenedTable{std::move(*S), &F, std::move(C)};
}

} // namespace dwarfpack
