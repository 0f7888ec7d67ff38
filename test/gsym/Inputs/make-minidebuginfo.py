#!/usr/bin/env python3
"""Strips a binary the way Fedora's MiniDebugInfo build does: the function
symbols that .dynsym lacks go, in a small ELF file compressed with xz, into
a .gnu_debugdata section of the stripped binary
(https://sourceware.org/gdb/onlinedocs/gdb/MiniDebugInfo.html).

usage: make-minidebuginfo.py BINARY OUTPUT [--truncate | --not-xz]
--truncate keeps only the first half of the xz data; --not-xz stores the
ELF file uncompressed.
"""
import lzma
import os
import subprocess
import sys


def names(args):
    out = subprocess.run(["nm", "--format=posix", "--defined-only"] + args,
                         capture_output=True, text=True, check=True).stdout
    return [l.split() for l in out.splitlines() if l.strip()]


binary, output = sys.argv[1], sys.argv[2]
damage = sys.argv[3] if len(sys.argv) > 3 else None
work = output + ".work"
os.makedirs(work, exist_ok=True)
dynamic = {f[0] for f in names(["-D", binary])}
keep = sorted({f[0] for f in names([binary]) if f[1] in ("T", "t", "D")}
              - dynamic)
with open(os.path.join(work, "keep"), "w") as f:
    f.write("\n".join(keep) + "\n")
debug, mini = os.path.join(work, "debug"), os.path.join(work, "mini")
subprocess.run(["objcopy", "--only-keep-debug", binary, debug], check=True)
subprocess.run(["objcopy", "-S", "--remove-section", ".gdb_index",
                "--remove-section", ".comment",
                "--keep-symbols=" + os.path.join(work, "keep"), debug, mini],
               check=True)
data = open(mini, "rb").read()
if damage != "--not-xz":
    data = lzma.compress(data, format=lzma.FORMAT_XZ)
if damage == "--truncate":
    data = data[:len(data) // 2]
packed = os.path.join(work, "mini.xz")
open(packed, "wb").write(data)
subprocess.run(["strip", "--strip-all", "-R", ".comment", binary, "-o",
                output], check=True)
subprocess.run(["objcopy", "--add-section", ".gnu_debugdata=" + packed,
                output], check=True)
