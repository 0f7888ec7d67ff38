//===- LoadSegments.cpp - Where an ELF file's bytes are loaded ------------===//

#include "dwarfpack/Support/LoadSegments.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace dwarfpack {

namespace {

/// Sections that have no file bytes in the binary either: .bss and the
/// like, which end a segment's file bytes and only lengthen it in memory.
/// A debug file makes every section NOBITS, so only the name tells.
bool isZeroFillName(StringRef Name) {
  for (StringRef Prefix : {".bss", ".tbss", ".sbss", ".lbss", ".dynbss"})
    if (Name == Prefix ||
        (Name.starts_with(Prefix) && Name.drop_front(Prefix.size())[0] == '.'))
      return true;
  return Name == ".relro_padding" || Name == "__libc_freeres_ptrs";
}

/// An ELF file's program and section headers.
template <typename ELFT> struct Layout {
  const object::ELFFile<ELFT> &EF;
  ArrayRef<typename ELFT::Phdr> Phdrs;
  ArrayRef<typename ELFT::Shdr> Shdrs;

  static Expected<Layout> read(const object::ELFFile<ELFT> &EF) {
    auto Phdrs = EF.program_headers();
    if (!Phdrs)
      return Phdrs.takeError();
    auto Shdrs = EF.sections();
    if (!Shdrs)
      return Shdrs.takeError();
    return Layout{EF, *Phdrs, *Shdrs};
  }

  static bool contains(const typename ELFT::Phdr &P, uint64_t Addr) {
    return P.p_type == ELF::PT_LOAD && Addr >= P.p_vaddr &&
           Addr - P.p_vaddr < P.p_memsz;
  }

  /// Code that its segment has no file bytes for: only a debug file has
  /// that, since a loader maps code from the file.
  bool rewritten() const {
    for (const typename ELFT::Shdr &S : Shdrs) {
      if (!(S.sh_flags & ELF::SHF_ALLOC) ||
          !(S.sh_flags & ELF::SHF_EXECINSTR) || S.sh_size == 0)
        continue;
      for (const typename ELFT::Phdr &P : Phdrs)
        if (contains(P, S.sh_addr) && S.sh_addr - P.p_vaddr >= P.p_filesz)
          return true;
    }
    return false;
  }

  /// The bytes the binary's file had for P: up to the end of its last
  /// section that is not zero-fill.
  uint64_t fileSize(const typename ELFT::Phdr &P) const {
    uint64_t Size = 0;
    for (const typename ELFT::Shdr &S : Shdrs) {
      if (!(S.sh_flags & ELF::SHF_ALLOC) || !contains(P, S.sh_addr))
        continue;
      Expected<StringRef> Name = EF.getSectionName(S);
      if (!Name)
        consumeError(Name.takeError());
      else if (isZeroFillName(*Name))
        continue;
      uint64_t End = S.sh_addr - P.p_vaddr + S.sh_size;
      Size = std::max(Size, std::min<uint64_t>(End, P.p_memsz));
    }
    return Size;
  }

  /// The binary's segments, from the addresses and sizes a debug file kept
  /// (LoadSegments.h says how).
  std::vector<LoadSegment> reconstruct(unsigned &Dropped) const {
    std::vector<const typename ELFT::Phdr *> Loads;
    for (const typename ELFT::Phdr &P : Phdrs)
      if (P.p_type == ELF::PT_LOAD && P.p_memsz != 0)
        Loads.push_back(&P);
    std::vector<LoadSegment> Out;
    if (Loads.empty())
      return Out;
    // A first segment that still has file bytes from offset 0 holds the
    // ELF header, in the binary as here.
    const auto &Hdr = EF.getHeader();
    uint64_t End =
        uint64_t(Hdr.e_phoff) + uint64_t(Hdr.e_phnum) * Hdr.e_phentsize;
    if (Loads.front()->p_offset == 0 && Loads.front()->p_filesz != 0)
      End = 0;
    for (const typename ELFT::Phdr *P : Loads) {
      uint64_t Align = P->p_align;
      if (Align < 2 || !isPowerOf2_64(Align))
        Align = 1;
      uint64_t Addr = P->p_vaddr;
      uint64_t Offset = End + ((Addr - End) & (Align - 1));
      uint64_t Size = fileSize(*P);
      if (Size == 0) // .bss alone: no file bytes in the binary either
        continue;
      if (Offset < End || Offset + Size < Offset || Addr + Size < Addr) {
        ++Dropped;
        continue;
      }
      Out.push_back({Offset, Addr, Size});
      End = Offset + Size;
    }
    return Out;
  }
};

template <typename ELFT>
Expected<std::vector<LoadSegment>>
fromProgramHeaders(const object::ELFFile<ELFT> &EF, LoadSegmentNotes &Notes) {
  std::vector<LoadSegment> Out;
  if (EF.getHeader().e_type == ELF::ET_REL)
    return Out;
  Expected<Layout<ELFT>> L = Layout<ELFT>::read(EF);
  if (!L)
    return L.takeError();
  if (L->rewritten()) {
    Notes.Reconstructed = true;
    return L->reconstruct(Notes.Dropped);
  }
  for (const typename ELFT::Phdr &P : L->Phdrs)
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
      ++Notes.Dropped;
      continue;
    }
    Kept.push_back(S);
  }
  return Kept;
}

template <typename ELFT> bool rewritten(const object::ELFFile<ELFT> &EF) {
  if (EF.getHeader().e_type == ELF::ET_REL)
    return false;
  Expected<Layout<ELFT>> L = Layout<ELFT>::read(EF);
  if (!L) {
    consumeError(L.takeError());
    return false;
  }
  return L->rewritten();
}

} // namespace

Expected<std::vector<LoadSegment>> readLoadSegments(const object::ObjectFile &O,
                                                    LoadSegmentNotes *Notes) {
  LoadSegmentNotes Ignored;
  LoadSegmentNotes &N = Notes ? *Notes : Ignored;
  N = LoadSegmentNotes();
  if (const auto *E = dyn_cast<object::ELF32LEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), N);
  if (const auto *E = dyn_cast<object::ELF32BEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), N);
  if (const auto *E = dyn_cast<object::ELF64LEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), N);
  if (const auto *E = dyn_cast<object::ELF64BEObjectFile>(&O))
    return fromProgramHeaders(E->getELFFile(), N);
  return std::vector<LoadSegment>();
}

bool hasRewrittenLoadSegments(const object::ObjectFile &O) {
  if (const auto *E = dyn_cast<object::ELF32LEObjectFile>(&O))
    return rewritten(E->getELFFile());
  if (const auto *E = dyn_cast<object::ELF32BEObjectFile>(&O))
    return rewritten(E->getELFFile());
  if (const auto *E = dyn_cast<object::ELF64LEObjectFile>(&O))
    return rewritten(E->getELFFile());
  if (const auto *E = dyn_cast<object::ELF64BEObjectFile>(&O))
    return rewritten(E->getELFFile());
  return false;
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
