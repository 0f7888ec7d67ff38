//===- CapiTest.cpp - The C API through libdwarfpack.so -------------------===//
//
// Every call goes through the shared library's exported functions; the
// component libraries only write the tables the tests read.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/dwarfpack.h"

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/CTF/CtfWriter.h"
#include "dwarfpack/CompactTable/CompactWriter.h"
#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/Kallsyms/SymbolList.h"
#include "dwarfpack/Kallsyms/Writers.h"
#include "dwarfpack/Types/TypeModel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

//===-- Inputs ------------------------------------------------------------===//

const uint8_t BuildId[] = {0xab, 0xcd, 0xef, 0x01, 0x23};

/// Adds a function of one line row: Name over [Start, End), at File:Line.
void addFunction(FunctionModel &M, StringRef Name, uint64_t Start, uint64_t End,
                 FileId File, uint32_t Line) {
  FunctionEntry F;
  F.Name = M.saveString(Name);
  F.Range = {Start, End};
  F.Lines = {{Start, File, Line}};
  M.addFunction(F);
}

/// The table of M, finalized, in the compact format or GSYM.
std::string encodeTable(FunctionModel &M, bool Gsym) {
  WarningLog Log;
  M.finalize(Log);
  Expected<std::string> Bytes =
      Gsym ? gsym::encodeGsym(M) : compact::encodeCompact(M);
  EXPECT_TRUE(bool(Bytes)) << toString(Bytes.takeError());
  return Bytes ? *Bytes : "";
}

/// "outer" at 0x1000 (with "inner" inlined at 0x1010..0x1020, called from
/// a.c:7), "_Z3twoi" at 0x1040, loaded from file offset 0x0 at 0x1000;
/// build-id BuildId.
std::string addressTable(bool Gsym) {
  FunctionModel M;
  M.BaseAddress = 0x1000;
  M.UUID.assign(std::begin(BuildId), std::end(BuildId));
  M.LoadSegments.push_back({0x0, 0x1000, 0x100});
  FileId A = M.addFilePath("/src/a.c"), H = M.addFilePath("/src/h.h");
  FunctionEntry Outer;
  Outer.Name = M.saveString("outer");
  Outer.Range = {0x1000, 0x1040};
  Outer.Lines = {{0x1000, A, 5}, {0x1010, H, 42}, {0x1020, A, 8}};
  InlineNode Root;
  Root.Ranges = {{0x1000, 0x1040}};
  Root.Name = Outer.Name;
  InlineNode Inner;
  Inner.Ranges = {{0x1010, 0x1020}};
  Inner.Name = M.saveString("inner");
  Inner.CallFile = A;
  Inner.CallLine = 7;
  Root.Children.push_back(Inner);
  Outer.Inline = Root;
  M.addFunction(Outer);
  addFunction(M, "_Z3twoi", 0x1040, 0x1080, A, 20);
  return encodeTable(M, Gsym);
}

/// A kernel symbol table of 20 functions from 0xffffffff81000000 (_text,
/// fn1, ...), and the kallsyms text of that kernel run Slide higher, with
/// one module function.
struct KernelFiles {
  std::string Table, Kallsyms;
};
KernelFiles kernelFiles(uint64_t Slide, bool Blob = false) {
  kallsyms::SymbolList L;
  std::string Text;
  raw_string_ostream OS(Text);
  std::vector<std::string> Names; // the list refers to them
  for (unsigned I = 0; I < 20; ++I)
    Names.push_back(I ? "fn" + std::to_string(I) : "_text");
  for (unsigned I = 0; I < 20; ++I) {
    uint64_t A = 0xffffffff81000000 + I * 0x100;
    L.Symbols.push_back({A, 'T', Names[I], ""});
    OS << format_hex_no_prefix(A + Slide, 16) << " T " << Names[I] << '\n';
  }
  OS << "ffffffffc0001000 t mod_fn\t[my_mod]\n";
  L.EndAddress = 0xffffffff81002000;
  KernelFiles K;
  K.Kallsyms = Text;
  Error E = Blob ? kallsyms::writeKsymBlob(L, K.Table)
                 : kallsyms::writeCompact(L, K.Table);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  return K;
}

