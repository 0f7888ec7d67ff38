//===- CompactReader.cpp - Zero-copy reader of compact address tables -----===//
//
// Layout and lookup rules: docs/CompactTable.md. Lookups give the answers of
// GsymReader::lookup for the GSYM file of the same model, including its
// errors (an address before the first line row, a row without a file).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

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
  uint64_t uleb() {
    if (LLVM_LIKELY(P < End && *P < 0x80))
      return *P++;
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
  int64_t sleb() {
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

/// Reader side of the line-row state machine (see the writer).
struct FileHistory {
  static constexpr unsigned Capacity = 32;
  uint32_t Files[Capacity];
  uint32_t Lines[Capacity];
  unsigned Size = 0;

  void start(uint32_t File, uint32_t Line) {
    Files[0] = File;
    Lines[0] = Line;
    Size = 1;
  }
  void setLine(uint32_t Line) { Lines[0] = Line; }

  uint32_t select(uint64_t Operand, uint32_t CurrentLine, uint32_t &File,
                  bool &OK) {
    unsigned Index = Size;
    if (Operand < Size) {
      Index = unsigned(Operand);
      File = Files[Index];
    } else {
      uint64_t Id = Operand - Size;
      if (Id > UINT32_MAX) {
        OK = false;
        return 0;
      }
      File = uint32_t(Id);
      for (unsigned I = 0; I < Size; ++I)
        if (Files[I] == File) {
          Index = I;
          break;
        }
    }
    uint32_t Base = CurrentLine;
    if (Index < Size)
      Base = Lines[Index];
    else if (Size < Capacity)
      ++Size; // a new file; when full, the least recent one drops out
    else
      Index = Capacity - 1;
    // Move entries [0, Index) up by one and put the file in front.
    for (unsigned I = std::min(Index, Size - 1); I > 0; --I) {
      Files[I] = Files[I - 1];
      Lines[I] = Lines[I - 1];
    }
    Files[0] = File;
    Lines[0] = Base;
    return Base;
  }
};

template <typename Fn>
Error parseRows(Cursor &C, BitReader *Cols, const RecordFormat &F,
                uint64_t FuncStart, uint64_t RecordOffset, uint64_t NumRows,
                Fn &&Callback);

/// Decodes a line table, calling Fn(Row) for every row until it returns
/// false. With HasSize (an inline tree follows), the cursor is then moved
/// past the whole table; without, decoding stops where the callback did.
/// Every opcode consumes at least one byte, so a hostile row count ends
/// with the record.
template <typename Fn>
Error parseLines(Cursor &C, const RecordFormat &F, uint64_t FuncStart,
                 uint64_t RecordOffset, bool HasSize, Fn &&Callback) {
  uint64_t NumRows = C.uleb();
  BitReader Cols;
  if (F.Columns) {
    // The rows' column codes come first: a bit string of its own.
    uint64_t ColumnBytes = C.uleb();
    if (!C.ok() || ColumnBytes > uint64_t(C.end() - C.pos()))
      return makeError("record at " + hexString(RecordOffset) +
                       ": column codes run past the record");
    Cols = BitReader(C.pos(), C.pos() + ColumnBytes);
    C.skip(ColumnBytes);
  }
  uint64_t Size = HasSize ? C.uleb() : 0;
  const uint8_t *TableStart = C.pos();
  if (HasSize && (!C.ok() || Size > uint64_t(C.end() - TableStart)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": line table size runs past the record");
  Cursor Rows(TableStart, HasSize ? TableStart + Size : C.end());
  if (Error E = parseRows(Rows, F.Columns ? &Cols : nullptr, F, FuncStart,
                          RecordOffset, NumRows, Callback))
    return E;
  if (HasSize)
    C.skip(Size);
  else
    C = Rows;
  return Error::success();
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

template <typename Fn>
Error parseRows(Cursor &C, BitReader *Cols, const RecordFormat &F,
                uint64_t FuncStart, uint64_t RecordOffset, uint64_t NumRows,
                Fn &&Callback) {
  const SpecialOpcodes &H = F.Special;
  LineEntry Row;
  Row.Address = FuncStart + C.uleb();
  uint64_t FileCode = C.uleb();
  Row.Line = C.u32leb();
  // With details the file id's low bit says a discriminator follows.
  if (F.Details) {
    if (FileCode & 1)
      Row.Discriminator = C.u32leb();
    FileCode >>= 1;
  }
  if (!C.ok() || NumRows == 0 || FileCode > UINT32_MAX)
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or empty line table");
  Row.File = uint32_t(FileCode);
  if (Row.Address < FuncStart)
    return makeError("record at " + hexString(RecordOffset) +
                     ": first line row overflows the address space");
  if (Error E = readColumn(Cols, F.Columns, RecordOffset, Row))
    return E;
  FileHistory Files;
  Files.start(Row.File, Row.Line);
  if (!Callback(Row))
    return Error::success();
  bool OK = true;
  for (uint64_t R = 1; R < NumRows; ++R) {
    uint32_t BaseLine = Row.Line;
    Row.Discriminator = 0;
    uint8_t Op = C.u8();
    while (Op < FirstSpecial && Op != LongRow && C.ok() && OK) {
      if (Op == SetDiscriminator) {
        if (LLVM_UNLIKELY(!F.Details))
          OK = false;
        Row.Discriminator = C.u32leb();
      } else {
        uint64_t Operand = Op == SwapFile ? 1 : C.uleb();
        BaseLine = Files.select(Operand, Row.Line, Row.File, OK);
      }
      Op = C.u8();
    }
    uint64_t AddrDelta;
    int64_t LineDelta;
    if (Op == LongRow) {
      AddrDelta = C.uleb();
      LineDelta = C.sleb();
    } else {
      LineDelta = H.LineDelta[Op];
      AddrDelta = H.AddrDelta[Op];
    }
    if (!C.ok() || !OK)
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated or malformed line row " + Twine(R));
    if (Row.Address + AddrDelta < Row.Address)
      return makeError("record at " + hexString(RecordOffset) +
                       ": line row address overflows");
    Row.Address += AddrDelta;
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

/// The fields of one inline node before its children.
struct NodeHead {
  uint64_t NumChildren = 0;
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
  if (!Details)
    return Error::success();
  return readDetails(C, Flags, N.Ranges.front().Start, RecordOffset, N.Details);
}

/// A node head as lookups need it: the first range's start (the base of
/// the children's ranges) and the start of the range containing Addr, if
/// any; every range is still validated.
struct NodeKey {
  uint64_t NumChildren = 0;
  uint64_t FirstStart = 0;
  uint64_t HitStart = 0;
  bool Hit = false;
  uint32_t Name = 0;
  uint32_t CallFile = 0;
  uint32_t CallLine = 0;
  NodeDetails Details;
};

Error readKey(Cursor &C, bool Details, uint64_t ParentBase, uint32_t &PrevFile,
              uint32_t &PrevLine, uint64_t RecordOffset, uint64_t Addr,
              NodeKey &N) {
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
  if (!Details)
    return Error::success();
  return readDetails(C, Flags, N.FirstStart, RecordOffset, N.Details);
}

/// A record's head: its name id (above RecordFlagBits) and flags.
Expected<uint64_t> readRecordHead(Cursor &C, uint64_t RecordFileOffset) {
  uint64_t Head = C.uleb();
  if (!C.ok() || Head >> RecordFlagBits > UINT32_MAX)
    return makeError("record at " + hexString(RecordFileOffset) +
                     " is truncated");
  return Head;
}

/// Skips a node and its subtree, none of which the lookup needs: only the
/// structure is read (every byte bounds-checked, as GSYM's reader skips),
/// no value is decoded. Siblings' delta codes refer to the previous
/// sibling, so only whole subtrees below a node can be skipped this way.
Error skipSubtree(Cursor &C, bool Details, unsigned Depth,
                  uint64_t RecordOffset) {
  if (Depth > MaxInlineDepth)
    return makeError("record at " + hexString(RecordOffset) +
                     ": inline tree deeper than " + Twine(MaxInlineDepth));
  uint64_t Flags;
  uint64_t NumChildren = readNodeHead(C, Details, Flags);
  uint64_t NumRanges = (Flags & NodeMultiRange) ? C.uleb() : 1;
  if (LLVM_UNLIKELY(!C.ok() || NumRanges == 0 || NumRanges > (1u << 24)))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  // Two per range, then the name, the call file and the line delta, and
  // with details the call column.
  for (uint64_t I = 0; I < 2 * NumRanges + 3 + (Details ? 1 : 0); ++I)
    C.skipLeb();
  if (Flags & NodeExtra) {
    uint64_t Extra = C.uleb();
    if (Extra & ExtraStartAddress)
      C.skipLeb();
    if (Extra & ExtraCallDiscriminator)
      C.skipLeb();
  }
  if (LLVM_UNLIKELY(!C.ok()))
    return makeError("record at " + hexString(RecordOffset) +
                     ": truncated or malformed inline node");
  // Each child takes bytes: hostile counts end with the record.
  for (uint64_t I = 0; I < NumChildren; ++I)
    if (Error E = skipSubtree(C, Details, Depth + 1, RecordOffset))
      return E;
  return Error::success();
}

/// A node on the path to the looked-up address.
struct Match {
  uint32_t Name;
  uint32_t CallFile;
  uint32_t CallLine;
  uint64_t HitStart;
  NodeDetails Details;
};

/// GSYM's inline lookup: the first sibling whose ranges contain Addr is
/// entered; its subtree is searched the same way.
Error matchNode(Cursor &C, bool Details, uint64_t ParentBase,
                uint32_t &PrevFile, uint32_t &PrevLine, unsigned Depth,
                uint64_t RecordOffset, uint64_t Addr,
                SmallVectorImpl<Match> &Chain, bool &Hit) {
  if (Depth > MaxInlineDepth)
    return makeError("record at " + hexString(RecordOffset) +
                     ": inline tree deeper than " + Twine(MaxInlineDepth));
  NodeKey N;
  if (Error E = readKey(C, Details, ParentBase, PrevFile, PrevLine,
                        RecordOffset, Addr, N))
    return E;
  uint32_t ChildFile = 0, ChildLine = 0;
  const uint64_t ChildBase = N.FirstStart;
  Hit = N.Hit;
  if (!Hit) {
    for (uint64_t I = 0; I < N.NumChildren; ++I)
      if (Error E = skipSubtree(C, Details, Depth + 1, RecordOffset))
        return E;
    return Error::success();
  }
  Chain.push_back({N.Name, N.CallFile, N.CallLine, N.HitStart, N.Details});
  for (uint64_t I = 0; I < N.NumChildren; ++I) {
    bool ChildHit = false;
    if (Error E = matchNode(C, Details, ChildBase, ChildFile, ChildLine,
                            Depth + 1, RecordOffset, Addr, Chain, ChildHit))
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
  if (Error E = R.getName(N.Name, Out.Name, Out.Decl))
    return E;
  if (Out.Decl.File > R.header().NumFiles)
    return makeError("record at " + hexString(RecordOffset) +
                     ": declaration file " + Twine(Out.Decl.File) +
                     " is out of range");
  uint32_t ChildFile = 0, ChildLine = 0;
  for (uint64_t I = 0; I < N.NumChildren; ++I) {
    // Each node takes bytes: a bound on hostile child counts.
    if (C.atEnd())
      return makeError("record at " + hexString(RecordOffset) +
                       ": truncated inline tree");
    Out.Children.emplace_back();
    if (Error E = decodeNode(R, C, N.Ranges.front().Start, ChildFile, ChildLine,
                             Depth + 1, RecordOffset, Out.Children.back()))
      return E;
  }
  return Error::success();
}

} // namespace

bool CompactReader::isCompact(StringRef Contents) {
  return Contents.size() >= 4 && read32le(Contents.data()) == Magic;
}

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
  Hdr.Reserved2 = support::endian::read16le(P + 26);
  Hdr.NumFiles = read32le(P + 28);
  Hdr.NumNames = read32le(P + 32);
  Hdr.NumPaths = read32le(P + 36);
  if (Hdr.Version != Version)
    return makeError("unsupported compact table version " + Twine(Hdr.Version) +
                     " (only version " + Twine(Version) +
                     " is supported): rebuild the table from its input with "
                     "'dwarfpack gsym'");
  if (Hdr.Flags & ~uint8_t(HasDetails))
    return makeError("unknown header flags " + hexString(Hdr.Flags));
  Format.Details = Hdr.Flags & HasDetails;
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
  auto Sec = [&](Section S) { return Data.substr(SecOff[S], SecSize[S]); };

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

  Expected<token::TokenTable> NT =
      token::TokenTable::create(Sec(SecNameTokens));
  if (!NT)
    return joinErrors(makeError("name token table:"), NT.takeError());
  NameTokens = *NT;
  Expected<token::TokenTable> PT =
      token::TokenTable::create(Sec(SecPathTokens));
  if (!PT)
    return joinErrors(makeError("path token table:"), PT.takeError());
  PathTokens = *PT;
  Names = Sec(SecNames);
  if (Error E = checkList(Sec(SecPaths), Hdr.NumPaths, "path", Paths))
    return E;
  if (Error E = checkList(Sec(SecFiles), Hdr.NumFiles, "file", Files))
    return E;
  if (SecSize[SecSegments] % SegmentEntrySize)
    return makeError("segments section of " + Twine(SecSize[SecSegments]) +
                     " bytes is not a whole number of " +
                     Twine(SegmentEntrySize) + "-byte entries");
  for (uint32_t Off = 0; Off < SecSize[SecSegments]; Off += SegmentEntrySize) {
    const uint8_t *E = bytes(Data) + SecOff[SecSegments] + Off;
    Segments.push_back({read64le(E), read64le(E + 8), read64le(E + 16)});
  }
  if (Error E = checkLoadSegments(Segments))
    return E;
  Expected<ColumnCode> Code = ColumnCode::parse(Sec(SecColumnCode));
  if (!Code)
    return Code.takeError();
  Columns = std::move(*Code);
  if (!Columns.empty() && !Format.Details)
    return makeError("a column code in a table without details");
  Format.Columns = Columns.empty() ? nullptr : &Columns;
  expandPathsAndFiles();
  locateNameTokens();
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
      Expected<uint64_t> Head =
          readRecordHead(C, SecOff[SecRecords] + L.RecordOffset);
      if (!Head)
        return Head.takeError();
      if (Error E = getName(uint32_t(*Head >> RecordFlagBits), Name))
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

Error CompactReader::getName(uint32_t Offset, std::string &Out) const {
  if (Offset >= Names.size())
    return makeError("name offset " + hexString(Offset) +
                     " is outside the name list (" + hexString(Names.size()) +
                     " bytes)");
  return decodeEntry(NameTokens, bytes(Names) + Offset,
                     bytes(Names) + Names.size(), "name", Out);
}

Error CompactReader::getName(uint32_t Offset, std::string &Out,
                             Declaration &Decl) const {
  Decl = Declaration();
  if (!Format.Details)
    return getName(Offset, Out);
  if (Offset >= Names.size())
    return makeError("name offset " + hexString(Offset) +
                     " is outside the name list (" + hexString(Names.size()) +
                     " bytes)");
  Out.clear();
  const uint8_t *End = bytes(Names) + Names.size();
  const uint8_t *DeclAt;
  if (Error E = appendEntry(NameTokens, bytes(Names) + Offset, End, "name", Out,
                            &DeclAt))
    return E;
  Cursor C(DeclAt, End);
  Decl.File = C.u32leb();
  Decl.Line = C.u32leb();
  if (!C.ok())
    return makeError("name entry at " + hexString(Offset) +
                     ": truncated declaration");
  return Error::success();
}

Error CompactReader::setDeclaration(const Declaration &Decl,
                                    SourceFrame &Frame) const {
  if (Decl.File > Hdr.NumFiles)
    return makeError("declaration file index " + Twine(Decl.File) +
                     " is out of range (" + Twine(Hdr.NumFiles) + " files)");
  Frame.StartLine = Decl.Line;
  return getFilePath(Decl.File, Frame.StartFileName);
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
}

Error CompactReader::getFilePath(uint32_t Id, std::string &Out) const {
  Out.clear();
  if (Id == 0)
    return Error::success();
  if (Id <= FileParts.size()) {
    // Both parts were expanded at open; only the join is left.
    auto [Dir, Base] = FileParts[Id - 1];
    StringRef D = cachedPath(Dir), B = cachedPath(Base);
    if (!D.empty() && !B.empty() && D.back() != '/' && B[0] != '/' &&
        D.find('\\') == StringRef::npos) {
      Out.reserve(D.size() + 1 + B.size());
      Out.append(D.data(), D.size());
      Out.push_back('/');
      Out.append(B.data(), B.size());
      return Error::success();
    }
    Out = gsym::joinPath(D, B);
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

Expected<bool> CompactReader::findFunction(uint64_t Address,
                                           FunctionLocation &Loc) const {
  if (Hdr.NumBlocks == 0 || Address < Hdr.BaseAddress)
    return false;
  const uint64_t Off = Address - Hdr.BaseAddress;
  const uint8_t *Index = bytes(Data) + SecOff[SecBlockIndex];
  // The last block whose first start is <= Off.
  uint32_t Lo = 0, Count = Hdr.NumBlocks;
  while (Count > 0) {
    uint32_t Step = Count / 2;
    uint32_t Mid = Lo + Step;
    if (read64le(Index + uint64_t(Mid) * BlockIndexEntrySize) <= Off) {
      Lo = Mid + 1;
      Count -= Step + 1;
    } else {
      Count = Step;
    }
  }
  if (Lo == 0)
    return false;
  const uint32_t Block = Lo - 1;
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

Expected<LookupResult> CompactReader::lookup(uint64_t Address) const {
  LookupResult Result;
  Result.Address = Address;
  FunctionLocation Loc;
  Expected<bool> Found = findFunction(Address, Loc);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return Result;
  const uint8_t *Rec = bytes(Data) + SecOff[SecRecords];
  Cursor C(Rec + Loc.RecordOffset, Rec + Loc.RecordEnd);
  const uint64_t RecordFileOffset = SecOff[SecRecords] + Loc.RecordOffset;
  Expected<uint64_t> HeadOr = readRecordHead(C, RecordFileOffset);
  if (!HeadOr)
    return HeadOr.takeError();
  uint64_t Head = *HeadOr;
  const uint32_t NameId = uint32_t(Head >> RecordFlagBits);
  // Names and files are decoded last; prefetching their list entries while
  // the rows and the inline tree are decoded hides most of the cache misses.
  __builtin_prefetch(Names.data() + std::min<uint64_t>(NameId, Names.size()));

  SourceFrame Frame;
  Frame.StartAddress = Loc.Start;
  Declaration FunctionDecl;
  if (!(Head & HasLines)) {
    // Without a line table GSYM ignores inline info as well.
    if (Error E = getName(NameId, Frame.FunctionName, FunctionDecl))
      return std::move(E);
    if (Error E = setDeclaration(FunctionDecl, Frame))
      return std::move(E);
    Result.Frames.push_back(std::move(Frame));
    return Result;
  }
  std::optional<LineEntry> Row;
  LineEntry FirstRow;
  bool IsFirst = true;
  const bool HasInline = Head & (HasInlineChildren | HasInlineRoot);
  if (Error E = parseLines(C, Format, Loc.Start, RecordFileOffset, HasInline,
                           [&](const LineEntry &R) {
                             if (IsFirst) {
                               FirstRow = R;
                               IsFirst = false;
                             }
                             if (R.Address > Address)
                               return false;
                             Row = R;
                             return true;
                           }))
    return std::move(E);
  // As GSYM: no row at or before the address, or a row without a file, is
  // an error for the whole lookup.
  if (!Row || Row->File == 0)
    return makeError("address " + hexString(Address) +
                     " is not in the line table of the function at " +
                     hexString(Loc.Start));
  if (Row->File > Hdr.NumFiles)
    return makeError("line table file index " + Twine(Row->File) +
                     " is out of range (" + Twine(Hdr.NumFiles) + " files)");
  const bool LazyFiles = FileParts.empty() && Hdr.NumFiles != 0;
  if (LazyFiles)
    prefetch(Files, Hdr.NumFiles, Row->File - 1, false);
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
                              1, RecordFileOffset, Address, Chain, Hit))
        return std::move(E);
      if (Hit)
        break;
    }
  } else if (Head & HasInlineRoot) {
    uint32_t PrevFile = 0, PrevLine = 0;
    bool Hit = false;
    if (Error E = matchNode(C, Format.Details, Loc.Start, PrevFile, PrevLine, 0,
                            RecordFileOffset, Address, Chain, Hit))
      return std::move(E);
  }
  for (const Match &M : Chain)
    if (M.CallFile != 0) {
      __builtin_prefetch(Names.data() +
                         std::min<uint64_t>(M.Name, Names.size()));
      if (LazyFiles)
        prefetch(Files, Hdr.NumFiles, M.CallFile - 1, false);
    }
  if (LazyFiles) {
    prefetch(Files, Hdr.NumFiles, Row->File - 1, true);
    for (const Match &M : Chain)
      if (M.CallFile != 0)
        prefetch(Files, Hdr.NumFiles, M.CallFile - 1, true);
  }

  if (Error E = getName(NameId, Frame.FunctionName, FunctionDecl))
    return std::move(E);
  if (Error E = setDeclaration(FunctionDecl, Frame))
    return std::move(E);
  if (Error E = getFilePath(Row->File, Frame.FileName))
    return std::move(E);
  Frame.Line = Row->Line;
  Frame.Column = Row->Column;
  Frame.Discriminator = Row->Discriminator;
  Result.Frames.reserve(Chain.size() + 1);
  Result.Frames.push_back(std::move(Frame));
  // Files already expanded in this lookup, by the frame that holds them.
  SmallVector<std::pair<uint32_t, size_t>, 8> Known;
  Known.emplace_back(Row->File, 0);
  // Innermost first: each matched call renames the current innermost frame
  // and pushes its caller at the call site.
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    if (It->CallFile > Hdr.NumFiles)
      return makeError("inline call file index " + Twine(It->CallFile) +
                       " is out of range (" + Twine(Hdr.NumFiles) + " files)");
    if (It->CallFile == 0)
      continue;
    SourceFrame &Callee = Result.Frames.back();
    SourceFrame Caller;
    Caller.FunctionName = std::move(Callee.FunctionName);
    Caller.StartFileName = std::move(Callee.StartFileName);
    Caller.StartLine = Callee.StartLine;
    Caller.StartAddress = Callee.StartAddress;
    Caller.HasStartAddress = Callee.HasStartAddress;
    // Inlined frames often share files: decode each file once per lookup.
    std::optional<size_t> Have;
    for (const auto &[Id, FrameIndex] : Known)
      if (Id == It->CallFile)
        Have = FrameIndex;
    if (Have) {
      Caller.FileName = Result.Frames[*Have].FileName;
    } else {
      if (Error E = getFilePath(It->CallFile, Caller.FileName))
        return std::move(E);
      Known.emplace_back(It->CallFile, Result.Frames.size());
    }
    Caller.Line = It->CallLine;
    Caller.Column = It->Details.CallColumn;
    Caller.Discriminator = It->Details.CallDiscriminator;
    Declaration Decl;
    if (Error E = getName(It->Name, Callee.FunctionName, Decl))
      return std::move(E);
    if (Error E = setDeclaration(Decl, Callee))
      return std::move(E);
    // Without details the start is the range's, as GSYM gives it; with
    // them, what llvm-symbolizer prints: the call's DW_AT_low_pc or none.
    Callee.StartAddress = It->HitStart;
    if (Format.Details) {
      Callee.HasStartAddress = It->Details.StartAddress.has_value();
      if (It->Details.StartAddress)
        Callee.StartAddress = *It->Details.StartAddress;
    }
    Result.Frames.push_back(std::move(Caller));
  }
  return Result;
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
  Expected<uint64_t> HeadOr = readRecordHead(C, RecordFileOffset);
  if (!HeadOr)
    return HeadOr.takeError();
  uint64_t Head = *HeadOr;
  if (Error E = getName(uint32_t(Head >> RecordFlagBits), D.Name, D.Decl))
    return std::move(E);
  if (D.Decl.File > Hdr.NumFiles)
    return makeError("record at " + hexString(RecordFileOffset) +
                     ": declaration file " + Twine(D.Decl.File) +
                     " is out of range");
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
  if (Head & HasInlineChildren) {
    DecodedInline Root;
    Root.Ranges.push_back({Loc.Start, Loc.Start + Loc.Size});
    Root.Name = D.Name;
    Root.Decl = D.Decl;
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
      if (Error E = decodeNode(*this, C, Loc.Start, PrevFile, PrevLine, 1,
                               RecordFileOffset, Root.Children.back()))
        return std::move(E);
    }
    D.Inline = std::move(Root);
  } else if (Head & HasInlineRoot) {
    DecodedInline Root;
    uint32_t PrevFile = 0, PrevLine = 0;
    if (Error E = decodeNode(*this, C, Loc.Start, PrevFile, PrevLine, 0,
                             RecordFileOffset, Root))
      return std::move(E);
    D.Inline = std::move(Root);
  }
  D.InlineBytes = C.pos() - InlineAt;
  if (!C.atEnd())
    return makeError("record at " + hexString(RecordFileOffset) + " has " +
                     Twine(uint64_t(Loc.RecordEnd - (C.pos() - Rec))) +
                     " trailing bytes");
  return D;
}

} // namespace compact
} // namespace dwarfpack
