//===- Frame.h - Results of an address lookup -----------------------------===//
//
// The common result of looking an address up in any of our formats (GSYM,
// the compact address table, kernel symbol tables), and the interface every
// reader offers to the `lookup` command.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_FRAME_H
#define DWARFPACK_SYMBOLIZE_FRAME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// Whether a table's file of directory Dir and base name Base is a path the
/// table keeps whole (SourceFrame::FileNameWhole): no directory, and a
/// base that is an absolute path (of any system, as DWARF's can be).
inline bool isWholePath(llvm::StringRef Dir, llvm::StringRef Base) {
  using namespace llvm::sys::path;
  // Every frame of a batch asks, most with no file at all: only a base
  // that starts as an absolute path can be one (a separator, or a drive's
  // colon second), and only such a base is parsed.
  if (!Dir.empty() || Base.empty() ||
      !(Base[0] == '/' || Base[0] == '\\' ||
        (Base.size() > 1 && Base[1] == ':')))
    return false;
  return is_absolute(Base, Style::posix) || is_absolute(Base, Style::windows);
}

/// One frame of a (possibly inlined) call stack at an address.
struct SourceFrame {
  /// The name as stored in the table (a linkage name may still be mangled).
  std::string FunctionName;
  /// Full path of the source file; empty when unknown.
  std::string FileName;
  /// The table keeps FileName whole, without a directory of its own,
  /// because DWARF's line table named the file by that absolute path
  /// (clang does for a file it compiles when given an absolute path):
  /// llvm-symbolizer's --basenames prints such a path whole.
  bool FileNameWhole = false;
  uint32_t Line = 0;
  /// 0 when unknown (as DWARF's line tables say "no column").
  uint32_t Column = 0;
  /// The line row's discriminator (DWARF 4), 0 when none or unknown.
  uint32_t Discriminator = 0;
  /// Where the function (outermost frame) or the inlined function (inlined
  /// frames) is declared: DW_AT_decl_file and DW_AT_decl_line of its DIE,
  /// which llvm-symbolizer prints as StartFileName and StartLine. Empty and
  /// 0 when the table does not record them.
  std::string StartFileName;
  bool StartFileNameWhole = false; ///< As FileNameWhole.
  uint32_t StartLine = 0;
  /// Start of the function (outermost frame) or of the inlined range that
  /// contains the address (inlined frames); in tables that record it, the
  /// inlined call's DW_AT_low_pc, as llvm-symbolizer prints it.
  uint64_t StartAddress = 0;
  /// False when llvm-symbolizer prints no start for the frame (an inlined
  /// call whose DIE has DW_AT_ranges instead of DW_AT_low_pc); JSON then
  /// has "StartAddress":"". StartAddress still holds the range start.
  bool HasStartAddress = true;
  /// What llvm-symbolizer --functions=short prints, DWARF's DW_AT_name,
  /// when the table records it: tables record it only where it is not
  /// shortFunctionName() of the frame's DWARF name (DwarfName or
  /// FunctionName). Empty with HasShortName: DWARF describes no function
  /// there (code that only a symbol names), so the frame has no short name.
  std::string ShortName;
  bool HasShortName = false;
  /// Outermost frame: the name DWARF gives the function (its linkage name,
  /// else DW_AT_name), when the table records one because a symbol named
  /// the function otherwise (an alias, a static C++ function); binutils'
  /// addr2line prints it.
  std::string DwarfName;
  bool HasDwarfName = false;
  /// Outermost frame: whether its DWARF description gives a start
  /// (DW_AT_low_pc, not DW_AT_ranges); with --functions=short|none
  /// llvm-symbolizer prints a start only then.
  bool HasDwarfStart = true;
  /// Outermost frame: the STT_FILE name of the function's local symbol,
  /// which llvm-symbolizer prints (with linkage names) as the file of an
  /// address without a line; empty when none.
  std::string SymbolFileName;
  /// The table names that STT_FILE, even one without a name: binutils'
  /// addr2line prints it (an empty one too) as the file of code that only
  /// a symbol describes. Tables record it only where a lookup can find no
  /// line.
  bool HasSymbolFile = false;
  /// Size of the symbol, when the table knows it (kernel symbol tables).
  std::optional<uint64_t> Size;
  /// Kernel module of a kallsyms symbol; empty for the core kernel.
  std::string Module;
  /// nm-style symbol type letter, 0 when not applicable.
  char SymbolType = 0;
};

