//===- token-candidates.cpp - Measure name token schemes on kernel names --===//
//
// Benchmark (not installed, not run by the tests): on the t/T names of a
// System.map or /proc/kallsyms file, measures names + token table bytes and
// the time to decode one random name for
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
#include "dwarfpack/Token/TokenTable.h"

// The nibble stream of the compact table, shared with its writer.
#include "CompactLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

double cpuSeconds() {
  timespec TS;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS);
  return TS.tv_sec + TS.tv_nsec * 1e-9;
}

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
  double T0 = cpuSeconds();
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
  R.DecodeNs = (cpuSeconds() - T0) * 1e9 / Queries.size();
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
  double T0 = cpuSeconds();
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
  R.DecodeNs = (cpuSeconds() - T0) * 1e9 / Queries.size();
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
  double T0 = cpuSeconds();
  for (uint32_t Q : Queries) {
    if (Error E = (*Reader)->describe(Q, Info))
      report_fatal_error(std::move(E));
    Check += Info.Name.size();
  }
  R.DecodeNs = (cpuSeconds() - T0) * 1e9 / Queries.size();
  R.Check = Check;
  return R;
}

//===----------------------------------------------------------------------===//
// A model of the compact writer's name records (docs/Kallsyms.md, sections
// 0, 6, 7, 10) for any tokenization: front coding by whole tokens in blocks
// of 16, ids by stored frequency, the best nibble id code and record header
// table. Token texts are joined as the token table joins them.
//===----------------------------------------------------------------------===//

struct Tokenized {
  std::vector<std::string> Texts;           // provisional id -> text
  std::vector<std::vector<uint32_t>> Slots; // name order -> ids
  std::vector<char> Types;                  // name order
};

struct Model {
  std::vector<std::string> Tokens; // final id -> text
  std::vector<uint32_t> Remap;     // provisional -> final
  kallsyms::compact::NibbleWriter Data;
  std::vector<uint64_t> BlockStart;
  unsigned A = 8, B = 4, C = 2, HOne = 15;
  std::vector<uint32_t> ComboKeys; // rank -> Sh << 9 | New << 1 | type
  uint64_t TableBytes = 0, NameBytes = 0;
};

