//===- GsymWriterTest.cpp - GSYM V1 bytes ---------------------------------===//
//
// Byte vectors from LLVM's encoder (docs/GSYM.md, reference notes) and, as an
// independent oracle, LLVM's own GsymReader on what we write.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/GSYM/GsymWriter.h"

#include "llvm/DebugInfo/GSYM/GsymReader.h"
#include "llvm/Support/Endian.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

/// "" on success, else the error's message (and the error is consumed).
std::string message(llvm::Error E) { return llvm::toString(std::move(E)); }

template <typename T> bool fails(llvm::Expected<T> E) {
  if (E)
    return false;
  llvm::consumeError(E.takeError());
  return true;
}

std::vector<uint8_t> bytes(const std::string &S) {
  return std::vector<uint8_t>(S.begin(), S.end());
}

std::vector<LineEntry> rows(uint64_t Base,
                            std::vector<std::pair<uint64_t, uint32_t>> R) {
  std::vector<LineEntry> Out;
  for (auto [Off, Line] : R)
    Out.push_back({Base + Off, 1, Line});
  return Out;
}

TEST(GsymWriter, LineTableMatchesLLVMEncoder) {
  // `compute` from the reference notes: lines 13, 0, 13, 15, 0, 15. The
  // deltas -13 13 2 -15 15 span more than 14, so the densest window [2, 15]
  // is chosen; the first row is AdvancePC 0 because delta 0 is outside it.
  std::string Out;
  ASSERT_EQ(
      message(gsym::encodeLineTable(
          rows(0x1150, {{0, 13}, {4, 0}, {9, 13}, {51, 15}, {52, 0}, {54, 15}}),
          0x1150, Out)),
      "");
  EXPECT_EQ(bytes(Out),
            (std::vector<uint8_t>{0x02, 0x0f, 0x0d, 0x02, 0x00, 0x03, 0x73,
                                  0x02, 0x04, 0x55, 0x03, 0x02, 0x02, 0x2a,
                                  0x03, 0x71, 0x02, 0x01, 0x2d, 0x00}));
}

TEST(GsymWriter, LineTableSingleRowAndMinToZeroRule) {
  std::string One;
  ASSERT_EQ(message(gsym::encodeLineTable(rows(0x10, {{0, 7}}), 0x10, One)),
            "");
  // Min = Max = 0, first line 7, then the row as special opcode 4.
  EXPECT_EQ(bytes(One), (std::vector<uint8_t>{0x00, 0x00, 0x07, 0x04, 0x00}));

  // All deltas +1: Min = Max = 1 becomes Min = 0 (so delta 0 rows stay
  // cheap); the first row is special opcode 4, then (1 - 0) + 2 * 2 + 4.
  std::string Inc;
  ASSERT_EQ(message(gsym::encodeLineTable(rows(0x10, {{0, 5}, {2, 6}, {4, 7}}),
                                          0x10, Inc)),
            "");
  EXPECT_EQ(bytes(Inc),
            (std::vector<uint8_t>{0x00, 0x01, 0x05, 0x04, 0x09, 0x09, 0x00}));

  // A file change is a SetFile before the row.
  std::vector<LineEntry> TwoFiles = rows(0x10, {{0, 5}, {2, 5}});
  TwoFiles[1].File = 2;
  std::string Files;
  ASSERT_EQ(message(gsym::encodeLineTable(TwoFiles, 0x10, Files)), "");
  EXPECT_EQ(bytes(Files), (std::vector<uint8_t>{0x00, 0x00, 0x05, 0x04, 0x01,
                                                0x02, 0x06, 0x00}));

  std::string Bad;
  EXPECT_NE(
      message(gsym::encodeLineTable(rows(0x10, {{4, 1}, {2, 2}}), 0x10, Bad)),
      "");
}

TEST(GsymWriter, AddressOffsetSizeIsNarrowest) {
  EXPECT_EQ(gsym::addressOffsetSize(0), 1);
  EXPECT_EQ(gsym::addressOffsetSize(0xff), 1);
  EXPECT_EQ(gsym::addressOffsetSize(0x100), 2);
  EXPECT_EQ(gsym::addressOffsetSize(0xffff), 2);
  EXPECT_EQ(gsym::addressOffsetSize(0x10000), 4);
  EXPECT_EQ(gsym::addressOffsetSize(0xffffffff), 4);
  EXPECT_EQ(gsym::addressOffsetSize(0x100000000), 8);
}

