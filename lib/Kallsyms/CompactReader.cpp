//===- CompactReader.cpp - Read the compact kernel symbol table in place --===//
//
// docs/Kallsyms.md is the specification. Every offset read from the file is
// checked before use; the hot paths check a whole block's extent once and
// then read without per-value bounds checks.
//
//===----------------------------------------------------------------------===//

#include "CompactLayout.h"
#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MathExtras.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DWARFPACK_KALLSYMS_VECTOR 1
#include <immintrin.h>
#else
#define DWARFPACK_KALLSYMS_VECTOR 0
#endif

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;
using namespace dwarfpack::kallsyms::compact;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace {

/// Whether the vector fast paths can run here: x86-64 with AVX2 and BMI2
/// (Haswell, Zen and later). Elsewhere the portable paths do the work.
bool hasVectorPaths() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

unsigned bitsNeeded(uint64_t V) { return V ? 64 - countl_zero(V) : 0; }

Error corrupt(const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "corrupt kernel symbol table: " + What);
}

struct Span {
  const uint8_t *Data = nullptr;
  uint64_t Size = 0;
};

constexpr uint64_t LaneOnes = 0x0101010101010101ULL;
constexpr uint64_t LowNibbles = 0x0F0F0F0F0F0F0F0FULL;

/// Per byte lane (values 0..15): 1 where the lane is >= C (C <= 16).
LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t lanesAtLeast(uint64_t X, unsigned C) {
  return ((X + (0x80 - C) * LaneOnes) >> 7) & LaneOnes;
}

/// Nibble I of a little-endian nibble array held in two words.
LLVM_ATTRIBUTE_ALWAYS_INLINE unsigned nibbleOf(const uint64_t W[2],
                                               unsigned I) {
  return (W[I >> 4] >> (4 * (I & 15))) & 15;
}

/// token::splitTokens in one pass over the bytes (a lookup splits the name
/// it looks for; the library's split is built on searches, slower on
/// short names).
void splitWords(StringRef Name, token::Separators Seps,
                SmallVectorImpl<StringRef> &Out) {
  const char *P = Name.data();
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = P[I];
    if (C == Seps.Word) {
      Out.push_back(StringRef(P + Start, I - Start));
      Start = I + 1;
    } else if (C == Seps.Sub && Seps.Sub) {
      // The sub-separator starts a token (an empty one before it at the
      // start of a word).
      Out.push_back(StringRef(P + Start, I - Start));
      Start = I;
    }
  }
  Out.push_back(StringRef(P + Start, Name.size() - Start));
}

/// A name block opened for reading: where its parts are (nibble positions
/// in the name data).
struct NameBlock {
  uint64_t Hdr[2];    // the record code nibbles
  uint64_t PlanePos;  // the type planes (byte offset in the name data)
  uint64_t EscPos;    // the escapes (byte offset)
  uint64_t FirstPos;  // the first id nibbles (nibble position)
  uint64_t EndPos;    // the block's end (its id tails end here)
  uint32_t Count;     // records
  bool SimpleEscapes; // one byte per escape
};

/// The headers of a name block's records. (Types are u32: stores through
/// a char pointer could alias anything and slow the decoding loop.)
struct RecordHeaders {
  uint32_t Shared[NameBlockRecords], New[NameBlockRecords];
  uint32_t IdStart[NameBlockRecords], Type[NameBlockRecords];
};

/// One record header, decoded.
struct RecordHeader {
  uint32_t Shared, New;
  char Type;
};

class CompactReader : public SymbolReader {
public:
  static Expected<std::unique_ptr<SymbolReader>>
  create(std::unique_ptr<MemoryBuffer> Buffer, ReaderOptions Options);

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
  Error initGuide();
  uint32_t findBlock(uint64_t Addr) const;
  uint32_t searchBlocks(uint64_t Rel, uint32_t Pos, uint32_t Len) const;
  /// Decodes the addresses of address block B into Addrs in order, up to
  /// and including the first one above Stop, at most MaxCount of them;
  /// returns how many it wrote.
  Expected<uint32_t> decodeBlock(uint32_t B, uint64_t Stop,
                                 uint64_t Addrs[BlockSyms],
                                 uint32_t MaxCount = BlockSyms) const;

  // Names.
  Error openNameBlock(uint32_t B, NameBlock &NB) const;
  /// Decodes the headers of the first Records records of NB, calling
  /// OnHeader(index, header, first id index) for each.
  template <typename Fn>
  Error forEachHeader(const NameBlock &NB, unsigned Records, Fn OnHeader,
                      uint64_t *EscEnd = nullptr) const;
  /// Index in TypeLetters of record J's type (not checked).
  unsigned typeIndex(const NameBlock &NB, unsigned J) const;
  /// The type letters of the first Records records into Types; nonzero
  /// when an index is past the type letters.
  uint32_t typesInto(const NameBlock &NB, unsigned Records,
                     uint32_t *Types) const;
  /// Decodes the headers of the first Records records of NB into the
  /// arrays: shared and new token counts, index of the first new id, type.
  Error readHeaders(const NameBlock &NB, unsigned Records,
                    RecordHeaders &H) const;
  /// Reads token ids of a block by their index among its ids.
  class IdReader;
  /// Decodes the tokens of record Rec of name block B, whose headers up
  /// to Rec are in H.
  Error decodeRecord(uint32_t B, const RecordHeaders &H, IdReader &Ids,
                     unsigned Rec, SmallVectorImpl<uint32_t> &Toks) const;
  /// Decodes name slot Slot: tokens, type.
  Error decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Tokens,
                   char &Type) const;
  /// decodeName through readHeaders and decodeRecord (the portable path,
  /// and where the vector path meets anything unusual).
  Error decodeNameGeneral(uint32_t B, unsigned Rec, const NameBlock &NB,
                          SmallVectorImpl<uint32_t> &Tokens, char &Type) const;
  /// decodeName with AVX2: all headers up to the record at once.
  Error decodeNameVector(uint32_t Slot, SmallVectorImpl<uint32_t> &Tokens,
                         char &Type) const;
  /// Every record's token count, shared count and first id, in record
  /// order, and the records whose counts are malformed (bit J).
  struct BlockCounts {
    alignas(32) uint8_t Len[NameBlockRecords];
    alignas(32) uint8_t Shared[NameBlockRecords];
    alignas(32) uint8_t First[NameBlockRecords];
    uint32_t Bad;
    /// With the ids: the first 64 ids' first nibbles (bytes), tail nibbles
    /// of ids 0 .. 2I+1 (PairEnd[I + 1]) and of id 2I (EvenLen[I]).
    alignas(32) uint8_t FB[32];
    alignas(32) uint16_t PairEnd[33];
    alignas(32) uint8_t EvenLen[33]; // [32] is 0: ids 0 .. 63 have 32 pairs
    /// Tail nibbles of ids 0 .. K-1 (K <= 64). Without a branch: which ids
    /// are odd is unpredictable.
    LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t tailsBefore(uint64_t K) const {
      return PairEnd[K / 2] + (EvenLen[K / 2] & (0 - unsigned(K & 1)));
    }
  };
  /// Id K (< 64) of block NB from the first nibbles and tail sums in BC,
  /// once the caller has checked that ids 0 .. K fit the block.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t idFromCounts(const BlockCounts &BC,
                                                     const NameBlock &NB,
                                                     uint64_t K) const {
    unsigned F = (BC.FB[K / 2] >> ((K & 1) * 4)) & 15;
    uint64_t Pos = NB.EndPos - BC.tailsBefore(K + 1);
    uint64_t W =
        read64le(Sec[SecNameData].Data + (Pos >> 1)) >> ((Pos & 1) * 4);
    return IdAdd[F] + uint32_t(W & IdTailMask[F]);
  }
  /// How many of the block's first Need ids idFromCounts may read: Need
  /// when they and their tails fit the block, else 0.
  LLVM_ATTRIBUTE_ALWAYS_INLINE static uint64_t
  idsFromCounts(const BlockCounts &BC, const NameBlock &NB, uint64_t Need) {
    return Need <= 64 && NB.FirstPos + Need <= NB.EndPos &&
                   BC.tailsBefore(Need) + NB.FirstPos + Need <= NB.EndPos
               ? Need
               : 0;
  }
  /// openNameBlock and the counts of all records of block B with AVX2;
  /// false when the block takes the general path (an escape spells a
  /// count out).
  Expected<bool> openNameBlockVector(uint32_t B, NameBlock &NB, BlockCounts &BC,
                                     bool WithIds = false) const;
  /// openNameBlock and readHeaders of the first Records records, with
  /// AVX2 when the reader may; without WithTypes, H.Type may be left unset
  /// (and the types unchecked). With Counts, *CountedIds of the block's
  /// first ids can be read by idFromCounts(*Counts, NB, K) (0 on the
  /// general path).
  Error readBlockHeaders(uint32_t B, unsigned Records, NameBlock &NB,
                         RecordHeaders &H, bool WithTypes = true,
                         BlockCounts *Counts = nullptr,
                         uint64_t *CountedIds = nullptr) const;
  /// Compares the first name of name block Block with Name as memcmp
  /// would, decoding and comparing one token at a time (a binary search
  /// probe usually differs in its first token or two).
  Expected<int> compareBlockFirst(uint32_t Block, StringRef Name) const;
  /// compareBlockFirst for a block whose escapes spell counts out.
  Expected<int> compareBlockFirstGeneral(uint32_t Block, const NameBlock &NB,
                                         StringRef Name) const;
  /// Leading '_' bytes of the name made of Toks, without expanding it.
  unsigned leadingUnderscores(ArrayRef<uint32_t> Toks) const;
  /// Replaces Out with the name made of Toks.
  void expand(ArrayRef<uint32_t> Toks, std::string &Out) const;
  uint64_t nameOffset(uint32_t B) const {
    return readBits(Sec[SecNameIndex].Data, Sec[SecNameIndex].Size,
                    uint64_t(B) * NameOffBits, NameOffBits);
  }
  Error badBlock(uint32_t B, const char *What) const {
    return corrupt("name block " + Twine(B) + ": " + What);
  }

  // Address lookups: one address block located without decoding it in
  // order (vector path) or with one early-exit pass (portable path).
  struct AddrBlock;
  struct BlockHit;
  /// Reads block B's index entry and header; false when they are corrupt
  /// (addrBlockError says how).
  bool openAddrBlock(uint32_t B, AddrBlock &AB) const;
  Error addrBlockError(uint32_t B) const;
  /// Where Addr falls in block AB.
  void locate(const AddrBlock &AB, uint64_t Addr, BlockHit &H) const;
  /// The block holding Addr (>= Base), opened into AB, and where Addr falls
  /// in it.
  Expected<uint32_t> locateAddress(uint64_t Addr, AddrBlock &AB,
                                   BlockHit &H) const;
  void locatePortable(const AddrBlock &AB, uint64_t Addr, BlockHit &H) const;
  bool locateVector(const AddrBlock &AB, uint64_t Addr, BlockHit &H) const;
  /// Per token id, where its bytes are: offset from TokenBase in bits
  /// 8-31, length in bits 0-5, bit 6 set when it starts with the
  /// sub-separator; LongSpan for a token that does not fit (expand() asks
  /// the token table for those). Built at open: one load per token instead
  /// of the table's sum of length nibbles.
  static constexpr uint32_t SpanLen = 63, SpanSub = 64, LongSpan = 128;
  std::vector<uint32_t> TokenSpans;
  const char *TokenBase = nullptr;
  void initTokenSpans();
  /// The text of token Id (< the table's token count), by its span.
  LLVM_ATTRIBUTE_ALWAYS_INLINE StringRef tokenText(uint32_t Id) const {
    uint32_t S = TokenSpans.empty() ? LongSpan : TokenSpans[Id];
    if (LLVM_UNLIKELY(S & LongSpan))
      return Tokens.token(Id);
    return StringRef(TokenBase + (S >> 8), S & SpanLen);
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
  /// Back-pointer stride T of the inverse.
  unsigned Stride = InvStride;
  uint64_t Base = 0;
  uint32_t NumModules = 0, NumMarks = 0;
  uint32_t NumAddrBlocks = 0, NumNameBlocks = 0;
  std::vector<StringRef> ModuleNames; // [0] is the core kernel
  NibbleIdCode IdCode;
  unsigned RelBits = 0, AddrOffBits = 0, NameOffBits = 0, GuideBits = 0;
  /// Per first nibble of an id: what the nibble code adds to the value of
  /// its tail, and a mask of the tail's nibbles.
  uint32_t IdAdd[16] = {};
  uint32_t IdTailMask[16] = {};
  /// Per first nibble of an id: its tail nibbles.
  alignas(16) uint8_t IdTailNibbles[16] = {};
  /// Per record code: its new and dropped token counts (the escape: 0),
  /// and both in one byte as an escape byte holds them.
  alignas(16) uint8_t CodeNew[16] = {}, CodeDropped[16] = {};
  uint8_t CodePacked[16] = {};
  /// Type planes per name block, and the type letters they index.
  unsigned TypeBits = 0;
  uint32_t NumTypes = 0;
  uint8_t TypeLetters[256] = {};
  /// The address guide (validated at open).
  struct Segment {
    uint64_t Start;
    uint32_t FirstEntry, NumEntries;
    unsigned Shift;
  };
  std::vector<Segment> Segments;
  const uint8_t *GuideEntries = nullptr;
  /// 8 bytes can be read from any byte of the permutation section, of
  /// the address index, of the guide entries.
  bool PermSlack = false, IdxSlack = false, GuideSlack = false;
  /// 16 bytes can be read from any byte of the token text.
  bool TokenSlack = false;
  /// The CPU has what the vector fast paths use (AVX2, BMI2), and the
  /// caller did not ask for the portable paths.
  bool Vector = false;
};

} // namespace

