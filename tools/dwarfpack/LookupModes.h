//===- LookupModes.h - The files of `dwarfpack lookup` --------------------===//
//
// `dwarfpack lookup` answers llvm-symbolizer's queries (LookupCommand.cpp,
// which reads the options every mode shares) or, with --annotate, frames in
// trace text (AnnotateMode.cpp, which declares its own options and to which
// LookupCommand.cpp hands over).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_TOOLS_LOOKUPMODES_H
#define DWARFPACK_TOOLS_LOOKUPMODES_H

#include "dwarfpack/Symbolize/Debuginfod.h"
#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/QuerySession.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {
namespace tool {

/// The `lookup` subcommand, shared by the files declaring its options.
llvm::cl::SubCommand &lookupSubCommand();

/// Reads --adjust-vma into Opts; or, with --kaslr-from, makes Running,
/// which answers the running kernel's addresses from Table (null when
/// there is no FILE) and the running kernel's module symbols. 0 when it is
/// fine, else the exit status (LookupCommand.cpp).
int applyAddressOptions(SessionOptions &Opts, const AddressSymbolizer *Table,
                        llvm::StringRef TableFile,
                        std::unique_ptr<AddressSymbolizer> *Running = nullptr);

/// Where --store's missing tables come from (--debug-file-directory,
/// --debuginfod, DEBUGINFOD_URLS): sets Tables' filler, which Fill keeps
/// for the run (null when there is none). 0 when it is fine, else the exit
/// status (LookupCommand.cpp).
int setStoreFiller(TableStore &Tables, std::unique_ptr<DebugFileTables> &Fill);

/// 0 when --store's Dir is a directory, or absent with a source of tables
/// to file in it (--debug-file-directory, --debuginfod, DEBUGINFOD_URLS);
/// else reports the error and returns the exit status (LookupCommand.cpp).
int checkStoreDirectory(llvm::StringRef Dir);

/// What the options of every mode say that --annotate uses.
struct AnnotateArgs {
  /// --obj, when given: then every positional argument is a text.
  std::optional<std::string> Obj;
  /// FILE (unless --obj) and the texts.
  std::vector<std::string> Positional;
  /// --store and --module-tables; empty when not given.
  std::string Store, ModuleTables;
  bool FileOffsets = false;
  bool Demangle = true;
  bool Inlines = true;
  bool Quiet = false;
  /// How FILE is opened (an ELF object is converted).
  OpenOptions Open;
};

/// Makes each --debuginfod of Argv (a `dwarfpack lookup` command line) that
/// no URL follows the flag llvm-symbolizer has: fetch from the servers of
/// DEBUGINFOD_URLS, as without it (LookupCommand.cpp).
void readBareDebuginfodFlag(llvm::SmallVectorImpl<char *> &Argv);

/// `lookup --filter-markup`: stdin's symbolizer markup written to stdout
/// with its elements replaced (Markup.h), the modules' tables from Modules;
/// with Colors, highlighted (MarkupMode.cpp).
int runMarkupFilter(SessionTables &Modules, const PrinterOptions &Opts,
                    bool Colors, bool Quiet);

/// Whether --annotate was given.
bool annotateRequested();
/// The first option given that only --annotate reads, or "".
llvm::StringRef annotateOnlyOptionGiven();
/// `lookup --annotate` (AnnotateMode.cpp).
int runAnnotate(const AnnotateArgs &Args);

} // namespace tool
} // namespace dwarfpack

#endif
