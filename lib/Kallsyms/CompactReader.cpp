//===- CompactReader.cpp - Read the compact kernel symbol table in place --===//

#include "CompactLayout.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
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
  Error lookupNameInto(StringRef Name,
                       std::vector<SymbolInfo> &Out) const override;
  Expected<bool> lookupAddressInto(uint64_t Addr,
                                   SymbolInfo &Info) const override;
  Error fillAddressAndSize(uint32_t I, SymbolInfo &Info) const override;

private:
  static constexpr uint32_t BlockSyms = 1u << AddrBlockShift;
  Error init();
  uint32_t findBlock(uint64_t Addr) const;
  /// Decodes the addresses of address block B into Addrs in order, up to
  /// and including the first one above Stop, at most MaxCount of them;
  /// returns how many it wrote.
  Expected<uint32_t> decodeBlock(uint32_t B, uint64_t Stop,
                                 uint64_t Addrs[BlockSyms],
                                 uint32_t MaxCount = BlockSyms) const;
  /// Decodes name slot Slot: tokens, type. Walks from its block start.
  Error decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Tokens,
                   char &Type) const;
  /// decodeName for well-formed blocks away from the end of the section,
  /// without per-nibble checks; false sends the caller to decodeName's
  /// checked path (which reports what is wrong).
  bool decodeNameFast(uint32_t Slot, SmallVectorImpl<uint32_t> &Toks,
                      char &Type) const;
  /// Walks the first Records records of name block Block with the
  /// decoder of decodeNameFast, calling OnRecord(index in block, tokens,
  /// type, shared count) after each (EveryRecord) or only after the last;
  /// OnRecord returns false to stop early.
  /// False (before or after some calls) sends the caller to the checked
  /// path.
  template <bool EveryRecord, typename Fn>
  bool walkBlockFast(uint32_t Block, unsigned Records, Fn OnRecord) const;
  /// Compares the first name of name block Block with Name as memcmp
  /// would, decoding and comparing one token at a time (a binary search
  /// probe usually differs in its first token or two).
  Expected<int> compareBlockFirst(uint32_t Block, StringRef Name) const;
  /// Leading '_' bytes of the name made of Toks, without expanding it.
  unsigned leadingUnderscores(ArrayRef<uint32_t> Toks) const;
  /// Reads one name record at R, updating Toks in place (the first
  /// Shared tokens stay); false when the record is malformed.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool readRecord(NibbleReader &R, bool First,
                                               SmallVectorImpl<uint32_t> &Toks,
                                               char &Type,
                                               size_t &SharedOut) const {
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
    if (LLVM_LIKELY(TC < TypeExplicit)) {
      Type = TC == TypeLocalText ? 't' : 'T';
    } else if (TC == TypeExplicit) {
      uint32_t V = 0;
      if (!R.getN(2, V))
        return false;
      Type = char(V);
    } else {
      return false;
    }
    // New is bounded by the nibbles left, so this cannot blow up.
    Toks.resize_for_overwrite(Shared + New);
    SharedOut = Shared;
    uint32_t NumTok = Tokens.numTokens();
    uint32_t *Out = Toks.data() + Shared;
    for (uint64_t K = 0; K < New; ++K) {
      uint32_t Id;
      if (!IdCode.decode(R, Id) || Id >= NumTok)
        return false;
      Out[K] = Id;
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
  LLVM_ATTRIBUTE_ALWAYS_INLINE Expected<uint32_t> perm(uint32_t I) const {
    uint64_t V = readBits(Sec[SecPerm].Data, Sec[SecPerm].Size,
                          uint64_t(I) * PermBits, PermBits);
    if (LLVM_UNLIKELY(V >= NumSyms))
      return corrupt("permutation entry " + Twine(I) + " out of range");
    return uint32_t(V);
  }
  Expected<uint32_t> inversePerm(uint32_t Slot) const;
  Expected<StringRef> moduleOf(uint32_t I) const;
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
  /// Per first nibble of an id: what the nibble code adds to the value of
  /// the nibbles that follow (decodeNameFast).
  uint32_t IdAdd[16] = {};
  /// The record header table unpacked at open: shared count, new count
  /// and type code in bytes 0, 1, 2; entry ranks past the table give
  /// BadCombo, so the decoder needs no separate range check.
  static constexpr uint32_t BadCombo = 1u << 24;
  uint32_t ComboWords[256] = {};
  /// 8 bytes can be read from any byte of the permutation section, of
  /// the address index.
  bool PermSlack = false, IdxSlack = false;
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
  for (unsigned R = 0; R < 256; ++R)
    ComboWords[R] = BadCombo;
  for (unsigned N = 0; N < 16; ++N) {
    unsigned A = IdCode.A, AB = A + IdCode.B, ABC = AB + IdCode.C;
    IdAdd[N] = N < A     ? N
               : N < AB  ? IdCode.base2() + ((N - A) << 4)
               : N < ABC ? IdCode.base3() + ((N - AB) << 8)
               : N < 15  ? IdCode.base4() + ((N - ABC) << 12)
                         : IdCode.base7();
  }
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
  PermSlack =
      uint64_t(Sec[SecPerm].Data - P) + Sec[SecPerm].Size + 8 <= B.size();
  IdxSlack =
      uint64_t(Sec[SecAddrIndex].Data - P) + Sec[SecAddrIndex].Size + 8 <=
      B.size();
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
  for (uint32_t R = 0; R < NumCombos; ++R) {
    const uint8_t *C = Sec[SecCombos].Data + R * 3;
    ComboWords[R] = C[0] | (C[1] << 8) | (C[2] << 16);
  }
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

/// Reads Width (<= 57) bits at Bit without bounds checks; the caller has
/// checked that the 8 bytes from Bit / 8 lie inside the data.
static LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t
readBitsUnchecked(const uint8_t *Data, uint64_t Bit, unsigned Width) {
  uint64_t V = read64le(Data + (Bit >> 3));
  return (V >> (Bit & 7)) & ((uint64_t(1) << Width) - 1);
}

Expected<uint32_t> CompactReader::decodeBlock(uint32_t B, uint64_t Stop,
                                              uint64_t Addrs[BlockSyms],
                                              uint32_t MaxCount) const {
  const uint8_t *Idx = Sec[SecAddrIndex].Data;
  uint64_t IdxSize = Sec[SecAddrIndex].Size;
  uint64_t IdxBit = uint64_t(B) * (RelBits + AddrOffBits);
  uint64_t A = Base + readBits(Idx, IdxSize, IdxBit, RelBits);
  uint64_t Bit = readBits(Idx, IdxSize, IdxBit + RelBits, AddrOffBits);
  const uint8_t *Data = Sec[SecAddrData].Data;
  uint64_t Size = Sec[SecAddrData].Size;
  if (Bit + 18 > Size * 8)
    return corrupt("address block " + Twine(B) + " starts past its section");
  uint64_t Hdr = readBits(Data, Size, Bit, 18);
  unsigned Width = Hdr & 63, Shift = (Hdr >> 6) & 63, EscWidth = Hdr >> 12;
  if (Width > 57 || EscWidth > 57 || (EscWidth && !Width))
    return corrupt("address block " + Twine(B) + " is malformed");
  Bit += 18;
  uint32_t Count = std::min<uint64_t>(
      {NumSyms - (uint64_t(B) << AddrBlockShift), BlockSyms, MaxCount});
  uint64_t Esc = (uint64_t(1) << Width) - 1;
  Addrs[0] = A;
  if (A > Stop)
    return 1;
  // A block whose longest possible encoding ends 8 bytes before the end of
  // the section is read without bounds checks (almost all of them); reads
  // past the section in the last ones give zeros.
  uint64_t MaxEnd = Bit + uint64_t(Count - 1) * (Width + EscWidth);
  if ((MaxEnd >> 3) + 8 <= Size) {
    for (uint32_t K = 1; K < Count; ++K) {
      uint64_t D = readBitsUnchecked(Data, Bit, Width);
      Bit += Width;
      if (EscWidth && D == Esc) {
        D = readBitsUnchecked(Data, Bit, EscWidth);
        Bit += EscWidth;
      }
      A += D << Shift;
      Addrs[K] = A;
      if (A > Stop)
        return K + 1;
    }
    return Count;
  }
  for (uint32_t K = 1; K < Count; ++K) {
    uint64_t D = readBits(Data, Size, Bit, Width);
    Bit += Width;
    if (EscWidth && D == Esc) {
      D = readBits(Data, Size, Bit, EscWidth);
      Bit += EscWidth;
    }
    A += D << Shift;
    Addrs[K] = A;
    if (A > Stop)
      return K + 1;
  }
  return Count;
}

Expected<uint64_t> CompactReader::address(uint32_t I) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  uint64_t Addrs[BlockSyms];
  Expected<uint32_t> N = decodeBlock(I >> AddrBlockShift, UINT64_MAX, Addrs);
  if (!N)
    return N.takeError();
  return Addrs[I & (BlockSyms - 1)];
}

// Last block whose first address is <= Addr (which is >= Base), or block 0.
// Branch-free: the comparisons of a binary search are unpredictable.
uint32_t CompactReader::findBlock(uint64_t Addr) const {
  uint64_t Rel = Addr - Base;
  uint32_t Pos = 0, Len = NumAddrBlocks;
  if (IdxSlack) {
    const uint8_t *Idx = Sec[SecAddrIndex].Data;
    unsigned EW = RelBits + AddrOffBits, RB = RelBits;
    while (Len > 1) {
      uint32_t Half = Len / 2;
      uint64_t R = readBitsUnchecked(Idx, uint64_t(Pos + Half) * EW, RB);
      Pos = R <= Rel ? Pos + Half : Pos;
      Len -= Half;
    }
    return Pos;
  }
  while (Len > 1) {
    uint32_t Half = Len / 2;
    Pos = blockRel(Pos + Half) <= Rel ? Pos + Half : Pos;
    Len -= Half;
  }
  return Pos;
}

Error CompactReader::fillAddressAndSize(uint32_t I, SymbolInfo &Info) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  uint64_t Addrs[BlockSyms];
  uint32_t B = I >> AddrBlockShift;
  // Symbol I and the one after it usually suffice.
  Expected<uint32_t> N =
      decodeBlock(B, UINT64_MAX, Addrs, (I & (BlockSyms - 1)) + 2);
  if (!N)
    return N.takeError();
  uint64_t A = Addrs[I & (BlockSyms - 1)];
  if (*N == (I & (BlockSyms - 1)) + 2 && Addrs[*N - 1] == A) {
    N = decodeBlock(B, UINT64_MAX, Addrs);
    if (!N)
      return N.takeError();
  }
  Info.Address = A;
  Info.Index = I;
  Info.Size.reset();
  // The next distinct address: in this block, or the first one of a later
  // block that differs (aliases may run over block boundaries).
  for (uint32_t K = (I & (BlockSyms - 1)) + 1;; ++K) {
    if (K == *N) {
      if (++B >= NumAddrBlocks)
        break;
      if (Base + blockRel(B) != A) {
        uint64_t Next = Base + blockRel(B);
        if (Next < A)
          return corrupt("address blocks are not sorted");
        Info.Size = Next - A;
        return Error::success();
      }
      N = decodeBlock(B, UINT64_MAX, Addrs);
      if (!N)
        return N.takeError();
      K = 0;
    }
    if (Addrs[K] != A) {
      Info.Size = Addrs[K] - A;
      return Error::success();
    }
  }
  if (EndAddress && *EndAddress >= A)
    Info.Size = *EndAddress - A;
  return Error::success();
}