Expected<std::unique_ptr<SymbolReader>>
kallsyms::openCompact(std::unique_ptr<MemoryBuffer> Buffer,
                      ReaderOptions Options) {
  return CompactReader::create(std::move(Buffer), Options);
}

Expected<std::unique_ptr<SymbolReader>>
CompactReader::create(std::unique_ptr<MemoryBuffer> Buffer,
                      ReaderOptions Options) {
  std::unique_ptr<CompactReader> R(new CompactReader());
  R->Buffer = std::move(Buffer);
  R->Vector = !Options.Portable && hasVectorPaths();
  if (Error E = R->init())
    return std::move(E);
  return std::unique_ptr<SymbolReader>(std::move(R));
}

Error CompactReader::init() {
  StringRef B = Buffer->getBuffer();
  const uint8_t *P = B.bytes_begin();
  if (B.size() < HeaderSize || !isCompact(B))
    return corrupt("truncated header (" + Twine(B.size()) + " bytes)");
  // Tables are build products: an older one is rebuilt, not repaired.
  if (uint32_t V = read32le(P + 8); V != CompactVersion)
    return createStringError(
        inconvertibleErrorCode(),
        "kernel symbol table version " + Twine(V) +
            " is not supported (this dwarfpack reads version " +
            Twine(CompactVersion) + "): build the table again");
  uint32_t Flags = read32le(P + 12);
  NumSyms = read32le(P + 16);
  PermBits = read32le(P + 20);
  Base = read64le(P + 24);
  if (Flags & FlagHasEnd)
    EndAddress = read64le(P + 32);
  Stride = P[42];
  if (P[40] != AddrBlockShift || P[41] != NameBlockShift || Stride == 0 ||
      Stride > MaxInvStride)
    return corrupt("unsupported block sizes");
  NumModules = read32le(P + 44);
  NumMarks = read32le(P + 48);
  TypeBits = P[43];
  RelBits = P[60];
  AddrOffBits = P[61];
  NameOffBits = P[62];
  GuideBits = P[63];
  // Zero-width guide entries would let a few bytes claim billions of them,
  // each checked at open (the writer never writes fewer than 1 bit).
  if (RelBits > 32 || AddrOffBits > 32 || NameOffBits > 32 || GuideBits == 0 ||
      GuideBits > 32)
    return corrupt("bad index widths");
  IdCode = NibbleIdCode{P[52], P[53], P[54]};
  NumTypes = read32le(P + 56);
  if (!IdCode.valid() || NumTypes == 0 || NumTypes > 256 ||
      TypeBits != bitsNeeded(NumTypes - 1))
    return corrupt("bad name record codes");
  for (unsigned N = 0; N < 16; ++N) {
    unsigned A = IdCode.A, AB = A + IdCode.B, ABC = AB + IdCode.C;
    IdAdd[N] = N < A     ? N
               : N < AB  ? IdCode.base2() + ((N - A) << 4)
               : N < ABC ? IdCode.base3() + ((N - AB) << 8)
               : N < 15  ? IdCode.base4() + ((N - ABC) << 12)
                         : IdCode.base7();
    IdTailNibbles[N] = idTailLength(IdCode, N);
    IdTailMask[N] = (uint64_t(1) << (4 * IdTailNibbles[N])) - 1;
  }
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
  auto HasSlack = [&](unsigned S) {
    return uint64_t(Sec[S].Data - P) + Sec[S].Size + 8 <= B.size();
  };
  PermSlack = HasSlack(SecPerm);
  IdxSlack = HasSlack(SecAddrIndex);
  GuideSlack = HasSlack(SecGuide);
  Expected<token::TokenTable> T = token::TokenTable::create(
      StringRef(reinterpret_cast<const char *>(Sec[SecTokens].Data),
                Sec[SecTokens].Size));
  if (!T)
    return T.takeError();
  Tokens = *T;
  // A decoded (version 2) table has the padding in its own image; a view
  // reads on into the file.
  TokenSlack =
      Tokens.ownsText() ||
      uint64_t(Sec[SecTokens].Data - P) + Sec[SecTokens].Size + 16 <= B.size();
  initTokenSpans();

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
      {SecNameIndex, ((uint64_t(NumNameBlocks) + 1) * NameOffBits + 7) / 8},
      {SecModuleRuns, 8},
      {SecCombos, 2 * RecordCodes + uint64_t(NumTypes)},
      {SecGuide, 4},
      {SecNameKeys,
       ((uint64_t(NumNameBlocks) + (1u << NameKeyShift) - 1) >> NameKeyShift) *
           8},
  };
  for (auto &C : Checks)
    if (Sec[C.S].Size < C.Need)
      return corrupt("section " + Twine(C.S) + " has " + Twine(Sec[C.S].Size) +
                     " bytes, needs " + Twine(C.Need));
  for (unsigned C = 0; C < RecordCodes; ++C) {
    CodeNew[C] = Sec[SecCombos].Data[2 * C];
    CodeDropped[C] = Sec[SecCombos].Data[2 * C + 1];
    if (CodeNew[C] >= RecordCodes || CodeDropped[C] >= RecordCodes)
      return corrupt("bad name record code " + Twine(C));
    CodePacked[C] = CodeNew[C] | CodeDropped[C] << 4;
  }
  std::memcpy(TypeLetters, Sec[SecCombos].Data + 2 * RecordCodes, NumTypes);
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
  return initGuide();
}

Error CompactReader::initGuide() {
  const uint8_t *G = Sec[SecGuide].Data;
  uint64_t Size = Sec[SecGuide].Size;
  uint64_t NumSegs = read32le(G);
  if (NumSegs == 0 || NumSegs > (Size - 4) / 16)
    return corrupt("bad address guide");
  uint64_t EntriesAt = 4 + NumSegs * 16, Entries = 0;
  if (NumAddrBlocks > 1 && GuideBits < bitsNeeded(NumAddrBlocks - 1))
    return corrupt("bad address guide entry width");
  for (uint64_t S = 0; S < NumSegs; ++S) {
    const uint8_t *E = G + 4 + S * 16;
    Segment Seg{read32le(E), read32le(E + 4), read32le(E + 8),
                read32le(E + 12)};
    if (Seg.NumEntries == 0 || Seg.FirstEntry != Entries || Seg.Shift > 32 ||
        (S == 0 ? Seg.Start != 0 : Seg.Start <= Segments.back().Start))
      return corrupt("bad address guide segment " + Twine(S));
    Entries += Seg.NumEntries;
    Segments.push_back(Seg);
  }
  if ((Entries * GuideBits + 7) / 8 > Size - EntriesAt)
    return corrupt("address guide entries run past their section");
  GuideEntries = G + EntriesAt;
  for (uint64_t E = 0; E < Entries; ++E)
    if (readBits(GuideEntries, Size - EntriesAt, E * GuideBits, GuideBits) >=
        NumAddrBlocks)
      return corrupt("address guide entry " + Twine(E) + " out of range");
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
  uint64_t A, Bit;
  if (LLVM_LIKELY(IdxSlack)) {
    A = Base + readBitsUnchecked(Idx, IdxBit, RelBits);
    Bit = readBitsUnchecked(Idx, IdxBit + RelBits, AddrOffBits);
  } else {
    A = Base + readBits(Idx, IdxSize, IdxBit, RelBits);
    Bit = readBits(Idx, IdxSize, IdxBit + RelBits, AddrOffBits);
  }
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
  uint32_t AllCount =
      std::min<uint64_t>(NumSyms - (uint64_t(B) << AddrBlockShift), BlockSyms);
  uint64_t Esc = (uint64_t(1) << Width) - 1;
  Addrs[0] = A;
  if (A > Stop)
    return 1;
  // The narrow fields sit at fixed places; escaped deltas follow them in
  // order. A block whose longest possible encoding ends 8 bytes before the
  // end of the section is read without bounds checks (almost all of them).
  uint64_t EscBit = Bit + uint64_t(AllCount - 1) * Width;
  uint64_t MaxEnd = EscBit + uint64_t(AllCount - 1) * EscWidth;
  if ((MaxEnd >> 3) + 8 <= Size) {
    for (uint32_t K = 1; K < Count; ++K) {
      uint64_t D = readBitsUnchecked(Data, Bit, Width);
      uint64_t E = readBitsUnchecked(Data, EscBit, EscWidth);
      Bit += Width;
      bool IsEsc = EscWidth && D == Esc;
      D = IsEsc ? E : D;
      EscBit += IsEsc ? EscWidth : 0;
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
      D = readBits(Data, Size, EscBit, EscWidth);
      EscBit += EscWidth;
    }
    A += D << Shift;
    Addrs[K] = A;
    if (A > Stop)
      return K + 1;
  }
  return Count;
}

