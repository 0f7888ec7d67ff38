//===- DwarfSections.cpp - DWARF sections shared by light contexts --------===//

#include "dwarfpack/Support/DwarfSections.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <optional>
#include <unistd.h>
#include <zlib.h>

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

Expected<GnuCompressedSection> readGnuCompressedSection(StringRef Name,
                                                        StringRef Data) {
  if (Data.size() < 12 || !Data.starts_with("ZLIB"))
    return createStringError(inconvertibleErrorCode(),
                             "section " + Name +
                                 ": no \"ZLIB\" header of the legacy GNU "
                                 "compression (12 bytes) at its start");
  GnuCompressedSection S;
  S.Size = support::endian::read64be(Data.data() + 4);
  S.Stream = Data.drop_front(12);
  return S;
}

Expected<std::unique_ptr<char[]>>
decompressGnuSection(const GnuCompressedSection &S) {
  auto Fail = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  std::unique_ptr<char[]> Out(new char[std::max<uint64_t>(S.Size, 1)]);
  uLongf Size = S.Size;
  int R = ::uncompress(reinterpret_cast<Bytef *>(Out.get()), &Size,
                       S.Stream.bytes_begin(), S.Stream.size());
  if (R == Z_BUF_ERROR)
    return Fail("its zlib data expand to more than the " + Twine(S.Size) +
                " bytes its header declares");
  if (R == Z_DATA_ERROR)
    return Fail("its zlib data are damaged or cut short");
  if (R != Z_OK)
    return Fail("zlib error " + Twine(R));
  if (Size != S.Size)
    return Fail("its zlib data expand to " + Twine(uint64_t(Size)) +
                " bytes where its header declares " + Twine(S.Size));
  return std::move(Out);
}

namespace {
/// What a compressed section's header declares: the bytes it expands to,
/// beside the bytes of compressed data and the largest expansion of its
/// method.
struct Declaration {
  uint64_t Size, Compressed, Ratio;
  const char *Method;
};
} // namespace

/// The declaration of an SHF_COMPRESSED section, read as LLVM's
/// Decompressor reads it (the header's layout follows the address size);
/// nothing when its header is not one LLVM would decompress.
static std::optional<Declaration>
declaredBySection(const object::ObjectFile &Obj, StringRef Data) {
  const bool Is64 = Obj.getBytesInAddress() == 8;
  const uint64_t HeaderSize = Is64 ? 24 : 12;
  if (Data.size() < HeaderSize)
    return std::nullopt;
  const char *P = Data.data();
  bool LE = Obj.isLittleEndian();
  auto U32 = [&](unsigned At) {
    return LE ? support::endian::read32le(P + At)
              : support::endian::read32be(P + At);
  };
  uint32_t Type = U32(0);
  uint64_t Size = Is64 ? (LE ? support::endian::read64le(P + 8)
                             : support::endian::read64be(P + 8))
                       : U32(4);
  // Deflate expands at most 1,032 times; a zstd block of 4 bytes (an RLE
  // block) at most to 128 KiB.
  if (Type == ELF::ELFCOMPRESS_ZLIB)
    return Declaration{Size, Data.size() - HeaderSize, 1032, "zlib"};
  if (Type == ELF::ELFCOMPRESS_ZSTD)
    return Declaration{Size, Data.size() - HeaderSize, 32768, "zstd"};
  return std::nullopt;
}

Error checkDebugSectionsReadable(const object::ObjectFile &Obj,
                                 bool ReadsGnuCompression) {
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
    const bool Gnu = StringRef(Name).starts_with(".zdebug_");
    if (Gnu && !ReadsGnuCompression)
      return createStringError(
          inconvertibleErrorCode(),
          "section " + Name +
              " uses the legacy GNU compression of debug sections, which "
              "LLVM 19 no longer reads; decompress them first: objcopy "
              "--decompress-debug-sections IN OUT");
    if (!(Gnu || S.isCompressed()) || S.isBSS() || S.isVirtual())
      continue;
    Expected<StringRef> Data = S.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      continue;
    }
    std::optional<Declaration> D;
    if (Gnu) {
      Expected<GnuCompressedSection> G = readGnuCompressedSection(Name, *Data);
      if (!G)
        return G.takeError();
      D = Declaration{G->Size, G->Stream.size(), 1032, "zlib"};
    } else {
      D = declaredBySection(Obj, *Data);
    }
    if (!D)
      continue;
    // The slack covers tiny sections.
    if (D->Size / D->Ratio > D->Compressed + 64)
      return createStringError(
          inconvertibleErrorCode(),
          Twine("section ") + Name + ": its compression header declares " +
              Twine(D->Size) + " bytes, more than its " + Twine(D->Compressed) +
              " bytes of " + D->Method + " data can hold");
    Declared += D->Size;
    if (uint64_t Memory = physicalMemory(); Memory && Declared > Memory)
      return createStringError(inconvertibleErrorCode(),
                               Twine("section ") + Name +
                                   ": its compression header declares " +
                                   Twine(D->Size) +
                                   " bytes, which with the compressed sections "
                                   "before it are more than this machine's " +
                                   Twine(Memory) + " bytes of memory");
  }
  return Error::success();
}

} // namespace dwarfpack
