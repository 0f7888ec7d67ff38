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

Expected<EncodedNames>
compact::encodeNames(const token::TokenTableBuilder &Builder,
                     ArrayRef<uint32_t> SlotTok, ArrayRef<uint32_t> SlotStart,
                     ArrayRef<char> SlotType) {
  uint32_t N = SlotType.size();
  auto TokensOfSlot = [&](uint32_t S) {
    return SlotTok.slice(SlotStart[S], SlotStart[S + 1] - SlotStart[S]);
  };

  // Names, front-coded by tokens within blocks. The first pass finds the
  // tokens each record writes, so ids can follow how often they are
  // written rather than how often they occur.
  std::vector<uint32_t> SharedOf(N);
  std::vector<uint64_t> Weights(Builder.numTokens(), 0);
  {
    ArrayRef<uint32_t> PrevTok;
    for (uint32_t S = 0; S < N; ++S) {
      ArrayRef<uint32_t> Cur = TokensOfSlot(S);
      uint32_t Shared = 0;
      if (S & ((1u << NameBlockShift) - 1))
        while (Shared < Cur.size() && Shared < PrevTok.size() &&
               Cur[Shared] == PrevTok[Shared])
          ++Shared;
      SharedOf[S] = Shared;
      for (uint32_t T : Cur.drop_front(Shared))
        ++Weights[T];
      PrevTok = Cur;
    }
  }
  Expected<token::TokenEncoder> Enc = Builder.finish(Weights);
  if (!Enc)
    return Enc.takeError();
  EncodedNames R;
  R.Tokens = std::move(*Enc);
  token::TokenEncoder *TE = &R.Tokens;

  // The nibble id code that makes the written ids smallest.
  std::vector<uint64_t> ByFinal(Weights.size());
  for (uint32_t T = 0; T < Weights.size(); ++T)
    ByFinal[TE->finalId(T)] = Weights[T];
  std::vector<uint64_t> Prefix(ByFinal.size() + 1, 0);
  for (size_t I = 0; I < ByFinal.size(); ++I)
    Prefix[I + 1] = Prefix[I] + ByFinal[I];
  auto WeightFrom = [&](uint64_t Id) {
    return Prefix.back() - Prefix[std::min<uint64_t>(Id, ByFinal.size())];
  };
  NibbleIdCode &IdCode = R.IdCode;
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
          IdCode = K;
        }
      }
  // Inside each range of ids whose codes have one length, order the ids
  // by the tokens' bytes: no record changes size, and the front-coded
  // token table finds the prefixes sorted tokens share.
  TE->sortWithin({IdCode.base2(), IdCode.base3(), IdCode.base4(),
                  IdCode.base7(), TE->numTokens()});

  // Record codes: the 15 most frequent (new, dropped) token counts, where
  // a record drops D tokens of the previous record's and adds K new ones;
  // every other record is escaped. Types are indices into the table's list
  // of type letters, held in bit planes.
  auto NewOf = [&](uint32_t S) {
    return SlotStart[S + 1] - SlotStart[S] - SharedOf[S];
  };
  auto DroppedOf = [&](uint32_t S) -> uint32_t {
    if (S % NameBlockRecords == 0)
      return 0;
    return SlotStart[S] - SlotStart[S - 1] - SharedOf[S];
  };
  std::vector<uint32_t> PairCount(RecordCodes * 16, 0);
  uint32_t TypeCount[256] = {};
  for (uint32_t S = 0; S < N; ++S) {
    uint32_t K = NewOf(S), D = DroppedOf(S);
    if (K < RecordCodes && D < RecordCodes)
      ++PairCount[K * 16 + D];
    ++TypeCount[uint8_t(SlotType[S])];
  }
  std::vector<uint32_t> Pairs; // K * 16 + D, most frequent first
  for (uint32_t P = 0; P < PairCount.size(); ++P)
    if (PairCount[P])
      Pairs.push_back(P);
  llvm::stable_sort(Pairs, [&](uint32_t X, uint32_t Y) {
    return PairCount[X] > PairCount[Y];
  });
  Pairs.resize(std::min<size_t>(Pairs.size(), RecordCodes));
  uint8_t CodeOf[RecordCodes * 16];
  std::fill(std::begin(CodeOf), std::end(CodeOf), uint8_t(RecordEscape));
  std::string &CodeTable = R.CodeTable;
  for (unsigned C = 0; C < RecordCodes; ++C) {
    uint32_t P = C < Pairs.size() ? Pairs[C] : 0;
    if (C < Pairs.size())
      CodeOf[P] = C;
    CodeTable.push_back(char(P >> 4));
    CodeTable.push_back(char(P & 15));
  }
  std::vector<uint8_t> Types;
  for (unsigned T = 0; T < 256; ++T)
    if (TypeCount[T])
      Types.push_back(T);
  llvm::stable_sort(
      Types, [&](uint8_t X, uint8_t Y) { return TypeCount[X] > TypeCount[Y]; });
  uint8_t TypeIndex[256] = {};
  for (unsigned I = 0; I < Types.size(); ++I) {
    TypeIndex[Types[I]] = I;
    CodeTable.push_back(char(Types[I]));
  }
  R.TypeBits = bitsFor(Types.size() - 1);
  R.NumTypes = Types.size();
  unsigned TypeBits = R.TypeBits;

  // Name blocks (docs/Kallsyms.md): code nibbles, type planes, escapes,
  // first nibbles of the token ids, and the ids' tail nibbles from the
  // block's end backwards, so a reader finds any record's tokens without
  // decoding the records before it.
  std::vector<uint64_t> &NameOffsets = R.NameOffsets;
  std::string &NameData = R.NameData;
  {
    NibbleWriter Hdr, Firsts;
    std::string Escapes, Extensions;
    std::vector<std::pair<uint32_t, unsigned>> IdTails; // (value, nibbles)
    SmallVector<uint8_t, 64> Region;
    for (uint32_t First = 0; First < N; First += NameBlockRecords) {
      uint32_t Last = std::min<uint64_t>(N, uint64_t(First) + NameBlockRecords);
      NameOffsets.push_back(NameData.size());
      Hdr = NibbleWriter();
      Firsts = NibbleWriter();
      Escapes.clear();
      Extensions.clear();
      IdTails.clear();
      uint32_t Planes[8] = {};
      for (uint32_t S = First; S < Last; ++S) {
        uint32_t Shared = SharedOf[S], New = NewOf(S), Dropped = DroppedOf(S);
        unsigned Code = New < RecordCodes && Dropped < RecordCodes
                            ? CodeOf[New * 16 + Dropped]
                            : RecordEscape;
        Hdr.put(Code);
        if (Code == RecordEscape) {
          Escapes.push_back(
              char(std::min(New, 15u) | std::min(Dropped, 15u) << 4));
          uint8_t Buf[16];
          if (New >= 15)
            Extensions.append(reinterpret_cast<char *>(Buf),
                              encodeULEB128(New - 15, Buf));
          if (Dropped >= 15)
            Extensions.append(reinterpret_cast<char *>(Buf),
                              encodeULEB128(Dropped - 15, Buf));
        }
        for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
          Planes[Bit] |= uint32_t((TypeIndex[uint8_t(SlotType[S])] >> Bit) & 1)
                         << (S - First);
        for (uint32_t T : TokensOfSlot(S).drop_front(Shared)) {
          uint32_t Id = TE->finalId(T);
          unsigned F = Id < IdCode.base2() ? Id
                       : Id < IdCode.base3()
                           ? IdCode.A + (Id - IdCode.base2()) / 16
                       : Id < IdCode.base4()
                           ? IdCode.A + IdCode.B + (Id - IdCode.base3()) / 256
                       : Id < IdCode.base7() ? IdCode.A + IdCode.B + IdCode.C +
                                                   (Id - IdCode.base4()) / 4096
                                             : 15;
          Firsts.put(F);
          uint32_t Base =
              F < IdCode.A ? F
              : F < unsigned(IdCode.A + IdCode.B)
                  ? IdCode.base2() + 16 * (F - IdCode.A)
              : F < unsigned(IdCode.A + IdCode.B + IdCode.C)
                  ? IdCode.base3() + 256 * (F - IdCode.A - IdCode.B)
              : F < 15
                  ? IdCode.base4() + 4096 * (F - IdCode.A - IdCode.B - IdCode.C)
                  : IdCode.base7();
          IdTails.push_back({Id - Base, idTailLength(IdCode, F)});
        }
      }
      // Code nibbles: always NameBlockRecords of them (zero past the end),
      // the type planes, the escapes' long counts; the ids start on a byte,
      // at a fixed place unless an escape spells a count out, and the
      // escape bytes end the block.
      while (Hdr.Pos < NameBlockRecords)
        Hdr.put(0);
      NameData += Hdr.Bytes;
      for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
        appendU32(NameData, Planes[Bit]);
      NameData += Extensions;
      // Tail nibbles, laid out from the block's end backwards: id K's tail
      // is the little-endian number at [End - T(K+1), End - T(K)).
      uint64_t TailTotal = 0;
      for (auto &P : IdTails)
        TailTotal += P.second;
      Region.assign(TailTotal, 0);
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
      NameData += Firsts.Bytes;
      NameData += Escapes;
      if (NameData.size() > UINT32_MAX)
        return createStringError(inconvertibleErrorCode(),
                                 "names exceed 4 GiB");
    }
    NameOffsets.push_back(NameData.size());
    NameData.append(NameDataSlack, '\0');
  }
  return std::move(R);
}