/// Three functions at 0x1000, 0x1010, 0x1040 (base 0x1000, offsets fit in
/// one byte), one with a line table and an inlined call.
void fillModel(FunctionModel &M) {
  M.BaseAddress = 0x1000;
  M.UUID = {1, 2, 3, 4};
  FileId C = M.addFile("/src", "main.c");
  FileId H = M.addFile("/src/include", "util.h");
  FunctionEntry A;
  A.Range = {0x1000, 0x1010};
  A.Name = M.saveString("alpha");
  A.Lines = {{0x1000, C, 10}, {0x1004, H, 3}, {0x1008, C, 12}};
  InlineNode Root;
  Root.Ranges = {A.Range};
  Root.Name = A.Name;
  InlineNode Call;
  Call.Ranges = {{0x1004, 0x1008}};
  Call.Name = M.saveString("helper");
  Call.CallFile = C;
  Call.CallLine = 11;
  Root.Children.push_back(Call);
  A.Inline = Root;
  FunctionEntry B;
  B.Range = {0x1010, 0x1030};
  B.Name = M.saveString("beta");
  FunctionEntry G;
  G.Range = {0x1040, 0x1041};
  G.Name = M.saveString("gamma");
  M.addFunction(A);
  M.addFunction(B);
  M.addFunction(G);
  WarningLog Log;
  M.finalize(Log);
}

TEST(GsymWriter, HeaderTablesAndAlignment) {
  FunctionModel M;
  fillModel(M);
  gsym::WriteStats Stats;
  llvm::Expected<std::string> Out = gsym::encodeGsym(M, &Stats);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  const std::string &B = *Out;
  auto U32 = [&](size_t Off) {
    return llvm::support::endian::read32le(B.data() + Off);
  };
  EXPECT_EQ(B.substr(0, 4), "MYSG"); // little-endian magic
  EXPECT_EQ(llvm::support::endian::read16le(B.data() + 4), 1);
  EXPECT_EQ(uint8_t(B[6]), 1); // AddrOffSize
  EXPECT_EQ(uint8_t(B[7]), 4); // UUIDSize
  EXPECT_EQ(llvm::support::endian::read64le(B.data() + 8), 0x1000u);
  EXPECT_EQ(U32(16), 3u); // NumAddresses
  EXPECT_EQ(B.substr(28, 20),
            std::string("\x01\x02\x03\x04", 4) + std::string(16, '\0'));
  // Address offsets (1 byte each) at 48, padded to 4 before the u32
  // FunctionInfo offsets.
  EXPECT_EQ(uint8_t(B[48]), 0x00);
  EXPECT_EQ(uint8_t(B[49]), 0x10);
  EXPECT_EQ(uint8_t(B[50]), 0x40);
  EXPECT_EQ(B[51], '\0');
  // File table right after: count, {0,0}, then files in first-use order.
  size_t Files = 52 + 3 * 4;
  EXPECT_EQ(U32(Files), 3u);
  EXPECT_EQ(U32(Files + 4), 0u);
  EXPECT_EQ(U32(Files + 8), 0u);
  // String table right after the file table; "" first, then first use:
  // alpha, /src, main.c, /src/include, util.h, helper, beta, gamma.
  size_t Strtab = Files + 4 + 3 * 8;
  EXPECT_EQ(U32(20), Strtab);
  static const char Expected[] = "\0alpha\0/src\0main.c\0/src/include\0util.h\0"
                                 "helper\0beta\0gamma";
  EXPECT_EQ(B.substr(Strtab, U32(24)), std::string(Expected, sizeof(Expected)));
  // FunctionInfos: absolute offsets, each aligned to 4, in address order.
  for (unsigned I = 0; I < 3; ++I) {
    EXPECT_EQ(U32(52 + 4 * I) % 4, 0u);
    EXPECT_GE(U32(52 + 4 * I), Strtab + U32(24));
  }
  EXPECT_EQ(U32(U32(52 + 4)), 0x20u); // beta's size
  EXPECT_EQ(Stats.Bytes, B.size());
  EXPECT_EQ(Stats.Functions, 3u);
  EXPECT_EQ(Stats.LineRows, 3u);
  EXPECT_EQ(Stats.InlineNodes, 1u);
}

