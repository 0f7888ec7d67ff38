"""Builds OUT/odd, a program whose source file lies in a directory whose
name JSON must escape (a quote, a backslash, a tab, a control character)
and which is not valid UTF-8, so that answers print those bytes.

usage: odd-path-program.py OUT
"""
import os
import subprocess
import sys

out = os.fsencode(sys.argv[1])
src_dir = os.path.join(out, b'q"b\\t\tc\x01-\xff\xfe')
os.makedirs(src_dir, exist_ok=True)
src = os.path.join(src_dir, b"odd.c")
with open(src, "w") as f:
    f.write("static int twice(int x) { return 2 * x; }\n"
            "int odd(int x) { return twice(x) + 1; }\n"
            "int main(int argc, char **argv) { return odd(argc); }\n")
subprocess.check_call([b"clang", b"-O2", b"-g", src, b"-o",
                       os.path.join(out, b"odd")])