/// An address block opened for a lookup: its header and where its parts
/// are (bit positions in the address data).
struct CompactReader::AddrBlock {
  uint64_t First;  // the first symbol's address
  uint64_t Bit;    // the first narrow field
  uint64_t EscBit; // the first escaped value
  uint32_t Count;  // symbols
  unsigned Width, Shift, EscWidth;
  /// 16 bytes can be read from the byte of any field, narrow or escaped
  /// (they lie inside the file): no bounds checks per field.
  bool Unchecked;
};

/// Where an address falls in an address block (symbol indexes in the
/// block). Meaningful when !Below.
struct CompactReader::BlockHit {
  uint64_t At;    // address of symbol Last
  uint64_t Next;  // address of symbol Last + 1, when Last + 1 < Count
  uint32_t Last;  // the last symbol whose address is at most the address
  uint32_t First; // the first symbol of Last's alias group in the block
  bool Below;     // the address is below the block's first symbol
};

LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CompactReader::openAddrBlock(uint32_t B, AddrBlock &AB) const {
  const uint8_t *Idx = Sec[SecAddrIndex].Data;
  uint64_t IdxBit = uint64_t(B) * (RelBits + AddrOffBits);
  uint64_t Bit;
  if (LLVM_LIKELY(IdxSlack)) {
    AB.First = Base + readBitsUnchecked(Idx, IdxBit, RelBits);
    Bit = readBitsUnchecked(Idx, IdxBit + RelBits, AddrOffBits);
  } else {
    uint64_t IdxSize = Sec[SecAddrIndex].Size;
    AB.First = Base + readBits(Idx, IdxSize, IdxBit, RelBits);
    Bit = readBits(Idx, IdxSize, IdxBit + RelBits, AddrOffBits);
  }
  const uint8_t *Data = Sec[SecAddrData].Data;
  uint64_t Size = Sec[SecAddrData].Size;
  if (LLVM_UNLIKELY(Bit + 18 > Size * 8))
    return false;
  // Every read of a block lies within MaxBlockReach bytes of its first
  // byte: 16-byte loads from the byte of narrow field 28 or escaped value
  // 35 at most (the vector path reads past the last ones into unused
  // lanes), 8-byte ones from any field (portable path), all at most 57
  // bits wide: (18 + 31 * 57 + 35 * 57) / 8 + 1 + 16 <= 512.
  constexpr uint64_t MaxBlockReach = 512;
  uint64_t Avail = uint64_t(
      reinterpret_cast<const uint8_t *>(Buffer->getBufferEnd()) - Data);
  AB.Unchecked = (Bit >> 3) + MaxBlockReach <= Avail;
  uint64_t Hdr = AB.Unchecked ? readBitsUnchecked(Data, Bit, 18)
                              : readBits(Data, Size, Bit, 18);
  unsigned Width = Hdr & 63, EscWidth = Hdr >> 12;
  if (LLVM_UNLIKELY(Width > 57 || EscWidth > 57 || (EscWidth && !Width)))
    return false;
  AB.Width = Width;
  AB.Shift = (Hdr >> 6) & 63;
  AB.EscWidth = EscWidth;
  AB.Bit = Bit + 18;
  AB.Count =
      std::min<uint64_t>(NumSyms - (uint64_t(B) << AddrBlockShift), BlockSyms);
  AB.EscBit = AB.Bit + uint64_t(AB.Count - 1) * Width;
  return true;
}

Error CompactReader::addrBlockError(uint32_t B) const {
  uint64_t Bit =
      readBits(Sec[SecAddrIndex].Data, Sec[SecAddrIndex].Size,
               uint64_t(B) * (RelBits + AddrOffBits) + RelBits, AddrOffBits);
  if (Bit + 18 > Sec[SecAddrData].Size * 8)
    return corrupt("address block " + Twine(B) + " starts past its section");
  return corrupt("address block " + Twine(B) + " is malformed");
}

// The early-exit decode: addresses in order up to the first one past
// Addr; an alias keeps the start of its group.
void CompactReader::locatePortable(const AddrBlock &AB, uint64_t Addr,
                                   BlockHit &H) const {
  H.Below = AB.First > Addr;
  const uint8_t *Data = Sec[SecAddrData].Data;
  uint64_t Size = Sec[SecAddrData].Size;
  unsigned Width = AB.Width, Shift = AB.Shift, EscWidth = AB.EscWidth;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t EscMask = (uint64_t(1) << EscWidth) - 1;
  // No field equals Esc when the block has no escapes (fields < 2^57).
  uint64_t Esc = EscWidth ? Mask : ~uint64_t(0);
  uint64_t Bit = AB.Bit, EscBit = AB.EscBit;
  uint32_t First = 0, K = 1, Count = AB.Count;
  if (LLVM_LIKELY(AB.Unchecked && !H.Below)) {
    // Sums of unshifted deltas against the address's offset, unshifted:
    // the same order as the addresses while First + (Sum << Shift) does
    // not wrap, and the loop stops at Limit, past which it might.
    uint64_t Limit =
        std::min((UINT64_MAX - AB.First) >> Shift, UINT64_MAX >> Shift);
    uint64_t Stop = std::min((Addr - AB.First) >> Shift, Limit);
    uint64_t Sum = 0, Prev = 0;
    for (; K < Count; ++K) {
      uint64_t D = (read64le(Data + (Bit >> 3)) >> (Bit & 7)) & Mask;
      Bit += Width;
      // A branch: as fast here as selecting with masks (measured), and
      // fewer instructions.
      if (D == Esc) {
        D = (read64le(Data + (EscBit >> 3)) >> (EscBit & 7)) & EscMask;
        EscBit += EscWidth;
      }
      Sum += D; // at most 31 values below 2^57: no overflow
      if (Sum > Stop)
        break;
      First = D ? K : First;
      Prev = Sum;
    }
    if (LLVM_LIKELY(Sum <= Limit)) {
      H.Last = K - 1;
      H.First = First;
      H.At = AB.First + (Prev << Shift);
      H.Next = AB.First + (Sum << Shift);
      return;
    }
    // Addresses that wrap (a corrupt table): the checked loop below.
    Bit = AB.Bit;
    EscBit = AB.EscBit;
    First = 0;
    K = 1;
  }
  uint64_t A = AB.First, Next = 0;
  for (; K < Count; ++K) {
    uint64_t D = readBits(Data, Size, Bit, Width);
    Bit += Width;
    if (D == Esc) {
      D = readBits(Data, Size, EscBit, EscWidth);
      EscBit += EscWidth;
    }
    Next = A + (D << Shift);
    if (Next > Addr)
      break;
    First = D ? K : First;
    A = Next;
  }
  H.Last = K - 1;
  H.First = First;
  H.At = A;
  H.Next = Next;
}

#if DWARFPACK_KALLSYMS_VECTOR
#define DWARFPACK_AVX2 __attribute__((target("avx2,bmi2")))
namespace {
/// Inclusive prefix sums of the 8 u32 lanes.
DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE __m256i prefixSum8(__m256i X) {
  X = _mm256_add_epi32(X, _mm256_slli_si256(X, 4));
  X = _mm256_add_epi32(X, _mm256_slli_si256(X, 8));
  // Lane 3 of the low half, added to every lane of the high half.
  __m256i T = _mm256_shuffle_epi32(X, 0xFF);
  return _mm256_add_epi32(X, _mm256_permute2x128_si256(T, T, 0x08));
}

/// Four masks of 32-bit lanes (all ones or zero) as one of bytes, lanes in
/// the order 0-3 of each mask, then 4-7 of each (two in-lane packs).
DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE __m256i
packMasks(const __m256i M[4]) {
  return _mm256_packs_epi16(_mm256_packs_epi32(M[0], M[1]),
                            _mm256_packs_epi32(M[2], M[3]));
}

/// Cuts groups of 8 consecutive Width-bit fields (Width <= 25) out of a
/// bit stream whose first field starts Phase bits into a byte: lane i at
/// bit Phase + i * Width. The byte shuffle and shifts depend on Width and
/// Phase only, so one cutter serves every group of a stream (groups of 8
/// fields start 8 * Width bits, a whole number of bytes, apart).
struct FieldCutter {
  __m256i Ctrl, Shifts, Mask;
  unsigned HiByte; // the byte of field 4, where the high half loads

  DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE FieldCutter(unsigned Width,
                                                          unsigned Phase) {
    const __m256i ByteOfLane =
        _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 0,
                         0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
    __m256i Off = _mm256_add_epi32(
        _mm256_set1_epi32(int(Phase)),
        _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                           _mm256_set1_epi32(int(Width))));
    __m256i Byte = _mm256_srli_epi32(Off, 3);
    // Each lane's 4 bytes, counted from the byte of lane 0 of its half.
    __m256i Rel = _mm256_sub_epi32(Byte, _mm256_shuffle_epi32(Byte, 0));
    Ctrl = _mm256_add_epi32(_mm256_shuffle_epi8(Rel, ByteOfLane),
                            _mm256_set1_epi32(0x03020100));
    Shifts = _mm256_and_si256(Off, _mm256_set1_epi32(7));
    Mask = _mm256_set1_epi32(int((1u << Width) - 1));
    HiByte = (Phase + 4 * Width) >> 3;
  }
  /// The 8 fields whose first one starts in byte P.
  DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE __m256i
  cut(const uint8_t *P) const {
    __m256i Raw =
        _mm256_loadu2_m128i(reinterpret_cast<const __m128i *>(P + HiByte),
                            reinterpret_cast<const __m128i *>(P));
    return _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_shuffle_epi8(Raw, Ctrl), Shifts), Mask);
  }
};

/// Per 8-bit mask, the count of set bits up to and including bit i in
/// nibble i.
struct PrefixCountTable {
  uint32_t V[256];
  constexpr PrefixCountTable() : V() {
    for (unsigned M = 0; M < 256; ++M) {
      unsigned C = 0;
      for (unsigned I = 0; I < 8; ++I) {
        C += (M >> I) & 1;
        V[M] |= C << (4 * I);
      }
    }
  }
};
constexpr PrefixCountTable PrefixCounts;
} // namespace

