//===- LineTableCheck.cpp - Line tables against LLVM's parser -------------===//

#include "dwarfpack/DwarfInput/LineTableCheck.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"

using namespace llvm;

namespace dwarfpack::input {

namespace {

using LLVMTable = DWARFDebugLine::LineTable;

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// A row as text, to say how two differ.
std::string describe(uint64_t Address, uint32_t Line, uint16_t Column,
                     uint16_t File, uint32_t Discriminator, uint8_t Isa,
                     uint8_t OpIndex, unsigned Flags) {
  return hex(Address) + " line " + std::to_string(Line) + " column " +
         std::to_string(Column) + " file " + std::to_string(File) +
         " discriminator " + std::to_string(Discriminator) + " isa " +
         std::to_string(Isa) + " op_index " + std::to_string(OpIndex) +
         " flags " + hex(Flags);
}

std::string describe(const LineRow &R) {
  return describe(R.Address, R.Line, R.Column, R.File, R.Discriminator, R.Isa,
                  R.OpIndex, R.Flags);
}

std::string describe(const DWARFDebugLine::Row &R) {
  unsigned Flags = (R.EndSequence ? LineRow::EndSequence : 0) |
                   (R.IsStmt ? LineRow::IsStmt : 0) |
                   (R.BasicBlock ? LineRow::BasicBlock : 0) |
                   (R.PrologueEnd ? LineRow::PrologueEnd : 0) |
                   (R.EpilogueBegin ? LineRow::EpilogueBegin : 0);
  return describe(R.Address.Address, R.Line, R.Column, R.File, R.Discriminator,
                  R.Isa, R.OpIndex, Flags);
}

std::string compareRows(const LineTable &Ours, const LLVMTable &Theirs) {
  ArrayRef<LineRow> Rows = Ours.rows();
  if (Rows.size() != Theirs.Rows.size())
    return "rows: " + std::to_string(Rows.size()) + " against LLVM's " +
           std::to_string(Theirs.Rows.size());
  for (size_t I = 0; I < Rows.size(); ++I) {
    const LineRow &A = Rows[I];
    const DWARFDebugLine::Row &B = Theirs.Rows[I];
    bool Same = A.Address == B.Address.Address && A.Line == B.Line &&
                A.Column == B.Column && A.File == B.File &&
                A.Discriminator == B.Discriminator && A.Isa == B.Isa &&
                A.OpIndex == B.OpIndex && A.endSequence() == B.EndSequence &&
                A.isStmt() == B.IsStmt &&
                bool(A.Flags & LineRow::BasicBlock) == B.BasicBlock &&
                bool(A.Flags & LineRow::PrologueEnd) == B.PrologueEnd &&
                bool(A.Flags & LineRow::EpilogueBegin) == B.EpilogueBegin;
    if (!Same)
      return "row " + std::to_string(I) + ": " + describe(A) +
             " against LLVM's " + describe(B);
  }
  return "";
}

std::string compareSequences(const LineTable &Ours, const LLVMTable &Theirs) {
  ArrayRef<LineSequence> Seqs = Ours.sequences();
  if (Seqs.size() != Theirs.Sequences.size())
    return "sequences: " + std::to_string(Seqs.size()) + " against LLVM's " +
           std::to_string(Theirs.Sequences.size());
  for (size_t I = 0; I < Seqs.size(); ++I) {
    const LineSequence &A = Seqs[I];
    const DWARFDebugLine::Sequence &B = Theirs.Sequences[I];
    if (A.LowPC != B.LowPC || A.HighPC != B.HighPC ||
        A.SectionIndex != B.SectionIndex || A.FirstRow != B.FirstRowIndex ||
        A.EndRow != B.LastRowIndex)
      return "sequence " + std::to_string(I) + ": [" + hex(A.LowPC) + ", " +
             hex(A.HighPC) + ") section " + hex(A.SectionIndex) + " rows " +
             std::to_string(A.FirstRow) + "-" + std::to_string(A.EndRow) +
             " against LLVM's [" + hex(B.LowPC) + ", " + hex(B.HighPC) +
             ") section " + hex(B.SectionIndex) + " rows " +
             std::to_string(B.FirstRowIndex) + "-" +
             std::to_string(B.LastRowIndex);
  }
  return "";
}

/// Every index the table has, and the two past it, in each directory.
std::string comparePaths(const LineTable &Ours, const LLVMTable &Theirs,
                         ArrayRef<StringRef> CompDirs, uint64_t &Files) {
  const auto &Prologue = Theirs.Prologue;
  if (Ours.header().Files.size() != Prologue.FileNames.size())
    return "files: " + std::to_string(Ours.header().Files.size()) +
           " against LLVM's " + std::to_string(Prologue.FileNames.size());
  if (Ours.header().Dirs.size() != Prologue.IncludeDirectories.size())
    return "directories: " + std::to_string(Ours.header().Dirs.size()) +
           " against LLVM's " +
           std::to_string(Prologue.IncludeDirectories.size());
  Files = Prologue.FileNames.size();
  for (uint64_t I = 0; I < Files + 2; ++I) {
    if (Ours.hasFile(I) != Prologue.hasFileAtIndex(I))
      return "file " + std::to_string(I) + ": hasFile differs";
    for (StringRef Dir : CompDirs) {
      std::string A = "<none>", B = "<none>";
      bool OkA = Ours.filePath(I, Dir, A);
      bool OkB = Theirs.getFileNameByIndex(
          I, Dir, DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, B);
      if (OkA != OkB || A != B)
        return "file " + std::to_string(I) + " in \"" + Dir.str() + "\": \"" +
               A + "\" against LLVM's \"" + B + "\"";
    }
  }
  return "";
}

} // namespace

LineCheckResult checkLineTable(const LineSections &S, uint64_t Offset,
                               const DWARFDataExtractor &Data,
                               const DWARFContext &Ctx, const DWARFUnit *U,
                               ArrayRef<StringRef> CompDirs) {
  LineCheckResult Result;
  auto Differ = [&](const Twine &What) {
    Result.Result = LineCheckResult::Outcome::Different;
    Result.Difference = What.str();
    return Result;
  };

  unsigned OurWarnings = 0;
  Expected<LineTable> Ours = LineTable::parse(S, Offset, [&](Error E) {
    consumeError(std::move(E));
    ++OurWarnings;
  });
  if (!Ours && Ours.errorIsA<UnsupportedLineHeader>()) {
    Result.Result = LineCheckResult::Outcome::Skipped;
    Result.SkipReason = toString(Ours.takeError());
    return Result;
  }
  if (Ours && Ours->stop() == LineTable::Stop::LoopingLength) {
    Result.Result = LineCheckResult::Outcome::Skipped;
    Result.SkipReason = "an extended opcode's length leads back";
    return Result;
  }

  LLVMTable Theirs;
  uint64_t At = Offset;
  unsigned TheirWarnings = 0;
  DWARFDataExtractor Copy = Data; // parse takes it by reference
  Error Fatal = Theirs.parse(Copy, &At, Ctx, U, [&](Error E) {
    consumeError(std::move(E));
    ++TheirWarnings;
  });
  bool TheirFatal = bool(Fatal);
  std::string FatalText = TheirFatal ? toString(std::move(Fatal)) : "";

  if (!Ours) {
    std::string OurText = toString(Ours.takeError());
    if (!TheirFatal || !Theirs.Rows.empty())
      return Differ("ours failed (" + OurText + "), LLVM's did not");
    if (OurWarnings != TheirWarnings)
      return Differ(std::to_string(OurWarnings) + " warnings against LLVM's " +
                    std::to_string(TheirWarnings));
    return Result;
  }
  // A stop in the program is LLVM's error with the rows kept; ours warns.
  bool Stopped = Ours->stop() == LineTable::Stop::BadOperand;
  if (Stopped != TheirFatal)
    return Differ(Stopped ? "ours stopped, LLVM's did not"
                          : "LLVM's failed (" + FatalText + "), ours did not");
  if (OurWarnings != TheirWarnings + Stopped)
    return Differ(std::to_string(OurWarnings) + " warnings against LLVM's " +
                  std::to_string(TheirWarnings + Stopped));
  if (Ours->version() != Theirs.Prologue.getVersion())
    return Differ("version differs");
  std::string D = compareRows(*Ours, Theirs);
  if (D.empty())
    D = compareSequences(*Ours, Theirs);
  if (D.empty())
    D = comparePaths(*Ours, Theirs, CompDirs, Result.Files);
  if (!D.empty())
    return Differ(D);
  Result.Rows = Ours->rows().size();
  Result.Sequences = Ours->sequences().size();
  return Result;
}

} // namespace dwarfpack::input
