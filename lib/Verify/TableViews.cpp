//===- TableViews.cpp - GSYM and compact tables as the verifier sees them -===//
//
// Each view answers with its reader's own lookup, so what is verified is
// what `dwarfpack lookup` would print.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"
#include "dwarfpack/GSYM/GsymReader.h"
#include "dwarfpack/Support/LEB128.h"
#include "dwarfpack/Verify/TableVerifier.h"

#include "llvm/Support/LEB128.h"

#include <algorithm>

using namespace llvm;

namespace dwarfpack {
namespace verify {

VerifiableTable::~VerifiableTable() = default;

namespace {

/// Frames of a lookup() answer, kept in Storage.
Error fromLookup(Expected<LookupResult> R, SmallVectorImpl<TableFrame> &Out,
                 LookupResult &Storage) {
  if (!R)
    return R.takeError();
  Storage = std::move(*R);
  Out.clear();
  for (const SourceFrame &F : Storage.Frames) {
    TableFrame T;
    T.Name = F.FunctionName;
    T.Base = F.FileName;
    T.Line = F.Line;
    T.Column = F.Column;
    T.Discriminator = F.Discriminator;
    T.DeclFile = F.StartFileName;
    T.DeclLine = F.StartLine;
    if (F.HasStartAddress)
      T.Start = F.StartAddress;
    Out.push_back(T);
  }
  return Error::success();
}

/// Adds the starts and ends of the ranges of every node below Root.
template <typename Node>
void addInlineBoundaries(const Node &Root, SmallVectorImpl<uint64_t> &Out) {
  // An explicit stack: the readers bound the depth, this keeps the stack
  // small whatever it is.
  SmallVector<const Node *, 16> Work{&Root};
  while (!Work.empty()) {
    const Node *N = Work.pop_back_val();
    for (const AddressRange &R : N->Ranges) {
      Out.push_back(R.Start);
      Out.push_back(R.End);
    }
    for (const Node &C : N->Children)
      Work.push_back(&C);
  }
}

class GsymTable final : public VerifiableTable {
public:
  explicit GsymTable(const gsym::GsymReader &R) : R(R) {}

  StringRef kind() const override { return "GSYM"; }
  ArrayRef<uint8_t> uuid() const override {
    const gsym::Header &H = R.header();
    return ArrayRef<uint8_t>(H.UUID, H.UUIDSize);
  }
  uint32_t numFunctions() const override { return R.getNumAddresses(); }
  uint64_t functionStart(uint32_t Index) const override {
    return R.getAddress(Index);
  }
  Error function(uint32_t Index, TableFunction &Out) const override {
    Expected<gsym::DecodedFunction> D = R.decodeFunction(Index);
    if (!D)
      return D.takeError();
    const FunctionEntry &E = D->Entry;
    Out.Range = E.Range;
    Out.HasLineTable = D->HasLineTable;
    Out.HasInline = E.Inline.has_value();
    Out.Boundaries.clear();
    for (const LineEntry &Row : E.Lines)
      Out.Boundaries.push_back(Row.Address);
    if (E.Inline)
      addInlineBoundaries(*E.Inline, Out.Boundaries);
    Out.Decoded = std::make_shared<gsym::DecodedFunction>(std::move(*D));
    return Error::success();
  }
  Expected<bool> hasLineTable(uint32_t Index) const override {
    Expected<gsym::DecodedFunction> D = R.decodeFunction(Index);
    if (!D)
      return D.takeError();
    return D->HasLineTable;
  }
  Expected<std::optional<uint32_t>>
  findFunction(uint64_t Address) const override {
    return R.findFunctionIndex(Address);
  }
  Error frames(const TableFunction *F, uint64_t Address,
               SmallVectorImpl<TableFrame> &Out,
               LookupResult &Storage) const override {
    if (!F)
      return fromLookup(R.lookup(Address), Out, Storage);
    // Decoding once per function keeps many addresses of one function
    // linear; lookupFrames applies lookup()'s rules to the decoded record
    // and leaves names and files in the string table.
    SmallVector<gsym::GsymReader::RawFrame, 8> Raw;
    if (Error E = R.lookupFrames(
            *static_cast<const gsym::DecodedFunction *>(F->Decoded.get()),
            Address, Raw))
      return E;
    Out.clear();
    for (const gsym::GsymReader::RawFrame &RF : Raw) {
      TableFrame T;
      T.Name = RF.Name;
      T.Line = RF.Line;
      if (std::optional<FileEntry> File = R.getFile(RF.File)) {
        T.Dir = File->Dir;
        T.Base = File->Base;
      }
      Out.push_back(T);
    }
    return Error::success();
  }

private:
  const gsym::GsymReader &R;
};

class CompactTable final : public VerifiableTable {
public:
  CompactTable(const compact::CompactReader &R,
               std::vector<compact::FunctionLocation> Functions)
      : R(R), Functions(std::move(Functions)) {}

