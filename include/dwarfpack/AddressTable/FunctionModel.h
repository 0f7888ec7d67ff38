//===- FunctionModel.h - In-memory model of an address table --------------===//
//
// The address side of dwarfpack: functions with their address ranges, line
// tables and inline call trees. Sources (DWARF, ELF symbol tables, Breakpad
// .sym files) fill a FunctionModel; writers (GSYM, the compact table) turn a
// finalized model into bytes. The model knows nothing of any file format.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_ADDRESSTABLE_FUNCTIONMODEL_H
#define DWARFPACK_ADDRESSTABLE_FUNCTIONMODEL_H

#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/LoadSegments.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace dwarfpack {

/// Half-open address range [Start, End).
struct AddressRange {
  uint64_t Start = 0;
  uint64_t End = 0;
  uint64_t size() const { return End - Start; }
  bool contains(uint64_t Addr) const { return Addr >= Start && Addr < End; }
  bool contains(const AddressRange &R) const {
    return R.Start >= Start && R.End <= End;
  }
  bool operator==(const AddressRange &O) const {
    return Start == O.Start && End == O.End;
  }
  bool operator<(const AddressRange &O) const {
    return Start != O.Start ? Start < O.Start : End < O.End;
  }
};

/// Index into FunctionModel's file table. 0 means "no file".
using FileId = uint32_t;

/// One row of a function's line table: from Address on, code belongs to
/// File:Line:Column (until the next row or the end of the function).
/// 24 bytes: a kernel has millions of rows.
struct LineEntry {
  uint64_t Address = 0;
  FileId File = 0;
  uint32_t Line = 0;
  /// 0: no column. 16 bits, as LLVM's line-table rows keep it (and so
  /// llvm-symbolizer prints it).
  uint16_t Column = 0;
  /// The row's discriminator (DWARF 4), 0 when none.
  uint32_t Discriminator = 0;

  /// Same source position (everything but the address).
  bool sameLocation(const LineEntry &O) const {
    return File == O.File && Line == O.Line && Column == O.Column &&
           Discriminator == O.Discriminator;
  }
  bool operator==(const LineEntry &O) const {
    return Address == O.Address && sameLocation(O);
  }
  bool operator!=(const LineEntry &O) const { return !(*this == O); }
};

/// Where a function is declared: DW_AT_decl_file and DW_AT_decl_line as
/// llvm-symbolizer finds them (its StartFileName and StartLine). File 0 and
/// line 0: unknown.
struct Declaration {
  FileId File = 0;
  uint32_t Line = 0;
  bool operator==(const Declaration &O) const {
    return File == O.File && Line == O.Line;
  }
  bool operator!=(const Declaration &O) const { return !(*this == O); }
};

/// A node of an inline call tree. The root describes the concrete function
/// itself (its ranges, its name, no call site); each child is a call that the
/// compiler inlined into its parent: code in the child's ranges belongs to
/// the child's Name, called from CallFile:CallLine:CallColumn in the parent.
struct InlineNode {
  /// Sorted, non-overlapping, non-empty, each inside one of the parent's.
  /// (std::vector: its noexcept move keeps vectors of nodes from copying
  /// whole subtrees when they grow.)
  std::vector<AddressRange> Ranges;
  llvm::StringRef Name;
  /// DW_AT_name, found through DW_AT_abstract_origin and
  /// DW_AT_specification as llvm-symbolizer --functions=short finds it;
  /// empty when none.
  llvm::StringRef ShortName;
  FileId CallFile = 0;
  uint32_t CallLine = 0;
  /// DW_AT_call_column and the call's DW_AT_GNU_discriminator (0: none),
  /// which llvm-symbolizer prints for the caller's frame.
  uint32_t CallColumn = 0;
  uint32_t CallDiscriminator = 0;
  /// The inlined function's declaration.
  Declaration Decl;
  /// DW_AT_low_pc of the call's DIE, the frame's StartAddress as
  /// llvm-symbolizer prints it; none when the DIE gives its code as
  /// DW_AT_ranges (llvm-symbolizer then prints no start). Not clipped with
  /// the ranges: a lookup in a slice of the call still prints it.
  std::optional<uint64_t> LowPC;
  std::vector<InlineNode> Children;
};

