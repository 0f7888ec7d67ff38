//===- FunctionListTable.h - A table of listed functions, for tests -------===//

#ifndef DWARFPACK_UNITTESTS_SYMBOLIZE_FUNCTIONLISTTABLE_H
#define DWARFPACK_UNITTESTS_SYMBOLIZE_FUNCTIONLISTTABLE_H

#include "dwarfpack/Symbolize/Frame.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace dwarfpack {
namespace test {

/// Functions as (start, size, name); a lookup gives one frame of each
/// function the address falls in, its file Label and its line the offset
/// into the function. File offset O is loaded at O + Load, when set.
class FunctionListTable : public AddressSymbolizer {
public:
  std::string Label;
  std::vector<std::tuple<uint64_t, uint64_t, std::string>> Functions;
  /// (start, name) of functions that DWARF names otherwise.
  std::vector<std::pair<uint64_t, std::string>> DwarfNames;
  std::vector<uint8_t> Id;
  std::optional<uint64_t> Load;
  /// How many times forEachFunction listed the functions.
  mutable unsigned Listings = 0;

  llvm::Expected<LookupResult> lookup(uint64_t Address) const override {
    LookupResult R;
    R.Address = Address;
    for (const auto &[Start, Size, Name] : Functions)
      if (Address >= Start && Address < Start + Size) {
        SourceFrame F;
        F.FunctionName = Name;
        F.FileName = Label;
        F.Line = static_cast<uint32_t>(Address - Start);
        F.StartAddress = Start;
        R.Frames.push_back(F);
      }
    return R;
  }
  llvm::ArrayRef<uint8_t> uuid() const override { return Id; }
  llvm::Expected<std::optional<uint64_t>>
  fileOffsetToAddress(uint64_t Offset) const override {
    if (!Load)
      return AddressSymbolizer::fileOffsetToAddress(Offset);
    return std::optional<uint64_t>(Offset + *Load);
  }
  llvm::Error forEachFunction(
      llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const override {
    ++Listings;
    for (const auto &[Start, Size, Name] : Functions)
      Fn(Start, Name);
    return llvm::Error::success();
  }
  llvm::Error forEachDwarfName(
      llvm::function_ref<void(uint64_t, llvm::StringRef)> Fn) const override {
    for (const auto &[Start, Name] : DwarfNames)
      Fn(Start, Name);
    return llvm::Error::success();
  }
};

} // namespace test
} // namespace dwarfpack

#endif
