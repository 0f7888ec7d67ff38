//===- ObjectDwarf.h - What DATA and FRAME answers read from DWARF --------===//
//
// The pieces of LLVM's DWARFDie and DWARFContext that llvm-symbolizer's
// DATA and FRAME answers rest on, on dwarfpack's own DIE reader: a type's
// size (DWARFDie::getTypeSize) and a unit's declaration files.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_SYMBOLIZE_OBJECTDWARF_H
#define DWARFPACK_LIB_SYMBOLIZE_OBJECTDWARF_H

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/DwarfInput/LineTable.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace input {
struct UnitContext;
} // namespace input

/// DWARFDie::getTypeSize: the bytes of D's type (D a variable or a type),
/// following qualifiers and typedefs, arrays times their subranges' counts.
std::optional<uint64_t> typeSize(const input::Die &D, unsigned PointerSize);

/// The paths of one unit's declaration files (DW_AT_decl_file), as LLVM
/// names them from the unit's line table: its file names are decoded at
/// the first one asked for, and each path is added to Paths once.
class UnitFiles {
public:
  UnitFiles(const input::UnitContext &C, std::vector<std::string> &Paths)
      : C(C), Paths(Paths) {}

  /// 1 + the index in Paths of file Index of the unit's line table; 0 when
  /// the table has no such file.
  uint32_t path(uint64_t Index);

private:
  void decode();

  const input::UnitContext &C;
  std::vector<std::string> &Paths;
  bool Decoded = false;
  std::optional<input::LineTable> Table;
  std::string CompDir;
  llvm::DenseMap<uint64_t, uint32_t> Known;
};

} // namespace dwarfpack

#endif
