//===- YamlObject.h - Test objects made from yaml2obj's text ----*- C++ -*-===//
//
// Unit tests make their ELF inputs from yaml2obj's text, as lit tests do in
// their RUN lines. Header-only: each component's test binary includes it.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_UNITTESTS_YAMLOBJECT_H
#define DWARFPACK_UNITTESTS_YAMLOBJECT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ObjectYAML/yaml2obj.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace dwarfpack {
namespace test {

/// The start of yaml2obj's text for a little-endian x86-64 ELF file of
/// Type (ET_EXEC, ET_REL); sections and DWARF follow.
inline std::string elfYamlHeader(llvm::StringRef Type) {
  return "--- !ELF\n"
         "FileHeader:\n"
         "  Class:   ELFCLASS64\n"
         "  Data:    ELFDATA2LSB\n"
         "  Type:    " +
         Type.str() +
         "\n"
         "  Machine: EM_X86_64\n";
}

/// The bytes yaml2obj makes of Yaml; a test failure (and whatever was made)
/// when it cannot.
inline std::string yamlObject(llvm::StringRef Yaml) {
  llvm::SmallString<0> Bytes;
  llvm::raw_svector_ostream OS(Bytes);
  llvm::yaml::Input In(Yaml);
  EXPECT_TRUE(llvm::yaml::convertYAML(
      In, OS, [](const llvm::Twine &M) { ADD_FAILURE() << M.str(); }));
  return std::string(Bytes);
}

/// The object yaml2obj makes of Yaml, written to a temporary file (named
/// in Path, for the caller to remove) and mapped from it, as a program's
/// input is; null when it cannot be.
inline std::unique_ptr<llvm::MemoryBuffer>
mapYamlObject(llvm::StringRef Yaml, llvm::SmallVectorImpl<char> &Path) {
  std::string Bytes = yamlObject(Yaml);
  int Fd;
  if (Bytes.empty() ||
      llvm::sys::fs::createTemporaryFile("dwarfpack-test", "o", Fd, Path))
    return nullptr;
  {
    llvm::raw_fd_ostream Out(Fd, /*shouldClose=*/true);
    Out << Bytes;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  return Buf ? std::move(*Buf) : nullptr;
}

} // namespace test
} // namespace dwarfpack

#endif
