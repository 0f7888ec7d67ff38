//===- Results.cpp - Lookup results as the C API hands them out -----------===//

#include "Results.h"

#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace llvm;

namespace dwarfpack {
namespace capi {

/// The caller sees the dwarfpack_results base; the rest is the storage it
/// points into.
struct ResultsBuilder::Object : dwarfpack_results {
  std::vector<dwarfpack_result> Results;
  std::vector<dwarfpack_frame> Frames;
  BumpPtrAllocator Memory;
  /// File and function names repeat across a batch: each is kept once.
  UniqueStringSaver Strings{Memory};

  const char *save(StringRef S) { return Strings.save(S).data(); }
};

ResultsBuilder::ResultsBuilder(size_t Count, uint32_t Flags)
    : Out(std::make_unique<Object>()),
      Demangle(Flags & DWARFPACK_SYMBOLIZE_DEMANGLE) {
  Out->Results.reserve(Count);
  FirstFrame.reserve(Count);
}

ResultsBuilder::~ResultsBuilder() = default;

dwarfpack_result &ResultsBuilder::next() {
  if (Slot) {
    FirstFrame[*Slot] = Out->Frames.size();
    return Out->Results[*Slot] = {};
  }
  FirstFrame.push_back(Out->Frames.size());
  return Out->Results.emplace_back();
}

void ResultsBuilder::add(uint64_t Value, const LookupResult &R,
                         std::optional<StringRef> Module) {
  SmallVector<FrameView, 8> Frames(R.Frames.begin(), R.Frames.end());
  add(Value, Frames, Module);
}

void ResultsBuilder::add(uint64_t Value, ArrayRef<FrameView> Frames,
                         std::optional<StringRef> Module) {
  dwarfpack_result &Result = next();
  Result.address = Value;
  Result.status = DWARFPACK_OK;
  Result.frame_count = Frames.size();
  StringRef Outermost = Frames.empty() ? "" : Frames.back().Module;
  for (size_t I = 0, N = Frames.size(); I < N; ++I) {
    const FrameView &S = Frames[I];
    dwarfpack_frame F = {};
    F.function = Demangle ? Out->save(readableDemangle(S.FunctionName))
                          : Out->save(S.FunctionName);
    // As lookup prints it: code without a line is in its symbol's file.
    F.file = Out->save(S.FileName.empty() && I + 1 == N ? S.SymbolFileName
                                                        : S.FileName);
    F.line = S.Line;
    F.column = S.Column;
    F.start_address = S.StartAddress;
    F.module = Out->save(Module              ? *Module
                         : !S.Module.empty() ? S.Module
                                             : Outermost);
    F.inlined = I + 1 < N;
    Out->Frames.push_back(F);
  }
}

void ResultsBuilder::lookup(const AddressSymbolizer &Table, uint64_t Value,
                            bool FileOffsets, std::optional<StringRef> Module) {
  uint64_t Address = Value;
  if (FileOffsets) {
    Expected<std::optional<uint64_t>> A = Table.fileOffsetToAddress(Value);
    if (!A)
      return addFailure(Value,
                        toFailure(A.takeError(), DWARFPACK_ERR_UNSUPPORTED));
    if (!*A) // no segment loads that offset: not found
      return add(Value, LookupResult(), Module);
    Address = **A;
  }
  // Views: the table's strings are saved once each, not copied first.
  if (Error E = Table.lookupViews(Address, Views))
    return addFailure(Value, toFailure(std::move(E), DWARFPACK_ERR_CORRUPT));
  add(Value, Views.Frames, Module);
}

void ResultsBuilder::lookupAll(const AddressSymbolizer &Table,
                               ArrayRef<uint64_t> Values, bool FileOffsets) {
  answerAll(
      Values.size(),
      [&](uint32_t A, uint32_t B) { return Values[A] < Values[B]; },
      [&](size_t I) { lookup(Table, Values[I], FileOffsets); });
}

void ResultsBuilder::answerAll(size_t Count,
                               function_ref<bool(uint32_t, uint32_t)> Less,
                               function_ref<void(size_t I)> Answer) {
  std::vector<uint32_t> Order(Count);
  std::iota(Order.begin(), Order.end(), 0);
  const size_t MinToOrder = 64;
  if (Count >= MinToOrder)
    llvm::stable_sort(Order, Less);
  size_t Base = Out->Results.size();
  Out->Results.resize(Base + Count);
  FirstFrame.resize(Base + Count);
  for (uint32_t I : Order) {
    Slot = Base + I;
    Answer(I);
  }
  Slot.reset();
}

void ResultsBuilder::addFailure(uint64_t Value, const Failure &F) {
  dwarfpack_result &Result = next();
  Result.address = Value;
  Result.status = F.Status;
  Result.error = Out->save(F.Message);
}

dwarfpack_results *ResultsBuilder::finish() {
  for (size_t I = 0; I < Out->Results.size(); ++I)
    Out->Results[I].frames = Out->Results[I].frame_count
                                 ? Out->Frames.data() + FirstFrame[I]
                                 : nullptr;
  Out->count = Out->Results.size();
  Out->results = Out->Results.data();
  return Out.release();
}

void ResultsBuilder::release(dwarfpack_results *R) {
  delete static_cast<ResultsBuilder::Object *>(R);
}

} // namespace capi
} // namespace dwarfpack
