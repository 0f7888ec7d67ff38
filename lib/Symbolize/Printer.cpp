//===- Printer.cpp - llvm-symbolizer compatible output of lookups ---------===//
//
// The formats follow llvm-symbolizer 19 (its DIPrinter): LLVM style prints
// "name\nfile:line:column\n" per frame and a blank line per address; GNU
// style "name\nfile:line\n" per frame; JSON one object per address with
// sorted keys, unknown strings as "" and unknown numbers as 0.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Symbolize/Printer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace dwarfpack {

ResultPrinter::ResultPrinter(raw_ostream &OS, PrinterOptions Opts)
    : OS(OS), Opts(std::move(Opts)) {}

ResultPrinter::~ResultPrinter() = default;

static std::string toHex(uint64_t V) { return "0x" + utohexstr(V, true); }

std::string ResultPrinter::displayName(StringRef Name) const {
  if (!Opts.Demangle)
    return Name.str();
  return llvm::demangle(Name);
}

void ResultPrinter::beginList() {
  if (Opts.Style == OutputStyle::JSON)
    List = std::make_unique<json::Array>();
}

void ResultPrinter::endList() {
  if (!List)
    return;
  json::Value V(std::move(*List));
  List.reset();
  json::OStream(OS).value(V);
  OS << '\n';
  OS.flush();
}

void ResultPrinter::emit(json::Value V) {
  if (List) {
    List->push_back(std::move(V));
    return;
  }
  json::OStream(OS).value(V);
  OS << '\n';
  OS.flush();
}

/// The frames to print: all of them, or with --no-inlines the outermost
/// function at the innermost location.
static std::vector<SourceFrame> selectFrames(const std::vector<SourceFrame> &F,
                                             bool Inlines) {
  if (Inlines || F.size() <= 1)
    return F;
  SourceFrame One = F.back();
  One.FileName = F.front().FileName;
  One.Line = F.front().Line;
  One.Column = F.front().Column;
  One.Discriminator = F.front().Discriminator;
  return {One};
}

void ResultPrinter::printPlain(const std::vector<SourceFrame> &Frames) {
  auto PrintOne = [&](StringRef Name, StringRef File, uint32_t Line,
                      uint32_t Column, uint32_t Discriminator) {
    OS << (Name.empty() ? "??" : displayName(Name)) << '\n';
    OS << (File.empty() ? StringRef("??") : File) << ':' << Line;
    if (Opts.Style == OutputStyle::LLVM)
      OS << ':' << Column;
    else if (Discriminator)
      OS << " (discriminator " << Discriminator << ')';
    OS << '\n';
  };
  if (Frames.empty())
    PrintOne("", "", 0, 0, 0);
  for (const SourceFrame &F : Frames)
    PrintOne(F.FunctionName, F.FileName, F.Line, F.Column, F.Discriminator);
  if (Opts.Style == OutputStyle::LLVM)
    OS << '\n';
  OS.flush();
}

static json::Object frameToJSON(const SourceFrame *F, std::string Name) {
  json::Object O;
  O["Column"] = F ? F->Column : 0;
  O["Discriminator"] = F ? F->Discriminator : 0;
  O["FileName"] = F ? F->FileName : "";
  O["FunctionName"] = std::move(Name);
  O["Line"] = F ? F->Line : 0;
  O["StartAddress"] = F && F->HasStartAddress ? toHex(F->StartAddress) : "";
  O["StartFileName"] = F ? F->StartFileName : "";
  O["StartLine"] = F ? F->StartLine : 0;
  return O;
}

void ResultPrinter::printJSON(std::optional<uint64_t> Address,
                              const std::vector<SourceFrame> &Frames) {
  json::Array Symbols;
  if (Frames.empty())
    Symbols.push_back(frameToJSON(nullptr, ""));
  for (const SourceFrame &F : Frames)
    Symbols.push_back(frameToJSON(&F, displayName(F.FunctionName)));
  json::Object O;
  O["ModuleName"] = Opts.ModuleName;
  if (Address)
    O["Address"] = toHex(*Address);
  O["Symbol"] = std::move(Symbols);
  emit(std::move(O));
}

void ResultPrinter::print(const LookupResult &Result) {
  std::vector<SourceFrame> Frames = selectFrames(Result.Frames, Opts.Inlines);
  if (Opts.Style == OutputStyle::JSON)
    printJSON(Result.Address, Frames);
  else
    printPlain(Frames);
}

void ResultPrinter::printError(uint64_t Address, StringRef Message) {
  if (Opts.Style != OutputStyle::JSON) {
    printPlain({});
    return;
  }
  json::Object O;
  O["ModuleName"] = Opts.ModuleName;
  O["Address"] = toHex(Address);
  O["Error"] = json::Object{{"Message", Message.str()}};
  emit(std::move(O));
}

void ResultPrinter::printSymbol(StringRef SymName,
                                ArrayRef<LookupResult> Matches) {
  std::vector<SourceFrame> Frames;
  for (const LookupResult &M : Matches)
    for (SourceFrame &F : selectFrames(M.Frames, /*Inlines=*/false))
      Frames.push_back(std::move(F));
  if (Opts.Style != OutputStyle::JSON) {
    printPlain(Frames);
    return;
  }
  json::Array Loc;
  for (const SourceFrame &F : Frames)
    Loc.push_back(frameToJSON(&F, displayName(F.FunctionName)));
  json::Object O;
  O["Loc"] = std::move(Loc);
  O["ModuleName"] = Opts.ModuleName;
  O["SymName"] = SymName.str();
  emit(std::move(O));
}

void ResultPrinter::printInvalidInput() {
  if (Opts.Style == OutputStyle::JSON)
    printJSON(std::nullopt, {});
  else
    printPlain({});
}

} // namespace dwarfpack
