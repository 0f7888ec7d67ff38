//===- Printer.h - llvm-symbolizer and addr2line compatible output --------===//
//
// Prints LookupResults as `llvm-symbolizer` (LLVM 19) prints them in its
// three output styles, LLVM (the default), GNU and JSON, with its options
// (--functions, --basenames, --addresses, --pretty-print, --no-inlines),
// and as GNU binutils' `addr2line` prints them. Byte for byte where our
// tables carry the information. Independent of the table format: GSYM, the
// compact address table and kernel symbol tables all print through here.
//
// What a table does not record is printed the way llvm-symbolizer prints
// unknown values: column 0, discriminator 0, and in JSON an empty
// StartFileName and StartLine 0. docs/UserGuide.md lists the differences.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_PRINTER_H
#define DWARFPACK_SYMBOLIZE_PRINTER_H

#include "dwarfpack/AddressTable/FunctionNames.h"
#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/SourceContext.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {

enum class OutputStyle {
  LLVM,
  GNU,
  JSON,
  /// GNU binutils' addr2line: GNU's layout, but the address padded to 16
  /// hex digits, `FILE:?` for an unknown line, `??:0` for nothing found.
  Addr2Line,
};

/// Which name a frame is printed with (llvm-symbolizer --functions).
enum class FunctionNames {
  /// None: no function names.
  None,
  /// The name without its scope, parameters or return type, as DWARF's
  /// DW_AT_name gives it (`add` for `ns::Acc::add(int)`).
  Short,
  /// The name as the table stores it (a linkage name, demangled when
  /// Demangle is set).
  Linkage,
};

/// How source paths are printed (llvm-symbolizer --basenames,
/// --relativenames).
enum class PathStyle {
  /// As the table stores them: the full path.
  Absolute,
  /// The last component only.
  BaseName,
};

struct PrinterOptions {
  OutputStyle Style = OutputStyle::LLVM;
  /// Demangle function names (llvm::demangle), as llvm-symbolizer does by
  /// default.
  bool Demangle = true;
  FunctionNames Functions = FunctionNames::Linkage;
  PathStyle Paths = PathStyle::Absolute;
  /// Print every inlined frame (llvm-symbolizer --inlines). When false, one
  /// frame per address, as llvm-symbolizer --no-inlines prints it: in GNU
  /// style (and addr2line's) the innermost frame; in LLVM and JSON style
  /// with linkage names, the outermost function's name and start with the
  /// innermost location, else the innermost frame.
  bool Inlines = true;
  /// Print the address before its answer (--addresses, -a).
  bool PrintAddress = false;
  /// In addr2line style, the hex digits of that address (binutils pads it
  /// to the module's address size: 8 for a 32-bit module).
  unsigned AddressDigits = 16;
  /// One line per frame, `NAME at FILE:LINE`, inlined frames prefixed by
  /// ` (inlined by) ` (--pretty-print, -p); JSON indented.
  bool Pretty = false;
  /// The "ModuleName" of JSON output: the file as named by the user.
  std::string ModuleName;
  /// Each frame's location as labelled lines, as llvm-symbolizer --verbose
  /// prints them in LLVM and GNU style: file, function start file, line
  /// and (LLVM style) address, line, column, discriminator.
  bool Verbose = false;
  /// This many lines of each frame's source file around its line, after
  /// its location (LLVM and GNU style) or as its "Source" (JSON), as
  /// llvm-symbolizer --print-source-context-lines (SourceContext.h).
  int SourceContextLines = 0;
};

class ResultPrinter {
public:
  ResultPrinter(llvm::raw_ostream &OS, PrinterOptions Opts);
  ~ResultPrinter();

  /// JSON: gather the following results into one array printed by
  /// endList() (llvm-symbolizer does this for addresses given as
  /// arguments). Other styles ignore both calls.
  void beginList();
  void endList();

