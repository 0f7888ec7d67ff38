//===- KsymBlobReader.cpp - Read a ksym-blob in place ---------------------===//

#include "KsymBlobLayout.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

#include <cstring>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::kallsyms::ksymblob;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace {

Error corrupt(uint64_t Off, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt ksym-blob at offset " + Twine(Off) + ": " +
                               What);
}

/// A name record split into its optional token and raw rest.
struct Record {
  char Type = 0;
  StringRef Token, Rest;
};

class KsymBlobReader : public SymbolReader {
public:
  static Expected<std::unique_ptr<SymbolReader>>
  create(std::unique_ptr<MemoryBuffer> Buffer, std::optional<uint64_t> End);

  Expected<uint64_t> address(uint32_t I) const override {
    if (I >= NumSyms)
      return corrupt(0, "symbol index out of range");
    return read64le(Data + L.Addresses + uint64_t(I) * 8);
  }
  Error describe(uint32_t I, SymbolInfo &Info) const override;
  Expected<std::optional<uint32_t>>
  findLastAtOrBelow(uint64_t Addr) const override;
  Error lookupNameInto(StringRef Name,
                       std::vector<SymbolInfo> &Out) const override;
  Expected<bool> lookupAddressInto(uint64_t Addr,
                                   SymbolInfo &Info) const override;

private:
  Error init();
  Expected<Record> record(uint32_t I) const;

  std::unique_ptr<MemoryBuffer> Buffer;
  const uint8_t *Data = nullptr;
  Layout L;
};

} // namespace

Expected<std::unique_ptr<SymbolReader>>
kallsyms::openKsymBlob(std::unique_ptr<MemoryBuffer> Buffer,
                       std::optional<uint64_t> End) {
  return KsymBlobReader::create(std::move(Buffer), End);
}

Expected<std::unique_ptr<SymbolReader>>
KsymBlobReader::create(std::unique_ptr<MemoryBuffer> Buffer,
                       std::optional<uint64_t> End) {
  std::unique_ptr<KsymBlobReader> R(new KsymBlobReader());
  R->Buffer = std::move(Buffer);
  R->EndAddress = End;
  if (Error E = R->init())
    return std::move(E);
  return std::unique_ptr<SymbolReader>(std::move(R));
}

// Every offset is checked once here so lookups only index validated data.
Error KsymBlobReader::init() {
  Expected<Layout> Lay = computeLayout(Buffer->getBuffer());
  if (!Lay)
    return Lay.takeError();
  L = *Lay;
  if (L.NumSyms > UINT32_MAX)
    return corrupt(0, "too many symbols");
  NumSyms = L.NumSyms;
  Data = Buffer->getBuffer().bytes_begin();
  uint64_t Prev = 0;
  for (uint64_t I = 0; I < L.NumSyms; ++I) {
    uint64_t A = read64le(Data + L.Addresses + I * 8);
    if (A < Prev)
      return corrupt(L.Addresses + I * 8, "addresses are not sorted");
    Prev = A;
    uint64_t Off = read32le(Data + L.Offsets + I * 4);
    if (Off + 3 > L.NamesLen ||
        Off + 3 + read16le(Data + L.Names + Off + 1) > L.NamesLen)
      return corrupt(L.Offsets + I * 4,
                     "name record " + Twine(I) + " runs past the names");
    if (read32le(Data + L.Seqs + I * 4) >= L.NumSyms)
      return corrupt(L.Seqs + I * 4, "name order entry out of range");
  }
  uint64_t PrevOff = 0;
  for (uint64_t I = 0; I < L.TokenIndexLen; ++I) {
    uint64_t Off = read32le(Data + L.TokenIndex + I * 4);
    if (Off < PrevOff || Off > L.TokenTableLen)
      return corrupt(L.TokenIndex + I * 4, "token index entry out of range");
    PrevOff = Off;
  }
  return Error::success();
}

Expected<Record> KsymBlobReader::record(uint32_t I) const {
  uint64_t Off = L.Names + read32le(Data + L.Offsets + uint64_t(I) * 4);
  Record R;
  R.Type = char(Data[Off]);
  uint64_t Len = read16le(Data + Off + 1);
  StringRef P(reinterpret_cast<const char *>(Data + Off + 3), Len);
  if (P.empty() || uint8_t(P[0]) != TokenMarker) {
    R.Rest = P;
    return R;
  }
  uint32_t Id;
  if (P.size() >= 3 && uint8_t(P[2]) == TokenMarker) {
    Id = uint8_t(P[1]);
    R.Rest = P.drop_front(3);
  } else if (P.size() >= 4 && uint8_t(P[3]) == TokenMarker) {
    Id = (uint32_t(uint8_t(P[1])) << 8) | uint8_t(P[2]);
    R.Rest = P.drop_front(4);
  } else {
    return corrupt(Off, "bad token marker in name record " + Twine(I));
  }
  if (Id >= L.TokenIndexLen)
    return corrupt(Off, "token id " + Twine(Id) + " out of range");
  uint64_t Start = read32le(Data + L.TokenIndex + uint64_t(Id) * 4);
  uint64_t End = Id + 1 < L.TokenIndexLen
                     ? read32le(Data + L.TokenIndex + uint64_t(Id + 1) * 4)
                     : L.TokenTableLen;
  R.Token = StringRef(
      reinterpret_cast<const char *>(Data + L.TokenTable + Start), End - Start);
  return R;
}

