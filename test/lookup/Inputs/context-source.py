#!/usr/bin/env python3
"""Writes a C file whose source lines test --print-source-context-lines:
CRLF line ends, more than 100 lines (line numbers of one to three digits),
a comment with a tab, quotes, backslashes, UTF-8 and a byte that is not
UTF-8 (JSON's escapes), and a function on the last line, which has no line
end.

usage: context-source.py OUT.c
"""
import sys

lines = ["/* \t\"quoted\" \\back\\slash caf\u00e9 ".encode() + b"\xff */",
         b"volatile int Sink;"]
lines += [b"/* filler %d */" % i for i in range(3, 98)]
lines += [b"static __attribute__((noinline)) int middle(int x) {",
          b"  Sink = x;",
          b"  return x * 3;",
          b"}",
          b"int main(int argc, char **argv) { return middle(argc) + 1; }"]
with open(sys.argv[1], "wb") as f:
    f.write(b"\r\n".join(lines))
