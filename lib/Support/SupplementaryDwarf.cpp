//===- SupplementaryDwarf.cpp - dwz's common DWARF file -------------------===//

#include "dwarfpack/Support/SupplementaryDwarf.h"
#include "dwarfpack/Support/BuildId.h"
#include "dwarfpack/Support/DieExtents.h"
#include "dwarfpack/Support/DwarfSections.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace llvm;

namespace dwarfpack {

namespace {
Error malformed(StringRef Section, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "malformed " + Section + ": " + What);
}

/// A .debug_sup section (DWARF 5): version, is_supplementary, the name of
/// the supplementary file (empty in that file itself), a checksum.
struct DebugSup {
  bool IsSupplementary = false;
  StringRef File, Checksum;
};

Expected<DebugSup> parseDebugSup(StringRef Contents, bool LittleEndian) {
  DataExtractor Data(Contents, LittleEndian, 0);
  DataExtractor::Cursor Cur(0);
  uint16_t Version = Data.getU16(Cur);
  DebugSup S;
  S.IsSupplementary = Data.getU8(Cur);
  S.File = Data.getCStrRef(Cur);
  uint64_t Len = Data.getULEB128(Cur);
  S.Checksum = Data.getBytes(Cur, Len);
  if (!Cur)
    return malformed(".debug_sup", toString(Cur.takeError()));
  if (Version != 5)
    return malformed(".debug_sup", "version " + Twine(Version));
  return S;
}

/// What a supplementary file is known by: its build-id, else the checksum
/// of its own .debug_sup.
std::string identity(const object::ObjectFile &O) {
  ArrayRef<uint8_t> Id = gnuBuildId(O);
  if (!Id.empty())
    return toStringRef(Id).str();
  for (const object::SectionRef &S : O.sections()) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      continue;
    }
    if (*N != ".debug_sup")
      continue;
    Expected<StringRef> C = S.getContents();
    if (!C) {
      consumeError(C.takeError());
      return {};
    }
    Expected<DebugSup> Sup = parseDebugSup(*C, O.isLittleEndian());
    if (!Sup) {
      consumeError(Sup.takeError());
      return {};
    }
    return Sup->Checksum.str();
  }
  return {};
}

// One lock for every supplementary file: die() may extract DIEs (a unit
// of a single DIE is extracted again on each lookup), and DWARFUnit does not
// lock.
std::mutex DieMutex;
} // namespace

SupplementaryDwarf::~SupplementaryDwarf() = default;

