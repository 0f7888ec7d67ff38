//===- InputObject.h - An object file opened and checked once ---*- C++ -*-===//
//
// Everything between a path and the DWARF a consumer reads: the file mapped
// (or a buffer already read), recognised as ELF, its symbol and relocation
// tables checked (LLVM's accessors abort on damage there), its debug
// sections decompressed and, in a relocatable object (.o, .ko), relocated
// against a layout of its executable sections; dwz's supplementary file
// found and opened the same way; the .dwo files and .dwp package of split
// DWARF opened on demand. Every command that reads DWARF opens its input
// through this, so they all accept and refuse the same files with the same
// messages.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_DWARFINPUT_INPUTOBJECT_H
#define DWARFPACK_DWARFINPUT_INPUTOBJECT_H

#include "dwarfpack/DwarfInput/Dwarf.h"
#include "dwarfpack/Support/Diagnostics.h"
#include "dwarfpack/Support/RelocatableLayout.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dwarfpack {
namespace input {

class SplitUnits;

struct OpenOptions {
  /// Read the .dwo forms of the sections (a .dwo file, a .dwp package, or
  /// an object of clang's -gsplit-dwarf=single that holds both forms).
  /// Without it the plain forms are read, or the .dwo forms of a file that
  /// has no others.
  bool DwoSections = false;
  /// Look for and open dwz's supplementary file (its absence is a
  /// warning, kind missing-supplementary, followed by SupConsequence).
  bool Supplementary = true;
  std::string SupConsequence;
  /// Read every unit's DIEs at once, and refuse the file when a DIE's
  /// values run past the end of their section: for files whose DIEs other
  /// files' units reach into (dwz's file, .dwo files), which then count as
  /// missing with the reason. The walk finds the same in the units it
  /// reads, unit by unit.
  bool CheckAllUnits = false;
  /// The .dwp package of the split units, instead of the input's path
  /// with .dwp added (llvm-symbolizer --dwp).
  std::string Package;
  /// Read the DWARF (and the dwz and split DWARF files it names) from this
  /// separate debug file instead (DebugFile.h): object() stays the input,
  /// whose build-id and program headers are the module's; dwarf() and
  /// debugFile() are the debug file's. Refused, naming it, when the two
  /// record different build-ids.
  std::string DebugFile;
  /// For open(MemoryBufferRef): the buffer is a read-only mapping of the
  /// file it names (MemoryBuffer_MMap), so the walk may give back the pages
  /// of units it is done with, and unit headers may be read with pread.
  /// Never set it for bytes in the heap: releasing those would zero them.
  bool BufferIsFileMapping = false;
};

class InputObject {
public:
  /// Maps Path and opens it. The error names the file.
  static llvm::Expected<std::unique_ptr<InputObject>>
  open(llvm::StringRef Path, WarningLog &Log, const OpenOptions &Opts = {});
  /// Opens a file already in memory; Name is the path messages give and
  /// split DWARF files are looked for beside.
  static llvm::Expected<std::unique_ptr<InputObject>>
  open(std::unique_ptr<llvm::MemoryBuffer> Buffer, llvm::StringRef Name,
       WarningLog &Log, const OpenOptions &Opts = {});
  /// The same for bytes the caller keeps alive.
  static llvm::Expected<std::unique_ptr<InputObject>>
  open(llvm::MemoryBufferRef Buffer, WarningLog &Log,
       const OpenOptions &Opts = {});
  ~InputObject();

  llvm::StringRef path() const { return Path; }
  const llvm::object::ObjectFile &object() const { return *Obj; }
  llvm::MemoryBufferRef buffer() const { return Bytes; }
  /// The bytes are a read-only file mapping (pages of it may be handed
  /// back to the kernel once read).
  bool isFileMapping() const { return FileMapping; }
  bool isRelocatable() const { return Obj->isRelocatableObject(); }
  bool isLittleEndian() const { return Obj->isLittleEndian(); }
  /// Relocatable objects: the executable sections' addresses.
  llvm::ArrayRef<PlacedSection> layout() const { return Layout; }
  /// Sum of the sizes of the .debug_* sections as stored.
  uint64_t debugBytes() const { return dwarfSource().DebugBytes; }
  /// Whether the file has any .debug_info (or .debug_info.dwo) bytes.
  bool hasDebugInfo() const;

