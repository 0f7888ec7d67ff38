//===- ConvertPipeline.h - ELF files through the pipelines ------*- C++ -*-===//
//
// What fuzz-convert and fuzz-sidefile run on an ELF file with DWARF, all of
// it through the library's entry points, as the commands run it:
//
//  * InputObject::open on the bytes, then pipeline::packObject: the address
//    model and the type model in one walk (`dwarfpack pack`), on 1 and on
//    2 threads, and each model alone (what `gsym` and `ctf` run);
//  * the outputs read back: the compact table (packObject's) and GSYM
//    (encodeTable of the same model) opened by content (OpenTable.h) and
//    looked up at every function's first and last byte (and the object
//    itself opened as `lookup OBJECT` opens it: the same answers as the
//    compact table), then checked by
//    the verifier (lib/Verify, LLVM's DWARFContext: only a crash or a hang
//    counts there, the DWARF being damaged); the CTF dict identified,
//    dumped and opened by DictReader;
//  * the kernel pipeline, pipeline::packKernelObjects, on the object's
//    bytes: its units split between the core kernel and a built-in module,
//    the object again as a blocklisted loadable module, and a partner
//    object (another object whose types partly agree with it and partly
//    conflict) as a built-in module's object and as a loadable module; on
//    1 and 2 threads, every dict, the archive and every address table
//    read back.
//
// Invariants (fail() aborts on them):
//  * pack's outputs are those of the single-model runs: one model fails
//    when both together fail, neither when they succeed, and the table and
//    the dict are byte-identical;
//  * the thread count changes no byte (nor whether a run fails);
//  * what the pipelines write opens with our readers;
//  * the kernel pipeline succeeds on objects that pack converts with their
//    types (its repository fails only on its own bugs).
//
// Mutations are ELF-aware (mutateElf): most of them change the bytes of one
// .debug_* section (or the symbol table) in place, so the file stays an ELF
// file and the DWARF readers, not the section headers, meet the damage; the
// rest mutate the whole file.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UTILS_FUZZ_CONVERTPIPELINE_H
#define DWARFPACK_UTILS_FUZZ_CONVERTPIPELINE_H

#include "FuzzCommon.h"

