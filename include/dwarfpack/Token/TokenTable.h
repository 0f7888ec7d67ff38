//===- TokenTable.h - Shared token encoder for names ----------------------===//
//
// Every name dwarfpack stores (kernel symbols, function and type names, file
// paths) is split into word tokens at a separator byte ('_' by default) and
// stored as a sequence of token ids. Ids are given in order of decreasing
// frequency, so the most frequent words take one byte. The serialized table
// (version 1) is read in place (zero copy); the front-coded version 2 is
// decoded once into memory the table owns. docs/TokenEncoder.md specifies
// both.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOKEN_TOKENTABLE_H
#define DWARFPACK_TOKEN_TOKENTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dwarfpack {
namespace token {

/// "DPTK" read as a little-endian u32.
constexpr uint32_t TableMagic = 0x4B545044;
constexpr uint8_t TableVersion = 1;
/// The front-coded table: each token's bytes after those it shares with the
/// previous id.
constexpr uint8_t FrontCodedVersion = 2;
/// A version-2 table is refused when its decoded image would exceed this
/// many times the table's own size: a small file must not make a reader
/// allocate without bound.
constexpr uint64_t MaxExpansion = 16;
/// Zero bytes after the token text of a decoded image, so readers may load
/// 16 bytes from any byte of a token.
constexpr uint64_t OwnedTextPadding = 16;
constexpr uint64_t TableHeaderSize = 24;
/// One sparse offset every 2^IndexShift tokens.
constexpr unsigned IndexShift = 4;
/// Token lengths are nibbles; lengths >= this are in the long-length list.
constexpr uint8_t LongLength = 15;
constexpr uint32_t MaxTokens = 1u << 24;

/// The variable-length code of token ids. Ids below OneByte take one byte;
/// the next (0xFF - OneByte) * 256 take two (high bits in the first byte);
/// the rest take four (0xFF, then id - twoByteLimit() as u24 LE). The
/// builder picks OneByte to make the names it saw smallest.
struct IdCode {
  uint8_t OneByte = 0xC0;

  uint32_t twoByteLimit() const { return OneByte + (0xFFu - OneByte) * 256u; }
  unsigned size(uint32_t Id) const {
    return Id < OneByte ? 1 : Id < twoByteLimit() ? 2 : 4;
  }
  void encode(uint32_t Id, llvm::SmallVectorImpl<uint8_t> &Out) const {
    if (Id < OneByte) {
      Out.push_back(uint8_t(Id));
    } else if (Id < twoByteLimit()) {
      uint32_t V = Id - OneByte;
      Out.push_back(uint8_t(OneByte + (V >> 8)));
      Out.push_back(uint8_t(V));
    } else {
      uint32_t V = Id - twoByteLimit();
      Out.push_back(0xFF);
      Out.push_back(uint8_t(V));
      Out.push_back(uint8_t(V >> 8));
      Out.push_back(uint8_t(V >> 16));
    }
  }
  /// Decodes one code at P (advancing it); false when it runs past End.
  bool decode(const uint8_t *&P, const uint8_t *End, uint32_t &Id) const {
    if (P >= End)
      return false;
    uint8_t B = *P;
    if (B < OneByte) {
      Id = B;
      ++P;
      return true;
    }
    if (B < 0xFF) {
      if (End - P < 2)
        return false;
      Id = OneByte + ((uint32_t(B - OneByte) << 8) | P[1]);
      P += 2;
      return true;
    }
    if (End - P < 4)
      return false;
    Id = twoByteLimit() +
         (P[1] | (uint32_t(P[2]) << 8) | (uint32_t(P[3]) << 16));
    P += 4;
    return true;
  }
};

/// Where names are cut into tokens. Word separators are dropped and
/// restored between tokens; a sub-separator (0 for none) starts a token and
/// stays in it, so "get.isra.0" is "get", ".isra", ".0" and the common
/// compiler suffixes become shared tokens.
struct Separators {
  char Word = '_';
  char Sub = '.';
};

/// Splits Name into tokens: at every word separator ("" gives one empty
/// token, "a__b" gives "a", "", "b"), then each word before every
/// sub-separator. Joining restores Name: a word separator goes between two
/// tokens unless the second starts with the sub-separator.
void splitTokens(llvm::StringRef Name, Separators Seps,
                 llvm::SmallVectorImpl<llvm::StringRef> &Tokens);

/// Ids of the words of names, built from a corpus. Owns the serialized form.
class TokenEncoder {
public:
  /// Token ids of Name; false if a word of Name is not in the table.
  bool tokenize(llvm::StringRef Name,
                llvm::SmallVectorImpl<uint32_t> &Ids) const;
  /// Appends [ULEB128 token count][id codes]; false as for tokenize.
  bool encodeName(llvm::StringRef Name,
                  llvm::SmallVectorImpl<uint8_t> &Out) const;
  uint32_t numTokens() const { return NumTokens; }
  Separators separators() const { return Seps; }
  const IdCode &code() const { return Code; }
  /// Final id of a provisional id handed out by TokenTableBuilder::addName.
  uint32_t finalId(uint32_t Provisional) const { return Remap[Provisional]; }
  /// The serialized table (docs/TokenEncoder.md), a multiple of 4 bytes.
  llvm::StringRef serialized() const { return Serialized; }
  /// The table front-coded (version 2), a multiple of 4 bytes; version 1
  /// (serialized()) when version 2 would exceed MaxExpansion or its u32
  /// fields. Smallest after sortWithin has put similar tokens side by side.
  std::string frontCoded() const;

