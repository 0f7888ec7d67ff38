//===- TokenTable.h - Shared token encoder for names ----------------------===//
//
// Every name dwarfpack stores (kernel symbols, function and type names, file
// paths) is split into word tokens at a separator byte ('_' by default) and
// stored as a sequence of token ids. Ids are given in order of decreasing
// frequency, so the most frequent words take one byte. The serialized table
// is read in place (zero copy); docs/TokenEncoder.md specifies it.
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
#include <string>
#include <vector>

namespace dwarfpack {
namespace token {

/// "DPTK" read as a little-endian u32.
constexpr uint32_t TableMagic = 0x4B545044;
constexpr uint8_t TableVersion = 1;
/// One sparse offset every 2^IndexShift tokens.
constexpr unsigned IndexShift = 4;
/// Token lengths >= this are stored in the long-length list.
constexpr uint8_t LongLength = 255;

/// Ids below this take one byte.
constexpr uint32_t OneByteIds = 0xC0;
/// Ids below this take two bytes; the rest take four (0xFF + u24).
constexpr uint32_t TwoByteIds = OneByteIds + (0xFF - 0xC0) * 256;
constexpr uint32_t MaxTokens = TwoByteIds + (1u << 24);

/// Appends the variable-length code of Id (1, 2 or 4 bytes).
void encodeId(uint32_t Id, llvm::SmallVectorImpl<uint8_t> &Out);
/// Size in bytes of the code of Id.
inline unsigned idCodeSize(uint32_t Id) {
  return Id < OneByteIds ? 1 : Id < TwoByteIds ? 2 : 4;
}
/// Decodes one id code at P (advancing it); false when it runs past End.
inline bool decodeId(const uint8_t *&P, const uint8_t *End, uint32_t &Id) {
  if (P >= End)
    return false;
  uint8_t B = *P;
  if (B < OneByteIds) {
    Id = B;
    ++P;
    return true;
  }
  if (B < 0xFF) {
    if (End - P < 2)
      return false;
    Id = OneByteIds + ((uint32_t(B - OneByteIds) << 8) | P[1]);
    P += 2;
    return true;
  }
  if (End - P < 4)
    return false;
  Id = TwoByteIds + (P[1] | (uint32_t(P[2]) << 8) | (uint32_t(P[3]) << 16));
  P += 4;
  return true;
}

/// Splits Name at every separator; "" gives one empty word, "a__b" gives
/// "a", "", "b". Joining the words with the separator restores Name.
void splitWords(llvm::StringRef Name, char Separator,
                llvm::SmallVectorImpl<llvm::StringRef> &Words);

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
  char separator() const { return Separator; }
  /// Final id of a provisional id handed out by TokenTableBuilder::addName.
  uint32_t finalId(uint32_t Provisional) const { return Remap[Provisional]; }
  /// The serialized table (docs/TokenEncoder.md), a multiple of 4 bytes.
  llvm::StringRef serialized() const { return Serialized; }

private:
  friend class TokenTableBuilder;
  llvm::StringMap<uint32_t> Ids;
  std::vector<uint32_t> Remap;
  std::string Serialized;
  uint32_t NumTokens = 0;
  char Separator = '_';
};

/// Collects the words of a corpus and assigns ids. Deterministic: ids follow
/// decreasing frequency, ties broken by the bytes of the word.
class TokenTableBuilder {
public:
  explicit TokenTableBuilder(char Separator = '_') : Separator(Separator) {}
  /// Counts the words of Name. When Provisional is given, appends one
  /// provisional id per word (see TokenEncoder::finalId), which spares
  /// writers a second hash lookup per word.
  void addName(llvm::StringRef Name,
               llvm::SmallVectorImpl<uint32_t> *Provisional = nullptr);
  /// Fails only when the corpus has more than MaxTokens distinct words.
  llvm::Expected<TokenEncoder> finish() const;

private:
  char Separator;
  llvm::StringMap<uint32_t> Index;
  std::vector<uint32_t> Counts;
  std::vector<llvm::StringRef> Words;
};

/// Zero-copy view of a serialized token table. All offsets are validated by
/// create(), so token() cannot read out of bounds.
class TokenTable {
public:
  /// Validates Bytes (which must stay alive) and returns a view of them.
  /// Size receives the number of bytes the table occupies.
  static llvm::Expected<TokenTable> create(llvm::StringRef Bytes,
                                           uint64_t *Size = nullptr);

  uint32_t numTokens() const { return NumTokens; }
  char separator() const { return Separator; }
  /// The text of token Id; Id must be < numTokens().
  llvm::StringRef token(uint32_t Id) const {
    uint32_t First = Id & ~((1u << IndexShift) - 1);
    uint64_t Off =
        llvm::support::endian::read32le(Offsets + (Id >> IndexShift) * 4);
    for (uint32_t I = First; I < Id; ++I)
      Off += tokenLength(I);
    return llvm::StringRef(Bytes + Off, tokenLength(Id));
  }

  /// Appends the name made of Ids (words joined by the separator).
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
    return decodeId(P, End, Id) && Id < NumTokens;
  }

private:
  uint32_t tokenLength(uint32_t Id) const {
    uint8_t L = Lengths[Id];
    return LLVM_LIKELY(L != LongLength) ? L : longTokenLength(Id);
  }
  uint32_t longTokenLength(uint32_t Id) const;

  const uint8_t *Offsets = nullptr; // u32[ceil(NumTokens / 16)]
  const uint8_t *Longs = nullptr;   // (u32 id, u32 length)[NumLong]
  const uint8_t *Lengths = nullptr; // u8[NumTokens]
  const char *Bytes = nullptr;
  uint32_t NumTokens = 0;
  uint32_t NumLong = 0;
  char Separator = '_';
};

} // namespace token
} // namespace dwarfpack

#endif
