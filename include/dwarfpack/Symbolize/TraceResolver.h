//===- TraceResolver.h - Which table answers a frame of a trace -*- C++ -*-===//
//
// A trace mixes frames of the kernel, of its modules and of user-space
// DSOs. TraceResolver sends each frame that scanTraceLine finds to the table
// that can answer it, and asks by address, by file offset or by symbol name
// and offset (SymbolResolver), whichever the frame allows:
//
//  - kernel frames (`name+off/size`, `[<address>]`, perf's
//    [kernel.kallsyms]) go to the kernel's table: by name where the frame
//    gives one, which KASLR does not move, else by address;
//  - kernel module frames (`[module]`, perf's module DSOs) go to the
//    module's own table by name and offset (a table made from the .ko does
//    not lie where the running kernel loaded it), or, when the kernel's
//    table is a running kernel's (--kaslr-from, which places modules), to
//    that table;
//  - user-space frames go to their DSO's table (DsoTables). perf prints
//    callchain addresses as the DSO's own (its ELF file's addresses); a
//    process's absolute addresses become file offsets through its maps
//    (ProcMaps, or PerfMaps from perf's own mmap events in the text),
//    then the table's addresses (fileOffsetToAddress);
//  - llvm-symbolizer's query lines name their module by BUILDID: (a
//    store) or by file (DsoTables).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_TRACERESOLVER_H
#define DWARFPACK_SYMBOLIZE_TRACERESOLVER_H

#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/KernelSymbolizer.h"
#include "dwarfpack/Symbolize/ProcMaps.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"
#include "dwarfpack/Symbolize/TableStore.h"
#include "dwarfpack/Symbolize/TraceText.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {

/// The GNU build-id of the ELF file at Path (empty when it has none); an
/// error, naming the file, when it cannot be read as an object file.
llvm::Expected<llvm::SmallVector<uint8_t, 20>>
readFileBuildId(llvm::StringRef Path);

/// The address tables of user-space DSOs, by the path a trace gives them.
class DsoTables {
public:
  /// Store (tables by build-id) and Main (a table that answers for its own
  /// build-id) may be null.
  DsoTables(TableStore::OpenFn Open, TableStore *Store,
            const AddressSymbolizer *Main)
      : Open(std::move(Open)), Store(Store), Main(Main) {}

  /// The table of the DSO at Path is the file TablePath.
  void setTable(llvm::StringRef Path, std::string TablePath);
  /// The DSO at Path has build-id Id.
  void setBuildId(llvm::StringRef Path, llvm::ArrayRef<uint8_t> Id);
  /// Reads the output of `perf buildid-list`: `<hex build-id> <path>` per
  /// line. Errors name FileName and the line.
  llvm::Error addBuildIdList(llvm::StringRef Text, llvm::StringRef FileName);
  /// A DSO whose build-id has no table is answered from the file at its
  /// path, opened by OpenBinary (which converts an ELF binary), when that
  /// file is on this machine and of that build-id: what perf itself reads.
  void setBinaryOpener(TableStore::OpenFn OpenBinary) {
    this->OpenBinary = std::move(OpenBinary);
  }

  /// The table of the DSO at Path: the file set for it; else the table of
  /// its build-id (set, or read from the file at Path when it exists on
  /// this machine): Main when it records that build-id, else the store's,
  /// else (setBinaryOpener) the file itself. An error says what is
  /// missing.
  llvm::Expected<const AddressSymbolizer &> table(llvm::StringRef Path);

private:
  struct Entry {
    std::string TablePath;
    std::unique_ptr<AddressSymbolizer> Owned;
    const AddressSymbolizer *Table = nullptr;
    /// The build-id, once known: set, or read from the file.
    std::optional<llvm::SmallVector<uint8_t, 20>> BuildId;
    /// Why the build-id is not known, when it was looked for.
    std::string NoBuildId;
    /// Whether BuildId was read from the file at the path.
    bool BuildIdFromFile = false;
    /// Why the file itself cannot answer, once that was tried.
    std::string NoBinary;
  };
  llvm::Expected<const AddressSymbolizer &> byBuildId(llvm::StringRef Path,
                                                      Entry &E);
  /// The file at Path opened by OpenBinary, when it is the build E names;
  /// E.NoBinary says why not.
  const AddressSymbolizer *fromBinary(llvm::StringRef Path, Entry &E);