unsigned CompactReader::leadingUnderscores(ArrayRef<uint32_t> Toks) const {
  unsigned K = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    StringRef Tok = Tokens.token(Toks[I]);
    if (I && Tokens.joinsWithSeparator(Tok)) {
      if (Tokens.separators().Word != '_')
        return K;
      ++K;
    }
    size_t Lead = Tok.size() - Tok.ltrim('_').size();
    K += Lead;
    if (Lead < Tok.size())
      return K;
  }
  return K;
}

// One address block decoded once gives the symbol, its aliases and its
// size; names are decoded as token ids and only the answer is expanded.
// Alias groups that cross a block boundary (rare) take the generic path.
Expected<bool> CompactReader::lookupAddressInto(uint64_t Addr,
                                                SymbolInfo &Info) const {
  if (Addr < Base)
    return false;
  uint32_t B = findBlock(Addr);
  // The block's permutation entries (one or two cache lines) are needed
  // next: fetch them while the block decodes.
  {
    uint64_t Byte = (uint64_t(B) << AddrBlockShift) * PermBits / 8;
    if (Byte < Sec[SecPerm].Size) {
      __builtin_prefetch(Sec[SecPerm].Data + Byte);
      __builtin_prefetch(Sec[SecPerm].Data +
                         std::min<uint64_t>(Byte + 63, Sec[SecPerm].Size - 1));
    }
  }
  uint64_t Addrs[BlockSyms];
  Expected<uint32_t> NOr = decodeBlock(B, Addr, Addrs);
  if (!NOr)
    return NOr.takeError();
  uint32_t N = *NOr;
  if (Addrs[0] > Addr)
    return false; // only in a corrupt table
  // Decoding stopped past Addr, or at the end of the block.
  uint32_t Last = Addrs[N - 1] > Addr ? N - 2 : N - 1;
  uint64_t At = Addrs[Last];
  uint32_t First = Last;
  while (First > 0 && Addrs[First - 1] == At)
    --First;
  std::optional<uint64_t> SymSize;
  if (Last + 1 < N) {
    SymSize = Addrs[Last + 1] - At;
  } else if (B + 1 < NumAddrBlocks) {
    uint64_t Next = Base + blockRel(B + 1);
    if (Next == At)
      return lookupAddressGeneric(Addr, Info);
    if (Next < At)
      return corrupt("address blocks are not sorted");
    SymSize = Next - At;
  } else if (EndAddress && *EndAddress >= At) {
    SymSize = *EndAddress - At;
  }
  if (SymSize && Addr - At >= *SymSize)
    return false;
  uint32_t FirstIdx = B << AddrBlockShift;
  if (First == 0 && B > 0) {
    uint64_t Prev[BlockSyms];
    Expected<uint32_t> PN = decodeBlock(B - 1, UINT64_MAX, Prev);
    if (!PN)
      return PN.takeError();
    if (Prev[*PN - 1] == At)
      return lookupAddressGeneric(Addr, Info);
  }
  SmallVector<uint32_t, 32> Toks;
  char Type = 0;
  uint32_t Best = FirstIdx + First;
  Expected<uint32_t> Slot = perm(Best);
  if (!Slot)
    return Slot.takeError();
  if (Error E = decodeName(*Slot, Toks, Type))
    return std::move(E);
  if (First != Last) {
    // The canonical alias: global first, then fewest leading underscores,
    // then table order.
    SmallVector<uint32_t, 32> Cand;
    unsigned BestUnder = leadingUnderscores(Toks);
    for (uint32_t I = FirstIdx + First + 1; I <= FirstIdx + Last; ++I) {
      char CType;
      Expected<uint32_t> CSlot = perm(I);
      if (!CSlot)
        return CSlot.takeError();
      if (Error E = decodeName(*CSlot, Cand, CType))
        return std::move(E);
      bool CG = isUpper(CType), BG = isUpper(Type);
      if (CG != BG && !CG)
        continue;
      unsigned CUnder = leadingUnderscores(Cand);
      if (CG == BG && CUnder >= BestUnder)
        continue;
      Best = I;
      Type = CType;
      BestUnder = CUnder;
      Toks.swap(Cand);
    }
  }
  Expected<StringRef> M = moduleOf(Best);
  if (!M)
    return M.takeError();
  Info.Address = At;
  Info.Size = SymSize;
  Info.Type = Type;
  Info.Index = Best;
  Info.Name.clear();
  Tokens.expand(Toks, Info.Name);
  Info.Module.assign(M->data(), M->size());
  return true;
}

