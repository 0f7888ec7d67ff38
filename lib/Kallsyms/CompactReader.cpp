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

/// Whether the vector fast paths can run here: x86-64 with AVX2, BMI1/2,
/// LZCNT and POPCNT (Haswell, Zen and later). Elsewhere the portable paths
/// do the work.
bool hasVectorPaths() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("lzcnt") &&
         __builtin_cpu_supports("popcnt");
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

/// Reads Width (<= 57) bits at Bit without bounds checks; the caller has
/// checked that the 8 bytes from Bit / 8 lie inside the data.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t readBitsUnchecked(const uint8_t *Data,
                                                        uint64_t Bit,
                                                        unsigned Width) {
  uint64_t V = read64le(Data + (Bit >> 3));
  return (V >> (Bit & 7)) & ((uint64_t(1) << Width) - 1);
}

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
  uint64_t ExtPos;    // the escapes' long counts (byte offset)
  uint64_t EscPos;    // the escape bytes, which end the block (byte offset)
  uint64_t FirstPos;  // the first id nibbles (nibble position)
  uint64_t EndPos;    // the id tails end here (nibble position)
  uint64_t End;       // the block's end (byte offset)
  uint32_t Count;     // records
  bool SimpleEscapes; // no escape spells a count out
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

  static constexpr uint32_t BlockSyms = 1u << AddrBlockShift;
  struct AddrRecord;

private:
  Error init();
  Error readHeader();
  Error readSections();
  Error checkSectionSizes();
  Error readRecordCodes();
  Error readModuleRuns();
  Error checkPermutation();
  Error readModuleNames();
  Error initGuide();
  Error initAddresses();
  Error initNames();
  /// The last address block whose first address is at most R (relative
  /// to Base), through the guide.
  uint32_t findBlock(uint64_t R) const;
  void openRecord(uint32_t B, AddrRecord &A) const;
  /// Decodes the addresses of address block B into Addrs in order and
  /// returns how many there are.
  uint32_t decodeBlock(uint32_t B, uint64_t Addrs[BlockSyms]) const;

  // Names.
  Error openNameBlock(uint32_t B, NameBlock &NB) const;
  /// Decodes the headers of the first Records records of NB, calling
  /// OnHeader(index, header, first id index) for each.
  template <typename Fn>
  Error forEachHeader(const NameBlock &NB, unsigned Records, Fn OnHeader) const;
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
  void expand(ArrayRef<uint32_t> Toks, SmallVectorImpl<char> &Out) const;
  uint64_t nameOffset(uint32_t B) const {
    return readBits(Sec[SecNameIndex].Data, Sec[SecNameIndex].Size,
                    uint64_t(B) * NameOffBits, NameOffBits);
  }
  Error badBlock(uint32_t B, const char *What) const {
    return corrupt("name block " + Twine(B) + ": " + What);
  }

  // Address lookups: the block from the guide, then the symbol in it.
  struct Hit;
  /// Where relative address R falls in its block.
  void locate(uint64_t R, Hit &H) const;
  template <typename LocateFn, typename NameFn>
  Expected<bool> lookupAddressWith(uint64_t Addr, SymbolInfo &Info,
                                   LocateFn Locate, NameFn Name) const;
  Expected<bool> lookupAddressPortable(uint64_t Addr, SymbolInfo &Info) const;
  Expected<bool> lookupAddressVector(uint64_t Addr, SymbolInfo &Info) const;
  /// The canonical symbol of the alias group First .. Last of one block,
  /// its name and type.
  Expected<uint32_t> canonicalAlias(uint32_t First, uint32_t Last,
                                    SmallVectorImpl<char> &Name,
                                    char &Type) const;
  void locatePortable(uint64_t R, Hit &H) const;
  /// locateFast out of line, for callers built without AVX2.
  void locateVector(uint64_t R, Hit &Out) const;
  void locateFast(uint64_t R, Hit &Out) const;
  /// Replaces Out with the name in slot Slot and sets Type, through
  /// decodeName and expand.
  Error nameGeneral(uint32_t Slot, SmallVectorImpl<char> &Out,
                    char &Type) const;
  /// The same with AVX2, the tokens decoded and copied out in one pass;
  /// false when the block needs the general path (FastNameBlocks).
  bool nameFast(uint32_t Slot, SmallVectorImpl<char> &Out, char &Type) const;
  /// Per token id, where its text is in SpanText, the reader's copy of the
  /// token table (made when the table is opened; the table's own decoded
  /// image is not kept) in which every token that joins the previous one
  /// with the word separator carries that separator in front: a name is
  /// the concatenation of its tokens' texts minus the first byte (a name's
  /// first token never starts with the sub-separator, so it always has
  /// one). A span is the offset in bits 8-31, the length with the
  /// separator in bits 0-5, bit 6 set when the separator is there; with
  /// LongSpan set, bits 8-31 index LongSpans instead (a token of 63 bytes
  /// or more, or past 16 MiB of text). One load per token instead of the
  /// table's sum of length nibbles, and no decision per token about the
  /// separator.
  static constexpr uint32_t SpanLen = 63, SpanSep = 64, LongSpan = 128;
  /// Bytes the copies may read past a span.
  static constexpr unsigned SpanCopy = 32;
  std::vector<uint32_t> TokenSpans;
  struct LongTokenSpan {
    uint64_t Offset, Size; // Size with the separator
    bool Sep;
  };
  std::vector<LongTokenSpan> LongSpans;
  std::string SpanText;
  /// The table's separators and token count (the table itself is dropped
  /// once SpanText is made).
  token::Separators Seps;
  uint32_t NumTokens = 0;
  void initTokenSpans(const token::TokenTable &Tokens);
  /// The text of token Id (< NumTokens), without the separator in front.
  LLVM_ATTRIBUTE_ALWAYS_INLINE StringRef tokenText(uint32_t Id) const {
    uint32_t S = TokenSpans[Id];
    if (LLVM_UNLIKELY(S & LongSpan)) {
      const LongTokenSpan &L = LongSpans[S >> 8];
      return StringRef(SpanText.data() + L.Offset + L.Sep, L.Size - L.Sep);
    }
    unsigned Sep = (S & SpanSep) != 0;
    return StringRef(SpanText.data() + (S >> 8) + Sep, (S & SpanLen) - Sep);
  }
  /// Copies the text of span S (not a LongSpan) less its first Skip
  /// bytes to P and returns its end. Reads and writes whole blocks: up to
  /// SpanCopy bytes past the span (SpanText ends with that much) and past
  /// the end it returns. Text is SpanText.data(), held by the caller (a
  /// store through P could otherwise make the compiler reload it).
  static LLVM_ATTRIBUTE_ALWAYS_INLINE char *
  copySpan(char *P, const char *Text, uint32_t S, unsigned Skip) {
    const char *T = Text + (S >> 8) + Skip;
    std::memcpy(P, T, 16);
    std::memcpy(P + 16, T + 16, 16);
    if (LLVM_UNLIKELY((S & SpanLen) > SpanCopy))
      std::memcpy(P + 32, T + 32, 32);
    return P + (S & SpanLen) - Skip;
  }
  bool joinsWithSeparator(StringRef Tok) const {
    return !Seps.Sub || Tok.empty() || Tok[0] != Seps.Sub;
  }

  /// The name slot of symbol I (< NumSyms): entries are checked at open.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t permAt(uint32_t I) const {
    uint64_t Bit = uint64_t(I) * PermBits;
    if (LLVM_LIKELY(PermSlack))
      return readBitsUnchecked(Sec[SecPerm].Data, Bit, PermBits);
    return readBits(Sec[SecPerm].Data, Sec[SecPerm].Size, Bit, PermBits);
  }
  /// The module name of symbol I (< NumSyms): runs are checked at open.
  StringRef moduleNameOf(uint32_t I) const;
  Expected<uint32_t> inversePerm(uint32_t Slot) const;
  uint64_t blockRel(uint32_t B) const;

  std::unique_ptr<MemoryBuffer> Buffer;
  Span Sec[NumSections];
  unsigned PermBits = 0;
  /// Back-pointer stride T of the inverse.
  unsigned Stride = InvStride;
  uint64_t Base = 0;
  uint32_t NumModules = 0, NumMarks = 0;
  uint64_t NumModuleRuns = 0;
  uint32_t NumAddrBlocks = 0, NumNameBlocks = 0;
  std::vector<StringRef> ModuleNames; // [0] is the core kernel
  NibbleIdCode IdCode;
  unsigned NameOffBits = 0, GuideBits = 0;
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
  uint32_t NumSegments = 0;
  const uint8_t *GuideEntries = nullptr;
  uint64_t NumGuideEntries = 0;
  /// The guide's entries as read at open, then the last block: two plain
  /// loads per lookup.
  std::vector<uint32_t> GuideBlocks;
  /// Per address block, bit K set when symbol K of the block has the
  /// address of the symbol before it (for K = 0, the previous block's last
  /// symbol): alias groups without decoding addresses.
  std::vector<uint32_t> BlockAliases;
  /// The blocks' first addresses (relative to Base), then three that no
  /// address reaches: the guide's last comparisons need no bounds.
  std::vector<uint64_t> BlockStarts;
  /// 8 bytes can be read from any byte of the permutation section, of the
  /// name index (and the index has NameOffBits <= 28, so two entries come
  /// from one read).
  bool PermSlack = false, NameIdxSlack = false;
  /// Bytes of the file from the start of the name data.
  uint64_t NameDataAvail = 0;
  /// Bit B: name block B was checked whole when the table was opened and
  /// suits nameFast (no count spelled out, at most 128 ids and 64
  /// tokens a record, no long token, 64 bytes readable from its ids).
  std::vector<uint64_t> FastNameBlocks;
  /// The CPU has what the vector fast paths use (hasVectorPaths), and the
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
  // In this order, so that a damaged table reports its first problem.
  for (Error (CompactReader::*Step)() :
       {&CompactReader::readHeader, &CompactReader::readSections,
        &CompactReader::checkSectionSizes, &CompactReader::readRecordCodes,
        &CompactReader::readModuleRuns, &CompactReader::checkPermutation,
        &CompactReader::readModuleNames, &CompactReader::initAddresses,
        &CompactReader::initNames, &CompactReader::initGuide})
    if (Error E = (this->*Step)())
      return E;
  return Error::success();
}

