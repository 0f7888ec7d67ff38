//===- PackObject.cpp - Every output of one object from one walk ----------===//

#include "dwarfpack/Pipeline/PackObject.h"
#include "dwarfpack/DwarfInput/InputObject.h"
#include "dwarfpack/Support/FileErrors.h"
#include "dwarfpack/Support/Stopwatch.h"
#include "dwarfpack/Types/TypeTableBuilder.h"

#include "llvm/Support/Threading.h"

#include <future>

using namespace llvm;

namespace dwarfpack {
namespace pipeline {

Expected<std::string> encodeTable(const FunctionModel &Model,
                                  TableFormat Format, unsigned Threads,
                                  gsym::WriteStats *Stats,
                                  compact::WriteStats *Compact, bool Details) {
  gsym::WriteStats WS;
  if (Format == TableFormat::Gsym) {
    Expected<std::string> Bytes = gsym::encodeGsym(Model, &WS, Threads);
    if (Stats)
      *Stats = WS;
    return Bytes;
  }
  compact::WriteStats CWS;
  compact::WriteOptions Options;
  Options.Details = Details;
  Options.Threads = Threads;
  Expected<std::string> Bytes = compact::encodeCompact(Model, &CWS, Options);
  // Compact's figures mapped onto GSYM's, for reports of either format.
  WS.Functions = CWS.Functions;
  WS.LineRows = CWS.LineRows;
  WS.InlineNodes = CWS.InlineNodes;
  WS.Strings = CWS.Names + CWS.Paths;
  WS.Files = CWS.Files;
  WS.Bytes = CWS.Bytes;
  if (Stats)
    *Stats = WS;
  if (Compact)
    *Compact = CWS;
  return Bytes;
}

Expected<std::unique_ptr<PackResult>> packObject(const input::InputObject &Obj,
                                                 const PackOptions &Opts,
                                                 WarningLog &Log) {
  auto R = std::make_unique<PackResult>();
  unsigned Threads = Opts.NumThreads
                         ? Opts.NumThreads
                         : hardware_concurrency().compute_thread_count();
  Stopwatch Start;
  R->Convert.DebugBytes = Obj.debugBytes();
  std::vector<input::WalkItem> Units = input::compileUnits(Obj);
  R->HasDwarf = !Units.empty();
  R->Convert.CompileUnits = Units.size();

  // One walk, a visitor per model.
  SmallVector<input::UnitVisitor *, 2> Visitors;
  std::unique_ptr<FunctionVisitor> Functions;
  std::unique_ptr<types::TypeTableBuilder> Types;
  if (Opts.AddressTable) {
    if (Error E = readModuleIdentity(Obj, R->Model, Log))
      return createFileError(Obj.path(), std::move(E));
    Functions = std::make_unique<FunctionVisitor>(Obj, R->Model);
    Visitors.push_back(Functions.get());
  }
  if (Opts.Types && R->HasDwarf) {
    Types = std::make_unique<types::TypeTableBuilder>(Obj, Log, Threads);
    Visitors.push_back(Types.get());
  }
  // The symbol tables' functions, and the symbol table order the dict
  // follows, are read beside the walk.
  const std::launch Beside =
      Threads > 1 ? std::launch::async : std::launch::deferred;
  std::future<std::vector<SymbolFunction>> Symbols;
  if (Functions)
    Symbols = std::async(Beside, [&] { return collectSymbolFunctions(Obj); });
  std::future<std::optional<ctf::SymtabOrder>> Order;
  if (Types && !Opts.IndexedSymbols)
    Order = std::async(
        Beside, [&] { return std::optional(ctf::symtabOrder(Obj.object())); });
  input::WalkOptions W;
  W.Threads = Threads;
  W.Progress = Opts.Progress;
  if (Error E = input::walkUnits(Obj, Units, Visitors, W, Log)) {
    if (Symbols.valid())
      Symbols.wait();
    if (Order.valid())
      Order.wait();
    return createFileError(Obj.path(), std::move(E));
  }
  if (Functions) {
    R->Convert.DwarfFunctions = Functions->numDwarfFunctions();
    R->Convert.SymbolFunctions = addSymbolFunctions(Symbols.get(), R->Model);
  } else {
    // The type model copied the names it keeps; the address model's point
    // into .debug_str. Without one, nothing reads the section again.
    Obj.releaseSectionPrefix(input::Sec::Str,
                             Obj.dwarf().section(input::Sec::Str).size());
  }
  R->Times.Walk = Start.seconds();

  // The type model's tail and dict, beside the address model's: the two
  // share nothing but the object, which is only read.
  Stopwatch Tail;
  std::future<Error> TypeSide;
  if (Types) {
    auto Run = [&]() -> Error {
      Stopwatch T0;
      types::BuildOptions BO;
      BO.NumThreads = Threads;
      Expected<types::BuildResult> B = Types->finish(BO, Log);
      if (!B)
        return B.takeError();
      B->NumUnits = Units.size();
      R->Types = std::move(*B);
      R->Times.Types = T0.seconds();
      std::optional<ctf::SymtabOrder> Symtab;
      if (Order.valid())
        Symtab = Order.get();
      ctf::WriteOptions WO = Opts.Ctf;
      WO.Threads = Threads;
      WO.Symtab = Symtab ? &*Symtab : nullptr;
      Expected<std::string> Dict =
          ctf::writeDict(R->Types->Table, WO, &R->CtfStats);
      if (!Dict)
        return Dict.takeError();
      R->Ctf = std::move(*Dict);
      return Error::success();
    };
    TypeSide = std::async(Threads > 1 && Functions ? std::launch::async
                                                   : std::launch::deferred,
                          Run);
  }
  Error AddressError = Error::success();
  if (Functions) {
    Stopwatch T0;
    R->Model.finalize(Log);
    R->Times.Finalize = T0.seconds();
    if (!R->Model.functions().empty()) {
      Expected<std::string> Bytes =
          encodeTable(R->Model, Opts.Format, Threads, &R->TableStats,
                      &R->CompactStats, Opts.TableDetails);
      if (Bytes)
        R->Table = std::move(*Bytes);
      else
        AddressError = Bytes.takeError();
    }
  }
  Error TypeError = TypeSide.valid() ? TypeSide.get() : Error::success();
  R->Times.Tail = Tail.seconds();
  Error Failures[] = {std::move(AddressError), std::move(TypeError)};
  if (Error E = fileErrors(Obj.path(), Failures))
    return std::move(E);
  return std::move(R);
}

} // namespace pipeline
} // namespace dwarfpack
