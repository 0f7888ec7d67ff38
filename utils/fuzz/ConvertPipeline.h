//===- ConvertPipeline.h - ELF files through both converters ----*- C++ -*-===//
//
// What fuzz-convert and fuzz-sidefile run on an ELF file with DWARF: the
// address converter (convertObject, finalize, both table writers, both
// tables read back and checked by the verifier against the same DWARF), the
// type converter (buildTypeTable with the library's own DWARF reader and
// with LLVM's, the CTF writer, the dict read back), and the kernel mode's
// pipeline (units split among modules, the shared repository, parent and
// child dicts, the archive). Invariants: what we write opens with our
// readers, the two DWARF readers give the same dict (docs/CTF.md: "the
// types are the same either way"), and the shared repository never refuses
// (it fails only on its own bugs). The type converters see only objects
// the ctf command would read (typesContext).
//
// Mutations are ELF-aware (mutateElf): most of them change the bytes of one
// .debug_* section (or the symbol table) in place, so the file stays an ELF
// file and the DWARF parsers, not the section headers, meet the damage; the
// rest mutate the whole file.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UTILS_FUZZ_CONVERTPIPELINE_H
#define DWARFPACK_UTILS_FUZZ_CONVERTPIPELINE_H

#include "FuzzCommon.h"

