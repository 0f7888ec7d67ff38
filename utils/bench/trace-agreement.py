#!/usr/bin/env python3
"""`dwarfpack lookup --annotate` on a kernel oops made from a real vmlinux,
against llvm-symbolizer and binutils' addr2line at the same addresses.

usage: trace-agreement.py VMLINUX TABLE [--count N] [--seed S]
                          [--kaslr-from SYSTEM_MAP] [--dwarfpack PATH]

Writes an oops of N call-trace frames `NAME+OFF/SIZE` at random offsets
(1 to SIZE-1) of text symbols of unique name in VMLINUX's symbol table,
annotates it with `dwarfpack lookup TABLE --annotate` (names from
--kaslr-from when given), and asks both oracles, one process each, at
each frame's address minus one (a return address's call, as --annotate
and decode_stacktrace.sh look it up). A frame agrees when its inlined
frames (names, files, lines) and the outermost frame's file and line are
the oracle's; frames left as they were are counted apart (with what the
oracle answers). Prints the counts and the three tools' times.
"""
import argparse
import random
import re
import subprocess
import time

ap = argparse.ArgumentParser()
ap.add_argument("vmlinux")
ap.add_argument("table")
ap.add_argument("--count", type=int, default=2000)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--kaslr-from")
ap.add_argument("--dwarfpack", default="dwarfpack")
ap.add_argument("--llvm-symbolizer", default="llvm-symbolizer")
ap.add_argument("--llvm-nm", default="llvm-nm")
a = ap.parse_args()


def run(cmd, text=None):
    t = time.time()
    out = subprocess.run(cmd, input=text, capture_output=True, text=True,
                         check=True).stdout
    return out, time.time() - t


syms, count = [], {}
for line in run([a.llvm_nm, "-S", "--defined-only", a.vmlinux])[0].splitlines():
    f = line.split()
    if len(f) == 4 and f[2] in "tT" and int(f[1], 16) > 1:
        syms.append((int(f[0], 16), int(f[1], 16), f[3]))
        count[f[3]] = count.get(f[3], 0) + 1
syms = [s for s in syms if count[s[2]] == 1]
rng = random.Random(a.seed)
frames = []
for start, size, name in (rng.choice(syms) for _ in range(a.count)):
    frames.append((start, rng.randrange(1, size), size, name))
oops = "".join("[%12.6f]  %s+%#x/%#x\n" % (i / 1e3, name, off, size)
               for i, (_, off, size, name) in enumerate(frames))
calls = "".join("0x%x\n" % (s + off - 1) for s, off, _, _ in frames)

cmd = [a.dwarfpack, "lookup", a.table, "--annotate"]
if a.kaslr_from:
    cmd.append("--kaslr-from=" + a.kaslr_from)
ours, t_ours = run(cmd, oops)
sym, t_sym = run([a.llvm_symbolizer, "--inlines", "--output-style=GNU", "-f",
                  "-a", "--obj=" + a.vmlinux], calls)
a2l, t_a2l = run(["addr2line", "-f", "-i", "-a", "-e", a.vmlinux], calls)


def oracle(text):
    """Per address: [(name, file:line)], innermost first."""
    chains = []
    for line in text.splitlines():
        if re.match(r"^0x[0-9a-f]+$", line):
            chains.append([])
        else:
            chains[-1].append(line)
    return [[(c[i], re.sub(r" \(discriminator \d+\)$", "", c[i + 1]))
             for i in range(0, len(c), 2)] for c in chains]


annotated = {}
for line in ours.splitlines():
    m = re.match(r"^\[\s*([0-9.]+)\]  (.*)$", line)
    annotated.setdefault(m.group(1), []).append(m.group(2))
keys = list(annotated)


def compare(ref, label):
    agree, kept, differ, examples = 0, [], [], []
    for key, want, (_, off, size, name) in zip(keys, ref, frames):
        lines = annotated[key]
        if lines == ["%s+%#x/%#x" % (name, off, size)]:
            kept.append(want[-1][1])
            continue
        got = []
        for l in lines:
            l = l[:-len(" (inlined)")] if l.endswith(" (inlined)") else l
            m = re.match(r"^(.*?) \((.*)\)$", l)
            got.append((m.group(1), m.group(2)))
        if [g[1] for g in got] == [w[1] for w in want] and \
                [g[0] for g in got[:-1]] == [w[0] for w in want[:-1]]:
            agree += 1
        else:
            differ.append((name, got, want))
    no_line = sum(1 for k in kept if k.startswith("??") or k.endswith(":0"))
    print("%s: %d agree, %d differ, %d left as they were (%d of them "
          "without a line there)" % (label, agree, len(differ), len(kept),
                                      no_line))
    for d in differ[:5]:
        print("  differs:", d)


print("frames: %d" % a.count)
compare(oracle(sym), "llvm-symbolizer")
compare(oracle(a2l), "addr2line")
print("time: dwarfpack %.2f s, llvm-symbolizer %.2f s (%.3fx), addr2line "
      "%.2f s (%.3fx)" % (t_ours, t_sym, t_ours / t_sym, t_a2l,
                          t_ours / t_a2l))
