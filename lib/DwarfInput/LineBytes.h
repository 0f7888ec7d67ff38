//===- LineBytes.h - .debug_line read as LLVM 19 reads it -------*- C++ -*-===//
//
// The line-table decoder must give what LLVM 19's DWARFDebugLine gives, on
// damaged tables too: where a read fails, and where the next one starts,
// decide which rows follow. LLVM reads through DataExtractor, whose rules
// are reproduced here without its costs:
//
//  - a view is a prefix of the section (LLVM narrows its extractor to the
//    unit, then to the header), so a view is just an end offset;
//  - a read that does not fit fails and leaves the offset where it was; a
//    Cursor that has failed makes every later read fail (LLVM's Cursor);
//  - LEB128 values decode as LLVM's decoders do (a run of zero slices past
//    64 bits is accepted), without their shifts past 64 bits;
//  - fields LLVM reads "relocated" go through the optional relocation hook.
//
// One thing is not reproduced: LLVM decodes a LEB128 at an offset past the
// end of its data without a bound (its bound is an assertion), which only
// the header's stepping over directory fields can cause. Here such a read
// fails; the header parser refuses the table before it asks for one.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_DWARFINPUT_LINEBYTES_H
#define DWARFPACK_LIB_DWARFINPUT_LINEBYTES_H

#include "dwarfpack/DwarfInput/LineHeader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <cstdint>
#include <string>

namespace dwarfpack::input::detail {

/// Longest ULEB128 encoding of a uint64_t, the bound of the header check's
/// "malformed" rule.
constexpr unsigned MaxULEBSize = 10;

/// Decodes an unsigned LEB128 at P (before End) with the results of LLVM
/// 19's decodeULEB128: false when it runs into End, or when a slice sets a
/// bit past 64. Size: the bytes read.
inline bool decodeULEB(const uint8_t *P, const uint8_t *End, uint64_t &Value,
                       uint64_t &Size) {
  const uint8_t *Start = P;
  uint64_t V = 0;
  uint64_t Shift = 0;
  while (true) {
    if (P == End)
      return false;
    uint64_t Slice = *P & 0x7f;
    if (LLVM_UNLIKELY(Shift >= 63) &&
        ((Shift == 63 && Slice > 1) || (Shift > 63 && Slice != 0)))
      return false;
    if (Shift < 64)
      V += Slice << Shift;
    Shift += 7;
    if (*P++ < 128)
      break;
  }
  Value = V;
  Size = uint64_t(P - Start);
  return true;
}

/// Decodes a signed LEB128 as LLVM 19's decodeSLEB128 compiled for x86-64
/// does. Its slices past bit 63 are shifted by the count modulo 64 (the
/// hardware's rule for a shift LLVM leaves undefined), so a long but
/// accepted encoding of a negative value may set low bits again; that is
/// reproduced here, as the lines it yields are what LLVM gives.
inline bool decodeSLEB(const uint8_t *P, const uint8_t *End, int64_t &Value,
                       uint64_t &Size) {
  const uint8_t *Start = P;
  uint64_t V = 0;
  uint64_t Shift = 0;
  uint8_t Byte;
  do {
    if (P == End)
      return false;
    Byte = *P;
    uint64_t Slice = Byte & 0x7f;
    if (LLVM_UNLIKELY(Shift >= 63)) {
      bool Negative = int64_t(V) < 0;
      if ((Shift == 63 && Slice != 0 && Slice != 0x7f) ||
          (Shift > 63 && Slice != (Negative ? 0x7f : 0)))
        return false;
    }
    V |= Slice << (Shift & 63);
    Shift += 7;
    ++P;
  } while (Byte >= 128);
  if (Shift < 64 && (Byte & 0x40))
    V |= UINT64_MAX << Shift;
  Value = int64_t(V);
  Size = uint64_t(P - Start);
  return true;
}

/// LLVM's Cursor: an offset and whether a read has failed (the reads after
/// a failure fail too and leave the offset alone).
struct Cursor {
  explicit Cursor(uint64_t Offset) : Offset(Offset) {}

  bool ok() const { return !Failed; }

  uint64_t Offset;
  bool Failed = false;
  /// Where the failing read started and what it needed.
  uint64_t FailOffset = 0;
  uint64_t FailSize = 0;
  enum class Why : uint8_t {
    EndOfData,
    BadLEB,
    NoNul,
    ReservedLength
  } Reason = Why::EndOfData;

  /// What went wrong, for a warning.
  std::string describe() const {
    std::string At = "0x" + llvm::utohexstr(FailOffset, /*LowerCase=*/true);
    switch (Reason) {
    case Why::BadLEB:
      return "malformed LEB128 at offset " + At;
    case Why::NoNul:
      return "no null-terminated string at offset " + At;
    case Why::ReservedLength:
      return "reserved unit length at offset " + At;
    case Why::EndOfData:
      break;
    }
    return "unexpected end of data reading " + std::to_string(FailSize) +
           " byte(s) at offset " + At;
  }
};

/// Reads a section's bytes inside a view [0, End).
class ByteReader {
public:
  ByteReader(llvm::StringRef Section, bool LittleEndian,
             LineRelocator Relocate = nullptr)
      : Data(Section.bytes_begin()), SectionSize(Section.size()),
        End(Section.size()), LittleEndian(LittleEndian), Relocate(Relocate) {}