#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CTF/SymtabOrder.h"
#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/CtfKernel/CtfArchive.h"
#include "dwarfpack/CtfKernel/GroupedBuild.h"
#include "dwarfpack/CtfKernel/SharedRepository.h"
#include "dwarfpack/DWARF/ObjectConverter.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/DwarfSections.h"
#include "dwarfpack/Support/ElfTables.h"
#include "dwarfpack/Types/DwarfTypeBuilder.h"
#include "dwarfpack/Verify/TableVerifier.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <random>
#include <tuple>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace dwarfpack {
namespace fuzz {

using namespace llvm;

inline void verifyAgainst(const verify::VerifiableTable &Table,
                          const object::ObjectFile &Obj) {
  WarningLog Log;
  // Mismatches are expected where the DWARF is damaged: only crashes and
  // hangs count.
  auto S = verify::verifyTableAgainst(Table, Obj, Log);
  if (!S)
    consumeError(S.takeError());
}

inline void addressTables(MemoryBufferRef Input,
                          const object::ObjectFile *Obj) {
  FunctionModel Model;
  WarningLog Log;
  ConvertOptions Opts;
  Opts.NumThreads = 1;
  if (Error E = convertObject(Input, Model, Opts, Log)) {
    consumeError(std::move(E));
    return;
  }
  Model.finalize(Log);
  if (Model.functions().empty())
    return;
  // A writer may refuse a model with an error (sizes or spans its format
  // cannot encode): a clear error, not a finding.
  Expected<std::string> G = gsym::encodeGsym(Model);
  if (G) {
    auto R = gsym::GsymReader::create(MemoryBufferRef(*G, "table.gsym"));
    if (!R)
      fail("GSYM just written does not open: " + toString(R.takeError()));
    AddressPicker Picker;
    for (const FunctionEntry &F : Model.functions()) {
      Picker.add(F.Range.Start);
      Picker.add(F.Range.End - 1);
    }
    keep(lookupAll(**R, Picker));
    if (Obj)
      verifyAgainst(*verify::makeGsymTable(**R), *Obj);
  } else {
    consumeError(G.takeError());
  }
  Expected<std::string> C = compact::encodeCompact(Model);
  if (C) {
    auto R = compact::CompactReader::create(MemoryBufferRef(*C, "table.dpat"));
    if (!R)
      fail("compact table just written does not open: " +
           toString(R.takeError()));
    auto T = verify::makeCompactTable(**R);
    if (!T)
      consumeError(T.takeError());
    else if (Obj)
      verifyAgainst(**T, *Obj);
  } else {
    consumeError(C.takeError());
  }
}

inline std::unique_ptr<DWARFContext>
quietContext(const object::ObjectFile &Obj) {
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  return DWARFContext::create(
      Obj,
      Obj.isRelocatableObject() ? DWARFContext::ProcessDebugRelocations::Process
                                : DWARFContext::ProcessDebugRelocations::Ignore,
      nullptr, "", Ignore, Ignore);
}

/// Obj's DWARF context, or null where the ctf command would refuse the
/// object before reading its types (tools/dwarfpack/CtfCommand.cpp, and
/// openObject in CtfKernel.cpp for each object of the kernel mode): bad
/// ELF tables, compressed sections that cannot be had, DIEs whose values
/// run past their section.
inline std::unique_ptr<DWARFContext>
typesContext(const object::ObjectFile &Obj) {
  if (Error E =
          joinErrors(checkElfTables(Obj), checkDebugSectionsReadable(Obj))) {
    consumeError(std::move(E));
    return nullptr;
  }
  std::unique_ptr<DWARFContext> Ctx = quietContext(Obj);
  if (Error E = checkDieExtents(*Ctx)) {
    consumeError(std::move(E));
    return nullptr;
  }
  return Ctx;
}

/// The dict of Obj's types, read with the fast DWARF reader or LLVM's;
/// empty when the build refuses the object.
inline std::string typeDict(const object::ObjectFile &Obj, bool FastReader) {
  std::unique_ptr<DWARFContext> Ctx = quietContext(Obj);
  types::BuildOptions Opts;
  Opts.FastReader = FastReader;
  WarningLog Log;
  Expected<types::BuildResult> R = types::buildTypeTable(Obj, *Ctx, Opts, Log);
  if (!R) {
    consumeError(R.takeError());
    return {};
  }
  std::optional<ctf::SymtabOrder> Order = ctf::symtabOrder(Obj);
  ctf::WriteOptions W;
  W.Threads = 1;
  W.Symtab = Order ? &*Order : nullptr;
  Expected<std::string> Dict = ctf::writeDict(R->Table, W);
  if (!Dict) {
    consumeError(Dict.takeError());
    return {};
  }
  auto D = ctf::DictReader::open(*Dict);
  if (!D)
    fail("CTF dict just written does not open: " + toString(D.takeError()));
  return std::move(*Dict);
}

/// The kernel mode's pipeline (tools/dwarfpack/CtfKernel.cpp) on Obj's
/// units (Ctx: its typesContext): odd and even units make two modules, all
/// units again a third (blocklisted), so that types are shared, private and
/// stored twice. A Partner (another object, whose types partly agree with
/// Obj's and partly conflict) is a fourth module, and its units go into the
/// third too: modules built from different objects, as the kernel's are.
/// An intact partner (PartnerIntact: fuzz-convert's DWARFPACK_FUZZ_PARTNER)
/// must open and convert. A damaged one (the pair mode) is opened as the
/// kernel mode opens each object: one the command would refuse is left
/// out, one whose units do not convert ends the run, as it ends the
/// command.
inline void kernelDicts(const object::ObjectFile &Obj, DWARFContext &Ctx,
                        const object::ObjectFile *Partner = nullptr,
                        bool PartnerIntact = true) {
  using namespace ctfkernel;
  types::BuildOptions Opts;
  WarningLog Log;
  ElfSymbolNames Syms = collectElfSymbols(Obj, /*GlobalDataOnly=*/true);
  types::TypeMerger Even, Odd, All, Other;
  unsigned Unit = 0;
  auto Alternate = [&](StringRef, StringRef) -> UnitTarget {
    return {Unit++ % 2 ? &Odd : &Even, &Syms.Objects};
  };
  auto Everything = [&](StringRef, StringRef) -> UnitTarget {
    return {&All, &Syms.Objects};
  };
  for (const UnitClassifier &Classify :
       {UnitClassifier(Alternate), UnitClassifier(Everything)}) {
    Expected<GroupedStats> S = convertUnitsInto(Ctx, Opts, Classify, Log);
    if (!S) {
      consumeError(S.takeError());
      return;
    }
  }
  ElfSymbolNames PartnerSyms;
  std::unique_ptr<DWARFContext> PCtx =
      Partner ? typesContext(*Partner) : nullptr;
  if (Partner && !PCtx && PartnerIntact)
    fail("the partner object is refused");
  if (PCtx) {
    PartnerSyms = collectElfSymbols(*Partner, /*GlobalDataOnly=*/true);
    auto Own = [&](StringRef, StringRef) -> UnitTarget {
      return {&Other, &PartnerSyms.Objects};
    };
    auto Shared = [&](StringRef, StringRef) -> UnitTarget {
      return {&All, &PartnerSyms.Objects};
    };
    for (const UnitClassifier &Classify :
         {UnitClassifier(Own), UnitClassifier(Shared)})
      if (Expected<GroupedStats> S =
              convertUnitsInto(*PCtx, Opts, Classify, Log);
          !S) {
        if (PartnerIntact)
          fail("the partner object does not convert: " +
               toString(S.takeError()));
        consumeError(S.takeError());
        return;
      }
  }
  StringSet<> Defined;
  for (types::TypeMerger *M : {&Even, &Odd, &All, &Other})
    M->collectDefinedVariables(Defined);
  SharedRepository Repo;
  for (auto [Name, M, ModSyms] :
       {std::tuple<StringRef, types::TypeMerger *, const ElfSymbolNames *>{
            "vmlinux", &Even, &Syms},
        {"odd", &Odd, &Syms},
        {"all", &All, &Syms},
        {"partner", &Other, &PartnerSyms}}) {
    if (M == &Other && !PCtx)
      continue;
    M->dropDeclarations(Defined);
    types::TypeTable T = M->finish(*ModSyms);
    Repo.addModule(Name, T, hashTypeTable(T), /*Blocklisted=*/Name == "all");
  }
  Expected<SharedRepository::Result> R = Repo.finish();
  if (!R)
    fail("the shared repository refused the modules: " +
         toString(R.takeError()));
  ctf::WriteOptions W;
  W.Threads = 1;
  std::vector<std::string> Dicts;
  std::vector<ArchiveMember> Members;
  for (size_t I = 0; I <= R->Children.size(); ++I) {
    if (I == 1)
      W.ParentName = ParentMemberName;
    Expected<std::string> D =
        ctf::writeDict(I ? R->Children[I - 1].Table : R->Parent, W);
    if (!D) {
      consumeError(D.takeError());
      return;
    }
    if (auto Read = ctf::DictReader::open(*D); !Read)
      fail("kernel-mode dict just written does not open: " +
           toString(Read.takeError()));
    Dicts.push_back(std::move(*D));
  }
  for (size_t I = 0; I < Dicts.size(); ++I)
    Members.push_back(
        {I ? R->Children[I - 1].Name : std::string(ParentMemberName),
         Dicts[I]});
  std::string Archive = writeCtfArchive(std::move(Members));
  raw_null_ostream Null;
  if (Error E = ctf::dump(Archive, Null))
    fail("kernel-mode archive just written does not read: " +
         toString(std::move(E)));
}

/// Runs everything above on Input (an ELF file, or anything else), with
/// Partner, when given, in the kernel pipeline.
inline void convertAll(MemoryBufferRef Input,
                       const object::ObjectFile *Partner = nullptr) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createELFObjectFile(Input);
  if (!Obj)
    consumeError(Obj.takeError());
  addressTables(Input, Obj ? Obj->get() : nullptr);
  if (!Obj)
    return;
  std::unique_ptr<DWARFContext> Ctx = typesContext(**Obj);
  if (!Ctx)
    return;
  std::string Fast = typeDict(**Obj, /*FastReader=*/true);
  std::string Slow = typeDict(**Obj, /*FastReader=*/false);
  if (Fast != Slow)
    fail("the fast DWARF reader and LLVM's give different dicts (" +
         Twine(Fast.size()) + " and " + Twine(Slow.size()) + " bytes)");
  kernelDicts(**Obj, *Ctx, Partner);
}

