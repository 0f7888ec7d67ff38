"""Prints DATA queries about a binary for llvm-symbolizer's stdin: the
start, middle and last byte of every data object llvm-nm lists (and of the
first function), and an address below them all."""
import subprocess
import sys

binary = sys.argv[1]
out = subprocess.run(["llvm-nm", "-S", "--defined-only", binary],
                     capture_output=True, text=True, check=True).stdout
queries = ["DATA %s 0x1" % binary]
function = None
for line in sorted(out.splitlines()):
    fields = line.split()
    if len(fields) != 4:
        continue
    addr, size, kind, name = int(fields[0], 16), int(fields[1], 16), fields[2], fields[3]
    if kind in "tT" and function is None and size > 0:
        function = addr
    if kind not in "dDbBrR" or size == 0:
        continue
    for a in sorted({addr, addr + size // 2, addr + size - 1}):
        queries.append("DATA %s %#x" % (binary, a))
if function is not None:
    queries.append("DATA %s %#x" % (binary, function + 1))
print("\n".join(queries))
