//===- CompactReader.cpp - Read the compact kernel symbol table in place --===//

#include "CompactLayout.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::kallsyms::compact;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace {

Error corrupt(const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt kernel symbol table: " + What);
}

struct Span {
  const uint8_t *Data = nullptr;
  uint64_t Size = 0;
};

class CompactReader : public SymbolReader {
public:
  static Expected<std::unique_ptr<SymbolReader>>
  create(std::unique_ptr<MemoryBuffer> Buffer);

  Expected<uint64_t> address(uint32_t I) const override;
  Error describe(uint32_t I, SymbolInfo &Info) const override;
  Expected<std::optional<uint32_t>>
  findLastAtOrBelow(uint64_t Addr) const override;
  Expected<std::vector<SymbolInfo>> lookupName(StringRef Name) const override;
  Expected<std::optional<SymbolInfo>>
  lookupAddress(uint64_t Addr) const override;

private:
  Error init();
  uint32_t findBlock(uint64_t Addr) const;
  /// Decodes name slot Slot: tokens, type. Walks from its block start.
  Error decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Tokens,
                   char &Type) const;
  /// Reads the next record of a block at P, updating Tokens in place.
  /// Reads one name record at R, updating Toks in place (the first
  /// Shared tokens stay); false when the record is malformed.
  bool readRecord(NibbleReader &R, bool First, SmallVectorImpl<uint32_t> &Toks,
                  char &Type, size_t &SharedOut) const {
    unsigned H;
    if (!R.get(H))
      return false;
    uint64_t Shared, New;
    unsigned TC;
    if (H < 15) {
      uint32_t Rank = H;
      if (H >= HOne) {
        unsigned Low;
        if (!R.get(Low))
          return false;
        Rank = HOne + (H - HOne) * 16 + Low;
      }
      if (Rank >= NumCombos)
        return false;
      const uint8_t *C = Sec[SecCombos].Data + uint64_t(Rank) * 3;
      Shared = C[0];
      New = C[1];
      TC = C[2];
    } else {
      unsigned T;
      if (!R.getVarint(Shared) || !R.getVarint(New) || !R.get(T))
        return false;
      TC = T;
    }
    if (Shared > Toks.size() || (First && Shared) || New > R.remaining())
      return false;
    if (TC == TypeLocalText) {
      Type = 't';
    } else if (TC == TypeGlobalText) {
      Type = 'T';
    } else if (TC == TypeExplicit) {
      uint32_t V = 0;
      if (!R.getN(2, V))
        return false;
      Type = char(V);
    } else {
      return false;
    }
    Toks.resize(Shared);
    SharedOut = Shared;
    uint32_t NumTok = Tokens.numTokens();
    for (uint64_t K = 0; K < New; ++K) {
      uint32_t Id;
      if (!IdCode.decode(R, Id) || Id >= NumTok)
        return false;
      Toks.push_back(Id);
    }
    return true;
  }
  Error badRecord(const NibbleReader &R) const {
    return corrupt("malformed name record at nibble " + Twine(R.position()) +
                   " of the names");
  }
  /// Reader positioned at the first record of name block B.
  Expected<NibbleReader> blockReader(uint32_t B) const {
    uint64_t Off = readBits(Sec[SecNameIndex].Data, Sec[SecNameIndex].Size,
                            uint64_t(B) * NameOffBits, NameOffBits);
    if (Off > Sec[SecNameData].Size * 2)
      return corrupt("name block " + Twine(B) + " offset out of range");
    return NibbleReader(Sec[SecNameData].Data, Sec[SecNameData].Size, Off);
  }
  Expected<uint32_t> perm(uint32_t I) const {
    uint64_t V = readBits(Sec[SecPerm].Data, Sec[SecPerm].Size,
                          uint64_t(I) * PermBits, PermBits);
    if (LLVM_UNLIKELY(V >= NumSyms))
      return corrupt("permutation entry " + Twine(I) + " out of range");
    return uint32_t(V);
  }
  Expected<uint32_t> inversePerm(uint32_t Slot) const;
  Expected<StringRef> moduleOf(uint32_t I) const;
  /// Sequential reader of one address block's deltas. Reads past the
  /// section give zeros (readBits checks), never an out-of-bounds access.
  struct DeltaReader {
    const uint8_t *Data = nullptr;
    uint64_t Size = 0, Bit = 0, Esc = 0;
    unsigned Width = 0, Shift = 0, EscWidth = 0;
    uint64_t next() {
      uint64_t V = readBits(Data, Size, Bit, Width);
      Bit += Width;
      if (EscWidth && V == Esc) {
        V = readBits(Data, Size, Bit, EscWidth);
        Bit += EscWidth;
      }
      return V << Shift;
    }
  };
  Error blockHeader(uint32_t B, DeltaReader &D, uint64_t &First) const;
  uint64_t blockRel(uint32_t B) const;

  std::unique_ptr<MemoryBuffer> Buffer;
  token::TokenTable Tokens;
  Span Sec[NumSections];
  unsigned PermBits = 0;
  uint64_t Base = 0;
  uint32_t NumModules = 0, NumMarks = 0;
  uint32_t NumAddrBlocks = 0, NumNameBlocks = 0;
  std::vector<StringRef> ModuleNames; // [0] is the core kernel
  NibbleIdCode IdCode;
  unsigned HOne = 15;
  unsigned RelBits = 0, AddrOffBits = 0, NameOffBits = 0;
  uint32_t NumCombos = 0;
};

} // namespace

