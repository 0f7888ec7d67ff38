//===- GsymReaderTest.cpp - GSYM reader on valid and damaged bytes --------===//
//
// The fixtures are the bytes of test/dump/Inputs/mkgsym.py --depth 3 (little
// and big endian): f = [0x1000, 0x1100) with rows 0x1000:10 and 0x1010:11
// in /src/a.c and inlined calls in1 [0x1001, 0x10ff) from line 101, in2
// [0x1002, 0x10fe) from 102, in3 [0x1003, 0x10fd) from 103; g = [0x1200,
// 0x1210) without line table.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/GSYM/GsymReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <chrono>
#include <vector>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::gsym;

namespace {

const uint8_t LittleEndianFile[] = {
    0x4d, 0x59, 0x53, 0x47, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00,
    0x1a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x10, 0x00, 0x12, 0x6c, 0x00, 0x00, 0x00, 0xc8, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x2f, 0x73, 0x72,
    0x63, 0x00, 0x61, 0x2e, 0x63, 0x00, 0x66, 0x00, 0x67, 0x00, 0x69, 0x6e,
    0x31, 0x00, 0x69, 0x6e, 0x32, 0x00, 0x69, 0x6e, 0x33, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x02, 0x00, 0x03, 0x01, 0x02,
    0x10, 0x00, 0x02, 0x00, 0x00, 0x00, 0x2f, 0x00, 0x00, 0x00, 0x01, 0x00,
    0x80, 0x02, 0x01, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0xfe,
    0x01, 0x01, 0x0e, 0x00, 0x00, 0x00, 0x01, 0x65, 0x01, 0x01, 0xfc, 0x01,
    0x01, 0x12, 0x00, 0x00, 0x00, 0x01, 0x66, 0x01, 0x01, 0xfa, 0x01, 0x00,
    0x16, 0x00, 0x00, 0x00, 0x01, 0x67, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
    0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

const uint8_t BigEndianFile[] = {
    0x47, 0x53, 0x59, 0x4d, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x50,
    0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x12, 0x00, 0x00, 0x00, 0x00, 0x6c, 0x00, 0x00, 0x00, 0xc8,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x2f, 0x73, 0x72,
    0x63, 0x00, 0x61, 0x2e, 0x63, 0x00, 0x66, 0x00, 0x67, 0x00, 0x69, 0x6e,
    0x31, 0x00, 0x69, 0x6e, 0x32, 0x00, 0x69, 0x6e, 0x33, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x0a, 0x00, 0x01, 0x0a, 0x02, 0x00, 0x03, 0x01, 0x02,
    0x10, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x2f, 0x01, 0x00,
    0x80, 0x02, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x01, 0x01, 0xfe,
    0x01, 0x01, 0x00, 0x00, 0x00, 0x0e, 0x01, 0x65, 0x01, 0x01, 0xfc, 0x01,
    0x01, 0x00, 0x00, 0x00, 0x12, 0x01, 0x66, 0x01, 0x01, 0xfa, 0x01, 0x00,
    0x00, 0x00, 0x00, 0x16, 0x01, 0x67, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

std::string bytesOf(const uint8_t *P, size_t N) {
  return std::string(reinterpret_cast<const char *>(P), N);
}

std::unique_ptr<GsymReader> open(StringRef Bytes) {
  auto R = GsymReader::create(MemoryBufferRef(Bytes, "test.gsym"));
  if (!R) {
    ADD_FAILURE() << toString(R.takeError());
    return nullptr;
  }
  return std::move(*R);
}

std::string framesOf(const LookupResult &R) {
  std::string S;
  for (const SourceFrame &F : R.Frames)
    S += F.FunctionName + "@" + F.FileName + ":" + std::to_string(F.Line) +
         "+" + utohexstr(F.StartAddress) + " ";
  return S;
}

void checkValidFile(StringRef Bytes) {
  std::unique_ptr<GsymReader> R = open(Bytes);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->getNumAddresses(), 2u);
  EXPECT_EQ(R->getAddress(0), 0x1000u);
  EXPECT_EQ(R->getAddress(1), 0x1200u);
  EXPECT_EQ(R->getFilePath(1), "/src/a.c");

  auto Lookup = [&](uint64_t A) {
    Expected<LookupResult> LR = R->lookup(A);
    if (!LR)
      return "error: " + toString(LR.takeError());
    return framesOf(*LR);
  };
  EXPECT_EQ(Lookup(0xfff), "");
  EXPECT_EQ(Lookup(0x1000), "f@/src/a.c:10+1000 ");
  EXPECT_EQ(Lookup(0x1001), "in1@/src/a.c:10+1001 f@/src/a.c:101+1000 ");
  EXPECT_EQ(Lookup(0x1010), "in3@/src/a.c:11+1003 in2@/src/a.c:103+1002 "
                            "in1@/src/a.c:102+1001 f@/src/a.c:101+1000 ");
  EXPECT_EQ(Lookup(0x10ff), "f@/src/a.c:11+1000 ");
  EXPECT_EQ(Lookup(0x1100), "");
  EXPECT_EQ(Lookup(0x120f), "g@:0+1200 ");
  EXPECT_EQ(Lookup(0x1210), "");

  Expected<DecodedFunction> F = R->decodeFunction(0);
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  EXPECT_EQ(F->Entry.Name, "f");
  ASSERT_EQ(F->Entry.Lines.size(), 2u);
  EXPECT_EQ(F->Entry.Lines[1].Address, 0x1010u);
  EXPECT_EQ(F->Entry.Lines[1].Line, 11u);
  ASSERT_TRUE(F->Entry.Inline.has_value());
  ASSERT_EQ(F->Entry.Inline->Children.size(), 1u);
  EXPECT_EQ(F->Entry.Inline->Children[0].Name, "in1");
  EXPECT_EQ(F->Entry.Inline->Children[0].CallLine, 101u);
}

TEST(GsymReader, FunctionIterator) {
  // The reader borrows the bytes: keep them alive.
  const std::string Bytes = bytesOf(LittleEndianFile, sizeof(LittleEndianFile));
  std::unique_ptr<GsymReader> R = open(Bytes);
  ASSERT_TRUE(R);
  std::vector<std::string> Names;
  for (Expected<DecodedFunction> F : R->functions()) {
    ASSERT_TRUE(bool(F)) << toString(F.takeError());
    Names.push_back(F->Entry.Name.str() + "@" +
                    utohexstr(F->Entry.Range.Start));
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"f@1000", "g@1200"}));
}

