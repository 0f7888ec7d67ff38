//===- LineTableHeaderTest.cpp - Line-table headers LLVM can parse --------===//

#include "dwarfpack/DwarfInput/LineTableHeader.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

using Bytes = std::vector<uint8_t>;

void putN(Bytes &Out, uint64_t V, unsigned N) {
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(uint8_t(V >> (8 * I)));
}

Bytes cstr(const char *S) {
  Bytes B(S, S + strlen(S));
  B.push_back(0);
  return B;
}

/// A little-endian line table: the given directory and file parts after
/// the fixed fields; HeaderCut, when set, is the header_length written.
struct Table {
  uint16_t Version = 5;
  bool Dwarf64 = false;
  Bytes Tables; // entry formats and entries
  std::optional<uint64_t> HeaderCut;
  std::optional<uint64_t> UnitCut;

  std::string bytes() const {
    Bytes Header{1, 1, 1, uint8_t(-5), 14, 13, 0, 1, 1,
                 1, 1, 0, 0,           0,  1,  0, 0, 1};
    Header.insert(Header.end(), Tables.begin(), Tables.end());
    Bytes Body;
    putN(Body, Version, 2);
    if (Version >= 5)
      Body.insert(Body.end(), {8, 0});
    unsigned OffsetSize = Dwarf64 ? 8 : 4;
    putN(Body, HeaderCut.value_or(Header.size()), OffsetSize);
    Body.insert(Body.end(), Header.begin(), Header.end());
    Body.insert(Body.end(), {0, 1, 1}); // DW_LNE_end_sequence
    Bytes Out;
    if (Dwarf64)
      putN(Out, 0xffffffff, 4);
    putN(Out, UnitCut.value_or(Body.size()), OffsetSize);
    Out.insert(Out.end(), Body.begin(), Body.end());
    return std::string(Out.begin(), Out.end());
  }
};

/// The check's complaint about the table, empty if none.
std::string problem(const std::string &S) {
  DWARFDataExtractor Data(StringRef(S), /*IsLittleEndian=*/true, 8);
  if (Error E = checkLineTableHeader(Data, 0))
    return toString(std::move(E));
  return "";
}

Bytes concat(std::initializer_list<Bytes> Parts) {
  Bytes Out;
  for (const Bytes &P : Parts)
    Out.insert(Out.end(), P.begin(), P.end());
  return Out;
}

using namespace dwarf;

// One directory "/d" (path as a string), then the file format and entries.
Bytes oneDir() {
  return concat({{1, DW_LNCT_path, DW_FORM_string, 1}, cstr("/d")});
}

/// A table with oneDir() and one file "a.c" in directory 0 (one byte),
/// described by FileFormat (its pair count, pairs and the file count 1).
Table oneFile(const Bytes &FileFormat) {
  Table T;
  T.Tables = concat({oneDir(), FileFormat, cstr("a.c"), {0}});
  return T;
}

/// Whether checking T fails with a message containing What.
void expectProblem(const Table &T, StringRef What) {
  std::string Msg = problem(T.bytes());
  EXPECT_NE(Msg.find(What.str()), std::string::npos) << Msg;
}

TEST(LineTableHeaderTest, FormsCompilersWritePass) {
  Table T;
  T.Tables = concat({oneDir(),
                     {3, DW_LNCT_path, DW_FORM_string, DW_LNCT_directory_index,
                      DW_FORM_udata, DW_LNCT_MD5, DW_FORM_data16, 1},
                     cstr("a.c"),
                     {0},
                     Bytes(16, 0xab)});
  EXPECT_EQ(problem(T.bytes()), "");
}

TEST(LineTableHeaderTest, UnknownFileFormIsRejected) {
  expectProblem(oneFile({2, DW_LNCT_path, DW_FORM_string,
                         DW_LNCT_directory_index, 0x4f, 1}),
                "the file name entry format gives content type "
                "DW_LNCT_directory_index form 0x4f");
}

TEST(LineTableHeaderTest, ContentTypeBeyondVendorRangeIsRejected) {
  // 0x4001: ULEB 0x81 0x80 0x01.
  expectProblem(oneFile({2, DW_LNCT_path, DW_FORM_string, 0x81, 0x80, 0x01,
                         DW_FORM_data1, 1}),
                "content type 0x4001 form DW_FORM_data1");
}

TEST(LineTableHeaderTest, OverlongULEBIsRejected) {
  // A form written in 11 bytes: LLVM's decoder would shift past 64 bits.
  expectProblem(
      oneFile({2, DW_LNCT_path, DW_FORM_string, DW_LNCT_directory_index, 0x8b,
               0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 1}),
      "malformed ULEB128 in the file name entry format");
}