  /// The file's DWARF, its units already listed.
  const DwarfFile &dwarf() const { return *dwarfSource().Dwarf; }
  /// What listing the units reported (headers LLVM would not read), in
  /// LLVM's words.
  llvm::ArrayRef<std::string> unitProblems() const {
    return dwarfSource().UnitProblems;
  }
  /// dwz's supplementary file, if the input names one and it was found.
  const InputObject *supplementary() const { return dwarfSource().Sup.get(); }
  /// The .dwo files and .dwp package of the units' skeletons.
  SplitUnits &splitUnits() const { return *dwarfSource().Splits; }
  /// The separate debug file the DWARF is read from
  /// (OpenOptions::DebugFile), or null.
  const InputObject *debugFile() const { return Debug.get(); }
  /// The file whose symbol table (.symtab) names the module's functions and
  /// variables: the input's, or a stripped binary's debug file's.
  const llvm::object::ObjectFile &symbolTableObject() const;
  /// The ELF file of a stripped binary's MiniDebugInfo (.gnu_debugdata):
  /// its .symtab holds the functions stripping removed that .dynsym does
  /// not have. Null without one, or when it could not be read (a warning
  /// says why).
  const llvm::object::ELFObjectFileBase *miniDebugInfo() const {
    return MiniObj.get();
  }

  /// Hands back to the kernel the pages of the first Size bytes of S when
  /// they lie in the file mapping (never a decompressed or relocated copy);
  /// called with increasing sizes as a walk proceeds.
  void releaseSectionPrefix(Sec S, uint64_t Size) const;
  /// How many times releaseSectionPrefix handed pages back.
  unsigned pageReleases() const {
    return Debug ? Debug->pageReleases() : Releases;
  }

private:
  InputObject();
  /// The file whose DWARF this object reads: the debug file, or itself.
  const InputObject &dwarfSource() const { return Debug ? *Debug : *this; }
  llvm::Error openDebugFile(WarningLog &Log, const OpenOptions &Opts);
  /// A debug section as read (decompressed), before sections of one kind
  /// are put together.
  struct Part {
    Sec Kind;
    uint64_t Index; ///< ELF section index.
    llvm::StringRef Bytes;
    char *Writable = nullptr; ///< Bytes, when they are our own copy.
    RelocatedOffsets Relocated = {};
    bool HasRelocations = false;
  };
  llvm::Error load(WarningLog &Log, const OpenOptions &Opts);
  llvm::Expected<std::vector<Part>> collectSections(bool WantDwo, bool &IsDwo);
  llvm::Error relocate(std::vector<Part> &Parts, WarningLog &Log);
  void assemble(std::vector<Part> &Parts, bool IsDwo);
  void openSupplementary(WarningLog &Log, const OpenOptions &Opts);
  void openMiniDebugInfo(WarningLog &Log);
  std::vector<std::string> scanUnitsFromFile();

  std::string Path;
  std::unique_ptr<llvm::MemoryBuffer> Owned;
  llvm::MemoryBufferRef Bytes;
  bool FileMapping = false;
  std::unique_ptr<llvm::object::ObjectFile> Obj;
  std::vector<PlacedSection> Layout;
  uint64_t DebugBytes = 0;
  /// Decompressed and relocated copies of sections.
  std::vector<std::unique_ptr<char[]>> Copies;
  std::unique_ptr<DwarfFile> Dwarf;
  std::vector<std::string> UnitProblems;
  std::unique_ptr<InputObject> Sup;
  std::unique_ptr<SplitUnits> Splits;
  std::unique_ptr<InputObject> Debug;
  std::unique_ptr<llvm::MemoryBuffer> MiniBytes;
  std::unique_ptr<llvm::object::ELFObjectFileBase> MiniObj;
  mutable std::vector<uint64_t> Released; ///< Per section, bytes released.
  mutable unsigned Releases = 0;
};

/// The full units of skeleton units: found in the input's .dwp package,
/// or the .dwo file its skeleton names (beside the compilation directory,
/// or beside the input), each file opened once. Safe to use from several
/// threads.
class SplitUnits {
public:
  /// Package: the input's .dwp package, when not InputPath.dwp.
  SplitUnits(std::string InputPath, std::string Package = "");
  ~SplitUnits();
  struct Found {
    const DwarfFile *File = nullptr;
    const UnitHeader *Header = nullptr;
    llvm::StringRef Path; ///< The .dwo or .dwp file.
  };
  /// The full unit of Skel (a skeleton: Unit::isSkeleton()); nothing when
  /// the skeleton names no .dwo file and no package has its unit. The error
  /// says which files were looked for and why they did not do. Problems of
  /// the files opened go to Log.
  llvm::Expected<std::optional<Found>> find(const Unit &Skel, WarningLog &Log);

private:
  struct File;
  File *open(llvm::StringRef Path, WarningLog &Log, bool ReportOpenError);
  std::string InputPath;
  std::string Package;
  std::mutex Mutex;
  llvm::StringMap<std::unique_ptr<File>> Files;
};

} // namespace input
} // namespace dwarfpack

#endif
