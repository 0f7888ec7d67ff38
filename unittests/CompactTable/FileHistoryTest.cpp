// The ring the compact line tables' writer and reader share, against the
// plain list it stands for (docs/CompactTable.md, "Records"): most recent
// first, at most Capacity contexts, the oldest dropping out.
#include "../../lib/CompactTable/FileHistory.h"

#include "gtest/gtest.h"

#include <deque>
#include <random>
#include <utility>

using namespace dwarfpack::compact;

namespace {

using Context = std::pair<uint32_t, uint32_t>;

void expectSame(const FileHistory &H, const std::deque<Context> &List) {
  ASSERT_EQ(H.size(), List.size());
  for (unsigned I = 0; I < List.size(); ++I) {
    EXPECT_EQ(H.file(I), List[I].first) << I;
    EXPECT_EQ(H.line(I), List[I].second) << I;
  }
}

TEST(FileHistoryTest, AgreesWithAPlainListThroughManyWraps) {
  std::mt19937 Random(7);
  for (int Round = 0; Round < 20; ++Round) {
    FileHistory H;
    std::deque<Context> List;
    H.start(1, 10);
    List.push_front({1, 10});
    for (int Step = 0; Step < 2000; ++Step) {
      auto Cap = [&] {
        if (List.size() > FileHistory::Capacity)
          List.pop_back();
      };
      switch (Random() % 4) {
      case 0: { // a new context
        uint32_t File = Random() % 50, Line = Random();
        H.add(File, Line);
        List.push_front({File, Line});
        Cap();
        break;
      }
      case 1: // a long row
        H.push();
        List.insert(List.begin() + 1, List.front());
        Cap();
        break;
      case 2: { // back to an earlier context
        unsigned Index = Random() % List.size();
        Context C = List[Index];
        EXPECT_EQ(H.select(Index), C.second);
        List.erase(List.begin() + Index);
        List.push_front(C);
        break;
      }
      case 3: { // a row moves the line on
        uint32_t Line = Random();
        H.setLine(Line);
        List.front().second = Line;
        break;
      }
      }
      expectSame(H, List);
      if (HasFatalFailure() || HasFailure())
        return;
    }
  }
}

TEST(FileHistoryTest, StartForgetsEverything) {
  FileHistory H;
  H.start(1, 1);
  for (uint32_t I = 0; I < 40; ++I)
    H.add(I, I);
  EXPECT_EQ(H.size(), FileHistory::Capacity);
  H.start(9, 90);
  expectSame(H, {{9, 90}});
}

} // namespace