Expected<std::unique_ptr<SymbolReader>>
kallsyms::openCompact(std::unique_ptr<MemoryBuffer> Buffer) {
  return CompactReader::create(std::move(Buffer));
}

Expected<std::unique_ptr<SymbolReader>>
CompactReader::create(std::unique_ptr<MemoryBuffer> Buffer) {
  std::unique_ptr<CompactReader> R(new CompactReader());
  R->Buffer = std::move(Buffer);
  if (Error E = R->init())
    return std::move(E);
  return std::unique_ptr<SymbolReader>(std::move(R));
}

Error CompactReader::init() {
  StringRef B = Buffer->getBuffer();
  const uint8_t *P = B.bytes_begin();
  if (B.size() < HeaderSize || !isCompact(B))
    return corrupt("truncated header (" + Twine(B.size()) + " bytes)");
  if (read32le(P + 8) != CompactVersion)
    return corrupt("unsupported version " + Twine(read32le(P + 8)));
  uint32_t Flags = read32le(P + 12);
  NumSyms = read32le(P + 16);
  PermBits = read32le(P + 20);
  Base = read64le(P + 24);
  if (Flags & FlagHasEnd)
    EndAddress = read64le(P + 32);
  if (P[40] != AddrBlockShift || P[41] != NameBlockShift || P[42] != InvStride)
    return corrupt("unsupported block sizes");
  NumModules = read32le(P + 44);
  NumMarks = read32le(P + 48);
  HOne = P[43];
  RelBits = P[60];
  AddrOffBits = P[61];
  NameOffBits = P[62];
  if (RelBits > 32 || AddrOffBits > 32 || NameOffBits > 33)
    return corrupt("bad index widths");
  IdCode = NibbleIdCode{P[52], P[53], P[54]};
  NumCombos = read32le(P + 56);
  if (HOne < 1 || HOne > 15 || !IdCode.valid() ||
      NumCombos > HOne + (15 - HOne) * 16u)
    return corrupt("bad name record codes");
  if (NumSyms == 0 || NumSyms >= (1u << 31))
    return corrupt("bad symbol count " + Twine(NumSyms));
  if (PermBits != std::max(1u, unsigned(Log2_32(NumSyms - 1) + 1)) &&
      !(NumSyms == 1 && PermBits == 1))
    return corrupt("bad permutation width " + Twine(PermBits));
  for (unsigned S = 0; S < NumSections; ++S) {
    uint64_t Off = read32le(P + 64 + S * 8), Size = read32le(P + 68 + S * 8);
    if (Off < HeaderSize || Off + Size > B.size())
      return corrupt("section " + Twine(S) + " at offset " + Twine(Off) +
                     " size " + Twine(Size) + " is outside the file (" +
                     Twine(B.size()) + " bytes)");
    Sec[S] = {P + Off, Size};
  }
  Expected<token::TokenTable> T = token::TokenTable::create(
      StringRef(reinterpret_cast<const char *>(Sec[SecTokens].Data),
                Sec[SecTokens].Size));
  if (!T)
    return T.takeError();
  Tokens = *T;

  NumAddrBlocks =
      (uint64_t(NumSyms) + (1u << AddrBlockShift) - 1) >> AddrBlockShift;
  NumNameBlocks =
      (uint64_t(NumSyms) + (1u << NameBlockShift) - 1) >> NameBlockShift;
  uint64_t Words = (uint64_t(NumSyms) + 63) / 64;
  struct {
    unsigned S;
    uint64_t Need;
  } Checks[] = {
      {SecAddrIndex,
       (uint64_t(NumAddrBlocks) * (RelBits + AddrOffBits) + 7) / 8},
      {SecPerm, (uint64_t(NumSyms) * PermBits + 7) / 8},
      {SecInvMarks, Words * 8 + (Words + 7) / 8 * 4},
      {SecInvBack, (uint64_t(NumMarks) * PermBits + 7) / 8},
      {SecNameIndex, (uint64_t(NumNameBlocks) * NameOffBits + 7) / 8},
      {SecModuleRuns, 8},
      {SecCombos, uint64_t(NumCombos) * 3},
  };
  for (auto &C : Checks)
    if (Sec[C.S].Size < C.Need)
      return corrupt("section " + Twine(C.S) + " has " + Twine(Sec[C.S].Size) +
                     " bytes, needs " + Twine(C.Need));
  if (Sec[SecModuleRuns].Size % 8 || read32le(Sec[SecModuleRuns].Data) != 0)
    return corrupt("bad module runs");
  ModuleNames.push_back("");
  const uint8_t *M = Sec[SecModules].Data, *MEnd = M + Sec[SecModules].Size;
  for (uint32_t I = 0; I < NumModules; ++I) {
    if (MEnd - M < 2 || uint64_t(MEnd - M - 2) < uint64_t(M[0] | (M[1] << 8)))
      return corrupt("module name " + Twine(I) + " runs past its section");
    size_t Len = M[0] | (M[1] << 8);
    ModuleNames.push_back(
        StringRef(reinterpret_cast<const char *>(M + 2), Len));
    M += 2 + Len;
  }
  return Error::success();
}

