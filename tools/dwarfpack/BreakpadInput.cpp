//===- BreakpadInput.cpp - Reports on Breakpad input of `dwarfpack gsym` --===//

#include "BreakpadInput.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace dwarfpack {
namespace tool {

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

void printBreakpadStoreReport(const pipeline::BreakpadStoreResult &R,
                              const WarningLog &Log, bool Quiet, bool ShowStats,
                              double Seconds, raw_ostream &OS) {
  size_t Failed = R.Failures.size();
  OS << formatv("breakpad store: {0} .sym files, {1} converted, {2} failed, "
                "{3} other files skipped\n",
                R.SymFiles, R.SymFiles - Failed, Failed, R.OtherFiles);
  if (!Quiet)
    for (const WarningLog::KindSummary &K : Log.summary()) {
      OS << formatv("  {0}: {1}\n", K.Kind, K.Count);
      for (const std::string &E : K.Examples)
        OS << "    e.g. " << E << "\n";
    }
  if (ShowStats)
    OS << formatv("input bytes:  {0}\noutput bytes: {1}\nwall time:    "
                  "{2:f3} s\n",
                  R.BytesRead, R.BytesWritten, Seconds);
}

} // namespace tool
} // namespace dwarfpack
