//===- LineTable.h - DWARF line tables --------------------------*- C++ -*-===//
//
// A .debug_line table decoded into rows and sequences with the results of
// LLVM 19's DWARFDebugLine::LineTable::parse: the same rows in the same
// order, the same sequences sorted the same way, the same file paths as
// getFileNameByIndex(AbsoluteFilePath), and a warning wherever LLVM reports
// a recoverable problem. Damaged tables give what LLVM gives (the rows
// before a problem kept, the header fields LLVM reads narrowing as LLVM
// narrows them) with two exceptions, both refusals of input on which LLVM
// would misbehave: the headers of LineHeader.h, and an extended opcode
// whose length leads back to or before itself (LLVM reads the program
// again from there, possibly forever; here decoding stops).
//
// The table keeps only what its users need (rows of 24 bytes against
// LLVM's 32, no copy of any string) and reads the section in place.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_LINETABLE_H
#define DWARFPACK_DWARFINPUT_LINETABLE_H

#include "dwarfpack/DwarfInput/LineHeader.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack::input {

/// One row of the line-number matrix (LLVM's DWARFDebugLine::Row without
/// its section index: the sequence holds it).
struct LineRow {
  enum : uint8_t {
    EndSequence = 1,
    IsStmt = 2,
    BasicBlock = 4,
    PrologueEnd = 8,
    EpilogueBegin = 16,
  };

  uint64_t Address;
  uint32_t Line;
  uint32_t Discriminator;
  uint16_t File; ///< as the program sets it (LLVM keeps 16 bits)
  uint16_t Column;
  uint8_t Flags;
  uint8_t OpIndex;
  uint8_t Isa;

  bool endSequence() const { return Flags & EndSequence; }
  bool isStmt() const { return Flags & IsStmt; }
};
static_assert(sizeof(LineRow) == 24, "a vmlinux has millions of rows");

/// Rows [FirstRow, EndRow) describe [LowPC, HighPC) of section
/// SectionIndex (NoSection unless a relocation placed the sequence).
struct LineSequence {
  uint64_t LowPC;
  uint64_t HighPC;
  uint64_t SectionIndex;
  uint32_t FirstRow;
  uint32_t EndRow;
};

class Unit;

/// What the line table of unit U reads: its file's line and string
/// sections, its string offsets table and its address size.
LineSections lineSections(const Unit &U);

class LineTable {
public:
  /// How the line program ended.
  enum class Stop : uint8_t {
    Complete,
    /// An operand LLVM could not read (a LEB128 or field cut short by the
    /// table's end): LLVM's parse returns an error there and keeps the
    /// rows so far, with the sequences unsorted.
    BadOperand,
    /// An extended opcode's length leads back to or before it (see above).
    LoopingLength,
  };

  /// Decodes the table at Offset of S.Line. Problems LLVM's parser reports
  /// as recoverable go to Warn, and the table is what LLVM makes of it.
  /// An Error is a problem LLVM treats as fatal before any row (the header
  /// is cut short or of an unknown version; the table is unusable), or an
  /// UnsupportedLineHeader. A fatal problem in the line program (stop()
  /// is not Complete) goes to Warn too: LLVM returns it as an error but
  /// keeps what it has decoded, and so does this table.
  static llvm::Expected<LineTable>
  parse(const LineSections &S, uint64_t Offset,
        llvm::function_ref<void(llvm::Error)> Warn);

  /// parse() into this table, whose memory is reused (a converter keeps
  /// one table per thread and decodes unit after unit into it). After an
  /// Error the table has no rows, sequences, directories or files.
  llvm::Error decode(const LineSections &S, uint64_t Offset,
                     llvm::function_ref<void(llvm::Error)> Warn);

  llvm::ArrayRef<LineRow> rows() const { return Rows; }
  /// Sorted by (section, end address) as LLVM sorts them (llvm::sort, so
  /// sequences ending at the same address are in LLVM's order too); in
  /// program order when stop() is not Complete, as LLVM leaves them.
  llvm::ArrayRef<LineSequence> sequences() const { return Sequences; }
  Stop stop() const { return Ended; }

  const LineHeader &header() const { return Header; }
  uint16_t version() const { return Header.Version; }

  /// Prologue::hasFileAtIndex: DWARF 5 numbers files from 0, earlier
  /// versions from 1 (DW_LNE_define_file's files included).
  bool hasFile(uint64_t Index) const;
  /// LineTable::getFileNameByIndex(Index, CompDir, AbsoluteFilePath, Out):
  /// the file's name, joined to its directory and, unless either is
  /// absolute (or DWARF 5's directory 0 is used), to CompDir. False, with
  /// Out untouched, for an index the table does not have or a name that
  /// cannot be read. NameIsAbsolute (when given) tells whether the file's
  /// name is itself absolute (clang names a compiled file so when given
  /// one), which llvm-symbolizer's --basenames prints whole.
  bool filePath(uint64_t Index, llvm::StringRef CompDir, std::string &Out,
                bool *NameIsAbsolute = nullptr) const;

private:
  /// The string a directory or file entry names, as DWARFFormValue's
  /// getAsCString finds it; none when it cannot.
  std::optional<llvm::StringRef> string(const LineString &S) const;

  LineHeader Header;
  std::vector<LineRow> Rows;
  std::vector<LineSequence> Sequences;
  Stop Ended = Stop::Complete;
  // What string() reads (LineSections without its relocation hook).
  llvm::StringRef Line, LineStr, Str, StrOffsets;
  uint64_t StrOffsetsBase = 0;
  uint8_t StrOffsetSize = 0;
  bool LittleEndian = true;
};

} // namespace dwarfpack::input

#endif
