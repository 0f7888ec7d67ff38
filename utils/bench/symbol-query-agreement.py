#!/usr/bin/env python3
"""Queries by symbol name (NAME+OFFSET) on a real kernel, against
llvm-symbolizer on its vmlinux.

usage: symbol-query-agreement.py VMLINUX SYSTEM_MAP TABLE [--count N]
                                 [--seed S] [--slide HEX] [--work DIR]

Picks N text symbols of System.map with a name that occurs once and a
size in vmlinux's symbol table, each with a random offset inside it, and
asks llvm-symbolizer (on VMLINUX) and `dwarfpack lookup TABLE` the same
`NAME+OFFSET` queries. With --slide, dwarfpack gets them as a running
kernel moved by SLIDE would: `--kaslr-from` a copy of System.map with every
address moved, so the names come from that list; without it, from the
table. Prints how many answers agree (function, file, line of the frame),
the kinds of the others (with examples), and both tools' times.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("vmlinux")
ap.add_argument("system_map")
ap.add_argument("table")
ap.add_argument("--count", type=int, default=300)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--slide", type=lambda s: int(s, 16))
ap.add_argument("--work", default=os.environ.get("TMPDIR", "/tmp"))
ap.add_argument("--dwarfpack", default="dwarfpack")
ap.add_argument("--llvm-symbolizer", default="llvm-symbolizer-19")
ap.add_argument("--llvm-nm", default="llvm-nm-19")
a = ap.parse_args()

names = collections.Counter()
text = []
with open(a.system_map) as f:
    for line in f:
        p = line.split()
        if len(p) == 3:
            names[p[2]] += 1
            if p[1] in "tT":
                text.append(p[2])
sizes = {}
nm = subprocess.run([a.llvm_nm, "--print-size", "--defined-only", a.vmlinux],
                    check=True, capture_output=True, text=True).stdout
for line in nm.splitlines():
    p = line.split()
    if len(p) == 4 and p[2] in "tT" and int(p[1], 16) > 0:
        sizes[p[3]] = int(p[1], 16)
pool = sorted({n for n in text if names[n] == 1 and n in sizes})
rng = random.Random(a.seed)
picked = rng.sample(pool, min(a.count, len(pool)))
queries = ["%s+0x%x" % (n, rng.randrange(sizes[n])) for n in picked]

def answers(out):
    """JSON style: one line per query, {"Loc": [frames], ...}."""
    return [[(f["FunctionName"], f["FileName"], f["Line"]) for f in
             json.loads(line)["Loc"]] for line in out.splitlines()]

stdin = "\n".join(queries) + "\n"
t0 = time.time()
ref = subprocess.run([a.llvm_symbolizer, "--output-style=JSON",
                      "--obj=" + a.vmlinux], input=stdin, check=True,
                     capture_output=True, text=True).stdout
t1 = time.time()
cmd = [a.dwarfpack, "lookup", "--output-style=JSON", a.table]
if a.slide is not None:
    moved = os.path.join(a.work, "symbol-query-agreement.kallsyms")
    with open(a.system_map) as f, open(moved, "w") as out:
        for line in f:
            p = line.split()
            if len(p) == 3:
                out.write("%016x %s %s\n" % ((int(p[0], 16) + a.slide) % 2**64,
                                             p[1], p[2]))
    cmd.append("--kaslr-from=" + moved)
t2 = time.time()
got = subprocess.run(cmd, input=stdin, check=True, capture_output=True,
                     text=True).stdout
t3 = time.time()

# A query a split function answers twice (its other part) counts as
# agreeing when its first answer does.
kinds = collections.Counter()
examples = collections.defaultdict(list)
for q, r, g in zip(queries, answers(ref), answers(got)):
    if not g:
        kind = "not found"
    elif not r and not g[0][1]:
        # llvm-symbolizer leaves symbols without debug information out.
        kind = "named without a line, llvm-symbolizer: nothing"
    elif r and g[0] == r[0]:
        kind = "agree" if len(g) == 1 else "agree, and a second answer"
    elif r and g[0][:1] == r[0][:1] and not g[0][1]:
        kind = "no line in the table"
    elif r and g[0][1:] == r[0][1:]:
        # llvm-symbolizer prints symbol table names (X.cold, X.isra.0); a
        # GSYM from llvm-gsymutil names the function after its DWARF (X).
        kind = "same file and line, the table's function name"
    else:
        kind = "differ"
    kinds[kind] += 1
    examples[kind].append("%s: %s / %s" % (q, r[:1], g[:2]))
print("queries: %d" % len(queries))
for k, v in kinds.most_common():
    print("%s: %d" % (k, v))
    for e in examples[k][:5] if k != "agree" else []:
        print("  " + e)
print("llvm-symbolizer: %.2f s" % (t1 - t0))
print("dwarfpack lookup: %.2f s" % (t3 - t2))
