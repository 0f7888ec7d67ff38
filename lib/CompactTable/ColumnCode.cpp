//===- ColumnCode.cpp - Prefix code of the compact table's columns --------===//
//
// Section layout and code assignment: docs/CompactTable.md, "Column code".
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/ColumnCode.h"
#include "dwarfpack/Support/LEB128.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/LEB128.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {
namespace compact {

void BitWriter::write(uint32_t Code, unsigned Length) {
  Pending = (Pending << Length) | (Code & ((uint64_t(1) << Length) - 1));
  NumPending += Length;
  while (NumPending >= 8) {
    NumPending -= 8;
    Bytes.push_back(char(uint8_t(Pending >> NumPending)));
  }
}

std::string BitWriter::finish() {
  if (NumPending)
    Bytes.push_back(char(uint8_t(Pending << (8 - NumPending))));
  Pending = 0;
  NumPending = 0;
  return std::move(Bytes);
}

/// Huffman code lengths of Counts (sorted by count, then value): the two
/// least used trees are merged until one is left, leaves before trees on
/// equal counts, so the result depends on the counts alone.
static std::vector<unsigned>
huffmanLengths(ArrayRef<std::pair<uint16_t, uint64_t>> Sorted) {
  const size_t N = Sorted.size();
  std::vector<unsigned> Lengths(N, 1);
  if (N <= 1)
    return Lengths;
  // Nodes 0..N-1 are leaves, N.. merged trees (created in ascending
  // weight, so two queues replace a heap).
  std::vector<uint64_t> Weight(2 * N - 1);
  std::vector<size_t> Parent(2 * N - 1, 0);
  for (size_t I = 0; I < N; ++I)
    Weight[I] = Sorted[I].second;
  size_t Leaf = 0, Tree = N, Next = N;
  auto Pop = [&]() {
    if (Leaf < N && (Tree == Next || Weight[Leaf] <= Weight[Tree]))
      return Leaf++;
    return Tree++;
  };
  while (Next < 2 * N - 1) {
    size_t A = Pop(), B = Pop();
    Weight[Next] = Weight[A] + Weight[B];
    Parent[A] = Parent[B] = Next;
    ++Next;
  }
  // Depths from the root (the last tree) down: parents come later.
  std::vector<unsigned> Depth(2 * N - 1, 0);
  for (size_t I = 2 * N - 1; I-- > 0;)
    if (I != 2 * N - 2)
      Depth[I] = Depth[Parent[I]] + 1;
  for (size_t I = 0; I < N; ++I)
    Lengths[I] = Depth[I];
  return Lengths;
}

ColumnCode
ColumnCode::fromCounts(ArrayRef<std::pair<uint16_t, uint64_t>> Counts) {
  std::vector<std::pair<uint16_t, uint64_t>> Sorted(Counts.begin(),
                                                    Counts.end());
  // Halving the counts until the code fits flattens it; a code of all
  // 65536 values needs 16 bits, so this ends.
  std::vector<unsigned> Lengths;
  while (true) {
    llvm::sort(Sorted, [](const auto &A, const auto &B) {
      return std::tie(A.second, A.first) < std::tie(B.second, B.first);
    });
    Lengths = huffmanLengths(Sorted);
    if (Lengths.empty() || *llvm::max_element(Lengths) <= MaxLength)
      break;
    for (auto &[Value, Count] : Sorted)
      Count = (Count + 1) / 2;
  }
  ColumnCode C;
  for (size_t I = 0; I < Sorted.size(); ++I)
    C.Symbols.push_back({Sorted[I].first, uint8_t(Lengths[I])});
  llvm::sort(C.Symbols, [](const Symbol &A, const Symbol &B) {
    return std::tie(A.Length, A.Value) < std::tie(B.Length, B.Value);
  });
  C.assignCodes();
  return C;
}

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "column code: " + Msg);
}

