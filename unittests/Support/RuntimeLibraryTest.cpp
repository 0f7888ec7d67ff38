//===- RuntimeLibraryTest.cpp - Libraries opened when first needed --------===//

#include "dwarfpack/Support/RuntimeLibrary.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace dwarfpack;

namespace {

TEST(RuntimeLibrary, BindsFunctionsOfALibrary) {
  RuntimeLibrary C("libc.so.6");
  decltype(&strlen) Strlen = nullptr;
  ASSERT_TRUE(C.bind("strlen", Strlen));
  EXPECT_EQ(Strlen("dwarfpack"), 9u);
  EXPECT_TRUE(C.problem().empty());
}

TEST(RuntimeLibrary, AMissingFunctionIsNamed) {
  RuntimeLibrary C("libc.so.6");
  void (*Missing)() = nullptr;
  EXPECT_FALSE(C.bind("dwarfpack_no_such_function", Missing));
  EXPECT_EQ(Missing, nullptr);
  EXPECT_NE(C.problem().find("dwarfpack_no_such_function"), std::string::npos)
      << C.problem();
}

TEST(RuntimeLibrary, AMissingLibraryIsNamedAndBindsNothing) {
  RuntimeLibrary L("libdwarfpack-no-such-library.so.9");
  EXPECT_NE(L.problem().find("libdwarfpack-no-such-library.so.9"),
            std::string::npos)
      << L.problem();
  decltype(&strlen) Strlen = &strlen;
  EXPECT_FALSE(L.bind("strlen", Strlen));
  EXPECT_EQ(Strlen, nullptr);
}

} // namespace
