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

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace dwarfpack {

/// How the readers of a format may run.
struct OpenOptions {
  /// Kernel symbol tables keep to their portable code paths even where the
  /// CPU has the vector instructions of the fast ones (both give the same
  /// answers; tests and benchmarks run both).
  bool PortableReaders = false;
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

/// A file opened for lookups, and its format.
struct OpenedTable {
  std::unique_ptr<AddressSymbolizer> Table;
  const FileFormat *Format = nullptr;
};

/// Identifies Buffer's format and opens it for lookups. Errors name the
/// buffer's identifier: no format matches, the format has no addresses,
/// or the reader refuses the bytes.
llvm::Expected<OpenedTable>
openTable(std::unique_ptr<llvm::MemoryBuffer> Buffer,
          const OpenOptions &Opts = {});

/// Maps Path and opens it as openTable does.
llvm::Expected<OpenedTable> openTableFile(llvm::StringRef Path,
                                          const OpenOptions &Opts = {});

} // namespace dwarfpack

#endif
