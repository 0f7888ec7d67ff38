#!/usr/bin/env python3
"""Damages a section in the legacy GNU compression ("ZLIB", the size it
expands to as 8 big-endian bytes, a zlib stream).

usage: damage-zdebug.py IN huge|short|long|stream|magic OUT

huge:   declares 2^47 - 1 bytes (more than the stream can expand to)
short:  declares one byte fewer than the stream expands to
long:   declares one byte more
stream: the stream's bytes after its 2-byte zlib header inverted
magic:  "ZLIB" replaced by "ZLIX"
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
what = sys.argv[2]
assert data[:4] == b"ZLIB", "not a .zdebug section"
size = struct.unpack(">Q", bytes(data[4:12]))[0]
if what == "huge":
    data[4:12] = struct.pack(">Q", (1 << 47) - 1)
elif what == "short":
    data[4:12] = struct.pack(">Q", size - 1)
elif what == "long":
    data[4:12] = struct.pack(">Q", size + 1)
elif what == "stream":
    for i in range(14, min(len(data), 64)):
        data[i] ^= 0xFF
elif what == "magic":
    data[3] = ord("X")
else:
    sys.exit("unknown damage: " + what)
open(sys.argv[3], "wb").write(data)
