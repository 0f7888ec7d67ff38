//===- BreakpadInput.cpp - Breakpad .sym input of `dwarfpack gsym` --------===//

#include "BreakpadInput.h"
#include "Command.h"
#include "FormatRegistry.h"

#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/Breakpad/BreakpadStore.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <chrono>
#include <optional>

using namespace llvm;

namespace dwarfpack {
namespace tool {

bool isBreakpadInput(StringRef Contents) { return looksLikeBreakpad(Contents); }

Error loadBreakpadInput(StringRef Contents, StringRef Path,
                        FunctionModel &Model, WarningLog &Log,
                        BreakpadStats *Stats) {
  Expected<BreakpadStats> S =
      parseBreakpadIntoModel(Contents, Path, Model, Log);
  if (!S)
    return S.takeError();
  if (Stats)
    *Stats = *S;
  return Error::success();
}

void printBreakpadStats(const BreakpadStats &S, raw_ostream &OS) {
  OS << formatv("records:      {0} FUNC, {1} PUBLIC, {2} line, {3} INLINE, "
                "{4} FILE, {5} INLINE_ORIGIN kept\n",
                S.Functions, S.Publics, S.LineRecords, S.Inlines, S.Files,
                S.InlineOrigins)
     << formatv("skipped:      {0} STACK, {1} INFO, {2} empty ranges ({3} "
                "INLINE left empty), {4} PUBLIC inside FUNC, {5} PUBLIC at "
                "0\n",
                S.StackRecords, S.InfoSkipped, S.EmptyRanges, S.EmptyInlines,
                S.PublicsInFunctions, S.PublicsAtZero)
     << formatv("rejected:     {0} records ({1} line and INLINE records "
                "dropped with them)\n",
                S.Rejected, S.DroppedWithFunction);
}

std::string storeOutputPath(StringRef SymRelPath, TableFormat Format) {
  StringRef Base = SymRelPath;
  Base.consume_back(".sym");
  return (Base + (Format == TableFormat::Gsym ? ".gsym" : ".dpat")).str();
}

Expected<std::string> encodeTable(const FunctionModel &Model,
                                  TableFormat Format) {
  return Format == TableFormat::Gsym ? gsym::encodeGsym(Model)
                                     : compact::encodeCompact(Model);
}

/// Finalizes Model and writes it in Format, as `dwarfpack gsym` does.
static Error writeTable(FunctionModel &Model, StringRef Out, WarningLog &Log,
                        TableFormat Format, std::atomic<uint64_t> &Written) {
  Model.finalize(Log);
  if (Model.functions().empty())
    return createFileError(Out, createStringError(inconvertibleErrorCode(),
                                                  "no functions to write"));
  Expected<std::string> Bytes = encodeTable(Model, Format);
  if (!Bytes)
    return createFileError(Out, Bytes.takeError());
  if (Error E = writeOutputFile(Out, *Bytes))
    return E;
  Written += Bytes->size();
  return Error::success();
}

int convertBreakpadStore(StringRef InDir, StringRef OutDir, unsigned NumThreads,
                         bool Quiet, bool ShowStats, TableFormat Format,
                         raw_ostream &OS) {
  auto Start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> BytesRead{0}, BytesWritten{0};
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
        sys::path::append(Out, storeOutputPath(Files[I], Format));
        auto Fail = [&](Error E) { Failures[I] = toString(std::move(E)); };
        Expected<std::unique_ptr<MemoryBuffer>> Buf = mapInputFile(In);
        if (!Buf)
          return Fail(Buf.takeError());
        BytesRead += (*Buf)->getBufferSize();
        FunctionModel Model;
        if (Error E =
                loadBreakpadInput((*Buf)->getBuffer(), In, Model, Logs[I]))
          return Fail(std::move(E));
        if (Error E = createOutputDirectories(sys::path::parent_path(Out)))
          return Fail(std::move(E));
        if (Error E = writeTable(Model, Out, Logs[I], Format, BytesWritten))
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
  if (ShowStats)
    OS << formatv(
        "input bytes:  {0}\noutput bytes: {1}\nwall time:    "
        "{2:f3} s\n",
        BytesRead.load(), BytesWritten.load(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count());
  for (size_t I = 0; I < Files.size(); ++I)
    if (Failures[I])
      reportError(*Failures[I]);
  if (Files.empty())
    return reportError(InDir + ": no <debug_file>/<ID>/<name>.sym files");
  return Failed ? 1 : 0;
}

} // namespace tool
} // namespace dwarfpack