  uint64_t sectionSize() const { return SectionSize; }
  uint64_t end() const { return End; }
  const uint8_t *data() const { return Data; }
  /// Narrows the view as LLVM's DWARFDataExtractor(Other, Length) does:
  /// to min(Length, the current view).
  void narrow(uint64_t Length) {
    if (Length < End)
      End = Length;
  }
  void setEnd(uint64_t E) { End = E; }

  /// DataExtractor::isValidOffsetForDataOfSize.
  bool fits(uint64_t Offset, uint64_t Size) const {
    uint64_t Last = Offset + Size;
    return Last >= Offset && Last <= End;
  }

  /// An unsigned value of Size (1 to 8) bytes; 0 when it does not fit.
  uint64_t fixed(Cursor &C, unsigned Size) {
    if (!C.ok())
      return 0;
    if (!fits(C.Offset, Size)) {
      fail(C, C.Offset, Size, Cursor::Why::EndOfData);
      return 0;
    }
    uint64_t V = load(C.Offset, Size);
    C.Offset += Size;
    return V;
  }

  /// DWARFDataExtractor::getRelocatedValue: the value, relocated when the
  /// hook says a relocation applies at its offset; SectionIndex (if given)
  /// becomes the relocation's section, else NoSection.
  uint64_t relocated(Cursor &C, unsigned Size,
                     uint64_t *SectionIndex = nullptr) {
    if (SectionIndex)
      *SectionIndex = NoSection;
    uint64_t At = C.Offset;
    uint64_t V = fixed(C, Size);
    if (!C.ok() || !Relocate)
      return V;
    uint64_t Ignored = NoSection;
    return Relocate(At, Size, V, SectionIndex ? *SectionIndex : Ignored);
  }

  uint64_t uleb(Cursor &C) {
    if (!C.ok())
      return 0;
    if (C.Offset > End) {
      fail(C, C.Offset, 1, Cursor::Why::EndOfData);
      return 0;
    }
    // Most values take one byte.
    if (LLVM_LIKELY(C.Offset < End && Data[C.Offset] < 128))
      return Data[C.Offset++];
    uint64_t V, N;
    if (!decodeULEB(Data + C.Offset, Data + End, V, N)) {
      fail(C, C.Offset, 0, Cursor::Why::BadLEB);
      return 0;
    }
    C.Offset += N;
    return V;
  }

  int64_t sleb(Cursor &C) {
    if (!C.ok())
      return 0;
    if (C.Offset > End) {
      fail(C, C.Offset, 1, Cursor::Why::EndOfData);
      return 0;
    }
    int64_t V;
    uint64_t N;
    if (!decodeSLEB(Data + C.Offset, Data + End, V, N)) {
      fail(C, C.Offset, 0, Cursor::Why::BadLEB);
      return 0;
    }
    C.Offset += N;
    return V;
  }

  /// A NUL-terminated string: the offset of its first byte, its text.
  llvm::StringRef cstr(Cursor &C) {
    if (!C.ok())
      return {};
    llvm::StringRef View(reinterpret_cast<const char *>(Data), End);
    size_t Nul = C.Offset < End ? View.find('\0', C.Offset) : View.npos;
    if (Nul == View.npos) {
      fail(C, C.Offset, 0, Cursor::Why::NoNul);
      return {};
    }
    llvm::StringRef S = View.slice(C.Offset, Nul);
    C.Offset = Nul + 1;
    return S;
  }

  void skip(Cursor &C, uint64_t Size) {
    if (!C.ok())
      return;
    if (!fits(C.Offset, Size)) {
      fail(C, C.Offset, Size, Cursor::Why::EndOfData);
      return;
    }
    C.Offset += Size;
  }

  /// The Size bytes at Offset (which fit the section).
  uint64_t load(uint64_t Offset, unsigned Size) const {
    uint64_t V = 0;
    for (unsigned I = 0; I < Size; ++I) {
      unsigned Byte = LittleEndian ? Size - 1 - I : I;
      V = (V << 8) | Data[Offset + Byte];
    }
    return V;
  }

  /// Whether the unsigned LEB128 at Offset is one the header check calls
  /// malformed: not decodable within MaxULEBSize bytes although more bytes
  /// follow (too long, or too big for 64 bits).
  bool overlong(uint64_t Offset) const {
    if (Offset > End || End - Offset <= MaxULEBSize)
      return false;
    uint64_t V, N;
    return !decodeULEB(Data + Offset, Data + Offset + MaxULEBSize, V, N);
  }

private:
  static void fail(Cursor &C, uint64_t At, uint64_t Size, Cursor::Why Why) {
    C.Failed = true;
    C.FailOffset = At;
    C.FailSize = Size;
    C.Reason = Why;
  }

  const uint8_t *Data;
  uint64_t SectionSize;
  uint64_t End;
  bool LittleEndian;
  LineRelocator Relocate;
};

} // namespace dwarfpack::input::detail

#endif
