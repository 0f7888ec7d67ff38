//===- ObjectFrames.h - FRAME answers from an object's DWARF ----*- C++ -*-===//
//
// A FRAME query asks for the local variables of the function at a code
// address, as HWASan's reports ask llvm-symbolizer for the stack objects a
// bad access may have meant: per variable its function, name, declaration,
// offset from the frame base, size and memory tag offset. Address tables
// record no variables, so these answers are read from the object's DWARF
// itself, at the first FRAME query (ObjectDataSource), as LLVM 19's
// DWARFContext::getLocalsForAddress finds them.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_OBJECTFRAMES_H
#define DWARFPACK_SYMBOLIZE_OBJECTFRAMES_H

#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

class WarningLog;
namespace input {
struct InputWithDebugFile;
} // namespace input

/// The local variables of the functions of one object, by code address.
/// Only the units' ranges are read at first; a unit's functions and
/// variables are read when a query first falls in it (an HWASan report
/// asks about a few frames of a program of thousands of units).
class ObjectFrames {
public:
  ObjectFrames();
  ObjectFrames(ObjectFrames &&);
  ObjectFrames &operator=(ObjectFrames &&);
  ~ObjectFrames();

  /// Reads the ranges of the units of In's object (a unit whose ranges
  /// cannot be read is reported to Log and answers nothing) and keeps the
  /// object for the queries.
  static llvm::Expected<ObjectFrames>
  read(input::InputWithDebugFile In, WarningLog &Log, unsigned Threads = 1);

  /// What llvm-symbolizer 19 answers to FRAME at Address: the unit whose
  /// ranges hold it (the first in unit order), in it the innermost
  /// function or inlined call whose ranges hold it (from a skeleton's
  /// .dwo file), and every variable and parameter in that DIE's subtree,
  /// in DIE order. std::nullopt when no function holds Address. Problems:
  /// what reading the unit (at this call) found wrong with it. Safe to
  /// call from several threads.
  std::optional<std::vector<FrameLocal>>
  find(uint64_t Address, std::vector<std::string> *Problems = nullptr) const;

  /// A variable or parameter of a unit; strings index its Strings (0:
  /// none).
  struct Local {
    uint32_t Die = 0; ///< Its index in its unit, for its functions' subtrees.
    /// The innermost inlined call above it (its DIE index; UINT32_MAX:
    /// none) and that call's function name, which names the variable's
    /// function when the call is inside the function answering.
    uint32_t InlinedAt = UINT32_MAX, InlinedName = 0;
    uint32_t Name = 0, File = 0;
    uint64_t Line = 0;
    /// The frame base register of the inlined call's function (DW_OP_regN
    /// of its DW_AT_frame_base), when it has one.
    std::optional<uint8_t> InlinedBaseReg;
    /// Each location expression that may give a frame offset, in order
    /// (Unit::Offsets[OffsetsBegin, +NumOffsets)).
    uint32_t OffsetsBegin = 0, NumOffsets = 0;
    std::optional<uint64_t> Size, TagOffset;
  };
  /// Where a function or inlined call is innermost: [Low, High), its DIE
  /// and the end of its subtree (DIE indexes), its name.
  struct Span {
    uint64_t Low = 0, High = 0;
    uint32_t Die = 0, SubtreeEnd = 0, Name = 0;
    std::optional<uint8_t> BaseReg; ///< As Local::InlinedBaseReg.
  };
  /// A unit's functions and variables; strings index Strings.
  struct Unit {
    std::vector<Span> Spans;   ///< By Low, not overlapping.
    std::vector<Local> Locals; ///< By Die.
    /// DW_OP_fbreg or DW_OP_bregN and its offset, for each location
    /// expression of a variable that is one of them (LLVM takes the first
    /// that is DW_OP_fbreg or names the frame base register of the
    /// function answering).
    std::vector<std::pair<uint8_t, int64_t>> Offsets;
    std::vector<std::string> Strings{""};
  };
  /// Where a unit's ranges put it first: [Low, High) to unit Unit.
  struct UnitSpan {
    uint64_t Low = 0, High = 0;
    uint32_t Unit = 0;
  };

private:
  struct State;
  std::unique_ptr<State> S;
};

} // namespace dwarfpack

#endif
