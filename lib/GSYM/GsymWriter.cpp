//===- GsymWriter.cpp - FunctionModel to LLVM GSYM V1 bytes ---------------===//

#include "dwarfpack/GSYM/GsymWriter.h"
#include "dwarfpack/GSYM/GsymFormat.h"
#include "dwarfpack/Support/LEB128.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LEB128.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <limits>

using namespace llvm;

namespace dwarfpack {
namespace gsym {

namespace {

/// Appends fixed-width integers in one byte order, and LEB128 values.
class ByteWriter {
public:
  ByteWriter(std::string &Buf, bool LittleEndian)
      : Buf(Buf),
        Order(LittleEndian ? llvm::endianness::little : llvm::endianness::big) {
  }

  uint64_t tell() const { return Buf.size(); }
  void u8(uint8_t V) { Buf.push_back(char(V)); }
  template <typename T> void fixed(T V) {
    char Bytes[sizeof(T)];
    support::endian::write<T>(Bytes, V, Order);
    Buf.append(Bytes, sizeof(T));
  }
  void u16(uint16_t V) { fixed(V); }
  void u32(uint32_t V) { fixed(V); }
  void u64(uint64_t V) { fixed(V); }
  void uleb(uint64_t V) { appendULEB128(Buf, V); }
  void alignTo(uint64_t A) {
    while (Buf.size() % A)
      Buf.push_back(0);
  }
  void fixup32(uint64_t Offset, uint32_t V) {
    support::endian::write<uint32_t>(&Buf[Offset], V, Order);
  }

private:
  std::string &Buf;
  llvm::endianness Order;
};

/// Numbers strings and files in first-use order.
class Tables {
public:
  explicit Tables(const FunctionModel &M) : Model(M) {
    Strtab.push_back('\0'); // offset 0 is ""
    FileIndex.assign(M.numFiles(), 0);
    GsymFiles.push_back({0, 0}); // file 0 is the empty entry
  }

  uint32_t string(StringRef S) {
    if (S.empty())
      return 0;
    auto [It, Inserted] = StringOffsets.try_emplace(S, 0);
    if (Inserted) {
      It->second = Strtab.size();
      Strtab.append(S.data(), S.size());
      Strtab.push_back('\0');
      ++NumStrings;
    }
    return It->second;
  }

  uint32_t file(FileId Id) {
    if (Id == 0 || Id >= FileIndex.size())
      return 0;
    uint32_t &Idx = FileIndex[Id];
    if (!Idx) {
      // A path the model keeps whole is split as llvm-gsymutil splits
      // every path: GSYM has no way to say it was whole.
      FileEntry F = Model.file(Id);
      if (F.Dir.empty())
        std::tie(F.Dir, F.Base) = splitPath(F.Base);
      uint32_t D = string(F.Dir);
      uint32_t B = string(F.Base);
      Idx = GsymFiles.size();
      GsymFiles.push_back({D, B});
    }
    return Idx;
  }

  /// Lookups for pass 2, which may run on several threads: the tables are
  /// complete and no longer change. A miss is an internal error.
  uint32_t stringOf(StringRef S) const {
    if (S.empty())
      return 0;
    auto It = StringOffsets.find(S);
    if (It == StringOffsets.end()) {
      Missing = true;
      return 0;
    }
    return It->second;
  }
  uint32_t fileOf(FileId Id) const {
    if (Id == 0 || Id >= FileIndex.size())
      return 0;
    if (!FileIndex[Id])
      Missing = true;
    return FileIndex[Id];
  }

  void addNode(const InlineNode &N) {
    string(N.Name);
    file(N.CallFile);
    for (const InlineNode &C : N.Children)
      addNode(C);
  }

