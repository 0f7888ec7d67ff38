//===- SymbolTypes.h - Symbols of a type table, as names -----*- C++ -*-===//
//
// Test helper shared by the CTF tests: a table's symbols with the names of
// their types, for comparing with a list written out in the test.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UNITTESTS_CTF_SYMBOLTYPES_H
#define DWARFPACK_UNITTESTS_CTF_SYMBOLTYPES_H

#include "dwarfpack/Types/TypeModel.h"

#include <string>
#include <utility>
#include <vector>

namespace dwarfpack {
namespace test {

using NamePairs = std::vector<std::pair<std::string, std::string>>;

/// Each symbol's name with its type's name.
inline NamePairs symbolTypes(const std::vector<types::Symbol> &Syms,
                             const types::TypeTable &T) {
  NamePairs R;
  for (const types::Symbol &S : Syms)
    R.push_back({S.Name.str(), T.Types[S.Type].Name.str()});
  return R;
}

} // namespace test
} // namespace dwarfpack

#endif
