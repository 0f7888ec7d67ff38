//===- BreakpadStore.cpp - Symbol stores of Breakpad .sym files -----------===//

#include "dwarfpack/Breakpad/BreakpadStore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dwarfpack {

Expected<BreakpadStoreListing> listBreakpadStore(StringRef Root) {
  if (!sys::fs::is_directory(Root))
    return createStringError(inconvertibleErrorCode(), "%s: not a directory",
                             Root.str().c_str());
  BreakpadStoreListing L;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Root, EC), End;
       It != End && !EC; It.increment(EC)) {
    sys::fs::file_type Type = It->type();
    if (Type == sys::fs::file_type::directory_file)
      continue;
    StringRef Path = It->path();
    // Relative path with '/' separators, whatever the host uses.
    StringRef Rel = Path.drop_front(Root.size());
    Rel = Rel.ltrim("/\\");
    SmallVector<StringRef, 4> Parts;
    for (auto P = sys::path::begin(Rel), E = sys::path::end(Rel); P != E; ++P)
      Parts.push_back(*P);
    std::string Joined = join(Parts, "/");
    bool Fits = Parts.size() == 3 && Parts[2].ends_with(".sym") &&
                Parts[2].size() > 4 && !Parts[0].empty() && !Parts[1].empty();
    if (Fits)
      L.SymFiles.push_back(std::move(Joined));
    else
      L.Ignored.push_back(std::move(Joined));
  }
  if (EC)
    return createStringError(EC, "%s: %s", Root.str().c_str(),
                             EC.message().c_str());
  llvm::sort(L.SymFiles);
  llvm::sort(L.Ignored);
  return L;
}

std::string gsymPathForStoreEntry(StringRef SymRelPath) {
  StringRef Base = SymRelPath;
  Base.consume_back(".sym");
  return (Base + ".gsym").str();
}

} // namespace dwarfpack