// All 31 deltas at once, 8 per register: fields cut out of 16-byte loads
// by a byte shuffle and a shift per lane; all escaped values cut out the
// same way, and each escaped field takes its own by a permute (its rank
// from a table of prefix counts of the group's escape mask). Then prefix
// sums, compared with the address. Sums are exact in 32 bits (widths
// <= 25); a block whose addresses would wrap takes the portable path.
DWARFPACK_AVX2 bool CompactReader::locateVector(const AddrBlock &AB,
                                                uint64_t Addr,
                                                BlockHit &H) const {
  unsigned Width = AB.Width, Shift = AB.Shift, EscWidth = AB.EscWidth;
  if (LLVM_UNLIKELY(!AB.Unchecked || Width > 25 || EscWidth > 25))
    return false;
  if (Addr < AB.First) {
    H.Below = true;
    return true;
  }
  const uint8_t *Data = Sec[SecAddrData].Data;
  uint32_t Fields = AB.Count - 1;
  uint64_t Q64 = (Addr - AB.First) >> Shift;
  __m256i Q = _mm256_set1_epi32(int(std::min<uint64_t>(Q64, UINT32_MAX)));
  const __m256i Lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i Seven = _mm256_set1_epi32(7);
  __m256i NumFields = _mm256_set1_epi32(int(Fields));
  FieldCutter Narrow(Width, AB.Bit & 7);
  const uint8_t *P = Data + (AB.Bit >> 3);
  __m256i F[4], Valid[4];
#pragma GCC unroll 4
  for (unsigned G = 0; G < 4; ++G) {
    F[G] = Narrow.cut(P + G * Width);
    Valid[G] = _mm256_cmpgt_epi32(
        NumFields, _mm256_add_epi32(Lane, _mm256_set1_epi32(int(8 * G))));
  }
  if (EscWidth) {
    FieldCutter Wide(EscWidth, AB.EscBit & 7);
    const uint8_t *E = Data + (AB.EscBit >> 3);
    // Escaped values 8k .. 8k + 7 in Es[k]; Es[4] for the reads past them.
    __m256i Es[5];
#pragma GCC unroll 4
    for (unsigned K = 0; K < 4; ++K)
      Es[K] = Wide.cut(E + K * EscWidth);
    Es[4] = _mm256_setzero_si256();
    const __m256i NibbleShifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    unsigned Before = 0;
#pragma GCC unroll 4
    for (unsigned G = 0; G < 4; ++G) {
      __m256i IsEsc =
          _mm256_and_si256(_mm256_cmpeq_epi32(F[G], Narrow.Mask), Valid[G]);
      unsigned M = _mm256_movemask_ps(_mm256_castsi256_ps(IsEsc));
      // Index of each lane's escaped value counted from Es[Before / 8].
      __m256i Idx = _mm256_add_epi32(
          _mm256_and_si256(
              _mm256_srlv_epi32(_mm256_set1_epi32(int(PrefixCounts.V[M])),
                                NibbleShifts),
              _mm256_set1_epi32(15)),
          _mm256_set1_epi32(int(Before & 7) - 1));
      unsigned K = Before >> 3;
      __m256i V =
          _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(Es[K], Idx),
                             _mm256_permutevar8x32_epi32(Es[K + 1], Idx),
                             _mm256_cmpgt_epi32(Idx, Seven));
      F[G] = _mm256_blendv_epi8(F[G], V, IsEsc);
      Before += llvm::popcount(M);
    }
  }
  alignas(32) uint32_t Sums[32];
  __m256i AtMost[4], Z[4], Pre[4], GroupSum[4];
  // Each group's prefix sums and total side by side, then the totals of
  // the groups before each: a short chain, where carrying one group's
  // total into the next made four prefix sums wait on one another.
#pragma GCC unroll 4
  for (unsigned G = 0; G < 4; ++G) {
    // Lanes past the last field add nothing: their sums stay the total.
    __m256i D = _mm256_and_si256(F[G], Valid[G]);
    Pre[G] = prefixSum8(D);
    GroupSum[G] = _mm256_permutevar8x32_epi32(Pre[G], Seven);
    Z[G] = _mm256_cmpeq_epi32(D, _mm256_setzero_si256());
  }
  __m256i Before01 = _mm256_add_epi32(GroupSum[0], GroupSum[1]);
  __m256i Before[4] = {_mm256_setzero_si256(), GroupSum[0], Before01,
                       _mm256_add_epi32(Before01, GroupSum[2])};
#pragma GCC unroll 4
  for (unsigned G = 0; G < 4; ++G) {
    Pre[G] = _mm256_add_epi32(Pre[G], Before[G]);
    _mm256_store_si256(reinterpret_cast<__m256i *>(Sums + 8 * G), Pre[G]);
    AtMost[G] = _mm256_cmpeq_epi32(_mm256_min_epu32(Pre[G], Q), Pre[G]);
  }
  __m256i Carry = _mm256_add_epi32(Before[3], GroupSum[3]);
  // The four masks of 32-bit lanes as one of bytes: two packs give the
  // lanes in the order 0-3 of each group, then 4-7 of each group; the
  // count needs no order, the zero mask is put back in order.
  uint32_t LE = _mm256_movemask_epi8(packMasks(AtMost));
  uint32_t Zero = _mm256_movemask_epi8(_mm256_permutevar8x32_epi32(
      packMasks(Z), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
  // Offsets of symbols 1 .. Fields are Sums[0 .. Fields - 1].
  // (The last carry holds the total: lanes past the last field add 0.)
  uint64_t Total = uint32_t(_mm256_cvtsi256_si32(Carry));
  if (LLVM_UNLIKELY((Total << Shift) >> Shift != Total ||
                    AB.First + (Total << Shift) < AB.First))
    return false;
  // The sums do not decrease: the symbols at or below Addr are a prefix
  // (past the last field, all lanes or none).
  uint32_t Last = std::min<uint32_t>(llvm::popcount(LE), Fields);
  H.Below = false;
  H.Last = Last;
  H.At = AB.First + (uint64_t(Last ? Sums[Last - 1] : 0) << Shift);
  H.Next = AB.First + (uint64_t(Sums[Last & 31]) << Shift);
  // The group starts after the last non-zero delta before Last.
  H.First = llvm::bit_width(~Zero & ((uint64_t(1) << Last) - 1));
  return true;
}
#endif

void CompactReader::locate(const AddrBlock &AB, uint64_t Addr,
                           BlockHit &H) const {
#if DWARFPACK_KALLSYMS_VECTOR
  if (Vector && locateVector(AB, Addr, H))
    return;
#endif
  locatePortable(AB, Addr, H);
}

Expected<uint64_t> CompactReader::address(uint32_t I) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  uint64_t Addrs[BlockSyms];
  Expected<uint32_t> N = decodeBlock(I >> AddrBlockShift, UINT64_MAX, Addrs,
                                     (I & (BlockSyms - 1)) + 1);
  if (!N)
    return N.takeError();
  return Addrs[I & (BlockSyms - 1)];
}

