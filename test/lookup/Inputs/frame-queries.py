"""Prints FRAME queries about a binary for llvm-symbolizer's stdin: every
instruction of its code (as llvm-objdump disassembles it), and an address
in no function."""
import subprocess
import sys

binary = sys.argv[1]
out = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", binary],
                     capture_output=True, text=True, check=True).stdout
queries = ["FRAME %s 0x1" % binary]
for line in out.splitlines():
    head = line.split(":", 1)[0].strip()
    if ":" in line and head and all(c in "0123456789abcdef" for c in head):
        queries.append("FRAME %s 0x%s" % (binary, head))
print("\n".join(queries))
