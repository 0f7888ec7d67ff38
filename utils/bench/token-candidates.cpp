//===- token-candidates.cpp - Measure name token schemes on kernel names --===//
//
// Benchmark (not installed; test/kallsyms/token-candidates.test checks on
// generated names that the model below equals the writer): on the t/T
// names of a System.map or /proc/kallsyms file, measures names + token
// table bytes and the time to decode one random name for
//   1. the kernel's byte-pair table as scripts/kallsyms builds it (every
//      byte value the names do not use becomes a token made by merging the
//      most frequent adjacent pair, highest code first), one record per
//      name in address order, and the same scheme on the byte suffixes of
//      our front-coded name order;
//   2. our word tokens, as `dwarfpack kallsyms` writes them (the real
//      writer and reader), and the same records re-encoded by a model of
//      the writer that also serves 3 (it must agree with the real writer);
//   3. a larger grammar: word tokens whose frequent adjacent pairs are
//      merged into one token (Re-Pair style, in rounds), in our format.
// docs/TokenEncoder.md, "Candidates measured", records the results.
//
//   dwarfpack-token-candidates FILE [--lookups N]
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/CpuTime.h"
#include "dwarfpack/Token/TokenTable.h"

// The nibble stream of the compact table, shared with its writer.
#include "CompactLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

struct Corpus {
  std::vector<std::string> Names; // address order
  std::vector<char> Types;
  std::vector<uint32_t> Sorted; // name order (bytes, then address order)
  uint64_t NameBytes = 0;
};

/// Random name indexes, the same for every candidate.
std::vector<uint32_t> randomIndexes(uint32_t N, unsigned Count) {
  std::mt19937_64 Rng(42);
  std::vector<uint32_t> R(Count);
  for (auto &X : R)
    X = Rng() % N;
  return R;
}

//===----------------------------------------------------------------------===//
// 1. The kernel's byte-pair table.
//===----------------------------------------------------------------------===//

/// Learns the table on Seqs (bytes) and rewrites them with it, as
/// scripts/kallsyms does: byte values used by the names stand for
/// themselves; from 255 down, each unused code becomes the most frequent
/// adjacent pair of codes, whose occurrences are then replaced left to
/// right. Returns the expansion of every code.
std::vector<std::string> learnBytePairs(std::vector<std::string> &Seqs) {
  std::vector<std::string> Table(256);
  for (const std::string &S : Seqs)
    for (unsigned char C : S)
      Table[C] = std::string(1, char(C));
  std::vector<uint32_t> Count(1 << 16);
  for (int Code = 255; Code >= 0; --Code) {
    if (!Table[Code].empty())
      continue;
    std::fill(Count.begin(), Count.end(), 0);
    for (const std::string &S : Seqs)
      for (size_t I = 0; I + 1 < S.size(); ++I)
        ++Count[uint8_t(S[I]) << 8 | uint8_t(S[I + 1])];
    uint32_t Best = 0;
    for (uint32_t P = 1; P < Count.size(); ++P)
      if (Count[P] > Count[Best])
        Best = P;
    if (Count[Best] == 0)
      break;
    char A = char(Best >> 8), B = char(Best & 255);
    Table[Code] = Table[uint8_t(A)] + Table[uint8_t(B)];
    for (std::string &S : Seqs) {
      size_t Out = 0;
      for (size_t I = 0; I < S.size(); ++I) {
        if (I + 1 < S.size() && S[I] == A && S[I + 1] == B) {
          S[Out++] = char(Code);
          ++I;
        } else {
          S[Out++] = S[I];
        }
      }
      S.resize(Out);
    }
  }
  return Table;
}

/// The kernel's token table: expansions, NUL-terminated, and a u16 index.
uint64_t bytePairTableBytes(const std::vector<std::string> &Table) {
  uint64_t B = 256 * 2;
  for (const std::string &T : Table)
    B += T.size() + 1;
  return B;
}

struct Result {
  uint64_t Names = 0, Table = 0;
  double DecodeNs = 0;
  uint64_t Check = 0; // bytes of the decoded names, the same for all
  std::string Note;
};

