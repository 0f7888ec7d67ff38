//===- CompactReader.h - Zero-copy reader of compact address tables -------===//
//
// Reads the compact address table (docs/CompactTable.md) in place from a
// mapped buffer. Opening validates the header, the section table and every
// fixed-size index; records, blocks and names are decoded lazily with
// bounds checks on every byte, so corrupt input yields an Error, never a
// crash or a hang. Opening also expands the path and file lists once (a
// small part of a table that nearly every lookup needs). A lookup decodes
// one address block, one record, and only the names of the frames it
// returns.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_COMPACTTABLE_COMPACTREADER_H
#define DWARFPACK_COMPACTTABLE_COMPACTREADER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CompactTable/ColumnCode.h"
#include "dwarfpack/CompactTable/CompactFormat.h"
#include "dwarfpack/CompactTable/NameCache.h"
#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Token/TokenTable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dwarfpack {
namespace compact {

/// The fixed header, decoded.
struct Header {
  uint32_t Magic = 0;
  uint16_t Version = 0;
  uint8_t BlockShift = 0;
  uint8_t Flags = 0; ///< HeaderFlags.
  uint64_t BaseAddress = 0;
  uint32_t NumFunctions = 0;
  uint32_t NumBlocks = 0;
  int8_t LineBase = 0;
  uint8_t LineRange = 1;
  /// With RowStops: a row stop every 1 << RowStopShift rows.
  uint8_t RowStopShift = 0;
  uint32_t NumFiles = 0;
  uint32_t NumNames = 0;
  uint32_t NumPaths = 0;
};

/// Address and line advance of each special opcode, computed from the
/// header at open so that row decoding needs no division.
struct SpecialOpcodes {
  uint8_t AddrDelta[256] = {};
  int16_t LineDelta[256] = {};
};

/// How the records of one table are coded: what the header says.
struct RecordFormat {
  SpecialOpcodes Special;
  /// Rows carry discriminators, nodes details, names declarations.
  bool Details = false;
  /// Rows carry columns (the table's code is not empty).
  const ColumnCode *Columns = nullptr;
  /// A row stop every 1 << StopShift rows of a longer table; 0: none.
  unsigned StopShift = 0;
};

/// Where one function's entry lies: its range and its record's bytes.
struct FunctionLocation {
  uint64_t Start = 0;
  uint64_t Size = 0;
  uint64_t RecordOffset = 0; ///< Within the records section.
  uint64_t RecordEnd = 0;
};

/// A name entry, decoded; files are compact file ids. Without details only
/// the name.
struct NameEntry {
  std::string Name;
  Declaration Decl;
  /// The short name, when the entry records one.
  bool HasShort = false;
  std::string Short;
};

/// A decoded inline node; names are expanded, files are compact file ids.
struct DecodedInline {
  std::vector<AddressRange> Ranges;
  std::string Name;
  bool HasShortName = false;
  std::string ShortName;
  uint32_t CallFile = 0;
  uint32_t CallLine = 0;
  uint32_t CallColumn = 0;
  uint32_t CallDiscriminator = 0;
  Declaration Decl;
  std::optional<uint64_t> StartAddress;
  std::vector<DecodedInline> Children;
};

/// A fully decoded record (for dump and tests).
struct DecodedFunction {
  FunctionLocation Loc;
  NameEntry Name;
  /// The DWARF name entry the record names, if any.
  std::optional<NameEntry> DwarfName;
  /// The file of the function's symbol (0: none, or with HasSymbolFile an
  /// STT_FILE symbol without a name).
  uint32_t SymbolFile = 0;
  bool HasSymbolFile = false;
  /// The record says DWARF gives the function no start.
  bool NoDwarfStart = false;
  std::vector<LineEntry> Lines; ///< File fields are compact file ids.
  bool HasLines = false;
  std::optional<DecodedInline> Inline;
  /// Bytes of the record's parts: head, line table, inline tree.
  uint64_t HeadBytes = 0, LineBytes = 0, InlineBytes = 0;
};

/// One frame of CompactReader::lookupFrames. Names and paths point into the
/// reader's decoded paths or into the FrameBuffer that holds the frame:
/// valid until that buffer's next lookup. A file is a directory and a base
/// name, to be joined as gsym::joinPath joins them (either may be empty);
/// the other fields are those of SourceFrame.
struct FrameRef {
  llvm::StringRef Name;
  llvm::StringRef Dir, Base;
  uint32_t Line = 0;
  uint32_t Column = 0;
  uint32_t Discriminator = 0;
  llvm::StringRef DeclDir, DeclBase;
  uint32_t DeclLine = 0;
  uint64_t StartAddress = 0;
  bool HasStartAddress = true;
  llvm::StringRef ShortName;
  bool HasShortName = false;
  llvm::StringRef DwarfName;
  bool HasDwarfName = false;
  bool HasDwarfStart = true;
  llvm::StringRef SymbolDir, SymbolBase;
  /// The record names its symbol's STT_FILE (SymbolFile, 0 when that has
  /// no name).
  bool HasSymbolFile = false;
  /// The ids of the files above (0: none).
  uint32_t File = 0, DeclFile = 0, SymbolFile = 0;
};

/// What lookupFrames fills, reused from one lookup to the next so that a
/// loop of lookups allocates nothing once the buffers have grown. One
/// buffer per thread: a reader may be shared, a buffer may not. The buffer
/// keeps the names it has expanded (a few per lookup, shared by many
/// addresses) until it is used with another reader or holds more than
/// NameCacheLimit bytes of them.
class FrameBuffer {
public:
  static constexpr size_t NameCacheLimit = 64u << 20;