  StringRef kind() const override { return "compact"; }
  bool keepsCallsWithoutFile() const override { return true; }
  ArrayRef<uint8_t> uuid() const override { return R.uuid(); }
  bool hasDetails() const override { return R.hasDetails(); }
  std::optional<ArrayRef<LoadSegment>> loadSegments() const override {
    return R.loadSegments();
  }
  uint32_t numFunctions() const override { return Functions.size(); }
  uint64_t functionStart(uint32_t Index) const override {
    return Functions[Index].Start;
  }
  Error function(uint32_t Index, TableFunction &Out) const override {
    Expected<compact::DecodedFunction> D = R.decodeFunction(Functions[Index]);
    if (!D)
      return D.takeError();
    Out.Range = {D->Loc.Start, D->Loc.Start + D->Loc.Size};
    Out.HasLineTable = D->HasLines;
    Out.HasInline = D->Inline.has_value();
    Out.Boundaries.clear();
    for (const LineEntry &Row : D->Lines)
      Out.Boundaries.push_back(Row.Address);
    if (D->Inline)
      addInlineBoundaries(*D->Inline, Out.Boundaries);
    Out.Decoded.reset();
    return Error::success();
  }
  Expected<bool> hasLineTable(uint32_t Index) const override {
    // The record's first ULEB128 holds its flags.
    const compact::FunctionLocation &L = Functions[Index];
    auto [Off, Size] = R.section(compact::SecRecords);
    if (L.RecordOffset >= L.RecordEnd || L.RecordEnd > Size)
      return createStringError(inconvertibleErrorCode(),
                               "record of the function at 0x%llx is outside "
                               "the records section",
                               (unsigned long long)L.Start);
    const uint8_t *P = reinterpret_cast<const uint8_t *>(R.data().data()) + Off;
    const char *Err = nullptr;
    unsigned N = 0;
    uint64_t Head =
        decodeULEB128Bounded(P + L.RecordOffset, &N, P + L.RecordEnd, &Err);
    if (Err)
      return createStringError(inconvertibleErrorCode(),
                               "record of the function at 0x%llx: %s",
                               (unsigned long long)L.Start, Err);
    return (Head & compact::HasLines) != 0;
  }
  Expected<std::optional<uint32_t>>
  findFunction(uint64_t Address) const override {
    compact::FunctionLocation Loc;
    Expected<bool> Found = R.findFunction(Address, Loc);
    if (!Found)
      return Found.takeError();
    if (!*Found)
      return std::nullopt;
    // The reader found it by its own search; number it by its start.
    auto It =
        partition_point(Functions, [&](const compact::FunctionLocation &F) {
          return F.Start < Loc.Start;
        });
    if (It == Functions.end() || It->Start != Loc.Start ||
        It->RecordOffset != Loc.RecordOffset)
      return createStringError(inconvertibleErrorCode(),
                               "lookup found a function at 0x%llx that the "
                               "address blocks do not list",
                               (unsigned long long)Loc.Start);
    return uint32_t(It - Functions.begin());
  }
  Error frames(const TableFunction *, uint64_t Address,
               SmallVectorImpl<TableFrame> &Out,
               LookupResult &Storage) const override {
    // The reader's whole lookup path: a record is decoded only up to the
    // address, so this stays cheap enough per address.
    return fromLookup(R.lookup(Address), Out, Storage);
  }

private:
  const compact::CompactReader &R;
  std::vector<compact::FunctionLocation> Functions;
};

} // namespace

std::unique_ptr<VerifiableTable> makeGsymTable(const gsym::GsymReader &R) {
  return std::make_unique<GsymTable>(R);
}

Expected<std::unique_ptr<VerifiableTable>>
makeCompactTable(const compact::CompactReader &R) {
  std::vector<compact::FunctionLocation> All, Block;
  All.reserve(R.header().NumFunctions);
  for (uint32_t B = 0; B < R.header().NumBlocks; ++B) {
    if (Error E = R.decodeBlock(B, Block))
      return std::move(E);
    All.insert(All.end(), Block.begin(), Block.end());
  }
  return std::make_unique<CompactTable>(R, std::move(All));
}

} // namespace verify
} // namespace dwarfpack
