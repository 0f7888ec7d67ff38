#!/usr/bin/env python3
"""Splits each binary's debug file off with GNU objcopy, llvm-objcopy and
eu-strip -f, converts it with `dwarfpack gsym`, and prints what `dwarfpack
verify TABLE BINARY` says of it (the table against the binary's DWARF and
program headers): one "<binary> <tool>: mismatches: N" line each.

usage: each-debug-file.py BINARY...
"""
import re
import subprocess
import sys

SPLITTERS = {
    "objcopy": lambda b, d: ["objcopy", "--only-keep-debug", b, d],
    "llvm-objcopy": lambda b, d: ["llvm-objcopy", "--only-keep-debug", b, d],
    "eu-strip": lambda b, d: ["eu-strip", "-f", d, "-o", d + ".stripped", b],
}

for binary in sys.argv[1:]:
    for tool, command in SPLITTERS.items():
        debug = "%s.%s.debug" % (binary, tool)
        subprocess.run(command(binary, debug), check=True)
        table = debug + ".dpat"
        subprocess.run(["dwarfpack", "gsym", debug, "-o", table, "--quiet"],
                       check=True)
        out = subprocess.run(["dwarfpack", "verify", table, binary],
                             capture_output=True, text=True)
        found = re.search(r"mismatches: (\d+)", out.stdout)
        print("%s %s: mismatches: %s" % (binary, tool,
                                         found.group(1) if found else "?"))
        if not found or found.group(1) != "0":
            sys.stderr.write(out.stdout + out.stderr)
