#!/usr/bin/env python3
"""The C API's answers against `dwarfpack lookup`'s, address by address.

    capi-agreement.py --symbolize PROG --table TABLE --elf ELF
                      [-n 20000] [--seed 1] [--dwarfpack PATH] [--show 5]

PROG is docs/examples/symbolize.c built against libdwarfpack (arguments: a
table and addresses; one line per frame, innermost first,
`0xADDRESS FUNCTION FILE:LINE:COLUMN`). N addresses are sampled from ELF,
the binary TABLE was made from: half uniform over its executable sections,
half in its function symbols (each at its start or a random offset). PROG
answers them in batches of 2,000 (one process per batch, as many arguments
as fit); `dwarfpack lookup --obj=TABLE --output-style=JSON` answers them
from stdin in one process, and its frames are printed as PROG prints them
(an empty name or file as "??"). Prints how many addresses get identical
frames, a few differences, and each side's wall time; exits 1 when any
address differs or a program fails.

Python 3 standard library and LLVM 19's tools only.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

BATCH = 2000


def llvm_tool(name):
    for candidate in (name + "-19", name, "/usr/lib/llvm-19/bin/" + name):
        path = shutil.which(candidate)
        if path:
            return path
    sys.exit("capi-agreement: %s not found" % name)


def run(cmd, stdin_text=""):
    p = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("capi-agreement: %s failed (%d): %s" %
                 (os.path.basename(cmd[0]), p.returncode, p.stderr.strip()))
    return p.stdout


def exec_sections(elf):
    """[lo, hi) of every allocated executable section."""
    out = run([llvm_tool("llvm-readelf"), "-S", "--wide", elf])
    ranges = []
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        # [Nr] Name Type Address Off Size ES Flg ...
        if len(f) > 7 and f[0].startswith("[") and "X" in f[7] and "A" in f[7]:
            lo, size = int(f[3], 16), int(f[5], 16)
            if size:
                ranges.append((lo, lo + size))
    return ranges


def function_symbols(elf, text):
    """(start, size) of the function symbols in executable sections."""
    out = run([llvm_tool("llvm-nm"), "-S", "--defined-only", elf])
    syms = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTWw":
            start, size = int(f[0], 16), int(f[1], 16)
            if any(lo <= start < hi for lo, hi in text):
                syms.add((start, size))
    return sorted(syms)


def sample(elf, n, rng):
    text = exec_sections(elf)
    if not text:
        sys.exit("capi-agreement: '%s' has no executable section" % elf)
    syms = function_symbols(elf, text)
    total = sum(hi - lo for lo, hi in text)
    addrs = []
    for _ in range(n - n // 2):
        off = rng.randrange(total)
        for lo, hi in text:
            if off < hi - lo:
                addrs.append(lo + off)
                break
            off -= hi - lo
    for _ in range(n // 2):
        start, size = rng.choice(syms) if syms else (text[0][0], 1)
        addrs.append(start if size <= 1 or rng.random() < 0.25 else
                     start + rng.randrange(size))
    return addrs


def frame_lines(address, frames):
    """Frames (function, file, line, column) as symbolize.c prints them."""
    if not frames:
        return ["0x%x ?? ??:0:0" % address]
    return ["0x%x %s %s:%d:%d" % (address, fn or "??", file or "??", line,
                                  col) for fn, file, line, col in frames]


def run_capi(prog, table, addrs):
    answers = {}
    for i in range(0, len(addrs), BATCH):
        batch = addrs[i:i + BATCH]
        out = run([prog, table] + ["0x%x" % a for a in batch])
        for line in out.splitlines():
            answers.setdefault(int(line.split(" ", 1)[0], 16), []).append(line)
    return answers


def run_lookup(dwarfpack, table, addrs):
    out = run([dwarfpack, "lookup", "--obj=" + table, "--output-style=JSON"],
              "".join("0x%x\n" % a for a in addrs))
    answers = {}
    for line in out.splitlines():
        obj = json.loads(line)
        frames = [(s["FunctionName"], s["FileName"], s["Line"], s["Column"])
                  for s in obj["Symbol"]]
        # Not found: one frame with nothing known, as llvm-symbolizer says.
        if frames == [("", "", 0, 0)]:
            frames = []
        address = int(obj["Address"], 16)
        answers[address] = frame_lines(address, frames)
    return answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--symbolize", required=True,
                    help="docs/examples/symbolize.c, built")
    ap.add_argument("--table", required=True)
    ap.add_argument("--elf", required=True, help="the binary of the table")
    ap.add_argument("-n", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dwarfpack", default=shutil.which("dwarfpack"))
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args()
    if not args.dwarfpack:
        sys.exit("capi-agreement: dwarfpack not found (--dwarfpack)")

    # Unique addresses: each answer is keyed by its address.
    addrs = sorted(set(sample(args.elf, args.n, random.Random(args.seed))))
    t0 = time.monotonic()
    capi = run_capi(args.symbolize, args.table, addrs)
    t1 = time.monotonic()
    lookup = run_lookup(args.dwarfpack, args.table, addrs)
    t2 = time.monotonic()

    same = [a for a in addrs if capi.get(a) == lookup.get(a)]
    frames = sum(len(lookup.get(a, [])) for a in addrs)
    inlined = sum(1 for a in addrs if len(lookup.get(a, [])) > 1)
    print("%d addresses (%d frames, %d with inlined frames): %d identical "
          "(%.2f%%)" % (len(addrs), frames, inlined, len(same),
                        100.0 * len(same) / max(len(addrs), 1)))
    print("time: symbolize.c %.2f s (%d processes), dwarfpack lookup %.2f s"
          % (t1 - t0, (len(addrs) + BATCH - 1) // BATCH, t2 - t1))
    differ = [a for a in addrs if capi.get(a) != lookup.get(a)]
    for a in differ[:args.show]:
        print("differs at 0x%x:\n  C API:  %s\n  lookup: %s" %
              (a, "\n          ".join(capi.get(a, ["(nothing)"])),
               "\n          ".join(lookup.get(a, ["(nothing)"]))))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
