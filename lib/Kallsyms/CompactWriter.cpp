//===- CompactWriter.cpp - Write the compact kernel symbol table ----------===//
//
// Names are stored in name order, front-coded by whole tokens inside blocks
// of 16 (sorted kernel names share long token prefixes) as nibble-coded
// records whose codes are fitted to this table; addresses are stored in
// address order as bit-packed deltas in blocks of 32. A bit-packed
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

void encodeNibbleId(const NibbleIdCode &C, uint32_t Id, NibbleWriter &W) {
  if (Id < C.base2()) {
    W.put(Id);
  } else if (Id < C.base3()) {
    uint32_t V = Id - C.base2();
    W.put(C.A + (V >> 4));
    W.putN(1, V & 15);
  } else if (Id < C.base4()) {
    uint32_t V = Id - C.base3();
    W.put(C.A + C.B + (V >> 8));
    W.putN(2, V & 0xFF);
  } else if (Id < C.base7()) {
    uint32_t V = Id - C.base4();
    W.put(C.A + C.B + C.C + (V >> 12));
    W.putN(3, V & 0xFFF);
  } else {
    W.put(15);
    W.putN(6, Id - C.base7());
  }
}

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

Error kallsyms::writeCompact(const SymbolList &List, std::string &Out) {
  const auto &Syms = List.Symbols;
  if (Syms.empty())
    return createStringError(inconvertibleErrorCode(), "no symbols");
  if (Syms.size() >= (1u << 31))
    return createStringError(inconvertibleErrorCode(), "too many symbols");
  uint32_t N = Syms.size();
  uint64_t Base = Syms.front().Address;
  if (Syms.back().Address - Base > UINT32_MAX)
    return createStringError(
        inconvertibleErrorCode(),
        "the compact format needs all addresses within 4 GiB of the first");
  if (List.EndAddress && *List.EndAddress < Syms.back().Address)
    return createStringError(inconvertibleErrorCode(),
                             "end address is below the last symbol");

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
  auto TokensOfSlot = [&](uint32_t S) {
    return ArrayRef<uint32_t>(SlotTok.data() + SlotStart[S],
                              SlotTok.data() + SlotStart[S + 1]);
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

  // The nibble id code that makes the written ids smallest.
  std::vector<uint64_t> ByFinal(Weights.size());
  for (uint32_t T = 0; T < Weights.size(); ++T)
    ByFinal[Enc->finalId(T)] = Weights[T];
  std::vector<uint64_t> Prefix(ByFinal.size() + 1, 0);
  for (size_t I = 0; I < ByFinal.size(); ++I)
    Prefix[I + 1] = Prefix[I] + ByFinal[I];
  auto WeightFrom = [&](uint64_t Id) {
    return Prefix.back() - Prefix[std::min<uint64_t>(Id, ByFinal.size())];
  };
  NibbleIdCode IdCode;
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

  // Record headers: the most frequent (shared, new, type) combinations take
  // one or two nibbles; the rest are spelled out after an escape.
  auto TypeCodeOf = [](char Type) {
    return Type == 't'   ? TypeLocalText
           : Type == 'T' ? TypeGlobalText
                         : TypeExplicit;
  };
  auto ComboKey = [](uint32_t Sh, uint32_t New, unsigned TC) {
    return (uint32_t(Sh) << 9) | (New << 1) | TC;
  };
  auto VarintLen = [](uint64_t V) {
    unsigned L = 1;
    while (V >>= 3)
      ++L;
    return L;
  };
  // Counts by key in a flat array: keys are below 2^17, and a hash map
  // costs more than the array on kernel-sized inputs.
  std::vector<uint32_t> ComboCount(1u << 17, 0);
  for (uint32_t S = 0; S < N; ++S) {
    uint32_t Sh = SharedOf[S], New = SlotStart[S + 1] - SlotStart[S] - Sh;
    unsigned TC = TypeCodeOf(SlotType[S]);
    if (Sh < 256 && New < 256 && TC != TypeExplicit)
      ++ComboCount[ComboKey(Sh, New, TC)];
  }
  std::vector<std::pair<uint64_t, uint32_t>> Combos;
  for (uint32_t K = 0; K < ComboCount.size(); ++K)
    if (ComboCount[K])
      Combos.emplace_back(ComboCount[K], K);
  llvm::sort(Combos, [](const auto &X, const auto &Y) {
    if (X.first != Y.first)
      return X.first > Y.first;
    return X.second < Y.second;
  });
  unsigned HOne = 15;
  {
    uint64_t Best = UINT64_MAX;
    for (unsigned H = 1; H <= 15; ++H) {
      uint64_t Cap = H + (15 - H) * 16, Cost = 0;
      for (size_t R = 0; R < Combos.size(); ++R) {
        uint32_t K = Combos[R].second;
        uint64_t Esc = 2 + VarintLen(K >> 9) + VarintLen((K >> 1) & 0xFF);
        Cost += Combos[R].first * (R < H ? 1 : R < Cap ? 2 : Esc);
      }
      if (Cost < Best) {
        Best = Cost;
        HOne = H;
      }
    }
    Combos.resize(std::min<size_t>(Combos.size(), HOne + (15 - HOne) * 16));
  }
  constexpr uint32_t NoRank = UINT32_MAX;
  std::vector<uint32_t> &ComboRank = ComboCount; // reused, same keys
  std::fill(ComboRank.begin(), ComboRank.end(), NoRank);
  std::string ComboTable;
  for (uint32_t R = 0; R < Combos.size(); ++R) {
    uint32_t K = Combos[R].second;
    ComboRank[K] = R;
    ComboTable.push_back(char(K >> 9));
    ComboTable.push_back(char((K >> 1) & 0xFF));
    ComboTable.push_back(char(K & 1));
  }

  std::vector<uint64_t> NameOffsets;
  NibbleWriter NW;
  for (uint32_t S = 0; S < N; ++S) {
    ArrayRef<uint32_t> Cur = TokensOfSlot(S);
    if ((S & ((1u << NameBlockShift) - 1)) == 0) {
      if (NW.Pos > UINT32_MAX)
        return createStringError(inconvertibleErrorCode(),
                                 "names exceed 2 GiB");
      NameOffsets.push_back(NW.Pos);
    }
    uint32_t Shared = SharedOf[S];
    uint32_t New = Cur.size() - Shared;
    unsigned TC = TypeCodeOf(SlotType[S]);
    uint32_t Rank = TC == TypeExplicit || Shared >= 256 || New >= 256
                        ? NoRank
                        : ComboRank[ComboKey(Shared, New, TC)];
    if (Rank < HOne) {
      NW.put(Rank);
    } else if (Rank != NoRank) {
      uint32_t R = Rank - HOne;
      NW.put(HOne + R / 16);
      NW.put(R % 16);
    } else {
      NW.put(15);
      NW.putVarint(Shared);
      NW.putVarint(New);
      NW.put(TC);
      if (TC == TypeExplicit)
        NW.putN(2, uint8_t(SlotType[S]));
    }
    for (uint32_t T : Cur.drop_front(Shared))
      encodeNibbleId(IdCode, Enc->finalId(T), NW);
  }
  std::string &NameData = NW.Bytes;

  // Addresses: per block the first address (relative to Base) and the bit
  // offset of its deltas; deltas share the block's trailing zero bits, and
  // the few large ones escape to a wider field.
  std::vector<uint64_t> BlockRel, BlockBit;
  BitWriter AddrBits;
  uint32_t BlockSize = 1u << AddrBlockShift;
  std::vector<uint64_t> Ds;
  for (uint32_t B = 0; B * BlockSize < N; ++B) {
    uint32_t First = B * BlockSize, Last = std::min(N, First + BlockSize);
    BlockRel.push_back(Syms[First].Address - Base);
    BlockBit.push_back(AddrBits.Bits);
    uint64_t Or = 0;
    for (uint32_t I = First + 1; I < Last; ++I)
      Or |= Syms[I].Address - Syms[I - 1].Address;
    unsigned Shift = Or ? countr_zero(Or) : 0;
    Ds.clear();
    uint64_t Max = 0;
    for (uint32_t I = First + 1; I < Last; ++I) {
      Ds.push_back((Syms[I].Address - Syms[I - 1].Address) >> Shift);
      Max = std::max(Max, Ds.back());
    }
    unsigned Wide = bitsFor(Max), Width = Wide, EscWidth = 0;
    uint64_t Best = uint64_t(Ds.size()) * Wide;
    for (unsigned W = 1; W < Wide; ++W) {
      uint64_t Esc = (uint64_t(1) << W) - 1, Cost = 0;
      for (uint64_t D : Ds)
        Cost += W + (D >= Esc ? Wide : 0);
      if (Cost + 6 < Best) {
        Best = Cost + 6;
        Width = W;
        EscWidth = Wide;
      }
    }
    AddrBits.write(Width, 6);
    AddrBits.write(Shift, 6);
    AddrBits.write(EscWidth, 6);
    uint64_t Esc = (uint64_t(1) << Width) - 1;
    for (uint64_t D : Ds) {
      if (EscWidth && D >= Esc) {
        AddrBits.write(Esc, Width);
        AddrBits.write(D, EscWidth);
      } else {
        AddrBits.write(D, Width);
      }
    }
  }
  if (AddrBits.Bits > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(), "addresses too large");
  // Both indexes are bit-packed with the widths their largest values need.
  unsigned RelBits = bitsFor(BlockRel.back());
  unsigned AddrOffBits = bitsFor(BlockBit.back());
  BitWriter AddrIndexW;
  for (size_t B = 0; B < BlockRel.size(); ++B) {
    AddrIndexW.write(BlockRel[B], RelBits);
    AddrIndexW.write(BlockBit[B], AddrOffBits);
  }
  std::string &AddrIndex = AddrIndexW.Bytes;
  unsigned NameOffBits = bitsFor(NameOffsets.back());
  BitWriter NameIndexW;
  for (uint64_t O : NameOffsets)
    NameIndexW.write(O, NameOffBits);
  std::string &NameIndex = NameIndexW.Bytes;

  // The permutation, and back pointers every InvStride steps of each cycle
  // longer than InvStride, so the inverse costs at most 2 * InvStride steps.
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
      if (Cycle.size() <= InvStride)
        continue;
      uint32_t NumM = (Cycle.size() + InvStride - 1) / InvStride;
      for (uint32_t K = 0; K < NumM; ++K) {
        uint32_t X = Cycle[K * InvStride];
        uint32_t Prev = Cycle[(K ? K - 1 : NumM - 1) * InvStride];
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

  const std::string *Secs[NumSections] = {};
  std::string Tokens = Enc->serialized().str();
  Secs[SecTokens] = &Tokens;
  Secs[SecAddrIndex] = &AddrIndex;
  Secs[SecAddrData] = &AddrBits.Bytes;
  Secs[SecPerm] = &PermW.Bytes;
  Secs[SecInvMarks] = &InvMarks;
  Secs[SecInvBack] = &BackW.Bytes;
  Secs[SecNameIndex] = &NameIndex;
  Secs[SecNameData] = &NameData;
  Secs[SecModules] = &Modules;
  Secs[SecModuleRuns] = &Runs;
  Secs[SecCombos] = &ComboTable;

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
  Out[42] = char(InvStride);
  putU32(Out, 44, NumModules);
  putU32(Out, 48, NumMarks);
  Out[43] = char(HOne);
  Out[52] = char(IdCode.A);
  Out[53] = char(IdCode.B);
  Out[54] = char(IdCode.C);
  putU32(Out, 56, Combos.size());
  Out[60] = char(RelBits);
  Out[61] = char(AddrOffBits);
  Out[62] = char(NameOffBits);
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
