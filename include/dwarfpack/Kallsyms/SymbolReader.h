//===- SymbolReader.h - Zero-copy readers of kernel symbol tables ---------===//
//
// Both kernel symbol table formats (our compact table and the ksym-blob
// layout) are read in place through this interface. Address lookups, alias
// handling and the dump are shared; each format supplies the primitives.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_KALLSYMS_SYMBOLREADER_H
#define DWARFPACK_KALLSYMS_SYMBOLREADER_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace kallsyms {

/// One symbol as found by a lookup.
struct SymbolInfo {
  uint64_t Address = 0;
  /// Distance to the next distinct address (or to the table's end address).
  std::optional<uint64_t> Size;
  char Type = 0;
  /// Names are written in place: no allocation for most kernel names, and
  /// none at all when a SymbolInfo is reused across lookups.
  llvm::SmallString<64> Name;
  std::string Module;
  /// Index in address order.
  uint32_t Index = 0;
};

class SymbolReader : public AddressSymbolizer {
public:
  uint32_t numSymbols() const { return NumSyms; }

  /// Address of the symbol with address-order index I (< numSymbols()).
  virtual llvm::Expected<uint64_t> address(uint32_t I) const = 0;
  /// Name, type and module of symbol I (Address/Size are not filled).
  virtual llvm::Error describe(uint32_t I, SymbolInfo &Info) const = 0;
  /// Index of the last symbol whose address is <= Addr, if any.
  virtual llvm::Expected<std::optional<uint32_t>>
  findLastAtOrBelow(uint64_t Addr) const = 0;
  /// Every symbol named Name, in address order.
  llvm::Expected<std::vector<SymbolInfo>>
  lookupName(llvm::StringRef Name) const;
  /// lookupName for callers in a loop: Out is resized to the matches and
  /// its elements are overwritten, so their strings keep their capacity.
  virtual llvm::Error lookupNameInto(llvm::StringRef Name,
                                     std::vector<SymbolInfo> &Out) const = 0;
  /// End of the last symbol, when the table knows it.
  std::optional<uint64_t> endAddress() const { return EndAddress; }

  /// The symbol containing Addr. Of several aliases at one address the
  /// canonical one is returned: global (upper-case type) before local, then
  /// fewer leading underscores, then table order.
  llvm::Expected<std::optional<SymbolInfo>> lookupAddress(uint64_t Addr) const;
  /// lookupAddress for callers in a loop (a profiler resolving samples):
  /// fills Info, reusing the capacity of its strings, and returns whether a
  /// symbol contains Addr (Info is unspecified when not).
  virtual llvm::Expected<bool> lookupAddressInto(uint64_t Addr,
                                                 SymbolInfo &Info) const;

  /// AddressSymbolizer: one frame with Size, Module and SymbolType.
  llvm::Expected<LookupResult> lookup(uint64_t Address) const override;
  /// The address of the core kernel's `_text` symbol.
  llvm::Expected<uint64_t> kernelTextAddress() const override;
  /// lookupName's addresses.
  llvm::Expected<std::optional<std::vector<uint64_t>>>
  functionsNamed(llvm::StringRef Name) const override;

  /// Prints "<addr_hex> <type> <name>[\t[module]]" for every symbol in
  /// address order (the /proc/kallsyms line format).
  llvm::Error dump(llvm::raw_ostream &OS) const;

  /// Fills Address, Size and Index of symbol I.
  virtual llvm::Error fillAddressAndSize(uint32_t I, SymbolInfo &Info) const;

protected:
  /// The canonical symbol of the alias group [First, Last] (Address and
  /// Size not filled).
  llvm::Expected<SymbolInfo> chooseCanonical(uint32_t First,
                                             uint32_t Last) const;
  /// lookupAddressInto through the primitives above only: the reference the
  /// formats' fast paths fall back on for rare cases.
  llvm::Expected<bool> lookupAddressGeneric(uint64_t Addr,
                                            SymbolInfo &Info) const;

  uint32_t NumSyms = 0;
  std::optional<uint64_t> EndAddress;
};

/// How a reader may run.
struct ReaderOptions {
  /// Only the portable code paths, even where the CPU has the vector
  /// instructions of the fast ones (both give the same answers; tests run
  /// both).
  bool Portable = false;
};

/// Opens a compact table (docs/Kallsyms.md). The reader keeps Buffer.
llvm::Expected<std::unique_ptr<SymbolReader>>
openCompact(std::unique_ptr<llvm::MemoryBuffer> Buffer,
            ReaderOptions Options = {});

/// Opens a ksym-blob. The layout stores no end address; EndAddress (the
/// consumer's etext) bounds the last symbol when given.
llvm::Expected<std::unique_ptr<SymbolReader>>
openKsymBlob(std::unique_ptr<llvm::MemoryBuffer> Buffer,
             std::optional<uint64_t> EndAddress = std::nullopt);

/// Opens either format, recognised by content. The reader keeps Buffer.
llvm::Expected<std::unique_ptr<SymbolReader>>
openSymbolTable(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                ReaderOptions Options = {});

} // namespace kallsyms
} // namespace dwarfpack

#endif