  /// Reorders the ids inside each range [RangeEnds[I-1], RangeEnds[I])
  /// (the first from 0) by the tokens' bytes, so that front coding finds
  /// shared prefixes; ids past the last end keep their place, ends past
  /// numTokens() are clamped. A writer passes ranges of ids whose codes
  /// have one length, so no name grows. finalId(), tokenize() and the
  /// serialized forms follow the new ids; the byte id code keeps the
  /// limit finish() chose.
  void sortWithin(llvm::ArrayRef<uint32_t> RangeEnds);

private:
  friend class TokenTableBuilder;
  /// The tokens by id (referring to the keys of Ids).
  std::vector<llvm::StringRef> byId() const;
  llvm::Error serialize(llvm::ArrayRef<llvm::StringRef> ById);

  llvm::StringMap<uint32_t> Ids;
  std::vector<uint32_t> Remap;
  std::string Serialized;
  uint32_t NumTokens = 0;
  Separators Seps;
  IdCode Code;
};

/// Collects the tokens of a corpus and assigns ids. Deterministic: ids
/// follow decreasing frequency (or weight), ties broken by the bytes.
class TokenTableBuilder {
public:
  explicit TokenTableBuilder(Separators Seps = {}) : Seps(Seps) {}
  /// Counts the words of Name. When Provisional is given, appends one
  /// provisional id per word (see TokenEncoder::finalId), which spares
  /// writers a second hash lookup per word.
  void addName(llvm::StringRef Name,
               llvm::SmallVectorImpl<uint32_t> *Provisional = nullptr);
  /// Counts one token (a piece of a name as splitTokens cuts it) and
  /// returns its provisional id. Writers that tokenize names themselves use
  /// it, e.g. to reuse the ids of the tokens a sorted name shares with the
  /// previous one instead of hashing them again.
  uint32_t addToken(llvm::StringRef Token);
  /// Distinct tokens so far (provisional ids are below this).
  uint32_t numTokens() const { return Words.size(); }
  /// Assigns ids and picks the id code. Weights, indexed by provisional id,
  /// replace the token counts when given: a writer that stores only some
  /// occurrences (front coding) passes how often each token is written.
  /// Fails only when the corpus has more than MaxTokens distinct tokens.
  llvm::Expected<TokenEncoder>
  finish(llvm::ArrayRef<uint64_t> Weights = {}) const;

private:
  Separators Seps;
  llvm::StringMap<uint32_t> Index;
  std::vector<uint32_t> Counts;
  std::vector<llvm::StringRef> Words;
};

/// Compares a name fed token by token with a plain string S, as memcmp of
/// the expanded bytes would, without building the name: readers decode ids
/// and compare as they go. Bytes are compared in a plain loop: tokens are
/// short, and a library memcmp call per token costs more than the bytes.
class NameComparer {
public:
  NameComparer(llvm::StringRef S, Separators Seps)
      : P(S.bytes_begin()), Size(S.size()), Seps(Seps) {}
  /// Feeds the next token (First for the name's first). Returns the sign of
  /// the comparison once it is decided, 0 while it is not.
  int feed(llvm::StringRef Tok, bool First) {
    if (!First && (!Seps.Sub || Tok.empty() || Tok[0] != Seps.Sub)) {
      if (Pos == Size)
        return 1;
      unsigned char Sep = Seps.Word;
      if (Sep != P[Pos])
        return Sep < P[Pos] ? -1 : 1;
      ++Pos;
    }
    const unsigned char *Q = Tok.bytes_begin();
    for (size_t J = 0; J < Tok.size(); ++J, ++Pos) {
      if (Pos == Size)
        return 1;
      if (Q[J] != P[Pos])
        return Q[J] < P[Pos] ? -1 : 1;
    }
    return 0;
  }
  /// The result after the last token: equal, or the name is a prefix.
  int finish() const { return Pos == Size ? 0 : -1; }

private:
  const unsigned char *P;
  size_t Size;
  size_t Pos = 0;
  Separators Seps;
};

/// View of a serialized token table. All offsets are validated by
/// create(), so token() cannot read out of bounds.
class TokenTable {
public:
  /// Validates Bytes and returns a table. A version-1 table is a view of
  /// Bytes (which must stay alive); a version-2 table is decoded once into
  /// an image the table owns (shared by its copies), which needs at most
  /// MaxExpansion times the table's size. Size receives the number of
  /// bytes the table occupies in Bytes.
  static llvm::Expected<TokenTable> create(llvm::StringRef Bytes,
                                           uint64_t *Size = nullptr);

