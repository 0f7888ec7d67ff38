#!/usr/bin/env python3
"""Writes a small hand-made GSYM V1 file, for cases compilers do not make.

usage: mkgsym.py OUT [--big-endian] [--depth N] [--unknown-info TYPE]
                     [--zero-size]
One function "f" at 0x1000 (size 0x100, or 0 with --zero-size) and one "g"
at 0x1200 (size 0x10), file "/src/a.c", line rows at 0x1000 (line 10) and
0x1010 (line 11). --depth N nests N inlined calls "in1".."inN" into f, each
one byte narrower on both sides (down to [0x1078, 0x1088)), called from line 100+i. --unknown-info
adds a record of that InfoType (8 payload bytes) before EndOfList.
"""
import argparse
import struct

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--big-endian", action="store_true")
ap.add_argument("--depth", type=int, default=0)
ap.add_argument("--unknown-info", type=int)
ap.add_argument("--zero-size", action="store_true")
a = ap.parse_args()
E = ">" if a.big_endian else "<"


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


strs = bytearray(b"\0")
offs = {}


def s(x):
    if x not in offs:
        offs[x] = len(strs)
        strs.extend(x.encode() + b"\0")
    return offs[x]


files = [(0, 0), (s("/src"), s("a.c"))]
f_name, g_name = s("f"), s("g")
inl_names = [s("in%d" % i) for i in range(1, a.depth + 1)]

# Line table: rows (0x1000, 10), (0x1010, 11). MinDelta 0, MaxDelta 1.
# AdvancePC 0 pushes (0x1000, 10); AdvanceLine +1; AdvancePC 0x10 pushes
# (0x1010, 11); EndSequence.
lt = sleb(0) + sleb(1) + uleb(10) + bytes([0x02, 0x00, 0x03]) + sleb(1) + bytes([0x02, 0x10, 0x00])


def inline_tree():
    # Root: f itself; then a chain of children.
    out = bytearray()
    size = 0x100
    out += uleb(1) + uleb(0) + uleb(size)
    out += bytes([1 if a.depth else 0]) + struct.pack(E + "I", f_name) + uleb(0) + uleb(0)
    for i in range(1, a.depth + 1):
        # relative to the parent's start (parent starts at 0x1000+i-1)
        # Past level 120 the ranges stop shrinking: [0x1078, 0x1088) each.
        if i <= 120:
            out += uleb(1) + uleb(1) + uleb(size - 2 * i)
        else:
            out += uleb(1) + uleb(0) + uleb(0x10)
        out += bytes([1 if i < a.depth else 0]) + struct.pack(E + "I", inl_names[i - 1]) + uleb(1) + uleb(100 + i)
    for i in range(a.depth):
        out += uleb(0)  # terminate each child list
    return bytes(out)


def info(t, payload):
    b = struct.pack(E + "II", t, len(payload)) + payload
    return b


def func(size, name, rich):
    b = struct.pack(E + "II", size, name)
    if rich:
        b += info(1, lt)
        if a.depth:
            b += info(2, inline_tree())
        if a.unknown_info is not None:
            b += info(a.unknown_info, b"\xff" * 8)
    b += info(0, b"")
    return b


funcs = [(0x1000, 0 if a.zero_size else 0x100, f_name, True), (0x1200, 0x10, g_name, False)]
n = len(funcs)
hdr_size = 48
addr_off = hdr_size
addr_size = 2
p = addr_off + n * addr_size
p = (p + 3) & ~3
info_off_tab = p
p += 4 * n
file_tab = p
p += 4 + 8 * len(files)
strtab = p
p += len(strs)
body = bytearray()
info_offs = []
for (addr, size, name, rich) in funcs:
    while (p + len(body)) % 4:
        body.append(0)
    info_offs.append(p + len(body))
    body += func(size, name, rich)

out = bytearray()
out += struct.pack(E + "IHBBQIII", 0x4753594D, 1, addr_size, 0, 0x1000 - 0x1000, n, strtab, len(strs))
out += b"\0" * 20
for (addr, _, _, _) in funcs:
    out += struct.pack(E + "H", addr - 0)
while len(out) % 4:
    out.append(0)
for o in info_offs:
    out += struct.pack(E + "I", o)
out += struct.pack(E + "I", len(files))
for d, b in files:
    out += struct.pack(E + "II", d, b)
out += strs
out += body
open(a.out, "wb").write(out)
