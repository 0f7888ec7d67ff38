//===- CompactWriter.cpp - Write the compact kernel symbol table ----------===//
//
// Names are stored in name order, front-coded by whole tokens inside blocks
// of 32 (sorted kernel names share long token prefixes) as nibble-coded
// records whose codes are fitted to this table; addresses are stored in
// address order as Elias-Fano sequences in blocks of 32. A bit-packed
// permutation maps address order to name order, and back pointers on its
// cycles invert it in a bounded number of steps. docs/Kallsyms.md.
//
//===----------------------------------------------------------------------===//

#include "CompactLayout.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::kallsyms::compact;

namespace {

class BitWriter {
public:
  void write(uint64_t V, unsigned Width) {
    if (Width == 0)
      return;
    V &= Width == 64 ? ~uint64_t(0) : (uint64_t(1) << Width) - 1;
    unsigned Used = Bits & 7;
    if (Used == 0)
      Bytes.push_back(0);
    Bytes.back() |= uint8_t(V << Used);
    unsigned Done = 8 - Used;
    while (Done < Width) {
      Bytes.push_back(char(uint8_t(V >> Done)));
      Done += 8;
    }
    Bits += Width;
  }
  uint64_t Bits = 0;
  std::string Bytes;
};

void putU32(std::string &S, size_t Off, uint32_t V) {
  support::endian::write32le(&S[Off], V);
}
void putU64(std::string &S, size_t Off, uint64_t V) {
  support::endian::write64le(&S[Off], V);
}
void appendU32(std::string &S, uint32_t V) {
  char B[4];
  support::endian::write32le(B, V);
  S.append(B, 4);
}

unsigned bitsFor(uint64_t MaxValue) {
  return MaxValue ? 64 - countl_zero(MaxValue) : 0;
}

} // namespace

bool kallsyms::isCompact(StringRef Bytes) {
  return Bytes.size() >= 8 && std::memcmp(Bytes.data(), CompactMagic, 8) == 0;
}

namespace {

/// The names in name order as provisional token ids (slot S has the tokens
/// Tok[Start[S] .. Start[S + 1]) and the type letter Type[S]), and how each
/// record front-codes against the previous record of its block.
struct NameSlots {
  ArrayRef<uint32_t> Tok, Start;
  ArrayRef<char> Type;
  /// Leading tokens each record shares with the previous one.
  std::vector<uint32_t> Shared;

  uint32_t size() const { return Type.size(); }
  ArrayRef<uint32_t> tokens(uint32_t S) const {
    return Tok.slice(Start[S], Start[S + 1] - Start[S]);
  }
  /// Tokens record S writes.
  uint32_t added(uint32_t S) const {
    return Start[S + 1] - Start[S] - Shared[S];
  }
  /// Tokens of the previous record's that record S drops.
  uint32_t dropped(uint32_t S) const {
    if (S % NameBlockRecords == 0)
      return 0;
    return Start[S] - Start[S - 1] - Shared[S];
  }
};

/// Fills Slots.Shared and returns how often each token is written: ids
/// then follow how often tokens are written rather than how often they
/// occur.
std::vector<uint64_t> frontCode(NameSlots &Slots, uint32_t NumTokens) {
  Slots.Shared.assign(Slots.size(), 0);
  std::vector<uint64_t> Weights(NumTokens, 0);
  ArrayRef<uint32_t> PrevTok;
  for (uint32_t S = 0; S < Slots.size(); ++S) {
    ArrayRef<uint32_t> Cur = Slots.tokens(S);
    uint32_t Shared = 0;
    if (S & ((1u << NameBlockShift) - 1))
      while (Shared < Cur.size() && Shared < PrevTok.size() &&
             Cur[Shared] == PrevTok[Shared])
        ++Shared;
    Slots.Shared[S] = Shared;
    for (uint32_t T : Cur.drop_front(Shared))
      ++Weights[T];
    PrevTok = Cur;
  }
  return Weights;
}

/// The nibble id code that makes the written ids smallest, Weights[T]
/// being how often provisional id T is written.
NibbleIdCode chooseIdCode(const token::TokenEncoder &TE,
                          ArrayRef<uint64_t> Weights) {
  std::vector<uint64_t> ByFinal(Weights.size());
  for (uint32_t T = 0; T < Weights.size(); ++T)
    ByFinal[TE.finalId(T)] = Weights[T];
  std::vector<uint64_t> Prefix(ByFinal.size() + 1, 0);
  for (size_t I = 0; I < ByFinal.size(); ++I)
    Prefix[I + 1] = Prefix[I] + ByFinal[I];
  auto WeightFrom = [&](uint64_t Id) {
    return Prefix.back() - Prefix[std::min<uint64_t>(Id, ByFinal.size())];
  };
  NibbleIdCode Best;
  uint64_t BestCost = UINT64_MAX;
  for (unsigned A = 1; A <= 15; ++A)
    for (unsigned B = 0; A + B <= 15; ++B)
      for (unsigned C = 0; A + B + C <= 15; ++C) {
        NibbleIdCode K{uint8_t(A), uint8_t(B), uint8_t(C)};
        uint64_t Cost = Prefix.back() + WeightFrom(K.base2()) +
                        WeightFrom(K.base3()) + WeightFrom(K.base4()) +
                        3 * WeightFrom(K.base7());
        if (Cost < BestCost) {
          BestCost = Cost;
          Best = K;
        }
      }
  return Best;
}

/// Record codes: the 15 most frequent (added, dropped) token counts, where
/// a record drops D tokens of the previous record's and adds K new ones;
/// every other record is escaped. Types are indices into the table's list
/// of type letters, most frequent first, held in bit planes.
struct RecordCoder {
  uint8_t CodeOf[RecordCodes * 16];
  uint8_t TypeIndex[256] = {};

