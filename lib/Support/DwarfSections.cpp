//===- DwarfSections.cpp - DWARF sections shared by light contexts --------===//

#include "dwarfpack/Support/DwarfSections.h"

using namespace llvm;

namespace dwarfpack {

StringMap<std::unique_ptr<MemoryBuffer>>
dwarfSectionBuffers(const DWARFObject &O, StringRef Info) {
  static constexpr const char *Names[] = {
      "debug_info",     "debug_abbrev",      "debug_str",  "debug_line",
      "debug_line_str", "debug_str_offsets", "debug_addr", "debug_ranges",
      "debug_rnglists", "debug_loclists",    "debug_loc"};
  StringRef Data[] = {Info,
                      O.getAbbrevSection(),
                      O.getStrSection(),
                      O.getLineSection().Data,
                      O.getLineStrSection(),
                      O.getStrOffsetsSection().Data,
                      O.getAddrSection().Data,
                      O.getRangesSection().Data,
                      O.getRnglistsSection().Data,
                      O.getLoclistsSection().Data,
                      O.getLocSection().Data};
  static_assert(std::size(Names) == std::size(Data));
  StringMap<std::unique_ptr<MemoryBuffer>> Map;
  for (size_t I = 0; I < std::size(Names); ++I)
    if (!Data[I].empty())
      Map[Names[I]] = MemoryBuffer::getMemBuffer(
          Data[I], Names[I], /*RequiresNullTerminator=*/false);
  return Map;
}

Error checkDebugSectionsReadable(const object::ObjectFile &Obj) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (Name->starts_with(".zdebug_"))
      return createStringError(
          inconvertibleErrorCode(),
          "section " + *Name +
              " uses the legacy GNU compression of debug sections, which "
              "LLVM 19 no longer reads; decompress them first: objcopy "
              "--decompress-debug-sections IN OUT");
  }
  return Error::success();
}

} // namespace dwarfpack
