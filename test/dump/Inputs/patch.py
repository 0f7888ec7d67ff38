#!/usr/bin/env python3
"""usage: patch.py IN OUT [--truncate N] [--u8 OFF=VAL] [--u16 OFF=VAL] [--u32 OFF=VAL]...
Copies a file, then overwrites little-endian integers at byte offsets
(numbers may be hex) and/or truncates it to N bytes."""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
args = sys.argv[3:]
i = 0
while i < len(args):
    opt, val = args[i], args[i + 1]
    i += 2
    if opt == "--truncate":
        del data[int(val, 0):]
        continue
    off, v = (int(x, 0) for x in val.split("="))
    fmt = {"--u8": "<B", "--u16": "<H", "--u32": "<I"}[opt]
    struct.pack_into(fmt, data, off, v)
open(dst, "wb").write(data)
