#!/usr/bin/env python3
"""usage: prefixes.py FILE DIR -- writes every prefix of FILE (0..size-1
bytes) as DIR/<length>."""
import os
import sys

data = open(sys.argv[1], "rb").read()
os.makedirs(sys.argv[2], exist_ok=True)
for n in range(len(data)):
    open(os.path.join(sys.argv[2], str(n)), "wb").write(data[:n])
