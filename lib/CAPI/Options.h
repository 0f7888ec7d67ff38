//===- Options.h - Options structures of any version ----------------------===//
//
// Options structures start with their size, as the caller's header had
// them, so that members can be appended without breaking programs built
// against an older or a newer header (dwarfpack.h, "Compatibility").
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CAPI_OPTIONS_H
#define DWARFPACK_CAPI_OPTIONS_H

#include "Status.h"

#include <algorithm>
#include <cstring>

namespace dwarfpack {
namespace capi {

/// Reads the caller's options In (null: the defaults) into Out, zeroed
/// first: members beyond the caller's size keep their zero defaults, and a
/// caller's members beyond ours must be zero (features this library does
/// not have must not be silently ignored). What names the structure.
template <typename T>
llvm::Error readOptions(const T *In, const char *What, T &Out) {
  std::memset(&Out, 0, sizeof(T));
  Out.size = sizeof(T);
  if (!In)
    return llvm::Error::success();
  if (In->size < sizeof(In->size))
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       llvm::Twine(What) + ": size " + llvm::Twine(In->size) +
                           " is too small (set it to sizeof(" + What + "))");
  const unsigned char *Bytes = reinterpret_cast<const unsigned char *>(In);
  if (std::any_of(Bytes + std::min(In->size, sizeof(T)), Bytes + In->size,
                  [](unsigned char B) { return B != 0; }))
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       llvm::Twine(What) +
                           ": members that this version of the library does "
                           "not know are set (it knows " +
                           llvm::Twine(sizeof(T)) + " bytes of " +
                           llvm::Twine(In->size) + ")");
  std::memcpy(&Out, In, std::min(In->size, sizeof(T)));
  Out.size = sizeof(T);
  return llvm::Error::success();
}

/// An error unless Flags is within Known.
inline llvm::Error checkFlags(uint32_t Flags, uint32_t Known,
                              const char *What) {
  if (Flags & ~Known)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       llvm::Twine(What) + ": unknown flags 0x" +
                           llvm::Twine::utohexstr(Flags & ~Known));
  return llvm::Error::success();
}

/// The checks every *_symbolize call makes before it looks anything up, in
/// this order: OUT is given (and then cleared, so that a failed call leaves
/// NULL there), the handle and the input array are given (the array may be
/// NULL when the count is 0; Missing names them), no unknown flag.
inline llvm::Error checkSymbolizeCall(const char *Call, dwarfpack_results **Out,
                                      bool HasHandle, bool HasItems,
                                      const char *Missing, uint32_t Flags,
                                      uint32_t Known) {
  if (!Out)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       llvm::Twine(Call) + ": OUT is NULL");
  *Out = nullptr;
  if (!HasHandle || !HasItems)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       llvm::Twine(Call) + ": " + Missing + " is NULL");
  return checkFlags(Flags, Known, Call);
}

} // namespace capi
} // namespace dwarfpack

#endif
