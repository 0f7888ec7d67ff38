//===- ObjectData.h - DATA answers from an object's symbols and DWARF ----===//
//
// A DATA query asks what holds an address of a program's data, as
// sanitizers ask llvm-symbolizer to name a global variable in a report
// (ThreadSanitizer's "Location is global 'x' of size 4"). llvm-symbolizer
// answers with the symbol there (name, start, size) from the symbol
// table, and with the declaration (file, line) of the global variable
// whose bytes hold the address, from DWARF. Address tables record
// functions only, so these answers are read from the object itself when
// a query names it (lookup and addr2line given a binary): ObjectData reads
// them, and ObjectDataSource reads them once, at the first DATA query.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_OBJECTDATA_H
#define DWARFPACK_SYMBOLIZE_OBJECTDATA_H

#include "dwarfpack/DwarfInput/DebugFile.h"
#include "dwarfpack/Symbolize/ObjectFrames.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

class WarningLog;
namespace input {
class InputObject;
} // namespace input

/// The symbols and global variables of one object, for DATA queries.
class ObjectData {
public:
  /// Reads Obj's symbols (and its debug file's, as for functions) and the
  /// global variables of its units; a unit whose variables cannot be read
  /// is reported to Log and answers nothing. KeepTags: symbols keep the
  /// tags of tagged values (collectSymbolizerSymbols()).
  static llvm::Expected<ObjectData> read(const input::InputObject &Obj,
                                         WarningLog &Log, unsigned Threads = 1,
                                         bool KeepTags = false);

  /// What llvm-symbolizer 19 answers to DATA at Address: the last symbol
  /// (function or data) starting at or before it, when Address is inside
  /// it or it has no size, and the declaration of the first unit's
  /// variable whose bytes hold Address (else the STT_FILE symbol before a
  /// local symbol, with line 0). Nothing when neither is found.
  std::optional<DataSymbol> find(uint64_t Address) const;

  size_t numSymbols() const { return Symbols.size(); }
  size_t numVariables() const;

  /// A global variable: the bytes [Start, End) its location and type give,
  /// and where it is declared (File indexes Files; Line 0: not said).
  struct Variable {
    uint64_t Start = 0, End = 0;
    uint32_t File = 0, Line = 0;
  };

private:
  struct Symbol {
    uint64_t Start = 0, Size = 0;
    std::string Name;
    std::optional<std::string> File;
  };
  std::vector<Symbol> Symbols; ///< One per address, in address order.
  /// Each unit's variables by start, the last of a start kept (LLVM's map).
  std::vector<std::vector<Variable>> Units;
  /// Declaration files; 0 is none.
  std::vector<std::string> Files{""};
};

/// The ELF object a module's table was converted from, whose ObjectData
/// is read at the first DATA query and ObjectFrames at the first FRAME
/// query, and kept; the sessions of a batch's threads share them.
class ObjectDataSource {
public:
  /// Threads: for the walk of the object's units (0: all cores).
  /// KeepTags: as ObjectData::read()'s.
  ObjectDataSource(std::unique_ptr<llvm::MemoryBuffer> Object,
                   input::DebugFileOptions Debug, unsigned Threads,
                   bool KeepTags = false)
      : Object(std::move(Object)), Debug(std::move(Debug)), Threads(Threads),
        KeepTags(KeepTags) {}

  /// The object's data, read on the first call; the error says why there
  /// is none (the same error every time). Warnings: what reading it found
  /// wrong with the object (a line per kind), given to the first caller
  /// only.
  llvm::Expected<const ObjectData &>
  get(std::vector<std::string> *Warnings = nullptr);
  /// The object's functions' local variables, as get() reads its data.
  llvm::Expected<const ObjectFrames &>
  frames(std::vector<std::string> *Warnings = nullptr);

private:
  /// One thing read from the object: it, or why there is none.
  template <typename T> struct Lazy {
    std::once_flag Once;
    std::optional<T> Value;
    std::string Problem;
    std::vector<std::string> Warnings;
  };
  /// Opens the object (with its debug file) and reads L from it with
  /// ReadFrom, on the first call.
  template <typename T, typename ReadFn>
  llvm::Expected<const T &> read(Lazy<T> &L, std::vector<std::string> *Warnings,
                                 ReadFn ReadFrom);

  std::unique_ptr<llvm::MemoryBuffer> Object;
  input::DebugFileOptions Debug;
  unsigned Threads;
  bool KeepTags;
  Lazy<ObjectData> Data;
  Lazy<ObjectFrames> Frames;
};

} // namespace dwarfpack

#endif
