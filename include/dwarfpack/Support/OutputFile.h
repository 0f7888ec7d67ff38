//===- OutputFile.h - Writing output files whole or not at all --*- C++ -*-===//

#ifndef DWARFPACK_SUPPORT_OUTPUTFILE_H
#define DWARFPACK_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// Writes an output file. "-" is standard output. An existing file that is
/// not a regular one (a device such as /dev/null, a FIFO) is written in
/// place. Otherwise Write writes a temporary file beside the file the path
/// leads to (through symbolic links), which is renamed over it once Write
/// succeeded and every byte was written, and removed otherwise. The file
/// gets Mode when given (a copy of an executable stays executable), else
/// the mode of the file it replaces, else 0666 less the umask. Errors say
/// "cannot write 'PATH': ...".
llvm::Error
writeOutputFile(llvm::StringRef Path,
                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write,
                std::optional<llvm::sys::fs::perms> Mode = std::nullopt);
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Bytes);
/// writeOutputFile, creating the directories Path leads through first
/// (those it created are removed again when the file cannot be written):
/// a table filed in a store or a cache.
llvm::Error writeOutputFileAndDirectories(llvm::StringRef Path,
                                          llvm::StringRef Bytes);

/// writeOutputFile in two steps, for outputs that replace several files
/// together (all are written before any is renamed into place): create()
/// writes the bytes, to the temporary file or straight into a device, FIFO
/// or standard output; commit() renames the temporary over the file.
/// Destroying a staged output that was not committed removes its
/// temporary file.
class StagedOutput {
public:
  static llvm::Expected<StagedOutput>
  create(llvm::StringRef Path,
         llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write,
         std::optional<llvm::sys::fs::perms> Mode = std::nullopt);
  static llvm::Expected<StagedOutput> create(llvm::StringRef Path,
                                             llvm::StringRef Bytes);

  StagedOutput(StagedOutput &&Other) { *this = std::move(Other); }
  StagedOutput &operator=(StagedOutput &&Other);
  StagedOutput(const StagedOutput &) = delete;
  StagedOutput &operator=(const StagedOutput &) = delete;
  ~StagedOutput();

  /// Puts the file in place (nothing to do for one written in place).
  llvm::Error commit();

private:
  StagedOutput(std::string Path, std::string Final, std::string Temp)
      : Path(std::move(Path)), Final(std::move(Final)), Temp(std::move(Temp)) {}
  void discard();

  std::string Path;  // as the user gave it, for messages
  std::string Final; // the file the temporary replaces
  // The temporary file, closed (a kernel's thousand module files are
  // staged at once: open descriptors would hit `ulimit -n`); removed on a
  // signal too. Empty when written in place or done.
  std::string Temp;
};

/// Flushes OS and turns a write error (disk full) into an Error naming Path
/// ("-": standard output). Clears the error: a stream destroyed with one
/// aborts the process.
llvm::Error finishOutputStream(llvm::raw_fd_ostream &OS, llvm::StringRef Path);

/// An error when Output is one of Inputs (the same file, by any name).
llvm::Error checkOutputIsNotInput(llvm::StringRef Output,
                                  llvm::ArrayRef<std::string> Inputs);

/// `mkdir -p Dir`; new directories get 0777 less the umask.
llvm::Error createOutputDirectories(llvm::StringRef Dir);

/// createOutputDirectories for a run that may still fail: unless keep() is
/// called, the destructor removes the directories it created, deepest
/// first, as far as they are still empty (a failed run leaves no empty
/// output directory behind).
class OutputDirectories {
public:
  static llvm::Expected<OutputDirectories> create(llvm::StringRef Dir);
  OutputDirectories(OutputDirectories &&Other)
      : Created(std::move(Other.Created)) {
    Other.Created.clear();
  }
  OutputDirectories &operator=(OutputDirectories &&) = delete;
  ~OutputDirectories();
  void keep() { Created.clear(); }

private:
  OutputDirectories() = default;
  std::vector<std::string> Created; // deepest last
};

} // namespace dwarfpack

#endif