  unsigned code(uint32_t Added, uint32_t Dropped) const {
    return Added < RecordCodes && Dropped < RecordCodes
               ? CodeOf[Added * 16 + Dropped]
               : RecordEscape;
  }
};

/// Chooses the record codes and type indices for Slots and writes them to
/// R.CodeTable; sets R.TypeBits and R.NumTypes.
RecordCoder chooseRecordCodes(const NameSlots &Slots, EncodedNames &R) {
  std::vector<uint32_t> PairCount(RecordCodes * 16, 0);
  uint32_t TypeCount[256] = {};
  for (uint32_t S = 0; S < Slots.size(); ++S) {
    uint32_t K = Slots.added(S), D = Slots.dropped(S);
    if (K < RecordCodes && D < RecordCodes)
      ++PairCount[K * 16 + D];
    ++TypeCount[uint8_t(Slots.Type[S])];
  }
  std::vector<uint32_t> Pairs; // K * 16 + D, most frequent first
  for (uint32_t P = 0; P < PairCount.size(); ++P)
    if (PairCount[P])
      Pairs.push_back(P);
  llvm::stable_sort(Pairs, [&](uint32_t X, uint32_t Y) {
    return PairCount[X] > PairCount[Y];
  });
  Pairs.resize(std::min<size_t>(Pairs.size(), RecordCodes));
  RecordCoder Coder;
  std::fill(std::begin(Coder.CodeOf), std::end(Coder.CodeOf),
            uint8_t(RecordEscape));
  for (unsigned C = 0; C < RecordCodes; ++C) {
    uint32_t P = C < Pairs.size() ? Pairs[C] : 0;
    if (C < Pairs.size())
      Coder.CodeOf[P] = C;
    R.CodeTable.push_back(char(P >> 4));
    R.CodeTable.push_back(char(P & 15));
  }
  std::vector<uint8_t> Types;
  for (unsigned T = 0; T < 256; ++T)
    if (TypeCount[T])
      Types.push_back(T);
  llvm::stable_sort(
      Types, [&](uint8_t X, uint8_t Y) { return TypeCount[X] > TypeCount[Y]; });
  for (unsigned I = 0; I < Types.size(); ++I) {
    Coder.TypeIndex[Types[I]] = I;
    R.CodeTable.push_back(char(Types[I]));
  }
  R.TypeBits = bitsFor(Types.size() - 1);
  R.NumTypes = Types.size();
  return Coder;
}

/// Writes name blocks (docs/Kallsyms.md): code nibbles, type planes,
/// escapes, first nibbles of the token ids, and the ids' tail nibbles from
/// the block's end backwards, so a reader finds any record's tokens without
/// decoding the records before it.
class NameBlockWriter {
public:
  NameBlockWriter(const NameSlots &Slots, const RecordCoder &Coder,
                  const EncodedNames &R)
      : Slots(Slots), Coder(Coder), Tokens(R.Tokens), IdCode(R.IdCode),
        TypeBits(R.TypeBits) {}