  /// Innermost first; empty: not found.
  llvm::ArrayRef<FrameRef> frames() const { return Frames; }
  /// The addresses whose lookup gives the same frames (FrameViews::SameFrom
  /// and SameTo): with setFindSame(true), those of the function, of the
  /// line row found and of each inline range matched, outside every inline
  /// range passed over; without, the looked-up address alone.
  uint64_t sameFrom() const { return SameFrom; }
  uint64_t sameTo() const { return SameTo; }
  void setFindSame(bool On) { FindSame = On; }

private:
  friend class CompactReader;
  void resetNames(uint64_t Reader) {
    Names.clear();
    NameArena.Reset();
    NameBytes = 0;
    NameReader = Reader;
  }

  llvm::SmallVector<FrameRef, 8> Frames;
  uint64_t SameFrom = 0, SameTo = 0;
  bool FindSame = false;
  /// The serial number of the reader whose names are kept (0: none). Not
  /// its address, which a later reader may be given.
  uint64_t NameReader = 0;
  NameCache Names;
  llvm::BumpPtrAllocator NameArena;
  size_t NameBytes = 0; ///< Held by NameArena.
  std::string Scratch;
  /// Expanded names (and paths, when the table's lists are read lazily).
  std::string Text;
  /// Where each frame's strings lie in Text until it stops growing.
  struct Span {
    uint32_t Offset = 0, Size = 0;
  };
  llvm::SmallVector<std::array<Span, 7>, 8> Spans;
};

class CompactReader : public AddressSymbolizer {
public:
  static llvm::Expected<std::unique_ptr<CompactReader>>
  create(std::unique_ptr<llvm::MemoryBuffer> Buffer);
  /// Same, over bytes the caller keeps alive for the reader's lifetime.
  static llvm::Expected<std::unique_ptr<CompactReader>>
  create(llvm::MemoryBufferRef Buffer);

  /// True when Contents starts with the compact table magic.
  static bool isCompact(llvm::StringRef Contents);

  const Header &header() const { return Hdr; }
  /// Whether the table records source details (header flag HasDetails).
  bool hasDetails() const { return Format.Details; }
  const ColumnCode &columnCode() const { return Columns; }
  llvm::StringRef data() const { return Data; }
  llvm::ArrayRef<uint8_t> uuid() const override;
  unsigned addressBytes() const override {
    return (Hdr.Flags & Addr32) ? 4 : 8;
  }
  /// File offset and size of section S.
  std::pair<uint32_t, uint32_t> section(Section S) const {
    return {SecOff[S], SecSize[S]};
  }

  /// Locations of every function of block Block, in address order.
  llvm::Error decodeBlock(uint32_t Block,
                          std::vector<FunctionLocation> &Out) const;
  /// Decodes one record completely.
  llvm::Expected<DecodedFunction>
  decodeFunction(const FunctionLocation &Loc) const;

  /// The name whose entry starts at Offset in the name list, expanded.
  llvm::Error getName(uint32_t Offset, std::string &Out) const;
  /// The whole entry: with details also the declaration, short name and
  /// flags that follow the name.
  llvm::Error getName(uint32_t Offset, NameEntry &Out) const;
  /// Path component Id, expanded.
  llvm::Error getPath(uint32_t Id, std::string &Out) const;
  /// File Id (1-based; 0 is "no file") as "dir/base", as GSYM joins it.
  llvm::Error getFilePath(uint32_t Id, std::string &Out) const;
  /// Directory and base path ids of file Id.
  llvm::Error getFileParts(uint32_t Id, uint32_t &Dir, uint32_t &Base) const;