/// Per name, address order: [len: 1 byte, 2 when >= 128][codes of type +
/// name], a u32 marker every 256 names; a name is found from its marker by
/// skipping lengths, and expanded with the table.
Result kernelBytePair(const Corpus &C, ArrayRef<uint32_t> Queries) {
  std::vector<std::string> Seqs;
  for (size_t I = 0; I < C.Names.size(); ++I)
    Seqs.push_back(std::string(1, C.Types[I]) + C.Names[I]);
  std::vector<std::string> Table = learnBytePairs(Seqs);
  std::string Data;
  std::vector<uint32_t> Markers;
  for (size_t I = 0; I < Seqs.size(); ++I) {
    if (I % 256 == 0)
      Markers.push_back(Data.size());
    size_t L = Seqs[I].size();
    if (L >= 128) {
      Data.push_back(char(0x80 | (L & 0x7F)));
      Data.push_back(char(L >> 7));
    } else {
      Data.push_back(char(L));
    }
    Data += Seqs[I];
  }
  Result R;
  R.Names = Data.size() + Markers.size() * 4;
  R.Table = bytePairTableBytes(Table);
  std::string Name;
  uint64_t Check = 0;
  double T0 = threadCpuSeconds();
  for (uint32_t Q : Queries) {
    const uint8_t *P =
        reinterpret_cast<const uint8_t *>(Data.data()) + Markers[Q / 256];
    auto Len = [&](const uint8_t *&X) {
      size_t L = *X++;
      if (L & 0x80)
        L = (L & 0x7F) | (size_t(*X++) << 7);
      return L;
    };
    for (uint32_t K = Q & ~255u; K < Q; ++K) {
      size_t L = Len(P);
      P += L;
    }
    size_t L = Len(P);
    // The first code starts with the type letter.
    Name.assign(Table[P[0]], 1, std::string::npos);
    for (size_t J = 1; J < L; ++J)
      Name += Table[P[J]];
    Check += Name.size();
    if (Q % 64 == 0 && Name != C.Names[Q])
      report_fatal_error("byte-pair decoding differs");
  }
  R.DecodeNs = (threadCpuSeconds() - T0) * 1e9 / Queries.size();
  R.Check = Check;
  return R;
}

/// The same table learnt on, and applied to, the byte suffixes of our name
/// order: blocks of 16 names, each record [shared prefix bytes with the
/// previous name (0 at a block start), u8][len][codes of type + suffix],
/// a u32 offset per block.
Result frontCodedBytePair(const Corpus &C, ArrayRef<uint32_t> Queries) {
  uint32_t N = C.Names.size();
  std::vector<std::string> Seqs(N);
  std::vector<uint8_t> Shared(N);
  for (uint32_t S = 0; S < N; ++S) {
    const std::string &Cur = C.Names[C.Sorted[S]];
    size_t K = 0;
    if (S % 16) {
      const std::string &Prev = C.Names[C.Sorted[S - 1]];
      while (K < 255 && K < Cur.size() && K < Prev.size() && Cur[K] == Prev[K])
        ++K;
    }
    Shared[S] = K;
    Seqs[S] = std::string(1, C.Types[C.Sorted[S]]) + Cur.substr(K);
  }
  std::vector<std::string> Table = learnBytePairs(Seqs);
  std::string Data;
  std::vector<uint32_t> Blocks;
  for (uint32_t S = 0; S < N; ++S) {
    if (S % 16 == 0)
      Blocks.push_back(Data.size());
    Data.push_back(char(Shared[S]));
    size_t L = Seqs[S].size();
    if (L >= 128) {
      Data.push_back(char(0x80 | (L & 0x7F)));
      Data.push_back(char(L >> 7));
    } else {
      Data.push_back(char(L));
    }
    Data += Seqs[S];
  }
  Result R;
  R.Names = Data.size() + Blocks.size() * 4;
  R.Table = bytePairTableBytes(Table);
  std::vector<uint32_t> SlotOf(N);
  for (uint32_t S = 0; S < N; ++S)
    SlotOf[C.Sorted[S]] = S;
  std::string Name;
  uint64_t Check = 0;
  double T0 = threadCpuSeconds();
  for (uint32_t I : Queries) {
    uint32_t Q = SlotOf[I];
    const uint8_t *P =
        reinterpret_cast<const uint8_t *>(Data.data()) + Blocks[Q / 16];
    Name.clear();
    for (uint32_t K = Q & ~15u; K <= Q; ++K) {
      size_t Sh = *P++;
      size_t L = *P++;
      if (L & 0x80)
        L = (L & 0x7F) | (size_t(*P++) << 7);
      Name.resize(std::min(Sh, Name.size()));
      Name.append(Table[P[0]], 1, std::string::npos); // drop the type
      for (size_t J = 1; J < L; ++J)
        Name += Table[P[J]];
      P += L;
    }
    Check += Name.size();
    if (Q % 64 == 0 && Name != C.Names[I])
      report_fatal_error("front-coded byte-pair decoding differs");
  }
  R.DecodeNs = (threadCpuSeconds() - T0) * 1e9 / Queries.size();
  R.Check = Check;
  return R;
}

