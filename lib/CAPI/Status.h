//===- Status.h - Errors of the C API: codes, messages, the last error ----===//
//
// The C API reports each failure as a dwarfpack_status and a message. Inside
// the library a failure is an llvm::Error like any other; a StatusError
// carries the code the API returns for it, chosen where the failure is
// understood (a missing file, a reader that refuses its bytes). The message
// of a failed call is kept per thread (dwarfpack_last_error), so that
// threads that share a handle do not see each other's errors.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CAPI_STATUS_H
#define DWARFPACK_CAPI_STATUS_H

#include "dwarfpack/dwarfpack.h"

#include "llvm/Support/Error.h"

#include <new>
#include <string>

namespace dwarfpack {
namespace capi {

/// An error with the status the C API returns for it.
class StatusError : public llvm::ErrorInfo<StatusError> {
public:
  static char ID;
  StatusError(dwarfpack_status Status, std::string Message)
      : Status(Status), Message(std::move(Message)) {}
  dwarfpack_status status() const { return Status; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  dwarfpack_status Status;
  std::string Message;
};

llvm::Error statusError(dwarfpack_status Status, const llvm::Twine &Message);

/// A failure as the API reports it.
struct Failure {
  dwarfpack_status Status;
  std::string Message;
};

/// The status and message of E (consumed): a StatusError's own, any other
/// error's message with Default.
Failure toFailure(llvm::Error E, dwarfpack_status Default);

/// Records F as the calling thread's last error and returns its status.
dwarfpack_status fail(Failure F);
inline dwarfpack_status fail(dwarfpack_status Status, std::string Message) {
  return fail(Failure{Status, std::move(Message)});
}
/// Fails with E's status (Default for an error that carries none).
inline dwarfpack_status fail(llvm::Error E, dwarfpack_status Default) {
  return fail(toFailure(std::move(E), Default));
}

void clearLastError();
const char *lastError();

/// Runs Body, the work of one API call, after clearing the thread's last
/// error; memory running out fails the call instead of ending the host
/// process with an exception through C frames.
template <typename Fn> dwarfpack_status guard(Fn &&Body) noexcept {
  try {
    clearLastError();
    return Body();
  } catch (const std::bad_alloc &) {
    return fail(DWARFPACK_ERR_NO_MEMORY, "out of memory");
  }
}

} // namespace capi
} // namespace dwarfpack

#endif
