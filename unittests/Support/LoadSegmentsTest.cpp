//===- LoadSegmentsTest.cpp - File offsets to addresses -------------------===//

#include "dwarfpack/Support/LoadSegments.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace dwarfpack;

namespace {

std::string check(std::vector<LoadSegment> S) {
  Error E = checkLoadSegments(S);
  return E ? toString(std::move(E)) : "ok";
}

TEST(LoadSegments, Check) {
  EXPECT_EQ(check({}), "ok");
  EXPECT_EQ(check({{0, 0, 1}, {1, 0, 1}}), "ok"); // adjacent, same address
  EXPECT_EQ(check({{0, 0, 0}}), "load segment 0 (file offset 0x0): size 0");
  EXPECT_EQ(check({{0x10, 0, 8}, {0x17, 0x100, 8}}),
            "load segment 1 (file offset 0x17): not sorted, or overlaps the "
            "one before");
  EXPECT_EQ(check({{0x20, 0, 8}, {0x10, 0x100, 8}}),
            "load segment 1 (file offset 0x10): not sorted, or overlaps the "
            "one before");
  EXPECT_EQ(check({{UINT64_MAX, 0, 2}}),
            "load segment 0 (file offset 0xFFFFFFFFFFFFFFFF): wraps around");
  EXPECT_EQ(check({{0, UINT64_MAX - 1, 2}}),
            "load segment 0 (file offset 0x0): wraps around");
  EXPECT_EQ(check({{0, UINT64_MAX - 1, 1}}), "ok");
}

TEST(LoadSegments, AddressOfFileOffset) {
  std::vector<LoadSegment> S = {{0, 0, 0x5f0}, {0x5f0, 0x15f0, 0x150}};
  EXPECT_EQ(addressOfFileOffset(S, 0), 0u);
  EXPECT_EQ(addressOfFileOffset(S, 0x5ef), 0x5efu);
  EXPECT_EQ(addressOfFileOffset(S, 0x5f0), 0x15f0u);
  EXPECT_EQ(addressOfFileOffset(S, 0x73f), 0x173fu);
  EXPECT_EQ(addressOfFileOffset(S, 0x740), std::nullopt);
  EXPECT_EQ(addressOfFileOffset({}, 0), std::nullopt);
  // A gap between segments, and the kernel's high addresses.
  S = {{0x200000, 0xffffffff81000000, 0x1000}, {0x400000, 0x2000, 0x10}};
  EXPECT_EQ(addressOfFileOffset(S, 0x1fffff), std::nullopt);
  EXPECT_EQ(addressOfFileOffset(S, 0x200010), 0xffffffff81000010u);
  EXPECT_EQ(addressOfFileOffset(S, 0x201000), std::nullopt);
  EXPECT_EQ(addressOfFileOffset(S, 0x40000f), 0x200fu);
}

} // namespace