//===----------------------------------------------------------------------===//
// 2. Our word tokens: the real writer and reader.
//===----------------------------------------------------------------------===//

Result realCompact(const kallsyms::SymbolList &List, ArrayRef<uint32_t> Queries,
                   uint64_t &TotalBytes) {
  std::string Out;
  if (Error E = kallsyms::writeCompact(List, Out))
    report_fatal_error(std::move(E));
  TotalBytes = Out.size();
  auto Size = [&](unsigned S) {
    return support::endian::read32le(Out.data() + 64 + S * 8 + 4);
  };
  // docs/Kallsyms.md: 0 tokens, 6 name index, 7 name data, 10 record
  // header table.
  Result R;
  R.Table = Size(0);
  R.Names = Size(6) + Size(7) + Size(10);
  auto Reader =
      kallsyms::openCompact(MemoryBuffer::getMemBuffer(Out, "", false));
  if (!Reader)
    report_fatal_error(Reader.takeError());
  kallsyms::SymbolInfo Info;
  uint64_t Check = 0;
  double T0 = threadCpuSeconds();
  for (uint32_t Q : Queries) {
    if (Error E = (*Reader)->describe(Q, Info))
      report_fatal_error(std::move(E));
    Check += Info.Name.size();
  }
  R.DecodeNs = (threadCpuSeconds() - T0) * 1e9 / Queries.size();
  R.Check = Check;
  return R;
}

//===----------------------------------------------------------------------===//
// A model of the compact writer's name records (docs/Kallsyms.md, sections
// 0, 6, 7, 10; version 4) for any tokenization: the writer's own name
// encoder (kallsyms::compact::encodeNames) over arbitrary token id lists,
// so its bytes are the writer's; only the decoder below is the model's own
// (a plain walk, slower than the real reader: compare its times with each
// other). Token texts are joined as the token table joins them.
//===----------------------------------------------------------------------===//

struct Tokenized {
  std::vector<std::string> Texts;           // provisional id -> text
  std::vector<std::vector<uint32_t>> Slots; // name order -> ids
  std::vector<char> Types;                  // name order
};

struct Model {
  std::vector<std::string> Tokens; // final id -> text
  kallsyms::compact::NibbleIdCode IdCode;
  uint8_t CodeNew[kallsyms::compact::RecordCodes] = {};
  uint8_t CodeDropped[kallsyms::compact::RecordCodes] = {};
  std::vector<uint8_t> TypeLetters; // type index -> letter
  unsigned TypeBits = 0;
  std::string NameData;
  std::vector<uint64_t> NameOffsets; // block -> byte offset, then the end
  uint32_t Records = 0;              // names
  uint64_t TableBytes = 0, NameBytes = 0;
  uint8_t ByteTails[256] = {}; // tail nibbles of a byte's two first nibbles
};

