//===- DwarfSections.cpp - DWARF sections shared by light contexts --------===//

#include "dwarfpack/Support/DwarfSections.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"

#include <unistd.h>

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

/// The bytes of physical memory, or 0 when unknown.
static uint64_t physicalMemory() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    return uint64_t(Pages) * uint64_t(PageSize);
#endif
  return 0;
}

Error checkDebugSectionsReadable(const object::ObjectFile &Obj) {
  // Read as LLVM's Decompressor reads it: the header's layout follows the
  // address size, and a header it cannot use is an error it reports.
  const bool Is64 = Obj.getBytesInAddress() == 8;
  const uint64_t HeaderSize = Is64 ? 24 : 12;
  uint64_t Declared = 0;
  for (const object::SectionRef &S : Obj.sections()) {
    // LLVM decompresses a section whose name it cannot read too.
    std::string Name;
    if (Expected<StringRef> N = S.getName()) {
      Name = N->str();
    } else {
      consumeError(N.takeError());
      Name = "[index " + std::to_string(S.getIndex()) + "]";
    }
    if (StringRef(Name).starts_with(".zdebug_"))
      return createStringError(
          inconvertibleErrorCode(),
          "section " + Name +
              " uses the legacy GNU compression of debug sections, which "
              "LLVM 19 no longer reads; decompress them first: objcopy "
              "--decompress-debug-sections IN OUT");
    if (!S.isCompressed() || S.isBSS() || S.isVirtual())
      continue;
    Expected<StringRef> Data = S.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      continue;
    }
    if (Data->size() < HeaderSize)
      continue;
    const char *P = Data->data();
    bool LE = Obj.isLittleEndian();
    auto U32 = [&](unsigned At) {
      return LE ? support::endian::read32le(P + At)
                : support::endian::read32be(P + At);
    };
    uint32_t Type = U32(0);
    uint64_t Size = Is64 ? (LE ? support::endian::read64le(P + 8)
                               : support::endian::read64be(P + 8))
                         : U32(4);
    uint64_t Ratio = Type == ELF::ELFCOMPRESS_ZLIB   ? 1032
                     : Type == ELF::ELFCOMPRESS_ZSTD ? 32768
                                                     : 0;
    if (!Ratio)
      continue;
    // Deflate expands at most 1,032 times; a zstd block of 4 bytes (an RLE
    // block) at most to 128 KiB. The slack covers tiny sections.
    uint64_t Compressed = Data->size() - HeaderSize;
    if (Size / Ratio > Compressed + 64)
      return createStringError(
          inconvertibleErrorCode(),
          Twine("section ") + Name + ": its compression header declares " +
              Twine(Size) + " bytes, more than its " + Twine(Compressed) +
              " bytes of " + (Ratio == 1032 ? "zlib" : "zstd") +
              " data can hold");
    Declared += Size;
    if (uint64_t Memory = physicalMemory(); Memory && Declared > Memory)
      return createStringError(inconvertibleErrorCode(),
                               Twine("section ") + Name +
                                   ": its compression header declares " +
                                   Twine(Size) +
                                   " bytes, which with the compressed sections "
                                   "before it are more than this machine's " +
                                   Twine(Memory) + " bytes of memory");
  }
  return Error::success();
}

} // namespace dwarfpack
