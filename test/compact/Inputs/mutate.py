"""Damages a compact address table in one named way (for lit tests).

usage: mutate.py IN OUT KIND
KIND: version (9), version2 and version3 (an older table's number), flags
      (an unknown header flag), columns (a column code whose symbols are all 1 bit long,
      out of canonical order), column-value (the column code's last
      symbol decodes to another column: the table reads, but wrong),
      blockshift, records (fill the records section with 0xff),
      name-tokens and path-tokens (that token table's first bytes 0xff),
      index (unsort the block index), names (bad token ids in the name list),
      paths (a bad token id in the first path), segment-address (the first
      load segment moved by 0x1000), segments-overlap (the second segment
      starts inside the first), segments-size (the Segments section one
      byte short), stop-shift (RowStopShift 0 with the RowStops flag),
      stop-address and stop-offset (the address or the byte offset of the
      first row stop of the first table with stops, off by one)
"""
import os
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
kind = sys.argv[3]
HEADER = 40


def section(n):
    return struct.unpack_from("<II", data, HEADER + 8 * n)


if kind == "version":
    struct.pack_into("<H", data, 4, 9)
elif kind == "version2":
    struct.pack_into("<H", data, 4, 2)
elif kind == "version3":
    struct.pack_into("<H", data, 4, 3)
elif kind == "stop-shift":
    assert data[7] & 4, "needs a table with row stops"
    data[26] = 0
elif kind in ("stop-address", "stop-offset"):
    # The independent reader finds the first row stop index.
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                    "utils", "spec-check"))
    import compact_table_reader as spec
    table = spec.Table(sys.argv[1])
    pos = None
    for f in table.all_functions():
        table.decode_record(f)
        if table.row_stop_index:
            pos = table.row_stop_index[0]
            break
    assert pos is not None, "needs a table with row stops"
    if kind == "stop-offset":
        while data[pos] & 0x80:
            pos += 1
        pos += 1
    # The low bit of the value's first byte: off by one, the same length.
    data[pos] ^= 1
elif kind == "flags":
    data[7] |= 0x80
elif kind == "columns":
    off, size = section(10)
    assert size >= 5, "needs a column code of two symbols"
    # Every symbol one bit long: the values are then out of order (and more
    # than one bit can code).
    count = data[off]
    assert count < 0x80
    pos = off + 1
    for _ in range(count):
        while data[pos] & 0x80:
            pos += 1
        data[pos + 1] = 1
        pos += 2
elif kind == "column-value":
    off, size = section(10)
    count = data[off]
    assert 0 < count < 0x80 and size >= 3
    # Walk to the last symbol; its value becomes an unused one of the same
    # ULEB size, larger than its own (the canonical order holds).
    pos, values = off + 1, []
    for _ in range(count):
        start = pos
        while data[pos] & 0x80:
            pos += 1
        values.append((start, pos + 1 - start))
        pos += 2
    start, length = values[-1]
    value = 0
    for k in range(length):
        value |= (data[start + k] & 0x7F) << (7 * k)
    used = set()
    for s0, l0 in values:
        used.add(sum((data[s0 + k] & 0x7F) << (7 * k) for k in range(l0)))
    limit = 0x80 if length == 1 else 0x4000
    new = next(v for v in range(value + 1, limit) if v not in used)
    for k in range(length):
        byte = (new >> (7 * k)) & 0x7F
        data[start + k] = byte | (0x80 if k + 1 < length else 0)
elif kind in ("name-tokens", "path-tokens"):
    off, size = section(4 if kind == "name-tokens" else 6)
    data[off:off + 8] = b"\xff" * 8
elif kind == "blockshift":
    data[6] = 13
elif kind == "records":
    off, size = section(3)
    data[off:off + size] = b"\xff" * size
elif kind == "index":
    off, size = section(1)
    # Make the last block start before its predecessor.
    assert size >= 32, "needs two blocks"
    struct.pack_into("<Q", data, off + size - 16, 0)
elif kind == "names":
    off, size = section(5)
    data[off:off + size] = b"\x01\xfe" * (size // 2) + b"\x01" * (size % 2)
elif kind == "paths":
    off, size = section(7)
    num_paths = struct.unpack_from("<I", data, 36)[0]
    # Past the list's index (a u32 every 4 entries) and the first entry's
    # length: its first token id.
    data[off + 4 * ((num_paths + 3) // 4) + 1] = 0xFE
elif kind == "segment-address":
    off, size = section(9)
    assert size >= 24, "needs a load segment"
    struct.pack_into("<Q", data, off + 8, struct.unpack_from("<Q", data, off + 8)[0] + 0x1000)
elif kind == "segments-overlap":
    off, size = section(9)
    assert size >= 48, "needs two load segments"
    struct.pack_into("<Q", data, off + 24, struct.unpack_from("<Q", data, off)[0])
elif kind == "segments-size":
    off, size = section(9)
    struct.pack_into("<I", data, HEADER + 8 * 9 + 4, size - 1)
else:
    sys.exit("unknown kind " + kind)
open(sys.argv[2], "wb").write(data)
