#include "dwarfpack/Support/HugePages.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

constexpr const char *Madvise = "always [madvise] never";

TEST(HugePages, ModeIsTheBracketedOne) {
  EXPECT_EQ(HugePageSystem::parse("[always] madvise never", "", "", 4096).Mode,
            "always");
  EXPECT_EQ(HugePageSystem::parse(Madvise, "", "", 4096).Mode, "madvise");
  EXPECT_EQ(HugePageSystem::parse("always madvise [never]", "", "", 4096).Mode,
            "never");
  EXPECT_EQ(HugePageSystem::parse("", "", "", 4096).Mode, "");
  EXPECT_EQ(HugePageSystem::parse("madvise] [", "", "", 4096).Mode, "");
}

TEST(HugePages, AskingPaysInMadviseModeWithoutReporting) {
  // No page_reporting module, or no device registered yet (-1 shown as
  // unsigned).
  EXPECT_TRUE(HugePageSystem::parse(Madvise, "", "2097152", 4096).askingPays());
  HugePageSystem Unregistered =
      HugePageSystem::parse(Madvise, "4294967295\n", "2097152", 4096);
  EXPECT_FALSE(Unregistered.ReportingOrder);
  EXPECT_TRUE(Unregistered.askingPays());
  // Other modes: the heap has them without asking, or never.
  EXPECT_FALSE(HugePageSystem::parse("[always] madvise never", "", "", 4096)
                   .askingPays());
  EXPECT_FALSE(HugePageSystem::parse("always madvise [never]", "", "", 4096)
                   .askingPays());
}

TEST(HugePages, NotWhenFreeHugePagesGoBackToTheHost) {
  // x86-64 with virtio-balloon's reporting: blocks of 2^9 4 KiB pages.
  HugePageSystem Vm = HugePageSystem::parse(Madvise, "9\n", "2097152\n", 4096);
  EXPECT_EQ(Vm.ReportingOrder, 9u);
  EXPECT_TRUE(Vm.reportsFreeHugePages());
  EXPECT_FALSE(Vm.askingPays());
  // Smaller blocks are reported too.
  EXPECT_FALSE(
      HugePageSystem::parse(Madvise, "5", "2097152", 4096).askingPays());
  // Blocks larger than a huge page: a free huge page need not be in one.
  HugePageSystem Large = HugePageSystem::parse(Madvise, "10", "2097152", 4096);
  EXPECT_FALSE(Large.reportsFreeHugePages());
  EXPECT_TRUE(Large.askingPays());
  // 64 KiB pages with 512 MiB huge pages: order 13 is 512 MiB.
  EXPECT_TRUE(HugePageSystem::parse(Madvise, "13", "536870912", 65536)
                  .reportsFreeHugePages());
  EXPECT_FALSE(HugePageSystem::parse(Madvise, "14", "536870912", 65536)
                   .reportsFreeHugePages());
  // Garbage is no reporting.
  EXPECT_FALSE(
      HugePageSystem::parse(Madvise, "nine", "2097152", 4096).ReportingOrder);
}

TEST(HugePages, PmdSizeDefaultsTo2MiB) {
  EXPECT_EQ(HugePageSystem::parse(Madvise, "9", "", 4096).HugePageBytes,
            uint64_t(2) << 20);
  EXPECT_TRUE(
      HugePageSystem::parse(Madvise, "9", "", 4096).reportsFreeHugePages());
}

} // namespace
