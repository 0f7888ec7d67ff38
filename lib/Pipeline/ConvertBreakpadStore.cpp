//===- ConvertBreakpadStore.cpp - A Breakpad symbol store to tables -------===//

#include "dwarfpack/Pipeline/ConvertBreakpadStore.h"
#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/Breakpad/BreakpadStore.h"
#include "dwarfpack/Support/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>

using namespace llvm;

namespace dwarfpack {
namespace pipeline {

std::string storeOutputPath(StringRef SymRelPath, TableFormat Format) {
  StringRef Base = SymRelPath;
  Base.consume_back(".sym");
  return (Base + (Format == TableFormat::Gsym ? ".gsym" : ".dpat")).str();
}

namespace {
/// One .sym: parsed, finalized, encoded in Format and written to Out (as
/// `dwarfpack gsym` writes one); returns the bytes written.
Expected<uint64_t> convertOne(StringRef In, StringRef Out, TableFormat Format,
                              WarningLog &Log, uint64_t &Read) {
  auto Buf = MemoryBuffer::getFile(In, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createFileError(In, errorCodeToError(Buf.getError()));
  Read = (*Buf)->getBufferSize();
  FunctionModel Model;
  Expected<BreakpadStats> S =
      parseBreakpadIntoModel((*Buf)->getBuffer(), In, Model, Log);
  if (!S)
    return S.takeError();
  if (Error E = createOutputDirectories(sys::path::parent_path(Out)))
    return std::move(E);
  Model.finalize(Log);
  if (Model.functions().empty())
    return createFileError(Out, createStringError(inconvertibleErrorCode(),
                                                  "no functions to write"));
  Expected<std::string> Bytes = encodeTable(Model, Format);
  if (!Bytes)
    return createFileError(Out, Bytes.takeError());
  if (Error E = writeOutputFile(Out, *Bytes))
    return std::move(E);
  return Bytes->size();
}
} // namespace

Expected<BreakpadStoreResult>
convertBreakpadStore(StringRef InDir, StringRef OutDir, unsigned NumThreads,
                     TableFormat Format, WarningLog &Log) {
  Expected<BreakpadStoreListing> L = listBreakpadStore(InDir);
  if (!L)
    return L.takeError();
  const std::vector<std::string> &Files = L->SymFiles;
  BreakpadStoreResult R;
  R.SymFiles = Files.size();
  R.OtherFiles = L->Ignored.size();
  // One slot per file, filled by whichever thread converts it, so that the
  // report is in path order whatever the scheduling.
  std::vector<std::optional<std::string>> Failures(Files.size());
  std::vector<WarningLog> Logs(Files.size());
  std::atomic<uint64_t> Read{0}, Written{0};
  {
    DefaultThreadPool Pool(hardware_concurrency(NumThreads));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] {
        SmallString<256> In(InDir), Out(OutDir);
        sys::path::append(In, Files[I]);
        sys::path::append(Out, storeOutputPath(Files[I], Format));
        uint64_t BytesIn = 0;
        Expected<uint64_t> N = convertOne(In, Out, Format, Logs[I], BytesIn);
        Read += BytesIn;
        if (N)
          Written += *N;
        else
          Failures[I] = toString(N.takeError());
      });
    Pool.wait();
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    Log.merge(Logs[I]);
    if (Failures[I])
      R.Failures.push_back(std::move(*Failures[I]));
  }
  R.BytesRead = Read;
  R.BytesWritten = Written;
  return R;
}

} // namespace pipeline
} // namespace dwarfpack