/// All frames at one address, innermost first. No frames: not found.
struct LookupResult {
  uint64_t Address = 0;
  std::vector<SourceFrame> Frames;
  /// Added to the frames' StartAddress, gives them in the address space of
  /// the lookup: a running kernel's KASLR offset for its core, whose frames
  /// keep the table's (link-time) starts as llvm-symbolizer --adjust-vma
  /// prints them; 0 otherwise.
  uint64_t StartSlide = 0;
  /// The table records what llvm-symbolizer reads from DWARF alone
  /// (SourceFrame's ShortName, DwarfName, HasDwarfStart...): a compact
  /// table with details. Without, the printer guesses it.
  bool HasDetails = false;
};

/// A SourceFrame whose strings lie elsewhere: in a LookupResult, or in a
/// table's reader and the lookup buffer of the thread that looked the
/// address up. What the printers read, so that an answer is printed
/// without copying its strings first.
struct FrameView {
  llvm::StringRef FunctionName, FileName;
  bool FileNameWhole = false;
  uint32_t Line = 0, Column = 0, Discriminator = 0;
  llvm::StringRef StartFileName;
  bool StartFileNameWhole = false;
  uint32_t StartLine = 0;
  uint64_t StartAddress = 0;
  bool HasStartAddress = true;
  llvm::StringRef ShortName;
  bool HasShortName = false;
  llvm::StringRef DwarfName;
  bool HasDwarfName = false;
  bool HasDwarfStart = true;
  llvm::StringRef SymbolFileName;
  bool HasSymbolFile = false;
  std::optional<uint64_t> Size;
  llvm::StringRef Module;
  char SymbolType = 0;

  FrameView() = default;
  explicit FrameView(const SourceFrame &F)
      : FunctionName(F.FunctionName), FileName(F.FileName),
        FileNameWhole(F.FileNameWhole), Line(F.Line), Column(F.Column),
        Discriminator(F.Discriminator), StartFileName(F.StartFileName),
        StartFileNameWhole(F.StartFileNameWhole), StartLine(F.StartLine),
        StartAddress(F.StartAddress), HasStartAddress(F.HasStartAddress),
        ShortName(F.ShortName), HasShortName(F.HasShortName),
        DwarfName(F.DwarfName), HasDwarfName(F.HasDwarfName),
        HasDwarfStart(F.HasDwarfStart), SymbolFileName(F.SymbolFileName),
        HasSymbolFile(F.HasSymbolFile), Size(F.Size), Module(F.Module),
        SymbolType(F.SymbolType) {}

  /// The frame with its own strings.
  SourceFrame toSourceFrame() const {
    SourceFrame F;
    assignTo(F);
    return F;
  }
  /// Makes F this frame, its strings assigned (keeping their storage).
  void assignTo(SourceFrame &F) const {
    F.FunctionName.assign(FunctionName.data(), FunctionName.size());
    F.FileName.assign(FileName.data(), FileName.size());
    F.FileNameWhole = FileNameWhole;
    F.Line = Line;
    F.Column = Column;
    F.Discriminator = Discriminator;
    F.StartFileName.assign(StartFileName.data(), StartFileName.size());
    F.StartFileNameWhole = StartFileNameWhole;
    F.StartLine = StartLine;
    F.StartAddress = StartAddress;
    F.HasStartAddress = HasStartAddress;
    F.ShortName.assign(ShortName.data(), ShortName.size());
    F.HasShortName = HasShortName;
    F.DwarfName.assign(DwarfName.data(), DwarfName.size());
    F.HasDwarfName = HasDwarfName;
    F.HasDwarfStart = HasDwarfStart;
    F.SymbolFileName.assign(SymbolFileName.data(), SymbolFileName.size());
    F.HasSymbolFile = HasSymbolFile;
    F.Size = Size;
    F.Module.assign(Module.data(), Module.size());
    F.SymbolType = SymbolType;
  }
};

/// The frames of one lookup as views (AddressSymbolizer::lookupViews),
/// innermost first; no frames: not found. Storage holds the strings that
/// lie nowhere else: a LookupResult of tables that answer with one, paths
/// a compact table joins for the lookup.
struct FrameViews {
  llvm::SmallVector<FrameView, 8> Frames;
  /// As LookupResult::HasDetails.
  bool HasDetails = false;
  /// A lookup of any address in [SameFrom, SameTo) answers these frames:
  /// a batch of addresses in order answers the next ones without a lookup
  /// (most of a profile's addresses share their answer with the address
  /// before). Empty after a lookup that found nothing.
  uint64_t SameFrom = 0, SameTo = 0;
  LookupResult Storage;