// Last block in [Pos, Pos + Len) whose first address is <= Rel, or Pos.
// Branch-free: the comparisons of a binary search are unpredictable.
uint32_t CompactReader::searchBlocks(uint64_t Rel, uint32_t Pos,
                                     uint32_t Len) const {
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

// Last block whose first address is <= Addr (which is >= Base), or block 0.
// The guide entry for Addr and the next one bound it (the next entry is
// the last block starting at or below an address past Addr); usually they
// are the same block or neighbours, and a branch-free binary search
// between them finishes.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t
CompactReader::findBlock(uint64_t Addr) const {
  uint64_t Rel = Addr - Base;
  const Segment *Seg = &Segments.back();
  while (Seg != Segments.data() && Seg->Start > Rel)
    --Seg;
  uint64_t G = std::min<uint64_t>((Rel - Seg->Start) >> Seg->Shift,
                                  Seg->NumEntries - 1) +
               Seg->FirstEntry;
  bool HasNext =
      G + 1 < Segments.back().FirstEntry + uint64_t(Segments.back().NumEntries);
  if (LLVM_LIKELY(GuideSlack && IdxSlack)) {
    uint32_t Lo = readBitsUnchecked(GuideEntries, G * GuideBits, GuideBits);
    uint32_t Hi = HasNext ? readBitsUnchecked(GuideEntries, (G + 1) * GuideBits,
                                              GuideBits)
                          : NumAddrBlocks - 1;
    const uint8_t *Idx = Sec[SecAddrIndex].Data;
    unsigned EW = RelBits + AddrOffBits, RB = RelBits;
    // Entries were checked against NumAddrBlocks at open.
    if (LLVM_UNLIKELY(Hi < Lo ||
                      readBitsUnchecked(Idx, uint64_t(Lo) * EW, RB) > Rel))
      return searchBlocks(Rel, 0, NumAddrBlocks); // only in a corrupt table
    for (uint32_t Len = Hi - Lo + 1; Len > 1;) {
      uint32_t Half = Len / 2;
      uint64_t R = readBitsUnchecked(Idx, uint64_t(Lo + Half) * EW, RB);
      Lo = R <= Rel ? Lo + Half : Lo;
      Len -= Half;
    }
    return Lo;
  }
  uint64_t Size = Sec[SecGuide].Size - (GuideEntries - Sec[SecGuide].Data);
  uint32_t Lo = readBits(GuideEntries, Size, G * GuideBits, GuideBits);
  uint32_t Hi =
      HasNext ? readBits(GuideEntries, Size, (G + 1) * GuideBits, GuideBits)
              : NumAddrBlocks - 1;
  if (Hi < Lo || blockRel(Lo) > Rel)
    return searchBlocks(Rel, 0, NumAddrBlocks);
  return searchBlocks(Rel, Lo, Hi - Lo + 1);
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
    StringRef Tok = tokenText(Toks[I]);
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
Expected<uint32_t> CompactReader::locateAddress(uint64_t Addr, AddrBlock &AB,
                                                BlockHit &H) const {
  uint32_t B = findBlock(Addr);
  // The block's permutation entries (one or two cache lines) are needed
  // next: fetch them while the block decodes.
  uint64_t Byte = (uint64_t(B) << AddrBlockShift) * PermBits / 8;
  if (Byte < Sec[SecPerm].Size) {
    __builtin_prefetch(Sec[SecPerm].Data + Byte);
    __builtin_prefetch(Sec[SecPerm].Data +
                       std::min<uint64_t>(Byte + 63, Sec[SecPerm].Size - 1));
  }
  if (LLVM_UNLIKELY(!openAddrBlock(B, AB)))
    return addrBlockError(B);
  locate(AB, Addr, H);
  return B;
}

Expected<bool> CompactReader::lookupAddressInto(uint64_t Addr,
                                                SymbolInfo &Info) const {
  if (Addr < Base)
    return false;
  AddrBlock AB;
  BlockHit H;
  Expected<uint32_t> BOr = locateAddress(Addr, AB, H);
  if (LLVM_UNLIKELY(!BOr))
    return BOr.takeError();
  uint32_t B = *BOr;
  if (H.Below)
    return false; // only in a corrupt table
  uint32_t Last = H.Last, First = H.First;
  uint64_t At = H.At;
  // The size as a plain value and flag: an optional built here and copied
  // into Info makes a 16-byte load of two smaller stores (a stall).
  uint64_t SymSize = 0;
  bool HasSize = true;
  if (Last + 1 < AB.Count) {
    SymSize = H.Next - At;
  } else if (B + 1 < NumAddrBlocks) {
    uint64_t Next = Base + blockRel(B + 1);
    if (Next == At)
      return lookupAddressGeneric(Addr, Info);
    if (Next < At)
      return corrupt("address blocks are not sorted");
    SymSize = Next - At;
  } else if (EndAddress && *EndAddress >= At) {
    SymSize = *EndAddress - At;
  } else {
    HasSize = false;
  }
  if (HasSize && Addr - At >= SymSize)
    return false;
  uint32_t FirstIdx = B << AddrBlockShift;
  if (First == 0 && B > 0) {
    // The group may start in the previous block: compare its last address.
    AddrBlock PB;
    if (LLVM_UNLIKELY(!openAddrBlock(B - 1, PB)))
      return addrBlockError(B - 1);
    BlockHit PH;
    locate(PB, UINT64_MAX, PH);
    if (PH.At == At)
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
  if (HasSize)
    Info.Size = SymSize;
  else
    Info.Size.reset();
  Info.Type = Type;
  Info.Index = Best;
  expand(Toks, Info.Name);
  if (M->empty())
    Info.Module.clear(); // inline, unlike assign
  else
    Info.Module.assign(M->data(), M->size());
  return true;
}

Expected<std::optional<uint32_t>>
CompactReader::findLastAtOrBelow(uint64_t Addr) const {
  if (Addr < Base)
    return std::nullopt;
  AddrBlock AB;
  BlockHit H;
  Expected<uint32_t> B = locateAddress(Addr, AB, H);
  if (!B)
    return B.takeError();
  if (H.Below)
    return std::nullopt;
  return std::optional<uint32_t>((*B << AddrBlockShift) + H.Last);
}

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
  for (unsigned Step = 0; Step < 2 * Stride + 2; ++Step) {
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

void CompactReader::initTokenSpans() {
  uint32_t N = Tokens.numTokens();
  if (!N)
    return;
  TokenBase = Tokens.token(0).data();
  char Sub = Tokens.separators().Sub;
  TokenSpans.resize(N);
  for (uint32_t Id = 0; Id < N; ++Id) {
    StringRef T = Tokens.token(Id);
    uint64_t Off = T.data() - TokenBase;
    bool StartsSub = Sub && !T.empty() && T[0] == Sub;
    TokenSpans[Id] = Off < (1u << 24) && T.size() <= SpanLen
                         ? uint32_t(Off << 8) | (StartsSub ? SpanSub : 0) |
                               uint32_t(T.size())
                         : LongSpan;
  }
}

void CompactReader::expand(ArrayRef<uint32_t> Toks, std::string &Out) const {
  // One pass into a buffer on the stack with copies of 16 bytes, which may
  // read up to 16 bytes past a token (TokenSlack: the decoded table's
  // padding, or the file after the table), then one append: resizing the string
  // first would fill it with zeros. Tokens of at most 63 bytes: 64 of them and
  // the overrun of the last copy fit the buffer.
  constexpr size_t MaxToks = 64;
  char Buf[MaxToks * (SpanLen + 1) + 16];
  if (LLVM_LIKELY(TokenSlack && !TokenSpans.empty() && !Toks.empty() &&
                  Toks.size() <= MaxToks)) {
    char Sep = Tokens.separators().Word;
    const uint32_t *Spans = TokenSpans.data();
    char *P = Buf;
    size_t I = 0;
    // No separator before the first token: start one byte early.
    uint32_t NoSep = SpanSub;
    for (; I < Toks.size(); ++I) {
      uint32_t S = Spans[Toks[I]];
      if (LLVM_UNLIKELY(S & LongSpan))
        break;
      uint32_t L = S & SpanLen;
      const char *T = TokenBase + (S >> 8);
      // A word separator before every token but the first, unless the
      // token starts with the sub-separator.
      *P = Sep;
      P += !((S | NoSep) & SpanSub);
      NoSep = 0;
      std::memcpy(P, T, 16);
      for (uint32_t K = 16; K < L; K += 16)
        std::memcpy(P + K, T + K, 16);
      P += L;
    }
    if (LLVM_LIKELY(I == Toks.size())) {
      // clear + append skips assign's check for overlapping buffers.
      Out.clear();
      Out.append(Buf, P - Buf);
      return;
    }
  }
  Out.clear();
  Tokens.expand(Toks, Out);
}

Error CompactReader::openNameBlock(uint32_t B, NameBlock &NB) const {
  uint64_t Start = nameOffset(B), End = nameOffset(B + 1);
  // Every read inside a block may load 8 bytes: the writer leaves that
  // much after the last block.
  NB.EscPos = Start + NameHeaderBytes + 4 * TypeBits;
  if (NB.EscPos > End || End + NameDataSlack > Sec[SecNameData].Size)
    return badBlock(B, "offsets out of range");
  const uint8_t *D = Sec[SecNameData].Data;
  // The id tails end the block, often on another cache line.
  __builtin_prefetch(D + End - 1);
  NB.Hdr[0] = read64le(D + Start);
  NB.Hdr[1] = read64le(D + Start + 8);
  NB.PlanePos = Start + NameHeaderBytes;
  NB.Count = std::min<uint64_t>(NumSyms - (uint64_t(B) << NameBlockShift),
                                NameBlockRecords);
  NB.EndPos = End * 2;
  // One escape byte per escaped record, unless one spells out a count of
  // 15 or more (then the escapes are walked).
  unsigned Escapes = 0;
  for (unsigned W = 0; W < 2; ++W) {
    unsigned InWord = std::min(16u, NB.Count > 16 * W ? NB.Count - 16 * W : 0);
    uint64_t X = InWord ? NB.Hdr[W] & (~uint64_t(0) >> (64 - 4 * InWord)) : 0;
    for (uint64_t L : {X & LowNibbles, (X >> 4) & LowNibbles})
      Escapes += (lanesAtLeast(L, RecordEscape) * LaneOnes) >> 56;
  }
  if (NB.EscPos + Escapes > End)
    return badBlock(B, "escapes run past the block");
  bool Long = false;
  for (unsigned K = 0; K < Escapes; ++K)
    Long |= (D[NB.EscPos + K] & 15) == 15 || D[NB.EscPos + K] >> 4 == 15;
  NB.SimpleEscapes = !Long;
  if (LLVM_UNLIKELY(Long)) {
    NB.FirstPos = NB.EndPos; // bounds the walk
    uint64_t EscEnd = 0;
    if (Error E = forEachHeader(
            NB, NB.Count, [&](unsigned, RecordHeader, uint64_t) {}, &EscEnd))
      return E;
    NB.FirstPos = EscEnd * 2;
  } else {
    NB.FirstPos = (NB.EscPos + Escapes) * 2;
  }
  return Error::success();
}

unsigned CompactReader::typeIndex(const NameBlock &NB, unsigned J) const {
  const uint8_t *P = Sec[SecNameData].Data + NB.PlanePos;
  unsigned T = 0;
  for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
    T |= ((read32le(P + 4 * Bit) >> J) & 1) << Bit;
  return T;
}

uint32_t CompactReader::typesInto(const NameBlock &NB, unsigned Records,
                                  uint32_t *Types) const {
  const uint8_t *P = Sec[SecNameData].Data + NB.PlanePos;
  uint32_t Planes[MaxTypeBits] = {};
  for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
    Planes[Bit] = read32le(P + 4 * Bit);
  uint32_t Bad = 0;
  if (TypeBits <= 1) {
    // One type or two (validated at open): every index is valid.
    uint32_t T0 = TypeLetters[0], T1 = TypeLetters[1];
    for (unsigned J = 0; J < Records; ++J)
      Types[J] = (Planes[0] >> J) & 1 ? T1 : T0;
    return 0;
  }
  for (unsigned J = 0; J < Records; ++J) {
    unsigned T = 0;
    for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
      T |= ((Planes[Bit] >> J) & 1) << Bit;
    Bad |= T >= NumTypes;
    Types[J] = TypeLetters[T];
  }
  return Bad;
}

template <typename Fn>
Error CompactReader::forEachHeader(const NameBlock &NB, unsigned Records,
                                   Fn OnHeader, uint64_t *EscEnd) const {
  const uint8_t *D = Sec[SecNameData].Data;
  uint64_t Pos = NB.EscPos, Limit = NB.FirstPos / 2;
  uint64_t Ids = 0, Len = 0;
  auto Count = [&](unsigned Nibble, uint64_t &V) {
    V = Nibble;
    if (Nibble < 15)
      return true;
    // 15 and more: the rest as ULEB128 after the escape byte.
    const char *Err = nullptr;
    unsigned N = 0;
    uint64_t X = decodeULEB128Bounded(D + Pos, &N, D + Limit, &Err);
    if (Err || X > UINT32_MAX)
      return false;
    Pos += N;
    V = 15 + X;
    return true;
  };
  for (unsigned J = 0; J < Records; ++J) {
    unsigned C = nibbleOf(NB.Hdr, J);
    uint64_t New = CodeNew[C], Dropped = CodeDropped[C];
    if (C == RecordEscape) {
      if (Pos >= Limit)
        return corrupt("name record escape past its block at byte " +
                       Twine(Pos));
      uint8_t X = D[Pos++];
      if (!Count(X & 15, New) || !Count(X >> 4, Dropped))
        return corrupt("malformed name record escape at byte " + Twine(Pos));
    }
    unsigned T = typeIndex(NB, J);
    // A record drops at most the previous record's tokens (the first has
    // none) and has at least one token.
    if (Dropped > Len || T >= NumTypes || Len - Dropped + New == 0 ||
        Len - Dropped + New > UINT32_MAX)
      return corrupt("malformed name record " + Twine(J) + " at byte " +
                     Twine(NB.PlanePos));
    RecordHeader R{uint32_t(Len - Dropped), uint32_t(New),
                   char(TypeLetters[T])};
    OnHeader(J, R, Ids);
    Len = uint64_t(R.Shared) + R.New;
    Ids += R.New;
  }
  if (EscEnd)
    *EscEnd = Pos;
  return Error::success();
}

/// Token ids of one block by their index K among its ids: the first
/// nibble of id K is nibble K of the id nibbles, its tail ends where the
/// tails of the ids before it begin, counted back from the block's end.
class CompactReader::IdReader {
public:
  IdReader(const CompactReader &R, const NameBlock &NB)
      : R(R), D(R.Sec[SecNameData].Data + NB.FirstPos / 2), NB(NB) {
    Firsts.resize_for_overwrite(InlineWords);
    Even.resize_for_overwrite(InlineWords);
    Odd.resize_for_overwrite(InlineWords);
    Before.resize_for_overwrite(InlineWords + 1);
    Before[0] = 0;
  }

  /// Makes ids 0 .. Count-1 readable: false when they do not fit the
  /// block.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool reserve(uint64_t Count) {
    if (Count <= Ready)
      return true;
    if (NB.FirstPos + Count > NB.EndPos)
      return false;
    uint64_t Words = (Count + 15) / 16;
    if (LLVM_UNLIKELY(Words > Firsts.size())) {
      // Blocks of very long names: more words than the inline room.
      Firsts.resize_for_overwrite(Words);
      Even.resize_for_overwrite(Words);
      Odd.resize_for_overwrite(Words);
      Before.resize_for_overwrite(Words + 1);
    }
    // Per word of first nibbles, the tail length of each nibble in byte
    // lanes (even and odd nibbles apart) and the tails before the word.
    const NibbleIdCode &C = R.IdCode;
    unsigned A = C.A, AB = A + C.B, ABC = AB + C.C;
    for (; Done < Words; ++Done) {
      uint64_t W = read64le(D + 8 * Done);
      Firsts[Done] = W;
      uint64_t E = W & LowNibbles, O = (W >> 4) & LowNibbles;
      E = lanesAtLeast(E, A) + lanesAtLeast(E, AB) + lanesAtLeast(E, ABC) +
          3 * lanesAtLeast(E, 15);
      O = lanesAtLeast(O, A) + lanesAtLeast(O, AB) + lanesAtLeast(O, ABC) +
          3 * lanesAtLeast(O, 15);
      Even[Done] = E;
      Odd[Done] = O;
      Before[Done + 1] = Before[Done] + (((E + O) * LaneOnes) >> 56);
    }
    // The tails must stay clear of the first nibbles.
    if (tailEnd(Count - 1) + NB.FirstPos + Count > NB.EndPos)
      return false;
    Ready = Count;
    return true;
  }
  /// Id K; false when K was not reserved or the id is not a token.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool get(uint64_t K, uint32_t &Id) const {
    if (LLVM_UNLIKELY(K >= Ready))
      return false;
    unsigned F = (Firsts[K >> 4] >> (4 * (K & 15))) & 15;
    uint64_t Pos = NB.EndPos - tailEnd(K);
    uint64_t W =
        read64le(R.Sec[SecNameData].Data + (Pos >> 1)) >> ((Pos & 1) * 4);
    Id = R.IdAdd[F] + uint32_t(W & R.IdTailMask[F]);
    return Id < R.Tokens.numTokens();
  }

  /// Words of first nibbles held without allocating.
  static constexpr unsigned InlineWords = 64;

private:
  /// Tail nibbles of ids 0 .. K.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t tailEnd(uint64_t K) const {
    // Byte lanes of the nibbles 0 .. K&15 of the word: (K&15)/2+1 even
    // ones, (K&15+1)/2 odd ones.
    unsigned N = K & 15;
    uint64_t ME = ~uint64_t(0) >> (56 - 8 * (N / 2));
    uint64_t MO = N ? ~uint64_t(0) >> (64 - 8 * ((N + 1) / 2)) : 0;
    uint64_t W = K >> 4;
    return Before[W] + ((((Even[W] & ME) + (Odd[W] & MO)) * LaneOnes) >> 56);
  }

  const CompactReader &R;
  const uint8_t *D;
  const NameBlock &NB;
  uint64_t Ready = 0, Done = 0;
  SmallVector<uint64_t, InlineWords> Firsts, Even, Odd;
  SmallVector<uint64_t, InlineWords + 1> Before;
};

Error CompactReader::readHeaders(const NameBlock &NB, unsigned Records,
                                 RecordHeaders &H) const {
  if (LLVM_LIKELY(NB.SimpleEscapes)) {
    // One pass without a branch per record; anything unexpected takes
    // forEachHeader, which reports what is wrong. New and dropped counts
    // come packed per code (an escape's byte has the same layout), the
    // types from the planes afterwards.
    const uint8_t *D = Sec[SecNameData].Data;
    const uint8_t *Esc = D + NB.EscPos;
    const uint8_t *Packed = CodePacked;
    uint64_t Hw = NB.Hdr[0];
    uint32_t Ids = 0, Len = 0, Bad = 0;
    for (unsigned J = 0; J < Records; ++J) {
      if (J == 16)
        Hw = NB.Hdr[1];
      unsigned C = Hw & 15;
      Hw >>= 4;
      uint32_t IsEsc = C == RecordEscape;
      // Code 15's packed entry is 0: the escape byte or the entry.
      uint32_t X = Packed[C] | (*Esc & (0 - IsEsc));
      Esc += IsEsc;
      uint32_t New = X & 15, Dropped = X >> 4;
      Bad |= Dropped > Len;
      uint32_t S = Len - Dropped;
      H.Shared[J] = S;
      H.New[J] = New;
      H.IdStart[J] = Ids;
      Ids += New;
      Len = S + New;
      Bad |= Len == 0;
    }
    uint32_t BadType = typesInto(NB, Records, H.Type);
    if (LLVM_LIKELY(!Bad && !BadType))
      return Error::success();
  }
  uint64_t Total = 0;
  if (Error E = forEachHeader(NB, Records,
                              [&](unsigned J, RecordHeader R, uint64_t Ids) {
                                H.Shared[J] = R.Shared;
                                H.New[J] = R.New;
                                H.Type[J] = uint8_t(R.Type);
                                H.IdStart[J] = uint32_t(Ids);
                                Total = Ids + R.New;
                              }))
    return E;
  if (Total > UINT32_MAX)
    return corrupt("too many token ids in a name block");
  return Error::success();
}

Error CompactReader::readBlockHeaders(uint32_t B, unsigned Records,
                                      NameBlock &NB, RecordHeaders &H,
                                      bool WithTypes, BlockCounts *Counts,
                                      uint64_t *CountedIds) const {
  if (CountedIds)
    *CountedIds = 0;
#if DWARFPACK_KALLSYMS_VECTOR
  if (Vector) {
    BlockCounts Local;
    BlockCounts &BC = Counts ? *Counts : Local;
    Expected<bool> Ok = openNameBlockVector(B, NB, BC, Counts != nullptr);
    if (!Ok)
      return Ok.takeError();
    uint32_t Upto = uint32_t((uint64_t(1) << Records) - 1);
    if (LLVM_LIKELY(*Ok && !(BC.Bad & Upto))) {
      for (unsigned J = 0; J < Records; ++J) {
        H.Shared[J] = BC.Shared[J];
        H.New[J] = BC.Len[J] - BC.Shared[J];
        H.IdStart[J] = BC.First[J];
      }
      if (!WithTypes || LLVM_LIKELY(!typesInto(NB, Records, H.Type))) {
        if (CountedIds)
          *CountedIds =
              idsFromCounts(BC, NB,
                            std::min<uint64_t>(64, H.IdStart[Records - 1] +
                                                       H.New[Records - 1]));
        return Error::success();
      }
    }
  }
#endif
  if (Error E = openNameBlock(B, NB))
    return E;
  return readHeaders(NB, Records, H);
}

Error CompactReader::decodeRecord(uint32_t B, const RecordHeaders &H,
                                  IdReader &Ids, unsigned Rec,
                                  SmallVectorImpl<uint32_t> &Toks) const {
  const uint32_t *Shared = H.Shared, *IdStart = H.IdStart;
  uint64_t Len = uint64_t(Shared[Rec]) + H.New[Rec];
  if (!Ids.reserve(uint64_t(IdStart[Rec]) + H.New[Rec]))
    return badBlock(B, "token ids run past the block");
  Toks.resize_for_overwrite(Len);
  // Token T comes from the last record at or before Rec that shares at
  // most T tokens: walk back through those.
  uint64_t Cur = Len;
  for (unsigned J = Rec;; --J) {
    uint64_t S = Shared[J];
    if (S < Cur) {
      for (uint64_t T = S; T < Cur; ++T)
        if (!Ids.get(IdStart[J] + (T - S), Toks[T]))
          return badBlock(B, "token id out of range");
      Cur = S;
    }
    if (Cur == 0 || J == 0)
      break;
  }
  if (Cur)
    return badBlock(B, "shared tokens have no source");
  return Error::success();
}

Error CompactReader::decodeName(uint32_t Slot, SmallVectorImpl<uint32_t> &Toks,
                                char &Type) const {
#if DWARFPACK_KALLSYMS_VECTOR
  if (Vector)
    return decodeNameVector(Slot, Toks, Type);
#endif
  uint32_t B = Slot >> NameBlockShift;
  unsigned Rec = Slot & (NameBlockRecords - 1);
  NameBlock NB;
  if (Error E = openNameBlock(B, NB))
    return E;
  return decodeNameGeneral(B, Rec, NB, Toks, Type);
}

Error CompactReader::decodeNameGeneral(uint32_t B, unsigned Rec,
                                       const NameBlock &NB,
                                       SmallVectorImpl<uint32_t> &Toks,
                                       char &Type) const {
  IdReader Ids(*this, NB);
  RecordHeaders H;
  if (Error E = readHeaders(NB, Rec + 1, H))
    return E;
  Type = char(H.Type[Rec]);
  return decodeRecord(B, H, Ids, Rec, Toks);
}

#if DWARFPACK_KALLSYMS_VECTOR
namespace {
/// Inclusive prefix sums of 32 byte lanes (modulo 256).
__attribute__((target("avx2"))) inline __m256i prefixSumBytes(__m256i X) {
  X = _mm256_add_epi8(X, _mm256_slli_si256(X, 1));
  X = _mm256_add_epi8(X, _mm256_slli_si256(X, 2));
  X = _mm256_add_epi8(X, _mm256_slli_si256(X, 4));
  X = _mm256_add_epi8(X, _mm256_slli_si256(X, 8));
  // Byte 15's sum into the upper half.
  return _mm256_add_epi8(
      X, _mm256_shuffle_epi8(_mm256_permute2x128_si256(X, X, 0x08),
                             _mm256_set1_epi8(15)));
}
/// Inclusive prefix sums of 16 u16 lanes.
__attribute__((target("avx2"))) inline __m256i prefixSum16(__m256i X) {
  X = _mm256_add_epi16(X, _mm256_slli_si256(X, 2));
  X = _mm256_add_epi16(X, _mm256_slli_si256(X, 4));
  X = _mm256_add_epi16(X, _mm256_slli_si256(X, 8));
  // Lane 7's sum into the upper half.
  __m256i Low = _mm256_permute2x128_si256(X, X, 0x08);
  return _mm256_add_epi16(X,
                          _mm256_shuffle_epi8(Low, _mm256_set1_epi16(0x0F0E)));
}
/// The last record of Upto (a bit mask) whose shared count (a byte of
/// Shared) is at most Tok: where token Tok of a later record comes from.
__attribute__((target("avx2"))) inline unsigned
lastSharingAtMost(__m256i Shared, unsigned Tok, uint32_t Upto) {
  __m256i TV = _mm256_set1_epi8(char(Tok));
  uint32_t M = uint32_t(_mm256_movemask_epi8(
                   _mm256_cmpeq_epi8(_mm256_min_epu8(Shared, TV), Shared))) &
               Upto;
  return 31 - llvm::countl_zero(M | 1);
}
/// Lane 15 of X in every lane.
__attribute__((target("avx2"))) inline __m256i lastLane16(__m256i X) {
  return _mm256_broadcastw_epi16(
      _mm_srli_si128(_mm256_extracti128_si256(X, 1), 14));
}
} // namespace

// Every record's counts at once: code nibbles to bytes, the counts of
// codes by table shuffles and of escapes by their rank among the escapes,
// then prefix sums give each record's token count, shared count and first
// id. Token T of the record comes from the last record J <= Rec sharing at
// most T tokens: a compare and a bit scan, no walk through the records.
__attribute__((target("avx2,bmi2"))) Expected<bool>
CompactReader::openNameBlockVector(uint32_t B, NameBlock &NB, BlockCounts &BC,
                                   bool WithIds) const {
  uint64_t Start = nameOffset(B), End = nameOffset(B + 1);
  uint64_t SecSize = Sec[SecNameData].Size;
  NB.PlanePos = Start + NameHeaderBytes;
  NB.EscPos = NB.PlanePos + 4 * TypeBits;
  if (NB.EscPos > End || End + NameDataSlack > SecSize)
    return badBlock(B, "offsets out of range");
  const uint8_t *D = Sec[SecNameData].Data;
  __builtin_prefetch(D + End - 1);
  NB.Hdr[0] = read64le(D + Start);
  NB.Hdr[1] = read64le(D + Start + 8);
  NB.Count = std::min<uint64_t>(NumSyms - (uint64_t(B) << NameBlockShift),
                                NameBlockRecords);
  NB.EndPos = End * 2;
  NB.SimpleEscapes = true;

  // Code nibbles as bytes, record J in byte J.
  const __m128i Nib = _mm_set1_epi8(15);
  __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + Start));
  __m128i Lo = _mm_and_si128(X, Nib);
  __m128i Hi = _mm_and_si128(_mm_srli_epi16(X, 4), Nib);
  __m256i Code =
      _mm256_set_m128i(_mm_unpackhi_epi8(Lo, Hi), _mm_unpacklo_epi8(Lo, Hi));
  const __m256i Lane = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                        12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                        22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  __m256i InBlock = _mm256_cmpgt_epi8(_mm256_set1_epi8(char(NB.Count)), Lane);
  __m256i IsEsc = _mm256_and_si256(
      InBlock, _mm256_cmpeq_epi8(Code, _mm256_set1_epi8(RecordEscape)));
  uint32_t EscMask = uint32_t(_mm256_movemask_epi8(IsEsc));
  unsigned Escapes = llvm::popcount(EscMask);
  if (NB.EscPos + Escapes > End)
    return badBlock(B, "escapes run past the block");
  // The escape bytes (at most 32; 8 bytes past the block are readable).
  alignas(32) uint8_t EscBytes[32] = {};
  if (NB.EscPos + 32 <= SecSize)
    _mm256_store_si256(
        reinterpret_cast<__m256i *>(EscBytes),
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(D + NB.EscPos)));
  else
    std::memcpy(EscBytes, D + NB.EscPos, Escapes);
  __m256i EB = _mm256_load_si256(reinterpret_cast<const __m256i *>(EscBytes));
  __m256i ELo = _mm256_and_si256(EB, _mm256_set1_epi8(15));
  __m256i EHi =
      _mm256_and_si256(_mm256_srli_epi16(EB, 4), _mm256_set1_epi8(15));
  uint64_t Used = (uint64_t(1) << Escapes) - 1;
  if (LLVM_UNLIKELY(uint32_t(_mm256_movemask_epi8(_mm256_or_si256(
                        _mm256_cmpeq_epi8(ELo, _mm256_set1_epi8(15)),
                        _mm256_cmpeq_epi8(EHi, _mm256_set1_epi8(15))))) &
                    Used))
    return false; // counts of 15 or more
  NB.FirstPos = (NB.EscPos + Escapes) * 2;
  if (WithIds) {
    // The first 64 ids' first nibbles; the tail lengths they imply and
    // their prefix sums give where each id's tail ends (counted back from
    // the block's end). Started here, as soon as the ids' place is known.
    const uint8_t *FirstBytes = D + NB.FirstPos / 2;
    if (NB.FirstPos / 2 + 32 <= SecSize) {
      _mm256_store_si256(
          reinterpret_cast<__m256i *>(BC.FB),
          _mm256_loadu_si256(reinterpret_cast<const __m256i *>(FirstBytes)));
    } else {
      std::memset(BC.FB, 0, 32);
      std::memcpy(BC.FB, FirstBytes, SecSize - NB.FirstPos / 2);
    }
    __m256i FV = _mm256_load_si256(reinterpret_cast<const __m256i *>(BC.FB));
    __m256i LTab = _mm256_broadcastsi128_si256(
        _mm_load_si128(reinterpret_cast<const __m128i *>(IdTailNibbles)));
    __m256i LEven =
        _mm256_shuffle_epi8(LTab, _mm256_and_si256(FV, _mm256_set1_epi8(15)));
    __m256i LOdd = _mm256_shuffle_epi8(
        LTab, _mm256_and_si256(_mm256_srli_epi16(FV, 4), _mm256_set1_epi8(15)));
    __m256i Pair = _mm256_add_epi8(LEven, LOdd);
    __m256i P0 =
        prefixSum16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(Pair)));
    __m256i P1 = _mm256_add_epi16(
        prefixSum16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(Pair, 1))),
        lastLane16(P0));
    BC.PairEnd[0] = 0;
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(BC.PairEnd + 1), P0);
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(BC.PairEnd + 17), P1);
    _mm256_store_si256(reinterpret_cast<__m256i *>(BC.EvenLen), LEven);
    BC.EvenLen[32] = 0;
  }

  // Counts of every record: by code, or from its escape byte (by rank).
  __m256i NewV =
      _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(
                              reinterpret_cast<const __m128i *>(CodeNew))),
                          Code);
  __m256i DropV =
      _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(
                              reinterpret_cast<const __m128i *>(CodeDropped))),
                          Code);
  if (EscMask) {
    // Rank of each lane among the escapes: an exclusive prefix count.
    __m256i One = _mm256_and_si256(IsEsc, _mm256_set1_epi8(1));
    __m256i R = _mm256_add_epi8(One, _mm256_slli_si256(One, 1));
    R = _mm256_add_epi8(R, _mm256_slli_si256(R, 2));
    R = _mm256_add_epi8(R, _mm256_slli_si256(R, 4));
    R = _mm256_add_epi8(R, _mm256_slli_si256(R, 8));
    R = _mm256_add_epi8(
        R, _mm256_shuffle_epi8(_mm256_permute2x128_si256(R, R, 0x08),
                               _mm256_set1_epi8(15)));
    R = _mm256_sub_epi8(R, One);
    // Bytes 0-15 and 16-31 of the escapes, looked up by rank.
    __m256i High = _mm256_cmpgt_epi8(R, _mm256_set1_epi8(15));
    __m256i LoTab = _mm256_permute2x128_si256(ELo, ELo, 0x00);
    __m256i HiTab = _mm256_permute2x128_si256(ELo, ELo, 0x11);
    __m256i EscNew = _mm256_blendv_epi8(_mm256_shuffle_epi8(LoTab, R),
                                        _mm256_shuffle_epi8(HiTab, R), High);
    LoTab = _mm256_permute2x128_si256(EHi, EHi, 0x00);
    HiTab = _mm256_permute2x128_si256(EHi, EHi, 0x11);
    __m256i EscDrop = _mm256_blendv_epi8(_mm256_shuffle_epi8(LoTab, R),
                                         _mm256_shuffle_epi8(HiTab, R), High);
    NewV = _mm256_blendv_epi8(NewV, EscNew, IsEsc);
    DropV = _mm256_blendv_epi8(DropV, EscDrop, IsEsc);
  }
  // Byte lanes: token counts Len (prefix sums of new - dropped), shared
  // counts Len - New, first ids (prefix sums of New, exclusive). They
  // hold while the block writes at most 255 ids (kernel blocks write about
  // 60, at most 114 in the tables measured); larger blocks take the
  // general path.
  __m256i Zero = _mm256_setzero_si256();
  __m256i Sad = _mm256_sad_epu8(_mm256_and_si256(NewV, InBlock), Zero);
  __m128i Sad2 = _mm_add_epi64(_mm256_castsi256_si128(Sad),
                               _mm256_extracti128_si256(Sad, 1));
  if (uint64_t(_mm_cvtsi128_si64(Sad2)) + uint64_t(_mm_extract_epi64(Sad2, 1)) >
      255)
    return false;
  __m256i Len = prefixSumBytes(_mm256_sub_epi8(NewV, DropV));
  __m256i Ids = prefixSumBytes(NewV);
  // Each record drops at most the previous record's tokens (D > previous
  // Len: max(D, Len') is D and they differ) and has a token.
  __m256i PrevLen =
      _mm256_alignr_epi8(Len, _mm256_permute2x128_si256(Len, Len, 0x08), 15);
  __m256i DropsMore = _mm256_andnot_si256(
      _mm256_cmpeq_epi8(DropV, PrevLen),
      _mm256_cmpeq_epi8(_mm256_max_epu8(DropV, PrevLen), DropV));
  __m256i BadV = _mm256_or_si256(DropsMore, _mm256_cmpeq_epi8(Len, Zero));
  BC.Bad = uint32_t(_mm256_movemask_epi8(BadV));
  _mm256_store_si256(reinterpret_cast<__m256i *>(BC.Len), Len);
  _mm256_store_si256(reinterpret_cast<__m256i *>(BC.Shared),
                     _mm256_sub_epi8(Len, NewV));
  _mm256_store_si256(reinterpret_cast<__m256i *>(BC.First),
                     _mm256_sub_epi8(Ids, NewV));
  return true;
}

