//===- Markup.h - Symbolizer markup filtered into readable text -*- C++ -*-===//
//
// Programs that cannot symbolize their own addresses (Fuchsia's, LLVM's
// tools with LLVM_ENABLE_SYMBOLIZER_MARKUP, sanitizers' markup mode) log
// them in symbolizer markup (https://llvm.org/docs/SymbolizerMarkupFormat
// .html): contextual elements say which module (by build-id) is loaded
// where, {{{module:ID:NAME:elf:BUILDID}}} and {{{mmap:ADDR:SIZE:load:ID:
// MODE:MODULE_ADDR}}}, and presentation elements name addresses,
// {{{pc:ADDR}}}, {{{bt:N:ADDR}}}, {{{data:ADDR}}} and {{{symbol:NAME}}}.
// MarkupFilter replaces them with text, byte for byte as llvm-symbolizer
// 19 --filter-markup prints it: a summary line per module, `NAME[FILE:
// LINE]` for a pc, one numbered line per frame of a backtrace, a data
// symbol's name, a demangled symbol. What it cannot replace stays as the
// element in triple brackets, and a diagnostic says why.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_MARKUP_H
#define DWARFPACK_SYMBOLIZE_MARKUP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// A piece of a line of markup: text, an SGR escape (a text of its own), or
/// an element `{{{TAG:FIELD:...}}}`.
struct MarkupNode {
  /// As it is in the line.
  llvm::StringRef Text;
  /// Empty for text.
  llvm::StringRef Tag;
  llvm::SmallVector<llvm::StringRef, 6> Fields;
};

/// Splits Line into its nodes, in order: each `{{{...}}}` with a tag is an
/// element; the text between elements is split at the SGR escapes that
/// markup may carry (ESC [ 0, 1 or 30-37 m).
void parseMarkupLine(llvm::StringRef Line, std::vector<MarkupNode> &Out);

/// One frame of an answer, as it is printed (names demangled or shortened,
/// paths as asked); empty strings and zeros are unknown.
struct MarkupFrame {
  std::string Function, File;
  uint32_t Line = 0, Column = 0;
};

/// What the filter asks about the modules the markup names.
class MarkupSymbolizer {
public:
  virtual ~MarkupSymbolizer() = default;
  /// The frames at Address (an address of the module's ELF file) of the
  /// module of BuildId, innermost first: with Inlines every frame of the
  /// inlined chain, else the one llvm-symbolizer --no-inlines prints. An
  /// address in no function gives no frames; a module without a table is
  /// an error.
  virtual llvm::Expected<std::vector<MarkupFrame>>
  code(llvm::ArrayRef<uint8_t> BuildId, uint64_t Address, bool Inlines) = 0;
  /// The name of the data symbol that holds Address, as printed; empty
  /// when none does, and then Why says where it looked.
  virtual llvm::Expected<std::string>
  data(llvm::ArrayRef<uint8_t> BuildId, uint64_t Address, std::string &Why) = 0;
};

class SessionTables;
struct PrinterOptions;

/// A MarkupSymbolizer that answers from the tables of Tables' build-ids
/// (SessionTables::findBuildId: a store's, or made from debug files),
/// names and paths printed as Opts say (their style is llvm-symbolizer's
/// LLVM style, whatever Opts.Style is). Tables must outlive it.
std::unique_ptr<MarkupSymbolizer>
tableMarkupSymbolizer(SessionTables &Tables, const PrinterOptions &Opts);

/// Something wrong with the markup, or an element the filter could not
/// replace.
struct MarkupDiagnostic {
  bool IsWarning = false;
  std::string Message;
  /// The line it is about, with its line break; Column (when known) is
  /// where in it.
  std::string Line;
  std::optional<size_t> Column;
  /// For a kind of problem that recurs with every element of a module (an
  /// address without an answer): what they are, for a count at the end
  /// (`ELF module #0x0 "NAME": addresses in no function of the table`);
  /// empty for the others.
  std::string Repeats;
};
using MarkupDiagnosticFn = std::function<void(const MarkupDiagnostic &)>;

class MarkupFilter {
public:
  /// Writes the filtered text to OS; with Colors, highlights what it
  /// replaced and renders the markup's SGR escapes as llvm-symbolizer's
  /// --color does (without, they are dropped).
  MarkupFilter(llvm::raw_ostream &OS, MarkupSymbolizer &Symbolizer, bool Colors,
               MarkupDiagnosticFn Diagnose);
  ~MarkupFilter();

