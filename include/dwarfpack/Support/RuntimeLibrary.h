//===- RuntimeLibrary.h - A shared library opened when first needed -*- C++
//-*-//
//
// Some dependencies serve only some runs (elfutils' debuginfod client with
// the thirty libraries behind it, liblzma for MiniDebugInfo): they are
// opened by the first run that needs them rather than linked, so that the
// others neither load them nor, for the installed libraries, depend on
// them.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_RUNTIMELIBRARY_H
#define DWARFPACK_SUPPORT_RUNTIMELIBRARY_H

#include <string>

namespace dwarfpack {

/// A shared library opened with its symbols resolved now and kept to
/// itself (RTLD_NOW | RTLD_LOCAL), and never closed.
class RuntimeLibrary {
public:
  explicit RuntimeLibrary(const char *Soname);

  /// Points Out at the library's function Name; false when the library or
  /// the function is missing (problem() then says so).
  template <typename Fn> bool bind(const char *Name, Fn &Out) {
    Out = reinterpret_cast<Fn>(symbol(Name));
    return Out != nullptr;
  }

  /// Empty while the library and every function bound so far were found;
  /// else the loader's message, which names the library or the symbol.
  const std::string &problem() const { return Problem; }

private:
  void *symbol(const char *Name);

  void *Handle = nullptr;
  std::string Problem;
};

} // namespace dwarfpack

#endif // DWARFPACK_SUPPORT_RUNTIMELIBRARY_H
