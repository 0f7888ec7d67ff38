//===- KsymBlobWriter.cpp - Write the ksym-blob layout --------------------===//
//
// The zero-copy layout of the ksym crate's gen_ksym, byte for byte, so its
// consumers can map what we write. Token choice follows its documented
// fixed-prefix heuristic: one optional token at the start of each name.
//
//===----------------------------------------------------------------------===//

#include "KsymBlobLayout.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::kallsyms::ksymblob;

namespace {
/// Candidate prefix lengths; names shorter than the first count whole.
constexpr size_t PrefixLengths[] = {10,  16,  24,  31,  40,  56,   70,  96,
                                    128, 192, 256, 384, 512, 1024, 2000};

void padTo(std::string &S, size_t Align) {
  S.resize(alignTo(S.size(), Align), '\0');
}
void appendU64(std::string &S, uint64_t V) {
  char B[8];
  support::endian::write64le(B, V);
  S.append(B, 8);
}
void appendU32(std::string &S, uint32_t V) {
  char B[4];
  support::endian::write32le(B, V);
  S.append(B, 4);
}
} // namespace

bool kallsyms::isKsymBlob(StringRef Bytes) {
  if (isCompact(Bytes))
    return false;
  Expected<Layout> L = computeLayout(Bytes);
  if (!L) {
    consumeError(L.takeError());
    return false;
  }
  return true;
}

namespace {

/// Calls F on each candidate prefix of Name: the lengths of PrefixLengths
/// that fit, and Name itself when it is shorter than all of them.
template <typename Fn> void forEachPrefix(StringRef Name, Fn F) {
  if (Name.size() < PrefixLengths[0])
    F(Name);
  for (size_t L : PrefixLengths)
    if (L <= Name.size())
      F(Name.take_front(L));
}

/// The tokens: candidates ranked by count x length, best first, skipping
/// prefixes of those already chosen.
std::vector<std::string> chooseTokens(ArrayRef<KernelSymbol> Syms) {
  StringMap<uint32_t> Counts;
  for (const auto &S : Syms)
    forEachPrefix(S.Name, [&](StringRef P) { ++Counts[P]; });
  std::vector<std::pair<StringRef, uint64_t>> Cands;
  for (const auto &E : Counts)
    if (E.second >= 2 && E.getKey().size() > 4)
      Cands.emplace_back(E.getKey(), uint64_t(E.second) * E.getKey().size());
  llvm::sort(Cands, [](const auto &A, const auto &B) {
    if (A.second != B.second)
      return A.second > B.second;
    return A.first < B.first;
  });
  std::vector<StringRef> Chosen;
  for (const auto &C : Cands) {
    if (Chosen.size() == MaxTokens)
      break;
    if (llvm::any_of(Chosen,
                     [&](StringRef T) { return T.starts_with(C.first); }))
      continue;
    Chosen.push_back(C.first);
  }
  // Copies: the candidates' text lives in Counts.
  return std::vector<std::string>(Chosen.begin(), Chosen.end());
}

/// A name's payload: its longest token prefix that saves bytes as a
/// marked token id, then the rest of the name.
Expected<std::string> encodeName(const KernelSymbol &Sym,
                                 const StringMap<uint32_t> &TokenIds) {
  StringRef Name = Sym.Name;
  if (!Name.empty() && uint8_t(Name[0]) == TokenMarker)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("symbol at {0:x16} starts with byte 0xff, which the "
                "ksym-blob layout reserves ('\\xff{1}')",
                Sym.Address, Name.drop_front()));
  std::optional<uint32_t> Id;
  size_t TokLen = 0;
  forEachPrefix(Name, [&](StringRef P) {
    auto It = TokenIds.find(P);
    if (It != TokenIds.end() && P.size() > TokLen) {
      Id = It->second;
      TokLen = P.size();
    }
  });
  std::string Payload;
  if (Id && TokLen > (*Id < 256 ? 3u : 4u)) {
    Payload.push_back(char(TokenMarker));
    if (*Id >= 256)
      Payload.push_back(char(*Id >> 8));
    Payload.push_back(char(*Id & 0xFF));
    Payload.push_back(char(TokenMarker));
    Payload += Name.drop_front(TokLen);
  } else {
    Payload = Name.str();
  }
  if (Payload.size() > UINT16_MAX)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("symbol '{0}...' at {1:x16} is too long for a ksym-blob "
                "record ({2} bytes; at most 65535)",
                Name.take_front(64), Sym.Address, Payload.size()));
  return std::move(Payload);
}

/// The name records in address order (type, length, payload) and each
/// one's offset.
Error encodeNames(ArrayRef<KernelSymbol> Syms, ArrayRef<std::string> Tokens,
                  std::string &Names, std::vector<uint32_t> &Offsets) {
  StringMap<uint32_t> TokenIds;
  for (uint32_t I = 0; I < Tokens.size(); ++I)
    TokenIds[Tokens[I]] = I;
  Offsets.resize(Syms.size());
  for (size_t I = 0; I < Syms.size(); ++I) {
    Expected<std::string> Payload = encodeName(Syms[I], TokenIds);
    if (!Payload)
      return Payload.takeError();
    if (Names.size() > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(), "names exceed 4 GiB");
    Offsets[I] = Names.size();
    Names.push_back(Syms[I].Type);
    Names.push_back(char(Payload->size()));
    Names.push_back(char(Payload->size() >> 8));
    Names += *Payload;
  }
  return Error::success();
}

/// The token table: total length, the tokens' bytes, their count and
/// each one's offset.
void appendTokenTable(ArrayRef<std::string> Tokens, std::string &Out) {
  uint64_t TableLen = 0;
  for (const std::string &T : Tokens)
    TableLen += T.size();
  appendU64(Out, TableLen);
  for (const std::string &T : Tokens)
    Out += T;
  padTo(Out, 8);
  appendU64(Out, Tokens.size());
  padTo(Out, 4);
  uint32_t Off = 0;
  for (const std::string &T : Tokens) {
    appendU32(Out, Off);
    Off += T.size();
  }
}

} // namespace

Error kallsyms::writeKsymBlob(const SymbolList &List, std::string &Out) {
  const auto &Syms = List.Symbols;
  if (Syms.empty())
    return createStringError(inconvertibleErrorCode(), "no symbols");
  const uint64_t N = Syms.size();
  if (N > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(), "too many symbols");
  const std::vector<std::string> Tokens = chooseTokens(Syms);
  std::string Names;
  std::vector<uint32_t> Offsets;
  if (Error E = encodeNames(Syms, Tokens, Names, Offsets))
    return E;
  std::vector<uint32_t> Seqs(N); // name order
  for (uint32_t I = 0; I < N; ++I)
    Seqs[I] = I;
  llvm::stable_sort(Seqs, [&](uint32_t A, uint32_t B) {
    return Syms[A].Name < Syms[B].Name;
  });

  Out.clear();
  appendU64(Out, N);
  for (const auto &S : Syms)
    appendU64(Out, S.Address);
  padTo(Out, 4);
  for (uint32_t O : Offsets)
    appendU32(Out, O);
  padTo(Out, 4);
  for (uint32_t S : Seqs)
    appendU32(Out, S);
  padTo(Out, 8);
  appendU64(Out, Names.size());
  Out += Names;
  padTo(Out, 8);
  appendTokenTable(Tokens, Out);
  return Error::success();
}
