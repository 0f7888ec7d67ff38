//===- QueryBatchTest.cpp - Batches answered on threads -------------------===//

#include "dwarfpack/Symbolize/QueryBatch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace dwarfpack;
using namespace llvm;

namespace {

/// Function I spans [I * 0x100, I * 0x100 + 0x80), named fI, a line for
/// every LineBytes bytes; addresses that are multiples of 0x1000 hit a
/// corrupt record (an error). Read-only: threads share it.
class StripedTable : public AddressSymbolizer {
public:
  Expected<LookupResult> lookup(uint64_t A) const override {
    if (A % 0x1000 == 0)
      return createStringError(inconvertibleErrorCode(),
                               "corrupt record at " + Twine(A));
    LookupResult R;
    R.Address = A;
    if (A % 0x100 < 0x80) {
      SourceFrame F;
      F.FunctionName = ("f" + Twine(A / 0x100)).str();
      F.FileName = "/src/striped.c";
      F.Line = static_cast<uint32_t>(A % 0x100 / LineBytes);
      F.StartAddress = A - A % 0x100;
      R.Frames.push_back(F);
    }
    return R;
  }
  Error
  forEachFunction(function_ref<void(uint64_t, StringRef)> Fn) const override {
    for (uint64_t I = 0; I < 64; ++I)
      Fn(I * 0x100, ("f" + Twine(I)).str());
    return Error::success();
  }
  unsigned LineBytes = 1;
};

/// Lines of every kind a session answers: addresses in and out of
/// functions, errors, symbols, FRAME queries, empty lines and lines that
/// are not queries.
std::vector<std::string> queryLines() {
  std::vector<std::string> Lines;
  for (unsigned I = 0; I < 3000; ++I) {
    switch (I % 7) {
    case 0:
      Lines.push_back("0x" + utohexstr(I * 0x40));
      break;
    case 1:
      Lines.push_back("0x" + utohexstr((I % 64) * 0x1000)); // an error
      break;
    case 2:
      Lines.push_back("f" + std::to_string(I % 70) + "+3"); // by symbol
      break;
    case 3: // FRAME warns once, at its first line
      Lines.push_back(I % 2 ? "" : "FRAME 0x" + utohexstr(I));
      break;
    case 4:
      Lines.push_back("not a query " + std::to_string(I));
      break;
    default:
      Lines.push_back(std::to_string(I * 13));
    }
  }
  return Lines;
}

/// One table for every query, and the printer's options.
struct Setup {
  explicit Setup(OutputStyle Style) {
    Tables.setFixed(Table, "striped");
    PO.Style = Style;
    PO.ModuleName = "striped";
  }
  StripedTable Table;
  SessionTables Tables;
  PrinterOptions PO;
};

/// Prints W as a tool does: a recurring problem once.
void printWarning(raw_ostream &OS, StringSet<> &Seen, const QueryWarning &W) {
  if (W.Once.empty() || Seen.insert(W.Once).second)
    OS << "warning: " << W.Message << '\n';
}

/// Everything a batch run prints, warnings in the same stream where a
/// tool's reportWarning puts them; batches of WriteBehind lines or more
/// are written behind.
std::string runBatch(unsigned Threads, OutputStyle Style,
                     const QueryBatch::OrderFn &Order = nullptr,
                     size_t WriteBehind = SIZE_MAX) {
  Setup S(Style);
  QueryBatch Batch(S.Tables, S.PO, SessionOptions(), Threads);
  Batch.setWriteBehind(WriteBehind);
  std::string Out;
  raw_string_ostream OS(Out);
  StringSet<> Seen;
  auto Warn = [&](const QueryWarning &W) { printWarning(OS, Seen, W); };
  auto Answer = [](QuerySession &S, StringRef Line) { S.answerLine(Line); };
  std::vector<std::string> All = queryLines();
  // Batches of several sizes, as reads of stdin give them.
  size_t At = 0;
  for (size_t Size : {1u, 700u, 3u, 2000u, 10000u}) {
    std::vector<StringRef> Lines(All.begin() + At,
                                 All.begin() + std::min(At + Size, All.size()));
    Batch.answer(Lines, Answer, OS, Warn, Order);
    At = std::min(At + Size, All.size());
  }
  Batch.finishWriting();
  return Out;
}

/// The same lines answered by one session, one after the other.
std::string runSerial(OutputStyle Style) {
  Setup S(Style);
  std::string Out;
  raw_string_ostream OS(Out);
  ResultPrinter P(OS, S.PO);
  StringSet<> Seen;
  QuerySession Session(
      S.Tables, P, SessionOptions(),
      [&](const QueryWarning &W) { printWarning(OS, Seen, W); });
  for (const std::string &Line : queryLines())
    Session.answerLine(Line);
  return Out;
}

TEST(QueryBatch, SameOutputAndWarningsAsOneSessionAtAnyThreadCount) {
  for (OutputStyle Style : {OutputStyle::LLVM, OutputStyle::JSON}) {
    std::string Want = runSerial(Style);
    ASSERT_NE(Want.find("warning: 'striped': corrupt record"),
              std::string::npos);
    ASSERT_NE(Want.find("f3"), std::string::npos);
    ASSERT_NE(Want.find("warning: FRAME"), std::string::npos);
    for (unsigned Threads : {1u, 2u, 4u})
      EXPECT_EQ(runBatch(Threads, Style), Want) << "threads " << Threads;
  }
}

QueryBatch::LineKey orderOfLine(StringRef Line) {
  return queryLineOrder(Line, LineModules::None);
}

/// The key, and 'j' for JustAddress.
std::pair<uint64_t, char> keyOf(StringRef Line) {
  QueryBatch::LineKey K = orderOfLine(Line);
  return {K.Order, K.JustAddress ? 'j' : '-'};
}

TEST(QueryBatch, AnsweredInAddressOrderPrintedInLineOrder) {
  for (OutputStyle Style : {OutputStyle::LLVM, OutputStyle::JSON}) {
    std::string Want = runSerial(Style);
    for (unsigned Threads : {1u, 2u, 4u})
      EXPECT_EQ(runBatch(Threads, Style, orderOfLine), Want)
          << "threads " << Threads;
  }
}

TEST(QueryBatch, WrittenBehindAsWrittenAtOnce) {
  for (OutputStyle Style : {OutputStyle::LLVM, OutputStyle::JSON}) {
    std::string Want = runSerial(Style);
    // Every batch written behind; the large ones only (the next batch
    // written at once after one written behind).
    for (size_t Behind : {1u, 700u})
      for (unsigned Threads : {1u, 2u, 4u}) {
        EXPECT_EQ(runBatch(Threads, Style, nullptr, Behind), Want)
            << "threads " << Threads << ", behind from " << Behind;
        EXPECT_EQ(runBatch(Threads, Style, orderOfLine, Behind), Want)
            << "threads " << Threads << ", behind from " << Behind;
      }
  }
}

TEST(QueryBatch, TablesOpenedByTheQueriesAreWrittenAtOnce) {
  // Such tables may call back into the caller while answering (a store
  // files tables and says so): their batches are written before answer()
  // returns, whatever their size.
  std::string Out;
  raw_string_ostream OS(Out);
  unsigned Warnings = 0;
  SessionTables Tables;
  PrinterOptions PO;
  QueryBatch Batch(Tables, PO, SessionOptions(), 2);
  Batch.setWriteBehind(1);
  std::vector<std::string> All(5000, "/nonexistent/table 0x10");
  std::vector<StringRef> Lines(All.begin(), All.end());
  Batch.answer(
      Lines, [](QuerySession &S, StringRef Line) { S.answerLine(Line); }, OS,
      [&](const QueryWarning &) { ++Warnings; });
  EXPECT_EQ(StringRef(Out).count("??:0:0"), All.size());
  EXPECT_GT(Warnings, 0u);
}

TEST(QueryBatch, OrderKeys) {
  using K = std::pair<uint64_t, char>;
  EXPECT_EQ(keyOf("0x1234"), K(0x1234, 'j'));
  EXPECT_EQ(keyOf("0xffffffff8100ABcd"), K(0xffffffff8100abcd, 'j'));
  EXPECT_EQ(keyOf("0X1234"), K(0x1234, 'j'));
  EXPECT_EQ(keyOf("0x1234 words after"), K(0x1234, '-'));
  EXPECT_EQ(keyOf("0x12345678901234567"), K(UINT64_MAX, '-')); // 65 bits
  EXPECT_EQ(keyOf("0x12g4"), K(UINT64_MAX, '-'));
  EXPECT_EQ(keyOf("0x"), K(UINT64_MAX, '-'));
  EXPECT_EQ(keyOf("4660"), K(4660, '-'));
  EXPECT_EQ(keyOf("CODE 0x10"), K(0x10, '-'));
  EXPECT_EQ(keyOf("DATA 0x10"), K(0x10, '-'));
  EXPECT_EQ(keyOf("FRAME 0x10"), K(UINT64_MAX, '-'));
  EXPECT_EQ(keyOf("f3+3"), K(UINT64_MAX, '-'));
  EXPECT_EQ(keyOf(""), K(UINT64_MAX, '-'));
  EXPECT_EQ(keyOf("not a query"), K(UINT64_MAX, '-'));
  // A line that names its module is no query of the one table's.
  QueryBatch::LineKey Named =
      queryLineOrder("0x10", LineModules::FileOrBuildId);
  EXPECT_FALSE(Named.JustAddress);
}

/// Records the addresses it is asked, in turn, by thread.
class RecordingTable : public StripedTable {
public:
  Expected<LookupResult> lookup(uint64_t A) const override {
    std::lock_guard<std::mutex> L(M);
    Asked[std::this_thread::get_id()].push_back(A);
    return StripedTable::lookup(A);
  }
  /// What the calling thread asked.
  std::vector<uint64_t> &askedHere() {
    return Asked[std::this_thread::get_id()];
  }
  mutable std::mutex M;
  mutable std::map<std::thread::id, std::vector<uint64_t>> Asked;
};

TEST(QueryBatch, LookupsOfABatchGoInAddressOrder) {
  RecordingTable Table;
  SessionTables Tables;
  Tables.setFixed(Table, "recording");
  std::vector<std::string> Text;
  // Keys that differ in low and high bits (several passes of a radix
  // sort), some repeated.
  for (uint64_t I = 0; I < 300; ++I)
    Text.push_back("0x" + utohexstr((I * 7919) % 4096 + 1 + (I % 5 << 37) +
                                    (I % 3 << 60)));
  std::vector<StringRef> Lines(Text.begin(), Text.end());
  auto Answer = [](QuerySession &S, StringRef Line) { S.answerLine(Line); };
  QueryBatch Batch(Tables, PrinterOptions(), SessionOptions(), 1);
  std::string InTurn, Ordered;
  raw_string_ostream InTurnOS(InTurn), OrderedOS(Ordered);
  // Without keys, in the order of the lines.
  Batch.answer(Lines, Answer, InTurnOS, nullptr);
  ASSERT_EQ(Table.askedHere().size(), Lines.size());
  EXPECT_FALSE(llvm::is_sorted(Table.askedHere()));
  Table.Asked.clear();
  Batch.answer(Lines, Answer, OrderedOS, nullptr, orderOfLine);
  ASSERT_EQ(Table.askedHere().size(), Lines.size());
  EXPECT_TRUE(llvm::is_sorted(Table.askedHere()));
  // Printed in the order of the lines all the same.
  EXPECT_EQ(Ordered, InTurn);
}

/// 5,000 distinct addresses out of order, as query lines.
std::vector<std::string> distinctAddresses() {
  std::vector<std::string> Text;
  for (uint64_t I = 0; I < 5000; ++I)
    Text.push_back("0x" + utohexstr((I * 7919) % 65536 + 1));
  return Text;
}

/// Answers Lines from Tables on two threads, a batch written behind: by
/// ranges of addresses.
void answerOnTwoThreads(SessionTables &Tables, ArrayRef<StringRef> Lines,
                        raw_ostream &OS) {
  auto Answer = [](QuerySession &S, StringRef Line) { S.answerLine(Line); };
  QueryBatch Batch(Tables, PrinterOptions(), SessionOptions(), 2);
  Batch.setWriteBehind(1000);
  Batch.answer(Lines, Answer, OS, nullptr, orderOfLine);
}

// A large batch written behind is answered by ranges of addresses: each
// thread looks up the addresses of the ranges it takes, in order,
// whichever lines they come from, and no other thread looks them up; the
// answers are printed in line order all the same.
TEST(QueryBatch, ThreadsOfABatchWrittenBehindAnswerRangesOfAddresses) {
  RecordingTable Table;
  SessionTables Tables;
  Tables.setFixed(Table, "recording");
  std::vector<std::string> Text = distinctAddresses();
  std::vector<StringRef> Lines(Text.begin(), Text.end());
  auto Answer = [](QuerySession &S, StringRef Line) { S.answerLine(Line); };
  std::string Serial, Ranged;
  raw_string_ostream SerialOS(Serial), RangedOS(Ranged);
  QueryBatch(Tables, PrinterOptions(), SessionOptions(), 1)
      .answer(Lines, Answer, SerialOS, nullptr);
  Table.Asked.clear();
  answerOnTwoThreads(Tables, Lines, RangedOS);
  EXPECT_EQ(Ranged, Serial);
  // (How many each thread takes depends on when each is free:
  // RangesOfAddressesGoToTheThreadThatIsFree.)
  EXPECT_LE(Table.Asked.size(), 2u);
  std::vector<uint64_t> All;
  for (auto &[Id, Asked] : Table.Asked) {
    EXPECT_TRUE(llvm::is_sorted(Asked));
    All.insert(All.end(), Asked.begin(), Asked.end());
  }
  // (The addresses are distinct.)
  llvm::sort(All);
  EXPECT_EQ(std::unique(All.begin(), All.end()) - All.begin(),
            ptrdiff_t(Lines.size()));
}

// The ranges of a batch go to whichever thread is free: a thread slowed
// (here the caller's, by its lookups; in a tool, by the thread writing the
// batch before) leaves most of them to the other.
TEST(QueryBatch, RangesOfAddressesGoToTheThreadThatIsFree) {
  class SlowOnCaller : public RecordingTable {
  public:
    Expected<LookupResult> lookup(uint64_t A) const override {
      if (std::this_thread::get_id() == Caller)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      return RecordingTable::lookup(A);
    }
    std::thread::id Caller = std::this_thread::get_id();
  } Table;
  SessionTables Tables;
  Tables.setFixed(Table, "slow");
  std::vector<std::string> Text = distinctAddresses();
  std::vector<StringRef> Lines(Text.begin(), Text.end());
  std::string Out;
  raw_string_ostream OS(Out);
  answerOnTwoThreads(Tables, Lines, OS);
  // With one range a thread, 2,508; below 2,000 unless the other thread
  // did not start for 0.4 s.
  EXPECT_LT(Table.Asked[Table.Caller].size(), 2000u);
}

/// StripedTable with a line for every 16 bytes, which its lookups say are
/// answered alike (FrameViews::SameFrom and SameTo). Counts its lookups.
class BlockTable : public StripedTable {
public:
  BlockTable() { LineBytes = 16; }
  Error lookupViews(uint64_t A, FrameViews &Out) const override {
    ++Lookups;
    if (Error E = AddressSymbolizer::lookupViews(A, Out))
      return E;
    if (!Out.Frames.empty()) {
      Out.SameFrom = A & ~uint64_t(15);
      Out.SameTo = Out.SameFrom + 16;
    }
    return Error::success();
  }
  mutable std::atomic<unsigned> Lookups{0};
};

// Addresses of a batch in order that the table answers as the address
// before (its lookup said so, or the same address) are printed from that
// answer's text without a lookup; the output is the one session's in
// line order, in every style, with --adjust-vma, warnings in place.
TEST(QueryBatch, AddressesAnsweredAlikeAreNotLookedUpAgain) {
  std::vector<std::string> Text;
  std::set<uint64_t> Blocks;
  unsigned Outside = 0;
  for (uint64_t I = 0; I < 6000; ++I) {
    // In 48 functions, and past the end of some.
    // (None at a multiple of 0x1000, which is an error.)
    const uint64_t A = (I * 7919) % 48 * 0x100 + (I * 31) % 0x8f + 1 + 0x40;
    Text.push_back("0x" + utohexstr(A));
    if ((A - 0x40) % 0x100 < 0x80)
      Blocks.insert((A - 0x40) / 16);
    else
      ++Outside; // unanswered: warned of, never answered from another
  }
  std::vector<StringRef> Lines(Text.begin(), Text.end());
  ASSERT_LT(Blocks.size() + Outside, Lines.size() / 2);
  SessionOptions SO;
  SO.AddressOffset = 0x40;
  auto Answer = [](QuerySession &S, StringRef Line) { S.answerLine(Line); };
  std::vector<PrinterOptions> Styles(5);
  Styles[1].Style = OutputStyle::JSON;
  Styles[2].PrintAddress = true;
  Styles[3].Style = OutputStyle::GNU;
  Styles[3].PrintAddress = Styles[3].Pretty = true;
  Styles[4].Style = OutputStyle::Addr2Line;
  Styles[4].PrintAddress = true;
  for (PrinterOptions &PO : Styles) {
    PO.ModuleName = "blocks";
    BlockTable Table;
    SessionTables Tables;
    Tables.setFixed(Table, "blocks");
    std::string Serial;
    raw_string_ostream SerialOS(Serial);
    StringSet<> SerialSeen;
    {
      ResultPrinter P(SerialOS, PO);
      QuerySession Session(Tables, P, SO, [&](const QueryWarning &W) {
        printWarning(SerialOS, SerialSeen, W);
      });
      for (StringRef Line : Lines)
        Session.answerLine(Line);
      Session.flushCounts();
    }
    for (unsigned Threads : {1u, 2u}) {
      Table.Lookups = 0;
      std::string Out;
      raw_string_ostream OS(Out);
      StringSet<> Seen;
      {
        QueryBatch Batch(Tables, PO, SO, Threads);
        Batch.setWriteBehind(1000); // by ranges of addresses with 2
        Batch.answer(
            Lines, Answer, OS,
            [&](const QueryWarning &W) { printWarning(OS, Seen, W); },
            orderOfLine);
      }
      EXPECT_EQ(Out, Serial) << int(PO.Style) << ", " << Threads;
      // A block split between two ranges of addresses (16 a thread) is
      // looked up in each.
      EXPECT_GE(Table.Lookups, Blocks.size() + Outside);
      EXPECT_LE(Table.Lookups, Blocks.size() + Outside + 16 * Threads);
    }
  }
}

TEST(QueryBatch, TablesNamedByQueriesAreAnsweredOnOneThread) {
  SessionTables ByPath;
  EXPECT_EQ(QueryBatch(ByPath, PrinterOptions(), SessionOptions(), 4).threads(),
            1u);
  StripedTable Table;
  SessionTables Fixed;
  Fixed.setFixed(Table, "striped");
  EXPECT_EQ(QueryBatch(Fixed, PrinterOptions(), SessionOptions(), 4).threads(),
            4u);
}

} // namespace
