//===- QueryBatch.cpp - Answering batches of query lines on threads -------===//

#include "dwarfpack/Symbolize/QueryBatch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <cerrno>
#if LLVM_ON_UNIX
#include <sys/uio.h>
#endif

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

namespace {
/// Writes slices of text to OS, in order. To a file descriptor they go
/// straight from the text in gathered writes (writev): the answers of a
/// batch looked up in address order are not copied into line order first,
/// nor into the stream's buffer (twice a third of a gigabyte for a million
/// kernel addresses in JSON). Whatever a write cannot do is left to OS,
/// which writes the rest itself and so reports the failure.
class SliceWriter {
public:
  /// FD: the file descriptor OS writes to, or -1.
  SliceWriter(raw_ostream &OS, int FD) : OS(OS) {
#if LLVM_ON_UNIX
    if (FD >= 0) {
      OS.flush(); // what the stream holds comes first
      this->FD = FD;
    }
#endif
  }
  ~SliceWriter() { flush(); }

  void add(StringRef S) {
    if (S.empty())
      return;
    if (FD < 0) {
      OS << S;
      return;
    }
#if LLVM_ON_UNIX
    if (!Pending.empty() && static_cast<const char *>(Pending.back().iov_base) +
                                    Pending.back().iov_len ==
                                S.data())
      Pending.back().iov_len += S.size();
    else
      Pending.push_back({const_cast<char *>(S.data()), S.size()});
    if (Pending.size() == MaxSlices)
      flush();
#endif
  }

  /// Writes what has been added.
  void flush() {
#if LLVM_ON_UNIX
    size_t I = 0;
    while (I < Pending.size()) {
      ssize_t N = ::writev(FD, &Pending[I], int(Pending.size() - I));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break;
      for (; I < Pending.size() && size_t(N) >= Pending[I].iov_len; ++I)
        N -= Pending[I].iov_len;
      if (N > 0) {
        Pending[I].iov_base = static_cast<char *>(Pending[I].iov_base) + N;
        Pending[I].iov_len -= N;
      }
    }
    if (I < Pending.size()) {
      // From here on everything goes through OS, in order.
      FD = -1;
      for (; I < Pending.size(); ++I)
        OS.write(static_cast<const char *>(Pending[I].iov_base),
                 Pending[I].iov_len);
    }
    Pending.clear();
#endif
  }

private:
  raw_ostream &OS;
  int FD = -1;
#if LLVM_ON_UNIX
  /// IOV_MAX is 1024 on Linux; POSIX guarantees 16 at least.
  static constexpr size_t MaxSlices = 1024;
  std::vector<iovec> Pending;
#endif
};
} // namespace

/// The answers of a batch's parts, with their warnings, until written.
struct QueryBatch::Answers {
  struct Part {
    /// The answers, in the order they were given (address order when the
    /// part was answered so).
    std::string Text;
    /// Where each line's answer lies in Text.
    std::vector<std::pair<size_t, size_t>> Spans;
    /// Each warning, with its line, in the order of the lines.
    std::vector<std::pair<QueryWarning, size_t>> Warnings;
  };
  std::vector<Part> Parts;
  size_t Used = 0;
  /// For a batch answered by ranges of addresses (answerByRanges), each
  /// line's answer, in line order; the parts' Spans are then empty and
  /// their warnings carry the batch's line numbers. Empty otherwise.
  std::vector<Slice> Slices;

  /// Writes the answers to OS in the order of their lines and passes on
  /// the warnings, each where one session would have given it: before the
  /// answer of its line (a caller that shows both streams together sees
  /// it before the answer it concerns). The parts keep their memory for
  /// the next batch.
  void write(raw_ostream &OS, int FD, const QueryWarningFn &Warn) {
    // Every warning with its line in the batch. Each part's are in line
    // order; a line's come from one part (but the totals, which every part
    // of a batch answered by ranges gives with the batch's last line).
    std::vector<std::pair<size_t, const QueryWarning *>> Merged;
    size_t First = 0; // the first line of a part of consecutive lines
    for (const Part &P : ArrayRef(Parts).take_front(Used)) {
      for (const auto &[W, Line] : P.Warnings)
        Merged.push_back({Slices.empty() ? First + Line : Line, &W});
      First += P.Spans.size();
    }
    llvm::stable_sort(
        Merged, [](const auto &A, const auto &B) { return A.first < B.first; });
    SliceWriter Out(OS, FD);
    auto W = Merged.begin(), WEnd = Merged.end();
    auto WarnUpTo = [&](size_t Line) {
      for (; W != WEnd && W->first <= Line; ++W) {
        Out.flush();
        if (Warn)
          Warn(*W->second);
      }
    };
    size_t Line = 0;
    if (Slices.empty()) {
      for (const Part &P : ArrayRef(Parts).take_front(Used))
        for (const auto &[Begin, End] : P.Spans) {
          WarnUpTo(Line++);
          Out.add(StringRef(P.Text).slice(Begin, End));
        }
    } else {
      for (const Slice &S : Slices) {
        WarnUpTo(Line++);
        Out.add(StringRef(Parts[S.Part].Text).slice(S.Begin, S.End));
      }
    }
    Out.flush();
    WarnUpTo(SIZE_MAX);
    for (Part &P : MutableArrayRef(Parts).take_front(Used)) {
      P.Text.clear();
      P.Spans.clear();
      P.Warnings.clear();
    }
    Slices.clear();
    Used = 0;
  }
};

