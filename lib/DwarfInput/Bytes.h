//===- Bytes.h - Bounded reads of untrusted DWARF bytes ---------*- C++ -*-===//
//
// The decoder's primitives: every read names its end and fails (rather than
// guessing) on truncation and on LEB128 values wider than 64 bits.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_LIB_DWARFINPUT_BYTES_H
#define DWARFPACK_LIB_DWARFINPUT_BYTES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Endian.h"

#include <cstdint>

namespace dwarfpack {
namespace input {

/// N bytes (1 to 8) at P in the given byte order.
inline uint64_t readFixed(const char *P, unsigned N, bool LE) {
  using namespace llvm::support;
  if (LE) {
    switch (N) {
    case 1:
      return uint8_t(*P);
    case 2:
      return endian::read16le(P);
    case 4:
      return endian::read32le(P);
    case 8:
      return endian::read64le(P);
    }
  } else {
    switch (N) {
    case 1:
      return uint8_t(*P);
    case 2:
      return endian::read16be(P);
    case 4:
      return endian::read32be(P);
    case 8:
      return endian::read64be(P);
    }
  }
  uint64_t V = 0;
  for (unsigned I = 0; I < N; ++I)
    V |= uint64_t(uint8_t(P[LE ? I : N - 1 - I])) << (8 * I);
  return V;
}

/// ULEB128 at Off of S, not past End (Off is advanced past it).
inline bool readULEB(llvm::StringRef S, uint64_t &Off, uint64_t End,
                     uint64_t &V) {
  if (LLVM_LIKELY(Off < End && !(S[Off] & 0x80))) {
    V = uint8_t(S[Off++]);
    return true;
  }
  V = 0;
  unsigned Shift = 0;
  while (true) {
    if (Off >= End)
      return false;
    uint8_t B = S[Off++];
    uint64_t Slice = B & 0x7f;
    if (Shift >= 64 || (Shift == 63 && Slice > 1))
      return false;
    V |= Slice << Shift;
    Shift += 7;
    if (!(B & 0x80))
      return true;
  }
}

/// SLEB128 at Off of S, not past End.
inline bool readSLEB(llvm::StringRef S, uint64_t &Off, uint64_t End,
                     int64_t &V) {
  uint64_t R = 0;
  unsigned Shift = 0;
  uint8_t B;
  do {
    if (Off >= End || Shift >= 64)
      return false;
    B = S[Off++];
    uint64_t Slice = B & 0x7f;
    if (Shift == 63 && Slice != 0 && Slice != 0x7f)
      return false;
    R |= Slice << Shift;
    Shift += 7;
  } while (B & 0x80);
  if (Shift < 64 && (B & 0x40))
    R |= ~uint64_t(0) << Shift;
  V = int64_t(R);
  return true;
}

/// A cursor over bytes [Off, End) of S that turns any read past End into a
/// sticky failure.
class Cursor {
public:
  Cursor(llvm::StringRef S, uint64_t Off, uint64_t End, bool LE)
      : S(S), Off(Off), End(End), LE(LE) {}
  uint64_t fixed(unsigned N) {
    if (Failed || End - Off < N || Off > End) {
      Failed = true;
      return 0;
    }
    uint64_t V = readFixed(S.data() + Off, N, LE);
    Off += N;
    return V;
  }
  uint64_t uleb() {
    uint64_t V = 0;
    if (!Failed && !readULEB(S, Off, End, V))
      Failed = true;
    return V;
  }
  int64_t sleb() {
    int64_t V = 0;
    if (!Failed && !readSLEB(S, Off, End, V))
      Failed = true;
    return V;
  }
  /// N bytes at the cursor (empty on failure).
  llvm::StringRef bytes(uint64_t N) {
    if (Failed || Off > End || End - Off < N) {
      Failed = true;
      return llvm::StringRef();
    }
    llvm::StringRef B = S.substr(Off, N);
    Off += N;
    return B;
  }
  uint64_t offset() const { return Off; }
  bool failed() const { return Failed; }
  bool atEnd() const { return Off >= End; }

private:
  llvm::StringRef S;
  uint64_t Off, End;
  bool LE;
  bool Failed = false;
};

} // namespace input
} // namespace dwarfpack

#endif