// LLVM stops with an error of its own where the header ends, so what lies
// beyond is never parsed and needs no check.
TEST(LineTableHeaderTest, FormsPastTheHeaderEndPass) {
  Table T = oneFile(
      {2, DW_LNCT_path, DW_FORM_string, DW_LNCT_directory_index, 0x4f, 1});
  T.HeaderCut = 18 + 5; // opcode lengths, directory format, part of "/d"
  EXPECT_EQ(problem(T.bytes()), "");
  // The same bytes, with the header whole but the unit cut short.
  Table U = T;
  U.HeaderCut.reset();
  U.UnitCut = 2 + 2 + 4 + 18 + 5;
  EXPECT_EQ(problem(U.bytes()), "");
  U.UnitCut.reset();
  EXPECT_NE(problem(U.bytes()), "");
}

// DWARF64: offsets are 8 bytes. Read as 4, the directory's zeros would be
// taken for an empty file format and the bad form missed.
TEST(LineTableHeaderTest, Dwarf64OffsetsAreSteppedOver) {
  Table T;
  T.Dwarf64 = true;
  T.Tables = concat(
      {{1, DW_LNCT_path, DW_FORM_line_strp, 1},
       Bytes(8, 0),
       {2, DW_LNCT_path, DW_FORM_line_strp, DW_LNCT_directory_index, 0x4f, 1},
       Bytes(8, 0),
       {0}});
  EXPECT_NE(problem(T.bytes()), "");
}

TEST(LineTableHeaderTest, EarlierVersionsPass) {
  // Version 4 tables hold strings only; the bytes are not read.
  Table T;
  T.Version = 4;
  T.Tables = Bytes{0x4f, 0x4f, 0x4f};
  EXPECT_EQ(problem(T.bytes()), "");
}

} // namespace

namespace {

// LLVM steps over a directory's other fields without checking their sizes
// (DWARFFormValue::skipValue), then decodes a LEB128 wherever that lands,
// without a bound: past the header, a read outside the section.
TEST(LineTableHeaderTest, DirectoryFieldPastTheHeaderIsRejected) {
  Table T;
  T.Tables =
      concat({{2, DW_LNCT_path, DW_FORM_strx, 0x81, 0x40, DW_FORM_block4},
              {2, 0},
              {0x00, 0x00, 0x00, 0x10}, // a block of 256 MiB
              {0},
              {1, DW_LNCT_path, DW_FORM_string, 0}});
  std::string Msg = problem(T.bytes());
  EXPECT_NE(Msg.find("a directory entry runs past the end of the header"),
            std::string::npos)
      << Msg;
  // With an inline string path LLVM's next read fails within its bounds.
  T.Tables =
      concat({{2, DW_LNCT_path, DW_FORM_string, 0x81, 0x40, DW_FORM_block4},
              {2},
              cstr("d"),
              {0x00, 0x00, 0x00, 0x10},
              cstr("e"),
              {0, 0, 0, 0},
              {1, DW_LNCT_path, DW_FORM_string, 0}});
  EXPECT_EQ(problem(T.bytes()), "");
}

// A block length that wraps the offset around brings LLVM back to the same
// directory, again and again: each one is kept, without end.
TEST(LineTableHeaderTest, DirectoryFieldWrappingIsRejected) {
  Table T;
  // "a" (2 bytes), then a block whose 10-byte ULEB128 length is 2^64 - 12.
  T.Tables =
      concat({{2, DW_LNCT_path, DW_FORM_string, 0x81, 0x40, DW_FORM_block},
              {0xff, 0xff, 0xff, 0xff, 0x0f}, // 2^32 - 1 directories
              cstr("a"),
              {0xf4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
              {1, DW_LNCT_path, DW_FORM_string, 0}});
  std::string Msg = problem(T.bytes());
  EXPECT_NE(Msg.find("a directory entry runs past the end of the header"),
            std::string::npos)
      << Msg;
}

// LLVM stops at a directory format without a path and never reads the file
// format after it, whatever that holds.
TEST(LineTableHeaderTest, FileFormatAfterPathlessDirectoriesPasses) {
  Table T;
  T.Tables = concat(
      {{1, 0x81, 0x40, DW_FORM_data1},
       {0},
       {2, DW_LNCT_path, DW_FORM_string, DW_LNCT_directory_index, 0x4f, 0}});
  EXPECT_EQ(problem(T.bytes()), "");
}

} // namespace
