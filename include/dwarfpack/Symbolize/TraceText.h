//===- TraceText.h - Frames in profiler and kernel trace text ---*- C++ -*-===//
//
// `dwarfpack lookup --annotate` reads the text people paste into bug
// reports and profiles: kernel oops, WARN and stack-trace lines (dmesg, with
// or without timestamps), `perf script` samples and llvm-symbolizer's input
// lines. scanTraceLine finds the frames in one line (their bytes and what
// they ask for); TraceAnnotator has a resolver answer each one and rebuilds
// the line as the kernel's scripts/decode_stacktrace.sh does: the frame
// becomes its function with the source location, and inlined frames get
// lines of their own. Lines without frames, and frames nothing answers, are
// kept byte for byte, so a malformed line is never damaged.
//
//===----------------------------------------------------------------------===//

#ifndef DWARFPACK_SYMBOLIZE_TRACETEXT_H
#define DWARFPACK_SYMBOLIZE_TRACETEXT_H

#include "dwarfpack/Symbolize/Frame.h"
#include "dwarfpack/Symbolize/SymbolQuery.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dwarfpack {

enum class FrameKind {
  /// printk's %pS: `NAME+0xOFF/0xSIZE`, maybe followed by the module word
  /// `[module]` or, with CONFIG_STACKTRACE_BUILD_ID, `[module buildid]`.
  KernelSymbol,
  /// `[<hex>]`: a kernel address, as older traces print them.
  KernelAddress,
  /// A `perf script` frame: `HEX SYMBOL (DSO)`, as a callchain line or at
  /// the end of a sample's line.
  PerfFrame,
  /// A number written `0x...` anywhere in a line.
  Address,
  /// A line as llvm-symbolizer reads it from stdin:
  /// `[CODE|DATA] [FILE | BUILDID:hex] ADDRESS-or-SYMBOL`.
  Query,
};

/// One frame found in a line, and the bytes its annotation replaces.
struct TraceFrame {
  FrameKind Kind = FrameKind::Address;
  /// The annotation replaces bytes [Begin, End) of the line; when they are
  /// equal it is inserted there (after an address), with a space first.
  size_t Begin = 0, End = 0;
  /// The function as the line names it, printed instead of the table's
  /// name; empty when the line names none.
  std::string Name;
  /// The address the line gives.
  std::optional<uint64_t> Address;
  /// What to look up by name, when the line gives a name and the offset
  /// into it (Module: the kernel module the line names).
  std::optional<SymbolQuery> Symbol;
  /// The kernel module's build-id of `[module buildid]`, or the module of a
  /// query's `BUILDID:`.
  llvm::SmallVector<uint8_t, 20> BuildId;
  /// perf's DSO (`/usr/lib/libc.so.6`, `[kernel.kallsyms]`), or the FILE of
  /// a query line.
  std::string Object;
  /// A call trace's frame other than the faulting one: its address is the
  /// one after a call, so the call is one byte before it.
  bool ReturnAddress = false;
};

/// The frames of Line, in the order they appear. Total over any bytes:
/// what does not parse exactly is no frame.
std::vector<TraceFrame> scanTraceLine(llvm::StringRef Line);

/// Whether Line is text that `lookup --annotate` reads and a query line
/// is not: a perf script frame or event, or a kernel trace's frame after
/// other text (`[<address>]`, or `NAME+OFF/SIZE` after a log prefix).
/// `lookup` says so of its stdin, whose every such line answers `??`.
bool looksLikeTraceText(llvm::StringRef Line);

struct AnnotateOptions {
  /// Demangle the names tables give (the names a line gives are kept).
  bool Demangle = true;
  /// One extra line per inlined frame; otherwise the function only.
  bool Inlines = true;
  /// Look return addresses up one byte before them, at the call, as
  /// decode_stacktrace.sh does (its -R turns that off).
  bool AdjustReturnAddresses = true;
};

/// Answers one frame: the frames at its address, innermost first; none when
/// nothing answers. An error says why a table could not answer.
using FrameResolver =
    llvm::function_ref<llvm::Expected<LookupResult>(const TraceFrame &)>;

class TraceAnnotator {
public:
  explicit TraceAnnotator(AnnotateOptions Opts = {}) : Opts(Opts) {}

  /// Line (without its line break) annotated: each frame that Resolve
  /// answers becomes `NAME (FILE:LINE)`, NAME as the line gives it or the
  /// outermost function's; in a line of one frame, each of its inlined
  /// frames gets a line before it, innermost first, as a stack lists them:
  /// the text before the frame, then `NAME (FILE:LINE) (inlined)`. The
  /// lines are joined by '\n'. A
  /// frame without a source location keeps its bytes, but an address gets
  /// its function's name. Errors go to OnError; their frames keep their
  /// bytes.
  std::string annotate(llvm::StringRef Line, FrameResolver Resolve,
                       llvm::function_ref<void(llvm::Error)> OnError) const;

private:
  std::string location(const SourceFrame &F) const;
  std::string name(const SourceFrame &F) const;

  AnnotateOptions Opts;
};

} // namespace dwarfpack

#endif