Expected<std::optional<std::string>>
findSupplementaryFile(const object::ObjectFile &Obj, StringRef InputPath) {
  StringRef Name;
  ArrayRef<uint8_t> Id;
  bool Named = false;
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> SN = S.getName();
    if (!SN) {
      consumeError(SN.takeError());
      continue;
    }
    if (*SN != ".gnu_debugaltlink" && *SN != ".debug_sup")
      continue;
    Expected<StringRef> C = S.getContents();
    if (!C)
      return malformed(*SN, toString(C.takeError()));
    if (*SN == ".gnu_debugaltlink") {
      // The file's path, a NUL, then its build-id.
      size_t Nul = C->find('\0');
      if (Nul == StringRef::npos || Nul == 0)
        return malformed(*SN, "no NUL-terminated file name");
      Name = C->take_front(Nul);
      Id = arrayRefFromStringRef(C->drop_front(Nul + 1));
    } else {
      Expected<DebugSup> Sup = parseDebugSup(*C, Obj.isLittleEndian());
      if (!Sup)
        return Sup.takeError();
      if (Sup->IsSupplementary)
        return std::nullopt; // this is a supplementary file itself
      if (Sup->File.empty())
        return malformed(*SN, "no file name");
      Name = Sup->File;
      Id = arrayRefFromStringRef(Sup->Checksum);
    }
    Named = true;
  }
  if (!Named)
    return std::nullopt;

  SmallVector<std::string, 2> Candidates;
  if (sys::path::is_absolute(Name)) {
    Candidates.push_back(Name.str());
  } else {
    SmallString<256> P = sys::path::parent_path(InputPath);
    sys::path::append(P, Name);
    Candidates.push_back(std::string(P));
  }
  if (Id.size() >= 2) {
    std::string Hex = toHex(Id, /*LowerCase=*/true);
    Candidates.push_back("/usr/lib/debug/.build-id/" + Hex.substr(0, 2) + "/" +
                         Hex.substr(2) + ".debug");
  }
  std::string Mismatch;
  for (const std::string &C : Candidates) {
    if (!sys::fs::exists(C))
      continue;
    Expected<object::OwningBinary<object::Binary>> B = object::createBinary(C);
    if (!B)
      return createFileError(C, B.takeError());
    auto *O = dyn_cast<object::ObjectFile>(B->getBinary());
    if (!O)
      return createFileError(
          C, createStringError(inconvertibleErrorCode(), "not an object file"));
    std::string Found = identity(*O);
    if (!Id.empty() && Found != toStringRef(Id)) {
      Mismatch = "'" + C + "' has build-id " +
                 (Found.empty() ? "(none)" : toHex(Found, true)) +
                 ", not the " + toHex(Id, true) + " expected; ";
      continue;
    }
    return C;
  }
  std::string Looked;
  for (const std::string &C : Candidates)
    Looked += (Looked.empty() ? "'" : ", '") + C + "'";
  return createStringError(inconvertibleErrorCode(),
                           Mismatch + "supplementary DWARF file '" + Name +
                               "' (dwz) not found (looked for " + Looked + ")");
}

Expected<std::unique_ptr<SupplementaryDwarf>>
SupplementaryDwarf::open(const object::ObjectFile &Obj, StringRef InputPath) {
  Expected<std::optional<std::string>> Found =
      findSupplementaryFile(Obj, InputPath);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return nullptr;
  const std::string &C = **Found;
  Expected<object::OwningBinary<object::Binary>> B = object::createBinary(C);
  if (!B)
    return createFileError(C, B.takeError());
  auto [Binary, Buffer] = B->takeBinary();
  std::unique_ptr<object::ObjectFile> O(
      dyn_cast<object::ObjectFile>(Binary.get()));
  if (!O)
    return createFileError(
        C, createStringError(inconvertibleErrorCode(), "not an object file"));
  Binary.release();
  std::unique_ptr<SupplementaryDwarf> S(new SupplementaryDwarf());
  S->Path = C;
  S->Bin =
      object::OwningBinary<object::ObjectFile>(std::move(O), std::move(Buffer));
  SupplementaryDwarf *Raw = S.get();
  auto Keep = [Raw](Error E) {
    if (Raw->Opened)
      consumeError(std::move(E));
    else
      Raw->Problems.push_back(
          toString(createFileError(Raw->Path, std::move(E))));
  };
  if (Error E = checkDebugSectionsReadable(*S->Bin.getBinary()))
    return createFileError(C, std::move(E));
  S->Ctx = DWARFContext::create(*S->Bin.getBinary(),
                                DWARFContext::ProcessDebugRelocations::Ignore,
                                nullptr, "", Keep, Keep);
  if (Error E = checkDieExtents(*S->Ctx))
    return createFileError(C, std::move(E));
  for (const auto &U : S->Ctx->info_section_units())
    U->getUnitDIE(/*ExtractUnitDIEOnly=*/false);
  S->Str = S->Ctx->getDWARFObj().getStrSection();
  S->Opened = true;
  return std::move(S);
}

