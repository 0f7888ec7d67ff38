//===- SplitDwarf.cpp - Units whose DIEs live in .dwo or .dwp files -------===//

#include "dwarfpack/Support/SplitDwarf.h"
#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/DwarfSections.h"
#include "dwarfpack/Support/SplitUnitSearch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"

#include <atomic>

using namespace llvm;

namespace dwarfpack {

bool isSkeletonUnit(DWARFUnit &U) {
  if (U.isDWOUnit() || U.isTypeUnit())
    return false;
  if (U.getUnitType() == dwarf::DW_UT_skeleton)
    return true;
  if (U.getVersion() >= 5)
    return false;
  DWARFDie D = U.getUnitDIE(/*ExtractUnitDIEOnly=*/true);
  return D && D.find(dwarf::DW_AT_GNU_dwo_name);
}

struct SplitDwarfLoader::File {
  object::OwningBinary<object::ObjectFile> Binary;
  std::unique_ptr<DWARFContext> Ctx;
  std::atomic<unsigned> Problems{0};
  /// Why an existing file could not be opened (empty when it was, or when
  /// there is no such file).
  std::string OpenError;
};

SplitDwarfLoader::SplitDwarfLoader(StringRef InputPath, StringRef Package,
                                   bool ThreadSafe)
    : InputPath(InputPath.str()), Package(Package.str()),
      ThreadSafe(ThreadSafe) {}

SplitDwarfLoader::~SplitDwarfLoader() = default;

SplitDwarfLoader::File *SplitDwarfLoader::open(StringRef Path,
                                               DWARFContext &Parent,
                                               bool ReportOpenError) {
  auto [It, New] = Files.try_emplace(Path);
  if (!New)
    return It->second && It->second->Ctx ? It->second.get() : nullptr;
  auto F = std::make_unique<File>();
  File *Raw = F.get();
  It->second = std::move(F);
  if (!sys::fs::exists(Path))
    return nullptr;
  Expected<object::OwningBinary<object::ObjectFile>> Bin =
      object::ObjectFile::createObjectFile(Path);
  if (!Bin) {
    Raw->OpenError = toString(Bin.takeError());
    if (ReportOpenError)
      Parent.getWarningHandler()(createFileError(
          Path, createStringError(inconvertibleErrorCode(), Raw->OpenError)));
    return nullptr;
  }
  Raw->Binary = std::move(*Bin);
  if (Error E = checkDebugSectionsReadable(*Raw->Binary.getBinary())) {
    // Unusable, as a file that does not open.
    Raw->OpenError = toString(std::move(E));
    if (ReportOpenError)
      Parent.getWarningHandler()(createFileError(
          Path, createStringError(inconvertibleErrorCode(), Raw->OpenError)));
    return nullptr;
  }
  // The parent's handlers live in its context, which outlives this loader.
  function_ref<void(Error)> OnError = Parent.getRecoverableErrorHandler();
  function_ref<void(Error)> OnWarning = Parent.getWarningHandler();
  std::string Name = Path.str();
  Raw->Ctx = DWARFContext::create(
      *Raw->Binary.getBinary(), DWARFContext::ProcessDebugRelocations::Ignore,
      nullptr, "",
      [OnError, Name, Raw](Error E) {
        ++Raw->Problems;
        OnError(createFileError(Name, std::move(E)));
      },
      [OnWarning, Name, Raw](Error E) {
        ++Raw->Problems;
        OnWarning(createFileError(Name, std::move(E)));
      },
      ThreadSafe);
  if (Error E = checkDieExtents(*Raw->Ctx)) {
    // Unusable, as a file that does not open.
    Raw->OpenError = toString(std::move(E));
    if (ReportOpenError)
      Parent.getWarningHandler()(createFileError(
          Path, createStringError(inconvertibleErrorCode(), Raw->OpenError)));
    Raw->Ctx.reset();
    return nullptr;
  }
  return Raw;
}

Expected<DWARFUnit *> SplitDwarfLoader::fullUnit(DWARFUnit &U,
                                                 bool ExtractAll) {
  if (!isSkeletonUnit(U))
    return &U;
  DWARFDie CU = U.getUnitDIE();
  std::optional<const char *> Name = dwarf::toString(
      CU.find({dwarf::DW_AT_dwo_name, dwarf::DW_AT_GNU_dwo_name}));
  std::optional<SplitUnitSearch> Search = SplitUnitSearch::forSkeleton(
      InputPath, Package, Name.value_or(nullptr), U.getCompilationDir(),
      U.getDWOId(), U.getOffset());
  if (!Search)
    return &U; // nothing to load: the skeleton is all there is
  DWARFContext &Parent = U.getContext();
  DWARFCompileUnit *Full = nullptr;
  auto Try = [&](StringRef Path, bool ReportOpenError, std::string &OpenError) {
    File *F = open(Path, Parent, ReportOpenError);
    if (!F) {
      if (const std::unique_ptr<File> &G = Files[Path])
        OpenError = G->OpenError;
      return SplitUnitSearch::Outcome::NotOpened;
    }
    Full = F->Ctx->getDWOCompileUnitForHash(*Search->dwoId());
    return Full ? SplitUnitSearch::Outcome::Found
                : SplitUnitSearch::Outcome::NoUnit;
  };
  if (Error E = Search->run(Try))
    return std::move(E);
  // What LLVM does when it loads a .dwo itself: the full unit reads its
  // addresses (DW_FORM_addrx) and, in DWARF 4, its ranges from the
  // skeleton's file, and knows its skeleton (for DW_AT_decl_file).
  Full->setSkeletonUnit(&U);
  if (std::optional<uint64_t> Base = U.getAddrOffsetSectionBase())
    Full->setAddrOffsetSection(&Parent.getDWARFObj().getAddrSection(), *Base);
  if (U.getVersion() == 4)
    Full->setRangesSection(&Parent.getDWARFObj().getRangesSection(),
                           CU.getRangesBaseAttribute().value_or(0));
  if (!Full->getUnitDIE(/*ExtractUnitDIEOnly=*/!ExtractAll))
    return createStringError(inconvertibleErrorCode(),
                             "split DWARF unit at 0x" +
                                 utohexstr(U.getOffset()) + ": its unit in '" +
                                 sourceOf(*Full)->Path +
                                 "' has no readable DIE");
  return Full;
}

std::optional<SplitDwarfLoader::Source>
SplitDwarfLoader::sourceOf(const DWARFUnit &Full) const {
  for (const auto &E : Files)
    if (E.second && E.second->Ctx.get() == &Full.getContext())
      return Source{E.first(), E.second->Problems};
  return std::nullopt;
}

} // namespace dwarfpack
