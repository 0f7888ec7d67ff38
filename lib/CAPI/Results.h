//===- Results.h - Lookup results as the C API hands them out -------------===//
//
// A batch's answers go to the caller as one dwarfpack_results object that
// owns every array and string it points to, so that the caller frees one
// pointer, once, whatever the batch held.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CAPI_RESULTS_H
#define DWARFPACK_CAPI_RESULTS_H

#include "Status.h"

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace dwarfpack {
namespace capi {

/// Builds the answers of one batch, one per number asked, in order.
class ResultsBuilder {
public:
  /// Flags: the DWARFPACK_SYMBOLIZE_* flags of the call.
  ResultsBuilder(size_t Count, uint32_t Flags);
  ~ResultsBuilder();

  /// The frames of R for Value, the number as asked. Each frame's module is
  /// Module when given, else its own, else the outermost frame's (a kernel
  /// module's answers name it in that frame).
  void add(uint64_t Value, const LookupResult &R,
           std::optional<llvm::StringRef> Module = std::nullopt);
  /// Same, from views of a lookup's frames.
  void add(uint64_t Value, llvm::ArrayRef<FrameView> Frames,
           std::optional<llvm::StringRef> Module = std::nullopt);
  /// Looks Value up in Table, as an address or, with FileOffsets, as an
  /// offset in the module's file, and adds the answer or the failure (a
  /// corrupt record, a table without load segments); Module as for add().
  void lookup(const AddressSymbolizer &Table, uint64_t Value, bool FileOffsets,
              std::optional<llvm::StringRef> Module = std::nullopt);
  /// lookup() for each of Values, the results in their order.
  void lookupAll(const AddressSymbolizer &Table,
                 llvm::ArrayRef<uint64_t> Values, bool FileOffsets);
  /// Answers the numbers 0 to Count - 1 of a batch by Answer(I), which adds
  /// one result: in the order of Less (stable) for a large batch, which
  /// misses the caches far less when Less follows the tables' addresses
  /// (Symbolize/QueryBatch.h); the results stay in the order asked.
  void answerAll(size_t Count,
                 llvm::function_ref<bool(uint32_t, uint32_t)> Less,
                 llvm::function_ref<void(size_t I)> Answer);
  /// No frames for Value, for reason F.
  void addFailure(uint64_t Value, const Failure &F);

  /// The finished object, for release().
  dwarfpack_results *finish();
  /// Releases an object made by finish() (null: nothing).
  static void release(dwarfpack_results *R);

private:
  /// The result to fill next: the next in order, or Slot's.
  dwarfpack_result &next();

  struct Object;
  std::unique_ptr<Object> Out;
  /// Per result, the index of its first frame in Out->Frames (the frames'
  /// array may move while it grows: pointers are set by finish()).
  std::vector<size_t> FirstFrame;
  /// Where answerAll() puts the result being added.
  std::optional<size_t> Slot;
  bool Demangle;
  /// The frames of the lookup being added (their storage serves the next).
  FrameViews Views;
};

} // namespace capi
} // namespace dwarfpack

#endif
