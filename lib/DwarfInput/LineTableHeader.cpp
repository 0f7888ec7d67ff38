//===- LineTableHeader.cpp - Line-table headers LLVM can parse ------------===//
//
// One header decoder serves both: dwarfpack::input::LineHeader reads the
// header as LLVM 19 does and refuses what LLVM cannot take; here only its
// refusals count (LLVM reports every other problem itself).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/LineTableHeader.h"
#include "dwarfpack/DwarfInput/LineHeader.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

using namespace llvm;

namespace dwarfpack {

Error checkLineTableHeader(const DWARFDataExtractor &Data, uint64_t Offset) {
  input::LineSections S;
  S.Line = Data.getData();
  S.LittleEndian = Data.isLittleEndian();
  S.AddressSize = Data.getAddressSize();
  // The lengths LLVM reads relocated (a relocatable object's may be).
  auto Relocate = [&](uint64_t At, unsigned Size, uint64_t,
                      uint64_t &SectionIndex) {
    return Data.getRelocatedValue(Size, &At, &SectionIndex);
  };
  S.Relocate = Relocate;
  input::LineHeader Header;
  Error E = input::LineHeader::parse(
      S, Offset, Header, [](Error W) { consumeError(std::move(W)); });
  if (E.isA<input::UnsupportedLineHeader>())
    return E;
  consumeError(std::move(E));
  return Error::success();
}

Error checkLineTableHeader(DWARFUnit &Unit) {
  std::optional<uint64_t> Offset =
      dwarf::toSectionOffset(Unit.getUnitDIE(/*ExtractUnitDIEOnly=*/true)
                                 .find(dwarf::DW_AT_stmt_list));
  if (!Offset)
    return Error::success();
  const DWARFContext &Ctx = Unit.getContext();
  const DWARFObject &Obj = Ctx.getDWARFObj();
  DWARFDataExtractor Data(Obj, Obj.getLineSection(), Ctx.isLittleEndian(),
                          Unit.getAddressByteSize());
  return checkLineTableHeader(Data, *Offset);
}

} // namespace dwarfpack