  /// Appends the block of records [First, Last) to Out.
  void write(uint32_t First, uint32_t Last, std::string &Out);

private:
  void addRecord(uint32_t S, uint32_t First);
  void addEscape(uint32_t Added, uint32_t Dropped);
  void putTails();

  const NameSlots &Slots;
  const RecordCoder &Coder;
  const token::TokenEncoder &Tokens;
  const NibbleIdCode IdCode;
  const unsigned TypeBits;
  // The block being written.
  NibbleWriter Codes, Firsts;
  std::string Escapes, Extensions;
  std::vector<std::pair<uint32_t, unsigned>> IdTails; // (value, nibbles)
  uint32_t Planes[MaxTypeBits] = {};
};

void NameBlockWriter::write(uint32_t First, uint32_t Last, std::string &Out) {
  Codes = NibbleWriter();
  Firsts = NibbleWriter();
  Escapes.clear();
  Extensions.clear();
  IdTails.clear();
  std::fill(std::begin(Planes), std::end(Planes), 0);
  for (uint32_t S = First; S < Last; ++S)
    addRecord(S, First);
  // Code nibbles: always NameBlockRecords of them (zero past the end),
  // the type planes, the escapes' long counts; the ids start on a byte,
  // at a fixed place unless an escape spells a count out, and the escape
  // bytes end the block.
  while (Codes.Pos < NameBlockRecords)
    Codes.put(0);
  Out += Codes.Bytes;
  for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
    appendU32(Out, Planes[Bit]);
  Out += Extensions;
  putTails();
  Out += Firsts.Bytes;
  Out += Escapes;
}

void NameBlockWriter::addRecord(uint32_t S, uint32_t First) {
  const uint32_t Added = Slots.added(S), Dropped = Slots.dropped(S);
  const unsigned Code = Coder.code(Added, Dropped);
  Codes.put(Code);
  if (Code == RecordEscape)
    addEscape(Added, Dropped);
  const uint8_t TypeIndex = Coder.TypeIndex[uint8_t(Slots.Type[S])];
  for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
    Planes[Bit] |= uint32_t((TypeIndex >> Bit) & 1) << (S - First);
  for (uint32_t T : Slots.tokens(S).drop_front(Slots.Shared[S])) {
    const uint32_t Id = Tokens.finalId(T);
    const unsigned F = IdCode.firstNibble(Id);
    Firsts.put(F);
    IdTails.push_back({Id - IdCode.firstBase(F), idTailLength(IdCode, F)});
  }
}

void NameBlockWriter::addEscape(uint32_t Added, uint32_t Dropped) {
  Escapes.push_back(char(std::min(Added, 15u) | std::min(Dropped, 15u) << 4));
  if (Added >= 15)
    appendULEB128(Extensions, Added - 15);
  if (Dropped >= 15)
    appendULEB128(Extensions, Dropped - 15);
}

/// Tail nibbles, laid out from the block's end backwards: id K's tail is
/// the little-endian number at [End - T(K+1), End - T(K)).
void NameBlockWriter::putTails() {
  uint64_t TailTotal = 0;
  for (auto &P : IdTails)
    TailTotal += P.second;
  SmallVector<uint8_t, 64> Region(TailTotal, 0);
  uint64_t T = 0;
  for (auto &[V, L] : IdTails) {
    uint64_t At = TailTotal - T - L;
    for (unsigned I = 0; I < L; ++I)
      Region[At + I] = (V >> (4 * I)) & 15;
    T += L;
  }
  if ((Firsts.Pos + TailTotal) & 1)
    Firsts.put(0);
  for (uint8_t X : Region)
    Firsts.put(X);
}

} // namespace

