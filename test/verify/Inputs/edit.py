#!/usr/bin/env python3
"""Damages one function of a little-endian GSYM file in a controlled way.

usage: edit.py IN OUT OP FUNCTION [ARG]
  bump-line FUNCTION     first line of its line table + 1
  rename FUNCTION OTHER  its name becomes OTHER's (an existing string)
  drop-inline FUNCTION   its InlineInfo becomes an unknown InfoType (skipped)
  drop-lines FUNCTION    its LineTable and InlineInfo become unknown types
"""
import struct
import sys

src, dst, op, func = sys.argv[1:5]
arg = sys.argv[5] if len(sys.argv) > 5 else None
d = bytearray(open(src, "rb").read())
magic, ver, aos, uuidsz, base, n, stroff, strsize = struct.unpack_from("<IHBBQIII", d, 0)
assert magic == 0x4753594D, "little-endian GSYM expected"
addr_tab = 48
info_tab = (addr_tab + n * aos + 3) & ~3


def string_at(off):
    end = d.index(b"\0", stroff + off)
    return d[stroff + off:end].decode()


def find_string(s):
    tab = bytes(d[stroff:stroff + strsize])
    i = 0
    while i < len(tab):
        j = tab.index(b"\0", i)
        if tab[i:j].decode() == s:
            return i
        i = j + 1
    sys.exit("no string " + s)


def uleb_len(off):
    n = 0
    while d[off + n] & 0x80:
        n += 1
    return n + 1


for k in range(n):
    off = struct.unpack_from("<I", d, info_tab + 4 * k)[0]
    size, name = struct.unpack_from("<II", d, off)
    if string_at(name) != func:
        continue
    if op == "rename":
        struct.pack_into("<I", d, off + 4, find_string(arg))
    p = off + 8
    while True:
        t, ln = struct.unpack_from("<II", d, p)
        if t == 0:
            break
        if t == 1 and op == "bump-line":
            q = p + 8
            q += uleb_len(q)  # MinDelta (SLEB, same length rule)
            q += uleb_len(q)  # MaxDelta
            assert d[q] < 0x7F, "first line must be a one-byte ULEB"
            d[q] += 1
        if (t == 2 and op in ("drop-inline", "drop-lines")) or (t == 1 and op == "drop-lines"):
            struct.pack_into("<I", d, p, 0x99)
        p += 8 + ln
    break
else:
    sys.exit("no function " + func)
open(dst, "wb").write(d)