uint64_t CompactReader::blockRel(uint32_t B) const {
  return readBits(Sec[SecAddrIndex].Data, Sec[SecAddrIndex].Size,
                  uint64_t(B) * (RelBits + AddrOffBits), RelBits);
}

Error CompactReader::blockHeader(uint32_t B, DeltaReader &D,
                                 uint64_t &First) const {
  First = Base + blockRel(B);
  uint64_t Bit =
      readBits(Sec[SecAddrIndex].Data, Sec[SecAddrIndex].Size,
               uint64_t(B) * (RelBits + AddrOffBits) + RelBits, AddrOffBits);
  const uint8_t *Data = Sec[SecAddrData].Data;
  uint64_t Size = Sec[SecAddrData].Size;
  if (Bit + 18 > Size * 8)
    return corrupt("address block " + Twine(B) + " starts past its section");
  D.Data = Data;
  D.Size = Size;
  D.Width = readBits(Data, Size, Bit, 6);
  D.Shift = readBits(Data, Size, Bit + 6, 6);
  D.EscWidth = readBits(Data, Size, Bit + 12, 6);
  D.Bit = Bit + 18;
  if (D.Width > 57 || D.EscWidth > 57 || (D.EscWidth && !D.Width))
    return corrupt("address block " + Twine(B) + " is malformed");
  D.Esc = (uint64_t(1) << D.Width) - 1;
  return Error::success();
}

Expected<uint64_t> CompactReader::address(uint32_t I) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  uint64_t A;
  DeltaReader D;
  if (Error E = blockHeader(I >> AddrBlockShift, D, A))
    return std::move(E);
  for (uint32_t K = 0; K < (I & ((1u << AddrBlockShift) - 1)); ++K)
    A += D.next();
  return A;
}

// Last block whose first address is <= Addr (which is >= Base).
uint32_t CompactReader::findBlock(uint64_t Addr) const {
  uint64_t Rel = Addr - Base;
  uint32_t Lo = 0, Hi = NumAddrBlocks;
  while (Hi - Lo > 1) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (blockRel(Mid) <= Rel)
      Lo = Mid;
    else
      Hi = Mid;
  }
  return Lo;
}

