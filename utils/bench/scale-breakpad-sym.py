#!/usr/bin/env python3
"""Writes a large Breakpad .sym by repeating the records of a small one.

Copy k of every address-carrying record (FUNC, line, INLINE, PUBLIC,
STACK CFI/WIN) is shifted by k * span, where span covers all addresses of
the input, so the copies never overlap. Names get a ".k" suffix from the
second copy on so that they stay distinct. Used by breakpad-bench.sh to time
the conversion of a kernel-sized file.

usage: scale-breakpad-sym.py IN.sym OUT.sym COPIES
"""
import sys


def main():
    src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(src, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    head, body, top = [], [], 0
    for l in lines:
        if l.startswith(("MODULE ", "INFO ", "FILE ", "INLINE_ORIGIN ")):
            head.append(l)
            continue
        body.append(l)
        t = l.split(" ")
        if t[0] == "FUNC":
            i = 2 if t[1] == "m" else 1
            top = max(top, int(t[i], 16) + int(t[i + 1], 16))
        elif t[0] == "PUBLIC":
            i = 2 if t[1] == "m" else 1
            top = max(top, int(t[i], 16) + 1)
        elif t[0] not in ("INLINE", "STACK"):
            top = max(top, int(t[0], 16) + int(t[1], 16))
    span = (top + 0xFFFF) & ~0xFFFF

    def shift(l, d, k):
        t = l.split(" ")
        h = lambda s: format(int(s, 16) + d, "x")
        if t[0] in ("FUNC", "PUBLIC"):
            i = 2 if t[1] == "m" else 1
            t[i] = h(t[i])
            n = i + (3 if t[0] == "FUNC" else 2)
            if k:
                t[-1] += ".%d" % k
            return " ".join(t)
        if t[0] == "INLINE":
            first = 5 if len(t) % 2 == 1 else 4  # current form: even fields
            for j in range(first, len(t), 2):
                t[j] = h(t[j])
            return " ".join(t)
        if t[0] == "STACK":
            if t[1] == "CFI":
                j = 3 if t[2] == "INIT" else 2
                t[j] = h(t[j])
            elif t[1] == "WIN":
                t[3] = h(t[3])
            return " ".join(t)
        t[0] = h(t[0])
        return " ".join(t)

    with open(dst, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(head) + "\n")
        for k in range(copies):
            d = k * span
            out.write("\n".join(shift(l, d, k) for l in body) + "\n")


if __name__ == "__main__":
    main()
