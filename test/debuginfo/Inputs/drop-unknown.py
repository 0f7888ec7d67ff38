#!/usr/bin/env python3
"""Drops the answers of unknown build-ids from LLVM-style lookup output on
stdin: each record is lines up to a blank line; a record whose first line
is "??" and second "??:0" goes.
"""
import sys

records = sys.stdin.read().split("\n\n")
kept = [r for r in records if r.strip() and not r.startswith("??\n??:0")]
sys.stdout.write("".join(r.strip("\n") + "\n\n" for r in kept))
