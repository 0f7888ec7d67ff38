//===- TokenTestUtil.h - Generated corpora for the token encoder tests ----===//

#ifndef DWARFPACK_UNITTESTS_TOKEN_TOKENTESTUTIL_H
#define DWARFPACK_UNITTESTS_TOKEN_TOKENTESTUTIL_H

#include "llvm/ADT/StringRef.h"

#include <random>
#include <string>
#include <vector>

namespace dwarfpack {
namespace token {
namespace testing {

/// N names of up to MaxLen bytes drawn from Charset (deterministic in Seed).
inline std::vector<std::string> randomNames(size_t N, llvm::StringRef Charset,
                                            size_t MaxLen, unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::vector<std::string> Names;
  for (size_t I = 0; I < N; ++I) {
    std::string S;
    size_t Len = Rng() % (MaxLen + 1);
    for (size_t J = 0; J < Len; ++J)
      S.push_back(Charset[Rng() % Charset.size()]);
    Names.push_back(S);
  }
  return Names;
}

} // namespace testing
} // namespace token
} // namespace dwarfpack

#endif
