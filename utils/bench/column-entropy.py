#!/usr/bin/env python3
"""How many bytes the columns of a binary's line rows carry, at least.

usage: column-entropy.py BINARY

Reads the line table rows (llvm-dwarfdump-19 --debug-line) and prints the
empirical entropy of their columns: alone (what a prefix code over column
values, as the compact table's ColumnCode, can approach) and given the
previous row's column and line delta (clamped to -3..3) — a context model
whose own cost is left out, so a bound that no coder of this kind beats.
Issue 32 asks for tables with columns at most 0.6 of llvm-gsymutil's GSYM;
this shows what the columns alone take of that budget (docs/CompactTable.md,
"Details").
"""
import collections
import math
import subprocess
import sys


def entropy(joint, context):
    total = sum(joint.values())
    return -sum(n / total * math.log2(n / context(k)) for k, n in joint.items())


def main():
    out = subprocess.run(["llvm-dwarfdump-19", "--debug-line", sys.argv[1]],
                         check=True, capture_output=True, text=True).stdout
    alone = collections.Counter()
    joint = collections.Counter()
    contexts = collections.Counter()
    prev = None
    for line in out.splitlines():
        f = line.split()
        if len(f) < 4 or not f[0].startswith("0x") or not f[1].isdigit():
            continue
        row_line, column = int(f[1]), int(f[2])
        alone[column] += 1
        if prev is not None:
            delta = max(-3, min(3, row_line - prev[0]))
            joint[(delta, prev[1], column)] += 1
            contexts[(delta, prev[1])] += 1
        prev = None if "end_sequence" in line else (row_line, column)
    rows = sum(alone.values())
    total = rows
    h0 = entropy(alone, lambda k: total)
    h1 = entropy(joint, lambda k: contexts[k[:2]])
    print("rows: %d" % rows)
    print("columns alone:           %.2f bits/row, %d bytes" % (h0, h0 * rows / 8))
    print("given line delta and previous column: %.2f bits/row, %d bytes"
          % (h1, h1 * rows / 8))


if __name__ == "__main__":
    main()
