//===- GsymReader.cpp - Zero-copy reader of GSYM V1 files -----------------===//
//
// Layout and lookup rules: docs/GSYM.md. Every read goes through bounds
// checks; integer fields are loaded in the file's byte order where they lie.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace llvm;

namespace dwarfpack {
namespace gsym {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string joinPath(StringRef Dir, StringRef Base) {
  if (Dir.empty())
    return Base.str();
  if (Base.empty())
    return Dir.str();
  // LLVM joins with sys::path::append in the native style; a Windows-only
  // directory keeps its backslashes.
  if (Dir.contains('\\') && !Dir.contains('/')) {
    SmallString<128> Path(Dir);
    sys::path::append(Path, sys::path::Style::windows_backslash, Base);
    return std::string(Path);
  }
  // What sys::path::append does for POSIX paths, without its overhead (this
  // runs for every frame of every lookup): after a directory that ends with
  // a separator, the base's leading separators are dropped; otherwise one
  // is added unless the base starts with one.
  bool DirSep = Dir.ends_with("/");
  if (DirSep)
    Base = Base.drop_while([](char C) { return C == '/'; });
  std::string Path;
  Path.reserve(Dir.size() + 1 + Base.size());
  Path.append(Dir.data(), Dir.size());
  if (!DirSep && !Base.starts_with("/"))
    Path.push_back('/');
  Path.append(Base.data(), Base.size());
  return Path;
}

bool GsymReader::isGsym(StringRef Contents) {
  if (Contents.size() < 4)
    return false;
  uint32_t M = support::endian::read32le(Contents.data());
  return M == Magic || M == SwappedMagic;
}

Expected<std::unique_ptr<GsymReader>>
GsymReader::create(std::unique_ptr<MemoryBuffer> Buffer) {
  std::unique_ptr<GsymReader> R(new GsymReader());
  R->Data = Buffer->getBuffer();
  R->Owned = std::move(Buffer);
  if (Error E = R->parse())
    return E;
  return R;
}

Expected<std::unique_ptr<GsymReader>>
GsymReader::create(MemoryBufferRef Buffer) {
  std::unique_ptr<GsymReader> R(new GsymReader());
  R->Data = Buffer.getBuffer();
  if (Error E = R->parse())
    return E;
  return R;
}

uint64_t GsymReader::readUInt(uint64_t Offset, unsigned Size) const {
  const char *P = Data.data() + Offset;
  auto E = LittleEndian ? endianness::little : endianness::big;
  switch (Size) {
  case 1:
    return static_cast<uint8_t>(*P);
  case 2:
    return support::endian::read<uint16_t>(P, E);
  case 4:
    return support::endian::read<uint32_t>(P, E);
  default:
    return support::endian::read<uint64_t>(P, E);
  }
}

Error GsymReader::parse() {
  if (Error E = readHeader())
    return E;
  if (Error E = checkHeader())
    return E;
  if (Error E = locateTables())
    return E;
  if (Error E = readStringTable())
    return E;
  return checkTables();
}

Error GsymReader::readHeader() {
  if (Data.size() < HeaderSize)
    return makeError("file too small for a GSYM header (" + Twine(Data.size()) +
                     " bytes, need " + Twine(HeaderSize) + ")");
  uint32_t M = support::endian::read32le(Data.data());
  if (M == Magic)
    LittleEndian = true;
  else if (M == SwappedMagic)
    LittleEndian = false;
  else
    return makeError("not a GSYM file: bad magic " + hexString(M));

  Hdr.Magic = Magic;
  Hdr.Version = readUInt(4, 2);
  Hdr.AddrOffSize = readUInt(6, 1);
  Hdr.UUIDSize = readUInt(7, 1);
  Hdr.BaseAddress = readUInt(8, 8);
  Hdr.NumAddresses = readUInt(16, 4);
  Hdr.StrtabOffset = readUInt(20, 4);
  Hdr.StrtabSize = readUInt(24, 4);
  std::memcpy(Hdr.UUID, Data.data() + 28, MaxUUIDSize);
  return Error::success();
}

Error GsymReader::checkHeader() const {
  if (Hdr.Version != Version)
    return makeError("unsupported GSYM version " + Twine(Hdr.Version) +
                     " (only version 1 is supported)");
  if (Hdr.AddrOffSize != 1 && Hdr.AddrOffSize != 2 && Hdr.AddrOffSize != 4 &&
      Hdr.AddrOffSize != 8)
    return makeError("invalid address offset size " +
                     Twine(unsigned(Hdr.AddrOffSize)) +
                     " (must be 1, 2, 4 or 8)");
  if (Hdr.UUIDSize > MaxUUIDSize)
    return makeError("invalid UUID size " + Twine(unsigned(Hdr.UUIDSize)) +
                     " (at most 20)");
  return Error::success();
}

Error GsymReader::locateTables() {
  const uint64_t Size = Data.size();
  const uint64_t N = Hdr.NumAddresses;
  AddrOffsetsOff = alignTo(HeaderSize, Hdr.AddrOffSize);
  uint64_t End = AddrOffsetsOff + N * Hdr.AddrOffSize;
  if (End > Size)
    return makeError("address table of " + Twine(N) + " entries at " +
                     hexString(AddrOffsetsOff) +
                     " extends past the end of the file");
  AddrInfoOffsetsOff = alignTo(End, 4);
  End = AddrInfoOffsetsOff + N * 4;
  if (End > Size)
    return makeError("address info offset table at " +
                     hexString(AddrInfoOffsetsOff) +
                     " extends past the end of the file");
  FileTableOff = End;
  if (FileTableOff + 4 > Size)
    return makeError("file table at " + hexString(FileTableOff) +
                     " extends past the end of the file");
  NumFiles = readUInt(FileTableOff, 4);
  if (FileTableOff + 4 + uint64_t(NumFiles) * 8 > Size)
    return makeError("file table of " + Twine(NumFiles) + " entries at " +
                     hexString(FileTableOff) +
                     " extends past the end of the file");
  return Error::success();
}

Error GsymReader::readStringTable() {
  if (uint64_t(Hdr.StrtabOffset) + Hdr.StrtabSize > Data.size())
    return makeError("string table [" + hexString(Hdr.StrtabOffset) + ", " +
                     hexString(uint64_t(Hdr.StrtabOffset) + Hdr.StrtabSize) +
                     ") extends past the end of the file");
  Strtab = Data.substr(Hdr.StrtabOffset, Hdr.StrtabSize);
  // With a NUL as last byte, every in-range offset names a terminated string;
  // lookups then only need a range check.
  if (Strtab.empty() || Strtab.back() != '\0')
    return makeError("string table is empty or not NUL-terminated");
  return Error::success();
}

Error GsymReader::checkTables() const {
  // Cheap, linear checks that make every later access a plain range check:
  // sorted address offsets, FunctionInfo offsets inside the file and aligned,
  // file entries naming strings.
  const uint64_t Size = Data.size();
  const uint64_t N = Hdr.NumAddresses;
  uint64_t Prev = 0;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t Off = getAddressOffset(I);
    if (I && Off < Prev)
      return makeError("address table is not sorted at index " + Twine(I));
    Prev = Off;
    uint64_t InfoOff = getFunctionInfoOffset(I);
    if (InfoOff % 4 != 0)
      return makeError("FunctionInfo offset " + hexString(InfoOff) +
                       " of entry " + Twine(I) + " is not 4-byte aligned");
    if (InfoOff < HeaderSize || InfoOff + 8 > Size)
      return makeError("FunctionInfo offset " + hexString(InfoOff) +
                       " of entry " + Twine(I) + " is outside the file");
  }
  for (uint32_t I = 0; I < NumFiles; ++I) {
    auto [DirOff, BaseOff] = getFileStringOffsets(I);
    if (DirOff >= Strtab.size() || BaseOff >= Strtab.size())
      return makeError("file entry " + Twine(I) +
                       " has a string offset outside the string table");
  }
  return Error::success();
}

uint64_t GsymReader::getAddressOffset(uint32_t Index) const {
  return readUInt(AddrOffsetsOff + uint64_t(Index) * Hdr.AddrOffSize,
                  Hdr.AddrOffSize);
}

uint64_t GsymReader::getAddress(uint32_t Index) const {
  return Hdr.BaseAddress + getAddressOffset(Index);
}

uint32_t GsymReader::getFunctionInfoOffset(uint32_t Index) const {
  return readUInt(AddrInfoOffsetsOff + uint64_t(Index) * 4, 4);
}

std::pair<uint32_t, uint32_t>
GsymReader::getFileStringOffsets(uint32_t Index) const {
  uint64_t Off = FileTableOff + 4 + uint64_t(Index) * 8;
  return {uint32_t(readUInt(Off, 4)), uint32_t(readUInt(Off + 4, 4))};
}

Expected<StringRef> GsymReader::getString(uint64_t Offset) const {
  if (Offset >= Strtab.size())
    return makeError("string offset " + hexString(Offset) +
                     " is outside the string table (size " +
                     hexString(Strtab.size()) + ")");
  const char *P = Strtab.data() + Offset;
  return StringRef(P, std::strlen(P)); // terminated: checked at open
}

std::optional<FileEntry> GsymReader::getFile(uint32_t Index) const {
  if (Index >= NumFiles)
    return std::nullopt;
  auto [DirOff, BaseOff] = getFileStringOffsets(Index);
  FileEntry F;
  F.Dir = StringRef(Strtab.data() + DirOff);
  F.Base = StringRef(Strtab.data() + BaseOff);
  return F;
}

std::string GsymReader::getFilePath(uint32_t Index) const {
  std::optional<FileEntry> F = getFile(Index);
  if (!F)
    return std::string();
  return joinPath(F->Dir, F->Base);
}

Expected<std::optional<uint32_t>>
GsymReader::findFunctionIndex(uint64_t Address) const {
  const uint32_t N = Hdr.NumAddresses;
  if (N == 0 || Address < Hdr.BaseAddress)
    return std::nullopt;
  const uint64_t Off = Address - Hdr.BaseAddress;
  // lower_bound over the offset table.
  uint32_t Lo = 0, Count = N;
  while (Count > 0) {
    uint32_t Step = Count / 2;
    uint32_t Mid = Lo + Step;
    if (getAddressOffset(Mid) < Off) {
      Lo = Mid + 1;
      Count -= Step + 1;
    } else {
      Count = Step;
    }
  }
  uint32_t Idx = Lo;
  if (Idx == 0 && Off < getAddressOffset(0))
    return std::nullopt;
  if (Idx == N || Off < getAddressOffset(Idx))
    --Idx;
  // Entries sharing a start are sorted richest first: back up to the first.
  const uint64_t Start = getAddressOffset(Idx);
  while (Idx > 0 && getAddressOffset(Idx - 1) == Start)
    --Idx;
  for (uint32_t I = Idx; I < N && getAddressOffset(I) == Start; ++I) {
    uint32_t FuncSize = readUInt(getFunctionInfoOffset(I), 4);
    // A zero-size entry (symbol without size) covers everything up to the
    // next start, as in LLVM.
    if (FuncSize == 0 || Off - Start < FuncSize)
      return I;
  }
  return std::nullopt;
}

namespace {

/// Bounded decoding of one InfoType payload. Every accessor fails cleanly on
/// truncated or overlong data (DataExtractor::Cursor keeps the first error).
class Payload {
public:
  Payload(StringRef Bytes, bool LE, uint64_t FileOffset)
      : Begin(reinterpret_cast<const uint8_t *>(Bytes.data())), Pos(Begin),
        End(Begin + Bytes.size()), LE(LE), FileOffset(FileOffset) {}

