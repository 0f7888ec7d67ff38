//===- Diagnostics.cpp - Counted warnings for long conversions ------------===//

#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dwarfpack {

void WarningLog::add(StringMap<KindSummary> &Map, StringRef Kind,
                     const Twine &Message) {
  KindSummary &S = Map[Kind];
  if (S.Kind.empty())
    S.Kind = Kind.str();
  ++S.Count;
  // Repeats of one message (LLVM reports some problems once per use) make
  // poor examples.
  if (S.Examples.size() < MaxExamplesPerKind) {
    std::string M = Message.str();
    if (!is_contained(S.Examples, M))
      S.Examples.push_back(std::move(M));
  }
}

void WarningLog::report(StringRef Kind, const Twine &Message) {
  std::lock_guard<std::mutex> Lock(Mutex);
  add(Kinds, Kind, Message);
}

void WarningLog::note(StringRef Kind, const Twine &Message) {
  std::lock_guard<std::mutex> Lock(Mutex);
  add(Notes, Kind, Message);
}

void WarningLog::merge(const WarningLog &Other) {
  if (&Other == this)
    return;
  std::vector<KindSummary> Theirs = Other.summary();
  std::vector<KindSummary> TheirNotes = Other.notes();
  std::lock_guard<std::mutex> Lock(Mutex);
  auto MergeInto = [](StringMap<KindSummary> &Map,
                      std::vector<KindSummary> &From) {
    for (KindSummary &T : From) {
      KindSummary &S = Map[T.Kind];
      if (S.Kind.empty())
        S.Kind = T.Kind;
      S.Count += T.Count;
      for (std::string &E : T.Examples)
        if (S.Examples.size() < MaxExamplesPerKind &&
            !is_contained(S.Examples, E))
          S.Examples.push_back(std::move(E));
    }
  };
  MergeInto(Kinds, Theirs);
  MergeInto(Notes, TheirNotes);
}

std::vector<WarningLog::KindSummary>
WarningLog::sorted(const StringMap<KindSummary> &M) {
  std::vector<KindSummary> Result;
  for (const auto &Entry : M)
    Result.push_back(Entry.second);
  llvm::sort(Result, [](const KindSummary &A, const KindSummary &B) {
    return A.Kind < B.Kind;
  });
  return Result;
}

std::vector<std::string> WarningLog::summaryLines() const {
  std::vector<std::string> Lines;
  for (const KindSummary &K : summary())
    Lines.push_back(
        (Twine(K.Count) + " x " + K.Kind +
         (K.Examples.empty() ? "" : " (e.g. " + K.Examples.front() + ")"))
            .str());
  return Lines;
}

std::vector<WarningLog::KindSummary> WarningLog::summary() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return sorted(Kinds);
}

std::vector<WarningLog::KindSummary> WarningLog::notes() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return sorted(Notes);
}

uint64_t WarningLog::total() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  uint64_t N = 0;
  for (const auto &Entry : Kinds)
    N += Entry.second.Count;
  return N;
}

uint64_t WarningLog::count(StringRef Kind) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Kinds.find(Kind);
  return It == Kinds.end() ? 0 : It->second.Count;
}

std::string hexString(uint64_t V) { return "0x" + llvm::utohexstr(V, true); }

} // namespace dwarfpack
