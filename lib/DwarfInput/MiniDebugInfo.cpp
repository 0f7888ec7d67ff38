//===- MiniDebugInfo.cpp - The ELF file inside .gnu_debugdata -------------===//
//
// liblzma is opened when a .gnu_debugdata section is first read
// (RuntimeLibrary), not linked: every Debian system has liblzma.so.5 (apt
// needs it), while linking it would make it a dependency of every library
// in the installed CMake package.
//
//===----------------------------------------------------------------------===//

#include "MiniDebugInfo.h"

#include "llvm/ADT/Twine.h"

#if DWARFPACK_HAVE_LZMA
#include "dwarfpack/Support/RuntimeLibrary.h"

#include <lzma.h>
#endif

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;

namespace dwarfpack {
namespace input {

static Error xzError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

#if DWARFPACK_HAVE_LZMA
namespace {
struct LzmaLibrary {
  decltype(&lzma_stream_decoder) StreamDecoder = nullptr;
  decltype(&lzma_code) Code = nullptr;
  decltype(&lzma_end) End = nullptr;
  std::string Problem; ///< Why the library cannot be used, if it cannot.
};

const LzmaLibrary &lzmaLibrary() {
  static const LzmaLibrary Lib = [] {
    LzmaLibrary L;
    RuntimeLibrary R("liblzma.so.5");
    // Binding stops at the first symbol missing, which problem() names.
    R.bind("lzma_stream_decoder", L.StreamDecoder) &&
        R.bind("lzma_code", L.Code) && R.bind("lzma_end", L.End);
    L.Problem = R.problem();
    return L;
  }();
  return Lib;
}

const char *describe(lzma_ret R) {
  switch (R) {
  case LZMA_FORMAT_ERROR:
    return "not xz data";
  case LZMA_DATA_ERROR:
    return "corrupt xz data";
  case LZMA_BUF_ERROR:
    return "truncated xz data";
  case LZMA_MEMLIMIT_ERROR:
  case LZMA_MEM_ERROR:
    return "xz data that needs too much memory";
  case LZMA_OPTIONS_ERROR:
    return "xz data with unsupported options";
  default:
    return "xz data liblzma cannot read";
  }
}
} // namespace

Expected<std::unique_ptr<MemoryBuffer>> decompressXz(StringRef Compressed) {
  const LzmaLibrary &Lib = lzmaLibrary();
  if (!Lib.Problem.empty())
    return xzError("liblzma could not be loaded: " + Lib.Problem);
  lzma_stream S = LZMA_STREAM_INIT;
  if (lzma_ret R = Lib.StreamDecoder(&S, /*memlimit=*/MaxMiniDebugInfoBytes,
                                     /*flags=*/0);
      R != LZMA_OK)
    return xzError(describe(R));
  std::vector<char> Out(std::clamp<uint64_t>(uint64_t(Compressed.size()) * 4,
                                             4096, MaxMiniDebugInfoBytes));
  S.next_in = reinterpret_cast<const uint8_t *>(Compressed.data());
  S.avail_in = Compressed.size();
  S.next_out = reinterpret_cast<uint8_t *>(Out.data());
  S.avail_out = Out.size();
  lzma_ret R;
  // LZMA_FINISH: the input is all there is, so data that stops early ends
  // with LZMA_BUF_ERROR rather than a request for more.
  while ((R = Lib.Code(&S, LZMA_FINISH)) == LZMA_OK) {
    if (S.avail_out)
      continue;
    if (Out.size() >= MaxMiniDebugInfoBytes) {
      Lib.End(&S);
      return xzError("xz data that expands past " +
                     Twine(MaxMiniDebugInfoBytes >> 20) + " MiB");
    }
    size_t Done = Out.size();
    Out.resize(std::min<uint64_t>(Done * 2, MaxMiniDebugInfoBytes));
    S.next_out = reinterpret_cast<uint8_t *>(Out.data() + Done);
    S.avail_out = Out.size() - Done;
  }
  size_t Size = Out.size() - S.avail_out;
  Lib.End(&S);
  if (R != LZMA_STREAM_END)
    return xzError(describe(R));
  return MemoryBuffer::getMemBufferCopy(StringRef(Out.data(), Size),
                                        ".gnu_debugdata");
}
#else
Expected<std::unique_ptr<MemoryBuffer>> decompressXz(StringRef) {
  return xzError("this dwarfpack was built without liblzma's header "
                 "(liblzma-dev)");
}
#endif

} // namespace input
} // namespace dwarfpack
