//===- QueryBatch.cpp - Answering batches of query lines on threads -------===//

#include "dwarfpack/Symbolize/QueryBatch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace dwarfpack {

/// Sorts Keys by their first member, keeping the order of equal ones: a
/// radix sort, 11 bits a pass, over the bits in which the keys differ
/// (the addresses of one table share most of theirs), several times
/// faster than a comparison sort on a batch.
static void sortByKey(std::vector<std::pair<uint64_t, uint32_t>> &Keys,
                      std::vector<std::pair<uint64_t, uint32_t>> &Scratch) {
  if (Keys.empty())
    return;
  uint64_t Differ = 0;
  for (const auto &K : Keys)
    Differ |= K.first ^ Keys.front().first;
  const unsigned Bits = 11;
  Scratch.resize(Keys.size());
  for (unsigned Shift = 0; Shift < 64 && (Differ >> Shift); Shift += Bits) {
    uint32_t Count[(1u << Bits) + 1] = {};
    for (const auto &K : Keys)
      ++Count[((K.first >> Shift) & ((1u << Bits) - 1)) + 1];
    for (unsigned D = 1; D <= (1u << Bits); ++D)
      Count[D] += Count[D - 1];
    for (const auto &K : Keys)
      Scratch[Count[(K.first >> Shift) & ((1u << Bits) - 1)]++] = K;
    Keys.swap(Scratch);
  }
}

/// The answers of a batch's parts, with their warnings, until written.
struct QueryBatch::Answers {
  struct Part {
    std::string Text;
    /// Each warning, with where in Text the answer of its line begins.
    std::vector<std::pair<QueryWarning, size_t>> Warnings;
  };
  std::vector<Part> Parts;
  size_t Used = 0;

  /// Writes the answers to OS and passes on the warnings, each where one
  /// session would have given it: after the answers before it (a caller
  /// that shows both streams together sees it before the answer it
  /// concerns). The parts keep their memory for the next batch.
  void write(raw_ostream &OS, const QueryWarningFn &Warn) {
    for (Part &P : MutableArrayRef(Parts).take_front(Used)) {
      StringRef All = P.Text;
      size_t Written = 0;
      for (const auto &[M, At] : P.Warnings) {
        OS << All.slice(Written, At);
        Written = At;
        if (Warn)
          Warn(M);
      }
      OS << All.substr(Written);
      P.Text.clear();
      P.Warnings.clear();
    }
    Used = 0;
  }
};

/// One thread's session, printing into its own text.
struct QueryBatch::Worker {
  /// Answers from Shared, or from a copy of it of its own (Own) when
  /// Shared gives one table for every query.
  Worker(SessionTables &Shared, bool Copy, const PrinterOptions &PO,
         SessionOptions SO)
      : Out(Text), Printer(Out, PO), Session(Copy ? Own : Shared, Printer, SO,
                                             [this](const QueryWarning &W) {
                                               Warnings.push_back({W, Current});
                                             }) {
    // An answer is written in many small pieces: buffered, they cost a
    // copy each instead of a call.
    Out.SetBufferSize(64 * 1024);
    if (Copy)
      Own.setFixed(*Shared.fixed()->Table, Shared.fixed()->Name);
  }

  /// Answers Lines, in the order of Order's keys when given.
  void answer(ArrayRef<StringRef> Lines, const AnswerFn &Answer,
              const OrderFn &Order) {
    Spans.resize(Lines.size());
    // Answers line I by Do, noting where its answer lies.
    auto AnswerAs = [&](uint32_t I, auto Do) {
      Current = I;
      Session.setQueryIndex(I);
      size_t From = Out.tell();
      Do();
      Spans[I] = {From, size_t(Out.tell())};
    };
    // Below this many, the lookups touch too little of a table to gain.
    // (Line numbers take 31 bits in the keys.)
    const size_t MinToOrder = 64;
    const bool Ordered =
        Order && Lines.size() >= MinToOrder && !(Lines.size() >> 31);
    if (!Ordered) {
      for (uint32_t I = 0; I < Lines.size(); ++I)
        AnswerAs(I, [&] { Answer(Session, Lines[I]); });
    } else {
      // Lines of one key keep their order (FRAME warns at the first line
      // of no address). The top bit of the line number says JustAddress.
      const uint32_t Just = 1u << 31;
      std::vector<std::pair<uint64_t, uint32_t>> Keys;
      Keys.reserve(Lines.size());
      for (uint32_t I = 0; I < Lines.size(); ++I) {
        LineKey K = Order(Lines[I]);
        Keys.push_back({K.Order, I | (K.JustAddress ? Just : 0)});
      }
      sortByKey(Keys, Scratch);
      // As answerLine() names the module of every line.
      QueryModule &Fixed = *Session.tables().fixed();
      Printer.setModuleName(Fixed.Name);
      for (const auto &[Key, Line] : Keys) {
        uint32_t I = Line & ~Just;
        if (Line & Just)
          // As answerLine() would, without reading the line again (which,
          // out of turn, would miss the cache).
          AnswerAs(I, [&, Key = Key] { Session.answerAddress(Fixed, Key); });
        else
          AnswerAs(I, [&] { Answer(Session, Lines[I]); });
      }
    }
    // The counts of repeated problems, with the batch's last line: they
    // are totals, printed with nothing.
    Session.flushCounts();
    Out.flush();
    if (Ordered) {
      putInOrder();
      llvm::stable_sort(Warnings, [](const auto &A, const auto &B) {
        return A.second < B.second;
      });
    }
    // Each warning goes where its line's answer begins.
    for (auto &W : Warnings)
      W.second = Spans[W.second].first;
  }