Expected<ColumnCode> ColumnCode::parse(StringRef Section) {
  const uint8_t *P = reinterpret_cast<const uint8_t *>(Section.data());
  const uint8_t *End = P + Section.size();
  if (P == End)
    return ColumnCode(); // no columns
  unsigned N = 0;
  const char *Err = nullptr;
  uint64_t Count = decodeULEB128Bounded(P, &N, End, &Err);
  if (Err)
    return makeError("bad symbol count: " + Twine(Err));
  P += N;
  // Two bytes at least per symbol: checked before reserving.
  if (Count > 65536 || Count > uint64_t(End - P) / 2)
    return makeError("symbol count " + Twine(Count) +
                     " does not fit the section");
  ColumnCode C;
  std::vector<bool> Seen(65536, false);
  uint64_t Kraft = 0; // in units of 2^-MaxLength
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Value = decodeULEB128Bounded(P, &N, End, &Err);
    if (Err)
      return makeError("symbol " + Twine(I) + ": " + Err);
    P += N;
    if (P == End)
      return makeError("symbol " + Twine(I) + " has no length");
    unsigned Length = *P++;
    if (Value > UINT16_MAX || Length == 0 || Length > MaxLength)
      return makeError("symbol " + Twine(I) + " (value " + Twine(Value) +
                       ", length " + Twine(Length) + ") is out of range");
    Symbol S{uint16_t(Value), uint8_t(Length)};
    if (!C.Symbols.empty() &&
        std::tie(S.Length, S.Value) <=
            std::tie(C.Symbols.back().Length, C.Symbols.back().Value))
      return makeError("symbols are not in canonical order at symbol " +
                       Twine(I));
    if (Seen[S.Value])
      return makeError("value " + Twine(Value) + " has two codes");
    Seen[S.Value] = true;
    Kraft += uint64_t(1) << (MaxLength - Length);
    if (Kraft > (uint64_t(1) << MaxLength))
      return makeError("lengths are not those of a prefix code");
    C.Symbols.push_back(S);
  }
  if (P != End)
    return makeError(Twine(End - P) + " trailing bytes");
  C.assignCodes();
  return C;
}

void ColumnCode::serialize(std::string &Out) const {
  if (Symbols.empty())
    return;
  appendULEB128(Out, Symbols.size());
  for (const Symbol &S : Symbols) {
    appendULEB128(Out, S.Value);
    Out.push_back(char(S.Length));
  }
}

void ColumnCode::assignCodes() {
  Codes.resize(Symbols.size());
  Fast.assign(size_t(1) << FastBits, Entry());
  uint32_t Code = 0;
  for (size_t I = 0; I < Symbols.size(); ++I) {
    const unsigned L = Symbols[I].Length;
    if (I > 0)
      Code = (Code + 1) << (L - Symbols[I - 1].Length);
    Codes[I] = Code;
    IndexOf[Symbols[I].Value] = uint32_t(I);
    if (NumCodes[L]++ == 0) {
      FirstCode[L] = Code;
      FirstIndex[L] = uint32_t(I);
    }
    if (L <= FastBits) {
      const uint32_t From = Code << (FastBits - L);
      const uint32_t To = (Code + 1) << (FastBits - L);
      for (uint32_t K = From; K < To; ++K)
        Fast[K] = {Symbols[I].Value, uint8_t(L)};
    }
  }
  // Each pattern's whole codes, read as decode() reads them (a code of
  // FastBits bits or fewer that ends within the pattern).
  static_assert(SkipBits >= FastBits, "a skip reads whole fast codes");
  Skip.assign(size_t(1) << SkipBits, SkipEntry());
  for (uint32_t P = 0; P < Skip.size(); ++P) {
    unsigned Used = 0, Count = 0;
    while (true) {
      const uint32_t Next = (P << Used) & ((1u << SkipBits) - 1);
      const Entry &E = Fast[Next >> (SkipBits - FastBits)];
      if (E.Length == 0 || Used + E.Length > SkipBits)
        break;
      Used += E.Length;
      ++Count;
    }
    Skip[P] = {uint8_t(Count), uint8_t(Used)};
  }
}

void ColumnCode::encode(uint16_t Value, BitWriter &W) const {
  auto It = IndexOf.find(Value);
  assert(It != IndexOf.end() && "value without a code");
  W.write(Codes[It->second], Symbols[It->second].Length);
}

unsigned ColumnCode::length(uint16_t Value) const {
  auto It = IndexOf.find(Value);
  assert(It != IndexOf.end() && "value without a code");
  return Symbols[It->second].Length;
}

bool ColumnCode::decodeSlow(BitReader &R, uint16_t &Value) const {
  if (Symbols.empty())
    return false;
  const uint32_t Bits = R.peek(MaxLength);
  for (unsigned L = FastBits + 1; L <= MaxLength; ++L) {
    if (!NumCodes[L])
      continue;
    const uint32_t Code = Bits >> (MaxLength - L);
    if (Code >= FirstCode[L] && Code - FirstCode[L] < NumCodes[L]) {
      Value = Symbols[FirstIndex[L] + (Code - FirstCode[L])].Value;
      R.consume(L);
      return true;
    }
  }
  return false;
}

} // namespace compact
} // namespace dwarfpack
