//===- CompactReader.cpp - Zero-copy reader of compact address tables -----===//
//
// Layout and lookup rules: docs/CompactTable.md. Lookups give the answers of
// GsymReader::lookup for the GSYM file of the same model, including its
// errors (an address before the first line row, a row without a file).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"
#include "FileHistory.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

#include <atomic>

using namespace llvm;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace dwarfpack {
namespace compact {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

namespace {

/// Bounded reading of LEB128 values and bytes. After the first overrun or
/// malformed value every read returns 0 and ok() stays false; callers check
/// ok() before using what they read.
class Cursor {
public:
  Cursor(const uint8_t *P, const uint8_t *End) : P(P), End(End) {}
  bool ok() const { return OK; }
  bool atEnd() const { return P >= End; }
  const uint8_t *pos() const { return P; }
  const uint8_t *end() const { return End; }
  void skip(uint64_t N) { P += N; } // N checked by the caller

  uint8_t u8() {
    if (LLVM_UNLIKELY(P >= End)) {
      OK = false;
      return 0;
    }
    return *P++;
  }
  /// One byte inline, longer values out of line: a lookup reads a few
  /// dozen values, most of them one byte.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t uleb() {
    if (LLVM_LIKELY(P < End && *P < 0x80))
      return *P++;
    return ulebSlow();
  }
  LLVM_ATTRIBUTE_NOINLINE uint64_t ulebSlow() {
    uint64_t V = 0;
    unsigned Shift = 0;
    while (true) {
      if (P >= End || Shift > 63) {
        OK = false;
        return 0;
      }
      uint8_t B = *P++;
      uint64_t Slice = B & 0x7f;
      if (Shift == 63 && Slice > 1) {
        OK = false;
        return 0;
      }
      V |= Slice << Shift;
      Shift += 7;
      if (!(B & 0x80))
        return V;
    }
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE int64_t sleb() {
    // One byte (most line and call line deltas) inline.
    if (LLVM_LIKELY(P < End && *P < 0x80))
      return int64_t(uint64_t(*P++) << 57) >> 57;
    return slebSlow();
  }
  LLVM_ATTRIBUTE_NOINLINE int64_t slebSlow() {
    uint64_t V = 0;
    unsigned Shift = 0;
    uint8_t B;
    do {
      if (P >= End || Shift > 63) {
        OK = false;
        return 0;
      }
      B = *P++;
      V |= uint64_t(B & 0x7f) << Shift;
      Shift += 7;
    } while (B & 0x80);
    if (Shift < 64 && (B & 0x40))
      V |= ~uint64_t(0) << Shift;
    return int64_t(V);
  }
  /// Moves past one LEB128 value (signed or not) without decoding it.
  void skipLeb() {
    while (true) {
      if (LLVM_UNLIKELY(P >= End)) {
        OK = false;
        return;
      }
      if (!(*P++ & 0x80))
        return;
    }
  }
  /// A ULEB value that must fit in 32 bits.
  uint32_t u32leb() {
    uint64_t V = uleb();
    if (V > UINT32_MAX) {
      OK = false;
      return 0;
    }
    return uint32_t(V);
  }

private:
  const uint8_t *P;
  const uint8_t *End;
  bool OK = true;
};

const uint8_t *bytes(StringRef S) {
  return reinterpret_cast<const uint8_t *>(S.data());
}

/// SetFile with Operand: an earlier context of Files (moved to the front)
/// or a new one of file Operand - size() at CurrentLine. Returns the line
/// the row's delta is relative to and sets File.
uint32_t selectFile(FileHistory &Files, uint64_t Operand, uint32_t CurrentLine,
                    uint32_t &File, bool &OK) {
  if (Operand < Files.size()) {
    const uint32_t Line = Files.select(unsigned(Operand));
    File = Files.file(0);
    return Line;
  }
  const uint64_t Id = Operand - Files.size();
  if (Id > UINT32_MAX) {
    OK = false;
    return 0;
  }
  File = uint32_t(Id);
  Files.add(File, CurrentLine);
  return CurrentLine;
}

/// A row coded whole (a table's first row and its row stops): file (with
/// details, its low bit says a discriminator follows), line and
/// discriminator.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool readWholeRow(Cursor &C, const RecordFormat &F,
                                               LineEntry &Row) {
  uint64_t FileCode = C.uleb();
  Row.Line = C.u32leb();
  Row.Discriminator = 0;
  if (F.Details) {
    if (FileCode & 1)
      Row.Discriminator = C.u32leb();
    FileCode >>= 1;
  }
  Row.File = uint32_t(FileCode);
  return C.ok() && FileCode <= UINT32_MAX;
}

/// A line table's first row; the rows after it are coded as changes.
Error readFirstRow(Cursor &C, const RecordFormat &F, uint64_t FuncStart,
                   uint64_t RecordOffset, uint64_t NumRows, LineEntry &Row) {
  Row.Address = FuncStart + C.uleb();
  if (!readWholeRow(C, F, Row) || NumRows == 0)
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or empty line table");
  if (Row.Address < FuncStart)
    return makeError("record at " + hexString(RecordOffset) +
                     ": first line row overflows the address space");
  return Error::success();
}

/// A line table's framing: its row count, its rows' column codes, its row
/// stops and the cursor over its rows.
struct LineTableFrame {
  uint64_t NumRows = 0;
  BitReader Cols;
  Cursor Rows{nullptr, nullptr};
  /// With HasSize, the table's size (the cursor ends there).
  uint64_t Size = 0;
  /// Row stops: their number and index (empty without).
  uint64_t NumStops = 0;
  Cursor Stops{nullptr, nullptr};
  /// Where the rows start (row stops' byte offsets count from there).
  const uint8_t *RowsBegin = nullptr;
  /// Rows from one stop to the next, less one (all ones without stops).
  uint64_t StopMask = ~uint64_t(0);
};

/// Reads the framing of the line table at C (parseLines and seekRow).
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readLineTableFrame(Cursor &C,
                                                      const RecordFormat &F,
                                                      uint64_t RecordOffset,
                                                      bool HasSize,
                                                      LineTableFrame &T) {
  T.NumRows = C.uleb();
  if (F.Columns) {
    // The rows' column codes come first: a bit string of their own.
    uint64_t ColumnBytes = C.uleb();
    if (!C.ok() || ColumnBytes > uint64_t(C.end() - C.pos()))
      return makeError("record at " + hexString(RecordOffset) +
                       ": column codes run past the record");
    T.Cols = BitReader(C.pos(), C.pos() + ColumnBytes);
    C.skip(ColumnBytes);
  }
  T.Size = HasSize ? C.uleb() : 0;
  const uint8_t *TableStart = C.pos();
  if (HasSize && (!C.ok() || T.Size > uint64_t(C.end() - TableStart)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": line table size runs past the record");
  T.Rows = Cursor(TableStart, HasSize ? TableStart + T.Size : C.end());
  if (F.StopShift && T.NumRows > (uint64_t(1) << F.StopShift)) {
    T.NumStops = (T.NumRows - 1) >> F.StopShift;
    T.StopMask = (uint64_t(1) << F.StopShift) - 1;
    uint64_t StopBytes = T.Rows.uleb();
    if (!T.Rows.ok() || StopBytes > uint64_t(T.Rows.end() - T.Rows.pos()))
      return makeError("record at " + hexString(RecordOffset) +
                       ": row stop index runs past the line table");
    T.Stops = Cursor(T.Rows.pos(), T.Rows.pos() + StopBytes);
    T.Rows.skip(StopBytes);
  }
  T.RowsBegin = T.Rows.pos();
  return Error::success();
}

/// Moves C past a line table whose rows were read with T.Rows: past the
/// whole table with HasSize, else to where the rows' reading stopped.
LLVM_ATTRIBUTE_ALWAYS_INLINE void
endLineTable(Cursor &C, const LineTableFrame &T, bool HasSize) {
  if (HasSize)
    C.skip(T.Size);
  else
    C = T.Rows;
}

/// One entry of a row stop index, accumulated: the stop's row, address,
/// byte offset among the rows and bit offset among the column codes.
struct RowStop {
  uint64_t Index = 0;
  uint64_t Address = 0;
  uint64_t Offset = 0;
  uint64_t Bits = 0;
};

/// Reads the next entry of T's stop index into S (which holds the entry
/// before, or the function's start and zeros).
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readRowStop(LineTableFrame &T,
                                               const RecordFormat &F,
                                               uint64_t RecordOffset,
                                               RowStop &S) {
  const uint64_t Address = S.Address + T.Stops.uleb();
  S.Offset += T.Stops.uleb();
  if (F.Columns)
    S.Bits += T.Stops.uleb();
  if (LLVM_UNLIKELY(!T.Stops.ok() || Address < S.Address ||
                    S.Offset >= uint64_t(T.Rows.end() - T.RowsBegin)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": malformed row stop index");
  S.Address = Address;
  S.Index += T.StopMask + 1;
  return Error::success();
}

/// Reads row stop Index at C, coded as a first row is; its address must
/// not be below Prev (the row before it).
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readStopRow(Cursor &C, const RecordFormat &F,
                                               uint64_t FuncStart,
                                               uint64_t RecordOffset,
                                               uint64_t Index, uint64_t Prev,
                                               LineEntry &Row) {
  Row.Address = FuncStart + C.uleb();
  if (LLVM_UNLIKELY(!readWholeRow(C, F, Row)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed line row " + Twine(Index));
  if (LLVM_UNLIKELY(Row.Address < Prev))
    return makeError("record at " + hexString(RecordOffset) + ": line row " +
                     Twine(Index) + " is below the row before it");
  return Error::success();
}

Error stopDisagrees(uint64_t RecordOffset, uint64_t Index) {
  return makeError("record at " + hexString(RecordOffset) +
                   ": row stop index disagrees with row " + Twine(Index));
}

template <typename Fn>
Error parseRows(LineTableFrame &T, BitReader *Cols, const RecordFormat &F,
                uint64_t FuncStart, uint64_t RecordOffset, Fn &&Callback);

/// Decodes a line table, calling Fn(Row) for every row until it returns
/// false. With HasSize (an inline tree follows), the cursor is then moved
/// past the whole table; without, decoding stops where the callback did.
/// Every opcode consumes at least one byte, so a hostile row count ends
/// with the record.
template <typename Fn>
Error parseLines(Cursor &C, const RecordFormat &F, uint64_t FuncStart,
                 uint64_t RecordOffset, bool HasSize, Fn &&Callback) {
  LineTableFrame T;
  if (Error E = readLineTableFrame(C, F, RecordOffset, HasSize, T))
    return E;
  if (Error E = parseRows(T, F.Columns ? &T.Cols : nullptr, F, FuncStart,
                          RecordOffset, Callback))
    return E;
  endLineTable(C, T, HasSize);
  return Error::success();
}

/// The column of row Index from the codes parseLines deferred: the codes of
/// the rows before it are read (a bit string decodes in order), nothing
/// else.
Expected<uint16_t> columnOfRow(BitReader Cols, const ColumnCode &Code,
                               uint64_t Index, uint64_t RecordOffset) {
  uint16_t Column = 0;
  const bool OK = Code.skip(Cols, Index) && Code.decode(Cols, Column);
  if (LLVM_UNLIKELY(!OK || Cols.overran()))
    return makeError("record at " + hexString(RecordOffset) +
                     ": bad or missing column code");
  return Column;
}

/// Reads the column of the next row into Row.
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readColumn(BitReader *Cols,
                                              const ColumnCode *Code,
                                              uint64_t RecordOffset,
                                              LineEntry &Row) {
  if (!Cols)
    return Error::success();
  uint16_t Column;
  if (LLVM_UNLIKELY(!Code->decode(*Cols, Column) || Cols->overran()))
    return makeError("record at " + hexString(RecordOffset) +
                     ": bad or missing column code");
  Row.Column = Column;
  return Error::success();
}

/// Checks that row stop R (its row at byte Offset of the rows, its column
/// code at bit Bits) is where the next entry of the stop index says.
Error checkRowStop(LineTableFrame &T, const RecordFormat &F,
                   uint64_t RecordOffset, uint64_t Address, uint64_t Offset,
                   BitReader *Cols, RowStop &S) {
  if (Error E = readRowStop(T, F, RecordOffset, S))
    return E;
  if (S.Address != Address || S.Offset != Offset ||
      (Cols && S.Bits != Cols->consumed()))
    return stopDisagrees(RecordOffset, S.Index);
  return Error::success();
}

template <typename Fn>
Error parseRows(LineTableFrame &T, BitReader *Cols, const RecordFormat &F,
                uint64_t FuncStart, uint64_t RecordOffset, Fn &&Callback) {
  Cursor &C = T.Rows;
  const uint64_t NumRows = T.NumRows;
  const SpecialOpcodes &H = F.Special;
  LineEntry Row;
  if (Error E = readFirstRow(C, F, FuncStart, RecordOffset, NumRows, Row))
    return E;
  if (Error E = readColumn(Cols, F.Columns, RecordOffset, Row))
    return E;
  FileHistory Files;
  Files.start(Row.File, Row.Line);
  if (!Callback(Row))
    return Error::success();
  RowStop Stop;
  Stop.Address = FuncStart;
  bool OK = true;
  for (uint64_t R = 1; R < NumRows; ++R) {
    uint32_t BaseLine = Row.Line;
    Row.Discriminator = 0;
    uint64_t AddrDelta;
    int64_t LineDelta = 0;
    const bool IsStop = (R & T.StopMask) == 0;
    uint64_t Offset = 0; // of a stop row, for its index entry
    if (IsStop) {
      Offset = uint64_t(C.pos() - T.RowsBegin);
      const uint64_t Prev = Row.Address;
      if (Error E = readStopRow(C, F, FuncStart, RecordOffset, R, Prev, Row))
        return E;
      AddrDelta = Row.Address - Prev;
      Row.Address = Prev;
      BaseLine = Row.Line;
      Files.start(Row.File, Row.Line);
    } else {
      uint8_t Op = C.u8();
      while (Op < FirstSpecial && Op != LongRow && C.ok() && OK) {
        if (Op == SetDiscriminator) {
          if (LLVM_UNLIKELY(!F.Details))
            OK = false;
          Row.Discriminator = C.u32leb();
        } else {
          uint64_t Operand = Op == SwapFile ? 1 : C.uleb();
          BaseLine = selectFile(Files, Operand, Row.Line, Row.File, OK);
        }
        Op = C.u8();
      }
      if (Op == LongRow) {
        Files.push();
        AddrDelta = C.uleb();
        LineDelta = C.sleb();
      } else {
        LineDelta = H.LineDelta[Op];
        AddrDelta = H.AddrDelta[Op];
      }
    }
    if (!C.ok() || !OK)
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated or malformed line row " + Twine(R));
    if (Row.Address + AddrDelta < Row.Address)
      return makeError("record at " + hexString(RecordOffset) +
                       ": line row address overflows");
    Row.Address += AddrDelta;
    if (IsStop)
      if (Error E =
              checkRowStop(T, F, RecordOffset, Row.Address, Offset, Cols, Stop))
        return E;
    // Wrapping arithmetic: hostile deltas must not overflow signed math.
    Row.Line = uint32_t(uint64_t(BaseLine) + uint64_t(LineDelta));
    Files.setLine(Row.Line);
    if (Error E = readColumn(Cols, F.Columns, RecordOffset, Row))
      return E;
    if (!Callback(Row))
      return Error::success();
  }
  if (Cols && !Cols->atEnd())
    return makeError("record at " + hexString(RecordOffset) +
                     ": column codes longer than the rows need");
  if (!T.Stops.atEnd())
    return makeError("record at " + hexString(RecordOffset) +
                     ": row stop index longer than its stops need");
  return Error::success();
}

/// What a lookup needs of a line table: its first row (the reference of
/// the inline tree's first call site) and the row in effect at an address
/// (the last one at or before it, if any) with its index. Columns are left
/// 0: columnOfRow decodes the one of the row found, ColumnRow rows after
/// the start of the codes seekRow returns.
struct RowSeek {
  LineEntry First, Row;
  /// The address of the row after Row (UINT64_MAX: none).
  uint64_t Next = UINT64_MAX;
  uint64_t Index = 0;
  uint64_t ColumnRow = 0;
  bool Found = false;
};

/// The last row stop at or before Address (Index 0: none), from T's index.
Error findRowStop(LineTableFrame &T, const RecordFormat &F, uint64_t FuncStart,
                  uint64_t RecordOffset, uint64_t Address, RowStop &Found) {
  RowStop S;
  S.Address = FuncStart;
  for (uint64_t J = 0; J < T.NumStops; ++J) {
    if (Error E = readRowStop(T, F, RecordOffset, S))
      return E;
    if (S.Address > Address)
      break;
    Found = S;
  }
  return Error::success();
}

/// Moves a lookup in T to the last row stop at or before Address, if any:
/// Row, S's row and index, the column codes and the next row R are then
/// the stop's. The rows before the stop are not read.
Error startAtRowStop(LineTableFrame &T, const RecordFormat &F,
                     uint64_t FuncStart, uint64_t RecordOffset,
                     uint64_t Address, RowSeek &S, BitReader &Cols,
                     LineEntry &Row, uint64_t &R) {
  RowStop Stop;
  if (Error E = findRowStop(T, F, FuncStart, RecordOffset, Address, Stop))
    return E;
  if (!Stop.Index)
    return Error::success();
  T.Rows = Cursor(T.RowsBegin + Stop.Offset, T.Rows.end());
  if (Error E = readStopRow(T.Rows, F, FuncStart, RecordOffset, Stop.Index,
                            Row.Address, Row))
    return E;
  // A damaged offset lands in other bytes: their address is not the stop's.
  if (Row.Address != Stop.Address)
    return stopDisagrees(RecordOffset, Stop.Index);
  if (!Cols.skipBits(Stop.Bits))
    return makeError("record at " + hexString(RecordOffset) +
                     ": row stop past the column codes");
  S.Row = Row;
  S.Index = S.ColumnRow = Stop.Index;
  R = Stop.Index + 1;
  return Error::success();
}

/// parseLines for a lookup: the same rows and errors, in a loop that keeps
/// the common row (one special opcode) to a few instructions and stops at
/// the first row past Address, starting at the last row stop before it.
/// Cols is set to the table's column codes from that row on.
Error seekRow(Cursor &C, const RecordFormat &F, uint64_t FuncStart,
              uint64_t RecordOffset, bool HasSize, uint64_t Address, RowSeek &S,
              BitReader &Cols) {
  LineTableFrame T;
  if (Error E = readLineTableFrame(C, F, RecordOffset, HasSize, T))
    return E;
  Cols = T.Cols;
  const uint64_t NumRows = T.NumRows;
  Cursor &Rows = T.Rows;
  LineEntry Row;
  if (Error E = readFirstRow(Rows, F, FuncStart, RecordOffset, NumRows, Row))
    return E;
  S.First = Row;
  S.Found = Row.Address <= Address;
  if (S.Found) {
    S.Row = Row;
    S.Index = 0;
    uint64_t R = 1;
    if (T.NumStops)
      if (Error E = startAtRowStop(T, F, FuncStart, RecordOffset, Address, S,
                                   Cols, Row, R))
        return E;
    FileHistory Files;
    Files.start(Row.File, Row.Line);
    const SpecialOpcodes &H = F.Special;
    uint64_t Addr = Row.Address;
    uint32_t Line = Row.Line, File = Row.File;
    bool OK = true;
    for (; R < NumRows; ++R) {
      uint32_t BaseLine = Line, Discriminator = 0;
      uint64_t AddrDelta;
      if (LLVM_UNLIKELY((R & T.StopMask) == 0)) {
        // The next stop (its address is past Address unless the index
        // is wrong).
        if (Error E =
                readStopRow(Rows, F, FuncStart, RecordOffset, R, Addr, Row))
          return E;
        AddrDelta = Row.Address - Addr;
        Files.start(Row.File, Row.Line);
        File = Row.File;
        BaseLine = Row.Line;
        Discriminator = Row.Discriminator;
      } else {
        uint8_t Op = Rows.u8();
        if (LLVM_LIKELY(Op >= FirstSpecial)) {
          AddrDelta = H.AddrDelta[Op];
          BaseLine += uint32_t(int32_t(H.LineDelta[Op]));
        } else {
          // File and discriminator operations, then the row's opcode. The
          // history learns the current line only when it is consulted.
          Files.setLine(Line);
          while (Op < FirstSpecial && Op != LongRow && Rows.ok() && OK) {
            if (Op == SetDiscriminator) {
              OK &= F.Details;
              Discriminator = Rows.u32leb();
            } else {
              uint64_t Operand = Op == SwapFile ? 1 : Rows.uleb();
              BaseLine = selectFile(Files, Operand, Line, File, OK);
            }
            Op = Rows.u8();
          }
          if (Op == LongRow) {
            Files.push();
            AddrDelta = Rows.uleb();
            BaseLine = uint32_t(uint64_t(BaseLine) + uint64_t(Rows.sleb()));
          } else {
            AddrDelta = H.AddrDelta[Op];
            BaseLine += uint32_t(int32_t(H.LineDelta[Op]));
          }
        }
      }
      if (LLVM_UNLIKELY(!Rows.ok() || !OK))
        return makeError("record at " + hexString(RecordOffset) +
                         ": truncated or malformed line row " + Twine(R));
      if (LLVM_UNLIKELY(Addr + AddrDelta < Addr))
        return makeError("record at " + hexString(RecordOffset) +
                         ": line row address overflows");
      Addr += AddrDelta;
      Line = BaseLine;
      if (Addr > Address) {
        S.Next = Addr;
        break;
      }
      S.Row.Address = Addr;
      S.Row.File = File;
      S.Row.Line = Line;
      S.Row.Discriminator = Discriminator;
      S.Index = R;
    }
  }
  endLineTable(C, T, HasSize);
  return Error::success();
}

/// The details of a node after its call line (tables with details).
struct NodeDetails {
  uint32_t CallColumn = 0;
  uint32_t CallDiscriminator = 0;
  std::optional<uint64_t> StartAddress;
};

/// Reads the head value: the number of children and the flags.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t readNodeHead(Cursor &C, bool Details,
                                                   uint64_t &Flags) {
  uint64_t H = C.uleb();
  const unsigned Bits = nodeFlagBits(Details);
  Flags = H & ((uint64_t(1) << Bits) - 1);
  return H >> Bits;
}

/// Reads the details that follow a node's call line; FirstStart is the
/// start of its first range.
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readDetails(Cursor &C, uint64_t Flags,
                                               uint64_t FirstStart,
                                               uint64_t RecordOffset,
                                               NodeDetails &D) {
  D.CallColumn = C.u32leb();
  if (Flags & NodeStartAtFirstRange)
    D.StartAddress = FirstStart;
  if (Flags & NodeExtra) {
    uint64_t Extra = C.uleb();
    if (Extra == 0 ||
        (Extra & ~uint64_t(ExtraStartAddress | ExtraCallDiscriminator)) ||
        ((Extra & ExtraStartAddress) && (Flags & NodeStartAtFirstRange)))
      return makeError("record at " + hexString(RecordOffset) +
                       ": invalid inline node flags");
    if (Extra & ExtraStartAddress)
      D.StartAddress = FirstStart + uint64_t(C.sleb());
    if (Extra & ExtraCallDiscriminator)
      D.CallDiscriminator = C.u32leb();
  }
  if (LLVM_UNLIKELY(!C.ok()))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  return Error::success();
}

/// Reads the size of a node's children (only a node with children has
/// one), which must lie inside the record.
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readChildrenBytes(Cursor &C,
                                                     uint64_t NumChildren,
                                                     uint64_t RecordOffset,
                                                     uint64_t &Bytes) {
  Bytes = NumChildren ? C.uleb() : 0;
  // Each child takes two bytes at least: a bound on hostile counts.
  if (LLVM_UNLIKELY(!C.ok() || Bytes > uint64_t(C.end() - C.pos()) ||
                    Bytes / 2 < NumChildren))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  return Error::success();
}

/// The fields of one inline node before its children.
struct NodeHead {
  uint64_t NumChildren = 0;
  uint64_t ChildrenBytes = 0; ///< Of the children's encodings.
  SmallVector<AddressRange, 2> Ranges;
  uint32_t Name = 0;
  uint32_t CallFile = 0;
  uint32_t CallLine = 0;
  NodeDetails Details;
};

/// Reads a node's call site, coded against the previous sibling's
/// (PrevFile/PrevLine, updated): file code 0 repeats it, else file + 1; the
/// line as a signed delta.
LLVM_ATTRIBUTE_ALWAYS_INLINE Error readCallSite(Cursor &C, uint32_t &PrevFile,
                                                uint32_t &PrevLine,
                                                uint64_t RecordOffset,
                                                uint32_t &File,
                                                uint32_t &Line) {
  uint64_t FileCode = C.uleb();
  int64_t LineDelta = C.sleb();
  if (LLVM_UNLIKELY(!C.ok() || FileCode > uint64_t(UINT32_MAX) + 1))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  File = FileCode == 0 ? PrevFile : uint32_t(FileCode - 1);
  Line = uint32_t(uint64_t(PrevLine) + uint64_t(LineDelta));
  PrevFile = File;
  PrevLine = Line;
  return Error::success();
}

/// Reads a node head; PrevFile/PrevLine carry the previous sibling's call
/// site (the references of the delta codes).
Error readHead(Cursor &C, bool Details, uint64_t ParentBase, uint32_t &PrevFile,
               uint32_t &PrevLine, uint64_t RecordOffset, NodeHead &N) {
  uint64_t Flags;
  N.NumChildren = readNodeHead(C, Details, Flags);
  uint64_t NumRanges = (Flags & NodeMultiRange) ? C.uleb() : 1;
  // Each range takes at least two bytes: a cheap bound on hostile counts.
  if (!C.ok() || NumRanges == 0 || NumRanges > (1u << 24))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  uint64_t Prev = ParentBase;
  for (uint64_t I = 0; I < NumRanges; ++I) {
    uint64_t Start = Prev + C.uleb();
    uint64_t Size = C.uleb();
    if (!C.ok() || Start < Prev || Size == 0 || Start + Size < Start)
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated or malformed inline range");
    N.Ranges.push_back({Start, Start + Size});
    Prev = Start + Size;
  }
  N.Name = C.u32leb();
  if (Error E = readCallSite(C, PrevFile, PrevLine, RecordOffset, N.CallFile,
                             N.CallLine))
    return E;
  if (Details)
    if (Error E = readDetails(C, Flags, N.Ranges.front().Start, RecordOffset,
                              N.Details))
      return E;
  return readChildrenBytes(C, N.NumChildren, RecordOffset, N.ChildrenBytes);
}

/// The addresses around a looked-up one whose lookup reads the same: each
/// range the lookup meets narrows them, to the range when it holds the
/// address (a row's, an inline call's entered) and to the side of the
/// address otherwise (a range passed over would be entered). Unless On,
/// only the address itself (a lookup that needs no more saves the work:
/// some 90 instructions and a misprediction and a half of a kernel
/// lookup).
struct SameSpan {
  SameSpan(uint64_t Addr, bool On) : Addr(Addr), On(On) {
    if (!On) {
      From = Addr;
      To = Addr + 1; // 0 past the last address: none
    }
  }
  /// Meets [Start, End). Without branches: whether a range passed over
  /// lies before or after the address is not predictable.
  void meet(uint64_t Start, uint64_t End) {
    if (!On)
      return;
    const bool Above = Addr < Start, Below = Addr >= End;
    const uint64_t NewFrom = Below ? End : Start, NewTo = Above ? Start : End;
    From = std::max(From, Above ? From : NewFrom);
    To = std::min(To, Below ? To : NewTo);
  }
  uint64_t Addr;
  bool On;
  uint64_t From = 0, To = UINT64_MAX;
};

/// A node head as lookups need it: the first range's start (the base of
/// the children's ranges) and the start of the range containing Addr, if
/// any; every range is still validated.
struct NodeKey {
  uint64_t NumChildren = 0;
  uint64_t ChildrenBytes = 0;
  uint64_t FirstStart = 0;
  uint64_t HitStart = 0;
  bool Hit = false;
  uint32_t Name = 0;
  uint32_t CallFile = 0;
  uint32_t CallLine = 0;
  NodeDetails Details;
};

Error readKey(Cursor &C, bool Details, uint64_t ParentBase, uint32_t &PrevFile,
              uint32_t &PrevLine, uint64_t RecordOffset, SameSpan &Same,
              NodeKey &N) {
  const uint64_t Addr = Same.Addr;
  uint64_t Flags;
  N.NumChildren = readNodeHead(C, Details, Flags);
  uint64_t NumRanges = (Flags & NodeMultiRange) ? C.uleb() : 1;
  // Each range takes at least two bytes: a cheap bound on hostile counts.
  if (LLVM_UNLIKELY(!C.ok() || NumRanges == 0 || NumRanges > (1u << 24)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  uint64_t Prev = ParentBase;
  for (uint64_t I = 0; I < NumRanges; ++I) {
    uint64_t Start = Prev + C.uleb();
    uint64_t Size = C.uleb();
    if (LLVM_UNLIKELY(!C.ok() || Start < Prev || Size == 0 ||
                      Start + Size < Start))
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated or malformed inline range");
    if (I == 0)
      N.FirstStart = Start;
    if (!N.Hit && Addr - Start < Size) {
      N.Hit = true;
      N.HitStart = Start;
    }
    Same.meet(Start, Start + Size);
    Prev = Start + Size;
  }
  // The name of a node off the address's path is never used.
  if (N.Hit)
    N.Name = C.u32leb();
  else
    C.skipLeb();
  if (Error E = readCallSite(C, PrevFile, PrevLine, RecordOffset, N.CallFile,
                             N.CallLine))
    return E;
  if (Details)
    if (Error E = readDetails(C, Flags, N.FirstStart, RecordOffset, N.Details))
      return E;
  return readChildrenBytes(C, N.NumChildren, RecordOffset, N.ChildrenBytes);
}

/// A record's head: its name id (above RecordFlagBits) and flags, and the
/// values some flags add.
struct RecordHead {
  uint64_t Flags = 0;
  uint32_t Name = 0;
  uint32_t DwarfName = 0; ///< With HasDwarfName.
  uint32_t SymbolFile = 0;
};

Expected<RecordHead> readRecordHead(Cursor &C, bool Details,
                                    uint64_t RecordFileOffset) {
  RecordHead H;
  uint64_t Head = C.uleb();
  const unsigned FlagBits = recordFlagBits(Details);
  H.Flags = Head & ((uint64_t(1) << FlagBits) - 1);
  if (H.Flags & HasDwarfName)
    H.DwarfName = C.u32leb();
  if (H.Flags & HasSymbolFile)
    H.SymbolFile = C.u32leb();
  if (LLVM_UNLIKELY(!C.ok() || Head >> FlagBits > UINT32_MAX))
    return makeError("record at " + hexString(RecordFileOffset) +
                     " is truncated");
  if (LLVM_UNLIKELY((!Details && (H.Flags & ~PlainRecordFlags)) ||
                    (H.Flags & HasInlineChildren && H.Flags & HasInlineRoot)))
    return makeError("record at " + hexString(RecordFileOffset) +
                     ": invalid flags " + hexString(H.Flags));
  H.Name = uint32_t(Head >> FlagBits);
  return H;
}

/// A node on the path to the looked-up address.
struct Match {
  uint32_t Name;
  uint32_t CallFile;
  uint32_t CallLine;
  uint64_t HitStart;
  NodeDetails Details;
};

/// GSYM's inline lookup: the first sibling whose ranges contain Same.Addr
/// is entered; its subtree is searched the same way. Every range read
/// narrows Same.
Error matchNode(Cursor &C, bool Details, uint64_t ParentBase,
                uint32_t &PrevFile, uint32_t &PrevLine, unsigned Depth,
                uint64_t RecordOffset, SameSpan &Same,
                SmallVectorImpl<Match> &Chain, const NameCache &Names,
                bool &Hit) {
  if (Depth > MaxInlineDepth)
    return makeError("record at " + hexString(RecordOffset) +
                     ": inline tree deeper than " + Twine(MaxInlineDepth));
  NodeKey N;
  if (Error E = readKey(C, Details, ParentBase, PrevFile, PrevLine,
                        RecordOffset, Same, N))
    return E;
  uint32_t ChildFile = 0, ChildLine = 0;
  const uint64_t ChildBase = N.FirstStart;
  Hit = N.Hit;
  if (!Hit) {
    // Off the address's path: its subtree is jumped over, unread.
    C.skip(N.ChildrenBytes);
    return Error::success();
  }
  Chain.push_back({N.Name, N.CallFile, N.CallLine, N.HitStart, N.Details});
  // Its name is looked up last: its cache slot is loaded meanwhile.
  Names.prefetch(N.Name);
  for (uint64_t I = 0; I < N.NumChildren; ++I) {
    bool ChildHit = false;
    if (Error E =
            matchNode(C, Details, ChildBase, ChildFile, ChildLine, Depth + 1,
                      RecordOffset, Same, Chain, Names, ChildHit))
      return E;
    if (ChildHit)
      break; // nothing after the match is needed
  }
  return Error::success();
}

Error decodeNode(const CompactReader &R, Cursor &C, uint64_t ParentBase,
                 uint32_t &PrevFile, uint32_t &PrevLine, unsigned Depth,
                 uint64_t RecordOffset, DecodedInline &Out) {
  if (Depth > MaxInlineDepth)
    return makeError("record at " + hexString(RecordOffset) +
                     ": inline tree deeper than " + Twine(MaxInlineDepth));
  NodeHead N;
  if (Error E = readHead(C, R.hasDetails(), ParentBase, PrevFile, PrevLine,
                         RecordOffset, N))
    return E;
  Out.Ranges.assign(N.Ranges.begin(), N.Ranges.end());
  Out.CallColumn = N.Details.CallColumn;
  Out.CallDiscriminator = N.Details.CallDiscriminator;
  Out.StartAddress = N.Details.StartAddress;
  Out.CallFile = N.CallFile;
  Out.CallLine = N.CallLine;
  if (N.CallFile > R.header().NumFiles)
    return makeError("record at " + hexString(RecordOffset) + ": call file " +
                     Twine(N.CallFile) + " is out of range");
  NameEntry Name;
  if (Error E = R.getName(N.Name, Name))
    return E;
  Out.Name = std::move(Name.Name);
  Out.Decl = Name.Decl;
  Out.HasShortName = Name.HasShort;
  Out.ShortName = std::move(Name.Short);
  if (Out.Decl.File > R.header().NumFiles)
    return makeError("record at " + hexString(RecordOffset) +
                     ": declaration file " + Twine(Out.Decl.File) +
                     " is out of range");
  uint32_t ChildFile = 0, ChildLine = 0;
  // The children must fill exactly the bytes the node gives them.
  Cursor Children(C.pos(), C.pos() + N.ChildrenBytes);
  for (uint64_t I = 0; I < N.NumChildren; ++I) {
    // Each node takes bytes: a bound on hostile child counts.
    if (Children.atEnd())
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated inline tree");
    Out.Children.emplace_back();
    if (Error E =
            decodeNode(R, Children, N.Ranges.front().Start, ChildFile,
                       ChildLine, Depth + 1, RecordOffset, Out.Children.back()))
      return E;
  }
  if (!Children.atEnd())
    return makeError("record at " + hexString(RecordOffset) +
                     ": inline node children end before their size says");
  C.skip(N.ChildrenBytes);
  return Error::success();
}

/// A record's inline tree, after its line rows: the children of the
/// implicit root that is the function itself (HasInlineChildren), or one
/// root of its own (HasInlineRoot).
Error decodeInlineTree(const CompactReader &R, Cursor &C, uint64_t Head,
                       uint64_t RecordFileOffset, DecodedFunction &D) {
  if (Head & HasInlineChildren) {
    DecodedInline Root;
    Root.Ranges.push_back({D.Loc.Start, D.Loc.Start + D.Loc.Size});
    Root.Name = D.Name.Name;
    Root.Decl = D.Name.Decl;
    Root.HasShortName = D.Name.HasShort;
    Root.ShortName = D.Name.Short;
    uint32_t PrevFile = D.Lines.empty() ? 0 : D.Lines.front().File;
    uint32_t PrevLine = D.Lines.empty() ? 0 : D.Lines.front().Line;
    uint64_t NumChildren = C.uleb();
    if (!C.ok())
      return makeError("record at " + hexString(RecordFileOffset) +
                       ": truncated inline tree");
    for (uint64_t I = 0; I < NumChildren; ++I) {
      if (C.atEnd())
        return makeError("record at " + hexString(RecordFileOffset) +
                         ": truncated inline tree");
      Root.Children.emplace_back();
      if (Error E = decodeNode(R, C, D.Loc.Start, PrevFile, PrevLine, 1,
                               RecordFileOffset, Root.Children.back()))
        return E;
    }
    D.Inline = std::move(Root);
  } else if (Head & HasInlineRoot) {
    DecodedInline Root;
    uint32_t PrevFile = 0, PrevLine = 0;
    if (Error E = decodeNode(R, C, D.Loc.Start, PrevFile, PrevLine, 0,
                             RecordFileOffset, Root))
      return E;
    D.Inline = std::move(Root);
  }
  return Error::success();
}

} // namespace

bool CompactReader::isCompact(StringRef Contents) {
  return Contents.size() >= 4 && read32le(Contents.data()) == Magic;
}

static std::atomic<uint64_t> NextReaderSerial{1};

CompactReader::CompactReader() : Serial(NextReaderSerial++) {}

Expected<std::unique_ptr<CompactReader>>
CompactReader::create(std::unique_ptr<MemoryBuffer> Buffer) {
  std::unique_ptr<CompactReader> R(new CompactReader());
  R->Data = Buffer->getBuffer();
  R->Owned = std::move(Buffer);
  if (Error E = R->parse())
    return std::move(E);
  return std::move(R);
}

Expected<std::unique_ptr<CompactReader>>
CompactReader::create(MemoryBufferRef Buffer) {
  std::unique_ptr<CompactReader> R(new CompactReader());
  R->Data = Buffer.getBuffer();
  if (Error E = R->parse())
    return std::move(E);
  return std::move(R);
}

const char *sectionName(Section S) {
  static const char *const Names[NumSections] = {
      "UUID",       "BlockIndex", "AddressBlocks", "Records",
      "NameTokens", "Names",      "PathTokens",    "Paths",
      "Files",      "Segments",   "ColumnCode"};
  return S < NumSections ? Names[S] : "?";
}

ArrayRef<uint8_t> CompactReader::uuid() const {
  return ArrayRef<uint8_t>(bytes(Data) + SecOff[SecUUID], SecSize[SecUUID]);
}

/// Checks a list section (names, paths, files): a sparse index of u32
/// offsets, ascending and inside the body.
static Error checkList(StringRef Section, uint32_t Count, const char *What,
                       StringRef &List) {
  uint64_t IndexSize =
      ((uint64_t(Count) + (1u << ListIndexShift) - 1) >> ListIndexShift) * 4;
  if (IndexSize > Section.size())
    return makeError(Twine(What) + " list of " + Twine(Count) +
                     " entries is larger than its section");
  uint64_t BodySize = Section.size() - IndexSize;
  uint32_t Prev = 0;
  for (uint64_t I = 0; I < IndexSize; I += 4) {
    uint32_t Off = read32le(Section.data() + I);
    if (Off < Prev || Off > BodySize)
      return makeError(Twine(What) + " list index entry " + Twine(I / 4) +
                       " is out of order or outside the list");
    Prev = Off;
  }
  List = Section;
  return Error::success();
}

Error CompactReader::parse() {
  if (Error E = readHeader())
    return E;
  if (Error E = checkHeader())
    return E;
  if (Error E = readSectionTable())
    return E;
  if (Error E = checkBlockIndex())
    return E;
  if (Error E = readStringTables())
    return E;
  if (Error E = readSegments())
    return E;
  if (Error E = readColumnCode())
    return E;
  expandPathsAndFiles();
  locateNameTokens();
  return Error::success();
}

Error CompactReader::readHeader() {
  if (Data.size() < HeaderSize + SectionTableSize)
    return makeError("file too small for a compact table header (" +
                     Twine(Data.size()) + " bytes, need " +
                     Twine(HeaderSize + SectionTableSize) + ")");
  const uint8_t *P = bytes(Data);
  Hdr.Magic = read32le(P);
  if (Hdr.Magic != Magic)
    return makeError("not a compact address table: bad magic " +
                     hexString(Hdr.Magic));
  Hdr.Version = support::endian::read16le(P + 4);
  Hdr.BlockShift = P[6];
  Hdr.Flags = P[7];
  Hdr.BaseAddress = read64le(P + 8);
  Hdr.NumFunctions = read32le(P + 16);
  Hdr.NumBlocks = read32le(P + 20);
  Hdr.LineBase = int8_t(P[24]);
  Hdr.LineRange = P[25];
  Hdr.RowStopShift = P[26];
  Hdr.NumFiles = read32le(P + 28);
  Hdr.NumNames = read32le(P + 32);
  Hdr.NumPaths = read32le(P + 36);
  return Error::success();
}

Error CompactReader::checkHeader() {
  if (Hdr.Version != Version)
    return makeError("unsupported compact table version " + Twine(Hdr.Version) +
                     " (only version " + Twine(Version) +
                     " is supported): rebuild the table from its input with "
                     "'dwarfpack gsym'");
  if (Hdr.Flags & ~uint8_t(HasDetails | Addr32 | RowStops))
    return makeError("unknown header flags " + hexString(Hdr.Flags));
  Format.Details = Hdr.Flags & HasDetails;
  if (Hdr.Flags & RowStops) {
    if (Hdr.RowStopShift < MinRowStopShift ||
        Hdr.RowStopShift > MaxRowStopShift)
      return makeError(
          "invalid row stop shift " + Twine(unsigned(Hdr.RowStopShift)) + " (" +
          Twine(MinRowStopShift) + " to " + Twine(MaxRowStopShift) + ")");
    Format.StopShift = Hdr.RowStopShift;
  }
  if (Hdr.BlockShift > MaxBlockShift)
    return makeError("invalid block shift " + Twine(unsigned(Hdr.BlockShift)) +
                     " (at most " + Twine(MaxBlockShift) + ")");
  if (Hdr.LineRange == 0)
    return makeError("invalid line range 0");
  for (unsigned Op = FirstSpecial; Op < 256; ++Op) {
    Format.Special.AddrDelta[Op] = (Op - FirstSpecial) / Hdr.LineRange;
    Format.Special.LineDelta[Op] =
        Hdr.LineBase + (Op - FirstSpecial) % Hdr.LineRange;
  }
  uint64_t PerBlock = uint64_t(1) << Hdr.BlockShift;
  if (Hdr.NumBlocks != (uint64_t(Hdr.NumFunctions) + PerBlock - 1) / PerBlock)
    return makeError("block count " + Twine(Hdr.NumBlocks) +
                     " does not match " + Twine(Hdr.NumFunctions) +
                     " functions");
  return Error::success();
}

Error CompactReader::readSectionTable() {
  const uint8_t *P = bytes(Data);
  for (unsigned S = 0; S < NumSections; ++S) {
    SecOff[S] = read32le(P + HeaderSize + S * 8);
    SecSize[S] = read32le(P + HeaderSize + S * 8 + 4);
    if (uint64_t(SecOff[S]) + SecSize[S] > Data.size() ||
        SecOff[S] < HeaderSize + SectionTableSize)
      return makeError("section " + Twine(S) + " (" + sectionName(Section(S)) +
                       ") [" + hexString(SecOff[S]) + ", " +
                       hexString(uint64_t(SecOff[S]) + SecSize[S]) +
                       ") is outside the file");
  }
  return Error::success();
}

Error CompactReader::checkBlockIndex() const {
  if (SecSize[SecBlockIndex] != uint64_t(Hdr.NumBlocks) * BlockIndexEntrySize)
    return makeError("block index has " + Twine(SecSize[SecBlockIndex]) +
                     " bytes, expected " +
                     Twine(uint64_t(Hdr.NumBlocks) * BlockIndexEntrySize));
  const uint8_t *Index = bytes(Data) + SecOff[SecBlockIndex];
  for (uint32_t B = 0; B < Hdr.NumBlocks; ++B) {
    const uint8_t *E = Index + uint64_t(B) * BlockIndexEntrySize;
    uint64_t Start = read64le(E);
    uint32_t BlockOff = read32le(E + 8), RecOff = read32le(E + 12);
    if (BlockOff > SecSize[SecAddressBlocks] || RecOff > SecSize[SecRecords])
      return makeError("block " + Twine(B) + " points outside its sections");
    if (Hdr.BaseAddress + Start < Hdr.BaseAddress)
      return makeError("block " + Twine(B) + " start overflows");
    if (B > 0) {
      const uint8_t *Prev = E - BlockIndexEntrySize;
      if (Start <= read64le(Prev) || BlockOff < read32le(Prev + 8) ||
          RecOff < read32le(Prev + 12))
        return makeError("block index is not sorted at block " + Twine(B));
    }
  }
  return Error::success();
}

Error CompactReader::readStringTables() {
  Expected<token::TokenTable> NT =
      token::TokenTable::create(sectionData(SecNameTokens));
  if (!NT)
    return makeError("name token table: " + toString(NT.takeError()));
  NameTokens = *NT;
  Expected<token::TokenTable> PT =
      token::TokenTable::create(sectionData(SecPathTokens));
  if (!PT)
    return makeError("path token table: " + toString(PT.takeError()));
  PathTokens = *PT;
  Names = sectionData(SecNames);
  if (Error E = checkList(sectionData(SecPaths), Hdr.NumPaths, "path", Paths))
    return E;
  if (Error E = checkList(sectionData(SecFiles), Hdr.NumFiles, "file", Files))
    return E;
  return Error::success();
}

Error CompactReader::readSegments() {
  if (SecSize[SecSegments] % SegmentEntrySize)
    return makeError("segments section of " + Twine(SecSize[SecSegments]) +
                     " bytes is not a whole number of " +
                     Twine(SegmentEntrySize) + "-byte entries");
  for (uint32_t Off = 0; Off < SecSize[SecSegments]; Off += SegmentEntrySize) {
    const uint8_t *E = bytes(Data) + SecOff[SecSegments] + Off;
    Segments.push_back({read64le(E), read64le(E + 8), read64le(E + 16)});
  }
  return checkLoadSegments(Segments);
}

Error CompactReader::readColumnCode() {
  Expected<ColumnCode> Code = ColumnCode::parse(sectionData(SecColumnCode));
  if (!Code)
    return Code.takeError();
  Columns = std::move(*Code);
  if (!Columns.empty() && !Format.Details)
    return makeError("a column code in a table without details");
  Format.Columns = Columns.empty() ? nullptr : &Columns;
  return Error::success();
}

Expected<std::optional<uint64_t>>
CompactReader::fileOffsetToAddress(uint64_t Offset) const {
  if (Segments.empty())
    return makeError("the table records no load segments (it was made from "
                     "a relocatable object or a Breakpad file)");
  return addressOfFileOffset(Segments, Offset);
}

Expected<uint64_t> CompactReader::kernelTextAddress() const {
  if (Segments.empty())
    return makeError("the table records no load segments (it was made from "
                     "a relocatable object or a Breakpad file)");
  // The linker scripts of Linux put _text at the start of the first
  // loadable segment (x86-64, arm64, ...); whether the table is a kernel's
  // at all is for the caller to check against the running kernel.
  return Segments.front().Address;
}

Error CompactReader::forEachFunction(
    function_ref<void(uint64_t, StringRef)> Fn) const {
  return forEachName(/*DwarfNames=*/false, Fn);
}

Error CompactReader::forEachDwarfName(
    function_ref<void(uint64_t, StringRef)> Fn) const {
  return forEachName(/*DwarfNames=*/true, Fn);
}

Error CompactReader::forEachName(
    bool DwarfNames, function_ref<void(uint64_t, StringRef)> Fn) const {
  std::vector<FunctionLocation> Locs;
  std::string Name;
  const uint8_t *Rec = bytes(Data) + SecOff[SecRecords];
  for (uint32_t B = 0; B < Hdr.NumBlocks; ++B) {
    if (Error E = decodeBlock(B, Locs))
      return E;
    for (const FunctionLocation &L : Locs) {
      // The record starts with its head: the name's offset and flags.
      if (L.RecordEnd > SecSize[SecRecords] || L.RecordOffset > L.RecordEnd)
        return makeError("record is outside the records section");
      Cursor C(Rec + L.RecordOffset, Rec + L.RecordEnd);
      Expected<RecordHead> Head = readRecordHead(
          C, Format.Details, SecOff[SecRecords] + L.RecordOffset);
      if (!Head)
        return Head.takeError();
      if (DwarfNames && !(Head->Flags & HasDwarfName))
        continue;
      if (Error E = getName(DwarfNames ? Head->DwarfName : Head->Name, Name))
        return E;
      Fn(L.Start, Name);
    }
  }
  return Error::success();
}

/// Finds entry Id of a list section; Kind 0 entries are token-encoded names,
/// kind 1 entries are pairs of ULEB128 values.
Error CompactReader::findListEntry(StringRef List, uint32_t Count, uint32_t Id,
                                   unsigned Kind, const uint8_t *&P) const {
  static const char *const What[] = {"name", "path", "file"};
  if (Id >= Count)
    return makeError(Twine(What[Kind]) + " id " + Twine(Id) +
                     " is out of range (" + Twine(Count) + ")");
  uint64_t IndexSize =
      ((uint64_t(Count) + (1u << ListIndexShift) - 1) >> ListIndexShift) * 4;
  const uint8_t *Body = bytes(List) + IndexSize;
  const uint8_t *End = bytes(List) + List.size();
  P = Body + read32le(List.data() + (Id >> ListIndexShift) * 4);
  for (uint32_t I = 0; I < (Id & ((1u << ListIndexShift) - 1)); ++I) {
    Cursor C(P, End);
    if (Kind == 2) {
      C.uleb();
      C.uleb();
    } else {
      uint64_t N = C.uleb();
      if (C.ok() && N > uint64_t(End - C.pos()))
        return makeError("corrupt " + Twine(What[Kind]) + " list");
      C.skip(N);
    }
    if (!C.ok())
      return makeError("corrupt " + Twine(What[Kind]) + " list");
    P = C.pos();
  }
  return Error::success();
}

void CompactReader::prefetch(StringRef List, uint32_t Count, uint32_t Id,
                             bool Body) const {
  if (Id >= Count)
    return; // reported when the entry is decoded
  const char *Index = List.data() + (Id >> ListIndexShift) * 4;
  if (!Body) {
    __builtin_prefetch(Index);
    return;
  }
  uint64_t IndexSize =
      ((uint64_t(Count) + (1u << ListIndexShift) - 1) >> ListIndexShift) * 4;
  __builtin_prefetch(List.data() + IndexSize + read32le(Index));
}

Error CompactReader::expandName(const token::TokenTable &Tokens, StringRef List,
                                uint32_t Count, uint32_t Id, unsigned Kind,
                                std::string &Out) const {
  const uint8_t *P;
  if (Error E = findListEntry(List, Count, Id, Kind, P))
    return E;
  return decodeEntry(Tokens, P, bytes(List) + List.size(),
                     Kind ? "path" : "name", Out);
}

Error CompactReader::decodeEntry(const token::TokenTable &Tokens,
                                 const uint8_t *P, const uint8_t *ListEnd,
                                 const char *What, std::string &Out) const {
  Out.clear();
  return appendEntry(Tokens, P, ListEnd, What, Out);
}

Error CompactReader::appendEntry(const token::TokenTable &Tokens,
                                 const uint8_t *P, const uint8_t *ListEnd,
                                 const char *What, std::string &Out,
                                 const uint8_t **EntryEnd) const {
  // Name tokens come from the table located at open (no length sums nor
  // long-token searches per token); path tokens are only read at open.
  ArrayRef<TokenRef> Located;
  if (&Tokens == &NameTokens)
    Located = NameTokenRefs;
  Cursor C(P, ListEnd);
  uint64_t N = C.uleb();
  if (!C.ok() || N > uint64_t(C.end() - C.pos()))
    return makeError("corrupt " + Twine(What) +
                     " list entry: length runs past the list");
  const uint8_t *Q = C.pos(), *End = Q + N;
  if (EntryEnd)
    *EntryEnd = End;
  // Tokens are appended as they are read (no id list); one reservation
  // covers most names, whose bytes are a few times their codes' size.
  Out.reserve(Out.size() + std::min<uint64_t>(4 * N + 16, 1024));
  // Hostile token lengths could make a short entry expand to gigabytes:
  // no real name or path comes near this bound.
  constexpr size_t MaxExpansion = 16u << 20;
  const size_t Start = Out.size();
  bool First = true;
  while (Q < End) {
    uint32_t Tok;
    if (!Tokens.readId(Q, End, Tok))
      return makeError("corrupt " + Twine(What) + " list entry: bad token id");
    StringRef T = Tok < Located.size()
                      ? StringRef(NameTokenText + Located[Tok].Offset,
                                  Located[Tok].Length)
                      : Tokens.token(Tok);
    if (LLVM_UNLIKELY(Out.size() - Start + T.size() + 1 > MaxExpansion))
      return makeError("corrupt " + Twine(What) +
                       " list entry: expands to more than 16 MiB");
    if (!First && Tokens.joinsWithSeparator(T))
      Out.push_back(Tokens.separators().Word);
    Out.append(T.data(), T.size());
    First = false;
  }
  return Error::success();
}

Error CompactReader::appendName(const uint8_t *P, std::string &Out,
                                const uint8_t *&EntryEnd) const {
  const uint8_t *ListEnd = bytes(Names) + Names.size();
  if (NameTokenRefs.empty())
    return appendEntry(NameTokens, P, ListEnd, "name", Out, &EntryEnd);
  // The tokens located at open: their ids are read first, then the name
  // is written with one resize and a copy per token.
  Cursor C(P, ListEnd);
  uint64_t N = C.uleb();
  if (!C.ok() || N > uint64_t(C.end() - C.pos()))
    return makeError("corrupt name list entry: length runs past the list");
  const uint8_t *Q = C.pos(), *End = Q + N;
  EntryEnd = End;
  SmallVector<uint32_t, 32> Ids;
  uint64_t Size = 0;
  const char Word = NameTokens.separators().Word;
  const char Sub = NameTokens.separators().Sub;
  while (Q < End) {
    uint32_t Tok;
    if (LLVM_UNLIKELY(!NameTokens.readId(Q, End, Tok)))
      return makeError("corrupt name list entry: bad token id");
    Ids.push_back(Tok);
    Size += NameTokenRefs[Tok].Length + 1;
  }
  // Hostile token lengths could make a short entry expand to gigabytes:
  // no real name comes near this bound.
  if (LLVM_UNLIKELY(Size > (16u << 20)))
    return makeError("corrupt name list entry: expands to more than 16 MiB");
  const size_t Start = Out.size();
  Out.resize(Start + Size);
  char *W = &Out[Start];
  for (size_t I = 0; I < Ids.size(); ++I) {
    const TokenRef &T = NameTokenRefs[Ids[I]];
    const char *Text = NameTokenText + T.Offset;
    // As TokenTable::joinsWithSeparator: a token that starts with the
    // sub-separator joins without a word separator.
    if (I > 0 && !(Sub && T.Length && Text[0] == Sub))
      *W++ = Word;
    memcpy(W, Text, T.Length);
    W += T.Length;
  }
  Out.resize(W - Out.data());
  return Error::success();
}

Error CompactReader::getName(uint32_t Offset, std::string &Out) const {
  if (Offset >= Names.size())
    return makeError("name offset " + hexString(Offset) +
                     " is outside the name list (" + hexString(Names.size()) +
                     " bytes)");
  return decodeEntry(NameTokens, bytes(Names) + Offset,
                     bytes(Names) + Names.size(), "name", Out);
}

Error CompactReader::getName(uint32_t Offset, NameEntry &Out) const {
  Out = NameEntry();
  if (!Format.Details)
    return getName(Offset, Out.Name);
  if (Offset >= Names.size())
    return makeError("name offset " + hexString(Offset) +
                     " is outside the name list (" + hexString(Names.size()) +
                     " bytes)");
  const uint8_t *End = bytes(Names) + Names.size();
  const uint8_t *DeclAt;
  if (Error E = appendEntry(NameTokens, bytes(Names) + Offset, End, "name",
                            Out.Name, &DeclAt))
    return E;
  const uint8_t *ShortAt;
  uint64_t Flags;
  if (Error E = readNameDetails(DeclAt, Offset, Out.Decl, Flags, ShortAt))
    return E;
  Out.HasShort = Flags & NameHasShort;
  if (Out.HasShort)
    return appendEntry(NameTokens, ShortAt, End, "short name", Out.Short);
  return Error::success();
}

Error CompactReader::readNameDetails(const uint8_t *P, uint32_t Offset,
                                     Declaration &Decl, uint64_t &Flags,
                                     const uint8_t *&ShortAt) const {
  Cursor C(P, bytes(Names) + Names.size());
  uint64_t Head = C.uleb();
  Decl.Line = C.u32leb();
  ShortAt = C.pos();
  Flags = Head & ((uint64_t(1) << NameEntryFlagBits) - 1);
  if (!C.ok() || (Head >> NameEntryFlagBits) > UINT32_MAX)
    return makeError("name entry at " + hexString(Offset) +
                     ": truncated declaration");
  Decl.File = uint32_t(Head >> NameEntryFlagBits);
  return Error::success();
}

Error CompactReader::getPath(uint32_t Id, std::string &Out) const {
  if (Id < PathEnds.size()) {
    Out.assign(cachedPath(Id));
    return Error::success();
  }
  return expandName(PathTokens, Paths, Hdr.NumPaths, Id, 1, Out);
}

Error CompactReader::getFileParts(uint32_t Id, uint32_t &Dir,
                                  uint32_t &Base) const {
  if (Id == 0)
    return makeError("file id 0 has no parts");
  if (Id <= FileParts.size()) {
    std::tie(Dir, Base) = FileParts[Id - 1];
    return Error::success();
  }
  const uint8_t *P;
  if (Error E = findListEntry(Files, Hdr.NumFiles, Id - 1, 2, P))
    return E;
  Cursor C(P, bytes(Files) + Files.size());
  Dir = C.u32leb();
  Base = C.u32leb();
  if (!C.ok())
    return makeError("corrupt file list entry " + Twine(Id));
  return Error::success();
}

void CompactReader::locateNameTokens() {
  // Every name of a lookup is a few tokens: where each token lies is found
  // once here. create() validated the table, so token() stays inside it.
  // Offsets are from the first token: the text is in the file (version 1)
  // or in the image the table decoded at open (version 2), in id order.
  if (NameTokens.numTokens() == 0)
    return;
  NameTokenText = NameTokens.token(0).data();
  NameTokenRefs.resize(NameTokens.numTokens());
  for (uint32_t Id = 0; Id < NameTokens.numTokens(); ++Id) {
    StringRef T = NameTokens.token(Id);
    uint64_t Offset = uint64_t(T.data() - NameTokenText);
    if (Offset > UINT32_MAX) { // past 4 GiB: token() per token then
      NameTokenRefs.clear();
      return;
    }
    NameTokenRefs[Id] = {uint32_t(Offset), uint32_t(T.size())};
  }
}

/// The path of a file given as directory and base, as getFilePath joins it.
static void joinInto(StringRef D, StringRef B, std::string &Out) {
  if (!D.empty() && !B.empty() && D.back() != '/' && B[0] != '/' &&
      D.find('\\') == StringRef::npos) {
    Out.reserve(D.size() + 1 + B.size());
    Out.assign(D.data(), D.size());
    Out.push_back('/');
    Out.append(B.data(), B.size());
    return;
  }
  Out = gsym::joinPath(D, B);
}

void CompactReader::expandPathsAndFiles() {
  // Paths and files are a small part of a table (about 1 % of vmlinux's)
  // that nearly every lookup needs: expanding them once at open spares
  // each lookup the list walks and token expansions. Anything that does
  // not decode, or a path list that expands beyond the budget (hostile
  // token lengths), leaves the lazy path in charge, which reports it.
  constexpr uint64_t Budget = 64u << 20;
  std::string Text, One;
  std::vector<uint32_t> Ends;
  Ends.reserve(Hdr.NumPaths);
  for (uint32_t Id = 0; Id < Hdr.NumPaths; ++Id) {
    if (Error E = expandName(PathTokens, Paths, Hdr.NumPaths, Id, 1, One)) {
      consumeError(std::move(E));
      return;
    }
    if (Text.size() + One.size() > Budget)
      return;
    Text += One;
    Ends.push_back(uint32_t(Text.size()));
  }
  std::vector<std::pair<uint32_t, uint32_t>> Parts;
  Parts.reserve(Hdr.NumFiles);
  for (uint32_t Id = 1; Id <= Hdr.NumFiles; ++Id) {
    uint32_t Dir, Base;
    if (Error E = getFileParts(Id, Dir, Base)) {
      consumeError(std::move(E));
      return;
    }
    // Out-of-range path ids are reported by the lazy path.
    if (Dir >= Hdr.NumPaths || Base >= Hdr.NumPaths)
      return;
    Parts.emplace_back(Dir, Base);
  }
  PathText = std::move(Text);
  PathEnds = std::move(Ends);
  FileParts = std::move(Parts);
  // Joined once here rather than for every frame of every lookup (vmlinux
  // has 3,216 files).
  for (auto [Dir, Base] : FileParts) {
    joinInto(cachedPath(Dir), cachedPath(Base), One);
    if (FileText.size() + One.size() > Budget) {
      FileText.clear();
      FileEnds.clear();
      FileParts.clear();
      return;
    }
    FileText += One;
    FileEnds.push_back(uint32_t(FileText.size()));
  }
}

Error CompactReader::getFilePath(uint32_t Id, std::string &Out) const {
  Out.clear();
  if (Id == 0)
    return Error::success();
  if (Id <= FileParts.size()) {
    // Both parts were expanded at open; only the join is left.
    auto [Dir, Base] = FileParts[Id - 1];
    joinInto(cachedPath(Dir), cachedPath(Base), Out);
    return Error::success();
  }
  uint32_t Dir, Base;
  if (Error E = getFileParts(Id, Dir, Base))
    return E;
  const uint8_t *P;
  if (Error E = findListEntry(Paths, Hdr.NumPaths, Dir, 1, P))
    return E;
  const uint8_t *Q;
  if (Error E = findListEntry(Paths, Hdr.NumPaths, Base, 1, Q))
    return E;
  const uint8_t *ListEnd = bytes(Paths) + Paths.size();
  if (Error E = appendEntry(PathTokens, P, ListEnd, "path", Out))
    return E;
  // The common case of gsym::joinPath, without temporaries: "dir/base",
  // the base expanded in place after the separator.
  const size_t DirSize = Out.size();
  Out.push_back('/');
  if (Error E = appendEntry(PathTokens, Q, ListEnd, "path", Out))
    return E;
  const size_t BaseStart = DirSize + 1;
  if (DirSize != 0 && Out.size() > BaseStart && Out[DirSize - 1] != '/' &&
      Out[BaseStart] != '/' &&
      StringRef(Out.data(), DirSize).find('\\') == StringRef::npos)
    return Error::success();
  std::string B = Out.substr(BaseStart);
  Out.resize(DirSize);
  Out = gsym::joinPath(Out, B);
  return Error::success();
}

CompactReader::BlockBounds CompactReader::blockBounds(uint32_t Block) const {
  const uint8_t *Index = bytes(Data) + SecOff[SecBlockIndex];
  const uint8_t *E = Index + uint64_t(Block) * BlockIndexEntrySize;
  bool Last = Block + 1 == Hdr.NumBlocks;
  const uint64_t PerBlock = uint64_t(1) << Hdr.BlockShift;
  const uint8_t *Blocks = bytes(Data) + SecOff[SecAddressBlocks];
  BlockBounds B;
  B.Begin = Blocks + read32le(E + 8);
  B.End = Blocks + (Last ? SecSize[SecAddressBlocks]
                         : read32le(E + BlockIndexEntrySize + 8));
  B.Count = Last ? Hdr.NumFunctions - uint64_t(Block) * PerBlock : PerBlock;
  B.Start = Hdr.BaseAddress + read64le(E);
  B.RecOff = read32le(E + 12);
  B.RecEnd =
      Last ? SecSize[SecRecords] : read32le(E + BlockIndexEntrySize + 12);
  return B;
}

Error CompactReader::decodeBlock(uint32_t Block,
                                 std::vector<FunctionLocation> &Out) const {
  Out.clear();
  if (Block >= Hdr.NumBlocks)
    return makeError("block " + Twine(Block) + " is out of range");
  BlockBounds B = blockBounds(Block);
  Cursor C(B.Begin, B.End);
  uint64_t Count = B.Count, Start = B.Start, RecOff = B.RecOff,
           RecEnd = B.RecEnd;
  for (uint64_t I = 0; I < Count; ++I) {
    FunctionLocation L;
    if (I > 0) {
      uint64_t Gap = C.uleb();
      L.Start = Start + Gap;
      if (L.Start < Start)
        return makeError("address block " + Twine(Block) + " overflows");
    } else {
      L.Start = Start;
    }
    L.Size = C.uleb();
    uint64_t Len = I + 1 < Count ? C.uleb() : RecEnd - RecOff;
    if (!C.ok() || L.Size == 0 || L.Start + L.Size < L.Start)
      return makeError("address block " + Twine(Block) +
                       " is truncated or malformed");
    if (Len > RecEnd - RecOff)
      return makeError("address block " + Twine(Block) +
                       " has records past the block's end");
    L.RecordOffset = RecOff;
    L.RecordEnd = RecOff + Len;
    RecOff += Len;
    Start = L.Start + L.Size;
    Out.push_back(L);
  }
  return Error::success();
}

const CompactReader::FunctionIndex &CompactReader::functionIndex() const {
  std::call_once(IndexOnce, [this] {
    FunctionIndex I;
    std::vector<FunctionLocation> Block;
    for (uint32_t B = 0; B < Hdr.NumBlocks; ++B) {
      if (Error E = decodeBlock(B, Block)) {
        consumeError(std::move(E)); // lookups decode blocks, and report it
        return;
      }
      for (const FunctionLocation &L : Block) {
        uint64_t Start = L.Start - Hdr.BaseAddress;
        if (Start > UINT32_MAX || L.Size > UINT32_MAX ||
            L.RecordEnd > UINT32_MAX)
          return;
        I.Starts.push_back(uint32_t(Start));
        I.Entries.push_back({uint32_t(L.Size), uint32_t(L.RecordOffset),
                             uint32_t(L.RecordEnd)});
      }
    }
    fillBuckets(I);
    Index = std::move(I);
  });
  return Index;
}

void CompactReader::fillBuckets(FunctionIndex &I) {
  if (I.Starts.empty())
    return;
  const uint64_t Span = uint64_t(I.Starts.back()) + 1;
  while ((Span >> I.BucketShift) > I.Starts.size())
    ++I.BucketShift;
  const size_t NumBuckets = size_t(Span >> I.BucketShift) + 1;
  I.Buckets.resize(NumBuckets);
  size_t F = 0;
  for (size_t B = 0; B < NumBuckets; ++B) {
    const uint64_t First = uint64_t(B) << I.BucketShift;
    while (F + 1 < I.Starts.size() && I.Starts[F + 1] <= First)
      ++F;
    I.Buckets[B] = uint32_t(F);
  }
}

bool CompactReader::findIndexed(uint64_t Address, FunctionLocation &Loc) const {
  const FunctionIndex &I = Index;
  const uint64_t Off = Address - Hdr.BaseAddress;
  const size_t B =
      size_t(std::min<uint64_t>(Off >> I.BucketShift, I.Buckets.size() - 1));
  // The last function starting at or before Off, by conditional moves,
  // among those from its bucket's to the next bucket's.
  const uint32_t *S = I.Starts.data();
  size_t Lo = I.Buckets[B];
  size_t Count =
      (B + 1 < I.Buckets.size() ? I.Buckets[B + 1] + 1 : I.Starts.size()) - Lo;
  while (Count > 1) {
    const size_t Half = Count / 2;
    Lo = S[Lo + Half] <= Off ? Lo + Half : Lo;
    Count -= Half;
  }
  const FunctionIndex::Entry &E = I.Entries[Lo];
  if (S[Lo] > Off || Off - S[Lo] >= E.Size)
    return false;
  Loc = {Hdr.BaseAddress + S[Lo], E.Size, E.RecordOffset, E.RecordEnd};
  return true;
}

Expected<bool> CompactReader::findFunction(uint64_t Address,
                                           FunctionLocation &Loc) const {
  if (Hdr.NumBlocks == 0 || Address < Hdr.BaseAddress)
    return false;
  if (!functionIndex().Starts.empty())
    return findIndexed(Address, Loc);
  const uint64_t Off = Address - Hdr.BaseAddress;
  const uint8_t *Index = bytes(Data) + SecOff[SecBlockIndex];
  // The last block whose first start is <= Off, by a search whose steps
  // are conditional moves: a branch per step would be mispredicted half
  // the time.
  uint32_t Lo = 0, Count = Hdr.NumBlocks;
  while (Count > 1) {
    const uint32_t Half = Count / 2;
    const bool Right =
        read64le(Index + uint64_t(Lo + Half) * BlockIndexEntrySize) <= Off;
    Lo = Right ? Lo + Half : Lo;
    Count -= Half;
  }
  if (read64le(Index + uint64_t(Lo) * BlockIndexEntrySize) > Off)
    return false;
  const uint32_t Block = Lo;
  BlockBounds B = blockBounds(Block);
  Cursor C(B.Begin, B.End);
  uint64_t N = B.Count, Start = B.Start, RecOff = B.RecOff, RecEnd = B.RecEnd;
  for (uint64_t I = 0; I < N; ++I) {
    if (I > 0) {
      uint64_t Next = Start + C.uleb();
      if (!C.ok() || Next < Start)
        return makeError("address block " + Twine(Block) +
                         " is truncated or malformed");
      if (Next > Address)
        return false; // in the gap before function I
      Start = Next;
    }
    uint64_t Size = C.uleb();
    uint64_t Len = I + 1 < N ? C.uleb() : RecEnd - RecOff;
    if (!C.ok() || Size == 0 || Start + Size < Start || Len > RecEnd - RecOff)
      return makeError("address block " + Twine(Block) +
                       " is truncated or malformed");
    if (Address - Start < Size) {
      Loc = {Start, Size, RecOff, RecOff + Len};
      return true;
    }
    RecOff += Len;
    Start += Size;
  }
  return false;
}

struct CompactReader::RawFrame {
  uint32_t Name = 0; ///< Offset of the name entry in Names.
  uint32_t File = 0; ///< Compact file id.
  uint32_t Line = 0, Column = 0, Discriminator = 0;
  uint64_t Start = 0;
  bool HasStart = true;
  /// The outermost frame's: its record's DWARF name entry (with
  /// HasDwarfName), DWARF start and symbol's file.
  bool HasDwarfName = false, HasDwarfStart = true, HasSymbolFile = false;
  uint32_t DwarfName = 0, SymbolFile = 0;
};

Error CompactReader::lookupFrames(uint64_t Address, FrameBuffer &Out) const {
  Out.Frames.clear();
  Out.SameFrom = Out.SameTo = Address;
  FunctionLocation Loc;
  Expected<bool> Found = findFunction(Address, Loc);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return Error::success();
  SameSpan Same(Address, Out.FindSame);
  Same.meet(Loc.Start, Loc.Start + Loc.Size);
  auto Answer = [&](ArrayRef<RawFrame> Raw) {
    Out.SameFrom = Same.From;
    Out.SameTo = Same.To;
    return materialize(Raw, Out);
  };
  const uint8_t *Rec = bytes(Data) + SecOff[SecRecords];
  Cursor C(Rec + Loc.RecordOffset, Rec + Loc.RecordEnd);
  const uint64_t RecordFileOffset = SecOff[SecRecords] + Loc.RecordOffset;
  Expected<RecordHead> HeadOr =
      readRecordHead(C, Format.Details, RecordFileOffset);
  if (!HeadOr)
    return HeadOr.takeError();
  const uint64_t Head = HeadOr->Flags;
  SmallVector<RawFrame, 8> Raw;
  RawFrame Top;
  Top.Name = HeadOr->Name;
  Top.Start = Loc.Start;
  Top.HasDwarfName = Head & HasDwarfName;
  Top.DwarfName = HeadOr->DwarfName;
  Top.HasDwarfStart = !(Head & NoDwarfStart);
  Top.SymbolFile = HeadOr->SymbolFile;
  Top.HasSymbolFile = Head & HasSymbolFile;
  // Names are looked up last, most of them in the buffer's cache:
  // prefetching their slots while the rows and the inline tree are decoded
  // hides most of the cache misses.
  Out.Names.prefetch(Top.Name);
  if (Top.HasDwarfName)
    Out.Names.prefetch(Top.DwarfName);
  if (!(Head & HasLines)) {
    // Without a line table GSYM ignores inline info as well.
    Raw.push_back(Top);
    return Answer(Raw);
  }
  const bool HasInline = Head & (HasInlineChildren | HasInlineRoot);
  // Only the column of the row found is needed: the codes are decoded once
  // that row is known.
  RowSeek Seek;
  BitReader Columns;
  if (Error E = seekRow(C, Format, Loc.Start, RecordFileOffset, HasInline,
                        Address, Seek, Columns))
    return E;
  // As GSYM: no row at or before the address, or a row without a file, is
  // an error for the whole lookup. With details a row without a file is
  // code without a line (llvm-symbolizer's answer).
  if (!Seek.Found || (Seek.Row.File == 0 && !Format.Details))
    return makeError("address " + hexString(Address) +
                     " is not in the line table of the function at " +
                     hexString(Loc.Start));
  // The name's slot has arrived while the rows were decoded: its text
  // (which the caller reads) can be loaded while the inline tree is.
  Out.Names.prefetchText(Top.Name);
  const LineEntry &FirstRow = Seek.First;
  LineEntry *Row = &Seek.Row;
  Same.meet(Row->Address, Seek.Next);
  if (Format.Columns) {
    Expected<uint16_t> Column =
        columnOfRow(Columns, *Format.Columns, Seek.Index - Seek.ColumnRow,
                    RecordFileOffset);
    if (!Column)
      return Column.takeError();
    Row->Column = *Column;
  }
  SmallVector<Match, 8> Chain;
  if (Head & HasInlineChildren) {
    // Children of the implicit root refer to the first line row.
    uint32_t PrevFile = FirstRow.File, PrevLine = FirstRow.Line;
    uint64_t NumChildren = C.uleb();
    if (!C.ok())
      return makeError("record at " + hexString(RecordFileOffset) +
                       ": truncated inline tree");
    for (uint64_t I = 0; I < NumChildren; ++I) {
      bool Hit = false;
      if (Error E = matchNode(C, Format.Details, Loc.Start, PrevFile, PrevLine,
                              1, RecordFileOffset, Same, Chain, Out.Names, Hit))
        return E;
      if (Hit)
        break;
    }
  } else if (Head & HasInlineRoot) {
    uint32_t PrevFile = 0, PrevLine = 0;
    bool Hit = false;
    if (Error E = matchNode(C, Format.Details, Loc.Start, PrevFile, PrevLine, 0,
                            RecordFileOffset, Same, Chain, Out.Names, Hit))
      return E;
  }
  Top.File = Row->File;
  Top.Line = Row->Line;
  Top.Column = Row->Column;
  Top.Discriminator = Row->Discriminator;
  Raw.push_back(Top);
  // Innermost first: each matched call renames the current innermost frame
  // and pushes its caller at the call site; a call without a call file
  // (DWARF 2 has no DW_AT_call_file) too, its caller at no file, as
  // llvm-symbolizer prints it (GSYM's readers leave such a call out). A
  // stored root without a call file is the function itself.
  const Match *Root =
      (Head & HasInlineRoot) && !Chain.empty() ? &Chain[0] : nullptr;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    if (&*It == Root && It->CallFile == 0)
      continue;
    RawFrame Caller = Raw.back();
    Caller.File = It->CallFile;
    Caller.Line = It->CallLine;
    Caller.Column = It->Details.CallColumn;
    Caller.Discriminator = It->Details.CallDiscriminator;
    RawFrame &Callee = Raw.back();
    Callee.Name = It->Name;
    Callee.HasDwarfName = false;
    Callee.HasDwarfStart = true;
    Callee.SymbolFile = 0;
    Callee.HasSymbolFile = false;
    // Without details the start is the range's, as GSYM gives it; with
    // them, what llvm-symbolizer prints: the call's DW_AT_low_pc or none.
    Callee.Start = It->HitStart;
    Callee.HasStart = true;
    if (Format.Details) {
      Callee.HasStart = It->Details.StartAddress.has_value();
      if (It->Details.StartAddress)
        Callee.Start = *It->Details.StartAddress;
    }
    Raw.push_back(Caller);
  }
  return Answer(Raw);
}

Expected<NameCache::Name> CompactReader::cachedName(uint32_t Offset,
                                                    FrameBuffer &Out) const {
  NameCache::Name C;
  if (Out.Names.find(Offset, C))
    return C;
  if (Offset >= Names.size())
    return makeError("name offset " + hexString(Offset) +
                     " is outside the name list (" + hexString(Names.size()) +
                     " bytes)");
  // Expanded into the scratch text, then kept in the arena (which never
  // moves what it holds); a name that fails to expand is not kept.
  const uint8_t *EntryEnd;
  std::string &Scratch = Out.Scratch;
  Scratch.clear();
  Error E = appendName(bytes(Names) + Offset, Scratch, EntryEnd);
  size_t NameSize = Scratch.size();
  if (!E && Format.Details) {
    Declaration Decl;
    uint64_t Flags;
    const uint8_t *ShortAt;
    E = readNameDetails(EntryEnd, Offset, Decl, Flags, ShortAt);
    C.DeclFile = Decl.File;
    C.DeclLine = Decl.Line;
    C.HasShort = Flags & NameHasShort;
    const uint8_t *ShortEnd;
    if (!E && C.HasShort)
      E = appendName(ShortAt, Scratch, ShortEnd);
  }
  if (E)
    return std::move(E);
  char *Copy = static_cast<char *>(Out.NameArena.Allocate(Scratch.size(), 1));
  memcpy(Copy, Scratch.data(), Scratch.size());
  Out.NameBytes += Scratch.size();
  C.Text = StringRef(Copy, NameSize);
  C.Short = StringRef(Copy + NameSize, Scratch.size() - NameSize);
  Out.Names.insert(Offset, C);
  return C;
}

Error CompactReader::appendFileParts(uint32_t Id, FrameBuffer &Out,
                                     FrameBuffer::Span &Dir,
                                     FrameBuffer::Span &Base) const {
  Dir = Base = FrameBuffer::Span();
  if (Id == 0)
    return Error::success();
  if (Id > Hdr.NumFiles)
    return makeError("file index " + Twine(Id) + " is out of range (" +
                     Twine(Hdr.NumFiles) + " files)");
  uint32_t DirId, BaseId;
  if (Error E = getFileParts(Id, DirId, BaseId))
    return E;
  const uint8_t *ListEnd = bytes(Paths) + Paths.size();
  for (auto [PathId, Span] :
       {std::pair<uint32_t, FrameBuffer::Span *>{DirId, &Dir},
        {BaseId, &Base}}) {
    const uint8_t *P;
    if (Error E = findListEntry(Paths, Hdr.NumPaths, PathId, 1, P))
      return E;
    Span->Offset = uint32_t(Out.Text.size());
    if (Error E = appendEntry(PathTokens, P, ListEnd, "path", Out.Text))
      return E;
    Span->Size = uint32_t(Out.Text.size() - Span->Offset);
  }
  return Error::success();
}

Error CompactReader::materialize(ArrayRef<RawFrame> Raw,
                                 FrameBuffer &Out) const {
  Out.Text.clear();
  Out.Spans.clear();
  Out.Frames.resize(Raw.size());
  if (Out.NameReader != Serial || Out.NameBytes > FrameBuffer::NameCacheLimit)
    Out.resetNames(Serial);
  // Paths expanded at open are referred to in place; names (and paths of
  // a table whose lists are read lazily) are expanded into Out.Text, and
  // referred to once it stops growing.
  const bool Cached = !FileParts.empty() || Hdr.NumFiles == 0;
  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawFrame &R = Raw[I];
    FrameRef &F = Out.Frames[I];
    F.Line = R.Line;
    F.Column = R.Column;
    F.Discriminator = R.Discriminator;
    F.StartAddress = R.Start;
    F.HasStartAddress = R.HasStart;
    std::array<FrameBuffer::Span, 7> Spans;
    Expected<NameCache::Name> Name = cachedName(R.Name, Out);
    if (!Name)
      return Name.takeError();
    F.Name = Name->Text;
    F.DeclLine = Name->DeclLine;
    // The short name is the DWARF name entry's when the record names one.
    NameCache::Name Described = *Name;
    F.HasDwarfName = R.HasDwarfName;
    F.DwarfName = StringRef();
    if (R.HasDwarfName) {
      Expected<NameCache::Name> Dwarf = cachedName(R.DwarfName, Out);
      if (!Dwarf)
        return Dwarf.takeError();
      Described = *Dwarf;
      F.DwarfName = Described.Text;
    }
    F.ShortName = Described.Short;
    F.HasShortName = Described.HasShort;
    F.HasDwarfStart = R.HasDwarfStart;
    const uint32_t DeclFile = Name->DeclFile;
    F.File = R.File;
    F.DeclFile = DeclFile;
    F.SymbolFile = R.SymbolFile;
    F.HasSymbolFile = R.HasSymbolFile;
    if (R.File > Hdr.NumFiles || DeclFile > Hdr.NumFiles ||
        R.SymbolFile > Hdr.NumFiles)
      return makeError(
          "file index " +
          Twine(std::max(std::max(R.File, DeclFile), R.SymbolFile)) +
          " is out of range (" + Twine(Hdr.NumFiles) + " files)");
    if (Cached) {
      auto Parts = [&](uint32_t Id, StringRef &Dir, StringRef &Base) {
        if (Id == 0) {
          Dir = Base = StringRef();
          return;
        }
        auto [DirId, BaseId] = FileParts[Id - 1];
        Dir = cachedPath(DirId);
        Base = cachedPath(BaseId);
      };
      Parts(R.File, F.Dir, F.Base);
      Parts(DeclFile, F.DeclDir, F.DeclBase);
      Parts(R.SymbolFile, F.SymbolDir, F.SymbolBase);
    } else {
      if (Error E = appendFileParts(R.File, Out, Spans[1], Spans[2]))
        return E;
      if (Error E = appendFileParts(DeclFile, Out, Spans[3], Spans[4]))
        return E;
      if (Error E = appendFileParts(R.SymbolFile, Out, Spans[5], Spans[6]))
        return E;
    }
    Out.Spans.push_back(Spans);
  }
  auto Text = [&](const FrameBuffer::Span &S) {
    return StringRef(Out.Text.data() + S.Offset, S.Size);
  };
  for (size_t I = 0; I < Raw.size(); ++I) {
    FrameRef &F = Out.Frames[I];
    const std::array<FrameBuffer::Span, 7> &S = Out.Spans[I];
    if (!Cached) {
      F.Dir = Text(S[1]);
      F.Base = Text(S[2]);
      F.DeclDir = Text(S[3]);
      F.DeclBase = Text(S[4]);
      F.SymbolDir = Text(S[5]);
      F.SymbolBase = Text(S[6]);
    }
  }
  return Error::success();
}

Expected<LookupResult> CompactReader::lookup(uint64_t Address) const {
  LookupResult Result;
  if (Error E = lookupInto(Address, Result))
    return std::move(E);
  return Result;
}

/// Kept from one lookup of the thread to the next: most of a batch's names
/// have been expanded by an earlier lookup, and expanding them again cost
/// a sixth of a batch's time.
static FrameBuffer &threadBuffer() {
  thread_local FrameBuffer Buf;
  return Buf;
}

Error CompactReader::lookupViews(uint64_t Address, FrameViews &Out) const {
  FrameBuffer &Buf = threadBuffer();
  Buf.setFindSame(true);
  if (Error E = lookupFrames(Address, Buf))
    return E;
  const size_t N = Buf.frames().size();
  Out.HasDetails = Format.Details;
  Out.SameFrom = Buf.sameFrom();
  Out.SameTo = Buf.sameTo();
  Out.Frames.resize(N);
  // The files' paths joined at open, or (lists read lazily) joined here
  // into Out's storage.
  const bool Joined = !FileParts.empty() || Hdr.NumFiles == 0;
  if (!Joined && Out.Storage.Frames.size() < N)
    Out.Storage.Frames.resize(N);
  for (size_t I = 0; I < N; ++I) {
    const FrameRef &F = Buf.frames()[I];
    FrameView &V = Out.Frames[I];
    V.FileNameWhole = isWholePath(F.Dir, F.Base);
    V.StartFileNameWhole = isWholePath(F.DeclDir, F.DeclBase);
    if (Joined) {
      V.FileName = joinedFile(F.File);
      V.StartFileName = joinedFile(F.DeclFile);
      V.SymbolFileName = joinedFile(F.SymbolFile);
    } else {
      SourceFrame &S = Out.Storage.Frames[I];
      joinInto(F.Dir, F.Base, S.FileName);
      joinInto(F.DeclDir, F.DeclBase, S.StartFileName);
      joinInto(F.SymbolDir, F.SymbolBase, S.SymbolFileName);
      V.FileName = S.FileName;
      V.StartFileName = S.StartFileName;
      V.SymbolFileName = S.SymbolFileName;
    }
    V.FunctionName = F.Name;
    V.Line = F.Line;
    V.Column = F.Column;
    V.Discriminator = F.Discriminator;
    V.StartLine = F.DeclLine;
    V.StartAddress = F.StartAddress;
    V.HasStartAddress = F.HasStartAddress;
    V.ShortName = F.ShortName;
    V.HasShortName = F.HasShortName;
    V.DwarfName = F.DwarfName;
    V.HasDwarfName = F.HasDwarfName;
    V.HasDwarfStart = F.HasDwarfStart;
    V.HasSymbolFile = F.HasSymbolFile;
    V.Size.reset();
    V.Module = StringRef();
    V.SymbolType = 0;
  }
  return Error::success();
}

Error CompactReader::lookupInto(uint64_t Address, LookupResult &Result) const {
  thread_local FrameViews Views;
  if (Error E = lookupViews(Address, Views))
    return E;
  Result.Address = Address;
  Result.HasDetails = Format.Details;
  Result.StartSlide = 0;
  Result.Frames.resize(Views.Frames.size());
  // Assigned, not made anew: the strings keep their storage from an
  // earlier lookup into the same Result.
  for (size_t I = 0; I < Views.Frames.size(); ++I)
    Views.Frames[I].assignTo(Result.Frames[I]);
  return Error::success();
}

Expected<DecodedFunction>
CompactReader::decodeFunction(const FunctionLocation &Loc) const {
  DecodedFunction D;
  D.Loc = Loc;
  if (Loc.RecordEnd > SecSize[SecRecords] || Loc.RecordOffset > Loc.RecordEnd)
    return makeError("record is outside the records section");
  const uint8_t *Rec = bytes(Data) + SecOff[SecRecords];
  Cursor C(Rec + Loc.RecordOffset, Rec + Loc.RecordEnd);
  const uint64_t RecordFileOffset = SecOff[SecRecords] + Loc.RecordOffset;
  Expected<RecordHead> HeadOr =
      readRecordHead(C, Format.Details, RecordFileOffset);
  if (!HeadOr)
    return HeadOr.takeError();
  uint64_t Head = HeadOr->Flags;
  if (Error E = getName(HeadOr->Name, D.Name))
    return std::move(E);
  if (D.Name.Decl.File > Hdr.NumFiles)
    return makeError("record at " + hexString(RecordFileOffset) +
                     ": declaration file " + Twine(D.Name.Decl.File) +
                     " is out of range");
  if (Head & HasDwarfName) {
    D.DwarfName.emplace();
    if (Error E = getName(HeadOr->DwarfName, *D.DwarfName))
      return std::move(E);
  }
  D.SymbolFile = HeadOr->SymbolFile;
  D.HasSymbolFile = Head & HasSymbolFile;
  if (D.SymbolFile > Hdr.NumFiles)
    return makeError("record at " + hexString(RecordFileOffset) +
                     ": symbol file " + Twine(D.SymbolFile) +
                     " is out of range");
  D.NoDwarfStart = Head & NoDwarfStart;
  D.HasLines = Head & HasLines;
  const uint8_t *LinesAt = C.pos();
  D.HeadBytes = LinesAt - (Rec + Loc.RecordOffset);
  if (D.HasLines) {
    if (Error E = parseLines(C, Format, Loc.Start, RecordFileOffset,
                             Head & (HasInlineChildren | HasInlineRoot),
                             [&](const LineEntry &R) {
                               D.Lines.push_back(R);
                               return true;
                             }))
      return std::move(E);
    for (const LineEntry &R : D.Lines)
      if (R.File > Hdr.NumFiles)
        return makeError("record at " + hexString(RecordFileOffset) +
                         ": line row file " + Twine(R.File) +
                         " is out of range");
  }
  const uint8_t *InlineAt = C.pos();
  D.LineBytes = InlineAt - LinesAt;
  if (Error E = decodeInlineTree(*this, C, Head, RecordFileOffset, D))
    return std::move(E);
  D.InlineBytes = C.pos() - InlineAt;
  if (!C.atEnd())
    return makeError("record at " + hexString(RecordFileOffset) + " has " +
                     Twine(uint64_t(Loc.RecordEnd - (C.pos() - Rec))) +
                     " trailing bytes");
  return D;
}

} // namespace compact
} // namespace dwarfpack
