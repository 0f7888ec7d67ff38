//===- GsymReader.h - Zero-copy reader of GSYM V1 files -------------------===//
//
// Reads LLVM's GSYM V1 format (docs/GSYM.md) in place from a mapped buffer,
// in either byte order. Nothing is copied at open time: tables are read with
// endian-aware loads where they lie. Every offset, size, count and encoded
// integer is checked before use, so a corrupt file yields an Error, never a
// crash or a hang.
//
// Lookups follow LLVM's GsymReader exactly (address table search, zero-size
// entries, last line row <= address, inline frames innermost first), so the
// answers match `llvm-gsymutil --address`.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_GSYM_GSYMREADER_H
#define DWARFPACK_GSYM_GSYMREADER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/GSYM/GsymFormat.h"
#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/iterator_range.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {
namespace gsym {

/// The 48-byte V1 header, in host byte order.
struct Header {
  uint32_t Magic = 0;
  uint16_t Version = 0;
  uint8_t AddrOffSize = 0;
  uint8_t UUIDSize = 0;
  uint64_t BaseAddress = 0;
  uint32_t NumAddresses = 0;
  uint32_t StrtabOffset = 0;
  uint32_t StrtabSize = 0;
  uint8_t UUID[MaxUUIDSize] = {};
};

/// An InfoType record the reader does not interpret (kept for dump).
struct UnknownInfo {
  uint32_t Type = 0;
  uint32_t Length = 0;
};

/// One FunctionInfo, fully decoded. File ids in Entry (line rows, call files)
/// are indexes into the GSYM file table; names point into the mapped string
/// table.
struct DecodedFunction {
  /// Offset of the FunctionInfo record in the file.
  uint64_t Offset = 0;
  FunctionEntry Entry;
  /// True when the record has a LineTableInfo (even an empty one).
  bool HasLineTable = false;
  /// True when the line rows ascend by address (always, from a sane writer).
  bool LinesSorted = true;
  llvm::SmallVector<UnknownInfo, 0> UnknownInfos;
};

/// Deepest inline tree we accept. Real compilers stay far below this (the
/// Linux kernel peaks around 30); the bound keeps recursion on hostile input
/// from exhausting the stack.
constexpr unsigned MaxInlineDepth = 256;

class GsymReader : public AddressSymbolizer {
public:
  /// Validates the header and table layout of Buffer and returns a reader
  /// that owns it.
  static llvm::Expected<std::unique_ptr<GsymReader>>
  create(std::unique_ptr<llvm::MemoryBuffer> Buffer);
  /// Same, over bytes the caller keeps alive for the reader's lifetime.
  static llvm::Expected<std::unique_ptr<GsymReader>>
  create(llvm::MemoryBufferRef Buffer);

  /// True when Contents starts with the GSYM magic in either byte order.
  static bool isGsym(llvm::StringRef Contents);

  const Header &header() const { return Hdr; }
  llvm::ArrayRef<uint8_t> uuid() const override {
    return llvm::ArrayRef<uint8_t>(Hdr.UUID, Hdr.UUIDSize);
  }
  bool isLittleEndian() const { return LittleEndian; }
  llvm::StringRef data() const { return Data; }

  uint32_t getNumAddresses() const { return Hdr.NumAddresses; }
  /// Start address of function Index (BaseAddress + offset table entry).
  uint64_t getAddress(uint32_t Index) const;
  /// Raw entry of the address offset table.
  uint64_t getAddressOffset(uint32_t Index) const;
  /// Absolute file offset of FunctionInfo Index.
  uint32_t getFunctionInfoOffset(uint32_t Index) const;
  /// Offsets of the tables, for dump.
  uint64_t getAddrOffsetsOffset() const { return AddrOffsetsOff; }
  uint64_t getAddrInfoOffsetsOffset() const { return AddrInfoOffsetsOff; }
  uint64_t getFileTableOffset() const { return FileTableOff; }

  uint32_t getNumFiles() const { return NumFiles; }
  /// File Index as (directory, base name); std::nullopt when out of range.
  std::optional<FileEntry> getFile(uint32_t Index) const;
  /// Raw string offsets of file Index (validated at open).
  std::pair<uint32_t, uint32_t> getFileStringOffsets(uint32_t Index) const;
  /// "dir/base" (or base alone); empty for file 0.
  std::string getFilePath(uint32_t Index) const;

