//===- KernelSymbolizerTest.cpp - A running kernel, from its tables -------===//

#include "dwarfpack/Symbolize/KernelSymbolizer.h"

#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

/// A scratch directory, removed at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    std::error_code EC = sys::fs::createUniqueDirectory("kernsym", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~ScratchDir() { sys::fs::remove_directories(Path); }

  /// Writes Contents to Rest under the directory, making its parents.
  std::string write(StringRef Rest, StringRef Contents) const {
    std::string P = path(Rest);
    EXPECT_FALSE(sys::fs::create_directories(sys::path::parent_path(P)));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Contents;
    return P;
  }
  std::string path(StringRef Rest = "") const {
    SmallString<128> P(Path);
    if (!Rest.empty())
      sys::path::append(P, Rest);
    return std::string(P);
  }

private:
  SmallString<128> Path;
};

/// An ELF note section holding one GNU build-id note with these bytes.
std::string buildIdNote(ArrayRef<uint8_t> Id) {
  std::string N;
  auto U32 = [&](uint32_t V) {
    for (int I = 0; I < 4; ++I)
      N.push_back(char(V >> (8 * I)));
  };
  U32(4);
  U32(Id.size());
  U32(3); // NT_GNU_BUILD_ID
  N.append("GNU\0", 4);
  N.append(Id.begin(), Id.end());
  while (N.size() % 4)
    N.push_back(0);
  return N;
}

TEST(KernelSymbolizer, BuildIdNotes) {
  ScratchDir D;
  Expected<std::optional<SmallVector<uint8_t, 20>>> Id =
      readBuildIdNotes(D.path("missing"));
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  EXPECT_FALSE(*Id);

  Id = readBuildIdNotes(D.write("empty", ""));
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  ASSERT_TRUE(*Id);
  EXPECT_TRUE((*Id)->empty());

  Id = readBuildIdNotes(D.write("notes", buildIdNote({0xab, 0xcd, 0xef})));
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  ASSERT_TRUE(*Id);
  EXPECT_EQ(**Id, (SmallVector<uint8_t, 20>{0xab, 0xcd, 0xef}));

  std::string Bad = D.write("bad", "abc");
  Id = readBuildIdNotes(Bad);
  ASSERT_FALSE(bool(Id));
  EXPECT_NE(toString(Id.takeError()).find(Bad), std::string::npos);
}

TEST(KernelSymbolizer, ModuleTablesByNameThenByBuildId) {
  ScratchDir D;
  std::string Dashed = D.write("my-mod.dpat", "");
  D.write("other.gsym", "");
  std::string Other = D.write("other.dpat", "");
  D.write("notes.txt", "");
  std::string Stored = D.write("ab/cdef.gsym", "");
  Expected<ModuleTableDirectory> Dir = ModuleTableDirectory::scan(D.path());
  ASSERT_TRUE(bool(Dir)) << toString(Dir.takeError());
  // '-' reads as '_', as the kernel names modules.
  EXPECT_EQ(Dir->find("my_mod", {}), Dashed);
  // .dpat before .gsym, and a name before a build-id.
  EXPECT_EQ(Dir->find("other", {0xab, 0xcd, 0xef}), Other);
  EXPECT_EQ(Dir->find("notes", {}), "");
  EXPECT_EQ(Dir->find("gone", {0xab, 0xcd, 0xef}), Stored);
  EXPECT_EQ(Dir->find("gone", {0xab, 0xcd, 0x00}), "");
  EXPECT_EQ(Dir->find("gone", {}), "");
}

TEST(KernelSymbolizer, ModuleTablesErrors) {
  ScratchDir D;
  D.write("a-b.dpat", "");
  D.write("a_b.dpat", "");
  Expected<ModuleTableDirectory> Dir = ModuleTableDirectory::scan(D.path());
  ASSERT_FALSE(bool(Dir));
  EXPECT_NE(toString(Dir.takeError()).find("are both tables of module 'a_b'"),
            std::string::npos);
  Dir = ModuleTableDirectory::scan(D.path("missing"));
  ASSERT_FALSE(bool(Dir));
  EXPECT_NE(toString(Dir.takeError()).find("not a directory"),
            std::string::npos);
}

/// A compact kernel symbol table of 20 functions from 0xffffffff81000000,
/// and the kallsyms text of that kernel run Slide higher, with one module.
struct Kernel {
  std::unique_ptr<AddressSymbolizer> Table;
  std::string Kallsyms;
};

