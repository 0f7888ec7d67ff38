//===- FileErrors.h - Several failures about one file ---------------------===//
//
// llvm::createFileError keeps one error: given a list (joinErrors), it
// keeps only the last. A pipeline whose stages fail side by side names the
// file in front of each failure instead.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_FILEERRORS_H
#define DWARFPACK_SUPPORT_FILEERRORS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace dwarfpack {

/// Each failure of Errors (success entries are skipped, and all are
/// consumed) as an error naming File, joined in order; success if none.
llvm::Error fileErrors(const llvm::Twine &File,
                       llvm::MutableArrayRef<llvm::Error> Errors);

} // namespace dwarfpack

#endif
