//===- FileErrorsTest.cpp -------------------------------------------------===//

#include "dwarfpack/Support/FileErrors.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace dwarfpack;

static Error failure(const char *Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

TEST(FileErrors, EveryFailureKeepsTheFileName) {
  // createFileError on joinErrors(A, B) would keep B alone.
  Error Es[] = {failure("table too large"), failure("too many types")};
  std::string Msg = toString(fileErrors("vmlinux", Es));
  EXPECT_NE(Msg.find("'vmlinux': table too large"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("'vmlinux': too many types"), std::string::npos) << Msg;
}

TEST(FileErrors, SuccessesAreSkipped) {
  Error Es[] = {Error::success(), failure("too many types")};
  EXPECT_EQ(toString(fileErrors("m.ko", Es)), "'m.ko': too many types");
  Error None[] = {Error::success(), Error::success()};
  EXPECT_FALSE(bool(fileErrors("m.ko", None)));
}
