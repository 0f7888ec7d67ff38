#!/usr/bin/env python3
"""Prints a program's text symbols as a running kernel's /proc/kallsyms
would list them after KASLR moved it by SLIDE.

usage: running-kallsyms.py BINARY SLIDE
`_text` is the first load segment (lowest file offset), as the kernel's
linker script places it; every t/T symbol follows, in address order.
"""
import subprocess
import sys

binary, slide = sys.argv[1], int(sys.argv[2], 0)
headers = subprocess.run(["llvm-readelf", "--segments", "--wide", binary],
                         check=True, capture_output=True, text=True).stdout
loads = [f for f in (l.split() for l in headers.splitlines())
         if f[:1] == ["LOAD"]]
first = min(loads, key=lambda f: int(f[1], 16))
print("%016x T _text" % (int(first[2], 16) + slide))
symbols = subprocess.run(["llvm-nm", "-n", binary], check=True,
                         capture_output=True, text=True).stdout
for line in symbols.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "tT":
        print("%016x %s %s" % (int(f[0], 16) + slide, f[1], f[2]))
