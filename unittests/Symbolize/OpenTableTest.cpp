//===- OpenTableTest.cpp - Every format, recognised by content ------------===//

#include "dwarfpack/Symbolize/OpenTable.h"

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Types/TypeModel.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace llvm;
using namespace dwarfpack;
using Kind = FileFormat::Kind;

namespace {

/// Two functions, "first" at 0x1000 and "second" at 0x1040, with lines.
void buildModel(FunctionModel &M) {
  M.BaseAddress = 0x1000;
  FileId File = M.addFilePath("/src/a.c");
  for (auto [Start, Name] : {std::pair<uint64_t, const char *>(0x1000, "first"),
                             {0x1040, "second"}}) {
    FunctionEntry F;
    F.Name = M.saveString(Name);
    F.Range = {Start, Start + 0x40};
    F.Lines.push_back({Start, File, uint32_t(Start / 0x10)});
    M.addFunction(std::move(F));
  }
  WarningLog Log;
  M.finalize(Log);
}

std::string addressTable(Kind K) {
  FunctionModel M;
  buildModel(M);
  Expected<std::string> Bytes =
      K == Kind::Gsym ? gsym::encodeGsym(M) : compact::encodeCompact(M);
  EXPECT_TRUE(bool(Bytes)) << toString(Bytes.takeError());
  return *Bytes;
}

std::string kernelTable(Kind K) {
  kallsyms::SymbolList L;
  L.Symbols = {{0xffffffff81000000, 'T', "_text", ""},
               {0xffffffff81000100, 't', "do_one", ""},
               {0xffffffff81000200, 'T', "do_two", ""}};
  L.EndAddress = 0xffffffff81000300;
  std::string Out;
  Error E = K == Kind::KsymBlob ? kallsyms::writeKsymBlob(L, Out)
                                : kallsyms::writeCompact(L, Out);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  return Out;
}

std::string ctfDict() {
  types::TypeTable T;
  T.Types.emplace_back(); // void
  types::Type Int;
  Int.Kind = types::TypeKind::Integer;
  Int.Name = "int";
  Int.Size = 4;
  Int.Bits = 32;
  T.Types.push_back(Int);
  T.Hidden.assign(T.Types.size(), false);
  ctf::WriteOptions Opts;
  Opts.CompressThreshold = 0;
  Expected<std::string> Bytes = ctf::writeDict(T, Opts);
  EXPECT_TRUE(bool(Bytes)) << toString(Bytes.takeError());
  return *Bytes;
}

std::unique_ptr<MemoryBuffer> buffer(StringRef Bytes, StringRef Name) {
  return MemoryBuffer::getMemBufferCopy(Bytes, Name);
}

// The list is explicit: linked from static libraries (as this test is),
// every format is there, once. Self-registering objects would be dropped
// by the linker, and nothing would be recognised.
TEST(OpenTable, EveryFormatIsKnownInAStaticLink) {
  std::set<Kind> Seen;
  for (const FileFormat &F : knownFormats()) {
    EXPECT_TRUE(Seen.insert(F.ID).second) << F.Name;
    EXPECT_TRUE(F.Identify && F.Dump) << F.Name;
  }
  EXPECT_EQ(Seen.size(), 8u);
  std::pair<Kind, std::string> Files[] = {
      {Kind::Gsym, addressTable(Kind::Gsym)},
      {Kind::CompactAddressTable, addressTable(Kind::CompactAddressTable)},
      {Kind::KernelSymbolTable, kernelTable(Kind::KernelSymbolTable)},
      {Kind::KsymBlob, kernelTable(Kind::KsymBlob)},
      {Kind::CtfDict, ctfDict()},
  };
  for (const auto &[K, Bytes] : Files) {
    const FileFormat *F = identifyFormat(Bytes);
    ASSERT_TRUE(F) << int(K);
    EXPECT_EQ(F->ID, K) << F->Name;
    std::string Dump;
    raw_string_ostream OS(Dump);
    Error E = F->Dump(MemoryBufferRef(Bytes, "t"), OS, OpenOptions());
    EXPECT_FALSE(bool(E)) << F->Name << ": " << toString(std::move(E));
    EXPECT_FALSE(Dump.empty()) << F->Name;
  }
}

TEST(OpenTable, AddressTablesAnswer) {
  for (Kind K : {Kind::Gsym, Kind::CompactAddressTable}) {
    Expected<OpenedTable> T = openTable(buffer(addressTable(K), "t"));
    ASSERT_TRUE(bool(T)) << toString(T.takeError());
    EXPECT_EQ(T->Format->ID, K);
    Expected<LookupResult> R = T->Table->lookup(0x1044);
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    ASSERT_EQ(R->Frames.size(), 1u);
    EXPECT_EQ(R->Frames[0].FunctionName, "second");
    EXPECT_EQ(R->Frames[0].FileName, "/src/a.c");
    EXPECT_EQ(R->Frames[0].Line, 0x104u);
  }
}

TEST(OpenTable, KernelTablesAnswerOnBothReaderPaths) {
  for (Kind K : {Kind::KernelSymbolTable, Kind::KsymBlob})
    for (bool Portable : {false, true}) {
      OpenOptions Opts;
      Opts.PortableReaders = Portable;
      Expected<OpenedTable> T = openTable(buffer(kernelTable(K), "k"), Opts);
      ASSERT_TRUE(bool(T)) << toString(T.takeError());
      Expected<LookupResult> R = T->Table->lookup(0xffffffff81000104);
      ASSERT_TRUE(bool(R)) << toString(R.takeError());
      ASSERT_EQ(R->Frames.size(), 1u);
      EXPECT_EQ(R->Frames[0].FunctionName, "do_one");
    }
}

TEST(OpenTable, ErrorsNameTheFile) {
  Expected<OpenedTable> T = openTable(buffer("junk bytes", "junk.bin"));
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(toString(T.takeError()),
            "'junk.bin': unknown file format (not a file dwarfpack writes)");

  T = openTable(buffer(ctfDict(), "types.ctf"));
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(toString(T.takeError()),
            "'types.ctf': CTF files have no addresses to look up");

  // Recognised by its magic, refused by its reader.
  std::string Gsym = addressTable(Kind::Gsym);
  T = openTable(buffer(StringRef(Gsym).take_front(30), "short.gsym"));
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(toString(T.takeError()).rfind("'short.gsym': ", 0), 0u);

  T = openTableFile("/nonexistent/dir/t.dpat");
  ASSERT_FALSE(bool(T));
  EXPECT_NE(toString(T.takeError()).find("/nonexistent/dir/t.dpat"),
            std::string::npos);
}

} // namespace