  TableStore::OpenFn Open, OpenBinary;
  TableStore *Store;
  const AddressSymbolizer *Main;
  llvm::StringMap<Entry> Entries;
};

/// The tables of kernel modules, by the name and build-id a trace gives
/// them: in a directory of module tables (by name, or by build-id in the
/// store layout), else by build-id in a store.
class KernelModuleTables {
public:
  /// Dir and Store may be absent.
  KernelModuleTables(TableStore::OpenFn Open,
                     std::optional<ModuleTableDirectory> Dir, TableStore *Store)
      : Open(std::move(Open)), Dir(std::move(Dir)), Store(Store) {}

  /// The table of Module; null when there is none. Errors: the table does
  /// not open, or it records another build-id than Id, which the trace
  /// gives (its addresses would answer wrongly).
  llvm::Expected<const AddressSymbolizer *> table(llvm::StringRef Module,
                                                  llvm::ArrayRef<uint8_t> Id);

private:
  TableStore::OpenFn Open;
  std::optional<ModuleTableDirectory> Dir;
  TableStore *Store;
  /// By path, opened once.
  llvm::StringMap<std::unique_ptr<AddressSymbolizer>> Opened;
};

/// Where TraceResolver finds its tables; any of them may be missing, and
/// the frames it would answer are then left as they are.
struct TraceTables {
  /// The table of the kernel, or of the program the trace comes from.
  const AddressSymbolizer *Main = nullptr;
  /// Added to Main's addresses gives the trace's (--adjust-vma).
  uint64_t MainBias = 0;
  /// Main answers kernel modules too (a running kernel's symbols): module
  /// frames go to it, naming their module.
  bool MainHasModules = false;
  /// The table of a kernel module, by its name and, when the trace gives
  /// it, build-id; null when there is none.
  std::function<llvm::Expected<const AddressSymbolizer *>(
      llvm::StringRef Module, llvm::ArrayRef<uint8_t> BuildId)>
      Module;
  DsoTables *Dsos = nullptr;
  /// The maps of the process whose absolute addresses the trace holds.
  const ProcMaps *Maps = nullptr;
  /// The maps the trace's own perf mmap events give (its reader feeds
  /// them line by line); Maps, when given, is asked first.
  const PerfMaps *Perf = nullptr;
  /// Tables by build-id, for query lines' `BUILDID:`; their numbers are
  /// offsets in the module's file when FileOffsets.
  TableStore *Store = nullptr;
  bool FileOffsets = false;
};

class TraceResolver {
public:
  explicit TraceResolver(TraceTables Tables) : Tables(std::move(Tables)) {}

  /// The frames at F, innermost first; none when no table answers it, or
  /// when the table's answer contradicts the frame. Errors: a table that
  /// cannot be opened or read, and a frame whose name several functions
  /// of the table answer.
  llvm::Expected<LookupResult> resolve(const TraceFrame &F);

private:
  llvm::Expected<LookupResult> kernelFrame(const TraceFrame &F);
  llvm::Expected<LookupResult> moduleFrame(llvm::StringRef Module,
                                           const TraceFrame &F);
  llvm::Expected<LookupResult> dsoFrame(const TraceFrame &F);
  llvm::Expected<LookupResult> queryFrame(const TraceFrame &F);
  llvm::Expected<LookupResult> mappedFrame(const FileLocation &L);
  /// The file and offset of a process's address, by Maps or Perf.
  std::optional<FileLocation> locate(uint64_t Address) const;
  /// Sample, when given, is the address of the frame, in its process or
  /// its DSO.
  llvm::Expected<LookupResult>
  byNameIn(llvm::StringRef Dso, const SymbolQuery &Q,
           std::optional<uint64_t> Sample = std::nullopt);
  llvm::Expected<LookupResult>
  byName(const AddressSymbolizer &T, const SymbolQuery &Q,
         std::optional<uint64_t> Sample = std::nullopt);
  enum class NameForm { Symbol, Demangled };
  llvm::Expected<std::optional<LookupResult>>
  atNamedStart(const AddressSymbolizer &T, const SymbolQuery &Q,
               NameForm Form = NameForm::Symbol,
               std::optional<uint64_t> Sample = std::nullopt);

  TraceTables Tables;
  llvm::DenseMap<const AddressSymbolizer *, std::unique_ptr<SymbolResolver>>
      Names;
};

} // namespace dwarfpack

#endif
