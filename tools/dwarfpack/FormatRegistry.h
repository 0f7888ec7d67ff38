//===- FormatRegistry.h - Our file formats, recognised by content ---------===//
//
// `dwarfpack lookup` and `dwarfpack dump` accept every format we write and
// tell them apart by their bytes, never by file name. Each format registers a
// handler with a static FormatRegistration in its own source file here.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_FORMATREGISTRY_H
#define DWARFPACK_TOOLS_FORMATREGISTRY_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace dwarfpack {
namespace tool {

struct FormatHandler {
  /// Short name shown in messages, e.g. "GSYM".
  const char *Name;
  /// True when the bytes start like this format (magic check only).
  bool (*Identify)(llvm::StringRef Contents);
  /// Opens the file for lookups; the symbolizer owns the buffer. May be null
  /// for formats without addresses (type archives).
  llvm::Expected<std::unique_ptr<AddressSymbolizer>> (*Open)(
      std::unique_ptr<llvm::MemoryBuffer> Buffer);
  /// Prints the whole file in a stable text form.
  llvm::Error (*Dump)(llvm::MemoryBufferRef Buffer, llvm::raw_ostream &OS);
};

struct FormatRegistration {
  explicit FormatRegistration(const FormatHandler &Handler);
};

/// The handler whose Identify accepts Contents, or null.
const FormatHandler *identifyFormat(llvm::StringRef Contents);

/// A mapped input file and the handler of its format.
struct KnownFile {
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  const FormatHandler *Handler = nullptr;
};

/// Maps Path and identifies its format by content; the error names the
/// file when it cannot be read or no format we write matches.
llvm::Expected<KnownFile> openKnownFile(llvm::StringRef Path);

/// Maps a file read-only, without copying. The error names the file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mapInputFile(llvm::StringRef Path);

} // namespace tool
} // namespace dwarfpack

#endif