Model buildModel(const Tokenized &T) {
  using namespace kallsyms::compact;
  uint32_t N = T.Slots.size();
  // The builder gives equal texts one id, as the writer's does.
  token::TokenTableBuilder Builder;
  std::vector<uint32_t> ToBuilder(T.Texts.size());
  std::vector<StringRef> TextOf; // builder id -> text
  for (uint32_t I = 0; I < T.Texts.size(); ++I) {
    ToBuilder[I] = Builder.addToken(T.Texts[I]);
    if (ToBuilder[I] == TextOf.size())
      TextOf.push_back(T.Texts[I]);
  }
  std::vector<std::vector<uint32_t>> Slots(N);
  for (uint32_t S = 0; S < N; ++S)
    for (uint32_t Id : T.Slots[S])
      Slots[S].push_back(ToBuilder[Id]);

  // The writer's own name encoder, over this scheme's tokens.
  std::vector<uint32_t> SlotTok, SlotStart;
  for (uint32_t S = 0; S < N; ++S) {
    SlotStart.push_back(SlotTok.size());
    llvm::append_range(SlotTok, Slots[S]);
  }
  SlotStart.push_back(SlotTok.size());
  Expected<EncodedNames> E = encodeNames(Builder, SlotTok, SlotStart, T.Types);
  if (!E)
    report_fatal_error(E.takeError());
  Model M;
  M.IdCode = E->IdCode;
  const NibbleIdCode &IC = M.IdCode;
  for (unsigned X = 0; X < 256; ++X)
    M.ByteTails[X] = idTailLength(IC, X & 15) + idTailLength(IC, X >> 4);
  M.Tokens.resize(E->Tokens.numTokens());
  for (uint32_t I = 0; I < TextOf.size(); ++I)
    M.Tokens[E->Tokens.finalId(I)] = TextOf[I].str();
  M.TableBytes = E->Tokens.frontCoded().size();
  // Section 10: (new, dropped) per record code, then the type letters.
  for (unsigned C = 0; C < RecordCodes; ++C) {
    M.CodeNew[C] = E->CodeTable[2 * C];
    M.CodeDropped[C] = E->CodeTable[2 * C + 1];
  }
  M.TypeLetters.assign(E->CodeTable.begin() + 2 * RecordCodes,
                       E->CodeTable.end());
  M.TypeBits = E->TypeBits;
  M.NameData = std::move(E->NameData);
  M.Records = N;
  M.NameOffsets = std::move(E->NameOffsets);
  // Name index (bit-packed offsets), name data, record code table.
  uint64_t OffBits = M.NameOffsets.back()
                         ? 64 - countl_zero(uint64_t(M.NameOffsets.back()))
                         : 0;
  M.NameBytes = (M.NameOffsets.size() * OffBits + 7) / 8 + M.NameData.size() +
                2 * RecordCodes + M.TypeLetters.size();
  return M;
}

