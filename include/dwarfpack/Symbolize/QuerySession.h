//===- QuerySession.h - Answering llvm-symbolizer's queries ---------------===//
//
// A symbolization session as llvm-symbolizer runs one: queries (lines of
// stdin or arguments, InputLine.h) name an address or a symbol, and
// perhaps their module; each is answered from the table of its module and
// printed at once (ResultPrinter), so a profiler can keep the process open
// as a server. What cannot be answered prints the `??` record and a
// warning, and the session goes on.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_QUERYSESSION_H
#define DWARFPACK_SYMBOLIZE_QUERYSESSION_H

#include "dwarfpack/AddressTable/FunctionModel.h"
#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/InputLine.h"
#include "dwarfpack/Symbolize/OpenTable.h"
#include "dwarfpack/Symbolize/Printer.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"
#include "dwarfpack/Symbolize/TableStore.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace dwarfpack {

/// The table of one module, and its names for queries by symbol (gathered
/// on the first such query).
struct QueryModule {
  const AddressSymbolizer *Table = nullptr;
  /// How answers and warnings name the module (JSON's "ModuleName").
  std::string Name;
  std::unique_ptr<SymbolResolver> Names;
  /// What its answers lack (ObjectConversion::missing), and what its
  /// conversion reported, said once, at its first query.
  std::string Missing;
  std::vector<std::string> ConversionWarnings;
  /// For a table converted from an ELF object: that object, which answers
  /// DATA queries (tables record no variables).
  std::shared_ptr<ObjectDataSource> Data;

  /// The data symbol that holds Address: from the object when there is
  /// one (Problems gets what reading it found wrong, and why it could not
  /// be read, when it could not), else from the table, whose functions are
  /// its only symbols (FromObject is false then). std::nullopt: none holds
  /// it.
  llvm::Expected<std::optional<DataSymbol>>
  dataAt(uint64_t Address, std::vector<std::string> &Problems,
         bool &FromObject) const;
};

/// The tables that queries are answered from: one for every query, or the
/// module each query names, a table file by its path or a build-id's table
/// in a store.
class SessionTables {
public:
  explicit SessionTables(OpenOptions Opts = {}) : Opts(Opts) {}

  /// Every query is answered from Table (which must outlive this), named
  /// Name; DATA queries from Data when given (OpenedTable::Data).
  void setFixed(const AddressSymbolizer &Table, std::string Name,
                std::shared_ptr<ObjectDataSource> Data = nullptr);
  /// Build-ids are looked up in Store (which must outlive this); with
  /// BuildId, every query is of that module.
  void setStore(TableStore &Store,
                std::optional<llvm::SmallVector<uint8_t, 20>> BuildId);
  /// Every query is of the module of BuildId (llvm-symbolizer --build-id).
  void setBuildId(llvm::SmallVector<uint8_t, 20> BuildId) {
    StoreBuildId = std::move(BuildId);
  }

  /// The module of every query, when setFixed gave one; else nullptr.
  QueryModule *fixed() { return Fixed ? &*Fixed : nullptr; }
  /// What a query line may name.
  LineModules lineModules() const;
  /// The module Q asks about, as answers name it: a build-id in upper-case
  /// hex, as llvm-symbolizer prints it, or the file as the line names it.
  std::string moduleName(const InputLine &Q) const;
  /// The table of Q's module, opened on first use and kept. An error names
  /// why there is none; a later query looks again (a server sees tables
  /// added while it runs).
  llvm::Expected<QueryModule &> find(const InputLine &Q);
  /// The table of the module of BuildId: from the store, when there is
  /// one; else made, as FILE is, from its debug file, found as
  /// llvm-symbolizer finds it (debugFileOf()). Kept as find() keeps tables.
  llvm::Expected<QueryModule &> findBuildId(llvm::ArrayRef<uint8_t> BuildId);

private:
  /// Where the debug file of BuildId is: DIR/.build-id/xx/rest.debug (or
  /// DIR/xx/rest.debug) in each of the debug file directories, then in
  /// /usr/lib/debug, then fetched (ObjectOpenOptions::FetchDebugFile). An
  /// error says where it looked.
  llvm::Expected<std::string>
  debugFileOf(llvm::ArrayRef<uint8_t> BuildId) const;
  /// Makes M the module of the table T (as Name names it).
  static void adopt(QueryModule &M, OpenedTable &T, std::string Name,
                    std::vector<std::unique_ptr<AddressSymbolizer>> &Owned);

  OpenOptions Opts;
  std::optional<QueryModule> Fixed;
  TableStore *Store = nullptr;
  std::optional<llvm::SmallVector<uint8_t, 20>> StoreBuildId;
  /// By build-id (lower-case hex) or path.
  llvm::StringMap<QueryModule> ByBuildId, ByPath;
  /// Table files opened by path.
  std::vector<std::unique_ptr<AddressSymbolizer>> Owned;
};

/// A warning of a session. Once: a key under which the same problem recurs
/// (a module without a table), so that it can be reported once; empty when
/// it concerns one query only. Repeats: what the warnings of that key are
/// about, when their number is worth a total at the end ("'app': addresses
/// in no function of the table"); empty when it is not. Count: how many
/// queries had the problem; a warning with no Message only adds to the
/// total of a problem whose first warning came before (flushCounts()).
struct QueryWarning {
  std::string Message;
  std::string Once;
  std::string Repeats;
  uint64_t Count = 1;
};
using QueryWarningFn = std::function<void(const QueryWarning &)>;

