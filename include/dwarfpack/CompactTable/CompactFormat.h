//===- CompactFormat.h - Constants of the compact address table -----------===//
//
// Shared by the compact table writer and reader. The layout is specified
// byte by byte in docs/CompactTable.md. Every multi-byte integer is
// little-endian, whatever the byte order of the input.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_COMPACTTABLE_COMPACTFORMAT_H
#define DWARFPACK_COMPACTTABLE_COMPACTFORMAT_H

#include <cstdint>

namespace dwarfpack {
namespace compact {

/// The bytes "DPAT" read as a little-endian u32. Distinct from GSYM's
/// "MYSG"/"GSYM", so LLVM's reader rejects the file by its magic.
constexpr uint32_t Magic = 0x54415044;
/// Version 2 added the Segments section, version 3 the source details
/// (columns, discriminators, declarations, call columns, start addresses)
/// and the ColumnCode section, version 4 what llvm-symbolizer prints with
/// --functions=short|none (short names, functions' DWARF starts), the
/// DWARF names binutils prints, symbols' files and code without a line.
/// Older versions are refused.
constexpr uint16_t Version = 4;
constexpr uint32_t HeaderSize = 40;

/// Bits of the header's Flags byte.
enum HeaderFlags : uint8_t {
  /// Rows carry columns and discriminators, inline nodes call columns,
  /// call discriminators and start addresses, name entries declarations.
  HasDetails = 1,
  /// The module's addresses are 32 bits wide (a 32-bit ELF input).
  Addr32 = 2,
  /// Line tables of more than 1 << RowStopShift rows restart their
  /// decoding state every 1 << RowStopShift rows, at *row stops* an index
  /// in front of the rows locates: a lookup decodes the rows after one
  /// stop, not all of a long function's rows.
  RowStops = 4,
};

/// The RowStopShift the writer puts in the header (byte 26): a stop every
/// 32 rows. On the kernel a lookup then decodes 10 rows on average instead
/// of 48, for 3.8 % more bytes (a stop every 16 rows: 6 rows, but the
/// table would pass 0.6 of llvm-gsymutil's GSYM).
constexpr unsigned DefaultRowStopShift = 5;
/// Row stop shifts a reader accepts (with RowStops).
constexpr unsigned MinRowStopShift = 1, MaxRowStopShift = 16;

/// The sections, in file order; the section table follows the header.
enum Section : unsigned {
  SecUUID,
  SecBlockIndex,
  SecAddressBlocks,
  SecRecords,
  SecNameTokens,
  SecNames,
  SecPathTokens,
  SecPaths,
  SecFiles,
  SecSegments,
  SecColumnCode,
  NumSections
};
constexpr uint32_t SectionTableSize = NumSections * 8;

/// Size of one block index entry: u64 first start, u32 block offset, u32
/// record offset.
constexpr uint32_t BlockIndexEntrySize = 16;
/// Size of one Segments entry: u64 file offset, u64 address, u64 size.
constexpr uint32_t SegmentEntrySize = 24;
/// Largest accepted BlockShift (functions per block = 1 << BlockShift).
constexpr unsigned MaxBlockShift = 12;
/// One sparse offset every 2^ListIndexShift entries of a list section.
constexpr unsigned ListIndexShift = 2;

/// Bits of a record's head value (ULEB128 NameId << recordFlagBits() |
/// flags).
enum RecordFlags : uint64_t {
  HasLines = 1,
  HasInlineChildren = 2, ///< Inline tree whose root is the function itself.
  HasInlineRoot = 4,     ///< Inline tree with an explicitly stored root.
  /// The rest only with details.
  /// DWARF gives the function no start (DW_AT_ranges, or no DIE).
  NoDwarfStart = 8,
  /// A ULEB name offset follows: the name DWARF gives the function.
  HasDwarfName = 16,
  /// A ULEB file id follows: the file of the function's local symbol.
  HasSymbolFile = 32,
};
/// The record flags a table without details may set.
constexpr uint64_t PlainRecordFlags =
    HasLines | HasInlineChildren | HasInlineRoot;
/// Flag bits below a record's name offset: tables without details have
/// only the plain flags, and do not pay for the others in every head.
constexpr unsigned recordFlagBits(bool Details) { return Details ? 6 : 3; }

/// Bits below the declaration file in a name entry's first detail value.
enum NameEntryFlags : uint64_t {
  /// The short name (ULEB byte length, token ids) follows the line.
  NameHasShort = 1,
};
constexpr unsigned NameEntryFlagBits = 1;

/// Line table opcodes; opcodes from FirstSpecial on are special rows.
enum LineOpcode : uint8_t {
  LongRow = 0,  ///< ULEB address delta, SLEB line delta.
  SetFile = 1,  ///< ULEB file operand; the next opcode describes the row.
  SwapFile = 2, ///< SetFile with operand 1 (the previously used file).
  /// ULEB discriminator of the next row (rows have 0 otherwise).
  SetDiscriminator = 3,
  FirstSpecial = 4,
};

/// Low bits of an inline node's head value (ULEB NumChildren << bits |
/// flags); the start-address bits exist only in tables with details.
enum NodeFlags : uint64_t {
  NodeMultiRange = 1,
  /// The node's start address is its first range's start.
  NodeStartAtFirstRange = 2,
  /// A ULEB of NodeExtraFlags follows the call column.
  NodeExtra = 4,
};
enum NodeExtraFlags : uint64_t {
  /// SLEB start address minus the first range's start follows.
  ExtraStartAddress = 1,
  /// ULEB call discriminator follows.
  ExtraCallDiscriminator = 2,
};
/// Bits of flags below NumChildren in a node's head value.
inline unsigned nodeFlagBits(bool Details) { return Details ? 3 : 1; }

/// Deepest inline tree the reader accepts (as the GSYM reader).
constexpr unsigned MaxInlineDepth = 256;

} // namespace compact
} // namespace dwarfpack

#endif