/// Whether a batch of N lines is answered in address order. Below 64
/// lines, the lookups touch too little of a table to gain. (Line numbers
/// take 31 bits in the keys.)
static bool worthOrdering(size_t N) { return N >= 64 && !(N >> 31); }

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
    // copy each instead of a call. A JSON line comes in one piece, which
    // goes straight to Text (a copy less of every answer).
    if (!Printer.printsInOnePiece())
      Out.SetBufferSize(64 * 1024);
    if (Copy)
      Own.setFixed(*Shared.fixed()->Table, Shared.fixed()->Name,
                   Shared.fixed()->Data);
  }

  /// A line's key when lines are answered in address order: the line's
  /// Order, and its line number in the batch, whose top bit says
  /// JustAddress.
  using Key = std::pair<uint64_t, uint32_t>;
  static constexpr uint32_t Just = 1u << 31;

  /// Answers Lines, in the order of Order's keys when given.
  void answer(ArrayRef<StringRef> Lines, const AnswerFn &Answer,
              const OrderFn &Order) {
    Spans.resize(Lines.size());
    if (Order && worthOrdering(Lines.size())) {
      sortKeys(Lines, 0, Order);
      // The answers stay where they were given: Answers::write() puts them
      // in line order as it writes them.
      answerSorted(Lines, ArrayRef<Key>(Keys), Answer,
                   [&](uint32_t I, size_t From, size_t To) {
                     Spans[I] = {From, To};
                   });
    } else {
      for (uint32_t I = 0; I < Lines.size(); ++I)
        Spans[I] = answerLine(Lines, I, Answer);
    }
    endBatch(Lines.size());
  }

  /// The keys of Lines, lines First on of their batch, sorted into Keys.
  void sortKeys(ArrayRef<StringRef> Lines, uint32_t First,
                const OrderFn &Order) {
    Keys.clear();
    Keys.reserve(Lines.size());
    for (uint32_t I = 0; I < Lines.size(); ++I) {
      LineKey K = Order(Lines[I]);
      Keys.push_back({K.Order, (First + I) | (K.JustAddress ? Just : 0)});
    }
    sortByKey(Keys, Scratch);
  }

  /// Answers line I of Lines, by its Address (without reading the line
  /// again, which out of turn would miss the cache) when given; returns
  /// where the answer lies in Text.
  std::pair<size_t, size_t>
  answerLine(ArrayRef<StringRef> Lines, uint32_t I, const AnswerFn &Answer,
             std::optional<uint64_t> Address = std::nullopt) {
    Current = I;
    Session.setQueryIndex(I);
    const size_t From = Out.tell();
    if (Address)
      Session.answerAddress(*Session.tables().fixed(), *Address);
    else
      Answer(Session, Lines[I]);
    return {From, size_t(Out.tell())};
  }

  /// Answers the lines of the batch Lines whose keys are in Runs (sorted
  /// runs of keys, of any worker), in address order: the runs merged, one
  /// sweep over the addresses (a sweep per run went over the table's
  /// records and names again). Note(Line, From, To) learns where each
  /// answer lies in Text.
  void answerSorted(ArrayRef<StringRef> Lines, ArrayRef<ArrayRef<Key>> Runs,
                    const AnswerFn &Answer,
                    function_ref<void(uint32_t, size_t, size_t)> Note) {
    // As answerLine() names the module of every line.
    const QueryModule &Module = *Session.tables().fixed();
    Printer.setModuleName(Module.Name);
    SmallVector<ArrayRef<Key>, 8> Heads(Runs.begin(), Runs.end());
    Last.forget();
    while (true) {
      ArrayRef<Key> *Min = nullptr;
      for (ArrayRef<Key> &H : Heads)
        if (!H.empty() && (!Min || H.front().first < Min->front().first))
          Min = &H;
      if (!Min)
        break;
      const auto [K, Line] = Min->front();
      *Min = Min->drop_front();
      const uint32_t I = Line & ~Just;
      if (Line & Just && Last.Same.holds(Module, K)) {
        auto [From, To] = answerAgain(I, K);
        Note(I, From, To);
        continue;
      }
      const size_t Warned = Warnings.size();
      auto [From, To] =
          answerLine(Lines, I, Answer,
                     Line & Just ? std::optional<uint64_t>(K) : std::nullopt);
      Note(I, From, To);
      Last.forget();
      if (Line & Just && Warnings.size() == Warned &&
          Printer.lastAnswerShape().Repeatable) {
        Last.Same = Session.sameAnswers();
        Last.Shape = Printer.lastAnswerShape();
        Last.Value = K;
        Last.Begin = From;
        Last.End = To;
      }
    }
  }

  /// Answers line I, which asks about Value, as the last line was answered
  /// (Last.Same holds Value): the same text for the same value, else the
  /// last text with Value in place of its own. Returns where the answer
  /// lies in Text. (Most addresses of a profile, and of a million random
  /// kernel addresses in order, have the answer of the one before.)
  std::pair<size_t, size_t> answerAgain(uint32_t I, uint64_t Value) {
    Current = I;
    if (Value == Last.Value)
      return {Last.Begin, Last.End};
    if (!Last.Copied) {
      // Printing into Out may move Text.
      Out.flush();
      Last.Text.assign(Text, Last.Begin, Last.End - Last.Begin);
      Last.Copied = true;
    }
    const size_t From = Out.tell();
    Printer.printAgain(Last.Text, Last.Shape, Value);
    Last.Value = Value;
    Last.Begin = From;
    Last.End = Out.tell();
    return {Last.Begin, Last.End};
  }

  /// After the last line of a batch of NumLines lines: its warnings in
  /// line order.
  void endBatch(size_t NumLines) {
    // The counts of repeated problems are totals, printed with nothing:
    // with the last line, after every warning they count (a printer that
    // met a total first would take the warning for a repeat).
    if (NumLines)
      Current = uint32_t(NumLines - 1);
    Session.flushCounts();
    Out.flush();
    llvm::stable_sort(Warnings, [](const auto &A, const auto &B) {
      return A.second < B.second;
    });
  }

  /// Hands the answers and warnings over to P (whose memory this keeps).
  void handOver(Answers::Part &P) {
    std::swap(Text, P.Text);
    std::swap(Spans, P.Spans);
    std::swap(Warnings, P.Warnings);
  }

  SessionTables Own;
  std::string Text;
  raw_string_ostream Out;
  ResultPrinter Printer;
  QuerySession Session;
  std::vector<std::pair<uint64_t, uint32_t>> Scratch;
  /// The sorted keys of sortKeys().
  std::vector<Key> Keys;
  /// Where each line's answer lies in Text.
  std::vector<std::pair<size_t, size_t>> Spans;
  /// The line being answered.
  uint32_t Current = 0;
  /// The last answer of answerSorted(), while the next values answer alike.
  struct LastAnswer {
    /// The values answered alike; empty: none.
    QuerySession::SameAnswers Same;
    ResultPrinter::AnswerShape Shape;
    /// The value last answered, and where its answer lies in Text.
    uint64_t Value = 0;
    size_t Begin = 0, End = 0;
    /// The text of the answer Same was found for, once needed.
    std::string Text;
    bool Copied = false;
    /// Empties Same (Text keeps its memory).
    void forget() {
      Same = QuerySession::SameAnswers();
      Copied = false;
    }
  } Last;
  /// Each warning, with the line it was given for.
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
  // Only with one table for every line: tables opened as queries name them
  // may call back into the caller while answering (a store's notes), which
  // must not run beside the writing of warnings.
  const bool Behind = Reorder && Lines.size() >= WriteBehind;
  if (Behind && Parts > 1 && InOrder && worthOrdering(Lines.size()))
    return answerByRanges(Lines, Answer, OS, Warn, InOrder, Parts);
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
    Unwritten->write(OS, DirectFD, Warn);
    if (Parts > 1)
      Pool->wait();
    HandOver(1, Parts);
    Unwritten->write(OS, DirectFD, Warn);
    return;
  }
  if (Parts > 1)
    Pool->wait();
  // The batch before this one has been written meanwhile (its parts are
  // free for this one's).
  finishWriting();
  HandOver(0, Parts);
  startWriting(OS, Warn);
}