  /// Says that only Address answers these frames (not an address past the
  /// last, which has no successor).
  void sameAtOnly(uint64_t Address) {
    SameFrom = Address;
    SameTo = Frames.empty() ? Address : Address + 1;
  }
  bool answersSame(uint64_t Address) const {
    return Address >= SameFrom && Address < SameTo;
  }
};

/// A file of one of our formats, opened for address lookups.
class AddressSymbolizer {
public:
  virtual ~AddressSymbolizer() = default;
  /// Looks one address up. Not finding it is not an error; a corrupt record
  /// found on the way is.
  virtual llvm::Expected<LookupResult> lookup(uint64_t Address) const = 0;
  /// Looks one address up into Result, as lookup() does, reusing Result's
  /// storage (its frames and their strings): what a loop of lookups calls.
  /// Result is left unspecified by an error.
  virtual llvm::Error lookupInto(uint64_t Address, LookupResult &Result) const {
    llvm::Expected<LookupResult> R = lookup(Address);
    if (!R)
      return R.takeError();
    Result = std::move(*R);
    return llvm::Error::success();
  }
  /// Looks one address up into Out as views, valid until Out's next
  /// lookup and this thread's next lookup in any table: what a loop that
  /// prints each answer calls. Out is left unspecified by an error.
  /// Tables that answer with a LookupResult keep it in Out.Storage.
  virtual llvm::Error lookupViews(uint64_t Address, FrameViews &Out) const {
    if (llvm::Error E = lookupInto(Address, Out.Storage))
      return E;
    Out.HasDetails = Out.Storage.HasDetails;
    Out.Frames.assign(Out.Storage.Frames.begin(), Out.Storage.Frames.end());
    Out.sameAtOnly(Address);
    return llvm::Error::success();
  }
  /// The build-id the table records; empty when none.
  virtual llvm::ArrayRef<uint8_t> uuid() const { return {}; }
  /// The size of the module's addresses (4 for a 32-bit ELF file), to
  /// which binutils' addr2line pads addresses; 8 when the format does not
  /// record it.
  virtual unsigned addressBytes() const { return 8; }
  /// The address at which byte Offset of the module's file is loaded
  /// (std::nullopt: no loaded segment holds it), for samples recorded as
  /// (build-id, file offset). An error when the table records no load
  /// segments.
  virtual llvm::Expected<std::optional<uint64_t>>
  fileOffsetToAddress(uint64_t Offset) const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the format records no load segments to convert file offsets with");
  }
  /// For a table of a kernel image: the link-time address of the kernel's
  /// start, its `_text` symbol, against which a running kernel's KASLR
  /// offset is measured. An error says why the table cannot tell.
  virtual llvm::Expected<uint64_t> kernelTextAddress() const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the format records neither a '_text' symbol nor load segments");
  }
  /// Calls Fn(Start, Name) for every function of the table, in address
  /// order, with the name a lookup gives its outermost frame (to place a
  /// kernel module's table where a running kernel loaded the module). An
  /// error for a corrupt record, or when the format lists no functions.
  virtual llvm::Error forEachFunction(
      llvm::function_ref<void(uint64_t Start, llvm::StringRef Name)> Fn) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the format lists no functions");
  }
  /// Calls Fn(Start, Name) for every function that DWARF names otherwise
  /// than forEachFunction does, in address order: a name that a symbol
  /// query or a profiler may give it (glibc's `strnlen` is DWARF's
  /// `__strnlen_ifunc`, perf's name for it). Nothing for formats that keep
  /// one name per function.
  virtual llvm::Error forEachDwarfName(
      llvm::function_ref<void(uint64_t Start, llvm::StringRef Name)> Fn) const {
    return llvm::Error::success();
  }
  /// The start addresses of the functions named Name, in address order,
  /// for formats with an index by name; std::nullopt for the others, whose
  /// names SymbolResolver gathers from forEachFunction.
  virtual llvm::Expected<std::optional<std::vector<uint64_t>>>
  functionsNamed(llvm::StringRef Name) const {
    return std::nullopt;
  }
};

} // namespace dwarfpack

#endif