/// Decodes name slot S of the model as docs/Kallsyms.md describes: record
/// counts from the code nibbles, then each token of S from the last record
/// that wrote it, its first nibble and tail found by prefix sums.
void decodeModel(const Model &M, uint32_t S, SmallVectorImpl<uint32_t> &Ids,
                 std::string &Name) {
  using namespace kallsyms::compact;
  const NibbleIdCode &IC = M.IdCode;
  uint32_t Block = S / NameBlockRecords, R = S % NameBlockRecords;
  const uint8_t *Start = reinterpret_cast<const uint8_t *>(M.NameData.data()) +
                         M.NameOffsets[Block];
  uint64_t EndNibble = 2 * (M.NameOffsets[Block + 1] - M.NameOffsets[Block]);
  auto Nibble = [&](uint64_t P) {
    return (Start[P >> 1] >> ((P & 1) * 4)) & 15;
  };
  // The escape bytes end the block; their long counts (ULEB128) follow
  // the type planes, and the id nibbles follow those.
  uint32_t Records = std::min<uint64_t>(NameBlockRecords,
                                        M.Records - Block * NameBlockRecords);
  unsigned NumEsc = 0;
  for (uint32_t J = 0; J < Records; ++J)
    NumEsc += Nibble(J) == RecordEscape;
  const uint8_t *Esc = Start + EndNibble / 2 - NumEsc;
  const uint8_t *Ext = Start + NameHeaderBytes + 4 * M.TypeBits;
  EndNibble -= 2 * NumEsc;
  auto Uleb = [&] {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      uint8_t X = *Ext++;
      V |= uint64_t(X & 127) << Shift;
      if (!(X & 128))
        return V;
    }
  };
  // Per record up to R: shared tokens S_j and first new id I_j.
  uint32_t Sh[NameBlockRecords + 1], First[NameBlockRecords + 1];
  uint32_t Len = 0, NewIds = 0;
  for (uint32_t J = 0; J < Records; ++J) {
    unsigned C = Nibble(J);
    uint64_t K, D;
    if (C < RecordCodes) {
      K = M.CodeNew[C];
      D = M.CodeDropped[C];
    } else {
      uint8_t E = *Esc++;
      K = E & 15;
      D = E >> 4;
      if (K == 15)
        K += Uleb();
      if (D == 15)
        D += Uleb();
    }
    if (J > R)
      continue;
    Sh[J] = Len - D;
    First[J] = NewIds;
    Len = Sh[J] + K;
    NewIds += K;
  }
  // Tail offsets T_k of the ids up to the last one S needs, a byte (two
  // first nibbles) at a time.
  uint64_t Firsts = 2 * (Ext - Start);
  SmallVector<uint32_t, 64> TailEnd(NewIds + 2);
  TailEnd[0] = 0;
  for (uint32_t K = 0; K < NewIds; K += 2) {
    uint8_t X = Ext[K / 2];
    TailEnd[K + 1] = TailEnd[K] + idTailLength(IC, X & 15);
    TailEnd[K + 2] = TailEnd[K] + M.ByteTails[X];
  }
  auto IdAt = [&](uint32_t K) {
    unsigned F = Nibble(Firsts + K);
    uint32_t Base = F < IC.A                    ? F
                    : F < unsigned(IC.A + IC.B) ? IC.base2() + 16 * (F - IC.A)
                    : F < unsigned(IC.A + IC.B + IC.C)
                        ? IC.base3() + 256 * (F - IC.A - IC.B)
                    : F < 15 ? IC.base4() + 4096 * (F - IC.A - IC.B - IC.C)
                             : IC.base7();
    uint64_t At = EndNibble - TailEnd[K + 1];
    uint32_t V = 0;
    for (unsigned I = 0, L = TailEnd[K + 1] - TailEnd[K]; I < L; ++I)
      V |= uint32_t(Nibble(At + I)) << (4 * I);
    return Base + V;
  };
  // Token t of S is new id t - S_j of the last record j <= R with S_j <= t.
  Ids.resize(Len);
  uint32_t Lim = Len;
  for (uint32_t J = R + 1; J-- > 0 && Lim;) {
    for (uint32_t T = Sh[J]; T < Lim; ++T)
      Ids[T] = IdAt(First[J] + T - Sh[J]);
    Lim = std::min(Lim, Sh[J]);
  }
  Name.clear();
  for (size_t I = 0; I < Ids.size(); ++I) {
    const std::string &Tok = M.Tokens[Ids[I]];
    if (I && (Tok.empty() || Tok[0] != '.'))
      Name += '_';
    Name += Tok;
  }
}

