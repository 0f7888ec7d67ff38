//===- CompactDump.cpp - Stable text dump of a compact address table ------===//
//
// The layout is documented in docs/CompactTable.md ("Dump format"). For a
// table without details the function part prints exactly what the GSYM
// dump prints for the same model, apart from record offsets, so the two can
// be diffed; details add to the lines.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/CompactTable/CompactReader.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace dwarfpack {
namespace compact {

namespace {
/// What could not be decoded: the dump goes on and fails at the end.
struct DumpFailures {
  unsigned Functions = 0, Paths = 0;
  std::string First;
  void add(unsigned &Count, std::string Msg) {
    if (!Functions && !Paths)
      First = std::move(Msg);
    ++Count;
  }
};
} // namespace

/// File Id's path, or the error in angle brackets (counted in F).
static std::string filePath(const CompactReader &R, uint32_t Id,
                            DumpFailures &F) {
  std::string Path;
  if (Error E = R.getFilePath(Id, Path)) {
    std::string Msg = toString(std::move(E));
    F.add(F.Paths, Msg);
    return "<" + Msg + ">";
  }
  return Path;
}

/// " decl <path>:<line>" for a known declaration.
static void dumpDecl(const CompactReader &R, const Declaration &D,
                     DumpFailures &F, raw_ostream &OS) {
  if (D.File != 0 || D.Line != 0)
    OS << " decl " << filePath(R, D.File, F) << ':' << D.Line;
}

/// What a name entry records besides its name and declaration.
static void dumpShort(bool HasShort, StringRef Short, raw_ostream &OS) {
  if (HasShort)
    OS << " short \"" << Short << '"';
}

static void dumpInline(const CompactReader &R, const DecodedInline &Node,
                       unsigned Indent, DumpFailures &F, raw_ostream &OS) {
  OS.indent(Indent);
  for (const AddressRange &Rg : Node.Ranges)
    OS << '[' << format_hex(Rg.Start, 18) << " - " << format_hex(Rg.End, 18)
       << ") ";
  OS << Node.Name;
  if (Node.CallFile != 0) {
    OS << " called from " << filePath(R, Node.CallFile, F) << ':'
       << Node.CallLine;
    if (R.hasDetails()) {
      OS << ':' << Node.CallColumn;
      if (Node.CallDiscriminator)
        OS << " discriminator " << Node.CallDiscriminator;
    }
  }
  if (R.hasDetails()) {
    dumpDecl(R, Node.Decl, F, OS);
    dumpShort(Node.HasShortName, Node.ShortName, OS);
    if (Node.StartAddress)
      OS << " start " << format_hex(*Node.StartAddress, 18);
  }
  OS << '\n';
  for (const DecodedInline &Child : Node.Children)
    dumpInline(R, Child, Indent + 2, F, OS);
}

/// The summary line and the header fields.
static void dumpHeader(const CompactReader &R, raw_ostream &OS) {
  const Header &H = R.header();
  OS << "Compact address table version " << H.Version << ", little-endian, "
     << R.data().size() << " bytes\n";
  OS << "Header:\n";
  OS << "  Magic        = " << format_hex(H.Magic, 10) << '\n';
  OS << "  Version      = " << H.Version << '\n';
  OS << "  BlockShift   = " << unsigned(H.BlockShift) << '\n';
  OS << "  Flags        = " << unsigned(H.Flags) << '\n';
  OS << "  BaseAddress  = " << format_hex(H.BaseAddress, 18) << '\n';
  OS << "  NumFunctions = " << H.NumFunctions << '\n';
  OS << "  NumBlocks    = " << H.NumBlocks << '\n';
  OS << "  LineBase     = " << int(H.LineBase) << '\n';
  OS << "  LineRange    = " << unsigned(H.LineRange) << '\n';
  if (H.Flags & RowStops)
    OS << "  RowStopShift = " << unsigned(H.RowStopShift) << '\n';
  OS << "  NumFiles     = " << H.NumFiles << '\n';
  OS << "  NumNames     = " << H.NumNames << '\n';
  OS << "  NumPaths     = " << H.NumPaths << '\n';
  OS << "  UUID         = ";
  for (uint8_t B : R.uuid())
    OS << format_hex_no_prefix(B, 2);
  OS << '\n';
}

/// Where each section lies in the table, and the load segments it records.
static void dumpSections(const CompactReader &R, raw_ostream &OS) {
  OS << "Sections:\n";
  for (unsigned S = 0; S < NumSections; ++S) {
    auto [Off, Size] = R.section(Section(S));
    OS << "  " << left_justify(sectionName(Section(S)), 13) << " @ "
       << format_hex(Off, 10) << ", " << Size << " bytes\n";
  }
  OS << "Segments: " << R.loadSegments().size() << '\n';
  for (const LoadSegment &S : R.loadSegments())
    OS << "  file [" << format_hex(S.FileOffset, 18) << ", "
       << format_hex(S.FileOffset + S.FileSize, 18) << ") at "
       << format_hex(S.Address, 18) << '\n';
}

static void dumpColumnCode(const CompactReader &R, raw_ostream &OS) {
  OS << "ColumnCode: " << R.columnCode().symbols().size() << '\n';
  for (const ColumnCode::Symbol &S : R.columnCode().symbols())
    OS << "  " << S.Value << ' ' << unsigned(S.Length) << '\n';
}

static void dumpFiles(const CompactReader &R, DumpFailures &F,
                      raw_ostream &OS) {
  uint32_t NumFiles = R.header().NumFiles;
  OS << "Files: " << NumFiles << '\n';
  for (uint32_t I = 1; I <= NumFiles; ++I)
    OS << "  [" << format_decimal(I, 4) << "] \"" << filePath(R, I, F)
       << "\"\n";
}

/// What a table with details adds to a function's line.
static void dumpFunctionDetails(const CompactReader &R,
                                const DecodedFunction &D, DumpFailures &F,
                                raw_ostream &OS) {
  const NameEntry &N = D.Name;
  dumpDecl(R, N.Decl, F, OS);
  dumpShort(N.HasShort, N.Short, OS);
  if (const std::optional<NameEntry> &DN = D.DwarfName) {
    OS << " dwarf-name \"" << DN->Name << '"';
    dumpDecl(R, DN->Decl, F, OS);
    dumpShort(DN->HasShort, DN->Short, OS);
  }
  if (D.NoDwarfStart)
    OS << " no-dwarf-start";
  if (D.HasSymbolFile) // file 0: an STT_FILE without a name
    OS << " symbol-file "
       << (D.SymbolFile ? filePath(R, D.SymbolFile, F) : "\"\"");
}

static void dumpLineTable(const CompactReader &R,
                          const std::vector<LineEntry> &Lines, DumpFailures &F,
                          raw_ostream &OS) {
  OS << "  LineTable: " << Lines.size() << " rows\n";
  for (const LineEntry &Row : Lines) {
    OS << "    " << format_hex(Row.Address, 18) << ' '
       << filePath(R, Row.File, F) << ':' << Row.Line;
    if (R.hasDetails()) {
      OS << ':' << Row.Column;
      if (Row.Discriminator)
        OS << " discriminator " << Row.Discriminator;
    }
    OS << '\n';
  }
}

/// Function number Index at L: its record, or the error decoding it.
static void dumpFunction(const CompactReader &R, const FunctionLocation &L,
                         uint64_t Index, DumpFailures &F, raw_ostream &OS) {
  OS << "[" << format_decimal(Index, 4) << "] @ "
     << format_hex(R.section(SecRecords).first + L.RecordOffset, 10) << ": ";
  Expected<DecodedFunction> D = R.decodeFunction(L);
  if (!D) {
    std::string Msg = toString(D.takeError());
    OS << format_hex(L.Start, 18) << " error: " << Msg << '\n';
    F.add(F.Functions, Msg);
    return;
  }
  OS << '[' << format_hex(L.Start, 18) << " - "
     << format_hex(L.Start + L.Size, 18) << ") \"" << D->Name.Name << '"';
  if (R.hasDetails())
    dumpFunctionDetails(R, *D, F, OS);
  OS << '\n';
  if (D->HasLines)
    dumpLineTable(R, D->Lines, F, OS);
  if (D->Inline) {
    OS << "  InlineInfo:\n";
    dumpInline(R, *D->Inline, 4, F, OS);
  }
}

/// Every function, block by block; a block that does not decode still
/// takes up its 1 << BlockShift function numbers.
static void dumpFunctions(const CompactReader &R, DumpFailures &F,
                          raw_ostream &OS) {
  const Header &H = R.header();
  OS << "Functions: " << H.NumFunctions << '\n';
  uint64_t Index = 0;
  std::vector<FunctionLocation> Locs;
  for (uint32_t B = 0; B < H.NumBlocks; ++B) {
    if (Error E = R.decodeBlock(B, Locs)) {
      std::string Msg = toString(std::move(E));
      OS << "block " << B << " error: " << Msg << '\n';
      F.add(F.Functions, Msg);
      Index += uint64_t(1) << H.BlockShift;
      continue;
    }
    for (const FunctionLocation &L : Locs)
      dumpFunction(R, L, Index++, F, OS);
  }
}

/// The dump's result: failed functions (or else paths) counted, with the
/// first message of either kind.
static Error failuresToError(const DumpFailures &F) {
  if (F.Functions)
    return createStringError(inconvertibleErrorCode(),
                             Twine(F.Functions) +
                                 " blocks or functions could not be decoded; "
                                 "first: " +
                                 F.First);
  if (F.Paths)
    return createStringError(
        inconvertibleErrorCode(),
        Twine(F.Paths) + " file paths could not be decoded; first: " + F.First);
  return Error::success();
}

Error dumpCompact(const CompactReader &R, raw_ostream &OS) {
  dumpHeader(R, OS);
  dumpSections(R, OS);
  dumpColumnCode(R, OS);
  DumpFailures F;
  dumpFiles(R, F, OS);
  dumpFunctions(R, F, OS);
  return failuresToError(F);
}

} // namespace compact
} // namespace dwarfpack
