//===- TokenTable.cpp - Shared token encoder for names --------------------===//

#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::token;
using llvm::support::endian::read32le;

namespace {

void appendU32(std::string &S, uint32_t V) {
  char B[4];
  support::endian::write32le(B, V);
  S.append(B, 4);
}

Error corrupt(const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt token table: " + What);
}
} // namespace

/// Calls F(Token) for every token of Name (see splitTokens).
template <typename Fn>
static void forEachToken(StringRef Name, Separators Seps, Fn F) {
  size_t Start = 0;
  while (true) {
    size_t End = Name.find(Seps.Word, Start);
    StringRef Word = Name.slice(Start, End);
    if (Seps.Sub) {
      size_t Cut = Word.find(Seps.Sub);
      while (Cut != StringRef::npos) {
        F(Word.take_front(Cut));
        Word = Word.drop_front(Cut);
        Cut = Word.find(Seps.Sub, 1);
      }
    }
    F(Word);
    if (End == StringRef::npos)
      return;
    Start = End + 1;
  }
}

void token::splitTokens(StringRef Name, Separators Seps,
                        SmallVectorImpl<StringRef> &Tokens) {
  forEachToken(Name, Seps, [&](StringRef T) { Tokens.push_back(T); });
}

void TokenTableBuilder::addName(StringRef Name,
                                SmallVectorImpl<uint32_t> *Provisional) {
  forEachToken(Name, Seps, [&](StringRef T) {
    auto [It, New] = Index.try_emplace(T, Counts.size());
    if (New) {
      Counts.push_back(0);
      Words.push_back(It->getKey());
    }
    ++Counts[It->second];
    if (Provisional)
      Provisional->push_back(It->second);
  });
}

uint32_t TokenTableBuilder::addToken(StringRef T) {
  auto [It, New] = Index.try_emplace(T, Counts.size());
  if (New) {
    Counts.push_back(0);
    Words.push_back(It->getKey());
  }
  ++Counts[It->second];
  return It->second;
}

/// The one-byte limit that makes sum(Weight * code size) smallest, for
/// weights sorted by decreasing id order.
static uint8_t chooseOneByte(ArrayRef<uint64_t> SortedWeights) {
  std::vector<uint64_t> Prefix(SortedWeights.size() + 1, 0);
  for (size_t I = 0; I < SortedWeights.size(); ++I)
    Prefix[I + 1] = Prefix[I] + SortedWeights[I];
  auto Above = [&](uint64_t Id) {
    return Prefix.back() - Prefix[std::min<uint64_t>(Id, Prefix.size() - 1)];
  };
  uint8_t Best = 0xC0;
  uint64_t BestCost = UINT64_MAX;
  for (unsigned B = 1; B < 0xFF; ++B) {
    IdCode C{uint8_t(B)};
    uint64_t Cost = Prefix.back() + Above(B) + 2 * Above(C.twoByteLimit());
    if (Cost < BestCost) {
      BestCost = Cost;
      Best = uint8_t(B);
    }
  }
  return Best;
}