TEST(GsymReader, LittleEndian) {
  checkValidFile(bytesOf(LittleEndianFile, sizeof(LittleEndianFile)));
}

TEST(GsymReader, BigEndian) {
  checkValidFile(bytesOf(BigEndianFile, sizeof(BigEndianFile)));
}

// File entries are joined as LLVM's lookup joins them: sys::path::append,
// POSIX style, or Windows style for a directory with '\\' and no '/'.
TEST(GsymReader, JoinPathMatchesLLVM) {
  const std::pair<const char *, const char *> Cases[] = {
      {"/d", "b.c"},        {"/d/", "b.c"},   {"/d/", "/b.c"},
      {"/d/", "//b.c"},     {"/d", "/b.c"},   {"d", "\\b.c"},
      {"/d/", "/"},         {"/", "/x/y.c"},  {"a/b", "c/d.h"},
      {"C:\\d\\", "\\b.c"}, {"x\\y", "b.c"},  {"x\\y", "/b.c"},
      {"x\\y", "c:b.c"},    {"x\\y\\", "b.c"}};
  for (auto [Dir, Base] : Cases) {
    StringRef D(Dir);
    auto Style = D.contains('\\') && !D.contains('/')
                     ? sys::path::Style::windows_backslash
                     : sys::path::Style::posix;
    SmallString<64> Want(D);
    sys::path::append(Want, Style, Base);
    EXPECT_EQ(joinPath(Dir, Base), std::string(Want))
        << "'" << Dir << "' + '" << Base << "'";
  }
  // Empty sides: the other one alone (GSYM's LookupResult does the same).
  EXPECT_EQ(joinPath("", "b.c"), "b.c");
  EXPECT_EQ(joinPath("/d", ""), "/d");
}

TEST(GsymReader, Identify) {
  EXPECT_TRUE(GsymReader::isGsym("MYSG"));
  EXPECT_TRUE(GsymReader::isGsym("GSYM"));
  EXPECT_FALSE(GsymReader::isGsym("GSY"));
  EXPECT_FALSE(GsymReader::isGsym("\x7f"
                                  "ELF"));
}

