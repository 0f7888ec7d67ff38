#!/usr/bin/env python3
"""Prints the address of every instruction of a binary, one per line.

usage: addrs.py BINARY [--suffix TEXT] [--add N] [SYMBOL...]
With SYMBOLs, only the instructions of those functions. Padding (nop, int3)
is left out: it lies outside every function, where llvm-symbolizer still
answers from the line table but GSYM has no function. --suffix appends
" TEXT" to each line (llvm-gsymutil --addresses-from-stdin wants
"<addr> <file>"); --add adds N to every address (a module loaded elsewhere).
"""
import re
import subprocess
import sys

args = sys.argv[1:]
binary = args.pop(0)
suffix = ""
if args and args[0] == "--suffix":
    suffix = " " + args[1]
    args = args[2:]
add = 0
if args and args[0] == "--add":
    add = int(args[1], 0)
    args = args[2:]
cmd = ["llvm-objdump", "-d", "--no-show-raw-insn", binary]
if args:
    cmd.append("--disassemble-symbols=" + ",".join(args))
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
for line in out.splitlines():
    m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
    # (not the header naming the file, "c:  file format ...")
    if (m and m.group(2) != "file" and not m.group(2).startswith("nop")
            and m.group(2) != "int3"):
        print("0x%x%s" % (int(m.group(1), 16) + add, suffix))
