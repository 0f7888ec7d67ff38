//===- BreakpadParser.h - Breakpad text symbol files (.sym) ---------------===//
//
// Reads a Breakpad symbol file (docs/symbol_files.md in google/breakpad) into
// the address model: FUNC records with their line records and INLINE trees
// become FunctionEntry values, PUBLIC records become symbol-only entries.
// STACK CFI / STACK WIN records are skipped. The parser works over the
// mapped text and allocates per function, not per line.
//
// Bad records are rejected one by one with a warning naming file and line;
// only a file without a MODULE first line or without any usable FUNC or
// PUBLIC record is an error. Addresses stay module-relative (base 0).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_BREAKPAD_BREAKPADPARSER_H
#define DWARFPACK_BREAKPAD_BREAKPADPARSER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dwarfpack {

/// True when Contents starts with a Breakpad MODULE record.
bool looksLikeBreakpad(llvm::StringRef Contents);

/// The MODULE and INFO CODE_ID records.
struct BreakpadModuleInfo {
  std::string OS;
  std::string Arch;
  std::string Id;     ///< MODULE id as written (debug id, hex + age).
  std::string Name;   ///< May contain spaces.
  std::string CodeId; ///< INFO CODE_ID value as written; empty if absent.
  /// The GNU build-id from CODE_ID when it is valid hex of at most 20 bytes,
  /// else derived from the MODULE id (see uuidFromBreakpadModuleId).
  llvm::SmallVector<uint8_t, 20> UUID;
};

/// What a parse read, kept and skipped. Rejected records are also in the
/// WarningLog, by kind.
struct BreakpadStats {
  uint64_t TextLines = 0;
  uint64_t Functions = 0; ///< FUNC records kept.
  uint64_t Publics = 0;   ///< PUBLIC records kept as symbol-only entries.
  uint64_t PublicsInFunctions = 0; ///< PUBLIC inside a FUNC: the FUNC wins.
  uint64_t PublicsAtZero =
      0;                    ///< PUBLIC at address 0, ignored as Breakpad does.
  uint64_t LineRecords = 0; ///< Line records kept.
  uint64_t Inlines = 0;     ///< INLINE records kept.
  /// Zero-size FUNC, line and INLINE ranges, ignored as Breakpad does.
  uint64_t EmptyRanges = 0;
  /// INLINE records whose ranges were all empty.
  uint64_t EmptyInlines = 0;
  uint64_t Files = 0;
  uint64_t InlineOrigins = 0;
  uint64_t StackRecords = 0; ///< STACK CFI / STACK WIN, skipped.
  uint64_t InfoSkipped = 0;  ///< INFO records other than CODE_ID.
  uint64_t Rejected = 0;     ///< Records rejected with a warning.
  /// Line and INLINE records of a rejected FUNC, dropped without a warning
  /// of their own.
  uint64_t DroppedWithFunction = 0;
};

/// Where the parser interns strings and files: a FunctionModel in the tool
/// (parseBreakpadIntoModel), something smaller in unit tests.
class BreakpadSink {
public:
  virtual ~BreakpadSink();
  virtual llvm::StringRef saveString(llvm::StringRef S) = 0;
  virtual FileId addFilePath(llvm::StringRef Path) = 0;
};

struct BreakpadSymbols {
  BreakpadModuleInfo Module;
  BreakpadStats Stats;
  /// FUNC and PUBLIC entries, sorted by address, non-overlapping. Names and
  /// files belong to the sink.
  std::vector<FunctionEntry> Functions;
};

/// Parses the text of one .sym file. FileName is only used in messages.
llvm::Expected<BreakpadSymbols> parseBreakpad(llvm::StringRef Contents,
                                              llvm::StringRef FileName,
                                              BreakpadSink &Sink,
                                              WarningLog &Log);

/// Parses into Model: adds the functions and sets UUID and BaseAddress (0).
llvm::Expected<BreakpadStats>
parseBreakpadIntoModel(llvm::StringRef Contents, llvm::StringRef FileName,
                       FunctionModel &Model, WarningLog &Log,
                       BreakpadModuleInfo *ModuleOut = nullptr);

/// The identifier a MODULE id stands for. Breakpad writes a Linux module id
/// as the first 16 bytes of the build-id read as a little-endian GUID, then
/// an age digit; this undoes the byte swap of the first three GUID fields,
/// giving the first 16 bytes of the build-id. For other systems the first 32
/// hex digits are taken as bytes in order. Empty if the id is not hex.
llvm::SmallVector<uint8_t, 20> uuidFromBreakpadModuleId(llvm::StringRef OS,
                                                        llvm::StringRef Id);

} // namespace dwarfpack

#endif