  bool ok() const { return !Failed; }
  bool atEnd() const { return Pos >= End; }
  uint64_t offset() const { return FileOffset + (Pos - Begin); }

  uint8_t u8() {
    if (Failed || Pos >= End)
      return fail<uint8_t>();
    return *Pos++;
  }
  uint32_t u32() {
    if (Failed || End - Pos < 4)
      return fail<uint32_t>();
    uint32_t V =
        LE ? support::endian::read32le(Pos) : support::endian::read32be(Pos);
    Pos += 4;
    return V;
  }
  /// LEB128 as LLVM decodes it: an error when the bytes end before the last
  /// one or the value does not fit in 64 bits. Nothing is consumed on error.
  uint64_t uleb() {
    if (Failed)
      return 0;
    uint64_t V = 0;
    unsigned Shift = 0;
    for (const uint8_t *P = Pos; P < End; ++P) {
      uint64_t Slice = *P & 0x7f;
      // Padding past 64 bits is allowed when it adds nothing (as in LLVM).
      if ((Shift >= 64 && Slice != 0) || (Shift == 63 && Slice > 1))
        return fail<uint64_t>();
      if (Shift < 64)
        V |= Slice << Shift;
      Shift += 7;
      if (!(*P & 0x80)) {
        Pos = P + 1;
        return V;
      }
    }
    return fail<uint64_t>();
  }
  int64_t sleb() {
    if (Failed)
      return 0;
    int64_t V = 0;
    unsigned Shift = 0;
    for (const uint8_t *P = Pos; P < End; ++P) {
      uint8_t Byte = *P;
      uint64_t Slice = Byte & 0x7f;
      // Bits that do not fit must be a sign extension of the value.
      if ((Shift >= 64 && Slice != (V < 0 ? 0x7f : 0)) ||
          (Shift == 63 && Slice != 0 && Slice != 0x7f))
        return fail<int64_t>();
      if (Shift < 64)
        V |= Slice << Shift;
      Shift += 7;
      if (!(Byte & 0x80)) {
        if (Shift < 64 && (Byte & 0x40))
          V |= ~uint64_t(0) << Shift;
        Pos = P + 1;
        return V;
      }
    }
    return fail<int64_t>();
  }

