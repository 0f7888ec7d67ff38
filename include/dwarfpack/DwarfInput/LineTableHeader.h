//===- LineTableHeader.h - Line-table headers LLVM can parse ----*- C++ -*-===//
//
// A DWARF 5 line-table header describes its directory and file entries by
// (content type, form) pairs. LLVM 19's header parser extracts every file
// entry field with DWARFFormValue::extractValue, which reaches
// llvm_unreachable on a form it does not know: in a release libLLVM that
// jumps to arbitrary code. It also dereferences getAsUnsignedConstant() of
// the directory index, timestamp and size without checking for a constant
// form, and decodes a LEB128 past the header's end without a bound when a
// directory field it steps over runs past that end. Every line table
// dwarfpack hands to LLVM is checked here first, by the header decoder of
// dwarfpack's own line-table reader (dwarfpack/DwarfInput/LineHeader.h),
// which refuses the same tables.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_LINETABLEHEADER_H
#define DWARFPACK_DWARFINPUT_LINETABLEHEADER_H

#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class DWARFDataExtractor;
class DWARFUnit;
} // namespace llvm

namespace dwarfpack {

/// Checks the entry formats of the line table at Offset of Data (over
/// .debug_line, with its relocations, as LLVM reads it): each (content type,
/// form) pair LLVM reads must be one whose value its parser can read and
/// use, and each directory field it steps over must leave it inside the
/// header. Headers of DWARF 2-4, and damage LLVM reports as an error of its
/// own (a header cut short, no path among the content types), pass; the
/// error names the first thing LLVM cannot take.
llvm::Error checkLineTableHeader(const llvm::DWARFDataExtractor &Data,
                                 uint64_t Offset);

/// checkLineTableHeader for the line table of Unit (its DW_AT_stmt_list),
/// in Unit's context. A unit without one passes.
llvm::Error checkLineTableHeader(llvm::DWARFUnit &Unit);

} // namespace dwarfpack

#endif
