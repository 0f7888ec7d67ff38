//===- ReleasePagesTest.cpp - The walk gives back the pages it is done with
//===//
//
// A big object's .debug_info is read once, unit after unit: the walk hands
// each merged unit's pages of a file mapping back to the kernel, so that
// the resident set holds the models being built, not the whole section.
// Objects opened from bytes in memory say whether those bytes are a file
// mapping; only then may pages be released. What a merge leaves of a
// unit's results is freed by the thread that made them (a free on another
// thread contends for the maker's malloc arena).
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/DwarfInput/UnitWalk.h"

#include "../ProcessMemory.h"
#include "../YamlObject.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::input;
using namespace dwarfpack::testutil;

namespace {

/// An executable of Units compile units whose names are NameSize bytes
/// long, so that its .debug_info spans many pages.
std::string manyUnits(unsigned Units, unsigned NameSize) {
  std::string Y = test::elfYamlHeader("ET_EXEC") + R"(DWARF:
  debug_abbrev:
    - Table:
        - { Code: 1, Tag: DW_TAG_compile_unit, Children: DW_CHILDREN_no,
            Attributes: [ { Attribute: DW_AT_name, Form: DW_FORM_string } ] }
  debug_info:
)";
  for (unsigned I = 0; I < Units; ++I)
    Y += "    - { Version: 4, AbbrevTableID: 0, AbbrOffset: 0, AddrSize: 8,\n"
         "        Entries: [ { AbbrCode: 1, Values: [ { CStr: u" +
         std::to_string(I) + std::string(NameSize, 'x') + " } ] } ] }\n";
  return Y;
}

/// An executable of Units compile units of one DIE each, each with its own
/// abbreviation table of Codes entries (unused but the first), so that its
/// .debug_abbrev spans many pages and its .debug_info few.
std::string unitsWithOwnAbbrevs(unsigned Units, unsigned Codes) {
  std::string Y = test::elfYamlHeader("ET_EXEC") + R"(DWARF:
  debug_abbrev:
)";
  const std::string Attrs =
      "[ { Attribute: DW_AT_name, Form: DW_FORM_string }, "
      "{ Attribute: DW_AT_producer, Form: DW_FORM_string }, "
      "{ Attribute: DW_AT_comp_dir, Form: DW_FORM_string }, "
      "{ Attribute: DW_AT_language, Form: DW_FORM_data2 }, "
      "{ Attribute: DW_AT_low_pc, Form: DW_FORM_addr }, "
      "{ Attribute: DW_AT_high_pc, Form: DW_FORM_data4 } ]";
  for (unsigned U = 0; U < Units; ++U) {
    Y += "    - ID: " + std::to_string(U) + "\n      Table:\n";
    for (unsigned C = 1; C <= Codes; ++C)
      Y += "        - { Code: " + std::to_string(C) +
           ", Tag: DW_TAG_compile_unit, Children: DW_CHILDREN_no, "
           "Attributes: " +
           (C == 1 ? std::string(
                         "[ { Attribute: DW_AT_name, Form: DW_FORM_string } ]")
                   : Attrs) +
           " }\n";
  }
  Y += "  debug_info:\n";
  for (unsigned U = 0; U < Units; ++U)
    Y += "    - { Version: 4, AbbrevTableID: " + std::to_string(U) +
         ", AddrSize: 8,\n        Entries: [ { AbbrCode: 1, Values: [ { "
         "CStr: u" +
         std::to_string(U) + " } ] } ] }\n";
  return Y;
}

/// Reads every byte of each unit, as a visitor reading all its DIEs would.
class Toucher : public UnitVisitor {
public:
  std::unique_ptr<UnitResult> visit(const UnitContext &C) override {
    StringRef Info = C.Object.dwarf().section(Sec::Info);
    const UnitHeader &H = C.Skel.header();
    unsigned Sum = 0;
    for (uint64_t I = H.Offset; I < H.end() && I < Info.size(); ++I)
      Sum += uint8_t(Info[I]);
    Touched += Sum != 0;
    return std::make_unique<UnitResult>();
  }
  bool merge(size_t, UnitResult &) override { return true; }
  std::atomic<unsigned> Touched{0};
};

struct AfterWalk {
  uint64_t ResidentKiB = 0;
  unsigned Releases = 0;
};

AfterWalk walkMapped(bool FileMapping, uint64_t ReleaseStep) {
  SmallString<128> Path;
  std::unique_ptr<MemoryBuffer> Buf =
      test::mapYamlObject(manyUnits(160, 2000), Path);
  EXPECT_TRUE(Buf);
  if (!Buf)
    return {};
  EXPECT_EQ(Buf->getBufferKind(), MemoryBuffer::MemoryBuffer_MMap);
  WarningLog Log;
  OpenOptions Opts;
  Opts.BufferIsFileMapping = FileMapping;
  auto Obj = InputObject::open(MemoryBufferRef(*Buf), Log, Opts);
  EXPECT_TRUE(bool(Obj)) << toString(Obj.takeError());
  AfterWalk After;
  if (Obj) {
    EXPECT_EQ((*Obj)->isFileMapping(), FileMapping);
    Toucher V;
    std::vector<WalkItem> Items = compileUnits(**Obj);
    EXPECT_EQ(Items.size(), 160u);
    WalkOptions W;
    W.Threads = 2;
    W.ReleaseStep = ReleaseStep;
    UnitVisitor *Visitors[] = {&V};
    EXPECT_FALSE(bool(walkUnits(**Obj, Items, Visitors, W, Log)));
    EXPECT_EQ(V.Touched, 160u);
    After.ResidentKiB = residentKiB(Buf->getBufferStart());
    After.Releases = (*Obj)->pageReleases();
  }
  sys::fs::remove(Path);
  return After;
}

