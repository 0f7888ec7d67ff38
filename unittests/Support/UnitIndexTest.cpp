//===- UnitIndexTest.cpp - Package unit indexes LLVM can parse ------------===//

#include "dwarfpack/Support/UnitIndex.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

/// An index as llvm-dwp writes one: Units units in Buckets buckets (unit
/// I in bucket I - 1), columns info and abbrev, every contribution empty.
struct Index {
  unsigned Version = 5;
  uint32_t Columns = 2, Units = 2, Buckets = 4;
  std::vector<uint32_t> Rows = {1, 2, 0, 0};
  std::vector<uint32_t> Ids = {1, 3}; // DW_SECT_INFO, DW_SECT_ABBREV
  bool BigEndian = false;

  std::string bytes() const {
    std::string Out;
    auto Put = [&](uint64_t V, unsigned N) {
      for (unsigned I = 0; I < N; ++I)
        Out.push_back(char(V >> (8 * (BigEndian ? N - 1 - I : I))));
    };
    if (Version == 2) {
      Put(2, 4);
    } else {
      Put(Version, 2);
      Put(0, 2);
    }
    Put(Columns, 4);
    Put(Units, 4);
    Put(Buckets, 4);
    for (size_t I = 0; I < Rows.size(); ++I)
      Put(0x1000 + I, 8); // signatures
    for (uint32_t R : Rows)
      Put(R, 4);
    for (uint32_t Id : Ids)
      Put(Id, 4);
    for (uint64_t I = 0; I < 2ull * Units * Ids.size(); ++I)
      Put(0, 4); // offsets, then sizes
    return Out;
  }
};

std::string check(StringRef Bytes, bool IsLittleEndian = true,
                  bool IsTypeIndex = false) {
  Error E = checkUnitIndex(Bytes, IsLittleEndian, IsTypeIndex);
  return E ? toString(std::move(E)) : "";
}

std::string check(const Index &I, bool IsTypeIndex = false) {
  return check(I.bytes(), !I.BigEndian, IsTypeIndex);
}

TEST(UnitIndexTest, WellFormedIndexesPass) {
  Index I;
  EXPECT_EQ(check(I), "");
  EXPECT_EQ(check(I, /*IsTypeIndex=*/true), ""); // version 5: info column
  I.BigEndian = true;
  EXPECT_EQ(check(I), "");
  // GCC's version 2: a type index's units are in the types column (2).
  Index V2;
  V2.Version = 2;
  EXPECT_EQ(check(V2), "");
  EXPECT_EQ(check(V2, /*IsTypeIndex=*/true),
            ".debug_tu_index: 0 columns of section id 2, not one");
  V2.Ids = {2, 3};
  EXPECT_EQ(check(V2, /*IsTypeIndex=*/true), "");
  // Units anywhere in the table, in any order.
  I.BigEndian = false;
  I.Rows = {0, 2, 0, 1};
  EXPECT_EQ(check(I), "");
}

TEST(UnitIndexTest, WhatLLVMIgnoresPasses) {
  EXPECT_EQ(check(""), "");
  EXPECT_EQ(check(StringRef("\5\0\0\0", 4)), "");
  Index I;
  I.Version = 4; // neither 2 nor 5
  EXPECT_EQ(check(I), "");
  Index Empty;
  Empty.Units = Empty.Buckets = 0;
  Empty.Rows.clear();
  EXPECT_EQ(check(Empty), "");
}

TEST(UnitIndexTest, RowPastTheUnits) {
  // LLVM writes the unit's contributions at Contribs[Row - 1].
  Index I;
  I.Rows = {1, 2, 0, 9};
  EXPECT_EQ(check(I), ".debug_cu_index: bucket 3 names unit 9 of 2");
}

TEST(UnitIndexTest, UnitNamedByNoBucketOrByTwo) {
  // LLVM reads the offsets of an unnamed unit through a null pointer.
  Index I;
  I.Rows = {1, 0, 0, 0};
  EXPECT_EQ(check(I), ".debug_cu_index: unit 2 of 2 is named by no bucket");
  I.Rows = {1, 1, 0, 0};
  EXPECT_EQ(check(I), ".debug_cu_index: unit 1 is named by two buckets");
}

TEST(UnitIndexTest, SearchesMustEnd) {
  // A failed search probes until a free bucket: it needs one, and a power
  // of two for the probes to reach it.
  Index I;
  I.Buckets = 3;
  I.Rows = {1, 2, 0};
  EXPECT_EQ(check(I), ".debug_cu_index: 3 buckets, not a power of two");
  I.Buckets = 2;
  I.Rows = {1, 2};
  EXPECT_EQ(check(I), ".debug_cu_index: no free bucket among 2");
  I.Buckets = 0;
  I.Rows.clear();
  EXPECT_EQ(check(I), ".debug_cu_index: 0 buckets, not a power of two");
}

TEST(UnitIndexTest, CountsThatDoNotFit) {
  // LLVM sums the table sizes in 32 bits: 2^30 buckets of 12 bytes wrap
  // to a small size, and it would allocate a row per bucket.
  Index I;
  I.Buckets = 1u << 30;
  EXPECT_EQ(check(I), ".debug_cu_index: 1073741824 buckets, 2 units and 2 "
                      "columns do not fit in its 104 bytes");
  // Without columns, LLVM allocates a pointer per unit before it looks.
  Index NoColumns;
  NoColumns.Columns = 0;
  NoColumns.Units = 0xFFFFFFFF;
  NoColumns.Ids.clear();
  EXPECT_EQ(check(NoColumns),
            ".debug_cu_index: no columns for 4294967295 units");
  // One byte short.
  Index Short;
  std::string B = Short.bytes();
  EXPECT_EQ(check(StringRef(B).drop_back()),
            ".debug_cu_index: 4 buckets, 2 units and 2 columns do not fit in "
            "its 103 bytes");
}

TEST(UnitIndexTest, InfoColumnOnce) {
  Index I;
  I.Ids = {3, 6};
  EXPECT_EQ(check(I), ".debug_cu_index: 0 columns of section id 1, not one");
  I.Ids = {1, 1};
  EXPECT_EQ(check(I), ".debug_cu_index: 2 columns of section id 1, not one");
}

} // namespace
