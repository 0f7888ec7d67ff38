//===- ModuleMap.cpp - Which kernel module a translation unit belongs to --===//

#include "dwarfpack/CtfKernel/ModuleMap.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {
namespace ctfkernel {

namespace {

Error lineError(StringRef Path, unsigned Line, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           Path + ":" + Twine(Line) + ": " + Msg);
}

bool hasSpace(StringRef S) {
  return S.find_first_of(" \t\r\v\f") != StringRef::npos;
}

/// Calls F(LineNumber, Line) on every line with its trailing `\r` removed.
template <typename Fn> Error forEachLine(StringRef Contents, Fn F) {
  unsigned No = 0;
  while (!Contents.empty()) {
    auto [Line, Rest] = Contents.split('\n');
    Contents = Rest;
    ++No;
    if (Error E = F(No, Line.rtrim("\r")))
      return E;
  }
  return Error::success();
}

std::string normalise(StringRef P) {
  SmallString<128> S(P);
  sys::path::remove_dots(S, /*remove_dot_dot=*/true, sys::path::Style::posix);
  return std::string(S.str());
}

} // namespace

std::string ModuleMap::moduleNameFromPath(StringRef Path) {
  return std::string(sys::path::stem(Path, sys::path::Style::posix));
}

std::string ModuleMap::objectPathForUnit(StringRef CompDir, StringRef Name) {
  SmallString<128> P(Name);
  if (sys::path::is_absolute(P, sys::path::Style::posix) && !CompDir.empty()) {
    std::string Dir = normalise(CompDir);
    std::string Full = normalise(P);
    if (StringRef(Full).starts_with(Dir + "/"))
      P = StringRef(Full).drop_front(Dir.size() + 1);
  }
  sys::path::replace_extension(P, "o", sys::path::Style::posix);
  return normalise(P);
}

Error ModuleMap::parseBuiltinModules(StringRef Path, StringRef Contents) {
  return forEachLine(Contents, [&](unsigned No, StringRef Line) -> Error {
    if (Line.trim().empty())
      return Error::success();
    auto [Ko, Objects] = Line.split(':');
    Ko = Ko.trim();
    if (hasSpace(Ko) || !Ko.ends_with(".ko") || Ko.size() <= 3)
      return lineError(Path, No,
                       "expected 'path/module.ko' or 'path/module.ko: a.o "
                       "b.o ...', got '" +
                           Line + "'");
    std::string Name = moduleNameFromPath(Ko);
    if (!BuiltinModules.insert(Name).second)
      return lineError(Path, No, "module '" + Name + "' listed twice");
    // kernel/fs/ext4/ext4.ko is built from the ld -r'ed fs/ext4/ext4.o.
    StringRef Rel = Ko;
    Rel.consume_front("kernel/");
    SmallString<128> Obj(Rel);
    sys::path::replace_extension(Obj, "o", sys::path::Style::posix);
    ModuleObjectToModule[normalise(Obj)] = Name;
    SmallVector<StringRef, 8> Objs;
    SplitString(Objects, Objs);
    for (StringRef O : Objs) {
      if (!O.ends_with(".o"))
        return lineError(Path, No, "'" + O + "' is not an object file (.o)");
      auto [It, New] = ObjectToModule.try_emplace(normalise(O), Name);
      if (!New && It->second != Name)
        return lineError(Path, No,
                         "object '" + O + "' is in modules '" + It->second +
                             "' and '" + Name + "'");
    }
    return Error::success();
  });
}

Error ModuleMap::parseBuiltinObjects(StringRef Path, StringRef Contents) {
  return forEachLine(Contents, [&](unsigned No, StringRef Line) -> Error {
    StringRef O = Line.trim();
    if (O.empty())
      return Error::success();
    if (hasSpace(O) || !O.ends_with(".o"))
      return lineError(Path, No,
                       "expected one object file (path/name.o), got '" + Line +
                           "'");
    // Objects of built-in modules keep their module (listed there first).
    ObjectToModule.try_emplace(normalise(O), CoreModule);
    return Error::success();
  });
}

Error ModuleMap::parseBlocklist(StringRef Path, StringRef Contents) {
  return forEachLine(Contents, [&](unsigned No, StringRef Line) -> Error {
    StringRef Name = Line.split('#').first.trim();
    if (Name.empty())
      return Error::success();
    if (hasSpace(Name) || Name.contains('/') || Name.ends_with(".ko"))
      return lineError(Path, No,
                       "expected one module name per line, got '" + Line + "'");
    if (!Blocklist.insert(Name).second)
      return lineError(Path, No, "module '" + Name + "' listed twice");
    return Error::success();
  });
}

StringRef ModuleMap::builtinModuleForModuleObject(StringRef ObjectPath) const {
  // The input may be named relative to anywhere above the build directory:
  // try each suffix of its path.
  std::string P = normalise(ObjectPath);
  StringRef S = P;
  while (!S.empty()) {
    auto It = ModuleObjectToModule.find(S);
    if (It != ModuleObjectToModule.end())
      return It->second;
    size_t Slash = S.find('/');
    if (Slash == StringRef::npos)
      break;
    S = S.drop_front(Slash + 1);
  }
  return {};
}

StringRef ModuleMap::moduleForUnit(StringRef CompDir, StringRef Name) const {
  if (ObjectToModule.empty())
    return {};
  auto It = ObjectToModule.find(objectPathForUnit(CompDir, Name));
  return It == ObjectToModule.end() ? StringRef() : StringRef(It->second);
}

} // namespace ctfkernel
} // namespace dwarfpack
