//===- FuzzKsyms.cpp - Kernel symbol table readers ------------------------===//
//
// A compact table (recognised by its magic) is opened on both reader paths,
// the vector one and the portable one; anything else is opened as a
// ksym-blob directly (past isKsymBlob's structure check, to reach the
// reader's own checks), with and without an end address. Each reader is
// dumped, asked for symbols by index, by address and by name; when both
// paths open a compact table, their answers must agree.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dwarfpack/Kallsyms/SymbolReader.h"
#include "dwarfpack/Kallsyms/Writers.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::fuzz;
using namespace dwarfpack::kallsyms;

namespace {

/// One answer as text, for comparing the two paths.
std::string show(Expected<bool> Found, const SymbolInfo &S) {
  if (!Found) {
    consumeError(Found.takeError());
    return "error";
  }
  if (!*Found)
    return "none";
  return utohexstr(S.Address) + " " + (S.Size ? utohexstr(*S.Size) : "-") +
         " " + std::string(1, S.Type) + " " + S.Name + " [" + S.Module + "] " +
         Twine(S.Index).str();
}

std::string show(Expected<std::vector<SymbolInfo>> Found) {
  if (!Found) {
    consumeError(Found.takeError());
    return "error";
  }
  std::string Out;
  for (const SymbolInfo &S : *Found)
    Out += show(true, S) + "; ";
  return Out;
}

/// Exercises R and returns a transcript of its answers.
std::string exercise(const SymbolReader &R, StringRef Data) {
  std::string Log;
  AddressPicker Picker;
  Picker.addFromBytes(Data);
  CappedStream OS;
  if (Error E = R.dump(OS)) {
    consumeError(std::move(E));
    Log += "dump error; ";
  }
  Picker.addFromText(OS.Kept);
  if (R.endAddress())
    Picker.addAround(*R.endAddress());
  uint32_t N = R.numSymbols();
  SmallVector<uint32_t, 16> Indices = {0, 1, 2, N / 2, N - 2, N - 1, N};
  std::vector<std::string> Names = {"", "a", "_stext", "do_fork"};
  for (uint32_t I : Indices) {
    if (I >= N)
      continue;
    Expected<uint64_t> A = R.address(I);
    if (!A) {
      consumeError(A.takeError());
      Log += "address error; ";
      continue;
    }
    Picker.addAround(*A);
    SymbolInfo S;
    if (Error E = R.describe(I, S)) {
      consumeError(std::move(E));
      Log += "describe error; ";
    } else {
      Names.push_back(S.Name);
      Names.push_back(S.Name + "x");
      if (!S.Name.empty())
        Names.push_back(S.Name.substr(0, S.Name.size() - 1));
    }
    if (Error E = R.fillAddressAndSize(I, S)) {
      consumeError(std::move(E));
      Log += "size error; ";
    }
  }
  for (uint64_t A : Picker.addresses()) {
    SymbolInfo S;
    Log += show(R.lookupAddressInto(A, S), S) + "\n";
    Expected<LookupResult> L = R.lookup(A);
    if (!L)
      consumeError(L.takeError());
  }
  for (const std::string &Name : Names)
    Log += show(R.lookupName(Name)) + "\n";
  return Log;
}

std::unique_ptr<MemoryBuffer> copy(StringRef Data) {
  return MemoryBuffer::getMemBufferCopy(Data, "fuzz");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  if (isCompact(Data)) {
    std::string Logs[2];
    bool Opened[2] = {false, false};
    for (bool Portable : {false, true}) {
      ReaderOptions O;
      O.Portable = Portable;
      auto R = openCompact(copy(Data), O);
      if (!R) {
        consumeError(R.takeError());
        continue;
      }
      Opened[Portable] = true;
      Logs[Portable] = exercise(**R, Data);
    }
    if (Opened[0] != Opened[1])
      fail("only one reader path opens the table");
    if (Logs[0] != Logs[1])
      fail("the vector and portable readers disagree:\n" + Logs[0] +
           "\n----\n" + Logs[1]);
    return 0;
  }
  for (bool WithEnd : {false, true}) {
    std::optional<uint64_t> End;
    if (WithEnd)
      End = Size >= 8 ? support::endian::read64le(Bytes + Size - 8) : ~0ULL;
    auto R = openKsymBlob(copy(Data), End);
    if (!R) {
      consumeError(R.takeError());
      return 0;
    }
    keep(exercise(**R, Data).size());
  }
  return 0;
}
