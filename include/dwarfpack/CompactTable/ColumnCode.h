//===- ColumnCode.h - Prefix code of the compact table's columns ----------===//
//
// Line-row columns are small numbers with a skewed distribution (the
// indentation levels of a code base): a kernel's 1.25 million rows take
// 4.7 bits each under a Huffman code against 8 as ULEB128 bytes. The
// compact table stores one canonical prefix code for the whole file (its
// ColumnCode section) and each line table's columns as a bit string of
// codes (docs/CompactTable.md, "Column code"). Writer and reader share
// this class.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_COMPACTTABLE_COLUMNCODE_H
#define DWARFPACK_COMPACTTABLE_COLUMNCODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dwarfpack {
namespace compact {

/// Appends bits, most significant first, to bytes.
class BitWriter {
public:
  /// Appends the Length low bits of Code (Length <= 32).
  void write(uint32_t Code, unsigned Length);
  /// Bits written so far.
  uint64_t bits() const { return uint64_t(Bytes.size()) * 8 + NumPending; }
  /// The bytes, the last one padded with zero bits.
  std::string finish();

private:
  std::string Bytes;
  uint64_t Pending = 0; ///< Bits not yet in Bytes, in the low NumPending.
  unsigned NumPending = 0;
};

/// Reads bits, most significant first, from [Begin, End). Past End it
/// reads zero bits; overran() then tells.
class BitReader {
public:
  BitReader() = default;
  BitReader(const uint8_t *Begin, const uint8_t *End)
      : P(Begin), End(End), Available(uint64_t(End - Begin) * 8) {}

  /// Passes over the next N bits (a row stop's jump into a table's column
  /// codes); false when fewer are left.
  bool skipBits(uint64_t N) {
    if (N > Available - std::min(Available, Consumed))
      return false;
    // Whole bytes are passed over by moving the start while nothing is
    // buffered (a new reader: a refill may leave bits of the next byte).
    if (Count == 0 && Buffer == 0) {
      P += N / 8;
      Consumed += N & ~uint64_t(7);
      N &= 7;
    }
    while (N) {
      const unsigned Step = unsigned(std::min<uint64_t>(N, 32));
      peek(Step);
      consume(Step);
      N -= Step;
    }
    return true;
  }

  /// The next N bits (N <= 32) without consuming them.
  uint32_t peek(unsigned N) {
    if (Count < N)
      refill();
    return uint32_t(Buffer >> (64 - N));
  }
  void consume(unsigned N) {
    Buffer <<= N;
    Count -= N;
    Consumed += N;
  }
  bool overran() const { return Consumed > Available; }
  /// Bits read so far.
  uint64_t consumed() const { return Consumed; }
  /// At most the padding of the last byte is left.
  bool atEnd() const { return !overran() && Available - Consumed < 8; }

private:
  void refill() {
    if (LLVM_LIKELY(End - P >= 8)) {
      // Eight bytes at once: the whole bytes that fit become valid; the
      // bits of the next one that came along are its own, in their place,
      // and the next refill ORs them in again.
      Buffer |= llvm::support::endian::read64be(P) >> Count;
      const unsigned Bytes = (63 - Count) >> 3;
      P += Bytes;
      Count += 8 * Bytes;
      return;
    }
    while (Count <= 56) {
      uint64_t Byte = P < End ? *P++ : 0;
      Buffer |= Byte << (56 - Count);
      Count += 8;
    }
  }

  const uint8_t *P = nullptr, *End = nullptr;
  uint64_t Buffer = 0; ///< Unread bits, left-aligned.
  unsigned Count = 0;  ///< Valid bits in Buffer.
  uint64_t Consumed = 0, Available = 0;
};

/// A canonical prefix code over column values (0 to 65535).
class ColumnCode {
public:
  /// Longest code; enough for a code of all 65536 values.
  static constexpr unsigned MaxLength = 20;

  struct Symbol {
    uint16_t Value = 0;
    uint8_t Length = 0;
  };

  /// The empty code (a table without columns).
  ColumnCode() : Fast(size_t(1) << FastBits), Skip(size_t(1) << SkipBits) {}

  /// The Huffman code of the values in Counts (value, uses), lengths
  /// limited to MaxLength. Depends only on Counts (not their order). No
  /// values: the empty code.
  static ColumnCode
  fromCounts(llvm::ArrayRef<std::pair<uint16_t, uint64_t>> Counts);
  /// Reads a ColumnCode section, checking that it is a prefix code in
  /// canonical order.
  static llvm::Expected<ColumnCode> parse(llvm::StringRef Section);
  /// The section's bytes.
  void serialize(std::string &Out) const;

  bool empty() const { return Symbols.empty(); }
  /// In canonical order: by length, then value.
  llvm::ArrayRef<Symbol> symbols() const { return Symbols; }

  /// Appends the code of Value, which must be one of the code's values.
  void encode(uint16_t Value, BitWriter &W) const;
  /// The length of Value's code, which must be one of the code's values.
  unsigned length(uint16_t Value) const;
  /// Reads one code; false when the bits are no code (an incomplete code
  /// leaves some unassigned). The caller checks R.overran().
  bool decode(BitReader &R, uint16_t &Value) const {
    Entry E = Fast[R.peek(FastBits)];
    if (LLVM_LIKELY(E.Length != 0)) {
      R.consume(E.Length);
      Value = E.Value;
      return true;
    }
    return decodeSlow(R, Value);
  }

  /// Reads past N codes; false when some bits are no code. The caller
  /// checks R.overran(). A lookup needs the column of one row, after
  /// those of the rows before it: several short codes are passed at once.
  bool skip(BitReader &R, uint64_t N) const {
    while (N) {
      SkipEntry E = Skip[R.peek(SkipBits)];
      if (E.Count == 0 || E.Count > N)
        break;
      R.consume(E.Bits);
      N -= E.Count;
    }
    for (uint16_t Value; N; --N)
      if (!decode(R, Value))
        return false;
    return true;
  }

private:
  static constexpr unsigned FastBits = 10;
  static constexpr unsigned SkipBits = 12;
  /// The whole codes at the start of SkipBits bits: how many, and their
  /// bits.
  struct SkipEntry {
    uint8_t Count = 0;
    uint8_t Bits = 0;
  };
  struct Entry {
    uint16_t Value = 0;
    uint8_t Length = 0; ///< 0: a longer code, or none.
  };

  /// Assigns the canonical codes of Symbols (sorted) and builds the
  /// decoding tables.
  void assignCodes();
  bool decodeSlow(BitReader &R, uint16_t &Value) const;

  std::vector<Symbol> Symbols;
  std::vector<uint32_t> Codes; ///< Of Symbols[I].
  /// By value (uint32_t keys: DenseMap reserves the largest 16-bit ones).
  llvm::DenseMap<uint32_t, uint32_t> IndexOf;
  /// Codes of at most FastBits bits, by the next FastBits bits.
  std::vector<Entry> Fast;
  /// By the next SkipBits bits.
  std::vector<SkipEntry> Skip;
  /// Per length: first code, its symbol index, number of codes.
  uint32_t FirstCode[MaxLength + 1] = {};
  uint32_t FirstIndex[MaxLength + 1] = {};
  uint32_t NumCodes[MaxLength + 1] = {};
};

} // namespace compact
} // namespace dwarfpack

#endif