Kernel makeKernel(uint64_t Slide) {
  kallsyms::SymbolList L;
  std::vector<std::string> Names;
  for (unsigned I = 0; I < 20; ++I)
    Names.push_back(I ? "fn" + std::to_string(I) : "_text");
  std::string Text;
  raw_string_ostream OS(Text);
  for (unsigned I = 0; I < 20; ++I) {
    uint64_t A = 0xffffffff81000000 + I * 0x100;
    L.Symbols.push_back({A, 'T', Names[I], ""});
    OS << format_hex_no_prefix(A + Slide, 16) << " T " << Names[I] << '\n';
  }
  OS << "ffffffffc0001000 t mod_fn\t[my_mod]\n";
  L.EndAddress = 0xffffffff81002000;
  std::string Bytes;
  EXPECT_FALSE(bool(kallsyms::writeCompact(L, Bytes)));
  Expected<OpenedTable> T =
      openTable(MemoryBuffer::getMemBufferCopy(Bytes, "k.dpk"));
  EXPECT_TRUE(bool(T)) << toString(T.takeError());
  return {std::move(T->Table), Text};
}

/// The KernelInput of an error that should be a KernelInputError.
std::optional<KernelInput> inputOf(Error E) {
  std::optional<KernelInput> In;
  handleAllErrors(
      std::move(E), [&](const KernelInputError &K) { In = K.get().Input; },
      [](const ErrorInfoBase &) {});
  return In;
}

TEST(KernelSymbolizer, RunningKernelAnswersAtItsAddresses) {
  Kernel K = makeKernel(0x1e000000);
  RunningKernelSources S;
  S.Kallsyms = K.Kallsyms;
  S.KallsymsName = "kallsyms";
  Expected<RunningKernel> R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Slide.Offset, 0x1e000000u);
  Expected<LookupResult> L = R->Symbolizer->lookup(0xffffffff9f000504);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "fn5");
  // A module symbol answers from kallsyms.
  L = R->Symbolizer->lookup(0xffffffffc0001004);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  ASSERT_EQ(L->Frames.size(), 1u);
  EXPECT_EQ(L->Frames[0].FunctionName, "mod_fn");
  EXPECT_EQ(L->Frames[0].Module, "my_mod");
}

TEST(KernelSymbolizer, ErrorsNameTheirInput) {
  Kernel K = makeKernel(0x1e000000);
  Kernel Other = makeKernel(0x1e000800); // not a whole number of pages
  RunningKernelSources S;
  S.Kallsyms = Other.Kallsyms;
  S.KallsymsName = "kallsyms";
  Expected<RunningKernel> R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), KernelInput::Kallsyms);

  ScratchDir D;
  S.Kallsyms = K.Kallsyms;
  S.BuildIds = D.path("missing");
  R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), KernelInput::BuildIds);
  // Neither kernel/notes nor module/.
  S.BuildIds = D.path();
  R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), KernelInput::BuildIds);

  S.BuildIds.clear();
  S.ModuleTables = D.path("missing");
  R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), KernelInput::ModuleTables);

  // A module table that is no table.
  D.write("tables/my_mod.dpat", "junk");
  S.ModuleTables = D.path("tables");
  R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), KernelInput::ModuleTables);

  // Kallsyms text that does not parse is a plain error.
  S.ModuleTables.clear();
  S.Kallsyms = "not kallsyms\n";
  R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(inputOf(R.takeError()), std::nullopt);
}

TEST(KernelSymbolizer, NotesWithoutBuildIdAreAWarning) {
  Kernel K = makeKernel(0x1e000000);
  ScratchDir D;
  D.write("sys/kernel/notes", "");
  D.write("sys/module/my_mod/notes/.note.gnu.build-id", "");
  RunningKernelSources S;
  S.Kallsyms = K.Kallsyms;
  S.KallsymsName = "kallsyms";
  S.BuildIds = D.path("sys");
  std::vector<KernelMessage> Warnings;
  S.Warn = [&](const KernelMessage &M) { Warnings.push_back(M); };
  Expected<RunningKernel> R = openRunningKernel(*K.Table, "k.dpk", S);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].Input, KernelInput::BuildIds);
  EXPECT_NE(Warnings[0].Message.find("has no GNU build-id note"),
            std::string::npos);
}

} // namespace
