//===- PackObjectTest.cpp - One object's pipeline -------------------------===//
//
// packObject gives back the pages of the input it is done with: the walk
// those of the units and abbreviations it has merged, and a conversion
// that makes no address table those of .debug_str once the walk is over
// (the type model keeps copies of its names; the address model points
// into the section, so with it the section stays).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Pipeline/PackObject.h"

#include "../YamlObject.h"
#include "dwarfpack/DwarfInput/InputObject.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using namespace dwarfpack;

namespace {

/// An executable of one unit whose Structs structures have names of
/// NameSize bytes in .debug_str, so that the section spans many pages and
/// .debug_info few. 2 MiB of padding on either side keep .debug_str apart
/// from what is read after the walk (the ELF header, the section headers,
/// the symbol tables): a page fault maps the whole large folio of the page
/// cache that holds the page, up to 2 MiB.
std::string longNames(unsigned Structs, unsigned NameSize) {
  std::string Y = test::elfYamlHeader("ET_EXEC") + R"(Sections:
  - { Name: .pad1, Type: SHT_PROGBITS, Size: 0x200000 }
  - { Name: .debug_str, Type: SHT_PROGBITS }
  - { Name: .pad2, Type: SHT_PROGBITS, Size: 0x200000 }
DWARF:
  debug_str:
)";
  std::string Entries;
  uint64_t Offset = 0;
  for (unsigned I = 0; I < Structs; ++I) {
    std::string Name = "s" + std::to_string(I) + std::string(NameSize, 'x');
    Y += "    - " + Name + "\n";
    Entries += "          { AbbrCode: 2, Values: [ { Value: " +
               std::to_string(Offset) + " }, { Value: 4 } ] },\n";
    Offset += Name.size() + 1;
  }
  Y += R"(  debug_abbrev:
    - Table:
        - { Code: 1, Tag: DW_TAG_compile_unit, Children: DW_CHILDREN_yes,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string } ] }
        - { Code: 2, Tag: DW_TAG_structure_type, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_strp },
                          { Attribute: DW_AT_byte_size, Form: DW_FORM_data1 } ] }
  debug_info:
    - { Version: 4, AbbrevTableID: 0, AddrSize: 8,
        Entries: [ { AbbrCode: 1, Values: [ { CStr: a.c } ] },
)";
  Y += Entries;
  Y += "          { AbbrCode: 0 } ] }\n";
  return Y;
}

/// How many of the pages of [Data, Data + Size) this process has mapped
/// (/proc/self/pagemap: bit 63 of a page's entry says it is present).
unsigned presentPages(const char *Data, size_t Size) {
  const uintptr_t Page = 4096;
  int Fd = open("/proc/self/pagemap", O_RDONLY);
  EXPECT_GE(Fd, 0);
  unsigned Present = 0;
  for (uintptr_t P = uintptr_t(Data) & ~(Page - 1); P < uintptr_t(Data) + Size;
       P += Page) {
    uint64_t Entry = 0;
    if (pread(Fd, &Entry, sizeof(Entry), off_t(P / Page * 8)) == 8)
      Present += Entry >> 63;
  }
  close(Fd);
  return Present;
}

/// The share of .debug_str's pages mapped after packObject made its CTF
/// dict, and its address table too when AddressTable.
double strPagesAfterPack(bool AddressTable) {
  SmallString<128> Path;
  std::unique_ptr<MemoryBuffer> Buf =
      test::mapYamlObject(longNames(150, 2000), Path);
  double Share = 0;
  EXPECT_TRUE(Buf);
  if (Buf) {
    WarningLog Log;
    input::OpenOptions Opts;
    Opts.BufferIsFileMapping = true;
    auto Obj = input::InputObject::open(MemoryBufferRef(*Buf), Log, Opts);
    EXPECT_TRUE(bool(Obj)) << toString(Obj.takeError());
    if (Obj) {
      EXPECT_GT((*Obj)->dwarf().section(input::Sec::Str).size(), 250000u);
      pipeline::PackOptions P;
      P.NumThreads = 2;
      P.AddressTable = AddressTable;
      P.Types = true;
      auto R = pipeline::packObject(**Obj, P, Log);
      EXPECT_TRUE(bool(R)) << toString(R.takeError());
      if (R) { // gtest's EXPECT is an if-else: braces for the outer if
        EXPECT_EQ((*R)->Types->Table.Types.size(), 151u); // void and 150
      }
      StringRef Str = (*Obj)->dwarf().section(input::Sec::Str);
      Share = double(presentPages(Str.data(), Str.size())) /
              double((Str.size() + 4095) / 4096);
    }
  }
  sys::fs::remove(Path);
  return Share;
}

TEST(PackObject, TypesAloneReleaseTheStringsAfterTheWalk) {
  // 150 names of 2 KB: 300 KB of .debug_str, all of it read by the walk.
  double WithTable = strPagesAfterPack(/*AddressTable=*/true);
  double TypesAlone = strPagesAfterPack(/*AddressTable=*/false);
  EXPECT_GT(WithTable, 0.9);
  EXPECT_LT(TypesAlone, 0.1) << "with a table " << WithTable;
}

} // namespace
