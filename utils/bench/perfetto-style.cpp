//===- perfetto-style.cpp - The perfetto-style kernel symbol map, timed ---===//
//
// Benchmark anchor (not installed; test/kallsyms/perfetto-style.test checks
// it on generated names): builds, from the t/T symbols of a System.map or
// /proc/kallsyms file, a map laid out as perfetto's KernelSymbolMap is
// described (../shared/reference/notes/kallsyms_breakpad.md, section 1;
// written here from that description, not from perfetto's code):
//
//  * names cut to 128 bytes and split on '_' (a leading or trailing run
//    of underscores one piece); token ids by descending use
//    count (ties by bytes, for determinism), id 0 the empty token;
//  * token table: the tokens' bytes concatenated, the last byte of each
//    with bit 7 set, and the offset (u32) of every 4th token;
//  * symbols in address order, each a LEB128 address delta and then
//    LEB128 (id << 1 | last) per token; an index entry (u32 address
//    relative to the first, u32 record offset) every 16 symbols.
//
// It prints the size per symbol (the "perfetto-style ~9.9 B/sym"
// anchor on the Debian System.map), checks that every symbol's address
// gives back its name (the last alias at an address, as that layout
// answers), and times N address lookups on the same random addresses as
// `dwarfpack kallsyms --bench-lookups` (addresses inside random symbols,
// seed 42), each returning the name in a reused string.
//
//   dwarfpack-perfetto-style FILE [--lookups N] [--repeat N]
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Support/CpuTime.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

constexpr size_t MaxNameLen = 128;
constexpr unsigned SymSampling = 16, TokenSampling = 4;

class PerfettoStyleMap {
public:
  void build(ArrayRef<kallsyms::KernelSymbol> Syms);
  /// The name of the last symbol at or below Addr, or false below the
  /// first symbol.
  bool lookup(uint64_t Addr, std::string &Out) const;
  size_t symbolBytes() const { return Records.size() + Index.size() * 8; }
  size_t tokenBytes() const { return TokenBuf.size() + TokenIndex.size() * 4; }

private:
  void appendToken(uint32_t Id, std::string &Out) const;

  uint64_t Base = 0;
  std::vector<uint8_t> Records;
  std::vector<std::pair<uint32_t, uint32_t>> Index; // (rel. address, offset)
  std::vector<uint8_t> TokenBuf;
  std::vector<uint32_t> TokenIndex;
};

/// Pieces that give Name back when joined with '_'. A leading or trailing
/// run of N underscores is one piece of N - 1 underscores beside its
/// separator (as perfetto's tokenizer does: "__fo_a_b____" gives "_", "fo",
/// "a", "b", "___"); a run inside a name gives empty pieces.
void splitUnderscores(StringRef Name, SmallVectorImpl<StringRef> &Out) {
  Out.clear();
  size_t Lead = std::min(Name.find_first_not_of('_'), Name.size());
  if (Lead == Name.size()) {
    Out.push_back(Name); // empty, or underscores only
    return;
  }
  size_t Trail = Name.size() - 1 - Name.find_last_not_of('_');
  if (Lead)
    Out.push_back(Name.take_front(Lead - 1));
  Name.slice(Lead, Name.size() - Trail).split(Out, '_');
  if (Trail)
    Out.push_back(Name.take_back(Trail - 1));
}