std::string ctfDict() {
  types::TypeTable T;
  T.Types.emplace_back();
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
  return Bytes ? *Bytes : "";
}

/// A directory removed with its contents at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    SmallString<128> P;
    EXPECT_FALSE(sys::fs::createUniqueDirectory("capi-test", P));
    Dir = std::string(P);
  }
  ~ScratchDir() { sys::fs::remove_directories(Dir); }
  std::string path(StringRef Rest) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Rest);
    return std::string(P);
  }
  std::string write(StringRef Rest, StringRef Contents) const {
    std::string P = path(Rest);
    EXPECT_FALSE(sys::fs::create_directories(sys::path::parent_path(P)));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << P;
    OS << Contents;
    return P;
  }
  std::string Dir;
};

//===-- Helpers -----------------------------------------------------------===//

using TablePtr = std::unique_ptr<dwarfpack_table, void (*)(dwarfpack_table *)>;
using ResultsPtr =
    std::unique_ptr<dwarfpack_results, void (*)(dwarfpack_results *)>;

TablePtr openMemory(StringRef Bytes, dwarfpack_status Expect = DWARFPACK_OK) {
  dwarfpack_table *T = nullptr;
  EXPECT_EQ(
      dwarfpack_table_open_memory(Bytes.data(), Bytes.size(), "t", nullptr, &T),
      Expect)
      << dwarfpack_last_error();
  return TablePtr(T, dwarfpack_table_close);
}

ResultsPtr symbolize(const dwarfpack_table *T, std::vector<uint64_t> Addrs,
                     uint32_t Flags = 0) {
  dwarfpack_results *R = nullptr;
  EXPECT_EQ(dwarfpack_table_symbolize(T, Addrs.data(), Addrs.size(), Flags, &R),
            DWARFPACK_OK)
      << dwarfpack_last_error();
  return ResultsPtr(R, dwarfpack_results_free);
}

/// A result as text: "status: function file:line:column module inlined;
/// ..." per frame.
std::string describe(const dwarfpack_result &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << dwarfpack_status_string(R.status) << ":";
  for (size_t I = 0; I < R.frame_count; ++I) {
    const dwarfpack_frame &F = R.frames[I];
    OS << " " << F.function << " " << F.file << ":" << F.line << ":" << F.column
       << " [" << F.module << "]" << (F.inlined ? " inlined" : "") << ";";
  }
  return S;
}

//===-- Tables ------------------------------------------------------------===//

TEST(CAPI, TablesAnswerInnermostFirst) {
  for (bool Gsym : {false, true}) {
    TablePtr T = openMemory(addressTable(Gsym));
    ASSERT_TRUE(T);
    EXPECT_STREQ(dwarfpack_table_format(T.get()),
                 Gsym ? "GSYM" : "compact address table");
    const uint8_t *Id = nullptr;
    ASSERT_EQ(dwarfpack_table_build_id(T.get(), &Id), sizeof(BuildId));
    EXPECT_EQ(0, memcmp(Id, BuildId, sizeof(BuildId)));

    ResultsPtr R = symbolize(T.get(), {0x1014, 0x1004, 0x1044, 0x2000});
    ASSERT_EQ(R->count, 4u);
    EXPECT_EQ(R->results[0].address, 0x1014u);
    EXPECT_EQ(describe(R->results[0]),
              "success: inner /src/h.h:42:0 [] inlined; outer /src/a.c:7:0 "
              "[];");
    EXPECT_EQ(R->results[0].frames[0].start_address, 0x1010u);
    EXPECT_EQ(R->results[0].frames[1].start_address, 0x1000u);
    EXPECT_EQ(describe(R->results[1]), "success: outer /src/a.c:5:0 [];");
    EXPECT_EQ(describe(R->results[2]), "success: _Z3twoi /src/a.c:20:0 [];");
    // Not found is no error: no frames.
    EXPECT_EQ(describe(R->results[3]), "success:");
    EXPECT_EQ(R->results[3].frames, nullptr);
    EXPECT_EQ(R->results[3].error, nullptr);

    R = symbolize(T.get(), {0x1044}, DWARFPACK_SYMBOLIZE_DEMANGLE);
    EXPECT_STREQ(R->results[0].frames[0].function, "two(int)");
    // An empty batch is a batch.
    R = symbolize(T.get(), {});
    EXPECT_EQ(R->count, 0u);
  }
}

