//===- TokenTable.cpp - Shared token encoder for names --------------------===//

#include "dwarfpack/Token/TokenTable.h"
#include "dwarfpack/Support/LEB128.h"

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

  std::vector<StringRef> ById(Order.size());
  for (uint32_t I = 0; I < Order.size(); ++I) {
    auto It = Enc.Ids.try_emplace(Words[Order[I]], I).first;
    Enc.Remap[Order[I]] = I;
    ById[I] = It->getKey();
  }
  if (Error E = Enc.serialize(ById))
    return std::move(E);
  return Enc;
}

std::vector<StringRef> TokenEncoder::byId() const {
  std::vector<StringRef> ById(NumTokens);
  for (const auto &E : Ids)
    ById[E.second] = E.getKey();
  return ById;
}

/// The size of the version-1 form of a table (a multiple of 4).
static uint64_t version1Size(uint64_t NumTokens, uint64_t NumLong,
                             uint64_t TextSize) {
  return alignTo(TableHeaderSize + ((NumTokens + 15) >> IndexShift) * 4 +
                     NumLong * 8 + (NumTokens + 1) / 2 + TextSize,
                 4);
}

/// The header both versions share; the last three fields differ.
static void appendHeader(std::string &S, uint8_t Version, Separators Seps,
                         uint8_t Shift, uint8_t OneByte, uint32_t NumTokens,
                         uint32_t F16, uint32_t F20) {
  appendU32(S, TableMagic);
  S.push_back(char(Version));
  S.push_back(Seps.Word);
  S.push_back(Seps.Sub);
  S.push_back(char(Shift));
  S.push_back(char(OneByte));
  S.append(3, '\0');
  appendU32(S, NumTokens);
  appendU32(S, F16);
  appendU32(S, F20);
}

