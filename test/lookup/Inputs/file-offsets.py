#!/usr/bin/env python3
"""Turns addresses (stdin, one per line) into offsets in an ELF file, from
the PT_LOAD program headers that llvm-readelf prints: an oracle for
`dwarfpack lookup --file-offsets` that shares no code with dwarfpack.

usage: file-offsets.py BINARY [--prefix TEXT]
Each line printed is "TEXT0x<offset>" (TEXT: e.g. "BUILDID:<hex> ").
Fails when an address lies in no segment, and when every segment's file
offset equals its address (the test would then prove nothing).
"""
import re
import subprocess
import sys

binary = sys.argv[1]
prefix = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--prefix" else ""
out = subprocess.run(["llvm-readelf", "-lW", binary], check=True,
                     capture_output=True, text=True).stdout
segs = []
for line in out.splitlines():
    f = line.split()
    if f and f[0] == "LOAD":
        off, vaddr, filesz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
        if filesz:
            segs.append((off, vaddr, filesz))
if all(off == vaddr for off, vaddr, _ in segs):
    sys.exit("every segment is loaded at its file offset")
for line in sys.stdin:
    if not line.strip():
        continue
    addr = int(line.split()[0], 0)
    for off, vaddr, filesz in segs:
        if vaddr <= addr < vaddr + filesz:
            print("%s0x%x" % (prefix, addr - vaddr + off))
            break
    else:
        sys.exit("0x%x is in no segment" % addr)