Model buildModel(const Tokenized &T) {
  uint32_t N = T.Slots.size();
  std::vector<uint32_t> Shared(N);
  std::vector<uint64_t> Weight(T.Texts.size());
  for (uint32_t S = 0; S < N; ++S) {
    const auto &Cur = T.Slots[S];
    uint32_t K = 0;
    if (S % 16) {
      const auto &Prev = T.Slots[S - 1];
      while (K < Cur.size() && K < Prev.size() && Cur[K] == Prev[K])
        ++K;
    }
    Shared[S] = K;
    for (size_t J = K; J < Cur.size(); ++J)
      ++Weight[Cur[J]];
  }
  // Only tokens that are written take an id (all are, in practice).
  std::vector<uint32_t> Order;
  for (uint32_t I = 0; I < T.Texts.size(); ++I)
    Order.push_back(I);
  llvm::sort(Order, [&](uint32_t X, uint32_t Y) {
    if (Weight[X] != Weight[Y])
      return Weight[X] > Weight[Y];
    return T.Texts[X] < T.Texts[Y];
  });
  Model M;
  M.Remap.resize(T.Texts.size());
  uint64_t Text = 0, Longs = 0;
  for (uint32_t I = 0; I < Order.size(); ++I) {
    M.Remap[Order[I]] = I;
    M.Tokens.push_back(T.Texts[Order[I]]);
    Text += T.Texts[Order[I]].size();
    Longs += T.Texts[Order[I]].size() >= 15;
  }
  uint64_t NT = Order.size();
  M.TableBytes =
      alignTo(24 + 4 * ((NT + 15) / 16) + 8 * Longs + (NT + 1) / 2 + Text, 4);
  // Nibble id code.
  std::vector<uint64_t> Prefix(NT + 1, 0);
  for (uint64_t I = 0; I < NT; ++I)
    Prefix[I + 1] = Prefix[I] + Weight[Order[I]];
  auto From = [&](uint64_t Id) {
    return Prefix.back() - Prefix[std::min<uint64_t>(Id, NT)];
  };
  uint64_t Best = UINT64_MAX;
  for (unsigned A = 1; A <= 15; ++A)
    for (unsigned B = 0; A + B <= 15; ++B)
      for (unsigned C = 0; A + B + C <= 15; ++C) {
        uint64_t B2 = A, B3 = A + 16 * B, B4 = B3 + 256 * C,
                 B7 = B4 + 4096 * (15 - A - B - C);
        uint64_t Cost =
            Prefix.back() + From(B2) + From(B3) + From(B4) + 3 * From(B7);
        if (Cost < Best) {
          Best = Cost;
          M.A = A;
          M.B = B;
          M.C = C;
        }
      }
  // Record headers.
  auto Key = [&](uint32_t S) {
    uint32_t New = T.Slots[S].size() - Shared[S];
    return Shared[S] < 256 && New < 256
               ? (Shared[S] << 9 | New << 1 | (T.Types[S] == 'T'))
               : UINT32_MAX;
  };
  std::vector<uint64_t> Count(1 << 17);
  for (uint32_t S = 0; S < N; ++S)
    if (Key(S) != UINT32_MAX)
      ++Count[Key(S)];
  std::vector<std::pair<uint64_t, uint32_t>> Combos;
  for (uint32_t K = 0; K < Count.size(); ++K)
    if (Count[K])
      Combos.push_back({Count[K], K});
  llvm::sort(Combos, [](const auto &X, const auto &Y) {
    return X.first != Y.first ? X.first > Y.first : X.second < Y.second;
  });
  auto VarintLen = [](uint64_t V) {
    unsigned L = 1;
    while (V >>= 3)
      ++L;
    return L;
  };
  Best = UINT64_MAX;
  for (unsigned H = 1; H <= 15; ++H) {
    uint64_t Cap = H + (15 - H) * 16, Cost = 0;
    for (size_t R = 0; R < Combos.size(); ++R) {
      uint32_t K = Combos[R].second;
      uint64_t Esc = 2 + VarintLen(K >> 9) + VarintLen((K >> 1) & 255);
      Cost += Combos[R].first * (R < H ? 1 : R < Cap ? 2 : Esc);
    }
    if (Cost < Best) {
      Best = Cost;
      M.HOne = H;
    }
  }
  Combos.resize(std::min<size_t>(Combos.size(), M.HOne + (15 - M.HOne) * 16));
  std::vector<uint32_t> Rank(1 << 17, UINT32_MAX);
  for (uint32_t R = 0; R < Combos.size(); ++R) {
    Rank[Combos[R].second] = R;
    M.ComboKeys.push_back(Combos[R].second);
  }
  uint32_t B2 = M.A, B3 = M.A + 16 * M.B, B4 = B3 + 256 * M.C,
           B7 = B4 + 4096 * (15 - M.A - M.B - M.C);
  for (uint32_t S = 0; S < N; ++S) {
    if (S % 16 == 0)
      M.BlockStart.push_back(M.Data.Pos);
    uint32_t K = Key(S);
    uint32_t R = K == UINT32_MAX ? UINT32_MAX : Rank[K];
    if (R < M.HOne) {
      M.Data.put(R);
    } else if (R != UINT32_MAX) {
      M.Data.put(M.HOne + (R - M.HOne) / 16);
      M.Data.put((R - M.HOne) % 16);
    } else {
      M.Data.put(15);
      M.Data.putVarint(Shared[S]);
      M.Data.putVarint(T.Slots[S].size() - Shared[S]);
      M.Data.put(T.Types[S] == 'T');
    }
    for (size_t J = Shared[S]; J < T.Slots[S].size(); ++J) {
      uint32_t Id = M.Remap[T.Slots[S][J]];
      if (Id < B2) {
        M.Data.put(Id);
      } else if (Id < B3) {
        M.Data.put(M.A + ((Id - B2) >> 4));
        M.Data.putN(1, (Id - B2) & 15);
      } else if (Id < B4) {
        M.Data.put(M.A + M.B + ((Id - B3) >> 8));
        M.Data.putN(2, (Id - B3) & 255);
      } else if (Id < B7) {
        M.Data.put(M.A + M.B + M.C + ((Id - B4) >> 12));
        M.Data.putN(3, (Id - B4) & 4095);
      } else {
        M.Data.put(15);
        M.Data.putN(6, Id - B7);
      }
    }
  }
  unsigned OffBits = M.Data.Pos ? 64 - countl_zero(M.BlockStart.back()) : 0;
  M.NameBytes = M.Data.Bytes.size() + (M.BlockStart.size() * OffBits + 7) / 8 +
                3 * Combos.size();
  return M;
}

