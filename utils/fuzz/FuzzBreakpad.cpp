//===- FuzzBreakpad.cpp - Breakpad .sym text in, both tables out ----------===//
//
// parseBreakpadIntoModel over the input; what parses is finalized and
// written as GSYM and as a compact table, both are read back, and lookups
// at the start and end of the first functions must answer the same in
// both (`dwarfpack compare-tables` holds them to that on real files).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Breakpad/BreakpadParser.h"
#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;

namespace {

std::string describe(Expected<LookupResult> R) {
  if (!R)
    return "error: " + toString(R.takeError());
  std::string S;
  for (const SourceFrame &F : R->Frames)
    S += F.FunctionName + " @ " + F.FileName + ":" + Twine(F.Line).str() +
         " start " + utohexstr(F.StartAddress) + "; ";
  return R->Frames.empty() ? "not found" : S;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Bytes), Size);
  FunctionModel Model;
  WarningLog Log;
  auto Stats = parseBreakpadIntoModel(Text, "fuzz.sym", Model, Log);
  if (!Stats) {
    consumeError(Stats.takeError());
    return 0;
  }
  Model.finalize(Log);
  if (Model.functions().empty())
    return 0;
  // A writer may refuse a model with an error (a PUBLIC whose extent to the
  // next function does not fit GSYM's 32-bit size, the compact table's
  // address span): that is a clear error, not a finding.
  auto G = gsym::encodeGsym(Model);
  if (!G) {
    consumeError(G.takeError());
    return 0;
  }
  auto C = compact::encodeCompact(Model);
  if (!C) {
    consumeError(C.takeError());
    return 0;
  }
  auto GR = gsym::GsymReader::create(MemoryBufferRef(*G, "g"));
  if (!GR)
    fail("GSYM just written does not open: " + toString(GR.takeError()));
  auto CR = compact::CompactReader::create(MemoryBufferRef(*C, "c"));
  if (!CR)
    fail("compact table just written does not open: " +
         toString(CR.takeError()));
  // GSYM's strings end at a NUL byte, the compact table's do not: a name
  // holding one reads back differently, by design. Compare the rest.
  bool Comparable = !Text.contains('\0');
  size_t I = 0;
  for (const FunctionEntry &F : Model.functions()) {
    if (I++ == 16)
      break;
    for (uint64_t A :
         {F.Range.Start, F.Range.Start + (F.Range.End - F.Range.Start) / 2,
          F.Range.End - 1, F.Range.End}) {
      std::string X = describe((*GR)->lookup(A)),
                  Y = describe((*CR)->lookup(A));
      if (X != Y && Comparable)
        fail("GSYM and compact disagree at " + utohexstr(A) +
             ":\n  gsym:    " + X + "\n  compact: " + Y);
    }
  }
  return 0;
}
