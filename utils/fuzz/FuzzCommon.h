//===- FuzzCommon.h - Helpers shared by the libFuzzer targets -------------===//
//
// The targets feed untrusted bytes to dwarfpack's readers and parsers. A
// reader may refuse any input with an Error; what it must never do is crash,
// hang, read out of bounds or allocate without bound (the sanitizers and
// libFuzzer's limits catch those). Errors are consumed, never printed.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UTILS_FUZZ_FUZZCOMMON_H
#define DWARFPACK_UTILS_FUZZ_FUZZCOMMON_H

#include "dwarfpack/Symbolize/Frame.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace dwarfpack {
namespace fuzz {

/// Stops the run with a message: for a broken invariant the sanitizers do
/// not see (a round trip that does not round-trip).
[[noreturn]] inline void fail(const llvm::Twine &Message) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", Message.str().c_str());
  std::abort();
}

/// Keeps the first Limit bytes written to it and counts the rest: dumps
/// are printed in full (that is what is fuzzed) but only their start is
/// kept to pick lookup addresses from.
class CappedStream : public llvm::raw_ostream {
public:
  explicit CappedStream(size_t Limit = 1 << 16) : Limit(Limit) {
    SetUnbuffered();
  }
  std::string Kept;
  uint64_t Total = 0;

private:
  void write_impl(const char *Ptr, size_t Size) override {
    Total += Size;
    if (Kept.size() < Limit)
      Kept.append(Ptr, std::min(Size, Limit - Kept.size()));
  }
  uint64_t current_pos() const override { return Total; }
  size_t Limit;
};

/// Addresses worth looking up in a table made of Data: fixed corner values,
/// little-endian words read at a few places of the input, and hexadecimal
/// numbers printed by its dump (addresses of real entries and just around
/// them).
class AddressPicker {
public:
  AddressPicker() {
    for (uint64_t A :
         {uint64_t(0), uint64_t(1), uint64_t(0x10), uint64_t(0x1000),
          uint64_t(0x400000), ~uint64_t(0), ~uint64_t(0) - 1, uint64_t(1) << 63,
          uint64_t(0xffffffff81000000ULL)})
      add(A);
  }

  void add(uint64_t A) {
    if (Addrs.size() < MaxAddrs)
      Addrs.push_back(A);
  }
  /// A, A - 1 and A + 1.
  void addAround(uint64_t A) {
    add(A);
    add(A - 1);
    add(A + 1);
  }

  void addFromBytes(llvm::StringRef Data) {
    if (Data.size() < 8)
      return;
    // A handful of positions: header fields sit at the start.
    for (size_t Off : {size_t(8), size_t(16), size_t(24), size_t(32),
                       Data.size() / 2, Data.size() - 8})
      if (Off + 8 <= Data.size()) {
        uint64_t V = llvm::support::endian::read64le(Data.data() + Off);
        add(V);
        add(V & 0xffffffff);
      }
  }

  /// Hex numbers of 4 to 16 digits in Text (with or without 0x).
  void addFromText(llvm::StringRef Text, unsigned Max = 24) {
    unsigned Taken = 0;
    size_t I = 0;
    while (I < Text.size() && Taken < Max) {
      if (!llvm::isHexDigit(Text[I])) {
        ++I;
        continue;
      }
      size_t J = I;
      while (J < Text.size() && llvm::isHexDigit(Text[J]))
        ++J;
      bool WordStart = I == 0 || !llvm::isAlnum(Text[I - 1]) ||
                       (I >= 2 && Text[I - 1] == 'x' && Text[I - 2] == '0');
      if (WordStart && J - I >= 4 && J - I <= 16) {
        uint64_t V = 0;
        Text.slice(I, J).getAsInteger(16, V);
        addAround(V);
        ++Taken;
      }
      I = J;
    }
  }

  llvm::ArrayRef<uint64_t> addresses() const { return Addrs; }

private:
  static constexpr size_t MaxAddrs = 96;
  llvm::SmallVector<uint64_t, MaxAddrs> Addrs;
};

/// Looks every picked address up and lists every function, touching every
/// string of the answers so the sanitizers check the bytes they point to.
inline uint64_t lookupAll(const AddressSymbolizer &S,
                          const AddressPicker &Picker) {
  uint64_t Sum = 0;
  for (uint64_t A : Picker.addresses()) {
    llvm::Expected<LookupResult> R = S.lookup(A);
    if (!R) {
      llvm::consumeError(R.takeError());
      continue;
    }
    for (const SourceFrame &F : R->Frames) {
      for (char C : F.FunctionName)
        Sum += uint8_t(C);
      for (char C : F.FileName)
        Sum += uint8_t(C);
      for (char C : F.Module)
        Sum += uint8_t(C);
      Sum += F.Line + F.Column + F.StartAddress + F.Size.value_or(0) +
             F.SymbolType;
    }
  }
  // Every function's start and name (what places a kernel module's table).
  llvm::consumeError(
      S.forEachFunction([&](uint64_t Start, llvm::StringRef Name) {
        Sum += Start;
        for (char C : Name)
          Sum += uint8_t(C);
      }));
  return Sum;
}

/// Two files in one input (the targets' pair modes): the first file's size
/// as 4 bytes little-endian, its bytes, then the second file's bytes. An
/// input too short for the size it declares is not a pair.
inline std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
splitPair(llvm::StringRef Data) {
  if (Data.size() < 4)
    return std::nullopt;
  uint32_t N = llvm::support::endian::read32le(Data.data());
  if (N > Data.size() - 4)
    return std::nullopt;
  return std::make_pair(Data.substr(4, N), Data.substr(4 + N));
}

inline std::string joinPair(llvm::StringRef First, llvm::StringRef Second) {
  std::string Out(4, '\0');
  llvm::support::endian::write32le(Out.data(), uint32_t(First.size()));
  Out += First;
  Out += Second;
  return Out;
}

/// A copy of some bytes in an allocation of their own, exactly as long (so
/// that AddressSanitizer sees a read past the end, which inside a pair
/// would land in the other file) and aligned as malloc aligns (LLVM's ELF
/// reader needs it; a file inside a pair starts at any offset).
class OwnedBytes {
public:
  explicit OwnedBytes(llvm::StringRef Bytes)
      : Size(Bytes.size()), Data(new char[Bytes.size() ? Bytes.size() : 1]) {
    if (Size)
      std::memcpy(Data.get(), Bytes.data(), Size);
  }
  llvm::StringRef str() const { return llvm::StringRef(Data.get(), Size); }

private:
  size_t Size;
  std::unique_ptr<char[]> Data;
};

/// Sinks a value so the optimizer keeps the reads that made it.
inline void keep(uint64_t V) {
  static volatile uint64_t Sink;
  Sink = Sink + V;
}

} // namespace fuzz
} // namespace dwarfpack

#endif
