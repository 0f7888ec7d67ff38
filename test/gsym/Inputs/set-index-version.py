"""Gives a DWARF 5 unit index (dumped with llvm-objcopy --dump-section;
little-endian) version 3, and makes its first used bucket name unit
0x10000000.

  set-index-version.py FILE
"""
import struct
import sys

path = sys.argv[1]
d = bytearray(open(path, "rb").read())
version, units, buckets = struct.unpack_from("<H6xII", d, 0)
assert version == 5 and units == 1, (version, units)
struct.pack_into("<H", d, 0, 3)
rows = 16 + 8 * buckets
for i in range(buckets):
    if struct.unpack_from("<I", d, rows + 4 * i)[0]:
        struct.pack_into("<I", d, rows + 4 * i, 0x10000000)
        break
open(path, "wb").write(bytes(d))