__attribute__((target("avx2,bmi2"))) Error
CompactReader::decodeNameVector(uint32_t Slot, SmallVectorImpl<uint32_t> &Toks,
                                char &Type) const {
  uint32_t B = Slot >> NameBlockShift;
  unsigned Rec = Slot & (NameBlockRecords - 1);
  NameBlock NB;
  BlockCounts BC;
  Expected<bool> Ok = openNameBlockVector(B, NB, BC, /*WithIds=*/true);
  if (!Ok)
    return Ok.takeError();
  uint32_t Upto = uint32_t((uint64_t(2) << Rec) - 1);
  unsigned T = typeIndex(NB, Rec);
  if (LLVM_UNLIKELY(!*Ok || (BC.Bad & Upto) || T >= NumTypes)) {
    if (Error E = openNameBlock(B, NB))
      return E;
    return decodeNameGeneral(B, Rec, NB, Toks, Type);
  }
  const uint8_t *Len = BC.Len, *Shared = BC.Shared, *First = BC.First;
  Type = char(TypeLetters[T]);
  unsigned RecLen = Len[Rec];
  uint64_t NeedIds = uint64_t(First[Rec]) + (RecLen - Shared[Rec]);
  __m256i SB = _mm256_load_si256(reinterpret_cast<const __m256i *>(Shared));
  Toks.resize_for_overwrite(RecLen);
  if (NeedIds > 64 || NB.FirstPos + NeedIds > NB.EndPos) {
    IdReader Ids(*this, NB);
    if (!Ids.reserve(NeedIds))
      return badBlock(B, "token ids run past the block");
    for (unsigned Tok = 0; Tok < RecLen; ++Tok) {
      unsigned J = lastSharingAtMost(SB, Tok, Upto);
      if (!Ids.get(uint64_t(First[J]) + (Tok - Shared[J]), Toks[Tok]))
        return badBlock(B, "token id out of range");
    }
    return Error::success();
  }
  // The tails must stay clear of the first nibbles.
  if (BC.tailsBefore(NeedIds) + NB.FirstPos + NeedIds > NB.EndPos)
    return badBlock(B, "token ids run past the block");
  uint32_t NumTokens = Tokens.numTokens();
  for (unsigned Tok = 0; Tok < RecLen; ++Tok) {
    unsigned J = lastSharingAtMost(SB, Tok, Upto);
    uint32_t Id = idFromCounts(BC, NB, uint64_t(First[J]) + (Tok - Shared[J]));
    if (Id >= NumTokens)
      return badBlock(B, "token id out of range");
    Toks[Tok] = Id;
  }
  return Error::success();
}
#endif