  /// Puts the answers in Text in the order of their lines (on the thread
  /// that answered them: only the writing is left to the caller's).
  void putInOrder() {
    StringRef All = Text;
    InOrder.clear();
    InOrder.reserve(Text.size());
    for (auto &[From, To] : Spans) {
      size_t At = InOrder.size();
      InOrder += All.slice(From, To);
      From = At;
      To = InOrder.size();
    }
    std::swap(Text, InOrder);
  }

  /// Hands the answers and warnings over to P (whose memory this keeps).
  void handOver(Answers::Part &P) {
    std::swap(Text, P.Text);
    std::swap(Warnings, P.Warnings);
    Spans.clear();
  }

  SessionTables Own;
  std::string Text, InOrder;
  raw_string_ostream Out;
  ResultPrinter Printer;
  QuerySession Session;
  std::vector<std::pair<uint64_t, uint32_t>> Scratch;
  /// Where each line's answer lies in Text.
  std::vector<std::pair<size_t, size_t>> Spans;
  /// The line being answered.
  uint32_t Current = 0;
  /// Each warning, with the line it was given for, once the lines are
  /// answered where in Text that line's answer begins (as Answers keeps
  /// them).
  std::vector<std::pair<QueryWarning, size_t>> Warnings;
};

QueryBatch::QueryBatch(SessionTables &Tables, const PrinterOptions &Printer,
                       SessionOptions Session, unsigned Threads) {
  if (!Threads)
    Threads = hardware_concurrency().compute_thread_count();
  // Tables opened as the queries name them belong to one session.
  if (!Tables.fixed())
    Threads = 1;
  Reorder = Tables.fixed() != nullptr;
  for (unsigned I = 0; I < std::max(Threads, 1u); ++I)
    Workers.push_back(
        std::make_unique<Worker>(Tables, I > 0, Printer, Session));
  if (Workers.size() > 1)
    Pool = std::make_unique<DefaultThreadPool>(
        hardware_concurrency(Workers.size() - 1));
}

QueryBatch::~QueryBatch() { finishWriting(); }

void QueryBatch::finishWriting() {
  if (Writing.valid())
    Writing.wait();
  Writing = {};
}

void QueryBatch::answer(ArrayRef<StringRef> Lines, const AnswerFn &Answer,
                        raw_ostream &OS, const QueryWarningFn &Warn,
                        const OrderFn &Order) {
  // A session that opens tables as queries name them warns once for a
  // table it cannot open, and prints a failure's error with the first
  // query only: its answers depend on their order.
  OrderFn InOrder = Reorder ? Order : nullptr;
  // Below this many lines a thread's start costs more than it saves (and a
  // server's single queries stay on the caller's thread).
  const size_t MinPerThread = 256;
  size_t Parts = std::min<size_t>(
      Workers.size(), std::max<size_t>(Lines.size() / MinPerThread, 1));
  size_t Each = (Lines.size() + Parts - 1) / Parts;
  const bool Behind = Lines.size() >= WriteBehind;
  if (!Behind)
    finishWriting();
  if (!Unwritten)
    Unwritten = std::make_unique<Answers>();
  for (size_t I = 1; I < Parts; ++I)
    Pool->async([&, I] {
      Workers[I]->answer(
          Lines.slice(std::min(I * Each, Lines.size())).take_front(Each),
          Answer, InOrder);
    });
  Workers[0]->answer(Lines.take_front(Each), Answer, InOrder);
  // Moves the answers of Workers[From, To) into Unwritten, which nothing
  // may be writing.
  auto HandOver = [&](size_t From, size_t To) {
    Unwritten->Parts.resize(std::max(Unwritten->Parts.size(), To - From));
    for (size_t I = From; I < To; ++I)
      Workers[I]->handOver(Unwritten->Parts[I - From]);
    Unwritten->Used = To - From;
  };
  if (!Behind) {
    // The first part is written while the others are still being
    // answered.
    HandOver(0, 1);
    Unwritten->write(OS, Warn);
    if (Parts > 1)
      Pool->wait();
    HandOver(1, Parts);
    Unwritten->write(OS, Warn);
    return;
  }
  if (Parts > 1)
    Pool->wait();
  // The batch before this one has been written meanwhile (its parts are
  // free for this one's).
  finishWriting();
  HandOver(0, Parts);
  if (!Writer)
    Writer = std::make_unique<DefaultThreadPool>(hardware_concurrency(1));
  Writing = Writer->async([this, &OS, Warn] { Unwritten->write(OS, Warn); });
}

QueryBatch::LineKey queryLineOrder(StringRef Line, LineModules Modules) {
  uint64_t Address;
  if (Modules == LineModules::None && parseShortHex(Line, Address))
    return {Address, true};
  Expected<InputLine> Q = parseInputLine(Line, Modules);
  if (!Q) {
    consumeError(Q.takeError());
    return {};
  }
  if (!Q->Target.Address || Q->Command == QueryCommand::Frame)
    return {};
  return {*Q->Target.Address, false};
}

} // namespace dwarfpack