void PerfettoStyleMap::build(ArrayRef<kallsyms::KernelSymbol> Syms) {
  // Token use counts, then ids by descending count.
  StringMap<uint32_t> Count;
  SmallVector<StringRef, 16> Parts;
  for (const kallsyms::KernelSymbol &S : Syms) {
    splitUnderscores(S.Name.take_front(MaxNameLen), Parts);
    for (StringRef P : Parts)
      if (!P.empty())
        ++Count[P];
  }
  std::vector<std::pair<uint32_t, StringRef>> ByUse;
  for (const auto &E : Count)
    ByUse.push_back({E.second, E.first()});
  llvm::sort(ByUse, [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  StringMap<uint32_t> Id;
  std::vector<StringRef> Tokens{StringRef("\0", 1)}; // id 0: empty token
  for (const auto &E : ByUse) {
    Id[E.second] = Tokens.size();
    Tokens.push_back(E.second);
  }
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (I % TokenSampling == 0)
      TokenIndex.push_back(TokenBuf.size());
    TokenBuf.insert(TokenBuf.end(), Tokens[I].bytes_begin(),
                    Tokens[I].bytes_end());
    TokenBuf.back() |= 0x80;
  }

  Base = Syms.front().Address;
  uint64_t Prev = Base;
  uint8_t Tmp[16];
  for (size_t I = 0; I < Syms.size(); ++I) {
    if (I % SymSampling == 0)
      Index.push_back({uint32_t(Syms[I].Address - Base), Records.size()});
    Records.insert(Records.end(), Tmp,
                   Tmp + encodeULEB128(Syms[I].Address - Prev, Tmp));
    Prev = Syms[I].Address;
    splitUnderscores(Syms[I].Name.take_front(MaxNameLen), Parts);
    for (size_t K = 0; K < Parts.size(); ++K) {
      uint64_t V = uint64_t(Parts[K].empty() ? 0 : Id[Parts[K]]) << 1 |
                   (K + 1 == Parts.size());
      Records.insert(Records.end(), Tmp, Tmp + encodeULEB128(V, Tmp));
    }
  }
}

LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t readVarint(const uint8_t *&P) {
  uint64_t V = 0;
  for (unsigned Shift = 0;; Shift += 7) {
    uint8_t B = *P++;
    V |= uint64_t(B & 0x7F) << Shift;
    if (!(B & 0x80))
      return V;
  }
}

void PerfettoStyleMap::appendToken(uint32_t Id, std::string &Out) const {
  const uint8_t *P = TokenBuf.data() + TokenIndex[Id / TokenSampling];
  for (uint32_t Skip = Id % TokenSampling; Skip; --Skip)
    while (!(*P++ & 0x80))
      ;
  if (Id == 0)
    return;
  for (;; ++P) {
    Out.push_back(char(*P & 0x7F));
    if (*P & 0x80)
      return;
  }
}

bool PerfettoStyleMap::lookup(uint64_t Addr, std::string &Out) const {
  Out.clear();
  if (Addr < Base || Addr - Base > UINT32_MAX)
    return false;
  uint32_t Rel = uint32_t(Addr - Base);
  auto It =
      std::upper_bound(Index.begin(), Index.end(), Rel,
                       [](uint32_t R, const std::pair<uint32_t, uint32_t> &E) {
                         return R < E.first;
                       });
  if (It == Index.begin())
    return false;
  --It;
  const uint8_t *Hit = Records.data() + It->second,
                *End = Records.data() + Records.size();
  uint64_t At = It->first;
  readVarint(Hit); // the index holds this record's address
  // Step to the next record while it still starts at or below Addr.
  for (unsigned K = 1; K < SymSampling; ++K) {
    const uint8_t *Q = Hit;
    while (readVarint(Q) % 2 == 0)
      ;
    if (Q == End)
      break;
    uint64_t Next = At + readVarint(Q);
    if (Next > Rel)
      break;
    At = Next;
    Hit = Q;
  }
  for (const uint8_t *Q = Hit;;) {
    uint64_t V = readVarint(Q);
    appendToken(uint32_t(V >> 1), Out);
    if (V & 1)
      return true;
    Out.push_back('_');
  }
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    errs() << "usage: dwarfpack-perfetto-style FILE [--lookups N] [--repeat "
              "N]\n";
    return 2;
  }
  unsigned Lookups = 1000000, Repeat = 1;
  for (int I = 2; I + 1 < Argc; I += 2) {
    StringRef Opt = Argv[I];
    unsigned V;
    if ((Opt != "--lookups" && Opt != "--repeat") ||
        StringRef(Argv[I + 1]).getAsInteger(10, V) || V == 0) {
      errs() << "dwarfpack-perfetto-style: bad option '" << Opt << "'\n";
      return 2;
    }
    (Opt == "--lookups" ? Lookups : Repeat) = V;
  }
  auto Buf = MemoryBuffer::getFileOrSTDIN(Argv[1]);
  if (!Buf) {
    errs() << "dwarfpack-perfetto-style: '" << Argv[1]
           << "': " << Buf.getError().message() << '\n';
    return 1;
  }
  kallsyms::SymbolList List;
  if (Error E =
          kallsyms::parseSymbolList((*Buf)->getBuffer(), Argv[1], {}, List)) {
    errs() << "dwarfpack-perfetto-style: " << toString(std::move(E)) << '\n';
    return 1;
  }
  ArrayRef<kallsyms::KernelSymbol> Syms = List.Symbols;
  if (Syms.empty() || Syms.back().Address - Syms.front().Address > UINT32_MAX) {
    errs() << "dwarfpack-perfetto-style: no symbols, or a span over 4 GiB\n";
    return 1;
  }
  PerfettoStyleMap Map;
  Map.build(Syms);
  size_t N = Syms.size();
  size_t Bytes = Map.symbolBytes() + Map.tokenBytes();
  outs() << "symbols: " << N << '\n'
         << "bytes: " << Bytes << " (symbols " << Map.symbolBytes()
         << ", tokens " << Map.tokenBytes() << ")\n"
         << "bytes-per-symbol: " << format("%.2f", double(Bytes) / N) << '\n';

  // Every address gives back the last alias's name.
  std::string Got;
  for (size_t I = 0; I < N; ++I) {
    size_t Last = I;
    while (Last + 1 < N && Syms[Last + 1].Address == Syms[I].Address)
      ++Last;
    if (!Map.lookup(Syms[I].Address, Got) ||
        Got != Syms[Last].Name.take_front(MaxNameLen)) {
      errs() << "dwarfpack-perfetto-style: the map gives '" << Got << "' for "
             << format_hex(Syms[I].Address, 18) << ", not '" << Syms[Last].Name
             << "'\n";
      return 1;
    }
  }
  outs() << "checked: every address gives its name\n";

  // The addresses of `dwarfpack kallsyms --bench-lookups`: inside random
  // symbols, sizes to the next distinct address (at most 1 MiB).
  std::vector<uint64_t> Size(N, 0);
  for (size_t I = N; I-- > 0;)
    Size[I] = I + 1 == N ? 0
              : Syms[I + 1].Address != Syms[I].Address
                  ? Syms[I + 1].Address - Syms[I].Address
                  : Size[I + 1];
  std::mt19937_64 Rng(42);
  std::uniform_int_distribution<uint32_t> SymD(0, N - 1);
  std::vector<uint64_t> Addrs(Lookups);
  for (size_t I = 0; I < Addrs.size(); ++I) {
    if (Repeat > 1 && I % Repeat) {
      Addrs[I] = Addrs[I - I % Repeat];
      continue;
    }
    uint32_t S = SymD(Rng);
    Addrs[I] = Syms[S].Address +
               (Size[S] ? Rng() % std::min<uint64_t>(Size[S], 1 << 20) : 0);
  }
  uint64_t Check = 0;
  double C0 = threadCpuSeconds();
  for (uint64_t A : Addrs) {
    Map.lookup(A, Got);
    Check += Got.size();
  }
  double C1 = threadCpuSeconds();
  outs() << "address-lookup-cpu-ns: "
         << format("%.1f", (C1 - C0) * 1e9 / Lookups) << '\n'
         << "check: " << Check << '\n';
  return 0;
}
