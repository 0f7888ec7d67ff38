"""Damages a compact address table in one named way (for lit tests).

usage: mutate.py IN OUT KIND
KIND: version, blockshift, records (fill the records section with 0xff),
      index (unsort the block index), names (bad token ids in the name list)
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
kind = sys.argv[3]
HEADER = 40


def section(n):
    return struct.unpack_from("<II", data, HEADER + 8 * n)


if kind == "version":
    struct.pack_into("<H", data, 4, 9)
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
else:
    sys.exit("unknown kind " + kind)
open(sys.argv[2], "wb").write(data)
