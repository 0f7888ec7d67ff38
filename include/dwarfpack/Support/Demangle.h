//===- Demangle.h - Rust names, names as binutils prints them --*- C++ -*-===//
//
// `dwarfpack addr2line -C` prints what binutils' `addr2line -C` prints, and
// binutils demangles differently from llvm-symbolizer: Rust's legacy
// symbols (Itanium-like `_ZN...17h<hash>E`) as Rust paths without the hash,
// and C++ lambdas as GCC spells them (`{lambda(int)#1}`). Kernel symbol
// tables, the C API and trace annotation demangle Rust's legacy symbols
// the same way.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SUPPORT_DEMANGLE_H
#define DWARFPACK_SUPPORT_DEMANGLE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace dwarfpack {

/// Name demangled as binutils 2.40 demangles it: a Rust legacy symbol by
/// Rust's rules, a Rust v0 symbol (`_R...`), else an Itanium C++ symbol by
/// the C++ runtime's demangler (GCC's, as binutils'). Anything else, or a
/// name no demangler accepts, is returned as it is.
std::string gnuDemangle(llvm::StringRef Name);

/// Name demangled for people, as a profiler shows it: a Rust legacy symbol
/// by Rust's rules (as gnuDemangle), anything else as llvm-symbolizer
/// demangles it (`llvm::demangle`: C++, Rust v0), so that C++ names read
/// as `dwarfpack lookup` prints them. llvm-symbolizer reads a Rust legacy
/// symbol as C++ (`lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h168e...`);
/// this gives `lang_start::{{closure}}`.
std::string readableDemangle(llvm::StringRef Name);

/// Whether llvm::demangle can read Name as a mangled name: one that starts
/// with `?` or `.` (Microsoft's, type descriptors), or whose first
/// character after at most six `_` and `.` is `Z`, `R` or `D` after at
/// least one of them (Itanium, Rust v0 and D names, with the leading `_`
/// and `.` LLVM accepts). llvm::demangle returns every other name as it
/// is, but only after its Microsoft demangler has tried (and allocated for)
/// it: a batch of kernel addresses spent a few percent of its time there.
bool llvmMayDemangle(llvm::StringRef Name);

/// A Rust legacy symbol, `_ZN` then length-prefixed path segments ending in
/// a hash segment (`h` and 16 lowercase hex digits, at least 5 of them
/// different) then `E`, as a Rust path: the segments but the hash joined by
/// `::`, with the mangler's escapes decoded (`$LT$` `<`, `$u7b$` `{`, `..`
/// `::`, ...), a `.llvm.<digits>` suffix ignored. None when Name is not
/// such a symbol.
std::optional<std::string> demangleRustLegacy(llvm::StringRef Name);

/// Profilers show a C++ function by its demangled name, and perf, as it is
/// built, either without its parameters (`app::Box<long>::spin`, through
/// libiberty or libbfd without DMGL_PARAMS, as Debian 12's perf) or with
/// them (`app::Box<long>::spin(int) const`, through the C++ runtime's
/// demangler), and in either form `> >` or `>>` after nested templates.
/// A name key reads both the same: the name without a clone's annotation
/// (` [clone .cold]`, LLVM's ` (.cold)`) and without blanks.
std::string demangledNameKey(llvm::StringRef Shown);

/// The keys (demangledNameKey) of the names a profiler may show for the
/// function whose symbol is Mangled (without its `.cold`-style suffix): its
/// full name as the C++ runtime (or, for Rust's legacy symbols, Rust's
/// rules) demangles it, and its name without parameters, as LLVM's
/// demangler and as GNU's spell it. None when Mangled is not a mangled
/// name.
llvm::SmallVector<std::string, 3> demangledNameKeys(llvm::StringRef Mangled);

} // namespace dwarfpack

#endif
