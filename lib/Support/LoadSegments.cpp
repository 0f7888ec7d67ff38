//===- LoadSegments.cpp - Where an ELF file's bytes are loaded ------------===//

#include "dwarfpack/Support/LoadSegments.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace dwarfpack {

namespace {
template <typename ELFT>
Expected<std::vector<LoadSegment>>
fromProgramHeaders(const object::ELFFile<ELFT> &EF, unsigned &Dropped) {
  std::vector<LoadSegment> Out;
  if (EF.getHeader().e_type == ELF::ET_REL)
    return Out;
  auto Phdrs = EF.program_headers();
  if (!Phdrs)
    return Phdrs.takeError();
  for (const typename ELFT::Phdr &P : *Phdrs)
    if (P.p_type == ELF::PT_LOAD && P.p_filesz != 0)
      Out.push_back({P.p_offset, P.p_vaddr, P.p_filesz});
  // Program headers are sorted by address, not always by offset.
  llvm::stable_sort(Out, [](const LoadSegment &A, const LoadSegment &B) {
    return A.FileOffset < B.FileOffset;
  });
  std::vector<LoadSegment> Kept;
  for (const LoadSegment &S : Out) {
    bool Wraps = S.FileOffset + S.FileSize < S.FileOffset ||
                 S.Address + S.FileSize < S.Address;
    if (Wraps || (!Kept.empty() && S.FileOffset < Kept.back().FileOffset +
                                                      Kept.back().FileSize)) {
      ++Dropped;
      continue;
    }
    Kept.push_back(S);
  }
  return Kept;
}
} // namespace

Expected<std::vector<LoadSegment>> readLoadSegments(const object::ObjectFile &O,
                                                    unsigned *Dropped) {
  unsigned Ignored = 0;
  unsigned &D = Dropped ? *Dropped : Ignored;
  D = 0;
  if (const auto *E = dyn_cast<object::ELF32LEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), D);
  if (const auto *E = dyn_cast<object::ELF32BEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), D);
  if (const auto *E = dyn_cast<object::ELF64LEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), D);
  if (const auto *E = dyn_cast<object::ELF64BEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), D);
  return std::vector<LoadSegment>();
}

Error checkLoadSegments(ArrayRef<LoadSegment> Segments) {
  for (size_t I = 0; I < Segments.size(); ++I) {
    const LoadSegment &S = Segments[I];
    auto Bad = [&](const Twine &What) {
      return createStringError(inconvertibleErrorCode(),
                               "load segment " + Twine(I) + " (file offset 0x" +
                                   utohexstr(S.FileOffset) + "): " + What);
    };
    if (S.FileSize == 0)
      return Bad("size 0");
    if (S.FileOffset + S.FileSize < S.FileOffset ||
        S.Address + S.FileSize < S.Address)
      return Bad("wraps around");
    if (I &&
        S.FileOffset < Segments[I - 1].FileOffset + Segments[I - 1].FileSize)
      return Bad("not sorted, or overlaps the one before");
  }
  return Error::success();
}

std::optional<uint64_t> addressOfFileOffset(ArrayRef<LoadSegment> Segments,
                                            uint64_t Offset) {
  // The last segment starting at or below Offset is the only candidate.
  auto It =
      llvm::upper_bound(Segments, Offset, [](uint64_t O, const LoadSegment &S) {
        return O < S.FileOffset;
      });
  if (It == Segments.begin())
    return std::nullopt;
  --It;
  if (Offset - It->FileOffset >= It->FileSize)
    return std::nullopt;
  return It->Address + (Offset - It->FileOffset);
}

} // namespace dwarfpack
