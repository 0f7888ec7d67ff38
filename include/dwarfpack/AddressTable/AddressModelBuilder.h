//===- AddressModelBuilder.h - One object's address model -------*- C++ -*-===//
//
// Fills a FunctionModel from an object's DWARF and symbol tables:
//
//   * FunctionVisitor, a visitor of the DWARF walk (DwarfInput/UnitWalk.h):
//     each unit's subprograms with code become FunctionEntry records (one
//     per address range) with line rows and inline trees, converted on the
//     walk's threads and appended in unit order;
//   * readModuleIdentity and readSymbolFunctions, the ELF side: base
//     address, build-id, load segments, executable ranges; and the code
//     only symbols describe (assembly), which collectSymbolFunctions reads
//     apart from the model so that a pipeline can read it beside the walk;
//   * convertObject(), the three for one object (`dwarfpack
//     compare-tables`; the pipelines of lib/Pipeline do the same beside the
//     type model).
//
// Addresses: executables and libraries use their link-time addresses.
// Relocatable objects (.o, kernel modules) have none, so their executable
// sections are laid out one after another, in section-header order, from
// address 0, each aligned to its sh_addralign (InputObject relocates their
// DWARF against that layout).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_ADDRESSTABLE_ADDRESSMODELBUILDER_H
#define DWARFPACK_ADDRESSTABLE_ADDRESSMODELBUILDER_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"
#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace dwarfpack {

namespace input {
class InputObject;
}

struct ConvertOptions {
  /// Worker threads for the compile units; 0 means all cores.
  unsigned NumThreads = 0;
  /// Called after each compile unit (may be empty).
  ProgressFn Progress;
};

struct ConvertStats {
  uint64_t DebugBytes = 0; ///< Sum of the sizes of the .debug_* sections.
  uint64_t CompileUnits = 0;
  uint64_t DwarfFunctions = 0;  ///< Entries made from DWARF (before finalize).
  uint64_t SymbolFunctions = 0; ///< Entries made from symbols.
};

/// The address model's visitor of the DWARF walk: appends each unit's
/// functions (and line rows of code no function describes) to the model,
/// in unit order.
class FunctionVisitor : public input::UnitVisitor {
public:
  FunctionVisitor(const input::InputObject &Obj, FunctionModel &M);
  std::unique_ptr<input::UnitResult>
  visit(const input::UnitContext &C) override;
  bool merge(size_t Index, input::UnitResult &R) override;
  uint64_t numDwarfFunctions() const { return NumFunctions; }

private:
  const input::InputObject &Obj;
  FunctionModel &M;
  std::vector<AddressRange> Exec;
  uint64_t NumFunctions = 0;
};

/// The module's identity in M: byte order, base address (the first
/// PT_LOAD's p_vaddr; 0 for relocatable objects), build-id, load segments
/// and executable ranges. Problems (overlapping segments, a build-id too
/// long for GSYM) go to Log; an error when the program headers or section
/// table cannot be read.
llvm::Error readModuleIdentity(const input::InputObject &Obj, FunctionModel &M,
                               WarningLog &Log);

/// A function the symbol tables describe, one per address (the alias
/// llvm-symbolizer names it by), in address order. Names point into the
/// object.
struct SymbolFunction {
  AddressRange Range;
  llvm::StringRef Name;
  /// The STT_FILE symbol before a local symbol (FunctionEntry::SymbolFile),
  /// possibly one without a name; none for a global symbol.
  std::optional<llvm::StringRef> File;
};

/// Function symbols from .symtab and .dynsym, plus untyped symbols in
/// executable sections (hand-written assembly). Reads Obj alone, so it may
/// run beside a walk that fills a model.
std::vector<SymbolFunction>
collectSymbolFunctions(const input::InputObject &Obj);

/// The symbols llvm-symbolizer answers DATA queries from: functions and
/// data objects (STT_OBJECT, and untyped symbols) in any allocated
/// section, one per address chosen as for functions, untyped labels kept.
/// A value tagged in its top byte (HWASan's globals) is placed by its
/// untagged address; KeepTags: it keeps its tag, as llvm-symbolizer
/// --no-untag-addresses keeps it, else the tag goes (its default).
std::vector<SymbolFunction>
collectSymbolizerSymbols(const input::InputObject &Obj, bool KeepTags = false);

/// Appends Syms to M; returns how many.
uint64_t addSymbolFunctions(llvm::ArrayRef<SymbolFunction> Syms,
                            FunctionModel &M);

/// collectSymbolFunctions() then addSymbolFunctions().
uint64_t readSymbolFunctions(const input::InputObject &Obj, FunctionModel &M);

/// Reads Obj into M (which must be empty): module identity, the functions
/// of its DWARF and symbol tables; call M.finalize() next. Recoverable
/// problems go to Log; an error when the object cannot be read at all.
/// The model does not depend on NumThreads.
llvm::Error convertObject(const input::InputObject &Obj, FunctionModel &M,
                          const ConvertOptions &Options, WarningLog &Log,
                          ConvertStats *Stats = nullptr);

} // namespace dwarfpack

#endif
