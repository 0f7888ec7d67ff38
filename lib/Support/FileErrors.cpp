//===- FileErrors.cpp - Several failures about one file -------------------===//

#include "dwarfpack/Support/FileErrors.h"

using namespace llvm;

namespace dwarfpack {

Error fileErrors(const Twine &File, MutableArrayRef<Error> Errors) {
  Error All = Error::success();
  for (Error &E : Errors)
    if (E)
      All = joinErrors(std::move(All), createFileError(File, std::move(E)));
  return All;
}

} // namespace dwarfpack
