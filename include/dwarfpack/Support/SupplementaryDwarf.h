//===- SupplementaryDwarf.h - dwz's common DWARF file -----------*- C++ -*-===//
//
// dwz -m (used on Debian's and Fedora's debug packages) moves the DIEs and
// strings that several files share into one supplementary file, named by
// .gnu_debugaltlink (or DWARF 5's .debug_sup), and refers to them with the
// forms DW_FORM_GNU_ref_alt / DW_FORM_GNU_strp_alt (DW_FORM_ref_sup4/8,
// DW_FORM_strp_sup), which LLVM 19 reads but does not resolve. Both DWARF
// walks resolve them through this.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_SUPPLEMENTARYDWARF_H
#define DWARFPACK_SUPPORT_SUPPLEMENTARYDWARF_H

#include "dwarfpack/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// Where dwz's supplementary file of Obj (read from InputPath) is: the path
/// .gnu_debugaltlink or .debug_sup names (relative to InputPath's
/// directory), else /usr/lib/debug/.build-id/xx/rest.debug by its build-id.
/// Nothing when Obj names none; an error, naming what was looked for, when
/// it names one that is not there or is of another build.
llvm::Expected<std::optional<std::string>>
findSupplementaryFile(const llvm::object::ObjectFile &Obj,
                      llvm::StringRef InputPath);

class SupplementaryDwarf {
public:
  /// The supplementary file Obj (read from InputPath) names, or nullptr
  /// when it names none. Looked for at the path it gives (relative to
  /// InputPath's directory), then under /usr/lib/debug/.build-id by its
  /// build-id. Fails, naming the file, when it is missing, not an object,
  /// or of another build. All its DIEs are read here: afterwards it is only
  /// read, from any thread.
  static llvm::Expected<std::unique_ptr<SupplementaryDwarf>>
  open(const llvm::object::ObjectFile &Obj, llvm::StringRef InputPath);

  /// open(), reporting to Log a failure (kind missing-supplementary, the
  /// message followed by Consequence when not empty) and the problems of
  /// reading the file (dwarf-warning): nullptr when there is no file.
  static std::unique_ptr<SupplementaryDwarf>
  openReporting(const llvm::object::ObjectFile &Obj, llvm::StringRef InputPath,
                WarningLog &Log, llvm::StringRef Consequence);

  ~SupplementaryDwarf();

  llvm::StringRef path() const { return Path; }
  /// What reading its DIEs reported, each message naming the file: the
  /// caller counts them with its own (LLVM would only print them).
  llvm::ArrayRef<std::string> problems() const { return Problems; }
  /// The string at Offset of its .debug_str, or nullptr past its end.
  const char *string(uint64_t Offset) const;
  /// The DIE at Offset of its .debug_info (invalid if there is none).
  llvm::DWARFDie die(uint64_t Offset) const;

  static bool isStringForm(llvm::dwarf::Form F) {
    return F == llvm::dwarf::DW_FORM_GNU_strp_alt ||
           F == llvm::dwarf::DW_FORM_strp_sup;
  }
  static bool isReferenceForm(llvm::dwarf::Form F) {
    return F == llvm::dwarf::DW_FORM_GNU_ref_alt ||
           F == llvm::dwarf::DW_FORM_ref_sup4 ||
           F == llvm::dwarf::DW_FORM_ref_sup8;
  }

private:
  SupplementaryDwarf() = default;
  std::string Path;
  llvm::object::OwningBinary<llvm::object::ObjectFile> Bin;
  std::unique_ptr<llvm::DWARFContext> Ctx;
  llvm::StringRef Str;
  std::vector<std::string> Problems;
  /// Set once open() is done: later reports (it is only read then, from
  /// any thread) are dropped.
  bool Opened = false;
};

/// The DIE that V, an attribute value of D, refers to: in D's file, or with
/// a supplementary form, in Sup (invalid without Sup, and for a reference
/// to a null entry).
llvm::DWARFDie referencedDie(const llvm::DWARFDie &D,
                             const llvm::DWARFFormValue &V,
                             const SupplementaryDwarf *Sup);
inline llvm::DWARFDie referencedDie(const llvm::DWARFDie &D,
                                    llvm::dwarf::Attribute A,
                                    const SupplementaryDwarf *Sup) {
  if (std::optional<llvm::DWARFFormValue> V = D.find(A))
    return referencedDie(D, *V, Sup);
  return llvm::DWARFDie();
}

/// V's string, also of the supplementary forms (an error without Sup or
/// past the end of its strings).
llvm::Expected<const char *> stringOf(const llvm::DWARFFormValue &V,
                                      const SupplementaryDwarf *Sup);

/// A string value of a supplementary form rewritten as an inline string
/// (DW_FORM_string) that getAsCString reads; any other value as it is.
llvm::DWARFFormValue inlineSupplementaryString(const llvm::DWARFFormValue &V,
                                               const SupplementaryDwarf *Sup);

/// The linkage name, else the name, of a subprogram or inlined subroutine
/// DIE, following DW_AT_abstract_origin and DW_AT_specification (as
/// DWARFDie::getSubroutineName does, also into Sup); nullptr if none.
const char *subroutineName(const llvm::DWARFDie &D,
                           const SupplementaryDwarf *Sup);

} // namespace dwarfpack

#endif