/// One contiguous address range of a function. A function whose code is
/// split over several ranges is several FunctionEntry records with the same
/// name (as in LLVM's GSYM).
struct FunctionEntry {
  AddressRange Range; ///< Range.size() may be 0: a symbol without size.
  /// The name lookups print (llvm-symbolizer's default): the symbol's that
  /// starts at Range.Start when there is one (finalize(), rule 2), else
  /// DwarfName.
  llvm::StringRef Name;
  /// Ascending by address; when present, the first row is at Range.Start.
  std::vector<LineEntry> Lines;
  /// Where the line table's own rows start: Lines.front() stands at
  /// Range.Start for GSYM, but llvm-symbolizer finds no line for the code
  /// before LinesFrom (a .cold part whose line sequence starts after its
  /// first bytes). Range.End when the only row is the declaration's (no
  /// row describes the code); 0 (or Range.Start) when the rows start at
  /// Range.Start.
  uint64_t LinesFrom = 0;
  /// The function's declaration (of its DWARF description; none for
  /// symbols).
  Declaration Decl;

  /// What the DWARF description says, where it differs from what a symbol
  /// says: llvm-symbolizer --functions=short|none reads DWARF only, and
  /// binutils' addr2line names functions from DWARF. FromDwarf: a
  /// subprogram DIE describes the code (false for symbols and the line
  /// rows given to them).
  bool FromDwarf = false;
  /// The DIE's linkage name, else its DW_AT_name (found through
  /// DW_AT_abstract_origin and DW_AT_specification), before a symbol
  /// renames the entry; DW_AT_name alone (ShortName) for --functions=short.
  llvm::StringRef DwarfName, ShortName;
  /// The DIE's DW_AT_low_pc, llvm-symbolizer's StartAddress with
  /// --functions=short|none; none when the DIE gives DW_AT_ranges.
  std::optional<uint64_t> LowPC;
  /// The file named by the STT_FILE symbol that precedes the local symbol
  /// naming this entry: llvm-symbolizer prints it as the file of an
  /// address without a line (with linkage names), binutils' addr2line as
  /// the file of code only a symbol describes. File 0 when that STT_FILE
  /// has no name (GNU ld puts one before the symbols it makes local, such
  /// as hidden ones, and binutils prints an empty file for them); none for
  /// a global symbol or one no STT_FILE precedes.
  std::optional<FileId> SymbolFile;

  /// Present only when the function has at least one inlined call.
  std::optional<InlineNode> Inline;
  /// Where the description comes in the input: the index of its DWARF
  /// compile unit (0 for other sources). Of several descriptions of one
  /// range, the earliest wins: GNU ld points the DWARF of discarded COMDAT
  /// copies at the kept copy, which is the first in link order, like the
  /// unit that describes it.
  uint32_t InputOrder = 0;
  /// Where the description comes in its unit: the DIE order of the
  /// subprograms the unit describes. Of several descriptions of one range in
  /// one unit, the last wins, as in llvm-symbolizer (GNU as describes each
  /// alias of an assembly function, such as glibc's __kill and __GI_kill, by
  /// a subprogram of the same range).
  uint32_t UnitOrder = 0;

  bool hasDebugInfo() const { return !Lines.empty() || Inline.has_value(); }
  /// Where the rows of the line table start (LinesFrom, clamped to the
  /// range).
  uint64_t linesStart() const {
    return std::min(std::max(LinesFrom, Range.Start), Range.End);
  }
};

/// The part of F inside R (R must intersect F.Range): the line table keeps
/// the row in effect at R.Start (moved to R.Start) and the rows inside R; the
/// inline tree keeps the range parts inside R and drops nodes left empty.
FunctionEntry sliceFunction(const FunctionEntry &F, AddressRange R);

/// Copies what From says of its DWARF description and its symbol's file
/// (FromDwarf, DwarfName, ShortName, LowPC, SymbolFile).
void copyDescription(const FunctionEntry &From, FunctionEntry &To);

class FunctionModel;

/// Total order on entries of model M by content: range, then debug info
/// first, then (among entries with debug info) InputOrder, then UnitOrder
/// from last to first, then named first,
/// then name, then line rows (files compared by path), then declaration,
/// then inline tree.
/// Returns <0, 0 or >0. Never depends on the order of insertion.
int compareFunctions(const FunctionEntry &A, const FunctionEntry &B,
                     const FunctionModel &M);

/// A source file. A path is split at its last '/', except one that DWARF
/// names whole (an absolute file name in a line table): that one is all
/// Base, with an empty Dir, so that readers can print it whole where
/// llvm-symbolizer does (--basenames).
struct FileEntry {
  llvm::StringRef Dir;
  llvm::StringRef Base;
};

/// Path split at its last '/' ("/x" keeps "/" as its directory; a path
/// without '/' is all base name).
std::pair<llvm::StringRef, llvm::StringRef> splitPath(llvm::StringRef Path);

/// Functions, interned strings and files of one module (one executable,
/// library, kernel, kernel module or .sym file).
///
/// Strings and files may be added from several threads. Everything else is
/// single-threaded. Output must not depend on the order in which threads
/// added things: finalize() sorts by content, and writers number strings and
/// files in the order they first appear in the finalized function list.
class FunctionModel {
public:
  FunctionModel();