TEST(GsymWriter, LLVMReaderLooksUpWhatWeWrote) {
  FunctionModel M;
  fillModel(M);
  llvm::Expected<std::string> Out = gsym::encodeGsym(M);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  auto Reader = llvm::gsym::GsymReader::copyBuffer(*Out);
  ASSERT_TRUE(bool(Reader)) << llvm::toString(Reader.takeError());

  auto R = Reader->lookup(0x1005);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->FuncName, "alpha");
  ASSERT_EQ(R->Locations.size(), 2u);
  EXPECT_EQ(R->Locations[0].Name, "helper");
  EXPECT_EQ(R->Locations[0].Dir, "/src/include");
  EXPECT_EQ(R->Locations[0].Base, "util.h");
  EXPECT_EQ(R->Locations[0].Line, 3u);
  EXPECT_EQ(R->Locations[1].Name, "alpha");
  EXPECT_EQ(R->Locations[1].Base, "main.c");
  EXPECT_EQ(R->Locations[1].Line, 11u);

  auto Beta = Reader->lookup(0x102f);
  ASSERT_TRUE(bool(Beta)) << llvm::toString(Beta.takeError());
  EXPECT_EQ(Beta->FuncName, "beta");
  EXPECT_TRUE(fails(Reader->lookup(0x1030))); // gap
  EXPECT_TRUE(fails(Reader->lookup(0xfff)));
}

TEST(GsymWriter, RowsDifferingOnlyInColumnAreMerged) {
  // GSYM has no columns nor discriminators: a row that differs from the
  // previous one only there is left out, and the file is as without them.
  auto Make = [](FunctionModel &M, bool Details) {
    FileId F = M.addFile("/src", "a.c");
    FunctionEntry E;
    E.Range = {0x1000, 0x1040};
    E.Name = M.saveString("f");
    std::vector<LineEntry> Rows = rows(0x1000, {{0, 5}, {0x10, 5}, {0x20, 6}});
    for (LineEntry &L : Rows)
      L.File = F;
    if (Details) {
      Rows[0].Column = 3;
      Rows[1].Column = 9; // only the column changes
      Rows[1].Discriminator = 2;
    } else {
      Rows.erase(Rows.begin() + 1);
    }
    E.Lines = Rows;
    M.addFunction(E);
    WarningLog Log;
    M.finalize(Log);
  };
  FunctionModel WithColumns, Without;
  Make(WithColumns, true);
  Make(Without, false);
  gsym::WriteStats S;
  llvm::Expected<std::string> A = gsym::encodeGsym(WithColumns, &S);
  llvm::Expected<std::string> B = gsym::encodeGsym(Without);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(*A, *B);
  EXPECT_EQ(S.LineRows, 2u);
}

TEST(GsymWriter, BigEndianOutput) {
  FunctionModel M;
  fillModel(M);
  M.IsLittleEndian = false;
  llvm::Expected<std::string> Out = gsym::encodeGsym(M);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->substr(0, 4), "GSYM");
  auto Reader = llvm::gsym::GsymReader::copyBuffer(*Out);
  ASSERT_TRUE(bool(Reader)) << llvm::toString(Reader.takeError());
  auto R = Reader->lookup(0x1040);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->FuncName, "gamma");
}

TEST(GsymWriter, RejectsWhatTheFormatCannotHold) {
  FunctionModel Empty;
  EXPECT_TRUE(fails(gsym::encodeGsym(Empty)));

  FunctionModel LongId;
  fillModel(LongId);
  LongId.UUID.assign(21, 7);
  EXPECT_TRUE(fails(gsym::encodeGsym(LongId)));

  // An inline range outside its parent would make LLVM's encoder fail too.
  FunctionModel Bad;
  fillModel(Bad);
  Bad.functions()[0].Inline->Children[0].Ranges = {{0x1004, 0x1020}};
  EXPECT_TRUE(fails(gsym::encodeGsym(Bad)));
}

} // namespace
