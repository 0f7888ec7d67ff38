#!/usr/bin/env python3
"""Writes symbolizer markup about programs, as a program that logs its
backtraces in markup would (llvm.org/docs/SymbolizerMarkupFormat.html).

usage: markup.py BIAS ELF ADDRS [ELF ADDRS...]
       markup.py --fill TEMPLATE ELF
Each ELF is module N (0, 1, ...), its LOAD segments mapped at BIAS + N *
0x10000000 + their addresses; ADDRS holds addresses of the ELF (one per
line, as addrs.py prints them). For each module: its module and mmap
lines, then per address a {{{pc}}}, a {{{bt}}} of the return address after
it and one of the address as a pc, in lines that carry other text, SGR
colours, or a CRLF end; then a {{{data}}} per data object of the ELF (its
first and last byte) and a {{{symbol}}} per function symbol.

--fill prints TEMPLATE with @ID replaced by ELF's build-id, @PC by 0x10000
plus the address of its `main` and @RA by that plus one.
"""
import re
import subprocess
import sys
pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))


def build_id(elf):
    out = subprocess.run(["llvm-readelf", "-n", elf], check=True,
                         capture_output=True, text=True).stdout
    return re.search(r"Build ID: ([0-9a-f]+)", out).group(1)


def loads(elf):
    out = subprocess.run(["llvm-readelf", "-lW", elf], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            vaddr, memsz = int(f[2], 16), int(f[5], 16)
            flags = "".join(c for c in line[line.index(f[5]) + len(f[5]):]
                            if c in "RWE").lower().replace("e", "x")
            start = vaddr & ~0xfff
            yield start, (vaddr + memsz - start + 0xfff) & ~0xfff, flags


def symbols(elf):
    out = subprocess.run(["llvm-nm", "-S", "--defined-only", elf],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            yield int(f[0], 16), int(f[1], 16), f[2], f[3]


if sys.argv[1] == "--fill":
    elf = sys.argv[3]
    main = [a for a, _, _, name in symbols(elf) if name == "main"][0]
    with open(sys.argv[2]) as f:
        text = f.read()
    sys.stdout.write(text.replace("@ID", build_id(elf))
                     .replace("@PC", "%#x" % (0x10000 + main))
                     .replace("@RA", "%#x" % (0x10000 + main + 1)))
    sys.exit(0)

bias = int(sys.argv[1], 0)
pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
out = []
for n, (elf, addrs) in enumerate(pairs):
    base = bias + n * 0x10000000
    name = elf.rsplit("/", 1)[-1]
    out.append("{{{module:%d:%s:elf:%s}}}" % (n, name, build_id(elf)))
    for start, size, mode in loads(elf):
        out.append("{{{mmap:%#x:%#x:load:%d:%s:%#x}}}"
                   % (base + start, size, n, mode, start))
    with open(addrs) as f:
        for i, a in enumerate(int(line, 0) for line in f if line.strip()):
            end = "\r" if i % 7 == 3 else ""
            colour = "\033[3%dm" % (i % 8) if i % 5 == 1 else ""
            out.append("%spc %d: {{{pc:%#x}}} in %s\033[0m%s"
                       % (colour, i, base + a, name, end))
            out.append("{{{bt:%d:%#x}}}" % (i, base + a + 1))
            out.append("  {{{bt:%d:%#x:pc}}} (bold\033[1m)" % (i + 1, base + a))
    for addr, size, kind, sym in symbols(elf):
        if kind in "dDbBrR" and size:
            out.append("data {{{data:%#x}}} {{{data:%#x}}}"
                       % (base + addr, base + addr + size - 1))
        elif kind in "tT" and size:
            out.append("symbol {{{symbol:%s}}}" % sym)
sys.stdout.write("\n".join(out) + "\n")