/// Exercises everything the reader offers on Bytes; only crashes, hangs and
/// (under sanitizers) bad memory accesses can fail it.
void exercise(StringRef Bytes) {
  auto R = GsymReader::create(MemoryBufferRef(Bytes, "fuzz.gsym"));
  if (!R) {
    consumeError(R.takeError());
    return;
  }
  for (uint64_t A = 0xff0; A <= 0x1220; ++A) {
    Expected<LookupResult> LR = (*R)->lookup(A);
    if (!LR)
      consumeError(LR.takeError());
  }
  for (uint64_t A : {uint64_t(0), ~uint64_t(0), uint64_t(1) << 63}) {
    Expected<LookupResult> LR = (*R)->lookup(A);
    if (!LR)
      consumeError(LR.takeError());
  }
  for (uint32_t I = 0; I < (*R)->getNumAddresses(); ++I) {
    Expected<DecodedFunction> F = (*R)->decodeFunction(I);
    if (!F) {
      consumeError(F.takeError());
      continue;
    }
    // lookupIn on the decoded record must answer exactly like lookup for
    // every address the address table sends to this record.
    uint64_t Lo = F->Entry.Range.Start;
    uint64_t Hi = std::max(F->Entry.Range.End, Lo + 0x20);
    Hi = std::min(Hi, Lo + 0x400);
    for (uint64_t A = Lo; A < Hi; ++A) {
      Expected<std::optional<uint32_t>> Idx = (*R)->findFunctionIndex(A);
      if (!Idx) {
        consumeError(Idx.takeError());
        continue;
      }
      if (*Idx != I)
        continue;
      Expected<LookupResult> Slow = (*R)->lookup(A);
      Expected<LookupResult> Fast = (*R)->lookupIn(*F, A);
      if (!Slow || !Fast) {
        EXPECT_EQ(bool(Slow), bool(Fast))
            << "at " << A << ": "
            << (Slow ? std::string() : toString(Slow.takeError()))
            << (Fast ? std::string() : toString(Fast.takeError()));
        if (!Slow)
          consumeError(Slow.takeError());
        if (!Fast)
          consumeError(Fast.takeError());
        continue;
      }
      EXPECT_EQ(framesOf(*Slow), framesOf(*Fast)) << "at " << A;
    }
  }
  for (uint32_t I = 0; I < (*R)->getNumFiles(); ++I)
    (void)(*R)->getFilePath(I);
  raw_null_ostream Null;
  consumeError(dumpGsym(**R, Null));
}

void mutateEveryByte(const uint8_t *File, size_t Size) {
  const std::string Valid = bytesOf(File, Size);
  for (size_t Len = 0; Len < Size; ++Len)
    exercise(StringRef(Valid).take_front(Len));
  for (size_t I = 0; I < Size; ++I) {
    const uint8_t Orig = Valid[I];
    for (uint8_t V :
         {uint8_t(0), uint8_t(0xff), uint8_t(0x80), uint8_t(0x7f),
          uint8_t(Orig ^ 1), uint8_t(Orig + 1), uint8_t(Orig - 1)}) {
      if (V == Orig)
        continue;
      std::string Bytes = Valid;
      Bytes[I] = char(V);
      exercise(Bytes);
    }
  }
  // Several bytes at once, from a fixed-seed generator (deterministic).
  uint64_t State = 0x9e3779b97f4a7c15;
  auto Next = [&] {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return State >> 33;
  };
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Bytes = Valid;
    unsigned Count = 2 + Next() % 6;
    for (unsigned K = 0; K < Count; ++K)
      Bytes[Next() % Size] = char(Next());
    exercise(Bytes);
  }
}

TEST(GsymReader, MutatedLittleEndianNeverCrashes) {
  mutateEveryByte(LittleEndianFile, sizeof(LittleEndianFile));
}

TEST(GsymReader, MutatedBigEndianNeverCrashes) {
  mutateEveryByte(BigEndianFile, sizeof(BigEndianFile));
}

TEST(GsymReader, HugeLebValuesAreErrors) {
  // Replace f's line table MinDelta by an 11-byte ULEB that overflows
  // 64 bits: the reader must report, not loop or read past the record.
  std::string Bytes = bytesOf(LittleEndianFile, sizeof(LittleEndianFile));
  std::unique_ptr<GsymReader> R = open(Bytes);
  ASSERT_TRUE(R);
  uint32_t InfoOff = R->getFunctionInfoOffset(0);
  // Record header of the line table: type at +8, length at +12, payload +16.
  for (int I = 0; I < 10; ++I)
    Bytes[InfoOff + 16 + I] = char(0xff);
  auto R2 = GsymReader::create(MemoryBufferRef(Bytes, "t"));
  ASSERT_TRUE(bool(R2));
  Expected<LookupResult> LR = (*R2)->lookup(0x1000);
  ASSERT_FALSE(bool(LR));
  EXPECT_NE(toString(LR.takeError()).find("line table"), std::string::npos);
}

} // namespace
