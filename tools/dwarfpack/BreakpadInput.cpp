//===- BreakpadInput.cpp - Breakpad .sym input of `dwarfpack gsym` --------===//

#include "BreakpadInput.h"
#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/Breakpad/BreakpadStore.h"
#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <optional>

using namespace llvm;

namespace dwarfpack {
namespace tool {

bool isBreakpadInput(StringRef Contents) { return looksLikeBreakpad(Contents); }

Error loadBreakpadInput(StringRef Contents, StringRef Path,
                        FunctionModel &Model, WarningLog &Log,
                        raw_ostream *Stats) {
  Expected<BreakpadStats> S =
      parseBreakpadIntoModel(Contents, Path, Model, Log);
  if (!S)
    return S.takeError();
  if (Stats)
    *Stats << formatv("breakpad: {0} FUNC, {1} PUBLIC, {2} line records, {3} "
                      "INLINE, {4} FILE, {5} INLINE_ORIGIN kept; skipped {6} "
                      "STACK, {7} INFO, {8} empty ranges, {9} PUBLIC inside "
                      "FUNC; rejected {10} records\n",
                      S->Functions, S->Publics, S->LineRecords, S->Inlines,
                      S->Files, S->InlineOrigins, S->StackRecords,
                      S->InfoSkipped, S->EmptyRanges, S->PublicsInFunctions,
                      S->Rejected);
  return Error::success();
}

/// Finalizes Model and writes it as GSYM, as `dwarfpack gsym` does.
static Error writeGsym(FunctionModel &Model, StringRef Out, WarningLog &Log) {
  Model.finalize(Log);
  if (Model.functions().empty())
    return createFileError(Out, createStringError(inconvertibleErrorCode(),
                                                  "no functions to write"));
  Expected<std::string> Bytes = gsym::encodeGsym(Model);
  if (!Bytes)
    return createFileError(Out, Bytes.takeError());
  if (Error E = writeToOutput(Out, [&](raw_ostream &OS) -> Error {
        OS << *Bytes;
        return Error::success();
      }))
    return createFileError(Out, std::move(E));
  return Error::success();
}

int convertBreakpadStore(StringRef InDir, StringRef OutDir, unsigned NumThreads,
                         bool Quiet, raw_ostream &OS) {
  Expected<BreakpadStoreListing> L = listBreakpadStore(InDir);
  if (!L)
    return reportError(L.takeError());
  const std::vector<std::string> &Files = L->SymFiles;
  // One slot per file, filled by whichever thread converts it, so that the
  // report is in path order whatever the scheduling.
  std::vector<std::optional<std::string>> Failures(Files.size());
  std::vector<WarningLog> Logs(Files.size());
  {
    DefaultThreadPool Pool(hardware_concurrency(NumThreads));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] {
        SmallString<256> In(InDir), Out(OutDir);
        sys::path::append(In, Files[I]);
        sys::path::append(Out, gsymPathForStoreEntry(Files[I]));
        auto Fail = [&](Error E) { Failures[I] = toString(std::move(E)); };
        Expected<std::unique_ptr<MemoryBuffer>> Buf = mapInputFile(In);
        if (!Buf)
          return Fail(Buf.takeError());
        FunctionModel Model;
        if (Error E =
                loadBreakpadInput((*Buf)->getBuffer(), In, Model, Logs[I]))
          return Fail(std::move(E));
        if (std::error_code EC =
                sys::fs::create_directories(sys::path::parent_path(Out)))
          return Fail(createFileError(Out, EC));
        if (Error E = writeGsym(Model, Out, Logs[I]))
          return Fail(std::move(E));
      });
    Pool.wait();
  }
  WarningLog All;
  size_t Failed = 0;
  for (size_t I = 0; I < Files.size(); ++I) {
    All.merge(Logs[I]);
    Failed += Failures[I].has_value();
  }
  OS << formatv("breakpad store: {0} .sym files, {1} converted, {2} failed, "
                "{3} other files skipped\n",
                Files.size(), Files.size() - Failed, Failed, L->Ignored.size());
  if (!Quiet)
    for (const WarningLog::KindSummary &K : All.summary()) {
      OS << formatv("  {0}: {1}\n", K.Kind, K.Count);
      for (const std::string &E : K.Examples)
        OS << "    e.g. " << E << "\n";
    }
  for (size_t I = 0; I < Files.size(); ++I)
    if (Failures[I])
      reportError(*Failures[I]);
  if (Files.empty())
    return reportError(InDir + ": no <debug_file>/<ID>/<name>.sym files");
  return Failed ? 1 : 0;
}

} // namespace tool
} // namespace dwarfpack
