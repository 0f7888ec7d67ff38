//===- RuntimeLibrary.cpp - A shared library opened when first needed -----===//

#include "dwarfpack/Support/RuntimeLibrary.h"

#include <dlfcn.h>

namespace dwarfpack {

RuntimeLibrary::RuntimeLibrary(const char *Soname)
    : Handle(dlopen(Soname, RTLD_NOW | RTLD_LOCAL)) {
  if (!Handle) {
    const char *Why = dlerror();
    Problem = Why ? Why : Soname;
  }
}

void *RuntimeLibrary::symbol(const char *Name) {
  if (!Handle)
    return nullptr;
  void *P = dlsym(Handle, Name);
  if (!P && Problem.empty()) {
    const char *Why = dlerror(); // names the symbol
    Problem = Why ? Why : Name;
  }
  return P;
}

} // namespace dwarfpack
