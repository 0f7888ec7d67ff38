//===- CompactWriter.cpp - Write the compact kernel symbol table ----------===//
//
// Names are stored in name order, front-coded by whole tokens inside blocks
// of 16 (sorted kernel names share long token prefixes); addresses are
// stored in address order as bit-packed deltas in blocks of 32. A bit-packed
// permutation maps address order to name order, and back pointers on its
// cycles invert it in a bounded number of steps. docs/Kallsyms.md.
//
//===----------------------------------------------------------------------===//

#include "CompactLayout.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Token/TokenTable.h"

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

  // Name order: by bytes, then address order. The first 16 bytes as two
  // big-endian keys settle most comparisons without touching the strings.
  struct SortKey {
    uint64_t K1, K2;
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
    Order[I] = {KeyAt(Syms[I].Name, 0), KeyAt(Syms[I].Name, 8), I};
  llvm::sort(Order, [&](const SortKey &A, const SortKey &B) {
    if (A.K1 != B.K1)
      return A.K1 < B.K1;
    if (A.K2 != B.K2)
      return A.K2 < B.K2;
    StringRef SA = Syms[A.Index].Name, SB = Syms[B.Index].Name;
    // Equal keys: equal first 16 bytes, or a shorter name padded with NULs.
    if (int C = SA.compare(SB))
      return C < 0;
    return A.Index < B.Index;
  });
  // Tokens, with provisional ids per symbol so each word is hashed once.
  token::TokenTableBuilder Builder;
  std::vector<uint32_t> TokStart(N + 1);
  SmallVector<uint32_t, 0> Tok;
  Tok.reserve(N * 6);
  for (uint32_t I = 0; I < N; ++I) {
    TokStart[I] = Tok.size();
    Builder.addName(Syms[I].Name, &Tok);
  }
  TokStart[N] = Tok.size();

  std::vector<uint32_t> Perm(N); // address index -> name slot
  for (uint32_t S = 0; S < N; ++S)
    Perm[Order[S].Index] = S;

  // Names, front-coded by tokens within blocks. The first pass finds the
  // tokens each record writes, so ids can follow how often they are
  // written rather than how often they occur.
  std::vector<uint32_t> SharedOf(N);
  std::vector<uint64_t> Weights(Builder.numTokens(), 0);
  {
    ArrayRef<uint32_t> PrevTok;
    for (uint32_t S = 0; S < N; ++S) {
      uint32_t I = Order[S].Index;
      if (S + 8 < N) {
        uint32_t Ahead = Order[S + 8].Index;
        __builtin_prefetch(&TokStart[Ahead]);
        __builtin_prefetch(&Syms[Ahead]);
      }
      ArrayRef<uint32_t> Cur(Tok.data() + TokStart[I],
                             Tok.data() + TokStart[I + 1]);
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
  const token::IdCode &Code = Enc->code();
  std::string NameIndex, NameData;
  SmallVector<uint8_t, 64> Rec;
  for (uint32_t S = 0; S < N; ++S) {
    uint32_t I = Order[S].Index;
    ArrayRef<uint32_t> Cur(Tok.data() + TokStart[I],
                           Tok.data() + TokStart[I + 1]);
    if ((S & ((1u << NameBlockShift) - 1)) == 0)
      appendU32(NameIndex, NameData.size());
    uint32_t Shared = SharedOf[S];
    uint32_t New = Cur.size() - Shared;
    char Type = Syms[I].Type;
    unsigned TypeCode = Type == 't'   ? TypeLocalText
                        : Type == 'T' ? TypeGlobalText
                                      : TypeExplicit;
    Rec.clear();
    Rec.push_back(uint8_t(std::min(Shared, 7u) | (std::min(New, 7u) << 3) |
                          (TypeCode << 6)));
    uint8_t Buf[16];
    if (Shared >= 7)
      Rec.append(Buf, Buf + encodeULEB128(Shared, Buf));
    if (New >= 7)
      Rec.append(Buf, Buf + encodeULEB128(New, Buf));
    if (TypeCode == TypeExplicit)
      Rec.push_back(uint8_t(Type));
    for (uint32_t T : Cur.drop_front(Shared))
      Code.encode(Enc->finalId(T), Rec);
    NameData.append(reinterpret_cast<const char *>(Rec.data()), Rec.size());
  }
  if (NameData.size() > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(), "names exceed 4 GiB");

  // Addresses: per block the first address (relative to Base) and the bit
  // offset of its deltas; deltas share the block's trailing zero bits.
  std::string AddrIndex;
  BitWriter AddrBits;
  uint32_t BlockSize = 1u << AddrBlockShift;
  for (uint32_t B = 0; B * BlockSize < N; ++B) {
    uint32_t First = B * BlockSize, Last = std::min(N, First + BlockSize);
    appendU32(AddrIndex, uint32_t(Syms[First].Address - Base));
    appendU32(AddrIndex, uint32_t(AddrBits.Bits));
    uint64_t Or = 0, Max = 0;
    for (uint32_t I = First + 1; I < Last; ++I) {
      uint64_t D = Syms[I].Address - Syms[I - 1].Address;
      Or |= D;
      Max = std::max(Max, D);
    }
    unsigned Shift = Or ? countr_zero(Or) : 0;
    unsigned Width = bitsFor(Max >> Shift);
    AddrBits.write(Width, 6);
    AddrBits.write(Shift, 6);
    for (uint32_t I = First + 1; I < Last; ++I)
      AddrBits.write((Syms[I].Address - Syms[I - 1].Address) >> Shift, Width);
  }
  if (AddrBits.Bits > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(), "addresses too large");

  // The permutation, and back pointers every InvStride steps of each cycle
  // longer than InvStride, so the inverse costs at most 2 * InvStride steps.
  unsigned PermBits = std::max(1u, bitsFor(N - 1));
  BitWriter PermW;
  for (uint32_t I = 0; I < N; ++I)
    PermW.write(Perm[I], PermBits);
  std::vector<uint64_t> Marks((N + 63) / 64);
  std::vector<uint32_t> BackOf(N, 0);
  {
    std::vector<bool> Seen(N);
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