Expected<TokenEncoder>
TokenTableBuilder::finish(ArrayRef<uint64_t> Weights) const {
  if (Words.size() > MaxTokens)
    return createStringError(inconvertibleErrorCode(),
                             "too many distinct tokens: " +
                                 Twine(Words.size()));
  if (!Weights.empty() && Weights.size() != Words.size())
    return createStringError(inconvertibleErrorCode(),
                             "token weights do not match the tokens");
  auto Weight = [&](uint32_t I) -> uint64_t {
    return Weights.empty() ? Counts[I] : Weights[I];
  };
  std::vector<uint32_t> Order(Words.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](uint32_t A, uint32_t B) {
    if (Weight(A) != Weight(B))
      return Weight(A) > Weight(B);
    return Words[A] < Words[B];
  });

  TokenEncoder Enc;
  Enc.Seps = Seps;
  Enc.NumTokens = Order.size();
  Enc.Ids = StringMap<uint32_t>(Order.size());
  Enc.Remap.resize(Order.size());
  std::vector<uint64_t> Sorted;
  Sorted.reserve(Order.size());
  for (uint32_t I : Order)
    Sorted.push_back(Weight(I));
  Enc.Code.OneByte = chooseOneByte(Sorted);

  uint32_t N = Order.size();
  uint64_t BytesSize = 0;
  std::vector<std::pair<uint32_t, uint32_t>> Longs;
  std::string Offsets, Lengths;
  for (uint32_t I = 0; I < N; ++I) {
    StringRef W = Words[Order[I]];
    Enc.Ids[W] = I;
    Enc.Remap[Order[I]] = I;
    if ((I & ((1u << IndexShift) - 1)) == 0)
      appendU32(Offsets, uint32_t(BytesSize));
    unsigned Nibble = W.size() >= LongLength ? LongLength : W.size();
    if (Nibble == LongLength)
      Longs.emplace_back(I, uint32_t(W.size()));
    if (I % 2 == 0)
      Lengths.push_back(char(Nibble));
    else
      Lengths.back() = char(uint8_t(Lengths.back()) | (Nibble << 4));
    BytesSize += W.size();
  }
  if (BytesSize > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(),
                             "token text exceeds 4 GiB");

  std::string &S = Enc.Serialized;
  appendU32(S, TableMagic);
  S.push_back(char(TableVersion));
  S.push_back(Seps.Word);
  S.push_back(Seps.Sub);
  S.push_back(char(IndexShift));
  S.push_back(char(Enc.Code.OneByte));
  S.append(3, '\0');
  appendU32(S, N);
  appendU32(S, Longs.size());
  appendU32(S, uint32_t(BytesSize));
  S += Offsets;
  for (auto [Id, Len] : Longs) {
    appendU32(S, Id);
    appendU32(S, Len);
  }
  S += Lengths;
  for (uint32_t I : Order)
    S += Words[I];
  S.resize(alignTo(S.size(), 4), '\0');
  return Enc;
}

bool TokenEncoder::tokenize(StringRef Name,
                            SmallVectorImpl<uint32_t> &Out) const {
  bool Ok = true;
  forEachToken(Name, Seps, [&](StringRef T) {
    if (!Ok)
      return;
    auto It = Ids.find(T);
    if (It == Ids.end())
      Ok = false;
    else
      Out.push_back(It->second);
  });
  return Ok;
}

bool TokenEncoder::encodeName(StringRef Name,
                              SmallVectorImpl<uint8_t> &Out) const {
  SmallVector<uint32_t, 16> Tokens;
  if (!tokenize(Name, Tokens))
    return false;
  uint8_t Buf[16];
  unsigned Len = encodeULEB128(Tokens.size(), Buf);
  Out.append(Buf, Buf + Len);
  for (uint32_t Id : Tokens)
    Code.encode(Id, Out);
  return true;
}

Expected<TokenTable> TokenTable::create(StringRef Data, uint64_t *Size) {
  if (Data.size() < TableHeaderSize)
    return corrupt("truncated header (" + Twine(Data.size()) + " bytes)");
  const uint8_t *P = Data.bytes_begin();
  if (read32le(P) != TableMagic)
    return corrupt("bad magic");
  if (P[4] != TableVersion)
    return corrupt("unsupported version " + Twine(unsigned(P[4])));
  if (P[7] != IndexShift)
    return corrupt("unsupported index stride");
  TokenTable T;
  T.Seps.Word = char(P[5]);
  T.Seps.Sub = char(P[6]);
  T.Code.OneByte = P[8];
  if (T.Code.OneByte == 0 || T.Code.OneByte == 0xFF ||
      T.Seps.Word == T.Seps.Sub)
    return corrupt("bad id code or separators");
  T.NumTokens = read32le(P + 12);
  T.NumLong = read32le(P + 16);
  uint64_t BytesSize = read32le(P + 20);
  const uint64_t HeaderSize = TableHeaderSize;
  if (T.NumTokens > MaxTokens || T.NumLong > T.NumTokens)
    return corrupt("bad token count");
  uint64_t NumOffsets = (uint64_t(T.NumTokens) + 15) >> IndexShift;
  uint64_t Total = HeaderSize + NumOffsets * 4 + uint64_t(T.NumLong) * 8 +
                   (uint64_t(T.NumTokens) + 1) / 2 + BytesSize;
  if (Total > Data.size())
    return corrupt("sections run past the end (" + Twine(Total) + " > " +
                   Twine(Data.size()) + " bytes)");
  T.Offsets = P + HeaderSize;
  T.Longs = T.Offsets + NumOffsets * 4;
  T.Lengths = T.Longs + uint64_t(T.NumLong) * 8;
  T.LengthsSize = (uint64_t(T.NumTokens) + 1) / 2;
  T.Bytes = reinterpret_cast<const char *>(T.Lengths + T.LengthsSize);

  // One pass over all lengths proves every token lies inside the text.
  uint64_t Off = 0;
  uint32_t LongSeen = 0;
  for (uint32_t I = 0; I < T.NumTokens; ++I) {
    if ((I & 15) == 0 && read32le(T.Offsets + (I >> IndexShift) * 4) != Off)
      return corrupt("token index entry " + Twine(I >> IndexShift) +
                     " does not match the token lengths");
    uint64_t Len = (T.Lengths[I >> 1] >> ((I & 1) * 4)) & 15;
    if (Len == LongLength) {
      if (LongSeen >= T.NumLong || read32le(T.Longs + LongSeen * 8) != I)
        return corrupt("long token " + Twine(I) + " not in the long list");
      Len = read32le(T.Longs + LongSeen * 8 + 4);
      if (Len < LongLength)
        return corrupt("long token " + Twine(I) + " is short");
      ++LongSeen;
    }
    Off += Len;
  }
  if (LongSeen != T.NumLong)
    return corrupt("long list has extra entries");
  if (Off != BytesSize)
    return corrupt("token lengths do not add up to the text size");
  if (Size)
    *Size = alignTo(Total, 4);
  return T;
}