Error CompactReader::readHeader() {
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
  NameOffBits = P[62];
  GuideBits = P[63];
  // Zero-width guide entries would let a few bytes claim billions of them,
  // each checked at open (the writer never writes fewer than 1 bit).
  if (NameOffBits > 32 || GuideBits == 0 || GuideBits > 32)
    return corrupt("bad index widths");
  IdCode = NibbleIdCode{P[52], P[53], P[54]};
  NumTypes = read32le(P + 56);
  if (!IdCode.valid() || NumTypes == 0 || NumTypes > 256 ||
      TypeBits != bitsNeeded(NumTypes - 1))
    return corrupt("bad name record codes");
  for (unsigned N = 0; N < 16; ++N) {
    IdAdd[N] = IdCode.firstBase(N);
    IdTailNibbles[N] = idTailLength(IdCode, N);
    IdTailMask[N] = (uint64_t(1) << (4 * IdTailNibbles[N])) - 1;
  }
  if (NumSyms == 0 || NumSyms >= (1u << 31))
    return corrupt("bad symbol count " + Twine(NumSyms));
  if (PermBits != std::max(1u, unsigned(Log2_32(NumSyms - 1) + 1)) &&
      !(NumSyms == 1 && PermBits == 1))
    return corrupt("bad permutation width " + Twine(PermBits));
  return Error::success();
}

/// The section table, and the token table.
Error CompactReader::readSections() {
  StringRef B = Buffer->getBuffer();
  const uint8_t *P = B.bytes_begin();
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
  NameIdxSlack = HasSlack(SecNameIndex) && NameOffBits <= 28;
  NameDataAvail = B.size() - (Sec[SecNameData].Data - P);
  Expected<token::TokenTable> T = token::TokenTable::create(
      StringRef(reinterpret_cast<const char *>(Sec[SecTokens].Data),
                Sec[SecTokens].Size));
  if (!T)
    return T.takeError();
  initTokenSpans(*T);
  return Error::success();
}