// Decodes one address block once and resolves aliases and the size inside
// it; only groups that straddle a block boundary take the generic path.
Expected<std::optional<SymbolInfo>>
CompactReader::lookupAddress(uint64_t Addr) const {
  if (Addr < Base)
    return std::nullopt;
  uint32_t B = findBlock(Addr);
  uint64_t A;
  DeltaReader D;
  if (Error E = blockHeader(B, D, A))
    return std::move(E);
  uint32_t FirstIdx = B << AddrBlockShift;
  uint32_t Count =
      std::min<uint64_t>(NumSyms - uint64_t(FirstIdx), 1u << AddrBlockShift);
  uint64_t Addrs[1u << AddrBlockShift];
  Addrs[0] = A;
  uint32_t Last = 0;
  uint32_t K = 1;
  for (; K < Count; ++K) {
    A += D.next();
    Addrs[K] = A;
    if (A > Addr)
      break;
    Last = K;
  }
  uint32_t First = Last;
  while (First > 0 && Addrs[First - 1] == Addrs[Last])
    --First;
  std::optional<uint64_t> SymSize;
  if (K < Count) {
    SymSize = Addrs[K] - Addrs[Last];
  } else if (B + 1 < NumAddrBlocks) {
    uint64_t Next = Base + blockRel(B + 1);
    if (Next == Addrs[Last])
      return SymbolReader::lookupAddress(Addr);
    if (Next < Addrs[Last])
      return corrupt("address blocks are not sorted");
    SymSize = Next - Addrs[Last];
  } else if (EndAddress && *EndAddress >= Addrs[Last]) {
    SymSize = *EndAddress - Addrs[Last];
  }
  if (First == 0 && B > 0) {
    Expected<uint64_t> Prev = address(FirstIdx - 1);
    if (!Prev)
      return Prev.takeError();
    if (*Prev == Addrs[Last])
      return SymbolReader::lookupAddress(Addr);
  }
  if (SymSize && Addr - Addrs[Last] >= *SymSize)
    return std::nullopt;
  Expected<SymbolInfo> Info =
      chooseCanonical(FirstIdx + First, FirstIdx + Last);
  if (!Info)
    return Info.takeError();
  Info->Address = Addrs[Last];
  Info->Size = SymSize;
  return std::optional<SymbolInfo>(std::move(*Info));
}

Expected<std::optional<uint32_t>>
CompactReader::findLastAtOrBelow(uint64_t Addr) const {
  if (Addr < Base)
    return std::nullopt;
  uint32_t Lo = findBlock(Addr);
  uint64_t A;
  DeltaReader D;
  if (Error E = blockHeader(Lo, D, A))
    return std::move(E);
  uint32_t First = Lo << AddrBlockShift;
  uint32_t Count =
      std::min<uint64_t>(NumSyms - uint64_t(First), 1u << AddrBlockShift);
  uint32_t Found = First;
  for (uint32_t K = 1; K < Count; ++K) {
    A += D.next();
    if (A > Addr)
      break;
    Found = First + K;
  }
  return std::optional<uint32_t>(Found);
}

Expected<uint32_t> CompactReader::inversePerm(uint32_t Slot) const {
  const uint8_t *Marks = Sec[SecInvMarks].Data;
  uint64_t Words = (uint64_t(NumSyms) + 63) / 64;
  const uint8_t *Ranks = Marks + Words * 8;
  uint32_t Z = Slot;
  bool Jumped = false;
  for (unsigned Step = 0; Step < 2 * InvStride + 2; ++Step) {
    Expected<uint32_t> Next = perm(Z);
    if (!Next)
      return Next.takeError();
    if (*Next == Slot)
      return Z;
    uint64_t W = read64le(Marks + (Z / 64) * 8);
    if (!Jumped && ((W >> (Z % 64)) & 1)) {
      // Rank of Z among the marks: superblock count plus the words before.
      uint64_t Rank = read32le(Ranks + (Z / 512) * 4);
      for (uint32_t K = (Z / 512) * 8; K < Z / 64; ++K)
        Rank += popcount(read64le(Marks + K * 8));
      Rank += popcount(W & ((uint64_t(1) << (Z % 64)) - 1));
      if (Rank >= NumMarks)
        return corrupt("back pointer rank out of range");
      uint64_t Back = readBits(Sec[SecInvBack].Data, Sec[SecInvBack].Size,
                               Rank * PermBits, PermBits);
      if (Back >= NumSyms)
        return corrupt("back pointer out of range");
      Z = Back;
      Jumped = true;
      continue;
    }
    Z = *Next;
  }
  return corrupt("permutation cycle of name slot " + Twine(Slot) +
                 " is not bounded by its back pointers");
}

