//===- SymbolQuery.h - Lookups by symbol name and offset --------*- C++ -*-===//
//
// llvm-symbolizer answers `NAME` and `NAME+OFFSET` as well as addresses:
// the address OFFSET bytes into every symbol called NAME. Kernel traces
// print code addresses as `NAME+OFFSET/SIZE [module]` (printk's %pS), so
// that form is read too. Answers come from the table that resolves the
// addresses, with the names it gives (a running kernel's: its kallsyms).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_SYMBOLQUERY_H
#define DWARFPACK_SYMBOLIZE_SYMBOLQUERY_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

struct SymbolQuery {
  std::string Name;
  uint64_t Offset = 0;
  /// The symbol's size as a kernel trace gives it (`/SIZE`), if given.
  std::optional<uint64_t> Size;
  /// The kernel module a trace names after it (`[module]`), if any.
  std::optional<std::string> Module;
};

/// What Token, the first word of a query, asks, as llvm-symbolizer reads
/// it: a number is an address (Address set); a word that starts with a
/// digit but is not a number is neither (both unset); any other word is a
/// symbol, `NAME+OFFSET` when what follows the last '+' is a number
/// (decimal, or 0x/0b/0o/0 prefixed), `NAME+OFFSET/SIZE` when both parts
/// are, and otherwise the whole word.
struct ParsedQuery {
  std::optional<uint64_t> Address;
  std::optional<SymbolQuery> Symbol;
};
ParsedQuery parseQuery(llvm::StringRef Token);
/// Whether Digits is 1 to 16 hex digits and nothing else (a 64-bit
/// number), and its value.
bool parseHexDigits(llvm::StringRef Digits, uint64_t &Value);
/// Whether Token is "0x" (or "0X") and 1 to 16 hex digits, the form of
/// nearly every query, and its value: what parseQuery() gives it, without
/// the radix guessing and overflow checks of a general number.
bool parseShortHex(llvm::StringRef Token, uint64_t &Value);
/// Reads a kernel trace's module word (`[name]`) into Q when Rest, what
/// follows the query's first word, starts with one.
void parseModuleWord(llvm::StringRef Rest, SymbolQuery &Q);

/// Answers symbol queries from one table. Formats without an index by name
/// are read once through forEachFunction on the first query.
class SymbolResolver {
public:
  explicit SymbolResolver(const AddressSymbolizer &Table) : Table(Table) {}

  /// One lookup per function named Q.Name, in address order: at its start
  /// plus Q.Offset, or at its start when that address is past the function
  /// (the lookup there finds another function, or none), as llvm-symbolizer
  /// treats an offset beyond the symbol's size; but at the start plus
  /// Q.Offset still when Q.Size covers the offset. When the address is inside
  /// some of the functions, only those answer: a table made from DWARF
  /// lists a split function's parts under one name. Each result's Address
  /// is the address looked up. With Q.Module, when some of these functions
  /// are of that kernel module (kernel symbol tables and a running kernel's
  /// symbols tell), only those. With SymbolStarts, also the start of the
  /// function named Q.Name that each result answers for (in the address
  /// space of the lookup).
  llvm::Expected<std::vector<LookupResult>>
  resolve(const SymbolQuery &Q, std::vector<uint64_t> *SymbolStarts = nullptr);

  /// As resolve(), for Q.Name as a profiler shows a C++ (or Rust) function:
  /// demangled, with or without its parameters (demangledNameKey). The
  /// table's names are demangled on the first such query.
  llvm::Expected<std::vector<LookupResult>>
  resolveDemangled(const SymbolQuery &Q,
                   std::vector<uint64_t> *SymbolStarts = nullptr);

private:
  using NameIndex = llvm::StringMap<llvm::SmallVector<uint64_t, 1>>;
  llvm::Expected<std::vector<uint64_t>> starts(llvm::StringRef Name);
  llvm::Expected<std::vector<LookupResult>>
  answer(const SymbolQuery &Q, llvm::ArrayRef<uint64_t> Starts,
         std::vector<uint64_t> *SymbolStarts);

  const AddressSymbolizer &Table;
  bool Indexed = false;
  NameIndex ByName;
  std::optional<NameIndex> ByDemangledName;
};

/// The symbol that holds an address, as llvm-symbolizer's DATA command
/// reports it.
struct DataSymbol {
  /// Empty: no symbol holds the address (llvm-symbolizer prints ??).
  std::string Name;
  uint64_t Start = 0;
  uint64_t Size = 0;
  /// Where the variable is declared (ObjectData); empty when not known,
  /// and the file alone (line 0) when only a local symbol's STT_FILE says.
  std::string DeclFile;
  uint32_t DeclLine = 0;
};

/// A local variable or parameter of the function at an address, as
/// llvm-symbolizer's FRAME command reports it (LLVM's DILocal).
struct FrameLocal {
  /// The function it belongs to (the inlined one, inside an inlined
  /// call), the variable's name, where it is declared; empty: not known.
  std::string FunctionName, Name, DeclFile;
  uint64_t DeclLine = 0;
  /// Its offset from the frame base, when a location says
  /// (DW_OP_fbreg N, or a register offset from the frame base register).
  std::optional<int64_t> FrameOffset;
  /// Its type's size; its memory tag's offset (DW_AT_LLVM_tag_offset,
  /// HWASan).
  std::optional<uint64_t> Size, TagOffset;
};

/// The function of Table that holds Address: the name and start of its
/// outermost frame, and its size, which the table gives (kernel symbol
/// tables) or, since AddressSymbolizer has no query for it, where lookups
/// stop finding that function (a function's range has no holes): about
/// 2 log2(size) lookups. std::nullopt when no function holds Address.
llvm::Expected<std::optional<DataSymbol>>
symbolAt(const AddressSymbolizer &Table, uint64_t Address);

} // namespace dwarfpack

#endif