Result measureModel(const Tokenized &T, const Corpus &C,
                    ArrayRef<uint32_t> Queries) {
  Model M = buildModel(T);
  // Our slots are in name order; queries are address indexes.
  std::vector<uint32_t> SlotOf(C.Names.size());
  for (uint32_t S = 0; S < C.Sorted.size(); ++S)
    SlotOf[C.Sorted[S]] = S;
  Result R;
  R.Names = M.NameBytes;
  R.Table = M.TableBytes;
  SmallVector<uint32_t, 32> Ids;
  std::string Name;
  uint64_t Check = 0;
  // Every name decodes back (checked once, outside the timing).
  for (uint32_t S = 0; S < C.Sorted.size(); ++S) {
    decodeModel(M, S, Ids, Name);
    if (Name != C.Names[C.Sorted[S]])
      report_fatal_error(Twine("model decodes '") + Name + "' for '" +
                         C.Names[C.Sorted[S]] + "'");
  }
  double T0 = threadCpuSeconds();
  for (uint32_t Q : Queries) {
    decodeModel(M, SlotOf[Q], Ids, Name);
    Check += Name.size();
  }
  R.DecodeNs = (threadCpuSeconds() - T0) * 1e9 / Queries.size();
  R.Check = Check;
  R.Note = std::to_string(M.Tokens.size()) + " tokens";
  return R;
}

/// Our word tokens (splitTokens with '_' and '.').
Tokenized wordTokens(const Corpus &C) {
  Tokenized T;
  StringMap<uint32_t> Ids;
  for (uint32_t I : C.Sorted) {
    SmallVector<StringRef, 16> Toks;
    token::splitTokens(C.Names[I], {}, Toks);
    std::vector<uint32_t> Seq;
    for (StringRef W : Toks) {
      auto [It, New] = Ids.try_emplace(W, T.Texts.size());
      if (New)
        T.Texts.push_back(W.str());
      Seq.push_back(It->second);
    }
    T.Slots.push_back(std::move(Seq));
    T.Types.push_back(C.Types[I]);
  }
  return T;
}

//===----------------------------------------------------------------------===//
// 3. Merged word pairs (Re-Pair style, in rounds).
//===----------------------------------------------------------------------===//

/// Each round counts adjacent token pairs over all names and merges, left
/// to right in every name, the pairs seen at least MinCount times (up to
/// PerRound of the most frequent). A merged token's text is the join of
/// its two parts, so names expand exactly as before.
Tokenized mergePairs(Tokenized T, unsigned MinCount, unsigned Rounds,
                     unsigned PerRound) {
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    DenseMap<uint64_t, uint32_t> Count;
    for (const auto &Seq : T.Slots)
      for (size_t I = 0; I + 1 < Seq.size(); ++I)
        ++Count[uint64_t(Seq[I]) << 32 | Seq[I + 1]];
    std::vector<std::pair<uint32_t, uint64_t>> Top;
    for (auto &E : Count)
      if (E.second >= MinCount)
        Top.push_back({E.second, E.first});
    if (Top.empty())
      break;
    llvm::sort(Top, [](const auto &X, const auto &Y) {
      return X.first != Y.first ? X.first > Y.first : X.second < Y.second;
    });
    if (Top.size() > PerRound)
      Top.resize(PerRound);
    DenseMap<uint64_t, uint32_t> NewId;
    for (auto &[Cnt, Pair] : Top) {
      const std::string &A = T.Texts[Pair >> 32], &B = T.Texts[Pair & ~0u];
      bool Sep = B.empty() || B[0] != '.';
      NewId[Pair] = T.Texts.size();
      T.Texts.push_back(A + (Sep ? "_" : "") + B);
    }
    for (auto &Seq : T.Slots) {
      size_t Out = 0;
      for (size_t I = 0; I < Seq.size(); ++I) {
        if (I + 1 < Seq.size()) {
          auto It = NewId.find(uint64_t(Seq[I]) << 32 | Seq[I + 1]);
          if (It != NewId.end()) {
            Seq[Out++] = It->second;
            ++I;
            continue;
          }
        }
        Seq[Out++] = Seq[I];
      }
      Seq.resize(Out);
    }
  }
  // Drop the tokens no name uses any more.
  std::vector<uint32_t> Map(T.Texts.size(), UINT32_MAX);
  Tokenized Out;
  for (auto &Seq : T.Slots) {
    std::vector<uint32_t> S;
    for (uint32_t Id : Seq) {
      if (Map[Id] == UINT32_MAX) {
        Map[Id] = Out.Texts.size();
        Out.Texts.push_back(T.Texts[Id]);
      }
      S.push_back(Map[Id]);
    }
    Out.Slots.push_back(std::move(S));
  }
  Out.Types = T.Types;
  return Out;
}