Expected<EncodedNames>
compact::encodeNames(const token::TokenTableBuilder &Builder,
                     ArrayRef<uint32_t> SlotTok, ArrayRef<uint32_t> SlotStart,
                     ArrayRef<char> SlotType) {
  NameSlots Slots{SlotTok, SlotStart, SlotType, {}};
  std::vector<uint64_t> Weights = frontCode(Slots, Builder.numTokens());
  Expected<token::TokenEncoder> Enc = Builder.finish(Weights);
  if (!Enc)
    return Enc.takeError();
  EncodedNames R;
  R.Tokens = std::move(*Enc);
  R.IdCode = chooseIdCode(R.Tokens, Weights);
  // Inside each range of ids whose codes have one length, order the ids
  // by the tokens' bytes: no record changes size, and the front-coded
  // token table finds the prefixes sorted tokens share.
  const NibbleIdCode &K = R.IdCode;
  R.Tokens.sortWithin(
      {K.base2(), K.base3(), K.base4(), K.base7(), R.Tokens.numTokens()});
  RecordCoder Coder = chooseRecordCodes(Slots, R);
  NameBlockWriter Blocks(Slots, Coder, R);
  for (uint32_t First = 0; First < Slots.size(); First += NameBlockRecords) {
    const uint32_t Last =
        std::min<uint64_t>(Slots.size(), uint64_t(First) + NameBlockRecords);
    R.NameOffsets.push_back(R.NameData.size());
    Blocks.write(First, Last, R.NameData);
    if (R.NameData.size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "names exceed 4 GiB");
  }
  R.NameOffsets.push_back(R.NameData.size());
  R.NameData.append(NameDataSlack, '\0');
  return std::move(R);
}

