//===- ModuleMap.h - Which kernel module a translation unit belongs to -*-===//
//
// Parses the kernel build's lists of built-in code and the dedup blocklist,
// and attributes compile units to modules: a unit of a built-in module
// belongs to that module even when it is linked into vmlinux; the rest of
// vmlinux belongs to the core kernel, "vmlinux".
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_CTFKERNEL_MODULEMAP_H
#define DWARFPACK_CTFKERNEL_MODULEMAP_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>

namespace dwarfpack {
namespace ctfkernel {

/// The name of the core kernel's module.
constexpr const char *CoreModule = "vmlinux";

class ModuleMap {
public:
  /// modules.builtin: one built-in module per line, `kernel/dir/name.ko`,
  /// optionally followed by `: dir/a.o dir/b.o ...` (the objects of the
  /// module, the kernel's modules.builtin.objs form). Path names the file in
  /// errors ("path:line: ...").
  llvm::Error parseBuiltinModules(llvm::StringRef Path,
                                  llvm::StringRef Contents);
  /// objects.builtin: one object file (`dir/x.o`) per line; objects not
  /// already attributed to a built-in module belong to the core kernel.
  llvm::Error parseBuiltinObjects(llvm::StringRef Path,
                                  llvm::StringRef Contents);
  /// Dedup blocklist: one module name per line; `#` starts a comment.
  llvm::Error parseBlocklist(llvm::StringRef Path, llvm::StringRef Contents);

  bool isBuiltinModule(llvm::StringRef Name) const {
    return BuiltinModules.contains(Name);
  }
  bool isBlocklisted(llvm::StringRef Name) const {
    return Blocklist.contains(Name);
  }
  /// The built-in module whose ld -r'ed object is at ObjectPath (e.g.
  /// fs/ext4/ext4.o for kernel/fs/ext4/ext4.ko), or "".
  llvm::StringRef
  builtinModuleForModuleObject(llvm::StringRef ObjectPath) const;
  /// The module of a compile unit named Name (DW_AT_name) built in CompDir,
  /// found through its object file (the source name with `.o`), or "" when
  /// the lists do not mention it.
  llvm::StringRef moduleForUnit(llvm::StringRef CompDir,
                                llvm::StringRef Name) const;

  /// `dir/name.ko` -> `name`.
  static std::string moduleNameFromPath(llvm::StringRef Path);
  /// The object path of a unit: Name relative to CompDir, extension `.o`.
  static std::string objectPathForUnit(llvm::StringRef CompDir,
                                       llvm::StringRef Name);

private:
  llvm::StringMap<std::string> ObjectToModule;
  llvm::StringMap<std::string> ModuleObjectToModule;
  llvm::StringSet<> BuiltinModules;
  llvm::StringSet<> Blocklist;
};

} // namespace ctfkernel
} // namespace dwarfpack

#endif