struct SessionOptions {
  /// Numbers are offsets in the module's file, turned into addresses
  /// through the load segments its table records.
  bool FileOffsets = false;
  /// Each address is looked up minus this (llvm-symbolizer --adjust-vma).
  uint64_t AddressOffset = 0;
  /// Numbers are offsets in this section (addr2line -j, SectionOffsets.h):
  /// looked up at its start plus the offset; past its end, in no function.
  std::optional<AddressRange> Section;
};

class QuerySession {
public:
  QuerySession(SessionTables &Modules, ResultPrinter &Printer,
               SessionOptions Opts, QueryWarningFn Warn)
      : Modules(Modules), P(Printer), Opts(Opts), Warn(std::move(Warn)) {}

  /// Reads one query line (InputLine.h) and prints its answer. An empty
  /// line prints the `??` record without a warning (llvm-symbolizer's
  /// liveness probe).
  void answerLine(llvm::StringRef Line);
  /// The tables the session answers from.
  SessionTables &tables() { return Modules; }
  /// Prints the answer for Value (an address, or with FileOffsets a file
  /// offset) in Module; without WarnUnanswered, one that no function holds
  /// is not warned of (an end marker, isAddr2LineEndMarker).
  void answerAddress(QueryModule &Module, uint64_t Value,
                     QueryCommand Command = QueryCommand::Code,
                     bool WarnUnanswered = true);
  /// Prints the answer to a query by symbol name in Module; Rest is what
  /// followed it on the line (a kernel trace's `[module]`).
  void answerSymbol(QueryModule &Module, SymbolQuery Q, llvm::StringRef Rest,
                    QueryCommand Command = QueryCommand::Code);
  /// Passes on how many more queries had each problem of unanswered
  /// queries since the last call (warnings without a Message): the session
  /// warns of the first and only counts the others, which in a profile
  /// full of addresses no table knows would cost more than the lookups.
  void flushCounts();
  /// The position of the query about to be answered among its batch's
  /// lines (QueryBatch answers them out of order): of a problem's queries,
  /// the first in line order is the one warned of, as one session in line
  /// order would.
  void setQueryIndex(uint64_t Index) { QueryIndex = Index; }

  /// The values whose CODE query in Module is answered as the last query
  /// was, but for the value printed: [From, To). Set only by an
  /// answerAddress() that found frames by a lookup and warned of nothing;
  /// empty (Module null) after anything else. A batch in address order
  /// answers such a value with ResultPrinter::printAgain().
  struct SameAnswers {
    const QueryModule *Module = nullptr;
    uint64_t From = 0, To = 0;
    bool holds(const QueryModule &M, uint64_t Value) const {
      return Module == &M && Value >= From && Value < To;
    }
  };
  const SameAnswers &sameAnswers() const { return Same; }

private:
  void warn(const llvm::Twine &Message, llvm::StringRef Once = "",
            llvm::StringRef Repeats = "");
  /// Warns that Value (as queried) has no answer in Module: What (a
  /// literal) says why; a repeat is only counted.
  void warnUnanswered(const QueryModule &Module, uint64_t Value,
                      const char *What);
  /// The same for a query shown as Queried(); Total names the kind of
  /// problem in the count at the end ("addresses in no function ...").
  void warnUnanswered(const QueryModule &Module,
                      llvm::function_ref<std::string()> Queried,
                      const char *What, llvm::StringRef Total);
  /// Prints the unknown answer for Value, which is in no place that Module
  /// answers (What says why, as for warnUnanswered()).
  void answerNothing(const QueryModule &Module, uint64_t Value,
                     const char *What);
  /// Value as an address of Module's table; std::nullopt when the answer
  /// has been printed already (an offset outside every segment, an error).
  std::optional<uint64_t> toAddress(QueryModule &Module, uint64_t Value);
  void answerData(QueryModule &Module, uint64_t Value, uint64_t Address);
  /// Sets Same after Answer, the frames found for Value (Address in its
  /// table), has been printed.
  void noteSameAnswers(const QueryModule &Module, uint64_t Value,
                       uint64_t Address);
  void answerFrame(QueryModule &Module, uint64_t Value);
  /// Warns of what reading Module's object for DATA or FRAME answers found
  /// wrong with it.
  void warnObject(const QueryModule &Module, llvm::StringRef Command,
                  llvm::ArrayRef<std::string> Problems);

  SessionTables &Modules;
  ResultPrinter &P;
  SessionOptions Opts;
  QueryWarningFn Warn;
  bool WarnedFrame = false;
  /// The last answer by address, as views of its table's strings (or of
  /// its own storage, which serves the next one).
  FrameViews Answer;
  SameAnswers Same;
  /// Modules that could not be opened (by name).
  llvm::StringSet<> Failed;
  /// Each kind of unanswered query warned of (by module and What), and how
  /// many more there were since flushCounts().
  struct Unanswered {
    std::string Once, Total;
    uint64_t More = 0;
    uint64_t FirstIndex = 0; ///< QueryIndex of the query warned of last.
    bool InOrder = false;    ///< In RepeatOrder.
  };
  uint64_t QueryIndex = 0;
  llvm::MapVector<std::pair<const QueryModule *, const char *>, Unanswered>
      Repeats;
  /// The kinds of Repeats (indices) in the order of their first repeat,
  /// the order of the totals.
  std::vector<size_t> RepeatOrder;
};

} // namespace dwarfpack

#endif