  /// The first decoding error, with the file offset where it happened.
  Error takeError(StringRef What) {
    return makeError(What + " at " + hexString(FileOffset + (Pos - Begin)) +
                     " (data ends or an integer is malformed)");
  }

private:
  template <typename T> T fail() {
    Failed = true;
    return T();
  }

  const uint8_t *Begin, *Pos, *End;
  bool LE;
  uint64_t FileOffset;
  bool Failed = false;
};

} // namespace

/// Walks a line table, calling Fn(Row) for every pushed row until Fn returns
/// false. Mirrors LLVM's LineTable::parse; the loop consumes at least one
/// byte per opcode, so it ends with the payload.
template <typename Fn>
static Error parseLineTable(Payload &P, uint64_t FuncStart, Fn &&Callback) {
  int64_t MinDelta = P.sleb();
  int64_t MaxDelta = P.sleb();
  uint64_t FirstLine = P.uleb();
  if (!P.ok())
    return P.takeError("truncated line table prologue");
  if (MaxDelta < MinDelta)
    return makeError("line table at " + hexString(P.offset()) +
                     " has MaxDelta " + Twine(MaxDelta) + " < MinDelta " +
                     Twine(MinDelta));
  // Opcodes are bytes, so a range beyond 256 decodes like 256; clamping
  // avoids overflow on hostile values.
  int64_t Range;
  if (MaxDelta - uint64_t(MinDelta) >= 256)
    Range = 257;
  else
    Range = MaxDelta - MinDelta + 1;
  LineEntry Row;
  Row.Address = FuncStart;
  Row.File = 1;
  Row.Line = uint32_t(FirstLine);
  while (true) {
    if (P.atEnd())
      return makeError("line table at " + hexString(P.offset()) +
                       " ends before EndSequence");
    uint8_t Op = P.u8();
    switch (Op) {
    case EndSequence:
      return Error::success();
    case SetFile:
      Row.File = uint32_t(P.uleb());
      break;
    case AdvancePC:
      Row.Address += P.uleb();
      if (!P.ok())
        break;
      if (!Callback(Row))
        return Error::success();
      break;
    case AdvanceLine:
      Row.Line += uint32_t(P.sleb());
      break;
    default: {
      uint8_t Adjusted = Op - FirstSpecial;
      // Wrapping arithmetic: hostile deltas must not overflow signed math.
      Row.Line += uint32_t(uint64_t(MinDelta) + uint64_t(Adjusted % Range));
      Row.Address += uint64_t(Adjusted) / Range;
      if (!Callback(Row))
        return Error::success();
      break;
    }
    }
    if (!P.ok())
      return P.takeError("truncated line table opcode");
  }
}

/// Reads an inline node's ranges relative to Base. Zero-size ranges are
/// dropped, as LLVM's AddressRanges does; a node left without ranges ends a
/// sibling list.
template <typename RangeVector>
static void readRanges(Payload &P, uint64_t Base, RangeVector &Ranges) {
  uint64_t NumRanges = P.uleb();
  for (uint64_t I = 0; I < NumRanges && P.ok(); ++I) {
    uint64_t Start = Base + P.uleb();
    uint64_t Size = P.uleb();
    if (P.ok() && Size != 0)
      Ranges.push_back({Start, Start + Size});
  }
}

static uint64_t minStart(ArrayRef<AddressRange> Ranges) {
  uint64_t M = Ranges.front().Start;
  for (const AddressRange &R : Ranges)
    M = std::min(M, R.Start);
  return M;
}

static Error skipNodeBody(Payload &P, unsigned Depth);

/// Skips one node and its subtree; false when it was a terminator. A node
/// whose ranges are all empty counts as a terminator, as in decoding. (LLVM's
/// skip counts ranges instead, so its lookup and decode disagree on such
/// nodes; we use one rule everywhere. LLVM's writer never emits them.)
static Error skipInline(Payload &P, unsigned Depth, bool &WasNode) {
  if (Depth > MaxInlineDepth)
    return makeError("inline tree at " + hexString(P.offset()) +
                     " is deeper than " + Twine(MaxInlineDepth));
  uint64_t NumRanges = P.uleb();
  bool NonEmpty = false;
  for (uint64_t I = 0; I < NumRanges && P.ok(); ++I) {
    P.uleb();
    NonEmpty |= P.uleb() != 0;
  }
  if (!P.ok())
    return P.takeError("truncated inline info");
  WasNode = NonEmpty;
  if (!WasNode)
    return Error::success();
  return skipNodeBody(P, Depth);
}

/// Skips what follows a node's ranges: its call site and its subtree.
static Error skipNodeBody(Payload &P, unsigned Depth) {
  bool HasChildren = P.u8() != 0;
  P.u32();
  P.uleb();
  P.uleb();
  if (!P.ok())
    return P.takeError("truncated inline info");
  if (HasChildren) {
    bool Child = true;
    while (Child)
      if (Error E = skipInline(P, Depth + 1, Child))
        return E;
  }
  return Error::success();
}

namespace {
struct InlineLookup {
  const GsymReader &R;
  uint64_t Addr;
  std::vector<SourceFrame> &Frames;
};
} // namespace

/// One node of LLVM's InlineInfo lookup. Done is set when the node either
/// contained Addr (and was processed) or terminated its sibling list.
static Error lookupInline(InlineLookup &L, Payload &P, uint64_t Base,
                          unsigned Depth, bool &Done) {
  if (Depth > MaxInlineDepth)
    return makeError("inline tree at " + hexString(P.offset()) +
                     " is deeper than " + Twine(MaxInlineDepth));
  SmallVector<AddressRange, 2> Ranges;
  readRanges(P, Base, Ranges);
  if (!P.ok())
    return P.takeError("truncated inline info");
  if (Ranges.empty()) {
    Done = true;
    return Error::success();
  }
  const AddressRange *Hit = nullptr;
  for (const AddressRange &Rg : Ranges)
    if (Rg.contains(L.Addr)) {
      Hit = &Rg;
      break;
    }
  if (!Hit) {
    Done = false;
    // The ranges are already consumed: skip the rest of this node.
    return skipNodeBody(P, Depth);
  }
  Done = true;
  bool HasChildren = P.u8() != 0;
  uint32_t NameOff = P.u32();
  uint32_t CallFile = uint32_t(P.uleb());
  uint32_t CallLine = uint32_t(P.uleb());
  if (!P.ok())
    return P.takeError("truncated inline info");
  if (HasChildren) {
    const uint64_t ChildBase = minStart(Ranges);
    bool ChildDone = false;
    while (!ChildDone)
      if (Error E = lookupInline(L, P, ChildBase, Depth + 1, ChildDone))
        return E;
  }
  std::optional<FileEntry> File = L.R.getFile(CallFile);
  if (!File)
    return makeError("inline call file index " + Twine(CallFile) +
                     " is out of range (" + Twine(L.R.getNumFiles()) +
                     " files)");
  if (File->Dir.empty() && File->Base.empty())
    return Error::success(); // the concrete function itself
  Expected<StringRef> Name = L.R.getString(NameOff);
  if (!Name)
    return Name.takeError();
  // The current innermost-so-far frame becomes the inlined function; its
  // caller continues at the call site.
  SourceFrame Caller;
  Caller.FunctionName = L.Frames.back().FunctionName;
  Caller.StartAddress = L.Frames.back().StartAddress;
  Caller.FileName = joinPath(File->Dir, File->Base);
  Caller.Line = CallLine;
  L.Frames.back().FunctionName = Name->str();
  L.Frames.back().StartAddress = Hit->Start;
  L.Frames.push_back(std::move(Caller));
  return Error::success();
}

/// Iterates over the InfoType records of the FunctionInfo at Off, calling
/// Fn(Type, Payload bytes, payload file offset). Returns the function size
/// and name offset through the out parameters.
template <typename Fn>
static Error forEachInfo(StringRef Data, bool LE, uint64_t Off,
                         uint32_t &FuncSize, uint32_t &NameOff, Fn &&F) {
  auto Read32 = [&](uint64_t O) {
    return support::endian::read<uint32_t>(
        Data.data() + O, LE ? endianness::little : endianness::big);
  };
  if (Off + 8 > Data.size())
    return makeError("FunctionInfo at " + hexString(Off) + " is truncated");
  FuncSize = Read32(Off);
  NameOff = Read32(Off + 4);
  Off += 8;
  // Each record consumes at least 8 bytes, so the loop ends with the file.
  while (true) {
    if (Off + 8 > Data.size())
      return makeError("FunctionInfo record at " + hexString(Off) +
                       " is truncated (missing EndOfList)");
    uint32_t Type = Read32(Off);
    uint32_t Length = Read32(Off + 4);
    Off += 8;
    if (Type == EndOfList)
      return Error::success();
    if (Length > Data.size() - Off)
      return makeError("FunctionInfo record of type " + Twine(Type) + " at " +
                       hexString(Off - 8) + " has length " + Twine(Length) +
                       " past the end of the file");
    if (Error E = F(Type, Data.substr(Off, Length), Off))
      return E;
    Off += Length;
  }
}

Expected<StringRef> GsymReader::functionName(uint64_t InfoOff,
                                             uint32_t NameOff) const {
  if (NameOff == 0)
    return makeError("FunctionInfo at " + hexString(InfoOff) +
                     " has name offset 0");
  return getString(NameOff);
}

Error GsymReader::forEachFunction(
    function_ref<void(uint64_t, StringRef)> Fn) const {
  for (uint32_t I = 0, N = Hdr.NumAddresses; I < N; ++I) {
    // Of entries sharing a start, the first answers at that address.
    if (I && getAddressOffset(I - 1) == getAddressOffset(I))
      continue;
    // Offsets were checked at open: the name offset is inside the file.
    uint64_t InfoOff = getFunctionInfoOffset(I);
    Expected<StringRef> Name =
        functionName(InfoOff, uint32_t(readUInt(InfoOff + 4, 4)));
    if (!Name)
      return Name.takeError();
    Fn(getAddress(I), *Name);
  }
  return Error::success();
}

Expected<LookupResult> GsymReader::lookup(uint64_t Address) const {
  LookupResult Result;
  Result.Address = Address;
  Expected<std::optional<uint32_t>> Index = findFunctionIndex(Address);
  if (!Index)
    return Index.takeError();
  if (!*Index)
    return Result;
  const uint64_t FuncStart = getAddress(**Index);
  const uint64_t InfoOff = getFunctionInfoOffset(**Index);

  uint32_t FuncSize = 0, NameOff = 0;
  std::optional<LineEntry> Row;
  std::optional<std::pair<StringRef, uint64_t>> InlineBytes;
  Error E = forEachInfo(
      Data, LittleEndian, InfoOff, FuncSize, NameOff,
      [&](uint32_t Type, StringRef Bytes, uint64_t BytesOff) -> Error {
        if (Type == LineTableInfo) {
          Payload P(Bytes, LittleEndian, BytesOff);
          std::optional<LineEntry> Found;
          if (Error E = parseLineTable(P, FuncStart, [&](const LineEntry &R) {
                if (Address < R.Address)
                  return false;
                Found = R;
                return true;
              }))
            return E;
          // LLVM treats a row with file 0 like no row at all.
          if (!Found || Found->File == 0)
            return makeError("address " + hexString(Address) +
                             " is not in the line table of the function at " +
                             hexString(FuncStart));
          Row = Found;
        } else if (Type == InlineInfo) {
          InlineBytes = {Bytes, BytesOff};
        }
        // Unknown types (merged functions, call sites, future ones) are
        // skipped as LLVM's lookup does.
        return Error::success();
      });
  if (E)
    return E;
  Expected<StringRef> Name = functionName(InfoOff, NameOff);
  if (!Name)
    return Name.takeError();

  SourceFrame Frame;
  Frame.FunctionName = Name->str();
  Frame.StartAddress = FuncStart;
  if (!Row) {
    Result.Frames.push_back(std::move(Frame));
    return Result;
  }
  std::optional<FileEntry> File = getFile(Row->File);
  if (!File)
    return makeError("line table file index " + Twine(Row->File) +
                     " is out of range (" + Twine(NumFiles) + " files)");
  Frame.FileName = joinPath(File->Dir, File->Base);
  Frame.Line = Row->Line;
  Result.Frames.push_back(std::move(Frame));
  if (InlineBytes) {
    Payload P(InlineBytes->first, LittleEndian, InlineBytes->second);
    InlineLookup L{*this, Address, Result.Frames};
    bool Done = false;
    if (Error E = lookupInline(L, P, FuncStart, 0, Done))
      return E;
  }
  return Result;
}

/// Decodes a full inline node (LLVM's InlineInfo::decode); an empty node
/// (terminator) is returned with no ranges.
static Error decodeInline(const GsymReader &R, Payload &P, uint64_t Base,
                          unsigned Depth, InlineNode &Node) {
  if (Depth > MaxInlineDepth)
    return makeError("inline tree at " + hexString(P.offset()) +
                     " is deeper than " + Twine(MaxInlineDepth));
  readRanges(P, Base, Node.Ranges);
  if (!P.ok())
    return P.takeError("truncated inline info");
  if (Node.Ranges.empty())
    return Error::success();
  bool HasChildren = P.u8() != 0;
  uint32_t NameOff = P.u32();
  Node.CallFile = uint32_t(P.uleb());
  Node.CallLine = uint32_t(P.uleb());
  if (!P.ok())
    return P.takeError("truncated inline info");
  Expected<StringRef> Name = R.getString(NameOff);
  if (!Name)
    return Name.takeError();
  Node.Name = *Name;
  if (Node.CallFile >= R.getNumFiles())
    return makeError("inline call file index " + Twine(Node.CallFile) +
                     " is out of range (" + Twine(R.getNumFiles()) + " files)");
  if (HasChildren) {
    const uint64_t ChildBase = minStart(Node.Ranges);
    while (true) {
      InlineNode Child;
      if (Error E = decodeInline(R, P, ChildBase, Depth + 1, Child))
        return E;
      if (Child.Ranges.empty())
        break;
      Node.Children.push_back(std::move(Child));
    }
  }
  return Error::success();
}

Expected<DecodedFunction> GsymReader::decodeFunction(uint32_t Index) const {
  if (Index >= Hdr.NumAddresses)
    return makeError("function index " + Twine(Index) + " is out of range");
  DecodedFunction D;
  D.Offset = getFunctionInfoOffset(Index);
  const uint64_t Start = getAddress(Index);
  uint32_t FuncSize = 0, NameOff = 0;
  Error E = forEachInfo(
      Data, LittleEndian, D.Offset, FuncSize, NameOff,
      [&](uint32_t Type, StringRef Bytes, uint64_t BytesOff) -> Error {
        Payload P(Bytes, LittleEndian, BytesOff);
        if (Type == LineTableInfo) {
          if (D.HasLineTable)
            return makeError("FunctionInfo at " + hexString(D.Offset) +
                             " has two line tables");
          D.HasLineTable = true;
          return parseLineTable(P, Start, [&](const LineEntry &Row) {
            D.Entry.Lines.push_back(Row);
            return true;
          });
        }
        if (Type == InlineInfo) {
          if (D.Entry.Inline)
            return makeError("FunctionInfo at " + hexString(D.Offset) +
                             " has two inline infos");
          InlineNode Root;
          if (Error E = decodeInline(*this, P, Start, 0, Root))
            return E;
          D.Entry.Inline = std::move(Root);
          return Error::success();
        }
        D.UnknownInfos.push_back({Type, uint32_t(Bytes.size())});
        return Error::success();
      });
  if (E)
    return E;
  if (NameOff == 0)
    return makeError("FunctionInfo at " + hexString(D.Offset) +
                     " has name offset 0");
  Expected<StringRef> Name = getString(NameOff);
  if (!Name)
    return Name.takeError();
  D.Entry.Name = *Name;
  D.Entry.Range = {Start, Start + FuncSize};
  for (size_t I = 1; I < D.Entry.Lines.size(); ++I)
    if (D.Entry.Lines[I].Address < D.Entry.Lines[I - 1].Address)
      D.LinesSorted = false;
  for (const LineEntry &Row : D.Entry.Lines)
    if (Row.File >= NumFiles)
      return makeError("line table of FunctionInfo at " + hexString(D.Offset) +
                       " uses file index " + Twine(Row.File) + " of " +
                       Twine(NumFiles));
  return D;
}

/// lookupInline over a decoded tree. Matched is set when Node contained
/// Addr (and was processed), as in the sibling loop of the byte-level walk.
static Error lookupInTree(const GsymReader &R, const InlineNode &Node,
                          uint64_t Addr,
                          SmallVectorImpl<GsymReader::RawFrame> &Frames,
                          bool &Matched) {
  Matched = false;
  const AddressRange *Hit = nullptr;
  for (const AddressRange &Rg : Node.Ranges)
    if (Rg.contains(Addr)) {
      Hit = &Rg;
      break;
    }
  if (!Hit)
    return Error::success();
  Matched = true;
  for (const InlineNode &Child : Node.Children) {
    bool ChildMatched = false;
    if (Error E = lookupInTree(R, Child, Addr, Frames, ChildMatched))
      return E;
    if (ChildMatched)
      break;
  }
  std::optional<FileEntry> File = R.getFile(Node.CallFile);
  if (!File)
    return makeError("inline call file index " + Twine(Node.CallFile) +
                     " is out of range (" + Twine(R.getNumFiles()) + " files)");
  if (File->Dir.empty() && File->Base.empty())
    return Error::success();
  GsymReader::RawFrame Caller = Frames.back();
  Caller.File = Node.CallFile;
  Caller.Line = Node.CallLine;
  Frames.back().Name = Node.Name;
  Frames.back().StartAddress = Hit->Start;
  Frames.push_back(Caller);
  return Error::success();
}

Error GsymReader::lookupFrames(const DecodedFunction &F, uint64_t Address,
                               SmallVectorImpl<RawFrame> &Frames) const {
  Frames.clear();
  const FunctionEntry &E = F.Entry;
  RawFrame Frame;
  Frame.Name = E.Name;
  Frame.StartAddress = E.Range.Start;
  if (!F.HasLineTable) {
    Frames.push_back(Frame);
    return Error::success();
  }
  // The byte-level walk stops at the first row past Address and keeps the
  // one before; on ascending rows that is upper_bound - 1.
  const std::vector<LineEntry> &Rows = E.Lines;
  size_t End;
  if (F.LinesSorted) {
    End = std::upper_bound(Rows.begin(), Rows.end(), Address,
                           [](uint64_t A, const LineEntry &Row) {
                             return A < Row.Address;
                           }) -
          Rows.begin();
  } else {
    End = 0;
    while (End < Rows.size() && Rows[End].Address <= Address)
      ++End;
  }
  if (End == 0 || Rows[End - 1].File == 0)
    return makeError("address " + hexString(Address) +
                     " is not in the line table of the function at " +
                     hexString(E.Range.Start));
  const LineEntry &Row = Rows[End - 1];
  if (Row.File >= NumFiles)
    return makeError("line table file index " + Twine(Row.File) +
                     " is out of range (" + Twine(NumFiles) + " files)");
  Frame.File = Row.File;
  Frame.Line = Row.Line;
  Frames.push_back(Frame);
  if (E.Inline) {
    bool Matched = false;
    if (Error Err = lookupInTree(*this, *E.Inline, Address, Frames, Matched))
      return Err;
  }
  return Error::success();
}

Expected<LookupResult> GsymReader::lookupIn(const DecodedFunction &F,
                                            uint64_t Address) const {
  SmallVector<RawFrame, 8> Raw;
  if (Error E = lookupFrames(F, Address, Raw))
    return std::move(E);
  LookupResult Result;
  Result.Address = Address;
  for (const RawFrame &R : Raw) {
    SourceFrame Frame;
    Frame.FunctionName = R.Name.str();
    Frame.FileName = R.File == NoFile ? std::string() : getFilePath(R.File);
    Frame.Line = R.Line;
    Frame.StartAddress = R.StartAddress;
    Result.Frames.push_back(std::move(Frame));
  }
  return Result;
}

} // namespace gsym
} // namespace dwarfpack
