//===- QueryBatch.cpp - Answering batches of query lines on threads -------===//

#include "dwarfpack/Symbolize/QueryBatch.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace dwarfpack {

/// One thread's session, printing into its own text.
struct QueryBatch::Worker {
  /// Answers from Shared, or from a copy of it of its own (Own) when
  /// Shared gives one table for every query.
  Worker(SessionTables &Shared, bool Copy, const PrinterOptions &PO,
         SessionOptions SO)
      : Out(Text), Printer(Out, PO),
        Session(Copy ? Own : Shared, Printer, SO,
                [this](const QueryWarning &W) {
                  Out.flush();
                  Warnings.push_back({W, Text.size()});
                }) {
    // An answer is written in many small pieces: buffered, they cost a
    // copy each instead of a call.
    Out.SetBufferSize(64 * 1024);
    if (Copy)
      Own.setFixed(*Shared.fixed()->Table, Shared.fixed()->Name);
  }

  void answer(ArrayRef<StringRef> Lines, const AnswerFn &Answer) {
    for (StringRef Line : Lines)
      Answer(Session, Line);
    Out.flush();
  }

  /// Writes the answers to OS and passes on the warnings, each where one
  /// session would have given it: after the answers before it (a caller
  /// that shows both streams together sees it before the answer it
  /// concerns).
  void writeOut(raw_ostream &OS, const QueryWarningFn &Warn) {
    StringRef All = Text;
    size_t Written = 0;
    for (const auto &[M, At] : Warnings) {
      OS << All.slice(Written, At);
      Written = At;
      if (Warn)
        Warn(M);
    }
    OS << All.substr(Written);
    Text.clear();
    Warnings.clear();
  }

  SessionTables Own;
  std::string Text;
  raw_string_ostream Out;
  ResultPrinter Printer;
  QuerySession Session;
  /// Each warning, with where the text stood when it was given.
  std::vector<std::pair<QueryWarning, size_t>> Warnings;
};

QueryBatch::QueryBatch(SessionTables &Tables, const PrinterOptions &Printer,
                       SessionOptions Session, unsigned Threads) {
  if (!Threads)
    Threads = hardware_concurrency().compute_thread_count();
  // Tables opened as the queries name them belong to one session.
  if (!Tables.fixed())
    Threads = 1;
  for (unsigned I = 0; I < std::max(Threads, 1u); ++I)
    Workers.push_back(
        std::make_unique<Worker>(Tables, I > 0, Printer, Session));
  if (Workers.size() > 1)
    Pool = std::make_unique<DefaultThreadPool>(
        hardware_concurrency(Workers.size() - 1));
}

QueryBatch::~QueryBatch() = default;

void QueryBatch::answer(ArrayRef<StringRef> Lines, const AnswerFn &Answer,
                        raw_ostream &OS, const QueryWarningFn &Warn) {
  // Below this many lines a thread's start costs more than it saves (and a
  // server's single queries stay on the caller's thread).
  const size_t MinPerThread = 256;
  size_t Parts = std::min<size_t>(
      Workers.size(), std::max<size_t>(Lines.size() / MinPerThread, 1));
  size_t Each = (Lines.size() + Parts - 1) / Parts;
  for (size_t I = 1; I < Parts; ++I)
    Pool->async([&, I] {
      Workers[I]->answer(
          Lines.slice(std::min(I * Each, Lines.size())).take_front(Each),
          Answer);
    });
  Workers[0]->answer(Lines.take_front(Each), Answer);
  // The first part is written while the others are still being answered.
  Workers[0]->writeOut(OS, Warn);
  if (Parts > 1)
    Pool->wait();
  for (size_t I = 1; I < Parts; ++I)
    Workers[I]->writeOut(OS, Warn);
}

} // namespace dwarfpack
