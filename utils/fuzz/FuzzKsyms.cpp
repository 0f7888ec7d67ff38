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
         " " + std::string(1, S.Type) + " " + std::string(S.Name) + " [" +
         S.Module + "] " + Twine(S.Index).str();
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

/// What to ask a reader: symbols by index, addresses, names.
struct Questions {
  SmallVector<uint32_t, 8> Indices;
  AddressPicker Addrs;
  std::vector<std::string> Names = {"", "a", "_stext", "do_fork"};
};

/// Questions about R's table: indices at the ends and the middle, the
/// addresses and names found there, addresses from the input and the dump.
Questions ask(const SymbolReader &R, StringRef Data) {
  Questions Q;
  Q.Addrs.addFromBytes(Data);
  CappedStream OS;
  consumeError(R.dump(OS));
  Q.Addrs.addFromText(OS.Kept);
  if (R.endAddress())
    Q.Addrs.addAround(*R.endAddress());
  uint32_t N = R.numSymbols();
  for (uint32_t I : {0u, 1u, 2u, N / 2, N - 2, N - 1, N}) {
    Q.Indices.push_back(I);
    if (I >= N)
      continue;
    Expected<uint64_t> A = R.address(I);
    if (!A)
      consumeError(A.takeError());
    else
      Q.Addrs.addAround(*A);
    SymbolInfo S;
    if (Error E = R.describe(I, S)) {
      consumeError(std::move(E));
      continue;
    }
    std::string Name(S.Name);
    Q.Names.push_back(Name);
    Q.Names.push_back(Name + "x");
    if (!Name.empty())
      Q.Names.push_back(Name.substr(0, Name.size() - 1));
  }
  return Q;
}

/// R's answers to Q, one string per question ("error" for an error).
std::vector<std::string> answer(const SymbolReader &R, const Questions &Q) {
  std::vector<std::string> Log;
  CappedStream OS;
  if (Error E = R.dump(OS)) {
    consumeError(std::move(E));
    Log.push_back("error");
  } else {
    Log.push_back(OS.Kept);
  }
  for (uint32_t I : Q.Indices) {
    Expected<uint64_t> A = R.address(I);
    if (!A) {
      consumeError(A.takeError());
      Log.push_back("error");
    } else {
      Log.push_back(utohexstr(*A));
    }
    SymbolInfo S;
    if (Error E = R.describe(I, S)) {
      consumeError(std::move(E));
      Log.push_back("error");
    } else {
      Log.push_back(show(true, S));
    }
    SymbolInfo F;
    if (Error E = R.fillAddressAndSize(I, F)) {
      consumeError(std::move(E));
      Log.push_back("error");
    } else {
      Log.push_back(show(true, F));
    }
  }
  for (uint64_t A : Q.Addrs.addresses()) {
    SymbolInfo S;
    Log.push_back(show(R.lookupAddressInto(A, S), S));
    Expected<LookupResult> L = R.lookup(A);
    if (!L)
      consumeError(L.takeError());
  }
  for (const std::string &Name : Q.Names)
    Log.push_back(show(R.lookupName(Name)));
  return Log;
}

std::unique_ptr<MemoryBuffer> copy(StringRef Data) {
  return MemoryBuffer::getMemBufferCopy(Data, "fuzz");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  StringRef Data(reinterpret_cast<const char *>(Bytes), Size);
  if (isCompact(Data)) {
    std::unique_ptr<SymbolReader> Readers[2];
    for (bool Portable : {false, true}) {
      ReaderOptions O;
      O.Portable = Portable;
      auto R = openCompact(copy(Data), O);
      if (!R)
        consumeError(R.takeError());
      else
        Readers[Portable] = std::move(*R);
    }
    bool Opened[2] = {Readers[0] != nullptr, Readers[1] != nullptr};
    if (!Opened[0] && !Opened[1])
      return 0;
    std::vector<std::string> Logs[2];
    if (Opened[0] && Opened[1]) {
      Questions Q = ask(*Readers[1], Data);
      Logs[0] = answer(*Readers[0], Q);
      Logs[1] = answer(*Readers[1], Q);
    }
    if (Opened[0] != Opened[1])
      fail("only one reader path opens the table");
    // Where both paths answer they must agree. On a corrupt block one may
    // still answer what the other refuses: the vector path checks only the
    // records it reads, the portable one every record before them.
    if (Logs[0].size() != Logs[1].size())
      fail("the reader paths answered different questions");
    for (size_t I = 0; I < Logs[0].size(); ++I)
      if (Logs[0][I] != Logs[1][I] && Logs[0][I] != "error" &&
          Logs[1][I] != "error")
        fail("the vector and portable readers disagree on question " +
             Twine(I) + ":\n  vector:   " + Logs[0][I] +
             "\n  portable: " + Logs[1][I]);
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
    keep(answer(**R, ask(**R, Data)).size());
  }
  return 0;
}