void print(StringRef What, const Result &R, uint32_t N) {
  outs() << format("  %-58s %9llu + %7llu = %9llu  %5.2f B/name  %7.1f ns/name",
                   What.str().c_str(), (unsigned long long)R.Names,
                   (unsigned long long)R.Table,
                   (unsigned long long)(R.Names + R.Table),
                   double(R.Names + R.Table) / N, R.DecodeNs);
  if (!R.Note.empty())
    outs() << "  (" << R.Note << ")";
  outs() << '\n';
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    errs() << "usage: " << argv[0] << " FILE [--lookups N]\n";
    return 2;
  }
  unsigned Lookups = 200000;
  if (argc >= 4 && StringRef(argv[2]) == "--lookups")
    Lookups = std::stoul(argv[3]);
  auto Buf = MemoryBuffer::getFileAsStream(argv[1]);
  if (!Buf) {
    errs() << argv[1] << ": " << Buf.getError().message() << '\n';
    return 1;
  }
  kallsyms::SymbolList List;
  if (Error E =
          kallsyms::parseSymbolList((*Buf)->getBuffer(), argv[1], {}, List)) {
    errs() << toString(std::move(E)) << '\n';
    return 1;
  }
  Corpus C;
  for (const kallsyms::KernelSymbol &S : List.Symbols) {
    C.Names.push_back(S.Name.str());
    C.Types.push_back(S.Type);
    C.NameBytes += S.Name.size();
  }
  uint32_t N = C.Names.size();
  for (uint32_t I = 0; I < N; ++I)
    C.Sorted.push_back(I);
  std::stable_sort(
      C.Sorted.begin(), C.Sorted.end(),
      [&](uint32_t A, uint32_t B) { return C.Names[A] < C.Names[B]; });
  std::vector<uint32_t> Queries = randomIndexes(N, Lookups);
  outs() << argv[1] << ": " << N << " t/T names, " << C.NameBytes
         << " name bytes; names + token table bytes, random decode of one "
            "name (CPU)\n";
  uint64_t WantCheck = 0;
  for (uint32_t Q : Queries)
    WantCheck += C.Names[Q].size();
  bool Ok = true;
  auto Show = [&](StringRef What, const Result &R) {
    print(What, R, N);
    if (R.Check != WantCheck) {
      errs() << "  ^ decoded " << R.Check << " bytes, expected " << WantCheck
             << '\n';
      Ok = false;
    }
  };
  Show("kernel byte-pair table, per name, address order",
       kernelBytePair(C, Queries));
  Show("kernel byte-pair table on front-coded byte suffixes",
       frontCodedBytePair(C, Queries));
  uint64_t Total = 0;
  Result Real = realCompact(List, Queries, Total);
  Real.Note = "real writer/reader, describe(); file " + std::to_string(Total) +
              " bytes";
  Show("word tokens (ours, kept)", Real);
  Tokenized Words = wordTokens(C);
  Result Model = measureModel(Words, C, Queries);
  Show("word tokens, model of the writer (must equal the line above)", Model);
  if (Model.Names != Real.Names || Model.Table != Real.Table) {
    errs() << "  ^ the model of the writer does not match the writer\n";
    Ok = false;
  }
  for (unsigned Min : {256u, 32u, 4u}) {
    double T0 = threadCpuSeconds();
    Tokenized G = mergePairs(Words, Min, 8, 4096);
    double Ms = (threadCpuSeconds() - T0) * 1e3;
    Result R = measureModel(G, C, Queries);
    R.Note += ", merging " + std::to_string(int(Ms)) + " ms";
    Show(("merged word pairs, >= " + Twine(Min) + " uses, 8 rounds").str(), R);
  }
  return Ok ? 0 : 1;
}