  const FunctionModel &Model;
  std::string Strtab;
  uint64_t NumStrings = 0;
  DenseMap<StringRef, uint32_t> StringOffsets;
  std::vector<uint32_t> FileIndex; // model FileId -> GSYM index (0: unused)
  std::vector<std::pair<uint32_t, uint32_t>> GsymFiles;
  mutable std::atomic<bool> Missing{false};
};

bool rangesContain(ArrayRef<AddressRange> Rs, const AddressRange &R) {
  for (const AddressRange &X : Rs)
    if (X.contains(R))
      return true;
  return false;
}

Error encodeNode(const InlineNode &N, uint64_t Base, const Tables &T,
                 ByteWriter &W, uint64_t &NumNodes) {
  if (N.Ranges.empty())
    return createStringError(inconvertibleErrorCode(),
                             "inline node '%s' has no address range",
                             N.Name.str().c_str());
  W.uleb(N.Ranges.size());
  for (const AddressRange &R : N.Ranges) {
    if (R.Start < Base || R.End <= R.Start)
      return createStringError(inconvertibleErrorCode(),
                               "bad inline range in '%s'",
                               N.Name.str().c_str());
    W.uleb(R.Start - Base);
    W.uleb(R.size());
  }
  W.u8(N.Children.empty() ? 0 : 1);
  W.u32(T.stringOf(N.Name));
  W.uleb(T.fileOf(N.CallFile));
  W.uleb(N.CallLine);
  if (N.Children.empty())
    return Error::success();
  uint64_t ChildBase = N.Ranges.front().Start;
  for (const InlineNode &C : N.Children) {
    for (const AddressRange &R : C.Ranges)
      if (!rangesContain(N.Ranges, R))
        return createStringError(inconvertibleErrorCode(),
                                 "inline range of '%s' not contained in "
                                 "its parent '%s'",
                                 C.Name.str().c_str(), N.Name.str().c_str());
    ++NumNodes;
    if (Error E = encodeNode(C, ChildBase, T, W, NumNodes))
      return E;
  }
  W.uleb(0);
  return Error::success();
}

} // namespace

/// Name 0 is invalid in a FunctionInfo; unnamed code gets "??", which is
/// what symbolizers print for it.
static StringRef functionName(const FunctionEntry &F) {
  return F.Name.empty() ? StringRef("??") : F.Name;
}

uint8_t addressOffsetSize(uint64_t MaxOffset) {
  if (MaxOffset <= UINT8_MAX)
    return 1;
  if (MaxOffset <= UINT16_MAX)
    return 2;
  if (MaxOffset <= UINT32_MAX)
    return 4;
  return 8;
}

static bool encodeSpecial(int64_t MinDelta, int64_t MaxDelta, int64_t LineDelta,
                          uint64_t AddrDelta, uint8_t &Op) {
  if (LineDelta < MinDelta || LineDelta > MaxDelta)
    return false;
  int64_t Range = MaxDelta - MinDelta + 1;
  // Large address deltas cannot be special opcodes; avoid overflow.
  if (AddrDelta > 255)
    return false;
  int64_t V = (LineDelta - MinDelta) + int64_t(AddrDelta) * Range +
              int64_t(FirstSpecial);
  if (V < 0 || V > 255)
    return false;
  Op = uint8_t(V);
  return true;
}

Error encodeLineTable(ArrayRef<LineEntry> Rows, uint64_t FuncStart,
                      std::string &Out) {
  if (Rows.empty())
    return createStringError(inconvertibleErrorCode(), "empty line table");
  // Histogram of line deltas between consecutive rows (the first row is not
  // a delta), sorted by delta.
  int64_t MinDelta = 0, MaxDelta = 0;
  if (Rows.size() > 1) {
    std::vector<std::pair<int64_t, uint32_t>> Hist;
    MinDelta = std::numeric_limits<int64_t>::max();
    MaxDelta = std::numeric_limits<int64_t>::min();
    for (size_t I = 1; I < Rows.size(); ++I) {
      int64_t D = int64_t(Rows[I].Line) - int64_t(Rows[I - 1].Line);
      auto Pos = std::lower_bound(Hist.begin(), Hist.end(), D,
                                  [](const std::pair<int64_t, uint32_t> &P,
                                     int64_t V) { return P.first < V; });
      if (Pos != Hist.end() && Pos->first == D)
        ++Pos->second;
      else
        Hist.insert(Pos, {D, 1});
      MinDelta = std::min(MinDelta, D);
      MaxDelta = std::max(MaxDelta, D);
    }
    // Too wide for special opcodes: take the window of at most MaxLineRange
    // that holds the most rows (the first such window on ties).
    if (MaxDelta - MinDelta > MaxLineRange) {
      size_t Best = 0, BestEnd = 0;
      uint64_t BestCount = 0;
      for (size_t I = 0; I < Hist.size(); ++I) {
        uint64_t Count = 0;
        size_t J = I;
        for (; J < Hist.size(); ++J) {
          if (Hist[J].first - Hist[I].first > MaxLineRange)
            break;
          Count += Hist[J].second;
        }
        if (Count > BestCount) {
          Best = I;
          BestEnd = J - 1;
          BestCount = Count;
        }
      }
      MinDelta = Hist[Best].first;
      MaxDelta = Hist[BestEnd].first;
    }
  }
  if (MinDelta == MaxDelta && MinDelta > 0 && MinDelta < MaxLineRange)
    MinDelta = 0;

  appendSLEB128(Out, MinDelta);
  appendSLEB128(Out, MaxDelta);
  appendULEB128(Out, Rows.front().Line);
  uint64_t PrevAddr = FuncStart;
  uint32_t PrevFile = 1;
  int64_t PrevLine = Rows.front().Line;
  for (const LineEntry &R : Rows) {
    if (R.Address < PrevAddr)
      return createStringError(inconvertibleErrorCode(),
                               "line rows not ascending at 0x%" PRIx64,
                               R.Address);
    uint64_t AddrDelta = R.Address - PrevAddr;
    int64_t LineDelta = int64_t(R.Line) - PrevLine;
    if (R.File != PrevFile) {
      Out.push_back(char(SetFile));
      appendULEB128(Out, R.File);
    }
    uint8_t Op;
    if (encodeSpecial(MinDelta, MaxDelta, LineDelta, AddrDelta, Op)) {
      Out.push_back(char(Op));
    } else {
      if (LineDelta != 0) {
        Out.push_back(char(AdvanceLine));
        appendSLEB128(Out, LineDelta);
      }
      Out.push_back(char(AdvancePC));
      appendULEB128(Out, AddrDelta);
    }
    PrevAddr = R.Address;
    PrevFile = R.File;
    PrevLine = R.Line;
  }
  Out.push_back(char(EndSequence));
  return Error::success();
}

namespace {
/// The FunctionInfo records of functions [Begin, End), each aligned to 4
/// relative to the start of Buf (chunks are joined at multiples of 4).
struct EncodedChunk {
  std::string Buf;
  std::vector<uint32_t> Offsets; // of each record in Buf
  uint64_t Rows = 0, Nodes = 0;
  std::string Error; // empty: fine
};

void encodeChunk(const std::vector<FunctionEntry> &Fs, size_t Begin, size_t End,
                 const Tables &T, bool LittleEndian, EncodedChunk &C) {
  ByteWriter W(C.Buf, LittleEndian);
  std::string LinePayload;
  SmallVector<LineEntry, 64> Mapped;
  C.Offsets.reserve(End - Begin);
  for (size_t I = Begin; I < End; ++I) {
    const FunctionEntry &F = Fs[I];
    if (F.Range.size() == 0 || F.Range.size() > UINT32_MAX) {
      C.Error = formatv("function '{0}' at {1:x} has an unencodable size {2}",
                        F.Name, F.Range.Start, F.Range.size())
                    .str();
      return;
    }
    if (I && Fs[I - 1].Range.Start >= F.Range.Start) {
      C.Error = formatv("functions not sorted at {0:x}", F.Range.Start).str();
      return;
    }
    W.alignTo(4);
    if (W.tell() > UINT32_MAX) {
      C.Error = "function data beyond 4 GiB";
      return;
    }
    C.Offsets.push_back(W.tell());
    W.u32(F.Range.size());
    W.u32(T.stringOf(functionName(F)));
    if (!F.Lines.empty()) {
      LinePayload.clear();
      Mapped.clear();
      // GSYM has no columns nor discriminators: rows that differ from the
      // previous one only there say nothing more to a GSYM reader.
      for (const LineEntry &L : F.Lines) {
        uint32_t File = T.fileOf(L.File);
        if (!Mapped.empty() && Mapped.back().File == File &&
            Mapped.back().Line == L.Line)
          continue;
        LineEntry G;
        G.Address = L.Address;
        G.File = File;
        G.Line = L.Line;
        Mapped.push_back(G);
      }
      if (Error E = encodeLineTable(Mapped, F.Range.Start, LinePayload)) {
        C.Error =
            ("function '" + F.Name + "': " + toString(std::move(E))).str();
        return;
      }
      W.u32(LineTableInfo);
      W.u32(LinePayload.size());
      C.Buf.append(LinePayload);
      C.Rows += Mapped.size();
    }
    if (F.Inline) {
      W.u32(InlineInfo);
      uint64_t LenAt = W.tell();
      W.u32(0);
      if (Error E = encodeNode(*F.Inline, F.Range.Start, T, W, C.Nodes)) {
        C.Error = toString(std::move(E));
        return;
      }
      W.fixup32(LenAt, W.tell() - LenAt - 4);
    }
    W.u32(EndOfList);
    W.u32(0);
  }
}
} // namespace

Expected<std::string> encodeGsym(const FunctionModel &M, WriteStats *Stats,
                                 unsigned Threads) {
  const std::vector<FunctionEntry> &Fs = M.functions();
  if (Fs.empty())
    return createStringError(inconvertibleErrorCode(), "no functions to write");
  if (Fs.size() > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(),
                             "too many functions for GSYM: %zu", Fs.size());
  if (M.UUID.size() > MaxUUIDSize)
    return createStringError(inconvertibleErrorCode(),
                             "UUID of %zu bytes is longer than GSYM's %u",
                             M.UUID.size(), MaxUUIDSize);

  // Addresses below the image base (unusual layouts) lower the base.
  uint64_t Base = std::min(M.BaseAddress, Fs.front().Range.Start);
  uint8_t AOS = addressOffsetSize(Fs.back().Range.Start - Base);

  // Pass 1: strings and files in first-use order.
  Tables T(M);
  uint64_t Rows = 0, Nodes = 0;
  for (const FunctionEntry &F : Fs) {
    T.string(functionName(F));
    for (const LineEntry &L : F.Lines)
      T.file(L.File);
    if (F.Inline)
      T.addNode(*F.Inline);
  }

  std::string Buf;
  ByteWriter W(Buf, M.IsLittleEndian);
  uint64_t N = Fs.size();
  uint64_t AddrOffsetsAt = HeaderSize;
  uint64_t InfoOffsetsAt = alignTo(AddrOffsetsAt + N * AOS, 4);
  uint64_t FileTableAt = InfoOffsetsAt + N * 4;
  uint64_t StrtabAt = FileTableAt + 4 + T.GsymFiles.size() * 8;
  if (StrtabAt + T.Strtab.size() > UINT32_MAX)
    return createStringError(inconvertibleErrorCode(),
                             "string table beyond 4 GiB");
  Buf.reserve(StrtabAt + T.Strtab.size() + 4);

  // Header.
  W.u32(Magic);
  W.u16(Version);
  W.u8(AOS);
  W.u8(M.UUID.size());
  W.u64(Base);
  W.u32(N);
  W.u32(StrtabAt);
  W.u32(T.Strtab.size());
  for (unsigned I = 0; I < MaxUUIDSize; ++I)
    W.u8(I < M.UUID.size() ? M.UUID[I] : 0);

  // Address offsets, then room for the FunctionInfo offsets.
  for (const FunctionEntry &F : Fs) {
    uint64_t Off = F.Range.Start - Base;
    switch (AOS) {
    case 1:
      W.u8(Off);
      break;
    case 2:
      W.u16(Off);
      break;
    case 4:
      W.u32(Off);
      break;
    default:
      W.u64(Off);
    }
  }
  W.alignTo(4);
  assert(W.tell() == InfoOffsetsAt);
  Buf.append(N * 4, '\0');

  W.u32(T.GsymFiles.size());
  for (auto [Dir, BaseName] : T.GsymFiles) {
    W.u32(Dir);
    W.u32(BaseName);
  }
  assert(W.tell() == StrtabAt);
  Buf.append(T.Strtab);

  // FunctionInfos, each aligned to 4, encoded in chunks (in parallel when
  // asked) and joined in order: the bytes do not depend on Threads.
  W.alignTo(4);
  if (Threads == 0)
    Threads = llvm::hardware_concurrency().compute_thread_count();
  size_t NumChunks = std::min<size_t>(N, Threads <= 1 ? 1 : Threads * 8);
  std::vector<EncodedChunk> Chunks(NumChunks);
  auto Encode = [&](size_t C) {
    encodeChunk(Fs, N * C / NumChunks, N * (C + 1) / NumChunks, T,
                M.IsLittleEndian, Chunks[C]);
  };
  if (NumChunks <= 1) {
    Encode(0);
  } else {
    DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t C = 0; C < NumChunks; ++C)
      Pool.async([&, C] { Encode(C); });
    Pool.wait();
  }
  uint64_t Total = Buf.size();
  for (EncodedChunk &C : Chunks) {
    if (!C.Error.empty())
      return createStringError(inconvertibleErrorCode(), C.Error);
    Total += C.Buf.size() + 3;
  }
  Buf.reserve(Total);
  uint64_t Index = 0;
  for (EncodedChunk &C : Chunks) {
    W.alignTo(4); // the chunk's first record
    uint64_t At = Buf.size();
    for (uint32_t Off : C.Offsets) {
      if (At + Off > UINT32_MAX)
        return createStringError(inconvertibleErrorCode(),
                                 "function data beyond 4 GiB");
      W.fixup32(InfoOffsetsAt + 4 * Index++, At + Off);
    }
    Buf.append(C.Buf);
    Rows += C.Rows;
    Nodes += C.Nodes;
    C = EncodedChunk();
  }
  // Pass 1 must have named every string and file.
  if (T.Missing)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: a string or file was not "
                             "numbered before the tables were written");
  if (Stats) {
    Stats->Functions = N;
    Stats->LineRows = Rows;
    Stats->InlineNodes = Nodes;
    Stats->Strings = T.NumStrings;
    Stats->Files = T.GsymFiles.size() - 1;
    Stats->Bytes = Buf.size();
  }
  return Buf;
}

} // namespace gsym
} // namespace dwarfpack
