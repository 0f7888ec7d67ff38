#!/usr/bin/env python3
"""Writes a C program whose function names hold many distinct words that
share long prefixes (configurationitem000, configurationitem001, ...), as
generated code and C++ symbols do.

usage: similar-names.py COUNT > prog.c
"""
import sys

count = int(sys.argv[1])
for i in range(count):
    print("__attribute__((noinline)) int parse_configurationitem%03d_value"
          "(int x) { return x * %d + %d; }" % (i, i + 3, i))
print("int main(int argc, char **argv) {")
print("  int s = argc;")
for i in range(count):
    print("  s += parse_configurationitem%03d_value(s);" % i)
print("  return s & 1;")
print("}")
