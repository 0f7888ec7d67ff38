#!/usr/bin/env python3
"""Prints symbol queries (NAME+OFFSET, as llvm-symbolizer reads them).

usage: symqueries.py BINARY SYMBOL...
For each SYMBOL (a function of BINARY's symbol table): the bare name, then
NAME+OFFSET for every offset from 0 to its size plus 3 (past its end,
llvm-symbolizer answers for its start), alternately in decimal and hex.
"""
import subprocess
import sys

binary, names = sys.argv[1], sys.argv[2:]
out = subprocess.run(["llvm-nm", "--print-size", "-n", binary], check=True,
                     capture_output=True, text=True).stdout
sizes = {}
for line in out.splitlines():
    f = line.split()
    if len(f) == 4 and f[2] in "tT" and f[3] in names:
        sizes[f[3]] = max(sizes.get(f[3], 0), int(f[1], 16))
for name in names:
    print(name)
    for off in range(sizes[name] + 4):
        print("%s+%s" % (name, hex(off) if off % 2 else str(off)))
