//===- Printer.h - llvm-symbolizer compatible output of lookups -----------===//
//
// Prints LookupResults in the three output styles of
// `llvm-symbolizer --inlines` (LLVM 19): LLVM (the default), GNU and JSON,
// byte for byte where our tables carry the information. Independent of the
// table format: GSYM, the compact address table and kernel symbol tables all
// print through here.
//
// What our formats do not record is printed the way llvm-symbolizer prints
// unknown values: column 0, discriminator 0, and in JSON an empty
// StartFileName and StartLine 0. docs/UserGuide.md lists the differences.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_PRINTER_H
#define DWARFPACK_SYMBOLIZE_PRINTER_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {

enum class OutputStyle { LLVM, GNU, JSON };

struct PrinterOptions {
  OutputStyle Style = OutputStyle::LLVM;
  /// Demangle function names (llvm::demangle), as llvm-symbolizer does by
  /// default.
  bool Demangle = true;
  /// Print every inlined frame (llvm-symbolizer --inlines). When false, one
  /// frame: the outermost function's name with the innermost location, as
  /// llvm-symbolizer --no-inlines prints it.
  bool Inlines = true;
  /// The "ModuleName" of JSON output: the file as named by the user.
  std::string ModuleName;
};

class ResultPrinter {
public:
  ResultPrinter(llvm::raw_ostream &OS, PrinterOptions Opts);
  ~ResultPrinter();

  /// JSON: gather the following results into one array printed by
  /// endList() (llvm-symbolizer does this for addresses given as
  /// arguments). Other styles ignore both calls.
  void beginList();
  void endList();

  /// Prints the frames of one lookup; no frames prints the "??" record.
  void print(const LookupResult &Result);
  /// A lookup that failed with Message. JSON gets an "Error" object; the
  /// plain styles print the "??" record (the caller reports the message).
  void printError(uint64_t Address, llvm::StringRef Message);
  /// An input that is not an address: the "??" record without an address.
  void printInvalidInput();
  /// The answer to a query by symbol name (SymbolQuery.h): one frame per
  /// match, as llvm-symbolizer prints them (the outermost function at the
  /// innermost location, whatever Inlines says); "??" when none. JSON:
  /// {"Loc":[frames],"ModuleName":..,"SymName":SymName}.
  void printSymbol(llvm::StringRef SymName,
                   llvm::ArrayRef<LookupResult> Matches);

  /// The "ModuleName" of the following JSON records (queries that name
  /// their module, as BUILDID: lines do).
  void setModuleName(std::string Name) { Opts.ModuleName = std::move(Name); }

  /// The displayed form of a name under these options.
  std::string displayName(llvm::StringRef Name) const;

private:
  void printPlain(const std::vector<SourceFrame> &Frames);
  void printJSON(std::optional<uint64_t> Address,
                 const std::vector<SourceFrame> &Frames);
  void emit(llvm::json::Value V);

  llvm::raw_ostream &OS;
  PrinterOptions Opts;
  std::unique_ptr<llvm::json::Array> List;
};

} // namespace dwarfpack

#endif
