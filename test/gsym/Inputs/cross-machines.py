#!/usr/bin/env python3
"""Compiles a C file into a relocatable object for each target triple,
converts it with `dwarfpack gsym` and checks every lookup of our reader
against llvm-symbolizer on the object (check-lookups.py --relocatable).

usage: cross-machines.py SOURCE OUTDIR TRIPLE...
Prints one line per triple: "TRIPLE: no warning, <check summary>" or
"TRIPLE: <what went wrong>", then "N machines".
"""
import os
import subprocess
import sys

source, outdir, triples = sys.argv[1], sys.argv[2], sys.argv[3:]
check = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     "check-lookups.py")
for triple in triples:
    obj = os.path.join(outdir, triple + ".o")
    table = os.path.join(outdir, triple + ".gsym")
    subprocess.run(["clang", "-O2", "-g", "-c", "-DONE_SECTION",
                    "--target=" + triple, source, "-o", obj], check=True)
    conv = subprocess.run(["dwarfpack", "gsym", obj, "-o", table],
                          capture_output=True, text=True)
    if conv.returncode != 0 or conv.stderr:
        print("%s: gsym exit %d: %s" % (triple, conv.returncode,
                                        conv.stderr.strip()))
        continue
    res = subprocess.run([sys.executable, check, "--reader", "dwarfpack",
                          "--relocatable", obj, table],
                         capture_output=True, text=True)
    summary = [l for l in res.stdout.splitlines() if l.startswith("checked")]
    print("%s: no warning, %s" % (triple, summary[0] if summary else
                                  res.stdout.strip() + res.stderr.strip()))
print("%d machines" % len(triples))