#include "dwarfpack/AddressTable/AddressModelBuilder.h"
#include "dwarfpack/CTF/CtfReader.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Pipeline/KernelPack.h"
#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/Symbolize/ObjectData.h"
#include "dwarfpack/Symbolize/OpenTable.h"
#include "dwarfpack/Verify/TableVerifier.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <random>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace dwarfpack {
namespace fuzz {

using namespace llvm;

/// The object in Input, opened as the commands open their input; null when
/// it is refused.
inline std::unique_ptr<input::InputObject> openObject(MemoryBufferRef Input,
                                                      WarningLog &Log) {
  Expected<std::unique_ptr<input::InputObject>> Obj =
      input::InputObject::open(Input, Log);
  if (!Obj) {
    consumeError(Obj.takeError());
    return nullptr;
  }
  return std::move(*Obj);
}

/// packObject with the models asked for (the table in the compact
/// format); null when it fails.
inline std::unique_ptr<pipeline::PackResult> pack(const input::InputObject &Obj,
                                                  bool Addresses, bool Types,
                                                  unsigned Threads) {
  pipeline::PackOptions Opts;
  Opts.NumThreads = Threads;
  Opts.AddressTable = Addresses;
  Opts.Types = Types;
  WarningLog Log;
  Expected<std::unique_ptr<pipeline::PackResult>> R =
      pipeline::packObject(Obj, Opts, Log);
  if (!R) {
    consumeError(R.takeError());
    return nullptr;
  }
  return std::move(*R);
}

/// Fails unless both runs failed, or both wrote the same bytes.
inline void sameBytes(const std::string *A, const std::string *B,
                      const Twine &What) {
  if (bool(A) != bool(B))
    fail(What + ": one run fails, the other does not");
  if (A && *A != *B)
    fail(What + ": different bytes (" + Twine(A->size()) + " and " +
         Twine(B->size()) + ")");
}

inline const std::string *tableOf(const pipeline::PackResult *R) {
  return R ? &R->Table : nullptr;
}
inline const std::string *dictOf(const pipeline::PackResult *R) {
  return R ? &R->Ctf : nullptr;
}

/// An address table the pipeline wrote (Format: how it was asked for): it
/// must open by content as that format; lookups at Picker's addresses; the
/// verifier against the object (Object: its bytes), when given.
inline void checkTable(StringRef Bytes, FileFormat::Kind Format,
                       const AddressPicker &Picker,
                       std::optional<MemoryBufferRef> Object) {
  const FileFormat *F = identifyFormat(Bytes);
  if (!F || F->ID != Format)
    fail("an address table just written is not recognised as what it is");
  Expected<OpenedTable> T =
      openTable(MemoryBuffer::getMemBufferCopy(Bytes, "table"));
  if (!T)
    fail("an address table just written does not open: " +
         toString(T.takeError()));
  keep(lookupAll(*T->Table, Picker));
  if (!Object)
    return;
  WarningLog Log;
  // Mismatches are expected where the DWARF is damaged: only crashes and
  // hangs count.
  Expected<verify::TableVerifyStats> S =
      verify::verifyTableBuffer(MemoryBufferRef(Bytes, "table"), *Object, Log);
  if (!S)
    consumeError(S.takeError());
}

/// A CTF dict or archive the pipeline wrote: recognised by content, dumped
/// whole; a dict opened by DictReader too.
inline void checkCtf(StringRef Bytes, FileFormat::Kind Format) {
  const FileFormat *F = identifyFormat(Bytes);
  if (!F || F->ID != Format)
    fail("a CTF file just written is not recognised as what it is");
  raw_null_ostream Null;
  if (Error E = F->Dump(MemoryBufferRef(Bytes, "ctf"), Null, OpenOptions()))
    fail("a CTF file just written does not dump: " + toString(std::move(E)));
  if (Format != FileFormat::Kind::CtfDict)
    return;
  if (Expected<ctf::DictReader> D = ctf::DictReader::open(Bytes); !D)
    fail("a CTF dict just written does not open: " + toString(D.takeError()));
}

/// The object opened for lookups as `lookup OBJECT` opens it (converted in
/// memory) answers as the table pack wrote of it.
inline void objectAnswersAsItsTable(MemoryBufferRef Input, StringRef Table,
                                    const AddressPicker &Picker) {
  OpenOptions Opts;
  Opts.Objects.Convert = true;
  Opts.Objects.Threads = 1;
  Expected<OpenedTable> Object =
      openTable(MemoryBuffer::getMemBufferCopy(Input.getBuffer(),
                                               Input.getBufferIdentifier()),
                Opts);
  if (!Object)
    fail("an object pack converts does not open for lookups: " +
         toString(Object.takeError()));
  Expected<OpenedTable> Written =
      openTable(MemoryBuffer::getMemBufferCopy(Table, "table"));
  if (!Written)
    fail("an address table just written does not open: " +
         toString(Written.takeError()));
  if (lookupAll(*Object->Table, Picker) != lookupAll(*Written->Table, Picker))
    fail("the object opened for lookups answers otherwise than its table");
}

/// Every function's first and last byte, and the usual corner values.
inline AddressPicker functionAddresses(const FunctionModel &Model) {
  AddressPicker Picker;
  for (const FunctionEntry &F : Model.functions()) {
    Picker.add(F.Range.Start);
    Picker.add(F.Range.End - 1);
  }
  return Picker;
}

/// Both models in one walk, against each alone and against 2 threads; the
/// outputs read back. Returns whether pack converted the object's types.
inline bool packChecks(const input::InputObject &Obj, MemoryBufferRef Input) {
  std::unique_ptr<pipeline::PackResult> Both = pack(Obj, true, true, 1);
  std::unique_ptr<pipeline::PackResult> Two = pack(Obj, true, true, 2);
  sameBytes(tableOf(Both.get()), tableOf(Two.get()),
            "pack's table on 1 and 2 threads");
  sameBytes(dictOf(Both.get()), dictOf(Two.get()),
            "pack's dict on 1 and 2 threads");
  std::unique_ptr<pipeline::PackResult> Table = pack(Obj, true, false, 1);
  std::unique_ptr<pipeline::PackResult> Dict = pack(Obj, false, true, 1);
  if (!Both) {
    if (Table && Dict)
      fail("pack fails with both models, and succeeds with each alone");
    return false;
  }
  sameBytes(tableOf(Both.get()), tableOf(Table.get()),
            "pack's table with both models and alone");
  sameBytes(dictOf(Both.get()), dictOf(Dict.get()),
            "pack's dict with both models and alone");
  if (!Both->Model.functions().empty()) {
    AddressPicker Picker = functionAddresses(Both->Model);
    checkTable(Both->Table, FileFormat::Kind::CompactAddressTable, Picker,
               Input);
    objectAnswersAsItsTable(Input, Both->Table, Picker);
    // GSYM from the same model, as `gsym --format=gsym` writes it.
    Expected<std::string> G1 =
        pipeline::encodeTable(Both->Model, pipeline::TableFormat::Gsym, 1);
    Expected<std::string> G2 =
        pipeline::encodeTable(Both->Model, pipeline::TableFormat::Gsym, 2);
    // A writer may refuse a model with an error (sizes or spans its
    // format cannot encode): a clear error, not a finding.
    sameBytes(G1 ? &*G1 : nullptr, G2 ? &*G2 : nullptr,
              "GSYM on 1 and 2 threads");
    if (G1)
      checkTable(*G1, FileFormat::Kind::Gsym, Picker, Input);
    else
      consumeError(G1.takeError());
    if (!G2)
      consumeError(G2.takeError());
  }
  if (!Both->Types)
    return false;
  checkCtf(Both->Ctf, FileFormat::Kind::CtfDict);
  return true;
}

/// The kernel pipeline's objects: Main's units alternately the core
/// kernel's and the built-in module "odd"'s, Main again as the loadable
/// module "all" (blocklisted, so it shares nothing and stores its types
/// again), and Partner, when given, as the object of the built-in module
/// "pbuiltin" and as the loadable module "partner". Unit counts the units
/// attributed so far.
inline pipeline::KernelObjects
kernelObjects(MemoryBufferRef Main, std::optional<MemoryBufferRef> Partner,
              unsigned &Unit) {
  pipeline::KernelObjects In;
  In.CoreObjs.push_back(
      {Main.getBufferIdentifier().str(), "", Main.getBuffer()});
  In.Loadable.push_back(
      {Main.getBufferIdentifier().str(), "all", Main.getBuffer()});
  if (Partner) {
    // Named apart (the tables are named by the object's file name), in the
    // partner's directory (where split DWARF files are looked for).
    SmallString<128> Builtin(
        sys::path::parent_path(Partner->getBufferIdentifier()));
    sys::path::append(Builtin, "pbuiltin.o");
    In.BuiltinObjs.push_back(
        {std::string(Builtin), "pbuiltin", Partner->getBuffer()});
    In.Loadable.push_back({Partner->getBufferIdentifier().str(), "partner",
                           Partner->getBuffer()});
  }
  In.ModuleForUnit = [&Unit](StringRef, StringRef) {
    return Unit++ % 2 ? StringRef("odd") : StringRef();
  };
  In.IsBlocklisted = [](StringRef M) { return M == "all"; };
  In.IsBuiltinModule = [](StringRef M) {
    return M == "odd" || M == "pbuiltin";
  };
  return In;
}

/// The kernel pipeline on 1 thread; null when it fails (MustSucceed: a
/// finding).
inline std::unique_ptr<pipeline::KernelPackResult>
packKernel(MemoryBufferRef Main, std::optional<MemoryBufferRef> Partner,
           unsigned Threads, bool MustSucceed) {
  unsigned Unit = 0;
  pipeline::KernelObjects In = kernelObjects(Main, Partner, Unit);
  pipeline::KernelPackOptions Opts;
  Opts.NumThreads = Threads;
  Opts.AddressTables = true;
  WarningLog Log;
  Expected<std::unique_ptr<pipeline::KernelPackResult>> R =
      pipeline::packKernelObjects(In, Opts, Log);
  if (!R) {
    if (MustSucceed)
      fail("the kernel pipeline refuses objects pack converts: " +
           toString(R.takeError()));
    consumeError(R.takeError());
    return nullptr;
  }
  return std::move(*R);
}

/// The kernel pipeline on 1 and 2 threads, which must give the same bytes;
/// every output read back.
inline void kernelChecks(MemoryBufferRef Main,
                         std::optional<MemoryBufferRef> Partner,
                         bool MustSucceed) {
  std::unique_ptr<pipeline::KernelPackResult> One =
      packKernel(Main, Partner, 1, MustSucceed);
  std::unique_ptr<pipeline::KernelPackResult> Two =
      packKernel(Main, Partner, 2, MustSucceed);
  if (bool(One) != bool(Two))
    fail("the kernel pipeline fails on 1 or 2 threads only");
  if (!One)
    return;
  if (One->Files != Two->Files || One->Archive != Two->Archive ||
      One->Tables != Two->Tables)
    fail("the kernel pipeline writes other bytes on 2 threads");
  for (const auto &[Name, Bytes] : One->Files)
    checkCtf(Bytes, FileFormat::Kind::CtfDict);
  checkCtf(One->Archive, FileFormat::Kind::CtfArchive);
  AddressPicker Picker;
  for (const auto &[Name, Bytes] : One->Tables) {
    Picker.addFromBytes(Bytes);
    checkTable(Bytes, FileFormat::Kind::CompactAddressTable, Picker,
               std::nullopt);
  }
}

/// Runs everything above on Input (an ELF file, or anything else), with
/// Partner, an intact object, in the kernel pipeline.
/// The DATA answers of Obj (lib/Symbolize's ObjectData): at each symbol's
/// and variable's start and just past it, which must not crash or hang
/// whatever the symbols and DWARF say.
inline void dataChecks(const input::InputObject &Obj) {
  WarningLog Log;
  Expected<ObjectData> D = ObjectData::read(Obj, Log);
  if (!D) {
    consumeError(D.takeError());
    return;
  }
  for (uint64_t A : {uint64_t(0), uint64_t(1), uint64_t(0x1000), ~uint64_t(0)})
    (void)D->find(A);
  for (const SymbolFunction &S : collectSymbolizerSymbols(Obj)) {
    (void)D->find(S.Range.Start);
    (void)D->find(S.Range.End);
  }
}

/// The FRAME answers of Input (lib/Symbolize's ObjectFrames): at the
/// symbols' starts and ends, which read the units that hold them (their
/// location lists, types, declarations) and must not crash or hang.
inline void frameChecks(MemoryBufferRef Input) {
  WarningLog Log;
  std::unique_ptr<input::InputObject> Obj = openObject(Input, Log);
  if (!Obj)
    return;
  std::vector<SymbolFunction> Symbols = collectSymbolizerSymbols(*Obj);
  input::InputWithDebugFile In;
  In.Object = std::move(Obj);
  Expected<ObjectFrames> F = ObjectFrames::read(std::move(In), Log);
  if (!F) {
    consumeError(F.takeError());
    return;
  }
  std::vector<std::string> Problems;
  for (uint64_t A : {uint64_t(0), uint64_t(1), uint64_t(0x1000), ~uint64_t(0)})
    (void)F->find(A, &Problems);
  for (const SymbolFunction &S : Symbols) {
    (void)F->find(S.Range.Start, &Problems);
    (void)F->find(S.Range.End, &Problems);
  }
}

inline void convertAll(MemoryBufferRef Input,
                       std::optional<MemoryBufferRef> Partner = std::nullopt) {
  WarningLog Log;
  std::unique_ptr<input::InputObject> Obj = openObject(Input, Log);
  if (!Obj)
    return;
  dataChecks(*Obj);
  frameChecks(Input);
  bool Types = packChecks(*Obj, Input);
  kernelChecks(Input, Partner, /*MustSucceed=*/Types);
}

/// Whether pack converts the types of the object in Input.
inline bool packsTypes(MemoryBufferRef Input) {
  WarningLog Log;
  std::unique_ptr<input::InputObject> Obj = openObject(Input, Log);
  if (!Obj)
    return false;
  std::unique_ptr<pipeline::PackResult> R = pack(*Obj, true, true, 1);
  return R && R->Types;
}

/// Two objects of a pair (FuzzCommon.h), both possibly damaged, through the
/// kernel pipeline only (fuzz-convert's pair mode; the rest of convertAll
/// is what fuzz-convert runs on one object): First is the main object,
/// Second the partner. The pipeline must succeed when pack converts both.
inline void kernelPair(MemoryBufferRef First, MemoryBufferRef Second) {
  kernelChecks(First, Second, packsTypes(First) && packsTypes(Second));
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