uint32_t TokenTable::longTokenLength(uint32_t Id) const {
  // Validated in create(): the long list is sorted by id and has Id.
  uint32_t Lo = 0, Hi = NumLong;
  while (Lo < Hi) {
    uint32_t Mid = (Lo + Hi) / 2;
    if (read32le(Longs + Mid * 8) < Id)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return read32le(Longs + Lo * 8 + 4);
}

StringRef TokenTable::tokenSlow(uint32_t Id) const {
  uint32_t First = Id & ~((1u << IndexShift) - 1);
  uint64_t Off = read32le(Offsets + (Id >> IndexShift) * 4);
  for (uint32_t I = First; I < Id; ++I) {
    uint8_t L = nibble(I);
    if (L == LongLength)
      return tokenWithLongs(Id);
    Off += L;
  }
  return StringRef(Bytes + Off, tokenLength(Id));
}

StringRef TokenTable::tokenWithLongs(uint32_t Id) const {
  uint32_t First = Id & ~((1u << IndexShift) - 1);
  uint64_t Off = read32le(Offsets + (Id >> IndexShift) * 4);
  // The first long-list entry at or after First; the group's long tokens
  // follow it in id order (validated in create()).
  uint32_t Lo = 0, Hi = NumLong;
  while (Lo < Hi) {
    uint32_t Mid = (Lo + Hi) / 2;
    if (read32le(Longs + Mid * 8) < First)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  for (uint32_t I = First;; ++I) {
    uint32_t L = nibble(I);
    if (L == LongLength)
      L = read32le(Longs + Lo++ * 8 + 4);
    if (I == Id)
      return StringRef(Bytes + Off, L);
    Off += L;
  }
}

void TokenTable::expand(ArrayRef<uint32_t> Ids, std::string &Out) const {
  for (size_t I = 0; I < Ids.size(); ++I) {
    StringRef Tok = token(Ids[I]);
    if (I && joinsWithSeparator(Tok))
      Out.push_back(Seps.Word);
    Out += Tok;
  }
}

int TokenTable::compare(ArrayRef<uint32_t> Ids, StringRef S) const {
  NameComparer C(S, Seps);
  for (size_t I = 0; I < Ids.size(); ++I)
    if (int R = C.feed(token(Ids[I]), I == 0))
      return R;
  return C.finish();
}

Error TokenTable::readName(const uint8_t *&P, const uint8_t *End,
                           SmallVectorImpl<uint32_t> &Ids) const {
  unsigned Len = 0;
  const char *Err = nullptr;
  uint64_t Count = decodeULEB128(P, &Len, End, &Err);
  if (Err)
    return corrupt("bad token count: " + Twine(Err));
  P += Len;
  // Every id takes at least one byte, which bounds the count.
  if (Count > uint64_t(End - P))
    return corrupt("token count " + Twine(Count) + " runs past the end");
  for (uint64_t I = 0; I < Count; ++I) {
    uint32_t Id;
    if (!readId(P, End, Id))
      return corrupt("bad token id");
    Ids.push_back(Id);
  }
  return Error::success();
}
