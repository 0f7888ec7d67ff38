"""Damages a package's unit index (.debug_cu_index or .debug_tu_index,
dumped with llvm-objcopy --dump-section; little-endian) in place: its first
used bucket names a unit past the unit count, where LLVM 19 writes outside
its table.

  damage-unit-index.py FILE
"""
import struct
import sys

path = sys.argv[1]
d = bytearray(open(path, "rb").read())
units, buckets = struct.unpack_from("<II", d, 8)
rows = 16 + 8 * buckets
for i in range(buckets):
    if struct.unpack_from("<I", d, rows + 4 * i)[0]:
        struct.pack_into("<I", d, rows + 4 * i, units + 7)
        break
open(path, "wb").write(bytes(d))