TEST(CAPI, RustLegacyNamesAreDemangledWithoutTheirHash) {
  const char *Legacy = "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$"
                       "17h168e94e611939a97E";
  FunctionModel M;
  FileId A = M.addFilePath("/src/main.rs");
  addFunction(M, Legacy, 0x1000, 0x1010, A, 3);
  addFunction(M, "_RNvCs1234_7mycrate4main", 0x1010, 0x1020, A, 9);
  TablePtr T = openMemory(encodeTable(M, /*Gsym=*/false));
  ASSERT_TRUE(T);
  ResultsPtr R =
      symbolize(T.get(), {0x1004, 0x1014}, DWARFPACK_SYMBOLIZE_DEMANGLE);
  EXPECT_STREQ(R->results[0].frames[0].function,
               "std::rt::lang_start::{{closure}}");
  EXPECT_STREQ(R->results[1].frames[0].function, "mycrate::main");
  R = symbolize(T.get(), {0x1004});
  EXPECT_STREQ(R->results[0].frames[0].function, Legacy);
}

TEST(CAPI, LargeBatchesAnswerInTheOrderAsked) {
  for (bool Gsym : {false, true}) {
    TablePtr T = openMemory(addressTable(Gsym));
    ASSERT_TRUE(T);
    // Enough to be looked up in address order, asked in another.
    std::vector<uint64_t> Addrs;
    for (uint64_t I = 0; I < 300; ++I)
      Addrs.push_back(0xff0 + (I * 37) % 0x70);
    ResultsPtr All = symbolize(T.get(), Addrs);
    ASSERT_EQ(All->count, Addrs.size());
    for (size_t I = 0; I < Addrs.size(); ++I) {
      ResultsPtr One = symbolize(T.get(), {Addrs[I]});
      EXPECT_EQ(All->results[I].address, Addrs[I]);
      EXPECT_EQ(describe(All->results[I]), describe(One->results[0]))
          << "address " << Addrs[I];
    }
  }
}

TEST(CAPI, FileOffsetsNeedLoadSegments) {
  TablePtr Compact = openMemory(addressTable(false));
  ResultsPtr R =
      symbolize(Compact.get(), {0x44, 0x200}, DWARFPACK_SYMBOLIZE_FILE_OFFSETS);
  EXPECT_EQ(R->results[0].address, 0x44u); // as given
  EXPECT_EQ(describe(R->results[0]), "success: _Z3twoi /src/a.c:20:0 [];");
  EXPECT_EQ(describe(R->results[1]), "success:"); // in no segment

  // GSYM records no segments: every offset would fail, so the call does.
  TablePtr Gsym = openMemory(addressTable(true));
  uint64_t Offset = 0x44;
  dwarfpack_results *Out = reinterpret_cast<dwarfpack_results *>(1);
  EXPECT_EQ(dwarfpack_table_symbolize(Gsym.get(), &Offset, 1,
                                      DWARFPACK_SYMBOLIZE_FILE_OFFSETS, &Out),
            DWARFPACK_ERR_UNSUPPORTED);
  EXPECT_EQ(Out, nullptr);
  EXPECT_NE(std::string(dwarfpack_last_error()).find("load segments"),
            std::string::npos)
      << dwarfpack_last_error();
}

TEST(CAPI, KernelSymbolTablesOpenByContent) {
  for (bool Blob : {false, true}) {
    TablePtr T = openMemory(kernelFiles(0, Blob).Table);
    ASSERT_TRUE(T);
    EXPECT_STREQ(dwarfpack_table_format(T.get()),
                 Blob ? "ksym-blob" : "kernel symbol table");
    ResultsPtr R = symbolize(T.get(), {0xffffffff81000504});
    EXPECT_EQ(describe(R->results[0]), "success: fn5 :0:0 [];");
  }
}

