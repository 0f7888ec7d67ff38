#!/usr/bin/env python3
"""Checks dwarfpack's address layout of a relocatable object.

dwarfpack places the executable sections of an ET_REL file one after another
in section-header order from address 0, each aligned to its sh_addralign.
This script computes that layout from `llvm-readelf -S`, then checks that
every function symbol (from `llvm-readelf -s`) has a FunctionInfo at
layout(section) + st_value in `llvm-gsymutil`'s dump of the GSYM file (for
aliases, symbols at one address, one of the names).

usage: check-layout.py OBJECT GSYM
"""
import re
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True,
                          check=True).stdout


def main():
    obj, gsym = sys.argv[1], sys.argv[2]
    base = {}
    nxt = 0
    for line in run("llvm-readelf", "-SW", obj).splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+"
                     r"\s+([0-9a-f]+)\s+\S+\s+(\S*)\s+\d+\s+\d+\s+(\d+)", line)
        if not m or "A" not in m.group(4) or "X" not in m.group(4):
            continue
        size, align = int(m.group(3), 16), max(1, int(m.group(5)))
        if size == 0:
            continue
        nxt = (nxt + align - 1) // align * align
        base[int(m.group(1))] = nxt
        nxt += size
    want = {}
    for line in run("llvm-readelf", "-sW", obj).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[6].isdigit():
            want[f[7]] = base[int(f[6])] + int(f[1], 16)
    got = {}
    for line in run("llvm-gsymutil", gsym).splitlines():
        m = re.match(r'FunctionInfo @ 0x[0-9a-f]+: \[0x([0-9a-f]+) - '
                     r'0x[0-9a-f]+\) "(.*)"', line)
        if m:
            got[m.group(2)] = int(m.group(1), 16)
    at = {}
    for n, a in got.items():
        at.setdefault(a, set()).add(n)
    bad = [n for n in want if got.get(n) != want[n] and
           not (at.get(want[n], set()) & {m for m in want
                                           if want[m] == want[n]})]
    for n in sorted(want, key=want.get):
        print("%s 0x%x %s" % (n, want[n], "ok" if n not in bad else
                             "MISMATCH (gsym: %s)" % got.get(n)))
    print("%d sections, %d functions, %d mismatches" %
          (len(base), len(want), len(bad)))
    return 1 if bad or not want else 0


if __name__ == "__main__":
    sys.exit(main())