uint64_t residentAfterWalk(bool FileMapping) {
  return walkMapped(FileMapping, WalkOptions().ReleaseStep).ResidentKiB;
}

TEST(ReleasePages, WalkReleasesUnitsOfAFileMapping) {
  // 160 units of about 2 KB: 320 KB of .debug_info, all of it read.
  uint64_t Released = residentAfterWalk(/*FileMapping=*/true);
  uint64_t Kept = residentAfterWalk(/*FileMapping=*/false);
  EXPECT_GE(Kept, 300u);
  // Usually 4 KiB stay; a page touched again after its release brings back
  // its fault-around block (64 KiB) now and then.
  EXPECT_LT(Released, Kept / 3) << "kept " << Kept;
}

TEST(ReleasePages, ReleasesAreFewAndTheLastOneComesAtTheEnd) {
  // Each release interrupts the other cores running the walk, so releases
  // come a step of merged bytes apart, and once more at the end. 320 KB in
  // 64 KiB steps: about 5 releases, not one per unit (160).
  AfterWalk Stepped = walkMapped(/*FileMapping=*/true, 64 << 10);
  EXPECT_GE(Stepped.Releases, 4u);
  EXPECT_LE(Stepped.Releases, 6u);
  EXPECT_LT(Stepped.ResidentKiB, 100u);
  // The default step is larger than the section: one release, at the end.
  AfterWalk Once = walkMapped(/*FileMapping=*/true, WalkOptions().ReleaseStep);
  EXPECT_EQ(Once.Releases, 1u);
  EXPECT_LT(Once.ResidentKiB, 100u);
  EXPECT_EQ(walkMapped(/*FileMapping=*/false, 64 << 10).Releases, 0u);
}

TEST(ReleasePages, WalkReleasesTheAbbreviationsOfUnitsItHasMerged) {
  // 96 tables of about 1.9 KB (180 KB of .debug_abbrev), each read by
  // its own unit only.
  auto Resident = [](bool FileMapping) -> uint64_t {
    SmallString<128> Path;
    std::unique_ptr<MemoryBuffer> Buf =
        test::mapYamlObject(unitsWithOwnAbbrevs(96, 150), Path);
    EXPECT_TRUE(Buf);
    if (!Buf)
      return 0;
    WarningLog Log;
    OpenOptions Opts;
    Opts.BufferIsFileMapping = FileMapping;
    auto Obj = InputObject::open(MemoryBufferRef(*Buf), Log, Opts);
    EXPECT_TRUE(bool(Obj)) << toString(Obj.takeError());
    uint64_t KiB = 0;
    if (Obj) {
      EXPECT_GT((*Obj)->dwarf().section(Sec::Abbrev).size(), 150000u);
      Toucher V;
      std::vector<WalkItem> Items = compileUnits(**Obj);
      EXPECT_EQ(Items.size(), 96u);
      WalkOptions W;
      W.Threads = 2;
      W.ReleaseStep = 1; // a release after every unit
      UnitVisitor *Visitors[] = {&V};
      EXPECT_FALSE(bool(walkUnits(**Obj, Items, Visitors, W, Log)));
      EXPECT_EQ(V.Touched, 96u);
      KiB = residentKiB(Buf->getBufferStart());
    }
    sys::fs::remove(Path);
    return KiB;
  };
  uint64_t Kept = Resident(/*FileMapping=*/false);
  uint64_t Released = Resident(/*FileMapping=*/true);
  EXPECT_GE(Kept, 150u);
  EXPECT_LT(Released, Kept / 3) << "kept " << Kept;
}

/// Results that check, when freed, that the thread that made them frees
/// them.
class Maker : public UnitVisitor {
public:
  struct Made : UnitResult {
    Made(Maker &V) : V(V), By(std::this_thread::get_id()) {}
    ~Made() override {
      (By == std::this_thread::get_id() ? V.FreedByMaker : V.FreedElsewhere)++;
    }
    Maker &V;
    std::thread::id By;
  };
  std::unique_ptr<UnitResult> visit(const UnitContext &) override {
    // Slow enough that the workers make most units.
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return std::make_unique<Made>(*this);
  }
  bool merge(size_t, UnitResult &R) override {
    MadeByWorkers += static_cast<Made &>(R).By != std::this_thread::get_id();
    return true;
  }
  std::atomic<unsigned> FreedByMaker{0}, FreedElsewhere{0};
  unsigned MadeByWorkers = 0;
};

TEST(UnitWalk, ResultsAreFreedByTheThreadThatMadeThem) {
  SmallString<128> Path;
  std::unique_ptr<MemoryBuffer> Buf =
      test::mapYamlObject(manyUnits(64, 8), Path);
  ASSERT_TRUE(Buf);
  WarningLog Log;
  auto Obj = InputObject::open(MemoryBufferRef(*Buf), Log, OpenOptions());
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  Maker V;
  std::vector<WalkItem> Items = compileUnits(**Obj);
  WalkOptions W;
  W.Threads = 4;
  UnitVisitor *Visitors[] = {&V};
  EXPECT_FALSE(bool(walkUnits(**Obj, Items, Visitors, W, Log)));
  sys::fs::remove(Path);
  EXPECT_GT(V.MadeByWorkers, 0u);
  // A worker frees what it left when it takes its next unit; what is left
  // when the walk ends the walking thread frees, at most a window's worth.
  EXPECT_EQ(V.FreedByMaker + V.FreedElsewhere, 64u);
  EXPECT_LE(V.FreedElsewhere, 16u);
  EXPECT_GE(V.FreedByMaker, 64u - 16u);
}

} // namespace