Error kallsyms::writeCompact(const SymbolList &List, std::string &Out) {
  const auto &Syms = List.Symbols;
  if (Syms.empty())
    return createStringError(inconvertibleErrorCode(), "no symbols");
  if (Syms.size() >= (1u << 31))
    return createStringError(inconvertibleErrorCode(), "too many symbols");
  uint32_t N = Syms.size();
  uint64_t Base = Syms.front().Address;
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

  // Name order: by bytes, then address order. The first 24 bytes as three
  // big-endian keys settle most comparisons without touching the strings.
  struct SortKey {
    uint64_t K1, K2, K3;
    uint32_t Index;
  };
  auto KeyAt = [](StringRef S, size_t From) {
    uint64_t K = 0;
    for (size_t J = From; J < From + 8; ++J)
      K = (K << 8) | (J < S.size() ? uint8_t(S[J]) : 0);
    return K;
  };
  std::vector<SortKey> Order(N);
  for (uint32_t I = 0; I < N; ++I)
    Order[I] = {KeyAt(Syms[I].Name, 0), KeyAt(Syms[I].Name, 8),
                KeyAt(Syms[I].Name, 16), I};
  // First by K1 with a stable LSD radix sort (16-bit digits; address order
  // is kept among equal keys), then each run of equal K1 by comparisons:
  // far fewer string comparisons than one comparison sort of everything.
  {
    std::vector<SortKey> Tmp(N);
    std::vector<uint32_t> Count(1u << 16);
    for (unsigned Shift = 0; Shift < 64; Shift += 16) {
      std::fill(Count.begin(), Count.end(), 0);
      for (const SortKey &K : Order)
        ++Count[(K.K1 >> Shift) & 0xFFFF];
      if (Count[(Order[0].K1 >> Shift) & 0xFFFF] == N)
        continue; // one digit value: this pass would not move anything
      uint32_t Sum = 0;
      for (uint32_t &C : Count) {
        uint32_t V = C;
        C = Sum;
        Sum += V;
      }
      for (const SortKey &K : Order)
        Tmp[Count[(K.K1 >> Shift) & 0xFFFF]++] = K;
      Order.swap(Tmp);
    }
  }
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
    while (Hi < N && Order[Hi].K1 == Order[Lo].K1)
      ++Hi;
    if (Hi - Lo > 1)
      std::sort(Order.begin() + Lo, Order.begin() + Hi, Less);
    Lo = Hi;
  }

  std::vector<uint32_t> Perm(N); // address index -> name slot
  for (uint32_t S = 0; S < N; ++S)
    Perm[Order[S].Index] = S;

  // Tokens and types in name order, with provisional token ids. A sorted
  // name shares leading tokens with the previous one; those reuse its ids,
  // so only the others are hashed.
  token::TokenTableBuilder Builder;
  std::vector<uint32_t> SlotTok, SlotStart(N + 1);
  std::vector<char> SlotType(N);
  SlotTok.reserve(uint64_t(N) * 6);
  {
    SmallVector<StringRef, 32> Prev, Cur;
    token::Separators Seps;
    for (uint32_t S = 0; S < N; ++S) {
      const KernelSymbol &Sym = Syms[Order[S].Index];
      // The names are visited at random in memory: fetch ahead.
      if (S + 16 < N)
        __builtin_prefetch(&Syms[Order[S + 16].Index]);
      if (S + 8 < N) {
        const char *Ahead = Syms[Order[S + 8].Index].Name.data();
        __builtin_prefetch(Ahead);
        __builtin_prefetch(Ahead + 63);
      }
      Cur.clear();
      token::splitTokens(Sym.Name, Seps, Cur);
      uint32_t Start = SlotTok.size();
      size_t K = 0;
      if (S) {
        uint32_t PrevStart = SlotStart[S - 1];
        for (; K < Cur.size() && K < Prev.size() && Cur[K] == Prev[K]; ++K) {
          uint32_t Id = SlotTok[PrevStart + K];
          SlotTok.push_back(Id);
        }
      }
      for (; K < Cur.size(); ++K)
        SlotTok.push_back(Builder.addToken(Cur[K]));
      SlotStart[S] = Start;
      SlotType[S] = Sym.Type;
      std::swap(Prev, Cur);
    }
  }
  SlotStart[N] = SlotTok.size();

  Expected<EncodedNames> Names =
      encodeNames(Builder, SlotTok, SlotStart, SlotType);
  if (!Names)
    return Names.takeError();
  const NibbleIdCode &IdCode = Names->IdCode;
  const std::vector<uint64_t> &NameOffsets = Names->NameOffsets;
  const std::string &NameData = Names->NameData;
  const std::string &CodeTable = Names->CodeTable;
  unsigned TypeBits = Names->TypeBits;

  // Addresses: per block of 32 the first address (relative to Base), where
  // its low parts are, and one word with its shift, its low-part width and
  // the high parts in unary: the other offsets from the first as an
  // Elias-Fano sequence, so a reader finds or reads any of them in O(1)
  // and starts on the high parts while the low parts load.
  std::vector<uint64_t> BlockRel;
  std::string AddrIndex, AddrData;
  uint32_t BlockSize = 1u << AddrBlockShift;
  for (uint32_t B = 0; B * BlockSize < N; ++B) {
    uint32_t First = B * BlockSize, Last = std::min(N, First + BlockSize);
    uint64_t A0 = Syms[First].Address;
    BlockRel.push_back(A0 - Base);
    uint64_t Or = 0;
    for (uint32_t I = First + 1; I < Last; ++I)
      Or |= Syms[I].Address - A0;
    unsigned Shift = Or ? std::min(7u, unsigned(countr_zero(Or))) : 0;
    uint32_t Elems = Last - First - 1;
    uint64_t MaxOff = (Syms[Last - 1].Address - A0) >> Shift;
    unsigned Low = 0;
    while (Elems + (MaxOff >> Low) + 1 > UnaryBits)
      ++Low;
    uint64_t Word = uint64_t(Shift | Low << 3) << UnaryBits;
    BitWriter Lows;
    for (uint32_t I = First + 1; I < Last; ++I) {
      uint64_t O = (Syms[I].Address - A0) >> Shift;
      Lows.write(O, Low);
      Word |= uint64_t(1) << ((O >> Low) + (I - First - 1));
    }
    appendU32(AddrIndex, A0 - Base);
    appendU32(AddrIndex, AddrData.size());
    char W[8];
    support::endian::write64le(W, Word);
    AddrIndex.append(W, 8);
    AddrData += Lows.Bytes;
    if (AddrData.size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "addresses too large");
  }
  AddrData.append(8, '\0');
  unsigned NameOffBits = bitsFor(NameOffsets.back());
  BitWriter NameIndexW;
  for (uint64_t O : NameOffsets)
    NameIndexW.write(O, NameOffBits);
  std::string &NameIndex = NameIndexW.Bytes;

  // The address guide: segments split at large gaps; in each, one entry
  // per 2^Shift bytes gives the last block starting at or below it, with
  // about two entries per block.
  std::string Guide;
  unsigned GuideBits = std::max(1u, bitsFor(BlockRel.size() - 1));
  {
    struct Segment {
      uint64_t Start, Last; // relative addresses of its first, last symbol
      uint32_t FirstEntry, NumEntries;
      unsigned Shift;
    };
    std::vector<Segment> Segs;
    Segs.push_back({0, 0, 0, 0, 0});
    for (uint32_t I = 1; I < N; ++I) {
      uint64_t Rel = Syms[I].Address - Base;
      if (Syms[I].Address - Syms[I - 1].Address >= GuideSegmentGap)
        Segs.push_back({Rel, Rel, 0, 0, 0});
      Segs.back().Last = Rel;
    }
    BitWriter EntryW;
    uint32_t Entries = 0;
    uint32_t B = 0;     // last block starting at or below the current address
    size_t Counted = 0; // blocks starting before the current segment
    for (Segment &S : Segs) {
      // Blocks that start inside the segment.
      uint64_t Blocks = 0;
      while (Counted < BlockRel.size() && BlockRel[Counted] < S.Start)
        ++Counted;
      while (Counted < BlockRel.size() && BlockRel[Counted] <= S.Last) {
        ++Counted;
        ++Blocks;
      }
      uint64_t Span = S.Last - S.Start;
      unsigned Shift = 0;
      while ((Span >> Shift) + 1 > std::max<uint64_t>(2 * Blocks, 1))
        ++Shift;
      S.Shift = Shift;
      S.FirstEntry = Entries;
      S.NumEntries = (Span >> Shift) + 1;
      for (uint64_t G = 0; G < S.NumEntries; ++G) {
        uint64_t At = S.Start + (G << Shift);
        while (B + 1 < BlockRel.size() && BlockRel[B + 1] <= At)
          ++B;
        EntryW.write(B, GuideBits);
      }
      Entries += S.NumEntries;
    }
    appendU32(Guide, Segs.size());
    for (const Segment &S : Segs) {
      appendU32(Guide, S.Start);
      appendU32(Guide, S.FirstEntry);
      appendU32(Guide, S.NumEntries);
      appendU32(Guide, S.Shift);
    }
    Guide += EntryW.Bytes;
  }
  // The permutation, and back pointers every Stride steps of each cycle
  // longer than Stride, so the inverse costs at most 2 * Stride steps.
  const unsigned Stride = N > LargeTable ? LargeInvStride : InvStride;
  unsigned PermBits = std::max(1u, bitsFor(N - 1));
  BitWriter PermW;
  for (uint32_t I = 0; I < N; ++I)
    PermW.write(Perm[I], PermBits);
  std::vector<uint64_t> Marks((N + 63) / 64);
  std::vector<uint32_t> BackOf(N, 0);
  {
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
  std::string InvMarks;
  uint32_t NumMarks = 0;
  {
    std::string Ranks;
    for (size_t W = 0; W < Marks.size(); ++W) {
      if (W % 8 == 0)
        appendU32(Ranks, NumMarks);
      char B[8];
      support::endian::write64le(B, Marks[W]);
      InvMarks.append(B, 8);
      NumMarks += popcount(Marks[W]);
    }
    InvMarks += Ranks;
  }
  BitWriter BackW;
  for (uint32_t X = 0; X < N; ++X)
    if ((Marks[X / 64] >> (X % 64)) & 1)
      BackW.write(BackOf[X], PermBits);

  // Modules: names, then runs of equal module in address order.
  std::string Modules, Runs;
  uint32_t NumModules = 0;
  {
    StringMap<uint32_t> Ids;
    uint32_t Cur = 0;
    for (uint32_t I = 0; I < N; ++I) {
      StringRef M = Syms[I].Module;
      uint32_t Id = 0;
      if (!M.empty()) {
        if (M.size() > UINT16_MAX)
          return createStringError(inconvertibleErrorCode(),
                                   "module name too long");
        auto [It, New] = Ids.try_emplace(M, NumModules + 1);
        if (New) {
          ++NumModules;
          Modules.push_back(char(M.size()));
          Modules.push_back(char(M.size() >> 8));
          Modules += M;
        }
        Id = It->second;
      }
      if (I == 0 || Id != Cur) {
        appendU32(Runs, I);
        appendU32(Runs, Id);
        Cur = Id;
      }
    }
  }

  // Name keys: the first bytes of the first name of every 2^NameKeyShift-th
  // name block.
  std::string NameKeys;
  for (uint64_t S = 0; S < N; S += NameBlockRecords << NameKeyShift) {
    StringRef Name = Syms[Order[S].Index].Name;
    char B[8];
    support::endian::write64le(B, nameKey(Name.data(), Name.size()));
    NameKeys.append(B, 8);
  }

  const std::string *Secs[NumSections] = {};
  std::string Tokens = Names->Tokens.frontCoded();
  Secs[SecTokens] = &Tokens;
  Secs[SecAddrIndex] = &AddrIndex;
  Secs[SecAddrData] = &AddrData;
  Secs[SecPerm] = &PermW.Bytes;
  Secs[SecInvMarks] = &InvMarks;
  Secs[SecInvBack] = &BackW.Bytes;
  Secs[SecNameIndex] = &NameIndex;
  Secs[SecNameData] = &NameData;
  Secs[SecModules] = &Modules;
  Secs[SecModuleRuns] = &Runs;
  Secs[SecCombos] = &CodeTable;
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
  putU32(Out, 44, NumModules);
  putU32(Out, 48, NumMarks);
  Out[43] = char(TypeBits);
  Out[52] = char(IdCode.A);
  Out[53] = char(IdCode.B);
  Out[54] = char(IdCode.C);
  putU32(Out, 56, Names->NumTypes);
  Out[62] = char(NameOffBits);
  Out[63] = char(GuideBits);
  for (unsigned S = 0; S < NumSections; ++S) {
    Out.resize(alignTo(Out.size(), 8), '\0');
    if (Out.size() + Secs[S]->size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "table exceeds 4 GiB");
    putU32(Out, 64 + S * 8, Out.size());
    putU32(Out, 64 + S * 8 + 4, Secs[S]->size());
    Out += *Secs[S];
  }
  return Error::success();
}