  /// True when the text lives in an image the table owns (version 2);
  /// then at least OwnedTextPadding zero bytes follow the last token. A
  /// view (version 1) has after its text whatever follows in Bytes.
  bool ownsText() const { return Image != nullptr; }

  uint32_t numTokens() const { return NumTokens; }
  Separators separators() const { return Seps; }
  const IdCode &code() const { return Code; }
  /// The text of token Id; Id must be < numTokens().
  llvm::StringRef token(uint32_t Id) const {
    uint32_t InGroup = Id & ((1u << IndexShift) - 1);
    uint64_t Off =
        llvm::support::endian::read32le(Offsets + (Id >> IndexShift) * 4);
    if (InGroup) {
      // The 16 length nibbles of a group are one u64: sum the ones before
      // Id at once. A group at the very end may be shorter than 8 bytes.
      uint64_t GroupByte = uint64_t(Id >> IndexShift) * 8;
      if (LLVM_UNLIKELY(GroupByte + 8 > LengthsSize))
        return tokenSlow(Id);
      uint64_t V = llvm::support::endian::read64le(Lengths + GroupByte);
      V &= ~uint64_t(0) >> (64 - 4 * InGroup);
      // Any nibble 15 (a long token) before Id: search the long list.
      if (LLVM_UNLIKELY(V & (V >> 1) & (V >> 2) & (V >> 3) &
                        0x1111111111111111ULL))
        return tokenWithLongs(Id);
      uint64_t Bytes2 =
          (V & 0x0F0F0F0F0F0F0F0FULL) + ((V >> 4) & 0x0F0F0F0F0F0F0F0FULL);
      // Each byte is at most 28 and all eight at most 224: no carries.
      Off += (Bytes2 * 0x0101010101010101ULL) >> 56;
    }
    return llvm::StringRef(Bytes + Off, tokenLength(Id));
  }

  /// The length of token Id (< numTokens()), without finding its bytes: a
  /// cheap first test when looking for a given token.
  uint32_t length(uint32_t Id) const { return tokenLength(Id); }

  /// True when a word separator goes before token Tok (not the first).
  bool joinsWithSeparator(llvm::StringRef Tok) const {
    return !Seps.Sub || Tok.empty() || Tok[0] != Seps.Sub;
  }
  /// Appends the name made of Ids.
  void expand(llvm::ArrayRef<uint32_t> Ids, std::string &Out) const;
  /// Compares the name made of Ids with S, as memcmp would compare the
  /// expanded bytes, stopping at the first difference.
  int compare(llvm::ArrayRef<uint32_t> Ids, llvm::StringRef S) const;

  /// Reads the ids of one name written by TokenEncoder::encodeName at P
  /// (advancing it), checking every id against the table.
  llvm::Error readName(const uint8_t *&P, const uint8_t *End,
                       llvm::SmallVectorImpl<uint32_t> &Ids) const;
  /// Reads one id code and checks it against the table.
  bool readId(const uint8_t *&P, const uint8_t *End, uint32_t &Id) const {
    return Code.decode(P, End, Id) && Id < NumTokens;
  }

private:
  uint8_t nibble(uint32_t Id) const {
    return (Lengths[Id >> 1] >> ((Id & 1) * 4)) & 15;
  }
  uint32_t tokenLength(uint32_t Id) const {
    uint8_t L = nibble(Id);
    return LLVM_LIKELY(L != LongLength) ? L : longTokenLength(Id);
  }
  uint32_t longTokenLength(uint32_t Id) const;
  llvm::StringRef tokenWithLongs(uint32_t Id) const;
  /// token() by adding the lengths one at a time.
  llvm::StringRef tokenSlow(uint32_t Id) const;
  static llvm::Expected<TokenTable> createFrontCoded(llvm::StringRef Data,
                                                     uint64_t *Size);

  /// The decoded version-1 image of a version-2 table; the pointers below
  /// point into it. Shared, so copies and moves keep them valid.
  std::shared_ptr<const std::string> Image;
  const uint8_t *Offsets = nullptr; // u32[ceil(NumTokens / 16)]
  const uint8_t *Longs = nullptr;   // (u32 id, u32 length)[NumLong]
  const uint8_t *Lengths = nullptr; // nibbles, u8[ceil(NumTokens / 2)]
  const char *Bytes = nullptr;
  uint64_t LengthsSize = 0;
  uint32_t NumTokens = 0;
  uint32_t NumLong = 0;
  Separators Seps;
  IdCode Code;
};

} // namespace token
} // namespace dwarfpack

#endif