  /// The NUL-terminated string at Offset in the string table.
  llvm::Expected<llvm::StringRef> getString(uint64_t Offset) const;
  llvm::StringRef getStringTable() const { return Strtab; }

  /// Decodes FunctionInfo Index completely, checking every field.
  llvm::Expected<DecodedFunction> decodeFunction(uint32_t Index) const;

  /// Iterates over all functions in address-table order, decoding each on
  /// dereference:
  ///   for (Expected<DecodedFunction> F : Reader.functions())
  ///     if (!F) ... else ...
  class FunctionIterator {
  public:
    FunctionIterator(const GsymReader &R, uint32_t Index)
        : R(&R), Index(Index) {}
    llvm::Expected<DecodedFunction> operator*() const {
      return R->decodeFunction(Index);
    }
    FunctionIterator &operator++() {
      ++Index;
      return *this;
    }
    bool operator!=(const FunctionIterator &O) const {
      return Index != O.Index;
    }
    uint32_t index() const { return Index; }

  private:
    const GsymReader *R;
    uint32_t Index;
  };
  llvm::iterator_range<FunctionIterator> functions() const {
    return {FunctionIterator(*this, 0),
            FunctionIterator(*this, Hdr.NumAddresses)};
  }

  /// Index of the function entry that covers Address, as LLVM's reader
  /// chooses it; std::nullopt when none does.
  llvm::Expected<std::optional<uint32_t>>
  findFunctionIndex(uint64_t Address) const;

  llvm::Expected<LookupResult> lookup(uint64_t Address) const override;
  llvm::Error forEachFunction(
      llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const override;

  /// One frame as the file stores it: names point into the string table,
  /// File is a file-table index, or NoFile without a line row.
  static constexpr uint32_t NoFile = UINT32_MAX;
  struct RawFrame {
    llvm::StringRef Name;
    uint32_t File = NoFile;
    uint32_t Line = 0;
    uint64_t StartAddress = 0;
  };
  /// lookupIn without building strings (for verify, which compares millions
  /// of frames): the same frames, innermost first.
  llvm::Error lookupFrames(const DecodedFunction &F, uint64_t Address,
                           llvm::SmallVectorImpl<RawFrame> &Frames) const;

  /// What lookup(Address) answers when the address table selects function F
  /// for Address (F decoded from this file), computed from the decoded
  /// record: the same rules without re-reading the record, so checking many
  /// addresses of one function stays linear (verify).
  llvm::Expected<LookupResult> lookupIn(const DecodedFunction &F,
                                        uint64_t Address) const;

private:
  GsymReader() = default;
  /// Reads and checks the file at open, in the steps below (in this order,
  /// so that a damaged file reports the first damage found).
  llvm::Error parse();
  /// Checks the file holds a header; reads it and the file's byte order.
  llvm::Error readHeader();
  /// Checks the header's version, address offset size and UUID size.
  llvm::Error checkHeader() const;
  /// Sets where the address, address info offset and file tables lie, each
  /// inside the file, and NumFiles.
  llvm::Error locateTables();
  /// Sets Strtab, inside the file and NUL-terminated.
  llvm::Error readStringTable();
  /// Checks the entries of the address, address info and file tables.
  llvm::Error checkTables() const;
  uint64_t readUInt(uint64_t Offset, unsigned Size) const;
  /// The name of the FunctionInfo at InfoOff, whose name offset is NameOff.
  llvm::Expected<llvm::StringRef> functionName(uint64_t InfoOff,
                                               uint32_t NameOff) const;

  std::unique_ptr<llvm::MemoryBuffer> Owned;
  llvm::StringRef Data;
  bool LittleEndian = true;
  Header Hdr;
  uint64_t AddrOffsetsOff = 0;
  uint64_t AddrInfoOffsetsOff = 0;
  uint64_t FileTableOff = 0;
  uint32_t NumFiles = 0;
  llvm::StringRef Strtab;
};

/// Prints the whole file in the stable text form of docs/GSYM.md ("Dump
/// format"). Functions that fail to decode are printed as an error line and
/// the dump goes on; the returned error then counts them.
llvm::Error dumpGsym(const GsymReader &Reader, llvm::raw_ostream &OS);

/// Joins a GSYM file entry the way LLVM does: "dir/base", or base alone when
/// the directory is empty.
std::string joinPath(llvm::StringRef Dir, llvm::StringRef Base);

} // namespace gsym
} // namespace dwarfpack

#endif