  /// Prints the frames of one lookup; no frames prints the "??" record.
  void print(const LookupResult &Result);
  /// Same, from views (AddressSymbolizer::lookupViews): most answers are
  /// printed without a copy of their strings.
  void print(uint64_t Address, llvm::ArrayRef<FrameView> Frames,
             bool HasDetails);
  /// Where the last print() of frames put the address in its answer's
  /// text, which printAgain() writes again for another address.
  struct AnswerShape {
    /// The text is the frames' and the address's alone: one record (not
    /// an element of a list) in a style that prints the address at most
    /// once.
    bool Repeatable = false;
    /// Counted from the answer's first byte; Size 0: not printed.
    uint64_t AddressAt = 0, AddressSize = 0;
  };
  const AnswerShape &lastAnswerShape() const { return Shape; }
  /// Whether print() writes each answer to the stream in one piece (JSON
  /// lines, built first in a buffer of the printer's).
  bool printsInOnePiece() const {
    return Opts.Style == OutputStyle::JSON && !Opts.Pretty;
  }
  /// Writes Text, the text of an answer of the shape S (a Repeatable
  /// lastAnswerShape()), with Address in place of its address: what
  /// print() writes for Address when its lookup gives the same frames,
  /// without printing them again.
  void printAgain(llvm::StringRef Text, const AnswerShape &S, uint64_t Address);
  /// A lookup that failed with Message. JSON gets an "Error" object; the
  /// plain styles print the "??" record (the caller reports the message).
  void printError(uint64_t Address, llvm::StringRef Message);
  /// No answer for Address, from a module that failed before: the "??"
  /// record, in JSON an empty "Symbol" list (llvm-symbolizer reports a
  /// module's error once, then answers so).
  void printNoAnswer(uint64_t Address);
  /// An input that asks nothing (empty, or not a query): the "??" record
  /// without an address. WithModule: JSON names the module (an input
  /// llvm-symbolizer could not read; an empty line names none).
  void printInvalidInput(bool WithModule = true);
  /// The answer to a query by symbol name (SymbolQuery.h): one frame per
  /// match, as llvm-symbolizer prints them (as with --no-inlines in LLVM
  /// style, whatever the options say); "??" when none. JSON:
  /// {"Loc":[frames],"ModuleName":..,"SymName":SymName}.
  void printSymbol(llvm::StringRef SymName,
                   llvm::ArrayRef<LookupResult> Matches);
  /// The answer to llvm-symbolizer's `DATA` command: the symbol that holds
  /// Address (its name, start and size, in decimal), or "??" and 0 0 when
  /// none; the declaration's file and line are unknown (`??:?`). Without an
  /// address: a DATA query by symbol name (SymName), which llvm-symbolizer
  /// does not answer.
  void printData(std::optional<uint64_t> Address,
                 const std::optional<DataSymbol> &Symbol,
                 llvm::StringRef SymName = "");
  /// The answer to llvm-symbolizer's `FRAME` command when no local
  /// variables are known: `??`, JSON "Frame":[].
  void printNoLocals(std::optional<uint64_t> Address,
                     llvm::StringRef SymName = "");
  /// The answer to `FRAME`: per local variable four lines (its function,
  /// its name, `FILE:LINE` of its declaration, then its frame offset, size
  /// and tag offset, `??` for each not known); `??` when there are none.
  /// JSON: "Frame":[{"DeclFile", "DeclLine", "FrameOffset" (when known),
  /// "FunctionName", "Name", "Size", "TagOffset"}].
  void printLocals(uint64_t Address, llvm::ArrayRef<FrameLocal> Locals);

  /// The "ModuleName" of the following JSON records (queries that name
  /// their module, as BUILDID: lines do).
  void setModuleName(std::string Name) { Opts.ModuleName = std::move(Name); }

