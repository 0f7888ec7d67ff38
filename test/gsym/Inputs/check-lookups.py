#!/usr/bin/env python3
"""Checks a GSYM file against llvm-symbolizer on the binary it came from.

For every byte address of the binary's executable sections (or an evenly
spaced sample of them), looks the address up with `llvm-gsymutil
--addresses-from-stdin` in the GSYM file and with `llvm-symbolizer --inlines`
in the binary, and compares the full inline chain: function name, file and
line of every frame. Where DWARF has no linkage name, llvm-symbolizer prints
the bare DW_AT_name ("~function"), as dwarfpack stores it, and llvm-gsymutil
the name qualified with its namespaces and classes
("std::function<void ()>::~function"); such a frame counts as equal when the
qualified name ends in "::" + the bare name (and is counted). Addresses that
DWARF does not cover (the symbolizer
knows no function or no source line there) are skipped. Prints a summary and
the first mismatches; exits 1 if any address differs.

usage: check-lookups.py BINARY GSYM [--max N] [--relocatable]
                        [--reader llvm-gsymutil|dwarfpack]

--reader: which GSYM reader answers: LLVM's (`llvm-gsymutil
--addresses-from-stdin`, the default) or ours (`dwarfpack lookup
--no-demangle`, in llvm-symbolizer's output style).

--relocatable: BINARY is a relocatable object with one executable section
(at address 0 in dwarfpack's layout, as in llvm-symbolizer's view). The
outermost function name is not compared: llvm-symbolizer takes it from any
symbol at that offset, and in an object file every section starts at 0.
"""
import argparse
import re
import subprocess
import sys


def exec_sections(binary):
    out = subprocess.run(["llvm-readelf", "-SW", binary], capture_output=True,
                         text=True, check=True).stdout
    secs = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+[0-9a-f]+"
                     r"\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if m and "A" in m.group(5) and "X" in m.group(5):
            size = int(m.group(4), 16)
            if size:
                secs.append((int(m.group(3), 16), size))
    return secs


def symbolizer_frames(binary, addrs, cmd=None):
    cmd = cmd or ["llvm-symbolizer", "--inlines", "--no-demangle",
                  "--obj=" + binary]
    out = subprocess.run(
        cmd, input="".join("0x%x\n" % a for a in addrs), capture_output=True,
        text=True, check=True).stdout
    blocks = out.strip("\n").split("\n\n")
    assert len(blocks) == len(addrs), "unexpected %s output" % cmd[0]
    result = {}
    for addr, block in zip(addrs, blocks):
        lines = block.split("\n")
        frames = []
        for i in range(0, len(lines) - 1, 2):
            m = re.match(r"(.*):(\d+):(\d+)$", lines[i + 1])
            if m:
                frames.append((lines[i], m.group(1), int(m.group(2))))
            else:
                frames.append((lines[i], "??", 0))
        result[addr] = frames
    return result


def gsym_frames(gsym, addrs):
    out = subprocess.run(
        ["llvm-gsymutil", "--addresses-from-stdin"],
        input="".join("0x%x %s\n" % (a, gsym) for a in addrs),
        capture_output=True, text=True, check=True).stdout
    result = {}
    cur = None
    for line in out.splitlines():
        m = re.match(r"^(0x[0-9a-f]+): (.*)$", line)
        if m:
            cur = int(m.group(1), 16)
            result[cur] = []
            rest = m.group(2)
        elif cur is not None and line.startswith(" "):
            rest = line.strip()
        else:
            continue
        if rest.startswith("error: "):
            continue
        m = re.match(r"(.*?)(?: \+ \d+)? @ (.*):(\d+)( \[inlined\])?$", rest)
        if m:
            result[cur].append((m.group(1), m.group(2), int(m.group(3))))
        else:
            m = re.match(r"(.*?)(?: \+ \d+)?$", rest)
            result[cur].append((m.group(1), "??", 0))
    return result


def same_frames(ref, got, skip_outer_name=False):
    """Equal chains, allowing qualified names for bare DW_AT_names."""
    if len(ref) != len(got):
        return False, 0
    qualified = 0
    for i, ((rn, rf, rl), (gn, gf, gl)) in enumerate(zip(ref, got)):
        if (rf, rl) != (gf, gl):
            return False, 0
        if skip_outer_name and i == len(ref) - 1:
            continue
        if rn != gn:
            if not gn.endswith("::" + rn):
                return False, 0
            qualified += 1
    return True, qualified


def covered(frames):
    """DWARF describes this address: a named function and a source file."""
    if not frames or frames[-1][0] == "??" or frames[0][1] in ("??", ""):
        return False
    # A unit without line rows still gives the unit's name with line 0.
    if len(frames) == 1 and frames[0][2] == 0 and "/" not in frames[0][1]:
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("gsym")
    ap.add_argument("--max", type=int, default=40000)
    ap.add_argument("--relocatable", action="store_true")
    ap.add_argument("--reader", choices=["llvm-gsymutil", "dwarfpack"],
                    default="llvm-gsymutil")
    args = ap.parse_args()

    addrs = []
    secs = exec_sections(args.binary)
    if args.relocatable and len(secs) != 1:
        sys.exit("--relocatable needs exactly one executable section")
    for start, size in secs:
        addrs.extend(range(start, start + size))
    if len(addrs) > args.max:
        step = len(addrs) / args.max
        addrs = [addrs[int(i * step)] for i in range(args.max)]
    ref = symbolizer_frames(args.binary, addrs)
    if args.reader == "dwarfpack":
        got = symbolizer_frames(
            args.binary, addrs,
            ["dwarfpack", "lookup", "--no-demangle", args.gsym])
        # Not found: dwarfpack prints "??" with "??:0:0", llvm-gsymutil an
        # error; both mean no frames.
        for a in addrs:
            if got[a] == [("??", "??", 0)]:
                got[a] = []
    else:
        got = gsym_frames(args.gsym, addrs)
    checked = 0
    qualified = 0
    bad = []
    for a in addrs:
        if not covered(ref[a]):
            continue
        checked += 1
        same, q = same_frames(ref[a], got.get(a, []), args.relocatable)
        if not same:
            bad.append(a)
        qualified += q
    print("checked %d addresses covered by DWARF, %d mismatches" %
          (checked, len(bad)))
    print("(%d frames carry a qualified name where llvm-symbolizer has the "
          "bare DW_AT_name)" % qualified)
    for a in bad[:10]:
        print("0x%x" % a)
        print("  llvm-symbolizer: %s" % ref[a])
        print("  gsym:            %s" % got.get(a, []))
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