TEST(CAPI, OpenErrorsHaveTheirStatus) {
  ScratchDir D;
  dwarfpack_table *T = reinterpret_cast<dwarfpack_table *>(1);
  std::string Missing = D.path("missing.dpat");
  EXPECT_EQ(dwarfpack_table_open(Missing.c_str(), nullptr, &T),
            DWARFPACK_ERR_NOT_FOUND);
  EXPECT_EQ(T, nullptr);
  EXPECT_NE(std::string(dwarfpack_last_error()).find(Missing),
            std::string::npos);
  EXPECT_EQ(dwarfpack_table_open(D.Dir.c_str(), nullptr, &T), DWARFPACK_ERR_IO);
  std::string Junk = D.write("junk", "not a table at all");
  EXPECT_EQ(dwarfpack_table_open(Junk.c_str(), nullptr, &T),
            DWARFPACK_ERR_UNKNOWN_FORMAT);
  EXPECT_NE(std::string(dwarfpack_last_error()).find("unknown file format"),
            std::string::npos);
  std::string Elf = D.write("elf", std::string("\x7f"
                                               "ELF\2\1\1",
                                               7));
  EXPECT_EQ(dwarfpack_table_open(Elf.c_str(), nullptr, &T),
            DWARFPACK_ERR_UNKNOWN_FORMAT);
  EXPECT_NE(std::string(dwarfpack_last_error()).find("make its table first"),
            std::string::npos);
  // Asked to convert a binary: this one is cut short (lit tests convert
  // real ones).
  dwarfpack_table_options Convert = {};
  Convert.size = sizeof(Convert);
  Convert.flags = DWARFPACK_OPEN_CONVERT_BINARIES;
  EXPECT_EQ(dwarfpack_table_open(Elf.c_str(), &Convert, &T),
            DWARFPACK_ERR_CORRUPT);
  EXPECT_EQ(T, nullptr);
  EXPECT_NE(std::string(dwarfpack_last_error()).find(Elf), std::string::npos);
  // The flag is the tables' only: a store refuses it.
  dwarfpack_store *S = nullptr;
  dwarfpack_store_options StoreConvert = {};
  StoreConvert.size = sizeof(StoreConvert);
  StoreConvert.flags = DWARFPACK_OPEN_CONVERT_BINARIES;
  EXPECT_EQ(dwarfpack_store_open(D.Dir.c_str(), &StoreConvert, &S),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  // A type archive has no addresses.
  std::string Ctf = ctfDict();
  openMemory(Ctf, DWARFPACK_ERR_UNKNOWN_FORMAT);
  // A reader that refuses the bytes: a compact table cut short.
  std::string Table = addressTable(false);
  openMemory(StringRef(Table).take_front(Table.size() / 2),
             DWARFPACK_ERR_CORRUPT);
  EXPECT_NE(std::string(dwarfpack_last_error()).find("compact address table"),
            std::string::npos);

  // A success clears the thread's last error.
  std::string Good = D.write("good.dpat", Table);
  ASSERT_EQ(dwarfpack_table_open(Good.c_str(), nullptr, &T), DWARFPACK_OK);
  EXPECT_STREQ(dwarfpack_last_error(), "");
  dwarfpack_table_close(T);
  dwarfpack_table_close(nullptr);
}

TEST(CAPI, ArgumentsAreChecked) {
  std::string Table = addressTable(false);
  dwarfpack_table *T = nullptr;
  EXPECT_EQ(dwarfpack_table_open(nullptr, nullptr, &T),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_open("", nullptr, &T),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_open("x", nullptr, nullptr),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_open_memory(nullptr, 10, "t", nullptr, &T),
            DWARFPACK_ERR_INVALID_ARGUMENT);

  // Options: a size too small; members this version does not know, set;
  // the same, zero (a newer header's defaults); an unknown flag.
  struct Newer {
    dwarfpack_table_options Known;
    uint64_t Future;
  } N = {};
  N.Known.size = 4;
  EXPECT_EQ(dwarfpack_table_open_memory(Table.data(), Table.size(), "t",
                                        &N.Known, &T),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  N.Known.size = sizeof(Newer);
  N.Future = 1;
  EXPECT_EQ(dwarfpack_table_open_memory(Table.data(), Table.size(), "t",
                                        &N.Known, &T),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dwarfpack_last_error()).find("does not know"),
            std::string::npos);
  N.Future = 0;
  ASSERT_EQ(dwarfpack_table_open_memory(Table.data(), Table.size(), "t",
                                        &N.Known, &T),
            DWARFPACK_OK)
      << dwarfpack_last_error();
  TablePtr Owned(T, dwarfpack_table_close);
  dwarfpack_table_options Flags = {};
  Flags.size = sizeof(Flags);
  Flags.flags = 1u << 31;
  EXPECT_EQ(
      dwarfpack_table_open_memory(Table.data(), Table.size(), "t", &Flags, &T),
      DWARFPACK_ERR_INVALID_ARGUMENT);

  uint64_t A = 0x1000;
  dwarfpack_results *R = nullptr;
  EXPECT_EQ(dwarfpack_table_symbolize(nullptr, &A, 1, 0, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_symbolize(Owned.get(), nullptr, 1, 0, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_symbolize(Owned.get(), &A, 1, 1u << 30, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_table_symbolize(Owned.get(), &A, 1, 0, nullptr),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  // Every symbolize call checks the same things, names itself and leaves
  // NULL in OUT when it fails.
  R = reinterpret_cast<dwarfpack_results *>(&A);
  EXPECT_EQ(dwarfpack_kernel_symbolize(nullptr, &A, 1, 0, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(R, nullptr);
  EXPECT_STREQ(dwarfpack_last_error(),
               "dwarfpack_kernel_symbolize: KERNEL or ADDRESSES is NULL");
  EXPECT_EQ(dwarfpack_store_symbolize(nullptr, nullptr, 0, 0, nullptr),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(dwarfpack_last_error(),
               "dwarfpack_store_symbolize: OUT is NULL");
  EXPECT_EQ(dwarfpack_table_symbolize(Owned.get(), nullptr, 0, 1u << 30, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(dwarfpack_last_error(),
               "dwarfpack_table_symbolize: unknown flags 0x40000000");
  EXPECT_EQ(dwarfpack_table_symbolize(Owned.get(), nullptr, 0, 0, &R),
            DWARFPACK_OK);
  dwarfpack_results_free(R);
  dwarfpack_results_free(nullptr);
  EXPECT_STREQ(dwarfpack_status_string(DWARFPACK_ERR_CORRUPT), "corrupt table");
  EXPECT_STREQ(dwarfpack_status_string(static_cast<dwarfpack_status>(99)),
               "unknown status");
}

//===-- Stores ------------------------------------------------------------===//

TEST(CAPI, StoresAnswerSamplesByBuildId) {
  ScratchDir D;
  std::string Table = addressTable(false);
  D.write("ab/cdef0123.dpat", Table);
  // Filed under another build-id; and a damaged table.
  D.write("11/2233.dpat", Table);
  D.write("44/5566.dpat", StringRef(Table).take_front(40));

  dwarfpack_store *S = nullptr;
  dwarfpack_store_options Opts = {};
  Opts.size = sizeof(Opts);
  ASSERT_EQ(dwarfpack_store_open(D.Dir.c_str(), &Opts, &S), DWARFPACK_OK)
      << dwarfpack_last_error();
  std::unique_ptr<dwarfpack_store, void (*)(dwarfpack_store *)> Owned(
      S, dwarfpack_store_close);
  const uint8_t Mismatched[] = {0x11, 0x22, 0x33};
  const uint8_t Damaged[] = {0x44, 0x55, 0x66};
  const uint8_t Unknown[] = {0x99, 0x99};
  dwarfpack_sample Samples[] = {
      {BuildId, sizeof(BuildId), 0x14},
      {Unknown, sizeof(Unknown), 0x14},
      {Mismatched, sizeof(Mismatched), 0x14},
      {Damaged, sizeof(Damaged), 0x14},
      {BuildId, 1, 0x14},
      {BuildId, sizeof(BuildId), 0x44},
  };
  dwarfpack_results *R = nullptr;
  ASSERT_EQ(dwarfpack_store_symbolize(S, Samples, std::size(Samples),
                                      DWARFPACK_SYMBOLIZE_FILE_OFFSETS, &R),
            DWARFPACK_OK);
  ResultsPtr Results(R, dwarfpack_results_free);
  ASSERT_EQ(R->count, std::size(Samples));
  EXPECT_EQ(describe(R->results[0]),
            "success: inner /src/h.h:42:0 [abcdef0123] inlined; outer "
            "/src/a.c:7:0 [abcdef0123];");
  EXPECT_EQ(R->results[1].status, DWARFPACK_ERR_NOT_FOUND);
  EXPECT_NE(std::string(R->results[1].error).find("9999"), std::string::npos);
  EXPECT_EQ(R->results[2].status, DWARFPACK_ERR_MISMATCH);
  EXPECT_EQ(R->results[3].status, DWARFPACK_ERR_CORRUPT);
  EXPECT_EQ(R->results[4].status, DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(describe(R->results[5]),
            "success: _Z3twoi /src/a.c:20:0 [abcdef0123];");

  // A batch large enough to be answered by module and offset, mixed: the
  // results in the order asked, each as it is answered alone.
  std::vector<dwarfpack_sample> Many;
  for (uint64_t I = 0; I < 300; ++I) {
    dwarfpack_sample Each = Samples[(I * 7) % std::size(Samples)];
    Each.value = (I * 37) % 0x70;
    Many.push_back(Each);
  }
  ASSERT_EQ(dwarfpack_store_symbolize(S, Many.data(), Many.size(),
                                      DWARFPACK_SYMBOLIZE_FILE_OFFSETS, &R),
            DWARFPACK_OK);
  ResultsPtr All(R, dwarfpack_results_free);
  ASSERT_EQ(All->count, Many.size());
  for (size_t I = 0; I < Many.size(); ++I) {
    ASSERT_EQ(dwarfpack_store_symbolize(S, &Many[I], 1,
                                        DWARFPACK_SYMBOLIZE_FILE_OFFSETS, &R),
              DWARFPACK_OK);
    ResultsPtr One(R, dwarfpack_results_free);
    const dwarfpack_result &A = All->results[I], &B = One->results[0];
    EXPECT_EQ(A.address, Many[I].value);
    EXPECT_EQ(A.status, B.status) << "sample " << I;
    EXPECT_EQ(describe(A), describe(B)) << "sample " << I;
    EXPECT_STREQ(A.error ? A.error : "", B.error ? B.error : "");
  }

  // By address, and a table added while the store is open is found.
  D.write("99/99.dpat", addressTable(false)); // records BuildId: mismatch
  dwarfpack_sample ByAddress[] = {{BuildId, sizeof(BuildId), 0x1044},
                                  {Unknown, sizeof(Unknown), 0x1044}};
  ASSERT_EQ(dwarfpack_store_symbolize(S, ByAddress, 2, 0, &R), DWARFPACK_OK);
  Results.reset(R);
  EXPECT_EQ(describe(R->results[0]),
            "success: _Z3twoi /src/a.c:20:0 [abcdef0123];");
  EXPECT_EQ(R->results[1].status, DWARFPACK_ERR_MISMATCH);

  EXPECT_EQ(dwarfpack_store_open(D.path("nope").c_str(), nullptr, &S),
            DWARFPACK_ERR_NOT_FOUND);
  EXPECT_EQ(S, nullptr);
}

//===-- Kernels -----------------------------------------------------------===//

void collectWarning(void *Context, const char *Message) {
  static_cast<std::vector<std::string> *>(Context)->push_back(Message);
}

TEST(CAPI, RunningKernels) {
  ScratchDir D;
  KernelFiles K = kernelFiles(0x1e000000);
  std::string Table = D.write("vmlinux.dpk", K.Table);
  std::string Kallsyms = D.write("kallsyms", K.Kallsyms);
  // A notes file without a build-id: a warning, the check is not made.
  D.write("sys/kernel/notes", "");
  std::vector<std::string> Warnings;
  dwarfpack_kernel_options Opts = {};
  Opts.size = sizeof(Opts);
  Opts.table = Table.c_str();
  Opts.kallsyms = Kallsyms.c_str();
  std::string Sys = D.path("sys");
  Opts.build_ids = Sys.c_str();
  Opts.warn = collectWarning;
  Opts.warn_context = &Warnings;
  dwarfpack_kernel *Kernel = nullptr;
  ASSERT_EQ(dwarfpack_kernel_open(&Opts, &Kernel), DWARFPACK_OK)
      << dwarfpack_last_error();
  std::unique_ptr<dwarfpack_kernel, void (*)(dwarfpack_kernel *)> Owned(
      Kernel, dwarfpack_kernel_close);
  EXPECT_EQ(dwarfpack_kernel_offset(Kernel), 0x1e000000u);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("no GNU build-id note"), std::string::npos);

  uint64_t Addrs[] = {0xffffffff9f000504, 0xffffffffc0001004};
  dwarfpack_results *R = nullptr;
  ASSERT_EQ(dwarfpack_kernel_symbolize(Kernel, Addrs, 2, 0, &R), DWARFPACK_OK);
  ResultsPtr Results(R, dwarfpack_results_free);
  EXPECT_EQ(describe(R->results[0]), "success: fn5 :0:0 [];");
  EXPECT_EQ(describe(R->results[1]), "success: mod_fn :0:0 [my_mod];");
  EXPECT_EQ(dwarfpack_kernel_symbolize(Kernel, Addrs, 2,
                                       DWARFPACK_SYMBOLIZE_FILE_OFFSETS, &R),
            DWARFPACK_ERR_INVALID_ARGUMENT);

  // Another build: the KASLR offset is not a whole number of pages.
  std::string Other = D.write("other", kernelFiles(0x1e000800).Kallsyms);
  Opts.kallsyms = Other.c_str();
  Opts.build_ids = nullptr;
  EXPECT_EQ(dwarfpack_kernel_open(&Opts, &Kernel), DWARFPACK_ERR_MISMATCH);
  EXPECT_EQ(Kernel, nullptr);
  // Missing inputs.
  std::string Missing = D.path("missing");
  Opts.kallsyms = Missing.c_str();
  EXPECT_EQ(dwarfpack_kernel_open(&Opts, &Kernel), DWARFPACK_ERR_NOT_FOUND);
  Opts.kallsyms = Kallsyms.c_str();
  Opts.module_tables = Missing.c_str();
  EXPECT_EQ(dwarfpack_kernel_open(&Opts, &Kernel), DWARFPACK_ERR_NOT_FOUND);
  Opts.module_tables = nullptr;
  Opts.table = nullptr;
  EXPECT_EQ(dwarfpack_kernel_open(&Opts, &Kernel),
            DWARFPACK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(dwarfpack_kernel_open(nullptr, &Kernel),
            DWARFPACK_ERR_INVALID_ARGUMENT);
}

//===-- Threads -----------------------------------------------------------===//

TEST(CAPI, HandlesAreSharedAcrossThreads) {
  ScratchDir D;
  std::string Table = addressTable(false);
  D.write("ab/cdef0123.dpat", Table);
  TablePtr T = openMemory(Table);
  dwarfpack_store *S = nullptr;
  ASSERT_EQ(dwarfpack_store_open(D.Dir.c_str(), nullptr, &S), DWARFPACK_OK);
  std::unique_ptr<dwarfpack_store, void (*)(dwarfpack_store *)> Store(
      S, dwarfpack_store_close);

  std::vector<uint64_t> Addrs;
  for (uint64_t A = 0xff0; A < 0x1090; ++A)
    Addrs.push_back(A);
  auto Run = [&] {
    std::vector<std::string> Out;
    ResultsPtr R = symbolize(T.get(), Addrs);
    for (size_t I = 0; I < R->count; ++I)
      Out.push_back(describe(R->results[I]));
    std::vector<dwarfpack_sample> Samples;
    for (uint64_t A : Addrs)
      Samples.push_back({BuildId, sizeof(BuildId), A});
    dwarfpack_results *SR = nullptr;
    EXPECT_EQ(
        dwarfpack_store_symbolize(S, Samples.data(), Samples.size(), 0, &SR),
        DWARFPACK_OK);
    for (size_t I = 0; I < SR->count; ++I)
      Out.push_back(describe(SR->results[I]));
    dwarfpack_results_free(SR);
    // Each thread has its own last error.
    dwarfpack_table *None = nullptr;
    EXPECT_EQ(dwarfpack_table_open("", nullptr, &None),
              DWARFPACK_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(dwarfpack_last_error()).find("no path"),
              std::string::npos);
    return Out;
  };
  // The first use opens the store's table; let the threads race for it.
  std::vector<std::vector<std::string>> Answers(4);
  std::vector<std::thread> Threads;
  for (auto &A : Answers)
    Threads.emplace_back([&A, &Run] { A = Run(); });
  for (std::thread &Th : Threads)
    Th.join();
  std::vector<std::string> Expected = Run();
  for (const auto &A : Answers)
    EXPECT_EQ(A, Expected);
}

//===-- Damaged tables ----------------------------------------------------===//

/// A small deterministic generator (the same inputs on every run).
struct Random {
  uint64_t State;
  uint64_t next() {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    return State;
  }
};

/// Opens Bytes; when it opens, symbolizes addresses around the functions
/// and file offsets. Whatever the bytes, every call returns.
void tryBytes(StringRef Bytes, Random &R, unsigned &Opened) {
  dwarfpack_table *T = nullptr;
  dwarfpack_status S = dwarfpack_table_open_memory(Bytes.data(), Bytes.size(),
                                                   "fuzz", nullptr, &T);
  if (S != DWARFPACK_OK) {
    EXPECT_TRUE(S == DWARFPACK_ERR_CORRUPT || S == DWARFPACK_ERR_UNKNOWN_FORMAT)
        << dwarfpack_status_string(S);
    EXPECT_STRNE(dwarfpack_last_error(), "");
    return;
  }
  ++Opened;
  std::vector<uint64_t> Addrs = {0,      0x1000, 0x1014,
                                 0x1044, ~0ull,  0xffffffff81000504};
  for (int I = 0; I < 16; ++I)
    Addrs.push_back(0x1000 + R.next() % 0x100);
  for (uint32_t Flags : {0u, unsigned(DWARFPACK_SYMBOLIZE_FILE_OFFSETS |
                                      DWARFPACK_SYMBOLIZE_DEMANGLE)}) {
    dwarfpack_results *Out = nullptr;
    S = dwarfpack_table_symbolize(T, Addrs.data(), Addrs.size(), Flags, &Out);
    EXPECT_TRUE(S == DWARFPACK_OK || S == DWARFPACK_ERR_UNSUPPORTED);
    if (Out)
      for (size_t I = 0; I < Out->count; ++I) {
        const dwarfpack_result &Res = Out->results[I];
        EXPECT_EQ(Res.error == nullptr, Res.status == DWARFPACK_OK);
        for (size_t F = 0; F < Res.frame_count; ++F)
          EXPECT_TRUE(Res.frames[F].function && Res.frames[F].file &&
                      Res.frames[F].module);
      }
    dwarfpack_results_free(Out);
  }
  dwarfpack_table_close(T);
}

// Truncations, flipped bytes and random bytes of every format: each call
// returns an error or an answer, and the process goes on (a crash or an
// abort ends the test binary).
TEST(CAPI, DamagedTablesNeverEndTheProcess) {
  Random R{0x9e3779b97f4a7c15ull};
  std::vector<std::string> Valid = {addressTable(false), addressTable(true),
                                    kernelFiles(0).Table,
                                    kernelFiles(0, true).Table};
  unsigned Opened = 0, Tried = 0;
  for (const std::string &Bytes : Valid) {
    for (size_t N = 0; N < Bytes.size(); ++N, ++Tried)
      tryBytes(StringRef(Bytes).take_front(N), R, Opened);
    for (int I = 0; I < 3000; ++I, ++Tried) {
      std::string Mutated = Bytes;
      for (int Flips = 1 + R.next() % 4; Flips; --Flips)
        Mutated[R.next() % Mutated.size()] = char(R.next());
      tryBytes(Mutated, R, Opened);
    }
  }
  for (int I = 0; I < 500; ++I, ++Tried) {
    std::string Noise(R.next() % 512, '\0');
    for (char &C : Noise)
      C = char(R.next());
    // Some with a format's magic, so that a reader gets past it.
    if (I % 2 && Noise.size() >= 8)
      Noise.replace(0, 4, Valid[I % Valid.size()].substr(0, 4));
    tryBytes(Noise, R, Opened);
  }
  // The mutations reach the lookups, not only the open-time checks.
  EXPECT_GT(Opened, Tried / 10) << Opened << " of " << Tried;
  RecordProperty("opened", Opened);
  RecordProperty("tried", Tried);
}

} // namespace
