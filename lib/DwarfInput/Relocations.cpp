//===- Relocations.cpp - Relocating a relocatable object's DWARF ----------===//

#include "Relocations.h"

#include "Bytes.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace dwarfpack {
namespace input {

unsigned relocationWidth(uint16_t Machine, uint64_t Type) {
  // The data relocations compilers put in debug sections.
  switch (Machine) {
  case ELF::EM_X86_64:
    switch (Type) {
    case ELF::R_X86_64_64:
    case ELF::R_X86_64_PC64:
    case ELF::R_X86_64_DTPOFF64:
      return 8;
    case ELF::R_X86_64_32:
    case ELF::R_X86_64_32S:
    case ELF::R_X86_64_PC32:
    case ELF::R_X86_64_DTPOFF32:
      return 4;
    }
    break;
  case ELF::EM_386:
    switch (Type) {
    case ELF::R_386_32:
    case ELF::R_386_PC32:
    case ELF::R_386_TLS_LDO_32:
      return 4;
    }
    break;
  case ELF::EM_AARCH64:
    switch (Type) {
    case ELF::R_AARCH64_ABS64:
    case ELF::R_AARCH64_PREL64:
      return 8;
    case ELF::R_AARCH64_ABS32:
    case ELF::R_AARCH64_PREL32:
      return 4;
    case ELF::R_AARCH64_ABS16:
    case ELF::R_AARCH64_PREL16:
      return 2;
    }
    break;
  case ELF::EM_ARM:
    switch (Type) {
    case ELF::R_ARM_ABS32:
    case ELF::R_ARM_REL32:
    case ELF::R_ARM_TLS_LDO32:
      return 4;
    }
    break;
  case ELF::EM_PPC64:
    switch (Type) {
    case ELF::R_PPC64_ADDR64:
    case ELF::R_PPC64_REL64:
    case ELF::R_PPC64_DTPREL64:
      return 8;
    case ELF::R_PPC64_ADDR32:
    case ELF::R_PPC64_REL32:
      return 4;
    }
    break;
  case ELF::EM_S390:
    switch (Type) {
    case ELF::R_390_64:
    case ELF::R_390_PC64:
      return 8;
    case ELF::R_390_32:
    case ELF::R_390_PC32:
      return 4;
    }
    break;
  case ELF::EM_RISCV:
    switch (Type) {
    case ELF::R_RISCV_64:
    case ELF::R_RISCV_ADD64:
    case ELF::R_RISCV_SUB64:
      return 8;
    case ELF::R_RISCV_32:
    case ELF::R_RISCV_32_PCREL:
    case ELF::R_RISCV_ADD32:
    case ELF::R_RISCV_SUB32:
    case ELF::R_RISCV_SET32:
      return 4;
    case ELF::R_RISCV_ADD16:
    case ELF::R_RISCV_SUB16:
    case ELF::R_RISCV_SET16:
      return 2;
    case ELF::R_RISCV_ADD8:
    case ELF::R_RISCV_SUB8:
    case ELF::R_RISCV_SET8:
    case ELF::R_RISCV_SET6:
    case ELF::R_RISCV_SUB6:
      return 1;
    }
    break;
  case ELF::EM_LOONGARCH:
    switch (Type) {
    case ELF::R_LARCH_64:
    case ELF::R_LARCH_ADD64:
    case ELF::R_LARCH_SUB64:
      return 8;
    case ELF::R_LARCH_32:
    case ELF::R_LARCH_32_PCREL:
    case ELF::R_LARCH_ADD32:
    case ELF::R_LARCH_SUB32:
      return 4;
    case ELF::R_LARCH_ADD16:
    case ELF::R_LARCH_SUB16:
      return 2;
    case ELF::R_LARCH_ADD8:
    case ELF::R_LARCH_SUB8:
    case ELF::R_LARCH_ADD6:
    case ELF::R_LARCH_SUB6:
      return 1;
    }
    break;
  case ELF::EM_PPC:
    switch (Type) {
    case ELF::R_PPC_ADDR32:
    case ELF::R_PPC_REL32:
      return 4;
    }
    break;
  case ELF::EM_MIPS:
    // A MIPS64 relocation's type is its three types in one (the second
    // and third are R_MIPS_NONE in debug sections).
    switch (Type) {
    case ELF::R_MIPS_64:
    case ELF::R_MIPS_TLS_DTPREL64:
      return 8;
    case ELF::R_MIPS_32:
    case ELF::R_MIPS_PC32:
    case ELF::R_MIPS_TLS_DTPREL32:
      return 4;
    }
    break;
  case ELF::EM_SPARC:
  case ELF::EM_SPARC32PLUS:
  case ELF::EM_SPARCV9:
    switch (Type) {
    case ELF::R_SPARC_64:
    case ELF::R_SPARC_UA64:
      return 8;
    case ELF::R_SPARC_32:
    case ELF::R_SPARC_UA32:
      return 4;
    }
    break;
  case ELF::EM_BPF:
    switch (Type) {
    case ELF::R_BPF_64_ABS64:
      return 8;
    case ELF::R_BPF_64_ABS32:
      return 4;
    }
    break;
  case ELF::EM_HEXAGON:
    return Type == ELF::R_HEX_32 ? 4 : 0;
  case ELF::EM_CSKY:
    return Type == ELF::R_CKCORE_ADDR32 || Type == ELF::R_CKCORE_PCREL32 ? 4
                                                                         : 0;
  case ELF::EM_AMDGPU:
    if (Type == ELF::R_AMDGPU_ABS64)
      return 8;
    return Type == ELF::R_AMDGPU_ABS32 ? 4 : 0;
  case ELF::EM_MSP430:
    if (Type == ELF::R_MSP430_32)
      return 4;
    return Type == ELF::R_MSP430_16_BYTE ? 2 : 0;
  case ELF::EM_AVR:
    if (Type == ELF::R_AVR_32)
      return 4;
    return Type == ELF::R_AVR_16 ? 2 : 0;
  case ELF::EM_LANAI:
    return Type == ELF::R_LANAI_32 ? 4 : 0;
  default:
    break;
  }
  return 0;
}

bool relocationLeftAsWritten(uint16_t Machine, uint64_t Type) {
  // `.uleb128 A-B` (a range's length in .debug_rnglists and
  // .debug_loclists) is written with its value before linker relaxation
  // and a pair of relocations that redo it after: in the object the
  // written value is the one that holds, as LLVM reads it too.
  switch (Machine) {
  case ELF::EM_RISCV:
    return Type == ELF::R_RISCV_SET_ULEB128 || Type == ELF::R_RISCV_SUB_ULEB128;
  case ELF::EM_LOONGARCH:
    return Type == ELF::R_LARCH_ADD_ULEB128 || Type == ELF::R_LARCH_SUB_ULEB128;
  default:
    return false;
  }
}

RelocationApplier::RelocationApplier(const ObjectFile &Obj,
                                     ArrayRef<PlacedSection> Layout)
    : Obj(Obj) {
  std::tie(Supports, Resolver) = getRelocationResolver(Obj);
  for (const PlacedSection &P : Layout)
    SectionStart[P.Index] = P.Start;
}

RelocationApplier::SymbolValue
RelocationApplier::valueOf(const SymbolRef &Sym) {
  uintptr_t Key = Sym.getRawDataRefImpl().p;
  auto [It, New] = Cache.try_emplace(Key);
  if (!New)
    return It->second;
  SymbolValue V;
  Expected<uint64_t> Addr = Sym.getAddress();
  Expected<section_iterator> Sec = Sym.getSection();
  if (!Addr || !Sec) {
    consumeError(Addr.takeError());
    consumeError(Sec.takeError());
  } else if (*Sec != Obj.section_end()) {
    // As LLVM computes it with the layout's load addresses: the symbol's
    // address in the file, moved with its section.
    V.Value = *Addr;
    auto Start = SectionStart.find((*Sec)->getIndex());
    if (Start != SectionStart.end()) {
      V.Value += Start->second - (*Sec)->getAddress();
      V.P = Placement::Executable;
    } else {
      V.P = Placement::OtherSection;
    }
  } else {
    // Undefined: an address no relocation can place; the value is still
    // computed with the symbol at 0, as LLVM does.
    V.Value = *Addr;
  }
  It->second = V;
  return V;
}

unsigned RelocationApplier::widthAt(uint16_t Machine, uint64_t Type,
                                    uint64_t Offset, size_t Size) {
  unsigned Width = relocationWidth(Machine, Type);
  if (Width == 0 || !Supports(Type)) {
    // R_*_NONE and its kind write nothing.
    if (Type != 0 && !relocationLeftAsWritten(Machine, Type) && !Unsupported++)
      FirstUnsupportedType = Type;
    return 0;
  }
  if (Offset > Size || Size - Offset < Width) {
    ++OutOfBounds;
    return 0;
  }
  return Width;
}

void RelocationApplier::write(char *At, unsigned Width, bool LE,
                              uint64_t Value) {
  for (unsigned I = 0; I < Width; ++I)
    At[LE ? I : Width - 1 - I] = char(Value >> (8 * I));
}

bool RelocationApplier::applyX86_64Rela(const SectionRef &RelSec,
                                        MutableArrayRef<char> Target,
                                        RelocatedOffsets &Placed) {
  // Each field of a RelocationRef (type, offset, symbol, addend) finds and
  // checks its section and record again: that was half of the loading of
  // a kernel module's DWARF. The records read as one checked array give
  // the same values, used as LLVM's resolveRelocation() uses them for an
  // x86-64 SHT_RELA section: the record's addend, no located data. Other
  // sections, machines and malformed tables take the general path.
  const auto *Elf = dyn_cast<ELF64LEObjectFile>(&Obj);
  if (!Elf || Elf->getELFFile().getHeader().e_machine != ELF::EM_X86_64)
    return false;
  const ELF64LE::Shdr *Sec = Elf->getSection(RelSec.getRawDataRefImpl());
  if (Sec->sh_type != ELF::SHT_RELA)
    return false;
  Expected<ELF64LE::RelaRange> Relas = Elf->getELFFile().relas(*Sec);
  if (!Relas) {
    consumeError(Relas.takeError());
    return false;
  }
  for (const ELF64LE::Rela &R : *Relas) {
    uint64_t Type = R.getType(/*isMips64EL=*/false);
    unsigned Width = widthAt(ELF::EM_X86_64, Type, R.r_offset, Target.size());
    if (!Width)
      continue;
    SymbolValue S;
    // As RelocationRef::getSymbol() names it; index 0 is no symbol.
    if (uint32_t Index = R.getSymbol(/*isMips64EL=*/false)) {
      DataRefImpl D;
      D.d.a = Sec->sh_link;
      D.d.b = Index;
      S = valueOf(SymbolRef(D, &Obj));
    }
    write(Target.data() + R.r_offset, Width, /*LE=*/true,
          Resolver(Type, R.r_offset, S.Value, /*LocData=*/0, R.r_addend));
    if (S.P != Placement::None)
      Placed.add(R.r_offset, S.P == Placement::Executable);
  }
  return true;
}

void RelocationApplier::apply(const SectionRef &RelSec,
                              MutableArrayRef<char> Target,
                              RelocatedOffsets &Placed) {
  if (!Resolver || applyX86_64Rela(RelSec, Target, Placed))
    return;
  auto *Elf = cast<ELFObjectFileBase>(&Obj);
  uint16_t Machine = Elf->getEMachine();
  bool LE = Obj.isLittleEndian();
  for (const RelocationRef &R : RelSec.relocations()) {
    uint64_t Type = R.getType();
    uint64_t Offset = R.getOffset();
    unsigned Width = widthAt(Machine, Type, Offset, Target.size());
    if (!Width)
      continue;
    SymbolValue S;
    symbol_iterator Sym = R.getSymbol();
    if (Sym != Obj.symbol_end())
      S = valueOf(*Sym);
    char *At = Target.data() + Offset;
    uint64_t LocData = readFixed(At, Width, LE);
    write(At, Width, LE, resolveRelocation(Resolver, R, S.Value, LocData));
    if (S.P != Placement::None)
      Placed.add(Offset, S.P == Placement::Executable);
  }
}

void RelocationApplier::report(WarningLog &Log) const {
  if (Unsupported)
    Log.report("unsupported-relocation",
               Twine(Unsupported) +
                   " relocation(s) of debug sections of a "
                   "type not applied here (the first of "
                   "type " +
                   Twine(FirstUnsupportedType) +
                   "): the values they fill stay as in the file");
  if (OutOfBounds)
    Log.report("bad-relocation", Twine(OutOfBounds) +
                                     " relocation(s) of debug sections point "
                                     "past the end of their section");
}

} // namespace input
} // namespace dwarfpack