Error CompactReader::decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Toks,
                                char &Type) const {
  uint32_t B = Slot >> NameBlockShift;
  Expected<NibbleReader> R = blockReader(B);
  if (!R)
    return R.takeError();
  uint32_t First = B << NameBlockShift;
  Toks.clear();
  size_t Shared;
  for (uint32_t S = First; S <= Slot; ++S)
    if (!readRecord(*R, S == First, Toks, Type, Shared))
      return badRecord(*R);
  return Error::success();
}

Expected<StringRef> CompactReader::moduleOf(uint32_t I) const {
  uint64_t NumRuns = Sec[SecModuleRuns].Size / 8;
  const uint8_t *R = Sec[SecModuleRuns].Data;
  uint64_t Lo = 0, Hi = NumRuns;
  while (Hi - Lo > 1) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (read32le(R + Mid * 8) <= I)
      Lo = Mid;
    else
      Hi = Mid;
  }
  uint32_t Id = read32le(R + Lo * 8 + 4);
  if (Id > NumModules)
    return corrupt("module id " + Twine(Id) + " out of range");
  return ModuleNames[Id];
}

Error CompactReader::describe(uint32_t I, SymbolInfo &Info) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  Expected<uint32_t> Slot = perm(I);
  if (!Slot)
    return Slot.takeError();
  SmallVector<uint32_t, 16> Toks;
  if (Error E = decodeName(*Slot, Toks, Info.Type))
    return E;
  Info.Name.clear();
  Tokens.expand(Toks, Info.Name);
  Expected<StringRef> M = moduleOf(I);
  if (!M)
    return M.takeError();
  Info.Module = M->str();
  Info.Index = I;
  return Error::success();
}

Expected<std::vector<SymbolInfo>>
CompactReader::lookupName(StringRef Name) const {
  std::vector<SymbolInfo> Result;
  SmallVector<uint32_t, 16> Toks;
  char Type;
  // First block whose first name is >= Name. Matches start in the block
  // before it, and run on into it only when its first name equals Name.
  uint32_t Lo = 0, Hi = NumNameBlocks;
  bool LoEqual = false;
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (Error E = decodeName(Mid << NameBlockShift, Toks, Type))
      return std::move(E);
    int C = Tokens.compare(Toks, Name);
    if (C < 0) {
      Lo = Mid + 1;
    } else {
      Hi = Mid;
      LoEqual = C == 0;
    }
  }
  uint32_t B = Lo ? Lo - 1 : 0;
  uint32_t Stop =
      LoEqual ? NumSyms
              : std::min<uint64_t>(NumSyms, uint64_t(Lo) << NameBlockShift);
  // Equality only, word by word; Matched counts the leading tokens of the
  // current record known to equal the leading words of Name, and survives
  // front coding so shared tokens are not compared again.
  SmallVector<StringRef, 16> Words;
  token::splitTokens(Name, Tokens.separators(), Words);
  std::vector<uint32_t> Slots;
  Toks.clear();
  std::optional<NibbleReader> R;
  size_t Matched = 0, Shared = 0;
  for (uint32_t S = B << NameBlockShift; S < Stop; ++S) {
    bool First = (S & ((1u << NameBlockShift) - 1)) == 0;
    if (First) {
      Expected<NibbleReader> BR = blockReader(S >> NameBlockShift);
      if (!BR)
        return BR.takeError();
      R = *BR;
      Matched = 0;
    }
    if (!readRecord(*R, First, Toks, Type, Shared))
      return badRecord(*R);
    Matched = std::min(Matched, Shared);
    while (Matched < Toks.size() && Matched < Words.size() &&
           Tokens.token(Toks[Matched]) == Words[Matched])
      ++Matched;
    bool Equal = Matched == Toks.size() && Matched == Words.size();
    if (Equal)
      Slots.push_back(S);
    else if (!Slots.empty())
      break; // equal names are contiguous
  }
  for (uint32_t S : Slots) {
    Expected<uint32_t> I = inversePerm(S);
    if (!I)
      return I.takeError();
    SymbolInfo Info;
    if (Error E = describe(*I, Info))
      return std::move(E);
    if (Error E = fillAddressAndSize(*I, Info))
      return std::move(E);
    Result.push_back(std::move(Info));
  }
  llvm::sort(Result, [](const SymbolInfo &A, const SymbolInfo &B) {
    return A.Index < B.Index;
  });
  return Result;
}
