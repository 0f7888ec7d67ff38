//===- KernelPackTest.cpp - The kernel pipeline on objects in memory ------===//
//
// packKernelObjects is what packKernel runs once it has read its list files;
// the fuzzers call it on objects in memory with units attributed by a
// function of their own. Objects given as bytes must give what the same
// objects give as files, and the attribution and blocklist functions must
// decide as the lists do.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Pipeline/KernelPack.h"
#include "dwarfpack/CTF/CtfReader.h"

#include "../YamlObject.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <set>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::pipeline;

namespace {

/// A relocatable object of two compile units, a.c and b.c (built in /src),
/// each with int and a struct of its own (a_s, b_s).
const std::string TwoUnits = test::elfYamlHeader("ET_REL") + R"(DWARF:
  debug_abbrev:
    - Table:
        - { Code: 1, Tag: DW_TAG_compile_unit, Children: DW_CHILDREN_yes,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_comp_dir, Form: DW_FORM_string } ] }
        - { Code: 2, Tag: DW_TAG_base_type, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_encoding, Form: DW_FORM_data1 },
                          { Attribute: DW_AT_byte_size, Form: DW_FORM_data1 } ] }
        - { Code: 3, Tag: DW_TAG_structure_type, Children: DW_CHILDREN_yes,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_byte_size, Form: DW_FORM_data1 } ] }
        - { Code: 4, Tag: DW_TAG_member, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string },
                          { Attribute: DW_AT_type, Form: DW_FORM_ref4 },
                          { Attribute: DW_AT_data_member_location,
                            Form: DW_FORM_data1 } ] }
  debug_info:
    - Version: 4
      AbbrevTableID: 0
      AbbrOffset: 0
      AddrSize: 8
      Entries:
        - { AbbrCode: 1, Values: [ { CStr: a.c }, { CStr: /src } ] }
        - { AbbrCode: 2, Values: [ { CStr: int }, { Value: 5 }, { Value: 4 } ] }
        - { AbbrCode: 3, Values: [ { CStr: a_s }, { Value: 4 } ] }
        - { AbbrCode: 4, Values: [ { CStr: x }, { Value: 21 }, { Value: 0 } ] }
        - { AbbrCode: 0 }
        - { AbbrCode: 0 }
    - Version: 4
      AbbrevTableID: 0
      AbbrOffset: 0
      AddrSize: 8
      Entries:
        - { AbbrCode: 1, Values: [ { CStr: b.c }, { CStr: /src } ] }
        - { AbbrCode: 2, Values: [ { CStr: int }, { Value: 5 }, { Value: 4 } ] }
        - { AbbrCode: 3, Values: [ { CStr: b_s }, { Value: 4 } ] }
        - { AbbrCode: 4, Values: [ { CStr: y }, { Value: 21 }, { Value: 0 } ] }
        - { AbbrCode: 0 }
        - { AbbrCode: 0 }
)";

std::string objectBytes() { return test::yamlObject(TwoUnits); }

/// The names of a dict's types.
std::set<std::string> typeNames(StringRef Dict) {
  std::set<std::string> Names;
  Expected<ctf::DictReader> D = ctf::DictReader::open(Dict);
  if (!D) {
    ADD_FAILURE() << toString(D.takeError());
    return Names;
  }
  for (uint32_t Id = 1; Id <= D->numTypes(); ++Id)
    Names.insert(D->string(D->type(Id).Name).str());
  return Names;
}

void writeFile(const Twine &Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path.str(), EC);
  ASSERT_FALSE(EC) << Path.str();
  OS << Bytes;
}

