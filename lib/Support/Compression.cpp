//===- Compression.cpp - zlib streams written in parallel -----------------===//

#include "dwarfpack/Support/Compression.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <zlib.h>

#include <algorithm>
#include <vector>

using namespace llvm;

namespace dwarfpack {

namespace {

/// Raw deflate of Data[Begin, End), primed with the window before Begin.
/// Every chunk but the last ends with a sync flush (no final bit).
bool deflateChunk(ArrayRef<uint8_t> Data, size_t Begin, size_t End, int Level,
                  std::vector<uint8_t> &Out) {
  z_stream S{};
  if (deflateInit2(&S, Level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return false;
  bool Ok = true;
  if (Begin > 0) {
    size_t Dict = std::min<size_t>(Begin, 32768);
    Ok = deflateSetDictionary(&S, Data.data() + Begin - Dict, uInt(Dict)) ==
         Z_OK;
  }
  bool Last = End == Data.size();
  // Bound of one deflate call plus the sync-flush marker.
  Out.resize(deflateBound(&S, uLong(End - Begin)) + 16);
  S.next_in = const_cast<Bytef *>(Data.data() + Begin);
  S.avail_in = uInt(End - Begin);
  S.next_out = Out.data();
  S.avail_out = uInt(Out.size());
  if (Ok) {
    int R = deflate(&S, Last ? Z_FINISH : Z_SYNC_FLUSH);
    Ok = Last ? R == Z_STREAM_END : R == Z_OK && S.avail_in == 0;
  }
  Out.resize(S.total_out);
  deflateEnd(&S);
  return Ok;
}

} // namespace

Error compressZlib(ArrayRef<uint8_t> Data, unsigned Threads,
                   SmallVectorImpl<uint8_t> &Out, int Level) {
  if (Level < 1 || Level > 9)
    return createStringError(inconvertibleErrorCode(),
                             "zlib level %d out of range", Level);
  size_t NumChunks =
      std::max<size_t>(1, (Data.size() + ZlibChunkSize - 1) / ZlibChunkSize);
  std::vector<std::vector<uint8_t>> Pieces(NumChunks);
  std::vector<char> Ok(NumChunks, 0);
  auto Run = [&](size_t I) {
    size_t Begin = I * ZlibChunkSize;
    size_t End = std::min(Data.size(), Begin + ZlibChunkSize);
    Ok[I] = deflateChunk(Data, Begin, End, Level, Pieces[I]);
  };
  unsigned N =
      Threads ? Threads : hardware_concurrency().compute_thread_count();
  if (N > 1 && NumChunks > 1) {
    DefaultThreadPool Pool(
        hardware_concurrency(std::min<size_t>(N, NumChunks)));
    for (size_t I = 0; I < NumChunks; ++I)
      Pool.async(Run, I);
    Pool.wait();
  } else {
    for (size_t I = 0; I < NumChunks; ++I)
      Run(I);
  }
  if (std::find(Ok.begin(), Ok.end(), 0) != Ok.end())
    return createStringError(inconvertibleErrorCode(),
                             "zlib compression failed");

  Out.clear();
  // CMF: deflate with a 32 KiB window; FLG: the level class zlib records
  // (0 fastest .. 3 best), then check bits making CMF * 256 + FLG a
  // multiple of 31.
  unsigned LevelClass = Level < 2 ? 0 : Level < 6 ? 1 : Level == 6 ? 2 : 3;
  uint8_t Flg = uint8_t(LevelClass << 6);
  Flg += uint8_t(31 - (0x78 * 256 + Flg) % 31) % 31;
  Out.push_back(0x78);
  Out.push_back(Flg);
  for (const std::vector<uint8_t> &P : Pieces)
    Out.append(P.begin(), P.end());
  uLong Adler = adler32(0, nullptr, 0);
  // adler32 takes at most 4 GiB - 1 per call.
  for (size_t Pos = 0; Pos < Data.size();) {
    size_t Len = std::min<size_t>(Data.size() - Pos, 1u << 30);
    Adler = adler32(Adler, Data.data() + Pos, uInt(Len));
    Pos += Len;
  }
  for (int Shift = 24; Shift >= 0; Shift -= 8)
    Out.push_back(uint8_t(Adler >> Shift));
  return Error::success();
}

} // namespace dwarfpack
