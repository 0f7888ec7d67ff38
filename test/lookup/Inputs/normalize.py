#!/usr/bin/env python3
"""Turns lookup output into one comparable line per address.

Modes (argv[1]):
  gsymutil  llvm-gsymutil --address / --addresses-from-stdin output
  llvm      llvm-symbolizer or dwarfpack LLVM-style output (--no-demangle for
            comparison with llvm-gsymutil)
Each address becomes "name @ file:line | name @ file:line ..." (innermost
first). Only what GSYM cannot carry is dropped: columns, and the "+ offset"
of llvm-gsymutil (its offsets are printed from the first inline range).
Not-found answers become "??".
"""
import re
import sys


def gsymutil(lines):
    out, cur = [], None
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("Looking up addresses"):
            continue
        m = re.match(r"^0x[0-9a-f]+: (.*)$", line)
        if m:
            if cur is not None:
                out.append(cur)
            body = m.group(1)
            if "error:" in body:
                out.append("??")
                cur = None
                continue
            cur = [body]
        elif line.strip() and cur is not None:
            cur.append(line.strip())
    if cur is not None:
        out.append(cur)
    res = []
    for frames in out:
        if frames == "??":
            res.append("??")
            continue
        norm = []
        for f in frames:
            f = f.replace(" [inlined]", "")
            # "name + off @ loc", "name + off" or "name" (offset 0)
            m = re.match(r"^(.*?)(?: \+ \d+)?(?: @ (.*))?$", f)
            name, loc = m.group(1), m.group(2)
            norm.append(name + " @ " + (loc if loc else "??:0"))
        res.append(" | ".join(norm))
    return res


def llvm(lines):
    res, block = [], []
    for line in lines + ["\n"]:
        line = line.rstrip("\n")
        if line == "":
            if block:
                frames = []
                for i in range(0, len(block) - 1, 2):
                    name, loc = block[i], block[i + 1]
                    loc = re.sub(r":\d+$", "", loc)  # drop the column
                    frames.append(name + " @ " + loc)
                if frames == ["?? @ ??:0"]:
                    res.append("??")
                else:
                    res.append(" | ".join(frames))
            block = []
        else:
            block.append(line)
    return res


mode = sys.argv[1]
text = sys.stdin.readlines()
for r in {"gsymutil": gsymutil, "llvm": llvm}[mode](text):
    print(r)