  /// Filters one line, with its line break ("\n" or "\r\n"). A line with a
  /// contextual element prints nothing of itself: the module summary it
  /// adds to is printed by the next line that is not one, or by finish().
  void filter(llvm::StringRef Line);
  /// Ends the text: prints the pending module summary, forgets the modules.
  void finish();

private:
  struct Module {
    uint64_t ID;
    std::string Name;
    llvm::SmallVector<uint8_t, 20> BuildId;
  };
  struct MMap {
    uint64_t Addr, Size;
    const Module *Mod;
    std::string Mode;
    uint64_t ModuleAddr;
    bool contains(uint64_t A) const { return A >= Addr && A - Addr < Size; }
  };
  /// The summary line being gathered: a module and the mmaps it adds.
  struct Summary {
    const Module *Mod;
    std::vector<const MMap *> MMaps;
  };
  enum class PCType { ReturnAddress, Precise };
  /// An element's address, the mapping that holds it and where that is in
  /// the module.
  struct Located {
    uint64_t Addr;
    const MMap *Map;
    uint64_t ModuleAddr;
  };

  bool tryContextual(const MarkupNode &N, llvm::ArrayRef<MarkupNode> Before);
  bool tryModule(const MarkupNode &N, llvm::ArrayRef<MarkupNode> Before);
  bool tryMMap(const MarkupNode &N, llvm::ArrayRef<MarkupNode> Before);
  bool tryReset(const MarkupNode &N, llvm::ArrayRef<MarkupNode> Before);
  /// Ends the pending summary, then prints Nodes (what a line held before
  /// its contextual element, or a whole line without one).
  void printBefore(llvm::ArrayRef<MarkupNode> Nodes);
  void filterNode(const MarkupNode &N);
  void printSymbol(const MarkupNode &N);
  void printPC(const MarkupNode &N);
  void printBacktrace(const MarkupNode &N);
  void printData(const MarkupNode &N);
  bool applySGR(llvm::StringRef Text);

  void beginSummary(const Module &M);
  void endSummary();
  void printRaw(const MarkupNode &N);
  void printValue(const llvm::Twine &V);
  void highlight();
  void restoreColor();
  void resetColor();
  llvm::StringRef lineEnd() const;

  /// The address in N's field At and its mapping. With Type, the field
  /// after it, when there is one, is the PC type instead (a return address
  /// is looked up one byte before). std::nullopt after a diagnostic, N
  /// printed as it is when no mapping holds the address.
  std::optional<Located> locate(const MarkupNode &N, size_t At,
                                std::optional<PCType> Type);
  /// The mmap holding Address, after a diagnostic when none does.
  const MMap *mmapOf(uint64_t Address, llvm::StringRef Field);
  std::optional<uint64_t> parseAddress(llvm::StringRef Field);
  std::optional<uint64_t> parseInteger(llvm::StringRef Field, const char *What,
                                       unsigned Radix);
  std::optional<PCType> parsePCType(llvm::StringRef Field);
  bool hasFields(const MarkupNode &N, size_t Count);
  bool hasFieldsAtLeast(const MarkupNode &N, size_t Count);
  void warnFieldsAtMost(const MarkupNode &N, size_t Count);
  void diagnose(bool IsWarning, const llvm::Twine &Message,
                std::optional<llvm::StringRef::iterator> At,
                std::string Repeats = "");
  /// Warns that M has no answer at ModuleAddr (Why says where it looked),
  /// pointing at the element's field Field.
  void unanswered(const Module &M, uint64_t ModuleAddr, llvm::StringRef Why,
                  llvm::StringRef Field);
  void symbolizeFailed(const MarkupNode &N, const Module &M, llvm::Error E);

  llvm::raw_ostream &OS;
  MarkupSymbolizer &Symbolizer;
  bool Colors;
  MarkupDiagnosticFn Diagnose;
  /// The line being filtered (nodes refer into it).
  std::string Line;
  // Keyed by any ID the markup gives (a DenseMap reserves two).
  std::map<uint64_t, std::unique_ptr<Module>> Modules;
  std::map<uint64_t, MMap> MMaps;
  std::optional<Summary> Pending;
  /// The markup's own colour state (SGR escapes).
  std::optional<llvm::raw_ostream::Colors> Color;
  bool Bold = false;
};

} // namespace dwarfpack

#endif