Expected<std::optional<uint32_t>>
CompactReader::findLastAtOrBelow(uint64_t Addr) const {
  if (Addr < Base)
    return std::nullopt;
  uint32_t B = findBlock(Addr);
  uint64_t Addrs[BlockSyms];
  Expected<uint32_t> N = decodeBlock(B, Addr, Addrs);
  if (!N)
    return N.takeError();
  if (Addrs[0] > Addr)
    return std::nullopt;
  uint32_t Last = Addrs[*N - 1] > Addr ? *N - 2 : *N - 1;
  return std::optional<uint32_t>((B << AddrBlockShift) + Last);
}

/// popcount without relying on the POPCNT instruction being enabled (the
/// generic build calls a library routine for it).
static LLVM_ATTRIBUTE_ALWAYS_INLINE unsigned countOnes(uint64_t V) {
  V = V - ((V >> 1) & 0x5555555555555555ULL);
  V = (V & 0x3333333333333333ULL) + ((V >> 2) & 0x3333333333333333ULL);
  V = (V + (V >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return unsigned((V * 0x0101010101010101ULL) >> 56);
}

Expected<uint32_t> CompactReader::inversePerm(uint32_t Slot) const {
  const uint8_t *Marks = Sec[SecInvMarks].Data;
  uint64_t Words = (uint64_t(NumSyms) + 63) / 64;
  const uint8_t *Ranks = Marks + Words * 8;
  const uint8_t *PermData = Sec[SecPerm].Data;
  uint64_t PermSize = Sec[SecPerm].Size;
  unsigned Bits = PermBits;
  uint32_t Z = Slot;
  bool Jumped = false;
  // Each step is one dependent read of the permutation: keep it short
  // (without bounds checks when 8 bytes can be read past the section's
  // end inside the file, as in every table we write).
  for (unsigned Step = 0; Step < 2 * InvStride + 2; ++Step) {
    uint64_t Next =
        PermSlack ? readBitsUnchecked(PermData, uint64_t(Z) * Bits, Bits)
                  : readBits(PermData, PermSize, uint64_t(Z) * Bits, Bits);
    if (LLVM_UNLIKELY(Next >= NumSyms))
      return corrupt("permutation entry " + Twine(Z) + " out of range");
    if (Next == Slot)
      return Z;
    uint64_t W = read64le(Marks + (Z / 64) * 8);
    if (LLVM_UNLIKELY(!Jumped && ((W >> (Z % 64)) & 1))) {
      // Rank of Z among the marks: superblock count plus the words before.
      uint64_t Rank = read32le(Ranks + (Z / 512) * 4);
      for (uint32_t K = (Z / 512) * 8; K < Z / 64; ++K)
        Rank += countOnes(read64le(Marks + K * 8));
      Rank += countOnes(W & ((uint64_t(1) << (Z % 64)) - 1));
      if (Rank >= NumMarks)
        return corrupt("back pointer rank out of range");
      uint64_t Back = readBits(Sec[SecInvBack].Data, Sec[SecInvBack].Size,
                               Rank * Bits, Bits);
      if (Back >= NumSyms)
        return corrupt("back pointer out of range");
      Z = Back;
      Jumped = true;
      continue;
    }
    Z = Next;
  }
  return corrupt("permutation cycle of name slot " + Twine(Slot) +
                 " is not bounded by its back pointers");
}

template <bool EveryRecord, typename Fn>
bool CompactReader::walkBlockFast(uint32_t Block, unsigned Records,
                                  Fn OnRecord) const {
  // Names of more tokens take the checked path.
  constexpr unsigned MaxTok = 64;
  const uint8_t *D = Sec[SecNameData].Data;
  uint64_t Size = Sec[SecNameData].Size;
  if (Size < 8)
    return false;
  // Any nibble position up to Limit can load 8 bytes.
  uint64_t Limit = (Size - 8) * 2;
  uint64_t Pos = readBits(Sec[SecNameIndex].Data, Sec[SecNameIndex].Size,
                          uint64_t(Block) * NameOffBits, NameOffBits);
  if (Pos > Limit)
    return false;
  uint32_t NumTok = Tokens.numTokens();
  unsigned A = IdCode.A, AB = A + IdCode.B, ABC = AB + IdCode.C;
  unsigned HOneL = HOne;
  uint32_t Buf[MaxTok + 1];
  // The next nibbles sit in W (Left of them). Each step decodes one item,
  // a record header or a token id, computing both and selecting, so the
  // only branches are the (rare) refill and escape: a branch on the item
  // kind or the id length would mispredict on most items.
  uint64_t W = read64le(D + (Pos >> 1)) >> ((Pos & 1) * 4);
  unsigned Left = 16 - unsigned(Pos & 1);
  unsigned Rem = 0, Len = 0, Rec = 0, TC = 0, Shared = 0;
  bool Bad = false;
  auto Done = [&] {
    return OnRecord(Rec - 1, ArrayRef<uint32_t>(Buf, Len),
                    TC == TypeLocalText ? 't' : 'T', Shared);
  };
  while (Rec < Records || Rem) {
    if (Left < 8) {
      if (Pos > Limit)
        return false;
      W = read64le(D + (Pos >> 1)) >> ((Pos & 1) * 4);
      Left = 16 - unsigned(Pos & 1);
    }
    unsigned N0 = W & 15, N1 = (W >> 4) & 15;
    bool Hdr = Rem == 0;
    // A record ends where the next header starts (the walk's callers that
    // need every record pay this branch; decodeNameFast's does not).
    if (EveryRecord && Hdr && Rec && !Done())
      return true;
    if (LLVM_UNLIKELY(Hdr && N0 == 15)) {
      // A spelled-out header: S and K as varints, then the type.
      auto Get = [&](unsigned &V) {
        if (Left == 0) {
          if (Pos > Limit)
            return false;
          W = read64le(D + (Pos >> 1)) >> ((Pos & 1) * 4);
          Left = 16 - unsigned(Pos & 1);
        }
        V = W & 15;
        W >>= 4;
        --Left;
        ++Pos;
        return true;
      };
      auto Varint = [&](uint64_t &V) {
        V = 0;
        for (unsigned Shift = 0; Shift < 36; Shift += 3) {
          unsigned X;
          if (!Get(X))
            return false;
          V |= uint64_t(X & 7) << Shift;
          if (!(X & 8))
            return true;
        }
        return false;
      };
      unsigned Esc, T;
      uint64_t Sh, Nw;
      if (!Get(Esc) || !Varint(Sh) || !Varint(Nw) || !Get(T) ||
          T >= TypeExplicit || Sh > Len || (Rec == 0 && Sh) || Sh + Nw > MaxTok)
        return false;
      Len = Sh;
      Rem = Nw;
      TC = T;
      Shared = Sh;
      ++Rec;
      continue;
    }
    // As a header: one or two nibbles naming a header table entry.
    unsigned Two = N0 >= HOneL;
    unsigned Rank = Two ? HOneL + (N0 - HOneL) * 16 + N1 : N0;
    uint32_t Combo = ComboWords[Rank & 255];
    unsigned Sh = Combo & 255, Nw = (Combo >> 8) & 255;
    // As an id: the first nibble gives the length; the next ones, most
    // significant first, are the top nibbles of the next 8 reversed.
    unsigned Extra = (N0 >= A) + (N0 >= AB) + (N0 >= ABC) + 3 * (N0 == 15);
    uint32_t X = llvm::byteswap(uint32_t(W >> 4));
    X = ((X & 0x0F0F0F0Fu) << 4) | ((X >> 4) & 0x0F0F0F0Fu);
    uint32_t Id = IdAdd[N0] + uint32_t(uint64_t(X) >> (32 - 4 * Extra));
    unsigned Used = Hdr ? 1 + Two : 1 + Extra;
    W >>= 4 * Used;
    Left -= Used;
    Pos += Used;
    Buf[Len] = Id;
    // Type codes other than t/T (and bad ranks) have bits above 17 set.
    Bad |=
        Hdr ? (Combo >> 17) || Sh > Len || (Rec == 0 && Sh) || Sh + Nw > MaxTok
            : Id >= NumTok;
    Len = Hdr ? Sh : Len + 1;
    Rem = Hdr ? Nw : Rem - 1;
    TC = Hdr ? (Combo >> 16) : TC;
    Shared = Hdr ? Sh : Shared;
    Rec += Hdr;
    if (LLVM_UNLIKELY(Bad))
      return false;
  }
  if (Rec)
    Done();
  return true;
}

bool CompactReader::decodeNameFast(uint32_t Slot,
                                   SmallVectorImpl<uint32_t> &Toks,
                                   char &Type) const {
  unsigned Records = (Slot & ((1u << NameBlockShift) - 1)) + 1;
  return walkBlockFast<false>(
      Slot >> NameBlockShift, Records,
      [&](unsigned, ArrayRef<uint32_t> T, char Ty, unsigned) {
        Toks.assign(T.begin(), T.end());
        Type = Ty;
        return true;
      });
}

Error CompactReader::decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Toks,
                                char &Type) const {
  if (LLVM_LIKELY(decodeNameFast(Slot, Toks, Type)))
    return Error::success();
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

Expected<int> CompactReader::compareBlockFirst(uint32_t Block,
                                               StringRef Name) const {
  Expected<NibbleReader> RO = blockReader(Block);
  if (!RO)
    return RO.takeError();
  NibbleReader &R = *RO;
  unsigned H;
  uint64_t New = 0;
  bool Ok = R.get(H);
  if (Ok && H < 15) {
    uint32_t Rank = H;
    unsigned Low = 0;
    if (H >= HOne) {
      Ok = R.get(Low);
      Rank = HOne + (H - HOne) * 16 + Low;
    }
    uint32_t Combo = Rank < 256 ? ComboWords[Rank] : BadCombo;
    // A block's first record shares nothing and is of type t or T here;
    // anything else goes through decodeName, which checks it.
    if (!Ok || (Combo & 255) || (Combo >> 17))
      Ok = false;
    New = (Combo >> 8) & 255;
  } else {
    Ok = false;
  }
  if (!Ok) {
    SmallVector<uint32_t, 32> Toks;
    char Type;
    if (Error E = decodeName(Block << NameBlockShift, Toks, Type))
      return std::move(E);
    return Tokens.compare(Toks, Name);
  }
  token::NameComparer Cmp(Name, Tokens.separators());
  for (uint64_t I = 0; I < New; ++I) {
    uint32_t Id;
    if (!IdCode.decode(R, Id) || Id >= Tokens.numTokens())
      return badRecord(R);
    if (int C = Cmp.feed(Tokens.token(Id), I == 0))
      return C;
  }
  return Cmp.finish();
}

Error CompactReader::lookupNameInto(StringRef Name,
                                    std::vector<SymbolInfo> &Out) const {
  SmallVector<uint32_t, 32> Toks;
  char Type;
  // First block whose first name is >= Name. Matches start in the block
  // before it, and run on into it only when its first name equals Name.
  uint32_t Lo = 0, Hi = NumNameBlocks;
  bool LoEqual = false;
  // Fetches the first record of name block B ahead of its comparison.
  auto Prefetch = [&](uint32_t B) {
    uint64_t Off = readBits(Sec[SecNameIndex].Data, Sec[SecNameIndex].Size,
                            uint64_t(B) * NameOffBits, NameOffBits);
    if (Off / 2 < Sec[SecNameData].Size)
      __builtin_prefetch(Sec[SecNameData].Data + Off / 2);
  };
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    // Both possible next probes, while this one is compared.
    Prefetch(Lo + (Mid - Lo) / 2);
    if (Mid + 1 < Hi)
      Prefetch(Mid + 1 + (Hi - Mid - 1) / 2);
    Expected<int> CO = compareBlockFirst(Mid, Name);
    if (!CO)
      return CO.takeError();
    int C = *CO;
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
  SmallVector<StringRef, 32> Words;
  token::splitTokens(Name, Tokens.separators(), Words);
  constexpr uint32_t NoId = UINT32_MAX;
  SmallVector<uint32_t, 32> WordIds(Words.size(), NoId);
  SmallVector<std::pair<uint32_t, char>, 4> Slots;
  // Matched counts the leading tokens of the current record known to equal
  // the leading words of Name; returns false once the matches are over.
  size_t Matched = 0;
  auto Visit = [&](uint32_t S, ArrayRef<uint32_t> T, char Ty, size_t Shared) {
    bool First = (S & ((1u << NameBlockShift) - 1)) == 0;
    if (First)
      Matched = 0;
    // Names are sorted: when this record shares more tokens than the
    // previous one matched, it repeats the previous one's mismatch (or
    // length excess) at token Matched, with no comparison.
    if (!First && Shared > Matched)
      return Slots.empty();
    Matched = std::min(Matched, Shared);
    // A word's id, once seen, turns the string comparisons of the later
    // records into integer ones (each token string has one id).
    while (Matched < T.size() && Matched < Words.size()) {
      uint32_t Id = T[Matched];
      if (WordIds[Matched] != NoId) {
        if (Id != WordIds[Matched])
          break;
      } else if (Tokens.token(Id) == Words[Matched]) {
        WordIds[Matched] = Id;
      } else {
        break;
      }
      ++Matched;
    }
    if (Matched == T.size() && Matched == Words.size())
      Slots.push_back({S, Ty});
    else if (!Slots.empty())
      return false; // equal names are contiguous
    return true;
  };
  bool Fast = true, Over = false;
  for (uint32_t Blk = B;
       Fast && !Over && (uint64_t(Blk) << NameBlockShift) < Stop; ++Blk) {
    uint32_t First = Blk << NameBlockShift;
    unsigned Count = std::min<uint64_t>(Stop - First, 1u << NameBlockShift);
    Fast = walkBlockFast<true>(
        Blk, Count,
        [&](unsigned Rec, ArrayRef<uint32_t> T, char Ty, unsigned Shared) {
          Over = !Visit(First + Rec, T, Ty, Shared);
          return !Over;
        });
  }
  if (!Fast) {
    // The checked decoder, from the start: it reports what is wrong.
    Slots.clear();
    Matched = 0;
    Toks.clear();
    NibbleReader R(nullptr, 0, 0);
    size_t Shared = 0;
    for (uint32_t S = B << NameBlockShift; S < Stop; ++S) {
      bool First = (S & ((1u << NameBlockShift) - 1)) == 0;
      if (First) {
        Expected<NibbleReader> BR = blockReader(S >> NameBlockShift);
        if (!BR)
          return BR.takeError();
        R = *BR;
      }
      if (!readRecord(R, First, Toks, Type, Shared))
        return badRecord(R);
      if (!Visit(S, Toks, Type, Shared))
        break;
    }
  }
  // The record gave the name and type already; no need to decode it again.
  Out.resize(Slots.size());
  for (size_t K = 0; K < Slots.size(); ++K) {
    Expected<uint32_t> I = inversePerm(Slots[K].first);
    if (!I)
      return I.takeError();
    SymbolInfo &Info = Out[K];
    Info.Name.assign(Name.data(), Name.size());
    Info.Type = Slots[K].second;
    Expected<StringRef> M = moduleOf(*I);
    if (!M)
      return M.takeError();
    Info.Module.assign(M->data(), M->size());
    if (Error E = fillAddressAndSize(*I, Info))
      return E;
  }
  if (Out.size() > 1)
    llvm::sort(Out, [](const SymbolInfo &A, const SymbolInfo &B) {
      return A.Index < B.Index;
    });
  return Error::success();
}
