//===- SymbolReader.cpp - Lookups shared by kernel symbol table readers ---===//

#include "dwarfpack/Kallsyms/SymbolReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace dwarfpack;
using namespace dwarfpack::kallsyms;

Error SymbolReader::fillAddressAndSize(uint32_t I, SymbolInfo &Info) const {
  Expected<uint64_t> A = address(I);
  if (!A)
    return A.takeError();
  Info.Address = *A;
  Info.Index = I;
  Info.Size.reset();
  for (uint32_t J = I + 1; J < NumSyms; ++J) {
    Expected<uint64_t> B = address(J);
    if (!B)
      return B.takeError();
    if (*B != *A) {
      Info.Size = *B - *A;
      return Error::success();
    }
  }
  if (EndAddress && *EndAddress >= *A)
    Info.Size = *EndAddress - *A;
  return Error::success();
}

static unsigned leadingUnderscores(StringRef S) {
  return S.size() - S.ltrim('_').size();
}

Expected<SymbolInfo> SymbolReader::chooseCanonical(uint32_t First,
                                                   uint32_t Last) const {
  SymbolInfo Best;
  bool HaveBest = false;
  for (uint32_t I = First; I <= Last; ++I) {
    SymbolInfo Cand;
    if (Error E = describe(I, Cand))
      return std::move(E);
    Cand.Index = I;
    if (HaveBest) {
      bool CandGlobal = isUpper(Cand.Type), BestGlobal = isUpper(Best.Type);
      if (CandGlobal != BestGlobal) {
        if (!CandGlobal)
          continue;
      } else if (leadingUnderscores(Cand.Name) >=
                 leadingUnderscores(Best.Name)) {
        continue;
      }
    }
    Best = std::move(Cand);
    HaveBest = true;
  }
  return Best;
}

Expected<bool> SymbolReader::lookupAddressGeneric(uint64_t Addr,
                                                  SymbolInfo &Info) const {
  auto Found = findLastAtOrBelow(Addr);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return false;
  uint32_t Last = **Found;
  Expected<uint64_t> At = address(Last);
  if (!At)
    return At.takeError();
  // The alias group is every symbol at this address.
  uint32_t First = Last;
  while (First > 0) {
    Expected<uint64_t> B = address(First - 1);
    if (!B)
      return B.takeError();
    if (*B != *At)
      break;
    --First;
  }
  Expected<SymbolInfo> BestOr = chooseCanonical(First, Last);
  if (!BestOr)
    return BestOr.takeError();
  Info = std::move(*BestOr);
  uint32_t BestIndex = Info.Index;
  if (Error E = fillAddressAndSize(Last, Info))
    return std::move(E);
  Info.Index = BestIndex;
  // Past the known end of the last symbol: not ours.
  return !Info.Size || Addr - Info.Address < *Info.Size;
}

Expected<bool> SymbolReader::lookupAddressInto(uint64_t Addr,
                                               SymbolInfo &Info) const {
  return lookupAddressGeneric(Addr, Info);
}

Expected<std::optional<SymbolInfo>>
SymbolReader::lookupAddress(uint64_t Addr) const {
  SymbolInfo Info;
  Expected<bool> Found = lookupAddressInto(Addr, Info);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return std::nullopt;
  return std::optional<SymbolInfo>(std::move(Info));
}

Expected<std::vector<SymbolInfo>>
SymbolReader::lookupName(StringRef Name) const {
  std::vector<SymbolInfo> Out;
  if (Error E = lookupNameInto(Name, Out))
    return std::move(E);
  return Out;
}

Expected<LookupResult> SymbolReader::lookup(uint64_t Address) const {
  LookupResult R;
  R.Address = Address;
  auto S = lookupAddress(Address);
  if (!S)
    return S.takeError();
  if (*S) {
    SourceFrame F;
    F.FunctionName = std::string((*S)->Name);
    F.StartAddress = (*S)->Address;
    F.Size = (*S)->Size;
    F.Module = std::move((*S)->Module);
    F.SymbolType = (*S)->Type;
    R.Frames.push_back(std::move(F));
  }
  return R;
}

Expected<std::optional<std::vector<uint64_t>>>
SymbolReader::functionsNamed(StringRef Name) const {
  Expected<std::vector<SymbolInfo>> Found = lookupName(Name);
  if (!Found)
    return Found.takeError();
  std::vector<uint64_t> Starts;
  for (const SymbolInfo &S : *Found)
    Starts.push_back(S.Address);
  return Starts;
}

Expected<uint64_t> SymbolReader::kernelTextAddress() const {
  Expected<std::vector<SymbolInfo>> Found = lookupName("_text");
  if (!Found)
    return Found.takeError();
  for (const SymbolInfo &S : *Found)
    if (S.Module.empty())
      return S.Address;
  return createStringError(inconvertibleErrorCode(),
                           "the table has no '_text' symbol of the core "
                           "kernel (was it made from a kernel's symbols?)");
}

Error SymbolReader::dump(raw_ostream &OS) const {
  for (uint32_t I = 0; I < NumSyms; ++I) {
    Expected<uint64_t> A = address(I);
    if (!A)
      return A.takeError();
    SymbolInfo Info;
    if (Error E = describe(I, Info))
      return E;
    OS << format_hex_no_prefix(*A, 16) << ' ' << Info.Type << ' ' << Info.Name;
    if (!Info.Module.empty())
      OS << "\t[" << Info.Module << ']';
    OS << '\n';
  }
  return Error::success();
}