namespace {

Error checkSymbols(const SymbolList &List) {
  const auto &Syms = List.Symbols;
  if (Syms.empty())
    return createStringError(inconvertibleErrorCode(), "no symbols");
  if (Syms.size() >= (1u << 31))
    return createStringError(inconvertibleErrorCode(), "too many symbols");
  const uint64_t Base = Syms.front().Address;
  if (Syms.back().Address - Base > UINT32_MAX) {
    const KernelSymbol &Far = *llvm::find_if(Syms, [&](const KernelSymbol &S) {
      return S.Address - Base > UINT32_MAX;
    });
    return createStringError(
        inconvertibleErrorCode(),
        formatv("the compact format needs all addresses within 4 GiB of the "
                "first: '{0}' at {1:x16} is further from '{2}' at {3:x16} "
                "(the ksym-blob format has no such limit)",
                Far.Name, Far.Address, Syms.front().Name, Base));
  }
  if (List.EndAddress && *List.EndAddress < Syms.back().Address)
    return createStringError(
        inconvertibleErrorCode(),
        formatv(
            "end address {0:x16} is below the last symbol, '{1}' at {2:x16}",
            *List.EndAddress, Syms.back().Name, Syms.back().Address));
  return Error::success();
}

/// A name's first 24 bytes as three big-endian keys, which settle most
/// comparisons without touching the strings.
struct SortKey {
  uint64_t K1, K2, K3;
  uint32_t Index;
};

/// Sorts Keys by K1 with a stable LSD radix sort (16-bit digits: address
/// order is kept among equal keys).
void radixSortFirstKeys(std::vector<SortKey> &Keys) {
  std::vector<SortKey> Tmp(Keys.size());
  std::vector<uint32_t> Count(1u << 16);
  for (unsigned Shift = 0; Shift < 64; Shift += 16) {
    std::fill(Count.begin(), Count.end(), 0);
    for (const SortKey &K : Keys)
      ++Count[(K.K1 >> Shift) & 0xFFFF];
    if (Count[(Keys[0].K1 >> Shift) & 0xFFFF] == Keys.size())
      continue; // one digit value: this pass would not move anything
    uint32_t Sum = 0;
    for (uint32_t &C : Count) {
      uint32_t V = C;
      C = Sum;
      Sum += V;
    }
    for (const SortKey &K : Keys)
      Tmp[Count[(K.K1 >> Shift) & 0xFFFF]++] = K;
    Keys.swap(Tmp);
  }
}

/// The symbols' indices in name order: by bytes, then address order.
/// First by K1, then each run of equal K1 by comparisons: far fewer string
/// comparisons than one comparison sort of everything.
std::vector<uint32_t> nameOrder(ArrayRef<KernelSymbol> Syms) {
  auto KeyAt = [](StringRef S, size_t From) {
    uint64_t K = 0;
    for (size_t J = From; J < From + 8; ++J)
      K = (K << 8) | (J < S.size() ? uint8_t(S[J]) : 0);
    return K;
  };
  const uint32_t N = Syms.size();
  std::vector<SortKey> Keys(N);
  for (uint32_t I = 0; I < N; ++I)
    Keys[I] = {KeyAt(Syms[I].Name, 0), KeyAt(Syms[I].Name, 8),
               KeyAt(Syms[I].Name, 16), I};
  radixSortFirstKeys(Keys);
  auto Less = [&](const SortKey &A, const SortKey &B) {
    if (A.K2 != B.K2)
      return A.K2 < B.K2;
    if (A.K3 != B.K3)
      return A.K3 < B.K3;
    StringRef SA = Syms[A.Index].Name, SB = Syms[B.Index].Name;
    // Equal keys: equal first 24 bytes, or a shorter name padded with NULs
    // (then the whole names decide). Kernel names often share more than
    // 24 bytes, so the rest is compared from byte 24 on.
    int C = SA.size() > 24 && SB.size() > 24
                ? SA.drop_front(24).compare(SB.drop_front(24))
                : SA.compare(SB);
    if (C)
      return C < 0;
    return A.Index < B.Index;
  };
  for (uint32_t Lo = 0; Lo < N;) {
    uint32_t Hi = Lo + 1;
    while (Hi < N && Keys[Hi].K1 == Keys[Lo].K1)
      ++Hi;
    if (Hi - Lo > 1)
      std::sort(Keys.begin() + Lo, Keys.begin() + Hi, Less);
    Lo = Hi;
  }
  std::vector<uint32_t> Order(N);
  for (uint32_t S = 0; S < N; ++S)
    Order[S] = Keys[S].Index;
  return Order;
}

/// Tokens and types in name order, with provisional token ids.
struct TokenizedNames {
  token::TokenTableBuilder Builder;
  std::vector<uint32_t> SlotTok, SlotStart;
  std::vector<char> SlotType;
};

/// A sorted name shares leading tokens with the previous one; those reuse
/// its ids, so only the others are hashed.
void tokenizeNames(ArrayRef<KernelSymbol> Syms, ArrayRef<uint32_t> Order,
                   TokenizedNames &T) {
  const uint32_t N = Syms.size();
  T.SlotStart.resize(N + 1);
  T.SlotType.resize(N);
  T.SlotTok.reserve(uint64_t(N) * 6);
  SmallVector<StringRef, 32> Prev, Cur;
  token::Separators Seps;
  for (uint32_t S = 0; S < N; ++S) {
    const KernelSymbol &Sym = Syms[Order[S]];
    // The names are visited at random in memory: fetch ahead.
    if (S + 16 < N)
      __builtin_prefetch(&Syms[Order[S + 16]]);
    if (S + 8 < N) {
      const char *Ahead = Syms[Order[S + 8]].Name.data();
      __builtin_prefetch(Ahead);
      __builtin_prefetch(Ahead + 63);
    }
    Cur.clear();
    token::splitTokens(Sym.Name, Seps, Cur);
    uint32_t Start = T.SlotTok.size();
    size_t K = 0;
    if (S) {
      uint32_t PrevStart = T.SlotStart[S - 1];
      for (; K < Cur.size() && K < Prev.size() && Cur[K] == Prev[K]; ++K) {
        uint32_t Id = T.SlotTok[PrevStart + K];
        T.SlotTok.push_back(Id);
      }
    }
    for (; K < Cur.size(); ++K)
      T.SlotTok.push_back(T.Builder.addToken(Cur[K]));
    T.SlotStart[S] = Start;
    T.SlotType[S] = Sym.Type;
    std::swap(Prev, Cur);
  }
  T.SlotStart[N] = T.SlotTok.size();
}

/// Addresses: per block of 32 the first address (relative to the table's
/// base), where its low parts are, and one word with its shift, its
/// low-part width and the high parts in unary: the other offsets from the
/// first as an Elias-Fano sequence, so a reader finds or reads any of them
/// in O(1) and starts on the high parts while the low parts load.
struct AddressSections {
  std::vector<uint64_t> BlockRel; ///< Each block's first address - Base.
  std::string Index, Data;
};

void encodeAddressBlock(ArrayRef<KernelSymbol> Block, uint64_t Base,
                        AddressSections &A) {
  const uint64_t A0 = Block.front().Address;
  A.BlockRel.push_back(A0 - Base);
  uint64_t Or = 0;
  for (const KernelSymbol &S : Block.drop_front())
    Or |= S.Address - A0;
  const unsigned Shift = Or ? std::min(7u, unsigned(countr_zero(Or))) : 0;
  const uint32_t Elems = Block.size() - 1;
  const uint64_t MaxOff = (Block.back().Address - A0) >> Shift;
  unsigned Low = 0;
  while (Elems + (MaxOff >> Low) + 1 > UnaryBits)
    ++Low;
  uint64_t Word = uint64_t(Shift | Low << 3) << UnaryBits;
  BitWriter Lows;
  for (uint32_t I = 1; I < Block.size(); ++I) {
    uint64_t O = (Block[I].Address - A0) >> Shift;
    Lows.write(O, Low);
    Word |= uint64_t(1) << ((O >> Low) + (I - 1));
  }
  appendU32(A.Index, A0 - Base);
  appendU32(A.Index, A.Data.size());
  char W[8];
  support::endian::write64le(W, Word);
  A.Index.append(W, 8);
  A.Data += Lows.Bytes;
}

Error encodeAddresses(ArrayRef<KernelSymbol> Syms, uint64_t Base,
                      AddressSections &A) {
  const uint32_t BlockSize = 1u << AddrBlockShift;
  for (size_t First = 0; First < Syms.size(); First += BlockSize) {
    encodeAddressBlock(
        Syms.slice(First, std::min<size_t>(BlockSize, Syms.size() - First)),
        Base, A);
    if (A.Data.size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "addresses too large");
  }
  A.Data.append(8, '\0');
  return Error::success();
}

/// A part of the address space without large gaps between symbols, and
/// its guide entries: one per 2^Shift bytes.
struct GuideSegment {
  uint64_t Start, Last; // relative addresses of its first, last symbol
  uint32_t FirstEntry = 0, NumEntries = 0;
  unsigned Shift = 0;
};

std::vector<GuideSegment> guideSegments(ArrayRef<KernelSymbol> Syms,
                                        uint64_t Base) {
  std::vector<GuideSegment> Segs;
  Segs.push_back({0, 0});
  for (uint32_t I = 1; I < Syms.size(); ++I) {
    uint64_t Rel = Syms[I].Address - Base;
    if (Syms[I].Address - Syms[I - 1].Address >= GuideSegmentGap)
      Segs.push_back({Rel, Rel});
    Segs.back().Last = Rel;
  }
  return Segs;
}

/// The address guide: segments split at large gaps; in each, one entry per
/// 2^Shift bytes gives the last block starting at or below it, with about
/// two entries per block.
std::string encodeGuide(ArrayRef<KernelSymbol> Syms, uint64_t Base,
                        ArrayRef<uint64_t> BlockRel, unsigned GuideBits) {
  std::vector<GuideSegment> Segs = guideSegments(Syms, Base);
  BitWriter EntryW;
  uint32_t Entries = 0;
  uint32_t B = 0;     // last block starting at or below the current address
  size_t Counted = 0; // blocks starting before the current segment
  for (GuideSegment &S : Segs) {
    // Blocks that start inside the segment.
    uint64_t Blocks = 0;
    while (Counted < BlockRel.size() && BlockRel[Counted] < S.Start)
      ++Counted;
    while (Counted < BlockRel.size() && BlockRel[Counted] <= S.Last) {
      ++Counted;
      ++Blocks;
    }
    const uint64_t Span = S.Last - S.Start;
    while ((Span >> S.Shift) + 1 > std::max<uint64_t>(2 * Blocks, 1))
      ++S.Shift;
    S.FirstEntry = Entries;
    S.NumEntries = (Span >> S.Shift) + 1;
    for (uint64_t G = 0; G < S.NumEntries; ++G) {
      uint64_t At = S.Start + (G << S.Shift);
      while (B + 1 < BlockRel.size() && BlockRel[B + 1] <= At)
        ++B;
      EntryW.write(B, GuideBits);
    }
    Entries += S.NumEntries;
  }
  std::string Guide;
  appendU32(Guide, Segs.size());
  for (const GuideSegment &S : Segs) {
    appendU32(Guide, S.Start);
    appendU32(Guide, S.FirstEntry);
    appendU32(Guide, S.NumEntries);
    appendU32(Guide, S.Shift);
  }
  return Guide + EntryW.Bytes;
}

/// The permutation from address order to name order, and back pointers
/// every Stride steps of each cycle longer than Stride, so the inverse
/// costs at most 2 * Stride steps.
struct PermutationSections {
  std::string Perm, InvMarks, Back;
  uint32_t NumMarks = 0;
};

/// Marks every Stride-th element of each cycle longer than Stride, with
/// the mark before it on its cycle in BackOf.
void markCycles(ArrayRef<uint32_t> Perm, unsigned Stride,
                std::vector<uint64_t> &Marks, std::vector<uint32_t> &BackOf) {
  const uint32_t N = Perm.size();
  Marks.assign((N + 63) / 64, 0);
  BackOf.assign(N, 0);
  std::vector<uint8_t> Seen(N, 0);
  std::vector<uint32_t> Cycle;
  for (uint32_t Start = 0; Start < N; ++Start) {
    if (Seen[Start])
      continue;
    Cycle.clear();
    for (uint32_t X = Start; !Seen[X]; X = Perm[X]) {
      Seen[X] = true;
      Cycle.push_back(X);
    }
    if (Cycle.size() <= Stride)
      continue;
    uint32_t NumM = (Cycle.size() + Stride - 1) / Stride;
    for (uint32_t K = 0; K < NumM; ++K) {
      uint32_t X = Cycle[K * Stride];
      uint32_t Prev = Cycle[(K ? K - 1 : NumM - 1) * Stride];
      Marks[X / 64] |= uint64_t(1) << (X % 64);
      BackOf[X] = Prev;
    }
  }
}

PermutationSections encodePermutation(ArrayRef<uint32_t> Perm, unsigned Bits,
                                      unsigned Stride) {
  PermutationSections P;
  BitWriter PermW;
  for (uint32_t V : Perm)
    PermW.write(V, Bits);
  P.Perm = std::move(PermW.Bytes);
  std::vector<uint64_t> Marks;
  std::vector<uint32_t> BackOf;
  markCycles(Perm, Stride, Marks, BackOf);
  std::string Ranks;
  for (size_t W = 0; W < Marks.size(); ++W) {
    if (W % 8 == 0)
      appendU32(Ranks, P.NumMarks);
    char B[8];
    support::endian::write64le(B, Marks[W]);
    P.InvMarks.append(B, 8);
    P.NumMarks += popcount(Marks[W]);
  }
  P.InvMarks += Ranks;
  BitWriter BackW;
  for (uint32_t X = 0; X < Perm.size(); ++X)
    if ((Marks[X / 64] >> (X % 64)) & 1)
      BackW.write(BackOf[X], Bits);
  P.Back = std::move(BackW.Bytes);
  return P;
}

/// Modules: names, then runs of equal module in address order.
struct ModuleSections {
  std::string Names, Runs;
  uint32_t Count = 0;
};

Expected<ModuleSections> encodeModules(ArrayRef<KernelSymbol> Syms) {
  ModuleSections M;
  StringMap<uint32_t> Ids;
  uint32_t Cur = 0;
  for (uint32_t I = 0; I < Syms.size(); ++I) {
    StringRef Name = Syms[I].Module;
    uint32_t Id = 0;
    if (!Name.empty()) {
      if (Name.size() > UINT16_MAX)
        return createStringError(inconvertibleErrorCode(),
                                 "module name too long");
      auto [It, New] = Ids.try_emplace(Name, M.Count + 1);
      if (New) {
        ++M.Count;
        M.Names.push_back(char(Name.size()));
        M.Names.push_back(char(Name.size() >> 8));
        M.Names += Name;
      }
      Id = It->second;
    }
    if (I == 0 || Id != Cur) {
      appendU32(M.Runs, I);
      appendU32(M.Runs, Id);
      Cur = Id;
    }
  }
  return std::move(M);
}

/// Name keys: the first bytes of the first name of every 2^NameKeyShift-th
/// name block.
std::string encodeNameKeys(ArrayRef<KernelSymbol> Syms,
                           ArrayRef<uint32_t> Order) {
  std::string NameKeys;
  for (uint64_t S = 0; S < Syms.size(); S += NameBlockRecords << NameKeyShift) {
    StringRef Name = Syms[Order[S]].Name;
    char B[8];
    support::endian::write64le(B, nameKey(Name.data(), Name.size()));
    NameKeys.append(B, 8);
  }
  return NameKeys;
}

/// Appends each section, 8-aligned, and its offset and size to the header.
Error appendSections(ArrayRef<const std::string *> Secs, std::string &Out) {
  for (unsigned S = 0; S < Secs.size(); ++S) {
    Out.resize(alignTo(Out.size(), 8), '\0');
    if (Out.size() + Secs[S]->size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "table exceeds 4 GiB");
    putU32(Out, 64 + S * 8, Out.size());
    putU32(Out, 64 + S * 8 + 4, Secs[S]->size());
    Out += *Secs[S];
  }
  return Error::success();
}

} // namespace