/// The objects of the test in memory, named where no file is: the object
/// as vmlinux.o, its b.c unit in the built-in module bi; the object again
/// as the loadable module lm, blocklisted.
KernelObjects objectsInMemory(StringRef Bytes) {
  KernelObjects In;
  In.CoreObjs.push_back({"/nonexistent-kernelpack/vmlinux.o", "", Bytes});
  In.Loadable.push_back({"/nonexistent-kernelpack/lm.ko", "lm", Bytes});
  In.ModuleForUnit = [](StringRef CompDir, StringRef Name) {
    return CompDir == "/src" && Name == "b.c" ? StringRef("bi") : StringRef();
  };
  In.IsBlocklisted = [](StringRef M) { return M == "lm"; };
  In.IsBuiltinModule = [](StringRef M) { return M == "bi"; };
  return In;
}

TEST(KernelPack, ObjectsInMemoryGiveWhatFilesGive) {
  std::string Bytes = objectBytes();
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("kernelpack", Dir));
  std::string Vmlinux = (Dir + "/vmlinux.o").str(), Ko = (Dir + "/lm.ko").str();
  writeFile(Vmlinux, Bytes);
  writeFile(Ko, Bytes);
  writeFile(Dir + "/modules.builtin", "kernel/bi.ko: b.o\n");
  writeFile(Dir + "/blocklist", "lm\n");

  for (bool Tables : {false, true}) {
    KernelPackOptions O;
    O.Inputs = {Vmlinux, Ko};
    O.BuiltinModules = (Dir + "/modules.builtin").str();
    O.Blocklist = (Dir + "/blocklist").str();
    O.AddressTables = Tables;
    WarningLog FileLog, MemLog;
    Expected<std::unique_ptr<KernelPackResult>> FromFiles =
        packKernel(O, FileLog);
    ASSERT_TRUE(bool(FromFiles)) << toString(FromFiles.takeError());
    Expected<std::unique_ptr<KernelPackResult>> FromMemory =
        packKernelObjects(objectsInMemory(Bytes), O, MemLog);
    ASSERT_TRUE(bool(FromMemory)) << toString(FromMemory.takeError());

    const KernelPackResult &F = **FromFiles, &M = **FromMemory;
    std::vector<std::string> Names;
    for (const auto &[Name, Data] : M.Files)
      Names.push_back(Name);
    EXPECT_EQ(Names, (std::vector<std::string>{"bi.builtin.ctf", "lm.mod.ctf",
                                               "shared_ctf.builtin.ctf",
                                               "vmlinux.builtin.ctf"}));
    EXPECT_EQ(F.Files, M.Files);
    EXPECT_EQ(F.Archive, M.Archive);
    EXPECT_EQ(F.Tables, M.Tables);
    EXPECT_EQ(F.WithoutFunctions.size(), M.WithoutFunctions.size());

    // b.c's unit is bi's, a.c's the core kernel's; int, which both use,
    // is shared; the blocklisted lm shares nothing and keeps both structs.
    EXPECT_EQ(typeNames(M.Files.at("bi.builtin.ctf")),
              std::set<std::string>{"b_s"});
    EXPECT_EQ(typeNames(M.Files.at("vmlinux.builtin.ctf")),
              std::set<std::string>{"a_s"});
    EXPECT_EQ(typeNames(M.Files.at("lm.mod.ctf")),
              (std::set<std::string>{"a_s", "b_s"}));
    EXPECT_TRUE(typeNames(M.Files.at("shared_ctf.builtin.ctf")).count("int"));
  }
  sys::fs::remove_directories(Dir);
}

TEST(KernelPack, WithoutAttributionEveryUnitIsTheCoreKernels) {
  std::string Bytes = objectBytes();
  KernelObjects In;
  In.CoreObjs.push_back({"/nonexistent-kernelpack/vmlinux.o", "", Bytes});
  KernelPackOptions O;
  WarningLog Log;
  Expected<std::unique_ptr<KernelPackResult>> R = packKernelObjects(In, O, Log);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_EQ((*R)->Files.size(), 2u);
  EXPECT_EQ(typeNames((*R)->Files.at("vmlinux.builtin.ctf")),
            (std::set<std::string>{"a_s", "b_s", "int", "void"}));
}

} // namespace