std::unique_ptr<SupplementaryDwarf>
SupplementaryDwarf::openReporting(const object::ObjectFile &Obj,
                                  StringRef InputPath, WarningLog &Log,
                                  StringRef Consequence) {
  Expected<std::unique_ptr<SupplementaryDwarf>> S = open(Obj, InputPath);
  if (!S) {
    std::string Msg = toString(S.takeError());
    if (!Consequence.empty())
      Msg += ": " + Consequence.str();
    Log.report("missing-supplementary", Msg);
    return nullptr;
  }
  if (*S)
    for (const std::string &P : (*S)->problems())
      Log.report("dwarf-warning", P);
  return std::move(*S);
}

const char *SupplementaryDwarf::string(uint64_t Offset) const {
  if (Offset >= Str.size())
    return nullptr;
  size_t End = Str.find('\0', Offset);
  return End == StringRef::npos ? nullptr : Str.data() + Offset;
}

DWARFDie SupplementaryDwarf::die(uint64_t Offset) const {
  std::lock_guard<std::mutex> Lock(DieMutex);
  return Ctx->getDIEForOffset(Offset);
}

DWARFDie referencedDie(const DWARFDie &D, const DWARFFormValue &V,
                       const SupplementaryDwarf *Sup) {
  DWARFDie Target;
  if (SupplementaryDwarf::isReferenceForm(V.getForm()))
    Target = Sup ? Sup->die(V.getRawUValue()) : DWARFDie();
  else
    Target = D.getAttributeValueAsReferencedDie(V);
  // A reference may land on a null entry (the end of a list of children),
  // which has no abbreviation: DWARFDie::attributes() dereferences it.
  return Target && !Target.isNULL() ? Target : DWARFDie();
}

Expected<const char *> stringOf(const DWARFFormValue &V,
                                const SupplementaryDwarf *Sup) {
  if (!SupplementaryDwarf::isStringForm(V.getForm()))
    return V.getAsCString();
  if (!Sup)
    return createStringError(inconvertibleErrorCode(),
                             "a string of the supplementary DWARF file "
                             "(dwz), which is not available");
  if (const char *S = Sup->string(V.getRawUValue()))
    return S;
  return createStringError(inconvertibleErrorCode(),
                           "string offset 0x" + utohexstr(V.getRawUValue()) +
                               " is past the end of the .debug_str of '" +
                               Sup->path() + "'");
}

DWARFFormValue inlineSupplementaryString(const DWARFFormValue &V,
                                         const SupplementaryDwarf *Sup) {
  if (Sup && SupplementaryDwarf::isStringForm(V.getForm()))
    if (const char *S = Sup->string(V.getRawUValue()))
      return DWARFFormValue::createFromPValue(dwarf::DW_FORM_string, S);
  return V;
}

const char *subroutineName(const DWARFDie &Start,
                           const SupplementaryDwarf *Sup) {
  // The linkage name anywhere along the chain first, then the name, as
  // DWARFDie::getName(DINameKind::LinkageName) does.
  for (const auto &Attrs :
       {std::initializer_list<dwarf::Attribute>{dwarf::DW_AT_linkage_name,
                                                dwarf::DW_AT_MIPS_linkage_name},
        std::initializer_list<dwarf::Attribute>{dwarf::DW_AT_name}}) {
    SmallVector<DWARFDie, 4> Work{Start};
    SmallPtrSet<const void *, 8> Seen{Start.getDebugInfoEntry()};
    for (unsigned Steps = 0; !Work.empty() && Steps < 16; ++Steps) {
      DWARFDie D = Work.pop_back_val();
      for (dwarf::Attribute A : Attrs)
        if (std::optional<DWARFFormValue> V = D.find(A)) {
          Expected<const char *> S = stringOf(*V, Sup);
          if (S && *S)
            return *S;
          if (!S)
            consumeError(S.takeError());
        }
      for (dwarf::Attribute A :
           {dwarf::DW_AT_abstract_origin, dwarf::DW_AT_specification}) {
        DWARFDie Next = referencedDie(D, A, Sup);
        if (Next && Seen.insert(Next.getDebugInfoEntry()).second)
          Work.push_back(Next);
      }
    }
  }
  return nullptr;
}

} // namespace dwarfpack