/// Writes the version-1 form of the tokens ById into S.
static void writeVersion1(ArrayRef<StringRef> ById, Separators Seps,
                          uint8_t OneByte, std::string &S) {
  uint32_t N = ById.size();
  uint64_t BytesSize = 0;
  std::vector<std::pair<uint32_t, uint32_t>> Longs;
  std::string Offsets, Lengths;
  for (uint32_t I = 0; I < N; ++I) {
    StringRef W = ById[I];
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
  S.clear();
  S.reserve(version1Size(N, Longs.size(), BytesSize));
  appendHeader(S, TableVersion, Seps, IndexShift, OneByte, N, Longs.size(),
               uint32_t(BytesSize));
  S += Offsets;
  for (auto [Id, Len] : Longs) {
    appendU32(S, Id);
    appendU32(S, Len);
  }
  S += Lengths;
  for (StringRef W : ById)
    S += W;
  S.resize(alignTo(S.size(), 4), '\0');
}

Error TokenEncoder::serialize(ArrayRef<StringRef> ById) {
  uint64_t BytesSize = 0;
  for (StringRef W : ById)
    BytesSize += W.size();
  if (BytesSize > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(),
                             "token text exceeds 4 GiB");
  writeVersion1(ById, Seps, Code.OneByte, Serialized);
  return Error::success();
}

std::string TokenEncoder::frontCoded() const {
  std::vector<StringRef> ById = byId();
  std::string S;
  appendHeader(S, FrontCodedVersion, Seps, 0, Code.OneByte, NumTokens, 0, 0);
  uint64_t TextSize = 0;
  StringRef Prev;
  for (StringRef W : ById) {
    size_t Shared = 0, Max = std::min(Prev.size(), W.size());
    while (Shared < Max && Prev[Shared] == W[Shared])
      ++Shared;
    size_t New = W.size() - Shared;
    S.push_back(
        char(std::min<size_t>(Shared, 15) | std::min<size_t>(New, 15) << 4));
    if (Shared >= 15)
      appendULEB128(S, Shared - 15);
    if (New >= 15)
      appendULEB128(S, New - 15);
    S.append(W.data() + Shared, New);
    TextSize += W.size();
    Prev = W;
  }
  uint64_t Encoded = S.size() - TableHeaderSize;
  S.resize(alignTo(S.size(), 4), '\0');
  // Refused by readers: keep version 1 (Serialized is its exact size).
  if (Encoded > UINT32_MAX || TextSize > UINT32_MAX ||
      Serialized.size() + OwnedTextPadding > MaxExpansion * S.size())
    return Serialized;
  support::endian::write32le(&S[16], uint32_t(Encoded));
  support::endian::write32le(&S[20], uint32_t(TextSize));
  return S;
}

void TokenEncoder::sortWithin(ArrayRef<uint32_t> RangeEnds) {
  std::vector<StringRef> ById = byId();
  uint32_t Begin = 0;
  for (uint32_t End : RangeEnds) {
    End = std::min(std::max(End, Begin), NumTokens);
    std::sort(ById.begin() + Begin, ById.begin() + End);
    Begin = End;
  }
  // Old id -> new id, then every place that holds an id.
  std::vector<uint32_t> NewId(NumTokens);
  for (uint32_t I = 0; I < NumTokens; ++I) {
    uint32_t &Id = Ids.find(ById[I])->second;
    NewId[Id] = I;
    Id = I;
  }
  for (uint32_t &R : Remap)
    R = NewId[R];
  // The text size did not change, and finish() checked it.
  writeVersion1(ById, Seps, Code.OneByte, Serialized);
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
  if (P[4] == FrontCodedVersion)
    return createFrontCoded(Data, Size);
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
  // The padding may be missing at the very end of Data (a truncated but
  // readable table): Size never counts bytes that are not there.
  if (Size)
    *Size = std::min<uint64_t>(alignTo(Total, 4), Data.size());
  return T;
}

namespace {
enum RecordStatus {
  RecordOk,
  RecordTruncated,
  RecordBadCount,
  RecordOverlong,
  RecordPastEnd
};
} // namespace

/// Reads a version-2 count whose nibble is Nibble at Q (advancing it).
LLVM_ATTRIBUTE_ALWAYS_INLINE static bool
readCount(const uint8_t *&Q, const uint8_t *End, unsigned Nibble, uint64_t &V) {
  V = Nibble;
  if (LLVM_LIKELY(Nibble < 15))
    return true;
  unsigned Len = 0;
  const char *Err = nullptr;
  uint64_t X = decodeULEB128Bounded(Q, &Len, End, &Err);
  if (Err || X > UINT32_MAX)
    return false;
  Q += Len;
  V = 15 + X;
  return true;
}

/// Reads the counts of one version-2 record at Q (advancing Q to its new
/// bytes) and checks them against the previous token and End.
LLVM_ATTRIBUTE_ALWAYS_INLINE static RecordStatus
readRecord(const uint8_t *&Q, const uint8_t *End, uint64_t PrevLen,
           uint64_t &Shared, uint64_t &New) {
  if (Q >= End)
    return RecordTruncated;
  uint8_t B = *Q++;
  if (!readCount(Q, End, B & 15, Shared) || !readCount(Q, End, B >> 4, New))
    return RecordBadCount;
  if (Shared > PrevLen)
    return RecordOverlong;
  if (New > uint64_t(End - Q))
    return RecordPastEnd;
  return RecordOk;
}

static Error recordError(RecordStatus St, uint32_t I, uint64_t PrevLen,
                         uint64_t Shared) {
  switch (St) {
  case RecordBadCount:
    return corrupt("bad byte counts in record " + Twine(I));
  case RecordOverlong:
    return corrupt("record " + Twine(I) + " shares " + Twine(Shared) +
                   " bytes of a token of " + Twine(PrevLen));
  default:
    return corrupt("record " + Twine(I) + " runs past the end");
  }
}

Expected<TokenTable> TokenTable::createFrontCoded(StringRef Data,
                                                  uint64_t *Size) {
  const uint8_t *P = Data.bytes_begin();
  Separators Seps{char(P[5]), char(P[6])};
  uint8_t OneByte = P[8];
  if (P[7] != 0)
    return corrupt("version 2 with a nonzero byte 7");
  if (OneByte == 0 || OneByte == 0xFF || Seps.Word == Seps.Sub)
    return corrupt("bad id code or separators");
  uint32_t N = read32le(P + 12);
  uint64_t Encoded = read32le(P + 16), TextSize = read32le(P + 20);
  if (N > MaxTokens || N > Encoded)
    return corrupt("bad token count");
  if (TableHeaderSize + Encoded > Data.size())
    return corrupt("records run past the end (" +
                   Twine(TableHeaderSize + Encoded) + " > " +
                   Twine(Data.size()) + " bytes)");
  const uint8_t *Rec = P + TableHeaderSize, *End = Rec + Encoded;
  uint64_t Occupied = alignTo(TableHeaderSize + Encoded, 4);
  // The bound: checked on TextSize before the first pass, on the exact
  // image after it.
  if (TextSize > MaxExpansion * Occupied)
    return corrupt("text of " + Twine(TextSize) + " bytes exceeds " +
                   Twine(MaxExpansion) + " times the table's " +
                   Twine(Occupied) + " bytes");

  // First pass: validate every record, the lengths and their sum.
  uint64_t Sum = 0, PrevLen = 0, NumLong = 0;
  const uint8_t *Q = Rec;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t Shared = 0, New = 0;
    if (RecordStatus St = readRecord(Q, End, PrevLen, Shared, New))
      return recordError(St, I, PrevLen, Shared);
    Q += New;
    PrevLen = Shared + New;
    NumLong += PrevLen >= LongLength;
    Sum += PrevLen;
    if (Sum > TextSize)
      return corrupt("token lengths exceed the text size");
  }
  if (Q != End)
    return corrupt("bytes after the last record");
  if (Sum != TextSize)
    return corrupt("token lengths do not add up to the text size");
  uint64_t ImageSize = version1Size(N, NumLong, TextSize) + OwnedTextPadding;
  if (ImageSize > MaxExpansion * Occupied)
    return corrupt("decoded table of " + Twine(ImageSize) + " bytes exceeds " +
                   Twine(MaxExpansion) + " times the table's " +
                   Twine(Occupied) + " bytes");

  // Second pass: the version-1 image (validated again by create()).
  auto Image = std::make_shared<std::string>();
  std::string &S = *Image;
  appendHeader(S, TableVersion, Seps, IndexShift, OneByte, N, NumLong,
               uint32_t(TextSize));
  size_t OffsetsAt = S.size();
  size_t LongsAt = OffsetsAt + ((uint64_t(N) + 15) >> IndexShift) * 4;
  size_t LengthsAt = LongsAt + NumLong * 8;
  size_t TextAt = LengthsAt + (uint64_t(N) + 1) / 2;
  // The padding after the text takes the overrun of the 16-byte copies.
  S.resize(ImageSize, '\0');
  char *Img = S.data(), *Text = Img + TextAt;
  uint64_t Off = 0, PrevOff = 0, LongIdx = 0;
  PrevLen = 0;
  Q = Rec;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t Shared = 0, New = 0;
    if (RecordStatus St = readRecord(Q, End, PrevLen, Shared, New))
      return recordError(St, I, PrevLen, Shared);
    uint64_t Len = Shared + New;
    if ((I & 15) == 0)
      support::endian::write32le(Img + OffsetsAt + (I >> IndexShift) * 4,
                                 uint32_t(Off));
    uint8_t Nibble = Len >= LongLength ? LongLength : Len;
    Img[LengthsAt + I / 2] |= char(Nibble << ((I & 1) * 4));
    if (Nibble == LongLength) {
      support::endian::write32le(Img + LongsAt + LongIdx * 8, I);
      support::endian::write32le(Img + LongsAt + LongIdx * 8 + 4,
                                 uint32_t(Len));
      ++LongIdx;
    }
    // Whole 16-byte blocks: the bytes past a token's end are overwritten
    // by the next token or lie in the padding (cleared below). The shared
    // bytes are read before anything is written over them: the previous
    // token ends at or before Off.
    char *To = Text + Off;
    const char *From = Text + PrevOff;
    for (uint64_t K = 0; K < Shared; K += 16) {
      char Block[16];
      std::memcpy(Block, From + K, 16);
      std::memcpy(To + K, Block, 16);
    }
    To += Shared;
    if (LLVM_LIKELY(uint64_t(End - Q) >= alignTo(New, 16))) {
      for (uint64_t K = 0; K < New; K += 16)
        std::memcpy(To + K, Q + K, 16);
    } else {
      std::memcpy(To, Q, New); // the last bytes of the records
    }
    Q += New;
    PrevOff = Off;
    PrevLen = Len;
    Off += Len;
  }
  std::memset(Text + TextSize, 0, S.size() - TextAt - TextSize);
  Expected<TokenTable> T = create(S);
  if (!T)
    return T.takeError();
  T->Image = std::move(Image);
  if (Size)
    *Size = std::min<uint64_t>(Occupied, Data.size());
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
  uint64_t Count = decodeULEB128Bounded(P, &Len, End, &Err);
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