  /// Copies S into storage owned by the model (deduplicated). Thread-safe.
  llvm::StringRef saveString(llvm::StringRef S);

  /// Interns a file given as directory and base name. Thread-safe. The ids
  /// returned depend on insertion order; use them only through this model.
  FileId addFile(llvm::StringRef Dir, llvm::StringRef Base);
  /// Interns a full path, split at the last '/' (splitPath).
  FileId addFilePath(llvm::StringRef Path);
  const FileEntry &file(FileId Id) const { return Files[Id]; }
  size_t numFiles() const { return Files.size(); }

  /// Adds a function. Not thread-safe: collect per thread and add in a fixed
  /// order, or add everything before finalize() from one thread.
  void addFunction(FunctionEntry F) { Functions.push_back(std::move(F)); }
  void appendFunctions(std::vector<FunctionEntry> &&Fs);

  /// Sorts functions by address and resolves duplicates and overlaps with
  /// fixed, content-based rules (documented in docs/UserGuide.md), reporting
  /// what it drops to Log. After this the list is ready for a writer:
  /// entries are sorted, do not overlap and have a non-zero size.
  ///
  /// Rules, in order:
  ///  1. A zero-size entry (a symbol without size) extends to the next
  ///     distinct start of any entry, but not past the end of the executable
  ///     range that contains it (the last one reaches that end). One that
  ///     lies in no executable range and has no successor is dropped.
  ///  2. An entry with debug info takes the name of an entry without (a
  ///     symbol) that starts at the same address — the smallest such name.
  ///     Symbols name clones ("foo.part.0"), the alias the linker kept, and
  ///     give mangled names where DWARF has none; llvm-symbolizer prints
  ///     them for the outermost frame too.
  ///  3. Among entries with identical ranges one survives: an entry with
  ///     debug info beats one without; then a named one beats an unnamed
  ///     one; then the smaller name (byte order);
  ///     then the smaller line table / inline tree. The losers are dropped
  ///     (counted when they carried different debug info).
  ///  4. Entries with debug info that overlap each other: the entry that
  ///     starts later owns the addresses from its start to its end; an
  ///     enclosing entry keeps the pieces before and after it (line table
  ///     and inline tree cut to each piece). Counted.
  ///  5. The same rule among entries without debug info (symbols): an inner
  ///     symbol (alias, label) owns the addresses from its start on.
  ///  6. A symbol that starts inside an entry with debug info names the
  ///     code from its start to its end (or the entry's end); the entry is
  ///     cut there (assembly labels such as entry_SYSCALL_64_after_hwframe,
  ///     as llvm-symbolizer and kallsyms name that code).
  ///  7. Entries with debug info win over entries without: a symbol keeps
  ///     only the parts of its range that no debug entry covers.
  ///  8. A symbol (or the part of it) over LineOnlyCode gets those line
  ///     rows; it is cut where the line rows start and end.
  void finalize(WarningLog &Log);

  const std::vector<FunctionEntry> &functions() const { return Functions; }
  std::vector<FunctionEntry> &functions() { return Functions; }

  /// Module identity. The UUID is the GNU build-id (or what stands for it).
  uint64_t BaseAddress = 0;
  llvm::SmallVector<uint8_t, 20> UUID;
  bool IsLittleEndian = true;
  /// The size of the module's addresses: 4 for a 32-bit ELF file
  /// (ELFCLASS32), whose addresses binutils' addr2line prints with 8 hex
  /// digits; 8 otherwise.
  unsigned AddressBytes = 8;
  /// Where the file's bytes are loaded (its PT_LOAD segments), so that a
  /// (build-id, file offset) sample resolves from the table alone; empty
  /// for relocatable objects and Breakpad input.
  std::vector<LoadSegment> LoadSegments;
  /// Address ranges of the executable sections, sorted. finalize() sizes the
  /// last zero-size symbol of a section up to the section's end.
  std::vector<AddressRange> ExecutableRanges;
  /// Line rows of code that no function with debug info describes (assembly
  /// with line info, functions the compiler emitted without a DIE): entries
  /// with a range and Lines but no name. finalize() gives these rows to the
  /// symbols that cover the code (rule 8) and then clears the list.
  std::vector<FunctionEntry> LineOnlyCode;

private:
  std::mutex StringMutex;
  llvm::BumpPtrAllocator Alloc;
  llvm::UniqueStringSaver Strings{Alloc};
  std::mutex FileMutex;
  std::vector<FileEntry> Files;
  llvm::DenseMap<std::pair<llvm::StringRef, llvm::StringRef>, FileId> FileIds;
  std::vector<FunctionEntry> Functions;
};

} // namespace dwarfpack

#endif