/// The sections whose size follows from the header.
Error CompactReader::checkSectionSizes() {
  NumAddrBlocks =
      (uint64_t(NumSyms) + (1u << AddrBlockShift) - 1) >> AddrBlockShift;
  NumNameBlocks =
      (uint64_t(NumSyms) + (1u << NameBlockShift) - 1) >> NameBlockShift;
  uint64_t Words = (uint64_t(NumSyms) + 63) / 64;
  struct {
    unsigned S;
    uint64_t Need;
  } Checks[] = {
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
  return Error::success();
}

Error CompactReader::readRecordCodes() {
  for (unsigned C = 0; C < RecordCodes; ++C) {
    CodeNew[C] = Sec[SecCombos].Data[2 * C];
    CodeDropped[C] = Sec[SecCombos].Data[2 * C + 1];
    if (CodeNew[C] >= RecordCodes || CodeDropped[C] >= RecordCodes)
      return corrupt("bad name record code " + Twine(C));
    CodePacked[C] = CodeNew[C] | CodeDropped[C] << 4;
  }
  std::memcpy(TypeLetters, Sec[SecCombos].Data + 2 * RecordCodes, NumTypes);
  return Error::success();
}

/// Module runs: ascending, each naming a module.
Error CompactReader::readModuleRuns() {
  if (Sec[SecModuleRuns].Size % 8 || read32le(Sec[SecModuleRuns].Data) != 0)
    return corrupt("bad module runs");
  NumModuleRuns = Sec[SecModuleRuns].Size / 8;
  for (uint64_t K = 0; K < NumModuleRuns; ++K) {
    const uint8_t *Run = Sec[SecModuleRuns].Data + 8 * K;
    if (read32le(Run + 4) > NumModules ||
        (K && read32le(Run) <= read32le(Run - 8)))
      return corrupt("module run " + Twine(K) + " is out of order or range");
  }
  return Error::success();
}

Error CompactReader::readModuleNames() {
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

/// Every permutation entry is a name slot: the lookups read it unchecked.
Error CompactReader::checkPermutation() {
  for (uint32_t I = 0; I < NumSyms; ++I)
    if (readBits(Sec[SecPerm].Data, Sec[SecPerm].Size, uint64_t(I) * PermBits,
                 PermBits) >= NumSyms)
      return corrupt("permutation entry " + Twine(I) + " out of range");
  return Error::success();
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
  NumGuideEntries = Entries;
  NumSegments = Segments.size();
  GuideBlocks.resize(Entries + 1);
  GuideBlocks[Entries] = NumAddrBlocks - 1;
  // Each entry exactly as defined: the lookups trust it (a wrong one would
  // give a wrong block, or a long search).
  for (const Segment &Seg : Segments)
    for (uint64_t I = 0; I < Seg.NumEntries; ++I) {
      uint64_t E = Seg.FirstEntry + I;
      uint64_t V =
          readBits(GuideEntries, Size - EntriesAt, E * GuideBits, GuideBits);
      uint64_t At = Seg.Start + (I << Seg.Shift);
      if (V >= NumAddrBlocks)
        return corrupt("address guide entry " + Twine(E) + " out of range");
      if (blockRel(V) > At || (V + 1 < NumAddrBlocks && blockRel(V + 1) <= At))
        return corrupt("address guide entry " + Twine(E) +
                       " is not the last block at or below its address");
      GuideBlocks[E] = V;
    }
  return Error::success();
}

uint64_t CompactReader::blockRel(uint32_t B) const {
  return read32le(Sec[SecAddrIndex].Data + AddrEntryBytes * uint64_t(B));
}

#if DWARFPACK_KALLSYMS_VECTOR
#define DWARFPACK_AVX2 __attribute__((target("avx2,bmi,bmi2,lzcnt,popcnt")))
#endif

namespace {
/// Per byte value and K < 8, the position of its K-th lowest set bit (8
/// when it has fewer).
struct ByteSelectTable {
  uint8_t V[256][8];
  constexpr ByteSelectTable() : V() {
    for (unsigned B = 0; B < 256; ++B) {
      unsigned K = 0;
      for (unsigned I = 0; I < 8; ++I)
        V[B][I] = 8;
      for (unsigned I = 0; I < 8; ++I)
        if ((B >> I) & 1)
          V[B][K++] = I;
    }
  }
};
constexpr ByteSelectTable ByteSelect;

/// Position of the K-th lowest set bit of X, 64 when X has no more than K
/// set bits; without BMI2 and without a branch on X: byte counts by SWAR,
/// their prefix sums by one multiplication, the byte by a SWAR comparison,
/// the bit by a table.
unsigned selectBit(uint64_t X, unsigned K) {
  constexpr uint64_t Ones = 0x0101010101010101ULL;
  uint64_t C = X - ((X >> 1) & 0x5555555555555555ULL);
  C = (C & 0x3333333333333333ULL) + ((C >> 2) & 0x3333333333333333ULL);
  C = (C + (C >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  uint64_t Prefix = C * Ones; // byte I: set bits in bytes 0 .. I
  // Bytes whose prefix exceeds K have their top bit set below.
  uint64_t Above =
      ((Prefix | 0x8080808080808080ULL) - (uint64_t(K) + 1) * Ones) &
      0x8080808080808080ULL;
  if (K >= 64 || !Above)
    return 64;
  unsigned Byte = llvm::countr_zero(Above) / 8;
  unsigned Before = Byte ? unsigned(Prefix >> (8 * Byte - 8)) & 0xFF : 0;
  unsigned Pos = ByteSelect.V[(X >> (8 * Byte)) & 0xFF][K - Before];
  return 8 * Byte + Pos;
}

/// For low parts of up to 9 bits, the masks that compare up to 6 of them
/// with one value at once: pdep spreads them into lanes of Low + 1 bits
/// whose top bit (a guard) survives a subtraction exactly when the value
/// is at least the field.
struct SwarLanes {
  uint64_t Fields[10], Guards[10], Ones[10];
  constexpr SwarLanes() : Fields(), Guards(), Ones() {
    for (unsigned L = 0; L < 10; ++L)
      for (unsigned I = 0; I < 6; ++I) {
        Fields[L] |= ((uint64_t(1) << L) - 1) << (I * (L + 1));
        Guards[L] |= uint64_t(1) << (I * (L + 1) + L);
        Ones[L] |= uint64_t(1) << (I * (L + 1));
      }
  }
};
constexpr SwarLanes Lanes;
} // namespace

/// An address block's record (docs/Kallsyms.md, section 2), validated when
/// the table was opened.
struct CompactReader::AddrRecord {
  uint64_t Rel;   // the first symbol's address - Base
  uint64_t Unary; // the high parts, in unary
  const uint8_t *Lows;
  unsigned Shift, Low;
  uint32_t Elems; // symbols after the first
};

/// Where an address falls in its address block (symbol indexes in the
/// block; addresses relative to Base).
struct CompactReader::Hit {
  uint32_t Block;
  uint32_t Last; // the last symbol whose address is at most the address
  uint64_t At;   // the address of symbol Last
  uint64_t Next; // the next symbol's, or the next block's first, address
  bool HasNext;  // false after the very last symbol
};

LLVM_ATTRIBUTE_ALWAYS_INLINE void
CompactReader::openRecord(uint32_t B, AddrRecord &A) const {
  const uint8_t *E = Sec[SecAddrIndex].Data + AddrEntryBytes * uint64_t(B);
  A.Rel = read32le(E);
  A.Lows = Sec[SecAddrData].Data + read32le(E + 4);
  uint64_t W = read64le(E + 8);
  A.Unary = W & ((uint64_t(1) << UnaryBits) - 1);
  A.Shift = (W >> UnaryBits) & 7;
  A.Low = W >> (UnaryBits + 3);
  A.Elems =
      std::min<uint64_t>(NumSyms - (uint64_t(B) << AddrBlockShift), BlockSyms) -
      1;
}

/// Offset (unshifted) of element K of a record, by a portable select.
static uint64_t elementOffset(const CompactReader::AddrRecord &A, unsigned K) {
  uint64_t High = selectBit(A.Unary, K) - K;
  return (High << A.Low) |
         readBitsUnchecked(A.Lows, uint64_t(K) * A.Low, A.Low);
}

uint32_t CompactReader::decodeBlock(uint32_t B,
                                    uint64_t Addrs[BlockSyms]) const {
  AddrRecord A;
  openRecord(B, A);
  uint64_t Start = Base + A.Rel;
  Addrs[0] = Start;
  // The high parts in order: each set bit of Unary is the next element.
  uint64_t U = A.Unary;
  for (uint32_t K = 0; K < A.Elems; ++K, U &= U - 1) {
    uint64_t High = llvm::countr_zero(U) - K;
    uint64_t Off =
        (High << A.Low) | readBitsUnchecked(A.Lows, uint64_t(K) * A.Low, A.Low);
    Addrs[K + 1] = Start + (Off << A.Shift);
  }
  return A.Elems + 1;
}

Error CompactReader::initAddresses() {
  uint64_t DataSize = Sec[SecAddrData].Size;
  if (Sec[SecAddrIndex].Size != AddrEntryBytes * uint64_t(NumAddrBlocks))
    return corrupt("address block table has " + Twine(Sec[SecAddrIndex].Size) +
                   " bytes, needs " +
                   Twine(AddrEntryBytes * uint64_t(NumAddrBlocks)));
  // Every block's low parts where the previous block's end, the last ones
  // 8 bytes before the end of the section; in every block exactly as many
  // high parts as elements, non-decreasing addresses that stay below the
  // next block's first and within 4 GiB of Base. The lookups rely on all
  // of it.
  BlockAliases.assign(NumAddrBlocks, 0);
  BlockStarts.assign(uint64_t(NumAddrBlocks) + 3, ~uint64_t(0));
  uint64_t Expect = 0, PrevLast = 0;
  for (uint32_t B = 0; B < NumAddrBlocks; ++B) {
    const uint8_t *E = Sec[SecAddrIndex].Data + AddrEntryBytes * uint64_t(B);
    uint64_t Rel = read32le(E), Off = read32le(E + 4);
    AddrRecord A;
    openRecord(B, A);
    uint64_t End = Off + (uint64_t(A.Elems) * A.Low + 7) / 8;
    if (Off != Expect || End + 8 > DataSize)
      return corrupt("address block " + Twine(B) + " low parts at offset " +
                     Twine(Off) + " are out of place");
    Expect = End;
    if (B && Rel < PrevLast)
      return corrupt("address blocks are not sorted");
    BlockStarts[B] = Rel;
    uint32_t Aliases = B && Rel == PrevLast;
    if (uint32_t(llvm::popcount(A.Unary)) != A.Elems)
      return corrupt("address block " + Twine(B) + " has " +
                     Twine(llvm::popcount(A.Unary)) + " high parts for " +
                     Twine(A.Elems) + " symbols");
    uint64_t Prev = 0, U = A.Unary;
    for (uint32_t K = 0; K < A.Elems; ++K, U &= U - 1) {
      uint64_t Off2 = ((uint64_t(llvm::countr_zero(U)) - K) << A.Low) |
                      readBitsUnchecked(A.Lows, uint64_t(K) * A.Low, A.Low);
      if (Off2 < Prev)
        return corrupt("address block " + Twine(B) + " is not sorted");
      Aliases |= uint32_t(Off2 == Prev) << (K + 1);
      Prev = Off2;
    }
    BlockAliases[B] = Aliases;
    uint64_t Last = Rel + (Prev << A.Shift);
    if ((Prev << A.Shift) >> A.Shift != Prev || Last > UINT32_MAX)
      return corrupt("address block " + Twine(B) + " leaves 4 GiB");
    if (B + 1 < NumAddrBlocks && Last > blockRel(B + 1))
      return corrupt("address blocks are not sorted");
    PrevLast = Last;
  }
  if (Expect + 8 != DataSize)
    return corrupt("address data has " + Twine(DataSize - Expect) +
                   " bytes after its last low parts, not 8");
  if (EndAddress && *EndAddress < Base + PrevLast)
    return corrupt("end address below the last symbol");
  return Error::success();
}

// The block holding relative address R: the guide entries for R and for
// the next cell bound it; usually they are the same block or the one
// after, settled by comparing R with the next three blocks' first
// addresses without a branch (the comparisons are unpredictable).
LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t
CompactReader::findBlock(uint64_t R) const {
  // Every block starts below 4 GiB and the sentinels past the last block
  // are all ones: an address further out searches as 4 GiB, so that no
  // comparison counts a sentinel.
  R = std::min<uint64_t>(R, uint64_t(1) << 32);
  // The segment: the last one starting at or below R (few: a counting
  // loop of fixed length, no branch on R).
  const Segment *Seg = Segments.data();
  uint32_t NumSegs = NumSegments;
  if (LLVM_LIKELY(NumSegs <= 8)) {
    unsigned SI = 0;
    for (uint32_t K = 1; K < NumSegs; ++K)
      SI += R >= Seg[K].Start;
    Seg += SI;
  } else {
    size_t Lo = 0;
    for (size_t Len = NumSegs; Len > 1;) {
      size_t Half = Len / 2;
      Lo = Seg[Lo + Half].Start <= R ? Lo + Half : Lo;
      Len -= Half;
    }
    Seg += Lo;
  }
  uint64_t G =
      std::min<uint64_t>((R - Seg->Start) >> Seg->Shift, Seg->NumEntries - 1) +
      Seg->FirstEntry;
  // GuideBlocks has the entries and, after them, the last block.
  const uint32_t *GB = GuideBlocks.data();
  uint32_t Lo = GB[G], Hi = GB[G + 1];
  const uint64_t *Starts = BlockStarts.data();
  if (LLVM_UNLIKELY(Hi - Lo > 3)) {
    // Many blocks start inside one cell (entries are validated at open:
    // Lo <= Hi < NumAddrBlocks).
    for (uint32_t Len = Hi - Lo + 1; Len > 1;) {
      uint32_t Half = Len / 2;
      Lo = Starts[Lo + Half] <= R ? Lo + Half : Lo;
      Len -= Half;
    }
    return Lo;
  }
  // The blocks past Hi start above R, the sentinels past the last block
  // too.
  return Lo + (Starts[Lo + 1] <= R) + (Starts[Lo + 2] <= R) +
         (Starts[Lo + 3] <= R);
}

void CompactReader::locatePortable(uint64_t R, Hit &H) const {
  uint32_t B = findBlock(R);
  AddrRecord A;
  openRecord(B, A);
  uint64_t Q = (R - A.Rel) >> A.Shift;
  uint64_t LowMask = (uint64_t(1) << A.Low) - 1;
  uint64_t QH = Q >> A.Low, QL = Q & LowMask;
  // As locateFast: the run of elements whose high part is QH lies between
  // zero bits QH - 1 and QH of the unary; then its low parts one by one.
  uint64_t MaxQH = 63 - A.Elems;
  if (QH > MaxQH) {
    QH = MaxQH;
    QL = LowMask;
  }
  uint64_t NU = ~A.Unary;
  uint32_t Pz = selectBit(NU, QH);
  uint32_t Le = Pz - uint32_t(QH);
  uint32_t Lt = QH ? selectBit(NU, QH - 1) - uint32_t(QH - 1) : 0;
  uint32_t Cnt = Lt;
  while (Cnt < Le &&
         readBitsUnchecked(A.Lows, uint64_t(Cnt) * A.Low, A.Low) <= QL)
    ++Cnt;
  uint64_t AtOff = Cnt ? elementOffset(A, Cnt - 1) : 0;
  H.Block = B;
  H.Last = Cnt;
  H.At = A.Rel + (AtOff << A.Shift);
  H.HasNext = Cnt < A.Elems || B + 1 < NumAddrBlocks;
  H.Next = Cnt < A.Elems ? A.Rel + (elementOffset(A, Cnt) << A.Shift)
                         : BlockStarts[B + 1];
}

#if DWARFPACK_KALLSYMS_VECTOR
// The high parts narrow the search to one run of set bits of Unary (one
// select of a zero bit, by pdep); the low parts of that run are compared
// at once by SWAR when there are few and short ones. No branch depends on
// the address in the usual case.
DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE void
CompactReader::locateFast(uint64_t R, Hit &Out) const {
  uint32_t B = findBlock(R);
  // The block's permutation entries are needed next: fetch them while the
  // block is searched (the section has 8 readable bytes past any entry).
  __builtin_prefetch(Sec[SecPerm].Data +
                     ((uint64_t(B) << AddrBlockShift) * PermBits >> 3));
  AddrRecord A;
  openRecord(B, A);
  // The low parts load while the high parts are searched.
  __builtin_prefetch(A.Lows);
  uint64_t Q = (R - A.Rel) >> A.Shift;
  uint64_t LowMask = (uint64_t(1) << A.Low) - 1;
  uint64_t QH = Q >> A.Low, QL = Q & LowMask;
  // Past every high part: the last element answers (the zero bits above
  // the unary's set bits end empty runs).
  uint64_t MaxQH = 63 - A.Elems;
  bool Clamp = QH > MaxQH;
  QH = Clamp ? MaxQH : QH;
  QL = Clamp ? LowMask : QL;
  uint64_t NU = ~A.Unary;
  uint64_t ZBit = _pdep_u64(uint64_t(1) << QH, NU);
  uint32_t Pz = _tzcnt_u64(ZBit);
  uint32_t Le = Pz - uint32_t(QH); // elements with a high part <= QH
  // The zero bit before: none gives -1, so the run starts at bit 0.
  uint32_t Prev = 63 - uint32_t(_lzcnt_u64(NU & (ZBit - 1)));
  uint32_t Lt = Le - (Pz - Prev - 1); // elements with a high part < QH
  uint32_t In = Le - Lt;
  uint32_t Cnt;
  if (LLVM_LIKELY(In <= 6 && A.Low <= 9)) {
    uint64_t LB = uint64_t(Lt) * A.Low;
    uint64_t V = read64le(A.Lows + (LB >> 3)) >> (LB & 7);
    uint64_t Spread = _pdep_u64(V, Lanes.Fields[A.Low]);
    uint64_t Diff = ((QL * Lanes.Ones[A.Low]) | Lanes.Guards[A.Low]) - Spread;
    uint64_t InRun =
        Lanes.Guards[A.Low] & ((uint64_t(1) << (In * (A.Low + 1))) - 1);
    Cnt = Lt + uint32_t(_mm_popcnt_u64(Diff & InRun));
  } else {
    Cnt = Lt;
    while (Cnt < Le &&
           readBitsUnchecked(A.Lows, uint64_t(Cnt) * A.Low, A.Low) <= QL)
      ++Cnt;
  }
  // Elements Cnt - 1 (symbol Cnt; symbol 0 is at offset 0) and Cnt (the
  // next symbol), one select each; masks rather than branches, Cnt is
  // unpredictable.
  uint32_t K = Cnt - (Cnt != 0);
  uint64_t Bits = _pdep_u64(uint64_t(3) << K, A.Unary);
  uint64_t AtHigh = _tzcnt_u64(Bits) - K;
  uint64_t NextHigh = _tzcnt_u64(_blsr_u64(Bits)) - (K + 1);
  uint64_t AtOff = ((AtHigh << A.Low) |
                    readBitsUnchecked(A.Lows, uint64_t(K) * A.Low, A.Low)) &
                   (0 - uint64_t(Cnt != 0));
  uint64_t NextOff = (NextHigh << A.Low) |
                     readBitsUnchecked(A.Lows, uint64_t(K + 1) * A.Low, A.Low);
  // With Cnt 0, element 0 is the next one.
  NextOff =
      Cnt ? NextOff : ((AtHigh << A.Low) | readBitsUnchecked(A.Lows, 0, A.Low));
  bool InBlock = Cnt < A.Elems;
  Out.Block = B;
  Out.Last = Cnt;
  Out.At = A.Rel + (AtOff << A.Shift);
  Out.HasNext = InBlock || B + 1 < NumAddrBlocks;
  Out.Next = InBlock ? A.Rel + (NextOff << A.Shift) : BlockStarts[B + 1];
}

DWARFPACK_AVX2 void CompactReader::locateVector(uint64_t R, Hit &Out) const {
  locateFast(R, Out);
}
#endif

LLVM_ATTRIBUTE_ALWAYS_INLINE void CompactReader::locate(uint64_t R,
                                                        Hit &H) const {
#if DWARFPACK_KALLSYMS_VECTOR
  if (LLVM_LIKELY(Vector))
    return locateVector(R, H);
#endif
  locatePortable(R, H);
}

Expected<uint64_t> CompactReader::address(uint32_t I) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  AddrRecord A;
  openRecord(I >> AddrBlockShift, A);
  uint32_t K = I & (BlockSyms - 1);
  return Base + A.Rel + (K ? elementOffset(A, K - 1) << A.Shift : 0);
}

Error CompactReader::fillAddressAndSize(uint32_t I, SymbolInfo &Info) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  uint64_t Addrs[BlockSyms];
  uint32_t B = I >> AddrBlockShift;
  uint32_t N = decodeBlock(B, Addrs);
  uint64_t A = Addrs[I & (BlockSyms - 1)];
  Info.Address = A;
  Info.Index = I;
  Info.Size.reset();
  // The next distinct address: in this block, or the first one of a later
  // block that differs (aliases may run over block boundaries).
  for (uint32_t K = (I & (BlockSyms - 1)) + 1;; ++K) {
    if (K == N) {
      if (++B >= NumAddrBlocks)
        break;
      if (Base + blockRel(B) != A) {
        Info.Size = Base + blockRel(B) - A;
        return Error::success();
      }
      N = decodeBlock(B, Addrs);
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
    if (I && joinsWithSeparator(Tok)) {
      if (Seps.Word != '_')
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

// One address block searched once gives the symbol, its aliases and its
// size; only the answer's name is decoded. Alias groups that cross a block
// boundary (rare) take the generic path. The vector version is one
// function, so that the search, the permutation and the name decode are
// scheduled together.
template <typename LocateFn, typename NameFn>
LLVM_ATTRIBUTE_ALWAYS_INLINE Expected<bool>
CompactReader::lookupAddressWith(uint64_t Addr, SymbolInfo &Info,
                                 LocateFn Locate, NameFn Name) const {
  if (Addr < Base)
    return false;
  uint64_t R = Addr - Base;
  Hit H;
  Locate(R, H);
  uint32_t B = H.Block;
  // The alias group of symbol Last: the symbols back to the last one whose
  // address differs from its predecessor's. One that runs into the
  // previous or the next block (rare) takes the generic path.
  uint32_t Starts = ~BlockAliases[B] & uint32_t((uint64_t(2) << H.Last) - 1);
  if (LLVM_UNLIKELY(!Starts || (H.HasNext && H.Next == H.At)))
    return lookupAddressGeneric(Addr, Info);
  uint32_t First = 31 - llvm::countl_zero(Starts);
  // The size as a plain value and flag: an optional built here and copied
  // into Info makes a 16-byte load of two smaller stores (a stall).
  uint64_t SymSize = H.Next - H.At;
  bool HasSize = H.HasNext;
  if (LLVM_UNLIKELY(!HasSize) && EndAddress) {
    SymSize = *EndAddress - (Base + H.At);
    HasSize = true;
  }
  if (HasSize && R - H.At >= SymSize)
    return false;
  uint32_t Best = (B << AddrBlockShift) + First;
  char Type;
  if (LLVM_LIKELY(First == H.Last)) {
    if (Error E = Name(permAt(Best), Info.Name, Type))
      return std::move(E);
  } else {
    Expected<uint32_t> Chosen =
        canonicalAlias(Best, (B << AddrBlockShift) + H.Last, Info.Name, Type);
    if (!Chosen)
      return Chosen.takeError();
    Best = *Chosen;
  }
  Info.Address = Base + H.At;
  if (HasSize)
    Info.Size = SymSize;
  else
    Info.Size.reset();
  Info.Type = Type;
  Info.Index = Best;
  StringRef M = moduleNameOf(Best);
  if (M.empty())
    Info.Module.clear(); // inline, unlike assign
  else
    Info.Module.assign(M.data(), M.size());
  return true;
}

Expected<uint32_t> CompactReader::canonicalAlias(uint32_t First, uint32_t Last,
                                                 SmallVectorImpl<char> &Name,
                                                 char &Type) const {
  // Global first, then fewest leading underscores, then table order.
  SmallVector<uint32_t, 32> Toks, Cand;
  uint32_t Best = First;
  if (Error E = decodeName(permAt(Best), Toks, Type))
    return std::move(E);
  unsigned BestUnder = leadingUnderscores(Toks);
  for (uint32_t I = First + 1; I <= Last; ++I) {
    char CType;
    if (Error E = decodeName(permAt(I), Cand, CType))
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
  expand(Toks, Name);
  return Best;
}

Expected<bool> CompactReader::lookupAddressPortable(uint64_t Addr,
                                                    SymbolInfo &Info) const {
  return lookupAddressWith(
      Addr, Info, [this](uint64_t R, Hit &H) { locatePortable(R, H); },
      [this](uint32_t Slot, SmallVectorImpl<char> &Out, char &Type) {
        return nameGeneral(Slot, Out, Type);
      });
}

#if DWARFPACK_KALLSYMS_VECTOR
DWARFPACK_AVX2 Expected<bool>
CompactReader::lookupAddressVector(uint64_t Addr, SymbolInfo &Info) const {
  return lookupAddressWith(
      Addr, Info,
      [this](uint64_t R, Hit &H) DWARFPACK_AVX2 { locateFast(R, H); },
      [this](uint32_t Slot, SmallVectorImpl<char> &Out, char &Type)
          DWARFPACK_AVX2 -> Error {
            if (LLVM_LIKELY(nameFast(Slot, Out, Type)))
              return Error::success();
            return nameGeneral(Slot, Out, Type);
          });
}
#endif

Expected<bool> CompactReader::lookupAddressInto(uint64_t Addr,
                                                SymbolInfo &Info) const {
#if DWARFPACK_KALLSYMS_VECTOR
  if (LLVM_LIKELY(Vector))
    return lookupAddressVector(Addr, Info);
#endif
  return lookupAddressPortable(Addr, Info);
}

Expected<std::optional<uint32_t>>
CompactReader::findLastAtOrBelow(uint64_t Addr) const {
  if (Addr < Base)
    return std::nullopt;
  Hit H;
  locate(Addr - Base, H);
  return std::optional<uint32_t>((H.Block << AddrBlockShift) + H.Last);
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
  unsigned Bits = PermBits;
  uint32_t Z = Slot;
  bool Jumped = false;
  // Each step is one dependent read of the permutation (its entries were
  // checked at open): keep it short.
  for (unsigned Step = 0; Step < 2 * Stride + 2; ++Step) {
    uint32_t Next = permAt(Z);
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

void CompactReader::initTokenSpans(const token::TokenTable &Tokens) {
  Seps = Tokens.separators();
  NumTokens = Tokens.numTokens();
  TokenSpans.resize(NumTokens);
  for (uint32_t Id = 0; Id < NumTokens; ++Id) {
    StringRef T = Tokens.token(Id);
    bool Sep = Tokens.joinsWithSeparator(T);
    uint64_t Off = SpanText.size();
    if (Sep)
      SpanText.push_back(Seps.Word);
    SpanText.append(T.data(), T.size());
    if (Off >= (1u << 24) || T.size() + Sep > SpanLen) {
      TokenSpans[Id] = uint32_t(LongSpans.size() << 8) | LongSpan;
      LongSpans.push_back({Off, T.size() + Sep, Sep});
      continue;
    }
    TokenSpans[Id] =
        uint32_t(Off << 8) | (Sep ? SpanSep : 0) | uint32_t(T.size() + Sep);
  }
  SpanText.append(SpanCopy, '\0');
}

void CompactReader::expand(ArrayRef<uint32_t> Toks,
                           SmallVectorImpl<char> &Out) const {
  // Copies of SpanCopy bytes straight into Out, which may read past a span
  // (SpanText ends with that much) and write past the name (Out has the
  // room). The first token skips its separator.
  const uint32_t *Spans = TokenSpans.data();
  uint64_t Room = SpanCopy;
  bool Long = Toks.empty();
  for (uint32_t Id : Toks) {
    Room += Spans[Id] & SpanLen;
    Long |= (Spans[Id] & LongSpan) != 0;
  }
  if (LLVM_UNLIKELY(Long)) {
    // Exact copies, through tokenText.
    Out.clear();
    for (size_t I = 0; I < Toks.size(); ++I) {
      StringRef T = tokenText(Toks[I]);
      if (I && joinsWithSeparator(T))
        Out.push_back(Seps.Word);
      Out.append(T.begin(), T.end());
    }
    return;
  }
  Out.clear();
  Out.reserve(Room);
  char *P = Out.data();
  const char *Text = SpanText.data();
  for (size_t I = 0; I < Toks.size(); ++I)
    P = copySpan(P, Text, Spans[Toks[I]], I == 0);
  Out.resize_for_overwrite(P - Out.data());
}

Error CompactReader::openNameBlock(uint32_t B, NameBlock &NB) const {
  uint64_t Start = nameOffset(B), End = nameOffset(B + 1);
  // Every read inside a block may load 8 bytes: the writer leaves that
  // much after the last block.
  NB.PlanePos = Start + NameHeaderBytes;
  NB.ExtPos = NB.PlanePos + 4 * TypeBits;
  if (NB.ExtPos > End || End + NameDataSlack > Sec[SecNameData].Size)
    return badBlock(B, "offsets out of range");
  const uint8_t *D = Sec[SecNameData].Data;
  // The id tails end the block, often on another cache line.
  __builtin_prefetch(D + End - 1);
  NB.Hdr[0] = read64le(D + Start);
  NB.Hdr[1] = read64le(D + Start + 8);
  NB.Count = std::min<uint64_t>(NumSyms - (uint64_t(B) << NameBlockShift),
                                NameBlockRecords);
  // One escape byte per escaped record, at the block's end; the long
  // counts of those with a nibble of 15 before the ids.
  unsigned Escapes = 0;
  for (unsigned W = 0; W < 2; ++W) {
    unsigned InWord = std::min(16u, NB.Count > 16 * W ? NB.Count - 16 * W : 0);
    uint64_t X = InWord ? NB.Hdr[W] & (~uint64_t(0) >> (64 - 4 * InWord)) : 0;
    for (uint64_t L : {X & LowNibbles, (X >> 4) & LowNibbles})
      Escapes += (lanesAtLeast(L, RecordEscape) * LaneOnes) >> 56;
  }
  if (NB.ExtPos + Escapes > End)
    return badBlock(B, "escapes run past the block");
  NB.End = End;
  NB.EscPos = End - Escapes;
  NB.EndPos = NB.EscPos * 2;
  unsigned Long = 0;
  for (unsigned K = 0; K < Escapes; ++K)
    Long += ((D[NB.EscPos + K] & 15) == 15) + (D[NB.EscPos + K] >> 4 == 15);
  NB.SimpleEscapes = !Long;
  uint64_t Pos = NB.ExtPos;
  for (unsigned K = 0; K < Long; ++K) {
    const char *Err = nullptr;
    unsigned N = 0;
    uint64_t X = decodeULEB128Bounded(D + Pos, &N, D + NB.EscPos, &Err);
    if (Err || X > UINT32_MAX)
      return badBlock(B, "malformed long count of an escape");
    Pos += N;
  }
  NB.FirstPos = Pos * 2;
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
                                   Fn OnHeader) const {
  const uint8_t *D = Sec[SecNameData].Data;
  // Escape bytes from EscPos, their long counts from ExtPos (openNameBlock
  // checked that they end before the ids).
  uint64_t Esc = NB.EscPos, Ext = NB.ExtPos, ExtEnd = NB.FirstPos / 2;
  uint64_t Ids = 0, Len = 0;
  auto Count = [&](unsigned Nibble, uint64_t &V) {
    V = Nibble;
    if (Nibble < 15)
      return true;
    const char *Err = nullptr;
    unsigned N = 0;
    uint64_t X = decodeULEB128Bounded(D + Ext, &N, D + ExtEnd, &Err);
    if (Err || X > UINT32_MAX)
      return false;
    Ext += N;
    V = 15 + X;
    return true;
  };
  for (unsigned J = 0; J < Records; ++J) {
    unsigned C = nibbleOf(NB.Hdr, J);
    uint64_t New = CodeNew[C], Dropped = CodeDropped[C];
    if (C == RecordEscape) {
      if (Esc >= NB.End)
        return corrupt("name record escape past its block at byte " +
                       Twine(Esc));
      uint8_t X = D[Esc++];
      if (!Count(X & 15, New) || !Count(X >> 4, Dropped))
        return corrupt("malformed name record escape at byte " + Twine(Esc));
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
    return Id < R.NumTokens;
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

Error CompactReader::initNames() {
  FastNameBlocks.assign((uint64_t(NumNameBlocks) + 63) / 64, 0);
  RecordHeaders H;
  for (uint32_t B = 0; B < NumNameBlocks; ++B) {
    NameBlock NB;
    if (Error E = openNameBlock(B, NB))
      return E;
    if (Error E = readHeaders(NB, NB.Count, H))
      return E;
    uint64_t Ids = uint64_t(H.IdStart[NB.Count - 1]) + H.New[NB.Count - 1];
    IdReader Reader(*this, NB);
    if (!Reader.reserve(Ids))
      return badBlock(B, "token ids run past the block");
    bool Long = false;
    for (uint64_t K = 0; K < Ids; ++K) {
      uint32_t Id;
      if (!Reader.get(K, Id))
        return badBlock(B, "token id out of range");
      Long |= (TokenSpans[Id] & LongSpan) != 0;
    }
    uint64_t MaxLen = 0;
    for (unsigned J = 0; J < NB.Count; ++J)
      MaxLen = std::max<uint64_t>(MaxLen, uint64_t(H.Shared[J]) + H.New[J]);
    if (NB.SimpleEscapes && Ids <= 128 && MaxLen <= 64 && !Long &&
        NB.ExtPos + 64 <= NameDataAvail)
      FastNameBlocks[B / 64] |= uint64_t(1) << (B % 64);
  }
  return Error::success();
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
/// Every record's new and dropped token counts, record J in byte J: its
/// code's, from the code tables, or for an escaped record (IsEsc) its
/// escape byte's. Escape I is byte 32 - Escapes + I of EB (the 32 bytes
/// that end the block): an escaped record takes the byte of its rank among
/// the escapes, an exclusive prefix count.
DWARFPACK_AVX2 inline void recordCounts(__m256i Code, __m256i IsEsc,
                                        unsigned Escapes, __m256i EB,
                                        const uint8_t *CodeNew,
                                        const uint8_t *CodeDropped,
                                        __m256i &NewV, __m256i &DropV) {
  NewV = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(
                                 reinterpret_cast<const __m128i *>(CodeNew))),
                             Code);
  DropV =
      _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(
                              reinterpret_cast<const __m128i *>(CodeDropped))),
                          Code);
  const __m256i Nib32 = _mm256_set1_epi8(15);
  __m256i ELo = _mm256_and_si256(EB, Nib32);
  __m256i EHi = _mm256_and_si256(_mm256_srli_epi16(EB, 4), Nib32);
  __m256i One = _mm256_and_si256(IsEsc, _mm256_set1_epi8(1));
  __m256i Rank = _mm256_add_epi8(_mm256_sub_epi8(prefixSumBytes(One), One),
                                 _mm256_set1_epi8(char(32 - Escapes)));
  // Bytes 0-15 and 16-31 of the escape window, looked up by lane.
  __m256i High = _mm256_cmpgt_epi8(Rank, Nib32);
  __m256i EscNew = _mm256_blendv_epi8(
      _mm256_shuffle_epi8(_mm256_permute2x128_si256(ELo, ELo, 0x00), Rank),
      _mm256_shuffle_epi8(_mm256_permute2x128_si256(ELo, ELo, 0x11), Rank),
      High);
  __m256i EscDrop = _mm256_blendv_epi8(
      _mm256_shuffle_epi8(_mm256_permute2x128_si256(EHi, EHi, 0x00), Rank),
      _mm256_shuffle_epi8(_mm256_permute2x128_si256(EHi, EHi, 0x11), Rank),
      High);
  NewV = _mm256_blendv_epi8(NewV, EscNew, IsEsc);
  DropV = _mm256_blendv_epi8(DropV, EscDrop, IsEsc);
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
DWARFPACK_AVX2 Expected<bool>
CompactReader::openNameBlockVector(uint32_t B, NameBlock &NB, BlockCounts &BC,
                                   bool WithIds) const {
  uint64_t Start = nameOffset(B), End = nameOffset(B + 1);
  uint64_t SecSize = Sec[SecNameData].Size;
  NB.PlanePos = Start + NameHeaderBytes;
  NB.ExtPos = NB.PlanePos + 4 * TypeBits;
  if (NB.ExtPos > End || End + NameDataSlack > SecSize)
    return badBlock(B, "offsets out of range");
  const uint8_t *D = Sec[SecNameData].Data;
  NB.Hdr[0] = read64le(D + Start);
  NB.Hdr[1] = read64le(D + Start + 8);
  NB.Count = std::min<uint64_t>(NumSyms - (uint64_t(B) << NameBlockShift),
                                NameBlockRecords);
  NB.End = End;
  NB.SimpleEscapes = true;

  // Code nibbles as bytes, record J in byte J.
  const __m128i Nib = _mm_set1_epi8(15);
  __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + Start));
  // The escape bytes end the block: the 32 bytes before its end (the
  // section starts after the header, so they lie inside the file).
  __m256i EB =
      _mm256_loadu_si256(reinterpret_cast<const __m256i *>(D + End - 32));
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
  if (NB.ExtPos + Escapes > End)
    return badBlock(B, "escapes run past the block");
  NB.EscPos = End - Escapes;
  NB.EndPos = NB.EscPos * 2;
  __m256i ELo = _mm256_and_si256(EB, _mm256_set1_epi8(15));
  __m256i EHi =
      _mm256_and_si256(_mm256_srli_epi16(EB, 4), _mm256_set1_epi8(15));
  // Escape I is lane 32 - Escapes + I.
  uint32_t Used = uint32_t(~uint64_t(0) << (32 - Escapes));
  if (LLVM_UNLIKELY(uint32_t(_mm256_movemask_epi8(_mm256_or_si256(
                        _mm256_cmpeq_epi8(ELo, _mm256_set1_epi8(15)),
                        _mm256_cmpeq_epi8(EHi, _mm256_set1_epi8(15))))) &
                    Used))
    return false; // counts of 15 or more
  NB.FirstPos = NB.ExtPos * 2;
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
  __m256i NewV, DropV;
  recordCounts(Code, IsEsc, Escapes, EB, CodeNew, CodeDropped, NewV, DropV);
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

DWARFPACK_AVX2 Error CompactReader::decodeNameVector(
    uint32_t Slot, SmallVectorImpl<uint32_t> &Toks, char &Type) const {
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
  for (unsigned Tok = 0; Tok < RecLen; ++Tok) {
    unsigned J = lastSharingAtMost(SB, Tok, Upto);
    uint32_t Id = idFromCounts(BC, NB, uint64_t(First[J]) + (Tok - Shared[J]));
    if (Id >= NumTokens)
      return badBlock(B, "token id out of range");
    Toks[Tok] = Id;
  }
  return Error::success();
}

// decodeName and expand in one pass, for the lookups, on a block that was
// checked whole at open (FastNameBlocks), so nothing read here is checked
// again: the block's codes, escape bytes (its last bytes) and first id
// nibbles (at a fixed place) are loaded at once; every record's counts and
// the ids' tail sums come from vector passes; each token's id and text
// follow without a branch that depends on the data.
DWARFPACK_AVX2 LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CompactReader::nameFast(uint32_t Slot, SmallVectorImpl<char> &Out,
                        char &Type) const {
  uint32_t B = Slot >> NameBlockShift;
  if (LLVM_UNLIKELY(!((FastNameBlocks[B / 64] >> (B % 64)) & 1)))
    return false;
  unsigned Rec = Slot & (NameBlockRecords - 1);
  uint64_t Start, End;
  if (LLVM_LIKELY(NameIdxSlack)) {
    uint64_t Bit = uint64_t(B) * NameOffBits;
    uint64_t W = read64le(Sec[SecNameIndex].Data + (Bit >> 3)) >> (Bit & 7);
    uint64_t Mask = (uint64_t(1) << NameOffBits) - 1;
    Start = W & Mask;
    End = (W >> NameOffBits) & Mask;
  } else {
    Start = nameOffset(B);
    End = nameOffset(B + 1);
  }
  uint64_t ExtPos = Start + NameHeaderBytes + 4 * TypeBits;
  const uint8_t *D = Sec[SecNameData].Data;
  __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i *>(D + Start));
  // The section starts after the header: the 32 bytes before a block's
  // end lie inside the file.
  __m256i EB =
      _mm256_loadu_si256(reinterpret_cast<const __m256i *>(D + End - 32));
  __m256i FRaw =
      _mm256_loadu_si256(reinterpret_cast<const __m256i *>(D + ExtPos));
  const __m128i Nib = _mm_set1_epi8(15);
  const __m256i Nib32 = _mm256_set1_epi8(15);
  __m128i Lo = _mm_and_si128(X, Nib);
  __m128i Hi = _mm_and_si128(_mm_srli_epi16(X, 4), Nib);
  __m256i Code =
      _mm256_set_m128i(_mm_unpackhi_epi8(Lo, Hi), _mm_unpacklo_epi8(Lo, Hi));
  uint32_t Count = std::min<uint64_t>(NumSyms - (uint64_t(B) << NameBlockShift),
                                      NameBlockRecords);
  uint32_t InBlock = uint32_t(~uint64_t(0) >> (64 - Count));
  __m256i IsEsc = _mm256_cmpeq_epi8(Code, Nib32);
  unsigned Escapes =
      _mm_popcnt_u32(uint32_t(_mm256_movemask_epi8(IsEsc)) & InBlock);
  __m256i NewV, DropV;
  recordCounts(Code, IsEsc, Escapes, EB, CodeNew, CodeDropped, NewV, DropV);
  // Token counts (prefix sums of new - dropped), shared counts, and for
  // token t of record j the index of its id, Base_j + t (byte lanes: the
  // block has at most 128 ids).
  __m256i Len = prefixSumBytes(_mm256_sub_epi8(NewV, DropV));
  __m256i Ids = prefixSumBytes(NewV);
  __m256i Shared = _mm256_sub_epi8(Len, NewV);
  __m256i Base = _mm256_sub_epi8(_mm256_sub_epi8(Ids, NewV), Shared);
  alignas(32) uint8_t LenB[32], BaseB[32], IdsB[32];
  _mm256_store_si256(reinterpret_cast<__m256i *>(LenB), Len);
  _mm256_store_si256(reinterpret_cast<__m256i *>(BaseB), Base);
  _mm256_store_si256(reinterpret_cast<__m256i *>(IdsB), Ids);
  unsigned TypeIdx = 0;
  const uint8_t *Planes = D + Start + NameHeaderBytes;
  if (LLVM_LIKELY(TypeBits <= 1)) {
    // One plane (local and global text) or none; a plane of zeros reads
    // the type letters' first entry either way.
    TypeIdx = (read32le(Planes) >> Rec) & TypeBits;
  } else {
    for (unsigned Bit = 0; Bit < TypeBits; ++Bit)
      TypeIdx |= ((read32le(Planes + 4 * Bit) >> Rec) & 1) << Bit;
  }
  Type = char(TypeLetters[TypeIdx]);
  unsigned RecLen = LenB[Rec];
  unsigned NeedIds = IdsB[Rec];
  // The ids' first nibbles as bytes, and the tail nibbles of ids 0 .. k
  // as byte prefix sums per 32 ids (at most 32 * 6 each).
  alignas(32) uint8_t Fs[128], Pre[128];
  uint32_t Carry[4];
  const __m256i TailTab = _mm256_broadcastsi128_si256(
      _mm_load_si128(reinterpret_cast<const __m128i *>(IdTailNibbles)));
  auto Tails = [&](__m256i Raw, unsigned G) DWARFPACK_AVX2 {
    __m256i FL = _mm256_and_si256(Raw, Nib32);
    __m256i FH = _mm256_and_si256(_mm256_srli_epi16(Raw, 4), Nib32);
    __m256i A0 = _mm256_unpacklo_epi8(FL, FH);
    __m256i A1 = _mm256_unpackhi_epi8(FL, FH);
    __m256i G0 = _mm256_permute2x128_si256(A0, A1, 0x20);
    __m256i G1 = _mm256_permute2x128_si256(A0, A1, 0x31);
    _mm256_store_si256(reinterpret_cast<__m256i *>(Fs + 32 * G), G0);
    _mm256_store_si256(reinterpret_cast<__m256i *>(Fs + 32 * G + 32), G1);
    _mm256_store_si256(reinterpret_cast<__m256i *>(Pre + 32 * G),
                       prefixSumBytes(_mm256_shuffle_epi8(TailTab, G0)));
    _mm256_store_si256(reinterpret_cast<__m256i *>(Pre + 32 * G + 32),
                       prefixSumBytes(_mm256_shuffle_epi8(TailTab, G1)));
  };
  Tails(FRaw, 0);
  Carry[0] = 0;
  Carry[1] = Pre[31];
  if (LLVM_UNLIKELY(NeedIds > 64)) {
    Tails(
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(D + ExtPos + 32)),
        2);
    Carry[2] = Carry[1] + Pre[63];
    Carry[3] = Carry[2] + Pre[95];
  }
  // Tails end where the escape bytes start. Token t comes from the last
  // record j <= Rec sharing at most t tokens: a compare and a bit scan.
  uint64_t TailEnd = 2 * (End - Escapes);
  uint32_t Upto = uint32_t((uint64_t(2) << Rec) - 1);
  // Straight into Out: copies of SpanCopy bytes (a span is at most SpanLen
  // and a name at most 64 tokens here), the first token without its
  // separator.
  // Emptied first, so that setting the size at the end always grows it
  // (one predictable path, where a shrink or a growth would be a branch on
  // the name's length).
  Out.clear();
  if (LLVM_UNLIKELY(Out.capacity() < RecLen * SpanLen + SpanCopy))
    Out.reserve(RecLen * SpanLen + SpanCopy);
  char *P = Out.data();
  const uint32_t *Spans = TokenSpans.data();
  const char *Text = SpanText.data();
  unsigned Skip = 1;
  for (unsigned T = 0; T < RecLen; ++T) {
    uint32_t M =
        uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(
            _mm256_min_epu8(Shared, _mm256_set1_epi8(char(T))), Shared))) &
        Upto;
    unsigned J = 31 - _lzcnt_u32(M);
    unsigned K = uint8_t(BaseB[J] + T);
    unsigned F = Fs[K];
    uint64_t Pos = TailEnd - Pre[K] - Carry[K >> 5];
    uint64_t V = read64le(D + (Pos >> 1)) >> ((Pos & 1) * 4);
    P = copySpan(P, Text, Spans[IdAdd[F] + uint32_t(V & IdTailMask[F])], Skip);
    Skip = 0;
  }
  Out.resize_for_overwrite(P - Out.data());
  return true;
}

#endif

Error CompactReader::nameGeneral(uint32_t Slot, SmallVectorImpl<char> &Out,
                                 char &Type) const {
  SmallVector<uint32_t, 32> Toks;
  if (Error E = decodeName(Slot, Toks, Type))
    return E;
  expand(Toks, Out);
  return Error::success();
}

StringRef CompactReader::moduleNameOf(uint32_t I) const {
  const uint8_t *R = Sec[SecModuleRuns].Data;
  // Branch-free: the comparisons are unpredictable, and a /proc/kallsyms
  // with many modules has thousands of runs.
  uint64_t Lo = 0;
  for (uint64_t Len = NumModuleRuns; Len > 1;) {
    uint64_t Half = Len / 2;
    Lo = read32le(R + (Lo + Half) * 8) <= I ? Lo + Half : Lo;
    Len -= Half;
  }
  return ModuleNames[read32le(R + Lo * 8 + 4)];
}

Error CompactReader::describe(uint32_t I, SymbolInfo &Info) const {
  if (I >= NumSyms)
    return corrupt("symbol index " + Twine(I) + " out of range");
  SmallVector<uint32_t, 16> Toks;
  if (Error E = decodeName(permAt(I), Toks, Info.Type))
    return E;
  expand(Toks, Info.Name);
  Info.Module = moduleNameOf(I).str();
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
  token::NameComparer Cmp(Name, Seps);
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
  token::NameComparer Cmp(Name, Seps);
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
  splitWords(Name, Seps, Words);
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
        return Id < NumTokens;
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
    Info.Name = Name;
    Info.Type = Slots[K].second;
    StringRef M = moduleNameOf(*I);
    Info.Module.assign(M.data(), M.size());
    if (Error E = fillAddressAndSize(*I, Info))
      return E;
  }
  if (Out.size() > 1)
    llvm::sort(Out, [](const SymbolInfo &A, const SymbolInfo &B) {
      return A.Index < B.Index;
    });
  return Error::success();
}
