#!/usr/bin/env python3
"""usage: withargs.py LIST -- COMMAND [ARG...]
Runs COMMAND ARG... with the lines of LIST appended as arguments (lit's
shell has no command substitution)."""
import subprocess
import sys

sep = sys.argv.index("--")
with open(sys.argv[1]) as f:
    extra = [l.strip() for l in f if l.strip()]
sys.exit(subprocess.call(sys.argv[sep + 1:] + extra))
