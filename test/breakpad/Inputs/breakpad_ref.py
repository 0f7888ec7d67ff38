#!/usr/bin/env python3
"""Independent reference resolver for Breakpad .sym files.

Parses the text directly (sharing nothing with lib/Breakpad) and answers,
for an address, the frames the .sym describes: the FUNC containing it, the
line record containing it, and the chain of INLINE records containing it,
or else the PUBLIC covering it. Meant for well-formed files; it implements
the rules of docs/UserGuide.md "Breakpad input":

  * frames are listed innermost first; the innermost takes file:line from
    the line record, each outer frame the call site of the inline below it;
  * INLINE in the current form names the call-site file (-1: none); in the
    older form the depth-0 call file is the file of the FUNC's first line
    record and a deeper one the declaration file of the parent's origin
    (older INLINE_ORIGIN form);
  * zero-size ranges are ignored;
  * code of a FUNC that no line record covers gives the function alone (no
    file, no line, no inline frames), starting where that stretch starts;
    the covered stretches between such gaps start frames no earlier than
    the stretch (the entry is cut there);
  * an unknown call-site file is "" here and "??" in dwarfpack's output;
  * a PUBLIC covers [address, next FUNC start or PUBLIC address) unless a
    FUNC contains its address; the last PUBLIC covers its address only.

Subcommands:
  addresses SYM [--random N] [--seed S]
      prints test addresses (hex, one a line): every FUNC start, every
      line-record start and last byte, every INLINE range start and last
      byte, every PUBLIC address, N random addresses inside FUNCs/PUBLICs.
  check SYM ADDRS JSON
      compares `dwarfpack lookup --output-style=JSON` output (one JSON value
      per address, in the order of ADDRS) with the reference; prints
      mismatches and a summary line; exit 1 on any mismatch.
  resolve SYM ADDR...
      prints the reference frames.
"""
import bisect
import json
import random
import sys


class Inline:
    def __init__(self, depth, call_line, call_file, origin, ranges, parent):
        self.depth = depth
        self.call_line = call_line
        self.call_file = call_file  # name or "" (resolved at end)
        self.origin = origin
        self.ranges = ranges
        self.parent = parent
        self.children = []

    def contains(self, a):
        return any(s <= a < e for s, e in self.ranges)

    def start_of(self, a):
        for s, e in self.ranges:
            if s <= a < e:
                return s
        return None


class Func:
    def __init__(self, start, size, name):
        self.start = start
        self.end = start + size
        self.name = name
        self.lines = []  # (start, end, line, file name)
        self.inlines = []  # depth-0 Inline nodes
        self.old_depth0 = []  # older-form depth-0 nodes needing the func file