Error KsymBlobReader::describe(uint32_t I, SymbolInfo &Info) const {
  // record() reads the offset table at I: only validated entries.
  if (I >= NumSyms)
    return corrupt(0, "symbol index " + Twine(I) + " out of range");
  Expected<Record> R = record(I);
  if (!R)
    return R.takeError();
  Info.Type = R->Type;
  Info.Name = R->Token;
  Info.Name += R->Rest;
  Info.Module.clear();
  Info.Index = I;
  return Error::success();
}

Expected<std::optional<uint32_t>>
KsymBlobReader::findLastAtOrBelow(uint64_t Addr) const {
  uint64_t Lo = 0, Hi = L.NumSyms; // first index with address > Addr
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (read64le(Data + L.Addresses + Mid * 8) <= Addr)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (Lo == 0)
    return std::nullopt;
  return std::optional<uint32_t>(uint32_t(Lo - 1));
}

/// Compares Token+Rest with S without concatenating them.
static int compareRecord(const Record &R, StringRef S) {
  size_t N = std::min(R.Token.size(), S.size());
  if (int C = N ? std::memcmp(R.Token.data(), S.data(), N) : 0)
    return C;
  if (N < R.Token.size())
    return 1;
  return R.Rest.compare(S.drop_front(N));
}

Error KsymBlobReader::lookupNameInto(StringRef Name,
                                     std::vector<SymbolInfo> &Out) const {
  uint64_t Lo = 0, Hi = L.NumSyms; // first name >= Name
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    Expected<Record> R = record(read32le(Data + L.Seqs + Mid * 4));
    if (!R)
      return R.takeError();
    if (compareRecord(*R, Name) < 0)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  size_t Count = 0;
  for (uint64_t K = Lo; K < L.NumSyms; ++K) {
    uint32_t I = read32le(Data + L.Seqs + K * 4);
    Expected<Record> R = record(I);
    if (!R)
      return R.takeError();
    if (compareRecord(*R, Name) != 0)
      break;
    if (Count == Out.size())
      Out.emplace_back();
    SymbolInfo &Info = Out[Count++];
    Info.Type = R->Type;
    Info.Name = Name;
    Info.Module.clear();
    if (Error E = fillAddressAndSize(I, Info))
      return E;
  }
  Out.resize(Count);
  // seqs order equal names by address already; sort anyway, a foreign blob
  // may not.
  if (Count > 1)
    llvm::sort(Out, [](const SymbolInfo &A, const SymbolInfo &B) {
      return A.Index < B.Index;
    });
  return Error::success();
}

static unsigned leadingUnderscores(const Record &R) {
  StringRef T = R.Token;
  size_t K = T.size() - T.ltrim('_').size();
  if (K < T.size())
    return K;
  return K + (R.Rest.size() - R.Rest.ltrim('_').size());
}

// Binary search over the u64 addresses, aliases and size from the
// neighbouring entries, names only of the alias candidates.
Expected<bool> KsymBlobReader::lookupAddressInto(uint64_t Addr,
                                                 SymbolInfo &Info) const {
  const uint8_t *A = Data + L.Addresses;
  uint64_t N = L.NumSyms;
  if (N == 0 || read64le(A) > Addr)
    return false;
  // Branch-free: Pos ends on the last address <= Addr.
  uint64_t Pos = 0, Len = N;
  while (Len > 1) {
    uint64_t Half = Len / 2;
    Pos = read64le(A + (Pos + Half) * 8) <= Addr ? Pos + Half : Pos;
    Len -= Half;
  }
  uint64_t At = read64le(A + Pos * 8);
  uint64_t First = Pos, Last = Pos;
  while (First > 0 && read64le(A + (First - 1) * 8) == At)
    --First;
  uint64_t Next = Last + 1;
  while (Next < N && read64le(A + Next * 8) == At)
    ++Next;
  std::optional<uint64_t> Size;
  if (Next < N)
    Size = read64le(A + Next * 8) - At;
  else if (EndAddress && *EndAddress >= At)
    Size = *EndAddress - At;
  if (Size && Addr - At >= *Size)
    return false;
  Expected<Record> Best = record(uint32_t(First));
  if (!Best)
    return Best.takeError();
  uint32_t BestIndex = First;
  for (uint64_t I = First + 1; I <= Last; ++I) {
    Expected<Record> C = record(uint32_t(I));
    if (!C)
      return C.takeError();
    bool CG = isUpper(C->Type), BG = isUpper(Best->Type);
    if (CG != BG ? CG : leadingUnderscores(*C) < leadingUnderscores(*Best)) {
      *Best = *C;
      BestIndex = I;
    }
  }
  Info.Address = At;
  Info.Size = Size;
  Info.Type = Best->Type;
  Info.Name = Best->Token;
  Info.Name += Best->Rest;
  Info.Module.clear();
  Info.Index = BestIndex;
  return true;
}

Expected<std::unique_ptr<SymbolReader>>
kallsyms::openSymbolTable(std::unique_ptr<MemoryBuffer> Buffer,
                          ReaderOptions Options) {
  StringRef B = Buffer->getBuffer();
  if (isCompact(B))
    return openCompact(std::move(Buffer), Options);
  if (B.size() < 8)
    return createStringError(inconvertibleErrorCode(),
                             "not a kernel symbol table (" + Twine(B.size()) +
                                 " bytes)");
  // A ksym-blob has no magic number: one that does not open may be a
  // damaged blob or another file altogether.
  Expected<std::unique_ptr<SymbolReader>> R = openKsymBlob(std::move(Buffer));
  if (!R)
    return createStringError(inconvertibleErrorCode(),
                             "not a kernel symbol table: no compact table "
                             "magic, and as a ksym-blob: " +
                                 toString(R.takeError()));
  return R;
}