/// Two objects of a pair (FuzzCommon.h), both possibly damaged, through
/// the kernel pipeline only (fuzz-convert's pair mode; the rest of
/// convertAll is what fuzz-convert runs on one object): First makes the
/// first three modules, Second is the partner.
inline void kernelPair(MemoryBufferRef First, MemoryBufferRef Second) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createELFObjectFile(First);
  if (!Obj) {
    consumeError(Obj.takeError());
    return;
  }
  std::unique_ptr<DWARFContext> Ctx = typesContext(**Obj);
  if (!Ctx)
    return;
  Expected<std::unique_ptr<object::ObjectFile>> Partner =
      object::ObjectFile::createELFObjectFile(Second);
  if (!Partner)
    consumeError(Partner.takeError());
  kernelDicts(**Obj, *Ctx, Partner ? Partner->get() : nullptr,
              /*PartnerIntact=*/false);
}

/// Where the bytes of the sections worth mutating lie in an ELF file:
/// .debug_* (and their relocations), .symtab and .strtab.
inline std::vector<std::pair<size_t, size_t>>
sectionsToMutate(const uint8_t *Data, size_t Size) {
  std::vector<std::pair<size_t, size_t>> Out;
  StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createELFObjectFile(MemoryBufferRef(Bytes, "m"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return Out;
  }
  for (const object::SectionRef &S : (*Obj)->sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (!Name->contains(".debug_") && *Name != ".symtab" && *Name != ".strtab")
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    if (Contents->empty() || Contents->data() < Bytes.data() ||
        Contents->data() + Contents->size() > Bytes.data() + Size)
      continue;
    Out.push_back({size_t(Contents->data() - Bytes.data()), Contents->size()});
  }
  return Out;
}

/// libFuzzer's custom mutator for ELF inputs.
inline size_t mutateElf(uint8_t *Data, size_t Size, size_t MaxSize,
                        unsigned Seed) {
  std::minstd_rand Rand(Seed);
  // Not in place when a smaller input is asked for (-minimize_crash).
  if (Size <= MaxSize && Rand() % 8 != 0) {
    std::vector<std::pair<size_t, size_t>> Secs = sectionsToMutate(Data, Size);
    if (!Secs.empty()) {
      auto [Off, Len] = Secs[Rand() % Secs.size()];
      // In place: a mutation that shrinks the section leaves its old tail.
      std::vector<uint8_t> Copy(Data + Off, Data + Off + Len);
      size_t N = LLVMFuzzerMutate(Copy.data(), Len, Len);
      std::memcpy(Data + Off, Copy.data(), std::min(N, Len));
      return Size;
    }
  }
  return LLVMFuzzerMutate(Data, Size, MaxSize);
}

/// libFuzzer's custom mutator for pairs of ELF files (FuzzCommon.h): one
/// of the two, picked at random, goes through mutateElf; the pair's header
/// follows its new size. An input that is not a pair is mutated whole.
inline size_t mutateElfPair(uint8_t *Data, size_t Size, size_t MaxSize,
                            unsigned Seed) {
  std::optional<std::pair<StringRef, StringRef>> P =
      splitPair(StringRef(reinterpret_cast<const char *>(Data), Size));
  if (!P)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  std::minstd_rand Rand(Seed);
  bool Second = Rand() % 2;
  StringRef Part = Second ? P->second : P->first;
  // What the part may grow (or, minimising a crash, must shrink) to.
  size_t Rest = Size - Part.size();
  if (MaxSize <= Rest)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  size_t Room = MaxSize - Rest;
  std::vector<uint8_t> Buf(std::max(Room, Part.size()));
  std::memcpy(Buf.data(), Part.data(), Part.size());
  size_t N = mutateElf(Buf.data(), Part.size(), Room, Rand());
  StringRef Mutated(reinterpret_cast<const char *>(Buf.data()), N);
  std::string Out =
      Second ? joinPair(P->first, Mutated) : joinPair(Mutated, P->second);
  std::memcpy(Data, Out.data(), Out.size());
  return Out.size();
}

} // namespace fuzz
} // namespace dwarfpack

#endif