/// Decodes name slot S of the model (block walk, as the reader does).
void decodeModel(const Model &M, uint32_t S, SmallVectorImpl<uint32_t> &Ids,
                 std::string &Name) {
  uint64_t P = M.BlockStart[S / 16];
  uint32_t B2 = M.A, B3 = M.A + 16 * M.B, B4 = B3 + 256 * M.C,
           B7 = B4 + 4096 * (15 - M.A - M.B - M.C);
  auto Get = [&] { return M.Data.get(P++); };
  auto GetN = [&](unsigned N) {
    uint32_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V = V << 4 | Get();
    return V;
  };
  auto Varint = [&] {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 3) {
      unsigned X = Get();
      V |= uint64_t(X & 7) << Shift;
      if (!(X & 8))
        return V;
    }
  };
  for (uint32_t K = S & ~15u; K <= S; ++K) {
    unsigned H = Get();
    uint64_t Sh, New;
    if (H < 15) {
      uint32_t R = H < M.HOne ? H : M.HOne + (H - M.HOne) * 16 + Get();
      uint32_t Key = M.ComboKeys[R];
      Sh = Key >> 9;
      New = (Key >> 1) & 255;
    } else {
      Sh = Varint();
      New = Varint();
      Get();
    }
    Ids.resize(Sh);
    for (uint64_t J = 0; J < New; ++J) {
      unsigned X = Get();
      uint32_t Id = X < M.A         ? X
                    : X < M.A + M.B ? B2 + ((X - M.A) << 4 | GetN(1))
                    : X < M.A + M.B + M.C
                        ? B3 + ((X - M.A - M.B) << 8 | GetN(2))
                    : X < 15 ? B4 + ((X - M.A - M.B - M.C) << 12 | GetN(3))
                             : B7 + GetN(6);
      Ids.push_back(Id);
    }
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
  for (uint32_t S = 0; S < C.Sorted.size(); S += 7) {
    decodeModel(M, S, Ids, Name);
    if (Name != C.Names[C.Sorted[S]])
      report_fatal_error(Twine("model decodes '") + Name + "' for '" +
                         C.Names[C.Sorted[S]] + "'");
  }
  double T0 = cpuSeconds();
  for (uint32_t Q : Queries) {
    decodeModel(M, SlotOf[Q], Ids, Name);
    Check += Name.size();
  }
  R.DecodeNs = (cpuSeconds() - T0) * 1e9 / Queries.size();
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
    double T0 = cpuSeconds();
    Tokenized G = mergePairs(Words, Min, 8, 4096);
    double Ms = (cpuSeconds() - T0) * 1e3;
    Result R = measureModel(G, C, Queries);
    R.Note += ", merging " + std::to_string(int(Ms)) + " ms";
    Show(("merged word pairs, >= " + Twine(Min) + " uses, 8 rounds").str(), R);
  }
  return Ok ? 0 : 1;
}
