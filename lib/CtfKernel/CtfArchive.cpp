//===- CtfArchive.cpp - Write CTF archives (libctf's v1 container) --------===//

#include "dwarfpack/CtfKernel/CtfArchive.h"
#include "dwarfpack/CTF/CtfFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace dwarfpack {
namespace ctfkernel {

namespace {
void put64(std::string &Out, size_t At, uint64_t V) {
  support::endian::write64le(&Out[At], V);
}
void append64(std::string &Out, uint64_t V) {
  char B[8];
  support::endian::write64le(B, V);
  Out.append(B, 8);
}
} // namespace

std::string writeCtfArchive(std::vector<ArchiveMember> Members) {
  // libctf looks members up by binary search over the name-sorted table.
  llvm::sort(Members, [](const ArchiveMember &A, const ArchiveMember &B) {
    return A.Name < B.Name;
  });
  constexpr uint64_t HeaderSize = 40, ModentSize = 16;
  constexpr uint64_t ModelLP64 = 2; // CTF_MODEL_LP64
  std::string Out(HeaderSize + ModentSize * Members.size(), '\0');
  uint64_t Ctfs = Out.size();
  std::string Names;
  for (size_t I = 0; I < Members.size(); ++I) {
    const ArchiveMember &M = Members[I];
    put64(Out, HeaderSize + ModentSize * I, Names.size());
    put64(Out, HeaderSize + ModentSize * I + 8, Out.size() - Ctfs);
    Names += M.Name;
    Names.push_back('\0');
    append64(Out, M.Dict.size());
    Out += M.Dict;
    Out.resize(alignTo(Out.size(), 8), '\0');
  }
  uint64_t NamesOff = Out.size();
  Out += Names;
  put64(Out, 0, ctf::ArchiveMagic);
  put64(Out, 8, ModelLP64);
  put64(Out, 16, Members.size());
  put64(Out, 24, NamesOff);
  put64(Out, 32, Ctfs);
  return Out;
}

} // namespace ctfkernel
} // namespace dwarfpack
