#include "dwarfpack/Support/Diagnostics.h"

#include "gtest/gtest.h"

#include <thread>

using namespace dwarfpack;

TEST(WarningLogTest, CountsByKindAndKeepsFewExamples) {
  WarningLog Log;
  for (int I = 0; I < 10; ++I)
    Log.report("b-kind", "message " + llvm::Twine(I));
  Log.report("a-kind", "only one");
  auto S = Log.summary();
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Kind, "a-kind");
  EXPECT_EQ(S[0].Count, 1u);
  EXPECT_EQ(S[1].Kind, "b-kind");
  EXPECT_EQ(S[1].Count, 10u);
  EXPECT_EQ(S[1].Examples.size(), WarningLog::MaxExamplesPerKind);
  EXPECT_EQ(S[1].Examples[0], "message 0");
  EXPECT_EQ(Log.total(), 11u);
  EXPECT_EQ(Log.count("b-kind"), 10u);
  EXPECT_EQ(Log.count("missing"), 0u);
}

TEST(WarningLogTest, RepeatedMessagesAreOneExample) {
  WarningLog Log;
  Log.report("k", "same");
  Log.report("k", "same");
  Log.report("k", "other");
  WarningLog Other;
  Other.report("k", "same");
  Other.report("k", "third");
  Log.merge(Other);
  auto S = Log.summary();
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Count, 5u);
  EXPECT_EQ(S[0].Examples,
            (std::vector<std::string>{"same", "other", "third"}));
}

TEST(WarningLogTest, ThreadSafeAndMergeable) {
  WarningLog Log;
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 1000; ++I)
        Log.report("k", "m");
    });
  for (auto &T : Threads)
    T.join();
  EXPECT_EQ(Log.count("k"), 4000u);
  WarningLog Other;
  Other.report("k", "x");
  Other.report("z", "y");
  Log.merge(Other);
  EXPECT_EQ(Log.count("k"), 4001u);
  EXPECT_EQ(Log.count("z"), 1u);
}

TEST(WarningLogTest, NotesAreCountedApartFromWarnings) {
  WarningLog Log;
  Log.note("discarded-code", "n1");
  Log.note("discarded-code", "n2");
  Log.report("bad-range", "w");
  EXPECT_EQ(Log.total(), 1u);
  ASSERT_EQ(Log.summary().size(), 1u);
  EXPECT_EQ(Log.summary()[0].Kind, "bad-range");
  auto Notes = Log.notes();
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_EQ(Notes[0].Kind, "discarded-code");
  EXPECT_EQ(Notes[0].Count, 2u);
  WarningLog Other;
  Other.merge(Log);
  EXPECT_EQ(Other.total(), 1u);
  EXPECT_EQ(Other.notes()[0].Count, 2u);
}
