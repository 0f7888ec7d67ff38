//===- OpenTable.h - Any file dwarfpack writes, recognised by content -----===//
//
// `dwarfpack lookup`, `dump`, `compare-tables` and `verify`, and any program
// that embeds the readers, accept every format dwarfpack writes and tell them
// apart by their bytes, never by file name. The formats are one explicit
// list (knownFormats()): static self-registration would not survive linking
// from static libraries, where nothing references a format's object file.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_OPENTABLE_H
#define DWARFPACK_SYMBOLIZE_OPENTABLE_H

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

class ObjectDataSource;

/// What to do with an ELF object given where a table is expected, as
/// llvm-symbolizer and addr2line are given one.
struct ObjectOpenOptions {
  /// Convert it in memory into the compact table `dwarfpack gsym` would
  /// write, and answer from that; when false it is an unknown format.
  bool Convert = false;
  /// Threads of the conversion (0: all cores); answers do not depend on it.
  unsigned Threads = 0;
  /// Where the separate debug file of a stripped object is looked for, by
  /// build-id and .gnu_debuglink, before /usr/lib/debug.
  std::vector<std::string> DebugFileDirectories;
  /// Called after each compile unit converted.
  ProgressFn Progress;
  /// When neither the object nor the search above has DWARF: fetches the
  /// debug file of the object's build-id (input::DebugFileOptions::Fetch:
  /// from debuginfod servers); empty: nothing is fetched.
  std::function<llvm::Expected<std::string>(llvm::ArrayRef<uint8_t>)>
      FetchDebugFile;
  /// Where tables converted from DWARF are kept by build-id (a TableCache
  /// root, which forgets unused tables as its control files say), and
  /// found again by later runs, which then convert nothing; empty:
  /// nowhere. A table of symbols only (no DWARF found) is not kept: a
  /// debug file installed later must count.
  std::string CacheDir;
  /// DATA queries see tagged symbols (HWASan's globals) at their tagged
  /// addresses, as llvm-symbolizer --no-untag-addresses.
  bool KeepSymbolTags = false;
  /// The .dwp package of the object's split units, when not its path with
  /// .dwp added (llvm-symbolizer --dwp).
  std::string Package;
};

/// How the readers of a format may run.
struct OpenOptions {
  /// Kernel symbol tables keep to their portable code paths even where the
  /// CPU has the vector instructions of the fast ones (both give the same
  /// answers; tests and benchmarks run both).
  bool PortableReaders = false;
  ObjectOpenOptions Objects;
};

/// One format dwarfpack writes.
struct FileFormat {
  enum class Kind {
    Gsym,
    CompactAddressTable,
    KernelSymbolTable,
    KsymBlob,
    CtfDict,
    CtfArchive,
    ElfWithTable,
    ElfWithCtf,
  };
  Kind ID;
  /// Short name shown in messages, e.g. "GSYM".
  const char *Name;
  /// True when the bytes start like this format (magic, or for a format
  /// without one its exact structure).
  bool (*Identify)(llvm::StringRef Contents);
  /// Opens the bytes for lookups; the symbolizer keeps the buffer. Null for
  /// formats without addresses (type archives).
  llvm::Expected<std::unique_ptr<AddressSymbolizer>> (*Open)(
      std::unique_ptr<llvm::MemoryBuffer> Buffer, const OpenOptions &Opts);
  /// Prints the whole file in a stable text form.
  llvm::Error (*Dump)(llvm::MemoryBufferRef Buffer, llvm::raw_ostream &OS,
                      const OpenOptions &Opts);

  bool hasAddresses() const { return Open != nullptr; }
};

/// Every format, in the order they are tried: the ksym-blob, recognised by
/// its structure alone, after those with a magic number.
llvm::ArrayRef<FileFormat> knownFormats();

/// The format whose Identify accepts Contents, or null.
const FileFormat *identifyFormat(llvm::StringRef Contents);

/// Whether Contents start as an ELF file does (a binary given where a
/// table is expected, perhaps).
inline bool startsAsElf(llvm::StringRef Contents) {
  return Contents.starts_with("\x7f"
                              "ELF");
}

/// Maps a file read-only, without copying ("-": standard input). The error
/// names the file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mapInputFile(llvm::StringRef Path);

/// A mapped file and its format.
struct IdentifiedFile {
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  const FileFormat *Format = nullptr;
};

/// Maps Path and identifies its format; the error names the file when it
/// cannot be read or no format matches.
llvm::Expected<IdentifiedFile> openIdentifiedFile(llvm::StringRef Path);

/// What the conversion of an ELF object opened for lookups found, for the
/// caller to tell its user: answers from symbols alone are worse than
/// those from DWARF, and the DWARF may have had problems.
struct ObjectConversion {
  /// The separate debug file the DWARF came from, if any.
  std::optional<input::FoundDebugFile> DebugFile;
  /// Whether the object (or its debug file) has DWARF compile units.
  bool HasDwarf = false;
  /// A relocatable object (.o, .ko) without DWARF is not looked up in
  /// debug directories.
  bool Relocatable = false;
  /// Where a search for a debug file looked in vain.
  std::vector<std::string> Tried;
  /// The table came from the cache (ObjectOpenOptions::CacheDir): nothing
  /// was converted.
  bool FromCache = false;
  /// The conversion's warnings and notes.
  WarningLog Log;

  /// What answers from the table lack, for a warning; empty when nothing:
  /// a linked binary without DWARF (nor a debug file) is answered from its
  /// symbols alone.
  std::string missing() const;
};

/// A file opened for lookups, and its format.
struct OpenedTable {
  std::unique_ptr<AddressSymbolizer> Table;
  const FileFormat *Format = nullptr;
  /// For an ELF object converted in memory (ObjectOpenOptions), how; the
  /// table is then a compact one.
  std::unique_ptr<ObjectConversion> Converted;
  /// For an ELF object converted (or found in the cache): the object,
  /// which answers DATA queries (ObjectData.h).
  std::shared_ptr<ObjectDataSource> Data;
};

/// Identifies Buffer's format and opens it for lookups (an ELF object as
/// Opts.Objects says). Errors name the buffer's identifier: no format
/// matches, the format has no addresses, the reader refuses the bytes, or
/// the object cannot be converted.
llvm::Expected<OpenedTable>
openTable(std::unique_ptr<llvm::MemoryBuffer> Buffer,
          const OpenOptions &Opts = {});

/// Opens the ELF object in Buffer for lookups: its DWARF and symbols (or
/// those of its separate debug file, found as `dwarfpack gsym` finds it)
/// converted in memory, as Opts.Objects says, into the compact table
/// `gsym` writes (with details), whatever Opts.Objects.Convert says.
/// Errors name the buffer's identifier: not an object we read, DWARF that
/// cannot be read, no function at all.
llvm::Expected<OpenedTable>
openObjectTable(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                const OpenOptions &Opts);

/// Maps Path and opens it as openTable does.
llvm::Expected<OpenedTable> openTableFile(llvm::StringRef Path,
                                          const OpenOptions &Opts = {});

} // namespace dwarfpack

#endif
