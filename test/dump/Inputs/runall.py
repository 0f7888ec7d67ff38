#!/usr/bin/env python3
"""usage: runall.py DIR -- COMMAND ARGS ({} is replaced by each file of DIR)
Runs the command on every file; fails if any run crashes (killed by a
signal) or takes longer than 20 s. Exit statuses 0 and 1 are both fine."""
import os
import subprocess
import sys

sep = sys.argv.index("--")
d, cmd = sys.argv[1], sys.argv[sep + 1:]
bad = 0
for name in sorted(os.listdir(d)):
    path = os.path.join(d, name)
    argv = [path if a == "{}" else a for a in cmd]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        print("timeout: " + " ".join(argv))
        bad += 1
        continue
    if p.returncode not in (0, 1):
        print("status %d: %s" % (p.returncode, " ".join(argv)))
        bad += 1
sys.exit(1 if bad else 0)
