//===- GsymDump.cpp - Stable text dump of a GSYM file ---------------------===//
//
// The layout is documented in docs/GSYM.md ("Dump format"); lit tests match
// it with FileCheck, so change it only together with the documentation.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/GSYM/GsymReader.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace dwarfpack {
namespace gsym {

static void dumpInline(const GsymReader &R, const InlineNode &Node,
                       unsigned Indent, raw_ostream &OS) {
  OS.indent(Indent);
  for (const AddressRange &Rg : Node.Ranges)
    OS << '[' << format_hex(Rg.Start, 18) << " - " << format_hex(Rg.End, 18)
       << ") ";
  OS << Node.Name;
  if (Node.CallFile != 0)
    OS << " called from " << R.getFilePath(Node.CallFile) << ':'
       << Node.CallLine;
  OS << '\n';
  for (const InlineNode &Child : Node.Children)
    dumpInline(R, Child, Indent + 2, OS);
}

Error dumpGsym(const GsymReader &R, raw_ostream &OS) {
  const Header &H = R.header();
  OS << "GSYM version " << H.Version << ", "
     << (R.isLittleEndian() ? "little" : "big") << "-endian, "
     << R.data().size() << " bytes\n";
  OS << "Header:\n";
  OS << "  Magic        = " << format_hex(H.Magic, 10) << '\n';
  OS << "  Version      = " << H.Version << '\n';
  OS << "  AddrOffSize  = " << unsigned(H.AddrOffSize) << '\n';
  OS << "  UUIDSize     = " << unsigned(H.UUIDSize) << '\n';
  OS << "  UUID         = ";
  for (unsigned I = 0; I < H.UUIDSize; ++I)
    OS << format_hex_no_prefix(H.UUID[I], 2);
  OS << '\n';
  OS << "  BaseAddress  = " << format_hex(H.BaseAddress, 18) << '\n';
  OS << "  NumAddresses = " << H.NumAddresses << '\n';
  OS << "  StrtabOffset = " << format_hex(H.StrtabOffset, 10) << '\n';
  OS << "  StrtabSize   = " << format_hex(H.StrtabSize, 10) << '\n';
  OS << "Tables:\n";
  OS << "  AddrOffsets     @ " << format_hex(R.getAddrOffsetsOffset(), 10)
     << '\n';
  OS << "  AddrInfoOffsets @ " << format_hex(R.getAddrInfoOffsetsOffset(), 10)
     << '\n';
  OS << "  FileTable       @ " << format_hex(R.getFileTableOffset(), 10)
     << '\n';
  OS << "  StringTable     @ " << format_hex(H.StrtabOffset, 10) << '\n';
  OS << "Files: " << R.getNumFiles() << '\n';
  for (uint32_t I = 0; I < R.getNumFiles(); ++I)
    OS << "  [" << format_decimal(I, 4) << "] \"" << R.getFilePath(I) << "\"\n";
  OS << "Functions: " << H.NumAddresses << '\n';
  unsigned Failed = 0;
  std::string FirstError;
  for (auto It = R.functions().begin(), End = R.functions().end(); It != End;
       ++It) {
    const uint32_t I = It.index();
    OS << "[" << format_decimal(I, 4) << "] @ "
       << format_hex(R.getFunctionInfoOffset(I), 10) << ": ";
    Expected<DecodedFunction> D = *It;
    if (!D) {
      std::string Msg = toString(D.takeError());
      OS << format_hex(R.getAddress(I), 18) << " error: " << Msg << '\n';
      if (!Failed++)
        FirstError = Msg;
      continue;
    }
    const FunctionEntry &F = D->Entry;
    OS << '[' << format_hex(F.Range.Start, 18) << " - "
       << format_hex(F.Range.End, 18) << ") \"" << F.Name << "\"\n";
    if (D->HasLineTable) {
      OS << "  LineTable: " << F.Lines.size() << " rows\n";
      for (const LineEntry &Row : F.Lines)
        OS << "    " << format_hex(Row.Address, 18) << ' '
           << R.getFilePath(Row.File) << ':' << Row.Line << '\n';
    }
    if (F.Inline) {
      OS << "  InlineInfo:\n";
      dumpInline(R, *F.Inline, 4, OS);
    }
    for (const UnknownInfo &U : D->UnknownInfos)
      OS << "  InfoType " << U.Type << ": " << U.Length
         << " bytes, not decoded\n";
  }
  if (Failed)
    return createStringError(
        inconvertibleErrorCode(),
        Twine(Failed) + " of " + Twine(H.NumAddresses) +
            " functions could not be decoded; first: " + FirstError);
  return Error::success();
}

} // namespace gsym
} // namespace dwarfpack
