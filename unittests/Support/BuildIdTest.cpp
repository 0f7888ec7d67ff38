//===- BuildIdTest.cpp - Build-ids from raw ELF notes ---------------------===//

#include "dwarfpack/Support/BuildId.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace dwarfpack;

namespace {

void put32(std::vector<uint8_t> &Out, uint32_t V) {
  for (int I = 0; I < 4; ++I)
    Out.push_back(V >> (8 * I));
}

/// One note as a note section holds it: header, name and description, each
/// padded to 4 bytes.
void addNote(std::vector<uint8_t> &Out, StringRef Name, uint32_t Type,
             const std::vector<uint8_t> &Desc) {
  put32(Out, Name.size() + 1);
  put32(Out, Desc.size());
  put32(Out, Type);
  Out.insert(Out.end(), Name.begin(), Name.end());
  Out.push_back(0);
  while (Out.size() % 4)
    Out.push_back(0);
  Out.insert(Out.end(), Desc.begin(), Desc.end());
  while (Out.size() % 4)
    Out.push_back(0);
}

std::vector<uint8_t> id(ArrayRef<uint8_t> A) { return {A.begin(), A.end()}; }

TEST(BuildIdNotes, FindsTheGnuNoteAmongOthers) {
  // As /sys/kernel/notes: Xen notes, the GNU build-id, a Linux note.
  std::vector<uint8_t> Notes;
  addNote(Notes, "Xen", 5, {1, 2, 3, 4, 5, 6});
  addNote(Notes, "GNU", 1, {9, 9, 9, 9});                // NT_GNU_ABI_TAG
  addNote(Notes, "Linux", ELF::NT_GNU_BUILD_ID, {7, 7}); // not GNU's
  addNote(Notes, "GNU", ELF::NT_GNU_BUILD_ID, {0xde, 0xad, 0xbe, 0xef, 0x01});
  addNote(Notes, "Linux", 0x100, {0, 0, 0, 0});
  Expected<ArrayRef<uint8_t>> Id = gnuBuildIdFromNotes(Notes);
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  EXPECT_EQ(id(*Id), (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef, 0x01}));
}

TEST(BuildIdNotes, NoneOrEmpty) {
  Expected<ArrayRef<uint8_t>> Id = gnuBuildIdFromNotes({});
  ASSERT_TRUE(bool(Id));
  EXPECT_TRUE(Id->empty());
  std::vector<uint8_t> Notes;
  addNote(Notes, "Xen", 5, {1, 2, 3, 4});
  // Zero bytes after the notes (a file read past its end) are empty notes.
  Notes.resize(Notes.size() + 24, 0);
  Id = gnuBuildIdFromNotes(Notes);
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  EXPECT_TRUE(Id->empty());
}

TEST(BuildIdNotes, LastPaddingMayBeMissing) {
  std::vector<uint8_t> Notes;
  addNote(Notes, "GNU", ELF::NT_GNU_BUILD_ID, {1, 2, 3, 4, 5});
  Notes.resize(Notes.size() - 3);
  Expected<ArrayRef<uint8_t>> Id = gnuBuildIdFromNotes(Notes);
  ASSERT_TRUE(bool(Id)) << toString(Id.takeError());
  EXPECT_EQ(id(*Id), (std::vector<uint8_t>{1, 2, 3, 4, 5}));
}

TEST(BuildIdNotes, Truncated) {
  std::vector<uint8_t> Notes;
  addNote(Notes, "Xen", 5, {1, 2, 3, 4});
  addNote(Notes, "GNU", ELF::NT_GNU_BUILD_ID, std::vector<uint8_t>(20, 7));
  std::vector<uint8_t> Cut(Notes.begin(), Notes.end() - 1);
  EXPECT_EQ(toString(gnuBuildIdFromNotes(Cut).takeError()),
            "note at offset 20 (name 4 bytes, description 20 bytes) runs past "
            "the end (55 bytes)");
  Cut.assign(Notes.begin(), Notes.begin() + 26);
  EXPECT_EQ(toString(gnuBuildIdFromNotes(Cut).takeError()),
            "truncated note header at offset 20");
  // Sizes near 2^32 do not wrap around.
  std::vector<uint8_t> Huge;
  put32(Huge, 4);
  put32(Huge, 0xfffffffc);
  put32(Huge, ELF::NT_GNU_BUILD_ID);
  Huge.insert(Huge.end(), {'G', 'N', 'U', 0, 1, 2, 3, 4});
  EXPECT_FALSE(bool(gnuBuildIdFromNotes(Huge)));
  Huge[0] = 0xff, Huge[1] = 0xff, Huge[2] = 0xff, Huge[3] = 0xff;
  EXPECT_FALSE(bool(gnuBuildIdFromNotes(Huge)));
}

} // namespace