  /// The frames print() prints for an answer (Frames, HasDetails), as
  /// copies in Out: the options applied to which frames are kept and what
  /// they are named, but not yet to how (displayName(), displayPath()).
  void printedFrames(llvm::ArrayRef<FrameView> Frames, bool HasDetails,
                     std::vector<SourceFrame> &Out) const;
  /// The displayed form of a name under these options (demangled or not,
  /// short or not).
  std::string displayName(llvm::StringRef Name) const;
  /// Same, without a copy when the name prints as it is; else the
  /// displayed form is put in Storage.
  llvm::StringRef displayName(llvm::StringRef Name, std::string &Storage) const;
  /// The displayed form of a data symbol's name (demangled or not).
  std::string dataName(llvm::StringRef Name) const {
    return Opts.Demangle ? llvm::demangle(Name) : Name.str();
  }
  /// The displayed form of a source path under these options (Whole: as
  /// SourceFrame::FileNameWhole).
  std::string displayPath(llvm::StringRef Path, bool Whole) const {
    return pathView(Path, Whole).str();
  }

private:
  /// V in decimal, or ?? when not known.
  template <typename T> void printNumber(const std::optional<T> &V);
  /// The frames to print of R: R's own when they print as they are, else
  /// the changed copies put in Changed.
  llvm::ArrayRef<SourceFrame>
  selectFrames(const LookupResult &R, std::vector<SourceFrame> &Changed) const;
  /// Changes F (copies of an answer's frames) as the options ask: names,
  /// starts, files, the frames kept (selectFrames when they do not print
  /// as given). HasDetails: as LookupResult's.
  void changeFrames(std::vector<SourceFrame> &F, bool HasDetails) const;
  /// Whether the NumFrames frames of an answer print as the table gives
  /// them (LastHasFile: its outermost frame has a file): selectFrames
  /// changes nothing then.
  bool printsAsGiven(size_t NumFrames, bool LastHasFile) const;
  /// print() once the frames to print are chosen.
  void printFrames(uint64_t Address, llvm::ArrayRef<FrameView> Frames);
  /// The frame's name with --functions=short.
  static std::string shortName(const SourceFrame &F);
  void printHeader(std::optional<uint64_t> Address);
  /// Writes Address as the plain styles' header shows it (in JSON, as
  /// "Address" holds it).
  void writeAddress(uint64_t Address);
  /// Shape's AddressAt, for an address about to be written.
  void markAddress() { Shape.AddressAt = OS.tell() - AnswerStart; }
  /// Shape's AddressSize, for an address just written.
  void markAddressEnd() {
    Shape.AddressSize = OS.tell() - AnswerStart - Shape.AddressAt;
  }
  void printFrame(const FrameView *F, bool Inlined);
  /// --verbose's lines for F's location, File as printed.
  void printVerbose(const FrameView *F, llvm::StringRef File);
  /// Writes the --print-source-context-lines text for Line of File (as
  /// printed) to Out; nothing when there is none.
  void writeContext(llvm::raw_ostream &Out, llvm::StringRef File,
                    uint32_t Line) const;
  void printFooter();
  void printPlain(std::optional<uint64_t> Address,
                  llvm::ArrayRef<FrameView> Frames);
  /// The part of Path that is printed (a substring); Whole: as
  /// SourceFrame::FileNameWhole.
  llvm::StringRef pathView(llvm::StringRef Path, bool Whole) const;
  /// Calls Member(Key, Value) with each member of the frame's JSON object,
  /// in order; Value is a uint64_t or a StringRef valid during the call.
  template <typename MemberFn>
  void forEachFrameMember(const FrameView *F, MemberFn &&Member) const;
  /// One answer as one line of JSON, written as it is made.
  void printJSONLine(uint64_t Address, llvm::ArrayRef<FrameView> Frames);
  llvm::json::Object frameToJSON(const FrameView *F) const;
  llvm::json::Object requestToJSON(std::optional<uint64_t> Address,
                                   llvm::StringRef SymName) const;
  void emit(llvm::json::Value V);

  llvm::raw_ostream &OS;
  PrinterOptions Opts;
  std::unique_ptr<llvm::json::Array> List;
  /// The files of SourceContextLines, read once while they are named.
  mutable SourceFiles Sources;
  /// Printing the answer to a symbol query (printSymbol()).
  bool SingleFrame = false;
  /// The last print() of frames: where its text began (OS.tell()) and its
  /// shape.
  uint64_t AnswerStart = 0;
  AnswerShape Shape;
  /// printJSONLine()'s text, which keeps its capacity.
  llvm::SmallVector<char, 0> JSONText;
};

} // namespace dwarfpack

#endif