  /// The function whose range contains Address (false: none).
  llvm::Expected<bool> findFunction(uint64_t Address,
                                    FunctionLocation &Loc) const;

  llvm::Expected<LookupResult> lookup(uint64_t Address) const override;
  /// lookupViews(), the strings assigned to Result's.
  llvm::Error lookupInto(uint64_t Address, LookupResult &Result) const override;
  /// lookupFrames into this thread's buffer, as views of its frames with
  /// the files' paths joined (at open; into Out's storage when the lists
  /// are read lazily).
  llvm::Error lookupViews(uint64_t Address, FrameViews &Out) const override;
  /// lookup() without allocating per frame: the frames in Out, their
  /// strings in the table or in Out (FrameRef). Not found: no frames.
  llvm::Error lookupFrames(uint64_t Address, FrameBuffer &Out) const;
  llvm::Expected<std::optional<uint64_t>>
  fileOffsetToAddress(uint64_t Offset) const override;
  /// The address of the first load segment (the lowest file offset): where
  /// a kernel image (vmlinux) starts, at its `_text`.
  llvm::Expected<uint64_t> kernelTextAddress() const override;
  llvm::Error forEachFunction(
      llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const override;
  llvm::Error forEachDwarfName(
      llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const override;
  /// The load segments (empty when the table records none).
  llvm::ArrayRef<LoadSegment> loadSegments() const { return Segments; }

private:
  CompactReader();
  /// Reads and checks the whole table at open, in the steps below (in this
  /// order, so that a damaged file reports the first damage found).
  llvm::Error parse();
  /// Checks the file holds a header and section table; reads the header.
  llvm::Error readHeader();
  /// Checks the header's fields; sets Format's details and special opcodes.
  llvm::Error checkHeader();
  /// Reads SecOff/SecSize, each section inside the file.
  llvm::Error readSectionTable();
  /// Checks the block index: its size, and sorted entries inside their
  /// sections.
  llvm::Error checkBlockIndex() const;
  /// Reads the token tables and checks the path and file lists.
  llvm::Error readStringTables();
  /// Reads and checks the load segments.
  llvm::Error readSegments();
  /// Reads the column code, which only a table with details may have.
  llvm::Error readColumnCode();
  /// Section S of the file (inside it once readSectionTable succeeded).
  llvm::StringRef sectionData(Section S) const {
    return Data.substr(SecOff[S], SecSize[S]);
  }
  /// Fills PathText/PathEnds and FileParts when the lists decode.
  void expandPathsAndFiles();
  /// Fills NameTokenRefs.
  void locateNameTokens();
  /// File Id's path, joined at open (0: none); with FileParts only.
  llvm::StringRef joinedFile(uint32_t Id) const {
    if (Id == 0)
      return llvm::StringRef();
    uint32_t Begin = Id > 1 ? FileEnds[Id - 2] : 0;
    return llvm::StringRef(FileText.data() + Begin, FileEnds[Id - 1] - Begin);
  }
  llvm::StringRef cachedPath(uint32_t Id) const {
    uint32_t Begin = Id ? PathEnds[Id - 1] : 0;
    return llvm::StringRef(PathText.data() + Begin, PathEnds[Id] - Begin);
  }
  llvm::Error findListEntry(llvm::StringRef List, uint32_t Count, uint32_t Id,
                            unsigned Kind, const uint8_t *&P) const;
  /// Prefetches the index entry (Body false) or the entry (Body true, the
  /// index entry having been prefetched before) of Id in a list section.
  void prefetch(llvm::StringRef List, uint32_t Count, uint32_t Id,
                bool Body) const;
  llvm::Error decodeEntry(const token::TokenTable &Tokens, const uint8_t *P,
                          const uint8_t *ListEnd, const char *What,
                          std::string &Out) const;
  /// decodeEntry, appending to Out.
  llvm::Error appendEntry(const token::TokenTable &Tokens, const uint8_t *P,
                          const uint8_t *ListEnd, const char *What,
                          std::string &Out,
                          const uint8_t **EntryEnd = nullptr) const;
  /// Appends the name whose entry starts at P to Out; EntryEnd is set to
  /// where its tokens end (where a declaration follows).
  llvm::Error appendName(const uint8_t *P, std::string &Out,
                         const uint8_t *&EntryEnd) const;
  /// Reads the details after a name entry's tokens (at P): declaration
  /// and flags; ShortAt is where the short name's tokens would start.
  llvm::Error readNameDetails(const uint8_t *P, uint32_t Offset,
                              Declaration &Decl, uint64_t &Flags,
                              const uint8_t *&ShortAt) const;
  /// A frame of a lookup before its strings are looked up: table ids.
  struct RawFrame;
  /// lookupFrames' last step: the strings of frames given by table ids.
  llvm::Error materialize(llvm::ArrayRef<RawFrame> Raw, FrameBuffer &Out) const;
  /// The name entry at Offset, from Out's cache or expanded into it.
  llvm::Expected<NameCache::Name> cachedName(uint32_t Offset,
                                             FrameBuffer &Out) const;
  /// Expands file Id's directory and base into Out.Text (lists read
  /// lazily).
  llvm::Error appendFileParts(uint32_t Id, FrameBuffer &Out,
                              FrameBuffer::Span &Dir,
                              FrameBuffer::Span &Base) const;
  llvm::Error expandName(const token::TokenTable &Tokens, llvm::StringRef List,
                         uint32_t Count, uint32_t Id, unsigned Kind,
                         std::string &Out) const;
  /// Where address block Block (< Hdr.NumBlocks) and its records lie, from
  /// its index entry and the next one.
  struct BlockBounds {
    const uint8_t *Begin, *End; ///< The block's varints.
    uint64_t Count;             ///< Functions in the block.
    uint64_t Start;             ///< Address of its first function.
    uint64_t RecOff, RecEnd;    ///< Its records in the Records section.
  };
  BlockBounds blockBounds(uint32_t Block) const;

  std::unique_ptr<llvm::MemoryBuffer> Owned;
  /// Unique in the process: what a FrameBuffer's name cache belongs to.
  const uint64_t Serial;
  llvm::StringRef Data;
  Header Hdr;
  uint32_t SecOff[NumSections] = {};
  uint32_t SecSize[NumSections] = {};
  token::TokenTable NameTokens;
  token::TokenTable PathTokens;
  ColumnCode Columns;
  RecordFormat Format;
  llvm::StringRef Names, Paths, Files;
  /// Every path expanded at open (path Id is [PathEnds[Id - 1],
  /// PathEnds[Id]) of PathText), and every file's (dir, base) path ids;
  /// empty when the lists did not decode (lookups then read them lazily and
  /// report the damage).
  std::string PathText;
  std::vector<uint32_t> PathEnds;
  std::vector<std::pair<uint32_t, uint32_t>> FileParts;
  /// With FileParts, each file's directory and base joined (file Id ends
  /// at FileEnds[Id - 1] of FileText): what lookupViews answers with.
  std::string FileText;
  std::vector<uint32_t> FileEnds;
  /// Where each name token's bytes lie, from NameTokenText (the first
  /// token's bytes, in the file or in the table's decoded image).
  struct TokenRef {
    uint32_t Offset, Length;
  };
  std::vector<TokenRef> NameTokenRefs;
  const char *NameTokenText = nullptr;
  std::vector<LoadSegment> Segments;

  /// Every function's start (from BaseAddress), size and record, decoded
  /// from the address blocks on the first lookup, so that a lookup
  /// searches one array without decoding a block's varints (a block search
  /// costs a branch mispredicted per step and per function scanned). Empty
  /// when the blocks do not all decode, or when the table's spans need more
  /// than 32 bits: lookups then decode blocks.
  struct FunctionIndex {
    std::vector<uint32_t> Starts;
    /// Each function's size and record, together: a lookup reads one
    /// cache line of them.
    struct Entry {
      uint32_t Size, RecordOffset, RecordEnd;
    };
    std::vector<Entry> Entries;
    /// Buckets[Off >> BucketShift]: the last function starting at or
    /// before the bucket's first offset (0 when none). The function that
    /// holds Off lies between that of its bucket and that of the next, so
    /// a lookup searches a few starts (about one bucket per function)
    /// instead of halving the whole array, a cache miss a step.
    std::vector<uint32_t> Buckets;
    unsigned BucketShift = 0;
  };
  mutable std::once_flag IndexOnce;
  mutable FunctionIndex Index;
  const FunctionIndex &functionIndex() const;
  static void fillBuckets(FunctionIndex &I);
  /// findFunction through the index, when there is one.
  bool findIndexed(uint64_t Address, FunctionLocation &Loc) const;
  /// forEachFunction's walk, or forEachDwarfName's.
  llvm::Error
  forEachName(bool DwarfNames,
              llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const;
};

/// The name of section S as the dump and error messages print it.
const char *sectionName(Section S);

/// Prints the whole file in a stable text form (docs/CompactTable.md, "Dump
/// format"); function lines match the GSYM dump's apart from record offsets.
llvm::Error dumpCompact(const CompactReader &Reader, llvm::raw_ostream &OS);

} // namespace compact
} // namespace dwarfpack

#endif