void QueryBatch::startWriting(raw_ostream &OS, const QueryWarningFn &Warn) {
  if (!Writer)
    Writer = std::make_unique<DefaultThreadPool>(hardware_concurrency(1));
  Writing = Writer->async(
      [this, &OS, Warn, FD = DirectFD] { Unwritten->write(OS, FD, Warn); });
}

void QueryBatch::answerByRanges(ArrayRef<StringRef> Lines,
                                const AnswerFn &Answer, raw_ostream &OS,
                                const QueryWarningFn &Warn,
                                const OrderFn &Order, size_t Parts) {
  using Key = Worker::Key;
  // Each thread sorts the keys of a part of the lines...
  const size_t Each = (Lines.size() + Parts - 1) / Parts;
  auto PartOf = [&](size_t I) {
    return Lines.slice(std::min(I * Each, Lines.size())).take_front(Each);
  };
  for (size_t I = 1; I < Parts; ++I)
    Pool->async(
        [&, I] { Workers[I]->sortKeys(PartOf(I), uint32_t(I * Each), Order); });
  Workers[0]->sortKeys(PartOf(0), 0, Order);
  Pool->wait();
  // ...then answers the keys of ranges of addresses, from every part: the
  // threads look up different parts of the table and keep the names of
  // different functions (a million vmlinux addresses took a tenth less
  // CPU than with each thread answering the lines of its part). The
  // ranges split a sample of the keys evenly, several per thread, each
  // taken by the next thread free: the thread that writes the batch
  // before slows one thread more than another, which with a range each
  // kept a core idle for a fifth of every batch (a million vmlinux
  // addresses in JSON to a file).
  const size_t NumRanges = Parts * RangesPerThread;
  const size_t SamplesPerPart = 256;
  std::vector<uint64_t> Sample;
  for (size_t I = 0; I < Parts; ++I) {
    const std::vector<Key> &K = Workers[I]->Keys;
    for (size_t J = 0; J < SamplesPerPart && !K.empty(); ++J)
      Sample.push_back(K[(2 * J + 1) * K.size() / (2 * SamplesPerPart)].first);
  }
  llvm::sort(Sample);
  std::vector<std::vector<ArrayRef<Key>>> Ranges(NumRanges);
  for (size_t P = 0; P < Parts; ++P) {
    ArrayRef<Key> Run = Workers[P]->Keys;
    size_t From = 0;
    for (size_t R = 0; R < NumRanges; ++R) {
      size_t To = Run.size();
      if (R + 1 < NumRanges && !Sample.empty()) {
        const uint64_t Split = Sample[(R + 1) * Sample.size() / NumRanges];
        To = std::max<size_t>(From,
                              llvm::partition_point(Run, [&](const Key &K) {
                                return K.first < Split;
                              }) - Run.begin());
      }
      Ranges[R].push_back(Run.slice(From, To - From));
      From = To;
    }
  }
  NextSlices.resize(Lines.size());
  std::atomic<size_t> NextRange{0};
  auto AnswerRanges = [&](size_t W) {
    Workers[W]->Spans.clear(); // the slices say where the answers lie
    for (size_t R; (R = NextRange.fetch_add(1)) < NumRanges;)
      Workers[W]->answerSorted(Lines, Ranges[R], Answer,
                               [&](uint32_t I, size_t From, size_t To) {
                                 NextSlices[I] = {uint32_t(W), From, To};
                               });
    Workers[W]->endBatch(Lines.size());
  };
  for (size_t W = 1; W < Parts; ++W)
    Pool->async([&, W] { AnswerRanges(W); });
  AnswerRanges(0);
  Pool->wait();
  // The batch before this one has been written meanwhile.
  finishWriting();
  if (!Unwritten)
    Unwritten = std::make_unique<Answers>();
  Unwritten->Parts.resize(std::max(Unwritten->Parts.size(), Parts));
  for (size_t W = 0; W < Parts; ++W)
    Workers[W]->handOver(Unwritten->Parts[W]);
  Unwritten->Used = Parts;
  std::swap(Unwritten->Slices, NextSlices);
  startWriting(OS, Warn);
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