Expected<StringRef> CompactReader::moduleOf(uint32_t I) const {
  uint64_t NumRuns = Sec[SecModuleRuns].Size / 8;
  const uint8_t *R = Sec[SecModuleRuns].Data;
  // Branch-free: the comparisons are unpredictable, and a /proc/kallsyms
  // with many modules has thousands of runs.
  uint64_t Lo = 0;
  for (uint64_t Len = NumRuns; Len > 1;) {
    uint64_t Half = Len / 2;
    Lo = read32le(R + (Lo + Half) * 8) <= I ? Lo + Half : Lo;
    Len -= Half;
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
  expand(Toks, Info.Name);
  Expected<StringRef> M = moduleOf(I);
  if (!M)
    return M.takeError();
  Info.Module = M->str();
  Info.Index = I;
  return Error::success();
}

Expected<int> CompactReader::compareBlockFirst(uint32_t Block,
                                               StringRef Name) const {
  NameBlock NB;
  if (Error E = openNameBlock(Block, NB))
    return std::move(E);
  if (LLVM_UNLIKELY(!NB.SimpleEscapes))
    return compareBlockFirstGeneral(Block, NB, Name);
  // Record 0 shares nothing: its counts are its code's, or its escape's
  // (the block's first escape byte), and its ids are the block's first.
  const uint8_t *D = Sec[SecNameData].Data;
  unsigned Code = NB.Hdr[0] & 15;
  uint32_t New = CodeNew[Code], Dropped = CodeDropped[Code];
  if (Code == RecordEscape) {
    uint8_t X = D[NB.EscPos]; // openNameBlock counted it inside the block
    New = X & 15;
    Dropped = X >> 4;
  }
  if (Dropped || !New)
    return corrupt("malformed name record 0 at byte " + Twine(NB.PlanePos));
  if (NB.FirstPos + New > NB.EndPos)
    return badBlock(Block, "token ids run past the block");
  token::NameComparer Cmp(Name, Tokens.separators());
  uint32_t NumTokens = Tokens.numTokens();
  uint64_t Tails = 0;
  for (uint64_t K = 0; K < New; ++K) {
    uint64_t First = NB.FirstPos + K;
    unsigned F = (D[First >> 1] >> ((First & 1) * 4)) & 15;
    Tails += IdTailNibbles[F];
    // The tails must stay clear of the first nibbles.
    if (Tails + NB.FirstPos + New > NB.EndPos)
      return badBlock(Block, "token ids run past the block");
    uint64_t Pos = NB.EndPos - Tails;
    uint64_t W = read64le(D + (Pos >> 1)) >> ((Pos & 1) * 4);
    uint32_t Id = IdAdd[F] + uint32_t(W & IdTailMask[F]);
    if (Id >= NumTokens)
      return badBlock(Block, "token id out of range");
    if (int C = Cmp.feed(tokenText(Id), K == 0))
      return C;
  }
  return Cmp.finish();
}

Expected<int> CompactReader::compareBlockFirstGeneral(uint32_t Block,
                                                      const NameBlock &NB,
                                                      StringRef Name) const {
  RecordHeaders H;
  if (Error E = readHeaders(NB, 1, H))
    return std::move(E);
  uint32_t New = H.New[0];
  IdReader Ids(*this, NB);
  if (!Ids.reserve(New))
    return badBlock(Block, "token ids run past the block");
  token::NameComparer Cmp(Name, Tokens.separators());
  for (uint64_t I = 0; I < New; ++I) {
    uint32_t Id;
    if (!Ids.get(I, Id))
      return badBlock(Block, "token id out of range");
    if (int C = Cmp.feed(tokenText(Id), I == 0))
      return C;
  }
  return Cmp.finish();
}

Error CompactReader::lookupNameInto(StringRef Name,
                                    std::vector<SymbolInfo> &Out) const {
  // First block whose first name is >= Name. Matches start in the block
  // before it, and run on into it only when its first name equals Name.
  // The name keys bound it first: blocks whose key is below Name's start
  // below Name, those whose key is above it start above it.
  uint32_t Lo = 0, Hi = NumNameBlocks;
  {
    uint64_t Q = nameKey(Name.data(), Name.size());
    const uint8_t *Keys = Sec[SecNameKeys].Data;
    uint32_t NumKeys =
        (uint64_t(NumNameBlocks) + (1u << NameKeyShift) - 1) >> NameKeyShift;
    // Keys from From on for which Pred holds: a prefix of them (they are
    // sorted); found without branches.
    auto CountFrom = [&](uint32_t From, auto Pred) {
      uint32_t Pos = From;
      for (uint32_t Len = NumKeys - From; Len;) {
        uint32_t Half = Len / 2;
        bool P = Pred(read64le(Keys + 8 * (Pos + Half)));
        Pos = P ? Pos + Half + 1 : Pos;
        Len = P ? Len - Half - 1 : Half;
      }
      return Pos;
    };
    uint32_t Below = CountFrom(0, [&](uint64_t K) { return K < Q; });
    uint32_t AtMost = CountFrom(Below, [&](uint64_t K) { return K <= Q; });
    if (Below)
      Lo = ((Below - 1) << NameKeyShift) + 1;
    if (AtMost < NumKeys)
      Hi = std::min<uint64_t>(Hi, uint64_t(AtMost) << NameKeyShift);
  }
  bool LoEqual = false;
  // Fetches the first bytes of name block B ahead of its comparison.
  auto Prefetch = [&](uint32_t B) {
    uint64_t Off = nameOffset(B);
    if (Off < Sec[SecNameData].Size)
      __builtin_prefetch(Sec[SecNameData].Data + Off);
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
  // Equality only, word by word. Matched counts the leading tokens of
  // the current record known to equal the leading words of Name; it
  // survives front coding, so only a record's new tokens are ever read.
  SmallVector<StringRef, 32> Words;
  splitWords(Name, Tokens.separators(), Words);
  constexpr uint32_t NoId = UINT32_MAX;
  SmallVector<uint32_t, 32> WordIds(Words.size(), NoId);
  SmallVector<std::pair<uint32_t, char>, 4> Slots;
  bool Over = false;
  for (uint32_t Blk = B; !Over && (uint64_t(Blk) << NameBlockShift) < Stop;
       ++Blk) {
    uint32_t First = Blk << NameBlockShift;
    unsigned Count = std::min<uint64_t>(Stop - First, NameBlockRecords);
    NameBlock NB;
    RecordHeaders H;
    BlockCounts BC;
    uint64_t Counted;
    // Types only of the matches: most records of the block are skipped.
    if (Error E = readBlockHeaders(Blk, Count, NB, H, /*WithTypes=*/false, &BC,
                                   &Counted))
      return E;
    const uint32_t *Shared = H.Shared, *New = H.New, *IdStart = H.IdStart;
    // The first ids from the vector pass's sums, later ones (blocks of
    // many tokens) through an IdReader.
    IdReader Ids(*this, NB);
    auto GetId = [&](uint64_t K, uint32_t &Id) {
      if (K < Counted) {
        Id = idFromCounts(BC, NB, K);
        return Id < Tokens.numTokens();
      }
      return Ids.get(K, Id);
    };
    size_t Matched = 0;
    for (unsigned J = 0; J < Count; ++J) {
      // Names are sorted: when this record shares more tokens than the
      // previous one matched, it repeats the previous one's mismatch (or
      // length excess) at token Matched, with no comparison.
      if (J && Shared[J] > Matched) {
        if (!Slots.empty()) {
          Over = true; // equal names are contiguous
          break;
        }
        continue;
      }
      Matched = Shared[J];
      uint64_t Len = uint64_t(Shared[J]) + New[J];
      uint64_t IdEnd = uint64_t(IdStart[J]) + New[J];
      if (Len > Matched && Matched < Words.size() && IdEnd > Counted &&
          !Ids.reserve(IdEnd))
        return badBlock(Blk, "token ids run past the block");
      // A word's id, once seen, turns the string comparisons of the later
      // records into integer ones (each token string has one id); a token
      // of another length is not the word either.
      while (Matched < Len && Matched < Words.size()) {
        uint32_t Id;
        if (!GetId(IdStart[J] + (Matched - Shared[J]), Id))
          return badBlock(Blk, "token id out of range");
        if (WordIds[Matched] != NoId) {
          if (Id != WordIds[Matched])
            break;
        } else if (tokenText(Id) == Words[Matched]) {
          WordIds[Matched] = Id;
        } else {
          break;
        }
        ++Matched;
      }
      if (Matched == Len && Matched == Words.size()) {
        unsigned T = typeIndex(NB, J);
        if (T >= NumTypes)
          return corrupt("malformed name record " + Twine(J) + " at byte " +
                         Twine(NB.PlanePos));
        Slots.push_back({First + J, char(TypeLetters[T])});
      } else if (!Slots.empty()) {
        Over = true;
        break;
      }
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
