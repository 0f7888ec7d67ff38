//===- KernelSymbolizer.h - A running kernel, from its build's tables -----===//
//
// A running kernel's addresses are answered from the table of its build
// (vmlinux or System.map), moved by its KASLR offset, and its modules from
// their own tables, placed where the running kernel loaded them
// (kallsyms::RunningKernelSymbolizer). This composes those from what a
// profiler or crash tool has at hand: the table, the running kernel's
// /proc/kallsyms text, a directory of module tables, and the build-ids
// that Linux shows in /sys (kernel/notes, module/<name>/notes).
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_KERNELSYMBOLIZER_H
#define DWARFPACK_SYMBOLIZE_KERNELSYMBOLIZER_H

#include "dwarfpack/Kallsyms/KernelSlide.h"
#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/OpenTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

/// The input of a running kernel a message is about, so that a tool can
/// name it as its user gave it (an option, a field).
enum class KernelInput {
  /// The running kernel's symbols (kallsyms) against the kernel's table.
  Kallsyms,
  /// The directory of module tables.
  ModuleTables,
  /// The directory of build-id notes.
  BuildIds,
  /// A module's table that names itself in the message.
  ModuleTable,
};

/// A message about one input; Message does not name the input.
struct KernelMessage {
  KernelInput Input;
  std::string Message;
};

/// Receives the problems that do not stop a running kernel from being
/// symbolized, as they are found: a notes file without a build-id (that
/// check is not made), a module table not used (its module's addresses get
/// kallsyms names only).
using KernelWarningFn = std::function<void(const KernelMessage &)>;

/// An error about one input of a running kernel.
class KernelInputError : public llvm::ErrorInfo<KernelInputError> {
public:
  static char ID;
  KernelInputError(KernelInput Input, std::string Message)
      : Msg{Input, std::move(Message)} {}
  const KernelMessage &get() const { return Msg; }
  /// "<input>: <message>", the input named generically.
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  KernelMessage Msg;
};

/// The GNU build-id in the notes file at Path (as sysfs shows a note
/// section: /sys/kernel/notes, /sys/module/<name>/notes/.note.gnu.build-id).
/// std::nullopt when there is no such file; empty when it has no GNU
/// build-id note. An error naming the file when it cannot be read or a note
/// runs past its end.
llvm::Expected<std::optional<llvm::SmallVector<uint8_t, 20>>>
readBuildIdNotes(const llvm::Twine &Path);

/// The address tables of kernel modules in a directory: <module>.dpat or
/// .gsym, each made from the module's .ko, or a store by build-id as
/// `dwarfpack gsym --store` fills it.
class ModuleTableDirectory {
public:
  /// Lists Dir. A file's name without .dpat or .gsym names its module, with
  /// '-' read as '_' as the kernel names modules (aegis128-aesni.ko is
  /// module aegis128_aesni); .dpat first when both exist. Errors: Dir is not
  /// a directory; two tables of one format name the same module.
  static llvm::Expected<ModuleTableDirectory> scan(llvm::StringRef Dir);

  /// The table of Module: by its name, else, when BuildId is known, in the
  /// store layout (.dpat, then .gsym); empty when there is none.
  std::string find(llvm::StringRef Module,
                   llvm::ArrayRef<uint8_t> BuildId) const;

private:
  std::string Dir;
  llvm::StringMap<std::string> ByName;
};

/// What a running kernel is made of, besides the table of its build.
struct RunningKernelSources {
  /// The running kernel's /proc/kallsyms (or a copy) and its file name.
  llvm::StringRef Kallsyms;
  std::string KallsymsName;
  /// A directory of module tables (ModuleTableDirectory); empty: modules
  /// get their kallsyms names only.
  std::string ModuleTables;
  /// /sys, or a copy of its kernel/notes and module/<name>/notes files;
  /// empty: no build-id is checked.
  std::string BuildIds;
  /// How the module tables are opened.
  OpenOptions Open;
  /// Where warnings go; null: nowhere.
  KernelWarningFn Warn;
};

struct RunningKernel {
  std::unique_ptr<kallsyms::RunningKernelSymbolizer> Symbolizer;
  kallsyms::KernelSlide Slide;
};

/// Answers the running kernel of Sources from Table (named TableName in
/// messages), which must outlive the result. Errors about an input are
/// KernelInputErrors: the KASLR offset is not found or not confirmed
/// (findKernelSlide, or the build-ids differ), the build-id directory has
/// neither notes nor module/, a notes file is damaged, a module table does
/// not open. An error in the kallsyms text is a plain error naming it.
llvm::Expected<RunningKernel>
openRunningKernel(const AddressSymbolizer &Table, llvm::StringRef TableName,
                  const RunningKernelSources &Sources);

/// Why a module's table is not used, or std::nullopt when it is.
std::optional<std::string> unplacedReason(const kallsyms::ModulePlacement &P);

} // namespace dwarfpack

#endif
