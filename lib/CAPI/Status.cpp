//===- Status.cpp - Errors of the C API: codes, messages, the last error --===//

#include "Status.h"

using namespace llvm;

namespace dwarfpack {
namespace capi {

char StatusError::ID;

Error statusError(dwarfpack_status Status, const Twine &Message) {
  return make_error<StatusError>(Status, Message.str());
}

Failure toFailure(Error E, dwarfpack_status Default) {
  Failure F{Default, ""};
  // A list of errors keeps the first status and every message.
  bool HasStatus = false;
  auto Append = [&](const std::string &Message) {
    F.Message += (F.Message.empty() ? "" : "; ") + Message;
  };
  handleAllErrors(
      std::move(E),
      [&](const StatusError &S) {
        if (!HasStatus)
          F.Status = S.status();
        HasStatus = true;
        Append(S.message());
      },
      [&](const ErrorInfoBase &Other) { Append(Other.message()); });
  return F;
}

// One per thread: a message stays valid until the same thread's next call,
// whatever other threads do.
static thread_local std::string LastError;

dwarfpack_status fail(Failure F) {
  LastError = std::move(F.Message);
  return F.Status;
}

void clearLastError() { LastError.clear(); }

const char *lastError() { return LastError.c_str(); }

} // namespace capi
} // namespace dwarfpack
