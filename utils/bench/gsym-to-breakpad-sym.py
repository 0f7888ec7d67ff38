#!/usr/bin/env python3
"""Writes a Breakpad .sym from the text of `dwarfpack dump FILE.gsym`.

For benchmarks only: it gives a kernel-sized .sym with real names, lines
and inline trees when Breakpad's dump_syms is not available. Entries with a
line table become FUNC records with line records and INLINE records (the
current forms), the others PUBLIC records. Addresses are made
module-relative by subtracting --base (default: the lowest function start
rounded down to 2 MiB, e.g. 0xffffffff81000000 for an x86-64 vmlinux).

usage: dwarfpack dump X.gsym | gsym-to-breakpad-sym.py NAME OUT.sym [--base HEX]
"""
import re
import sys
import tempfile

RANGE = re.compile(r"\[0x([0-9a-f]+) - 0x([0-9a-f]+)\) ")


def main():
    name, out_path = sys.argv[1], sys.argv[2]
    base = None
    if "--base" in sys.argv:
        base = int(sys.argv[sys.argv.index("--base") + 1], 16)
    files, file_ids, origins = [], {}, {}
    uuid = ""
    body = tempfile.TemporaryFile("w+", encoding="utf-8")
    cur = None  # (start, end, name, rows, inline lines)

    def file_id(path):
        if path not in file_ids:
            file_ids[path] = len(files)
            files.append(path)
        return file_ids[path]

    def origin_id(n):
        if n not in origins:
            origins[n] = len(origins)
        return origins[n]

    def flush():
        nonlocal base
        if cur is None:
            return
        start, end, fname, rows, inl = cur
        if base is None:
            base = start & ~0x1FFFFF
        rel = lambda a: "%x" % (a - base)
        if not rows:
            body.write("PUBLIC %s 0 %s\n" % (rel(start), fname))
            return
        body.write("FUNC %s %x 0 %s\n" % (rel(start), end - start, fname))
        for depth, ranges, iname, cfile, cline in inl:
            rs = " ".join("%s %x" % (rel(s), e - s) for s, e in ranges)
            body.write("INLINE %d %d %d %d %s\n" % (depth, cline, file_id(cfile), origin_id(iname), rs))
        for i, (a, path, line) in enumerate(rows):
            nxt = rows[i + 1][0] if i + 1 < len(rows) else end
            if nxt > a:
                body.write("%s %x %d %d\n" % (rel(a), nxt - a, line, file_id(path)))

    section = None
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        s = line.lstrip(" ")
        indent = len(line) - len(s)
        if line.startswith("  UUID") and "=" in line:
            uuid = line.split("=", 1)[1].strip()
        elif line.startswith("Functions:"):
            section = "funcs"
        elif section == "funcs" and line.startswith("["):
            flush()
            m = re.match(r"\[\s*\d+\] @ 0x[0-9a-f]+: \[0x([0-9a-f]+) - 0x([0-9a-f]+)\) \"(.*)\"$", line)
            cur = (int(m.group(1), 16), int(m.group(2), 16), m.group(3), [], [])
            mode = None
        elif section == "funcs" and s.startswith("LineTable:"):
            mode = "lines"
        elif section == "funcs" and s.startswith("InlineInfo:"):
            mode = "inline"
            root_indent = None
        elif section == "funcs" and mode == "lines" and s.startswith("0x"):
            addr, rest = s.split(" ", 1)
            path, _, ln = rest.rpartition(":")
            cur[3].append((int(addr, 16), path, int(ln)))
        elif section == "funcs" and mode == "inline" and s.startswith("["):
            if root_indent is None:
                root_indent = indent
                continue
            ranges, pos = [], 0
            while True:
                m = RANGE.match(s, pos)
                if not m:
                    break
                ranges.append((int(m.group(1), 16), int(m.group(2), 16)))
                pos = m.end()
            iname, _, call = s[pos:].rpartition(" called from ")
            cfile, _, cline = call.rpartition(":")
            depth = (indent - root_indent) // 2 - 1
            cur[4].append((depth, ranges, iname, cfile, int(cline)))
    flush()

    with open(out_path, "w", encoding="utf-8") as out:
        out.write("MODULE Linux x86_64 000000000000000000000000000000000 %s\n" % name)
        if uuid:
            out.write("INFO CODE_ID %s\n" % uuid.upper())
        for i, p in enumerate(files):
            out.write("FILE %d %s\n" % (i, p))
        for n, i in sorted(origins.items(), key=lambda kv: kv[1]):
            out.write("INLINE_ORIGIN %d %s\n" % (i, n))
        body.seek(0)
        while True:
            chunk = body.read(1 << 20)
            if not chunk:
                break
            out.write(chunk)


if __name__ == "__main__":
    main()