class Sym:
    def __init__(self, path):
        self.files = {}
        self.origins = {}  # id -> (name, decl file id or None)
        self.funcs = []
        self.publics = {}
        cur = None
        stack = []
        with open(path, "rb") as f:
            data = f.read().decode("utf-8")
        for raw in data.split("\n"):
            line = raw.rstrip("\r")
            if not line:
                continue
            t = line.split(" ")
            kw = t[0]
            if kw in ("MODULE", "INFO", "STACK"):
                continue
            if kw == "FILE":
                self.files[int(t[1])] = line.split(" ", 2)[2]
            elif kw == "INLINE_ORIGIN":
                rest = line.split(" ", 2)[2]
                first, _, name = rest.partition(" ")
                if name and (first.isdigit() or first == "-1"):
                    self.origins[int(t[1])] = (name, int(first))
                else:
                    self.origins[int(t[1])] = (rest, None)
            elif kw == "FUNC":
                i = 2 if t[1] == "m" else 1
                name = line.split(" ", i + 3)[i + 3]
                cur = Func(int(t[i], 16), int(t[i + 1], 16), name)
                stack = []
                if cur.end > cur.start:
                    self.funcs.append(cur)
            elif kw == "PUBLIC":
                cur = None
                i = 2 if t[1] == "m" else 1
                name = line.split(" ", i + 2)[i + 2]
                a = int(t[i], 16)
                if a and a not in self.publics:
                    self.publics[a] = name
            elif kw == "INLINE":
                f = t[1:]
                current = len(f) % 2 == 0
                depth, call_line = int(f[0]), int(f[1])
                if current:
                    cf, origin, rs = int(f[2]), int(f[3]), f[4:]
                else:
                    cf, origin, rs = None, int(f[2]), f[3:]
                ranges = []
                for j in range(0, len(rs), 2):
                    s, n = int(rs[j], 16), int(rs[j + 1], 16)
                    if n:
                        ranges.append((s, s + n))
                del stack[depth:]
                parent = stack[depth - 1] if depth else None
                node = Inline(depth, call_line, None, origin, ranges, parent)
                if current:
                    node.call_file = self.files.get(cf, "") if cf >= 0 else ""
                elif depth == 0:
                    cur.old_depth0.append(node)
                else:
                    decl = self.origins[parent.origin][1]
                    node.call_file = self.files.get(decl, "") if decl is not None else ""
                stack.append(node)
                (parent.children if parent else cur.inlines).append(node)
            else:
                a, n, ln, fi = int(t[0], 16), int(t[1], 16), int(t[2]), int(t[3])
                if n:
                    cur.lines.append((a, a + n, ln, self.files[fi]))
        for fn in self.funcs:
            fn.lines.sort()
            fn.line_starts = [x[0] for x in fn.lines]
            # Start of the run of contiguous line records each one is in.
            fn.run_start = []
            for k, (s, e, _, _) in enumerate(fn.lines):
                contiguous = k and fn.lines[k - 1][1] == s
                fn.run_start.append(fn.run_start[-1] if contiguous else s)
            first = fn.lines[0][3] if fn.lines else ""
            for node in fn.old_depth0:
                node.call_file = first
        self.funcs.sort(key=lambda x: x.start)
        self.func_starts = [x.start for x in self.funcs]
        # PUBLIC extents.
        self.pub = []
        paddrs = sorted(self.publics)
        for k, a in enumerate(paddrs):
            if self.func_at(a):
                continue
            j = bisect.bisect_right(self.func_starts, a)
            end = self.func_starts[j] if j < len(self.func_starts) else None
            if k + 1 < len(paddrs):
                end = paddrs[k + 1] if end is None else min(end, paddrs[k + 1])
            self.pub.append((a, end if end is not None else a + 1, self.publics[a]))
        self.pub_starts = [p[0] for p in self.pub]

    def func_at(self, a):
        j = bisect.bisect_right(self.func_starts, a) - 1
        if j >= 0 and self.funcs[j].start <= a < self.funcs[j].end:
            return self.funcs[j]
        return None

    def resolve(self, a):
        """Frames innermost first: (function, file, line, start address)."""
        fn = self.func_at(a)
        if fn is None:
            j = bisect.bisect_right(self.pub_starts, a) - 1
            if j >= 0 and self.pub[j][0] <= a < self.pub[j][1]:
                return [(self.pub[j][2], "", 0, self.pub[j][0])]
            return []
        k = bisect.bisect_right(fn.line_starts, a) - 1
        if k < 0 or a >= fn.lines[k][1]:
            # No line record covers a: the function alone, starting where
            # the uncovered stretch starts.
            return [(fn.name, "", 0, fn.lines[k][1] if k >= 0 else fn.start)]
        chain = []
        level = fn.inlines
        while True:
            hit = [n for n in level if n.contains(a)]
            if not hit:
                break
            chain.append(hit[0])
            level = hit[0].children
        file, line = fn.lines[k][3], fn.lines[k][2]
        # With uncovered stretches the function is cut there: frames start
        # no earlier than the covered stretch the address is in.
        piece = fn.run_start[k]
        frames = []
        for node in reversed(chain):
            frames.append((self.origins[node.origin][0], file, line,
                           max(node.start_of(a), piece)))
            file, line = node.call_file, node.call_line
        frames.append((fn.name, file, line, piece))
        return frames

    def addresses(self, nrandom, seed):
        out = set()
        for fn in self.funcs:
            out.add(fn.start)
            out.add(fn.end - 1)
            for s, e, _, _ in fn.lines:
                out.add(s)
                out.add(e - 1)
            todo = list(fn.inlines)
            while todo:
                n = todo.pop()
                todo.extend(n.children)
                for s, e in n.ranges:
                    out.add(s)
                    out.add(e - 1)
        for s, e, _ in self.pub:
            out.add(s)
        rng = random.Random(seed)
        spans = [(f.start, f.end) for f in self.funcs] + [(s, e) for s, e, _ in self.pub]
        for _ in range(nrandom):
            s, e = spans[rng.randrange(len(spans))]
            out.add(rng.randrange(s, e))
        return sorted(out)


def frames_from_json(obj):
    """(function, file, line, start or None) per frame from one lookup."""
    frames = []
    for fr in obj.get("Symbol", []):
        name = fr.get("FunctionName", "")
        if name in ("", "??"):
            continue
        fname = fr.get("FileName", "")
        if fname == "??":
            fname = ""
        start = fr.get("StartAddress")
        if isinstance(start, str):
            start = int(start, 16) if start else None
        frames.append((name, fname, int(fr.get("Line", 0)), start))
    return frames


def read_json_values(text):
    dec = json.JSONDecoder()
    i, out = 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        v, i = dec.raw_decode(text, i)
        out.extend(v if isinstance(v, list) else [v])
    return out


def main(argv):
    cmd = argv[1]
    if cmd == "addresses":
        sym = Sym(argv[2])
        n, seed = 0, 1
        if "--random" in argv:
            n = int(argv[argv.index("--random") + 1])
        if "--seed" in argv:
            seed = int(argv[argv.index("--seed") + 1])
        for a in sym.addresses(n, seed):
            print("0x%x" % a)
        return 0
    if cmd == "resolve":
        sym = Sym(argv[2])
        for a in argv[3:]:
            for fr in sym.resolve(int(a, 16)):
                print("%s %s %s:%d 0x%x" % (a, fr[0], fr[1], fr[2], fr[3]))
        return 0
    if cmd == "check":
        sym = Sym(argv[2])
        addrs = [int(x, 16) for x in open(argv[3]).read().split()]
        got = read_json_values(open(argv[4], encoding="utf-8").read())
        if len(got) != len(addrs):
            print("error: %d addresses but %d JSON results" % (len(addrs), len(got)))
            return 1
        bad = frames = inl = 0
        for a, obj in zip(addrs, got):
            want = sym.resolve(a)
            have = frames_from_json(obj)
            frames += len(want)
            inl += max(0, len(want) - 1)
            same = len(want) == len(have) and all(
                w[:3] == h[:3] and (h[3] is None or w[3] == h[3])
                for w, h in zip(want, have))
            if not same:
                bad += 1
                if bad <= 20:
                    print("mismatch at 0x%x:\n  want %s\n  have %s" % (a, want, have))
        print("checked %d addresses, %d frames (%d inlined), %d mismatches"
              % (len(addrs), frames, inl, bad))
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
