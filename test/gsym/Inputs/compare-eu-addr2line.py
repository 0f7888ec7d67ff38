#!/usr/bin/env python3
"""Checks dwarfpack's lookups in an address table against eu-addr2line.

eu-addr2line (elfutils) reads dwz's supplementary files (.gnu_debugaltlink),
which llvm-symbolizer does not, so it is the oracle for dwz'd inputs. For
every instruction of the binary's code (llvm-objdump -d) where eu-addr2line
knows a function, compares the inline chain: every frame's name, file and
line. Prints "checked N addresses, M mismatches" and the first mismatches;
exits 1 on any mismatch or when nothing was checked.

usage: compare-eu-addr2line.py BINARY TABLE
"""
import json
import re
import subprocess
import sys


def instruction_addresses(binary):
    out = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", binary],
                         capture_output=True, text=True, check=True).stdout
    return [int(m.group(1), 16) for m in
            re.finditer(r"^\s+([0-9a-f]+):", out, re.MULTILINE)]


def eu_frames(binary, addrs):
    # Exit status 1 when some address is unknown: not an error here.
    out = subprocess.run(["eu-addr2line", "-e", binary, "-a", "-f", "-i"] +
                         [hex(a) for a in addrs],
                         capture_output=True, text=True).stdout
    result, frames, lines = {}, None, out.splitlines()
    i = 0
    while i < len(lines):
        if re.fullmatch(r"0x[0-9a-f]+", lines[i]):
            frames = result.setdefault(int(lines[i], 16), [])
            i += 1
            continue
        name = lines[i].split(" inlined at ")[0]
        loc = lines[i + 1]
        m = re.fullmatch(r"(.*?):(\d+)(?::\d+)?", loc)
        frames.append((name, m.group(1), int(m.group(2))) if m else
                      (name, "??", 0))
        i += 2
    return result


def our_frames(table, addrs):
    out = subprocess.run(["dwarfpack", "lookup", "--no-demangle",
                          "--output-style=JSON", table] +
                         [hex(a) for a in addrs],
                         capture_output=True, text=True, check=True).stdout
    result = {}
    for entry in json.loads(out):
        result[int(entry["Address"], 16)] = [
            (s["FunctionName"], s["FileName"], s["Line"])
            for s in entry["Symbol"]]
    return result


def main():
    binary, table = sys.argv[1], sys.argv[2]
    addrs = instruction_addresses(binary)
    checked, bad = 0, []
    for k in range(0, len(addrs), 500):
        chunk = addrs[k:k + 500]
        eu, ours = eu_frames(binary, chunk), our_frames(table, chunk)
        for a in chunk:
            want = eu.get(a, [])
            if not want or want[0][0] == "??" or want[0][1] == "??":
                continue
            checked += 1
            if ours.get(a) != want:
                bad.append((a, want, ours.get(a)))
    print(f"checked {checked} addresses, {len(bad)} mismatches")
    for a, want, got in bad[:10]:
        print(f"  {a:#x}: eu-addr2line {want}; dwarfpack {got}")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