Error kallsyms::writeCompact(const SymbolList &List, std::string &Out) {
  if (Error E = checkSymbols(List))
    return E;
  ArrayRef<KernelSymbol> Syms = List.Symbols;
  const uint32_t N = Syms.size();
  const uint64_t Base = Syms.front().Address;
  const std::vector<uint32_t> Order = nameOrder(Syms);
  std::vector<uint32_t> Perm(N); // address index -> name slot
  for (uint32_t S = 0; S < N; ++S)
    Perm[Order[S]] = S;

  TokenizedNames T;
  tokenizeNames(Syms, Order, T);
  Expected<EncodedNames> Names =
      encodeNames(T.Builder, T.SlotTok, T.SlotStart, T.SlotType);
  if (!Names)
    return Names.takeError();
  const unsigned NameOffBits = bitsFor(Names->NameOffsets.back());
  BitWriter NameIndex;
  for (uint64_t O : Names->NameOffsets)
    NameIndex.write(O, NameOffBits);

  AddressSections Addrs;
  if (Error E = encodeAddresses(Syms, Base, Addrs))
    return E;
  const unsigned GuideBits = std::max(1u, bitsFor(Addrs.BlockRel.size() - 1));
  const std::string Guide = encodeGuide(Syms, Base, Addrs.BlockRel, GuideBits);
  const unsigned Stride = N > LargeTable ? LargeInvStride : InvStride;
  const unsigned PermBits = std::max(1u, bitsFor(N - 1));
  const PermutationSections P = encodePermutation(Perm, PermBits, Stride);
  Expected<ModuleSections> Modules = encodeModules(Syms);
  if (!Modules)
    return Modules.takeError();
  const std::string NameKeys = encodeNameKeys(Syms, Order);

  const std::string *Secs[NumSections] = {};
  const std::string Tokens = Names->Tokens.frontCoded();
  Secs[SecTokens] = &Tokens;
  Secs[SecAddrIndex] = &Addrs.Index;
  Secs[SecAddrData] = &Addrs.Data;
  Secs[SecPerm] = &P.Perm;
  Secs[SecInvMarks] = &P.InvMarks;
  Secs[SecInvBack] = &P.Back;
  Secs[SecNameIndex] = &NameIndex.Bytes;
  Secs[SecNameData] = &Names->NameData;
  Secs[SecModules] = &Modules->Names;
  Secs[SecModuleRuns] = &Modules->Runs;
  Secs[SecCombos] = &Names->CodeTable;
  Secs[SecGuide] = &Guide;
  Secs[SecNameKeys] = &NameKeys;

  Out.assign(HeaderSize, '\0');
  std::memcpy(&Out[0], CompactMagic, 8);
  putU32(Out, 8, CompactVersion);
  putU32(Out, 12, List.EndAddress ? FlagHasEnd : 0);
  putU32(Out, 16, N);
  putU32(Out, 20, PermBits);
  putU64(Out, 24, Base);
  putU64(Out, 32, List.EndAddress.value_or(0));
  Out[40] = char(AddrBlockShift);
  Out[41] = char(NameBlockShift);
  Out[42] = char(Stride);
  Out[43] = char(Names->TypeBits);
  putU32(Out, 44, Modules->Count);
  putU32(Out, 48, P.NumMarks);
  Out[52] = char(Names->IdCode.A);
  Out[53] = char(Names->IdCode.B);
  Out[54] = char(Names->IdCode.C);
  putU32(Out, 56, Names->NumTypes);
  Out[62] = char(NameOffBits);
  Out[63] = char(GuideBits);
  return appendSections(Secs, Out);
}
