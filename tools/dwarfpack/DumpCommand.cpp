//===- DumpCommand.cpp - `dwarfpack dump FILE` ----------------------------===//
//
// Prints any file of a registered format (recognised by content) in that
// format's stable text form.
//
//===----------------------------------------------------------------------===//

#include "Command.h"
#include "FormatRegistry.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::tool;

static cl::SubCommand DumpSub("dump",
                              "Print a GSYM (or other dwarfpack) file as text");
static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<file>"), cl::sub(DumpSub),
                                      cl::cat(category()));

static int runDump() {
  Expected<IdentifiedFile> File = openIdentifiedFile(InputFile);
  if (!File)
    return reportError(File.takeError());
  Error E = File->Format->Dump(File->Buffer->getMemBufferRef(), outs(),
                               openOptions());
  outs().flush();
  if (E)
    return reportError(createFileError(InputFile, std::move(E)));
  return 0;
}

static const char *DumpDetails =
    "dwarfpack dump FILE\n"
    "\n"
    "  Prints any file dwarfpack writes, recognised by its content (GSYM,\n"
    "  compact address table, CTF dict or archive, ELF file with a .ctf\n"
    "  section, kernel symbol table, ksym-blob), as stable text: headers,\n"
    "  then every record. A kernel symbol table prints as\n"
    "  /proc/kallsyms does, in address order.\n";

static CommandRegistration RegisterDump(DumpSub, runDump, DumpDetails);
