//===- FunctionNames.cpp - Names derived from a function's stored name ----===//

#include "dwarfpack/AddressTable/FunctionNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace dwarfpack {

size_t cloneSuffix(StringRef Name) {
  static const char *const Suffixes[] = {
      ".cold",   ".isra.",      ".part.", ".constprop.",  ".lto_priv.",
      ".clone.", ".localalias", ".llvm.", ".specialized."};
  size_t Cut = StringRef::npos;
  for (const char *S : Suffixes)
    Cut = std::min(Cut, Name.find(S));
  return Cut;
}

/// The part of Name after its last `::` outside brackets.
static StringRef lastComponent(StringRef Name) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ')' || C == ']') && Depth > 0)
      --Depth;
    else if (C == ':' && Depth == 0 && I + 1 < Name.size() &&
             Name[I + 1] == ':')
      Start = I + 2;
  }
  return Name.drop_front(Start);
}

/// The short name of an Itanium function name, or std::nullopt when Name
/// is not one: the base name with the template arguments that follow it
/// in the function's full name.
static std::optional<std::string> shortItaniumName(const std::string &Name) {
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()) || !D.isFunction())
    return std::nullopt;
  size_t N = 0;
  char *Full = D.getFunctionName(nullptr, &N);
  char *Base = Full ? D.getFunctionBaseName(nullptr, &N) : nullptr;
  std::optional<std::string> Short;
  if (Full && Base) {
    StringRef F(Full), B(Base);
    // The base name's own occurrence: after a scope (or first), followed by
    // nothing or its template arguments.
    for (size_t Limit = F.size(), At; !B.empty() && Limit >= B.size();
         Limit = At + B.size() - 1) {
      At = F.take_front(Limit).rfind(B);
      if (At == StringRef::npos)
        break;
      StringRef Before = F.take_front(At), After = F.drop_front(At + B.size());
      if ((Before.empty() || Before.ends_with("::")) &&
          (After.empty() || After.starts_with("<"))) {
        Short = F.drop_front(At).str();
        break;
      }
    }
    if (!Short)
      Short = lastComponent(F).str();
  }
  std::free(Full);
  std::free(Base);
  return Short;
}

std::string shortFunctionName(StringRef Name) {
  Name = Name.take_front(cloneSuffix(Name));
  if (Name.starts_with("_Z"))
    if (std::optional<std::string> S = shortItaniumName(Name.str()))
      return *S;
  std::string Demangled = llvm::demangle(Name);
  return lastComponent(Demangled).str();
}

bool isOwnShortName(StringRef Name) {
  if (Name.empty() || Name.starts_with("_R") || Name.starts_with("_D"))
    return false;
  // llvm::demangle takes 1 to 4 underscores and a 'Z' for Itanium.
  size_t Underscores = Name.find_first_not_of('_');
  if (Underscores >= 1 && Underscores <= 4 && Name[Underscores] == 'Z')
    return false;
  return llvm::all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

} // namespace dwarfpack
