#!/usr/bin/env python3
"""Compare the clean-room reader (kallsyms_reader.py) with dwarfpack.

  compare_kallsyms.py DWARFPACK TABLE [--queries N] [--seed S] [--end HEX]

Checks that the reader's dump of TABLE equals `dwarfpack dump TABLE` byte
for byte, that its address lookups give the name and start address that
`dwarfpack lookup --output-style=JSON` gives (addresses at symbol starts,
inside symbols, before the first, past the end, random), and that its name
lookups print what `dwarfpack kallsyms --lookup-name` prints (existing,
duplicated and absent names). It also runs the reader's full validation.
Prints one summary line; exit status 1 on any difference.
"""

import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kallsyms_reader as kr  # noqa: E402


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("command failed (%d): %s\n%s" % (p.returncode, " ".join(cmd[:4]),
                                                   p.stderr.decode(errors="replace")))
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dwarfpack")
    ap.add_argument("table")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--end", default=None, help="end address for a ksym-blob (hex)")
    ap.add_argument("--stats", action="store_true",
                    help="print what the table exercised (escapes, id lengths, ...)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    end = int(args.end, 16) if args.end else None
    errors = []

    table = kr.open_table(args.table, end)
    table.validate()

    # Dump.
    ours = b"".join(kr.dump_line(s) for s in table.all_symbols())
    theirs = run([args.dwarfpack, "dump", args.table])
    if ours != theirs:
        a, b = ours.splitlines(), theirs.splitlines()
        for k, (x, y) in enumerate(zip(a, b)):
            if x != y:
                errors.append("dump line %d: reader %r, dwarfpack %r" % (k + 1, x, y))
                break
        else:
            errors.append("dump: reader %d lines, dwarfpack %d" % (len(a), len(b)))

    lines = theirs.splitlines()
    addrs = [int(l[:16], 16) for l in lines]
    names = [l[19:].split(b"\t")[0] for l in lines]

    # Address queries.
    q = args.queries
    qa = set()
    for _ in range(q):
        i = rng.randrange(len(addrs))
        kind = rng.randrange(4)
        if kind == 0:
            qa.add(addrs[i])
        elif kind == 1:
            nxt = next((x for x in addrs[i:] if x > addrs[i]), addrs[i] + 64)
            qa.add(addrs[i] + rng.randrange(nxt - addrs[i]))
        elif kind == 2 and addrs[i] > 0:
            qa.add(addrs[i] - 1)
        else:
            qa.add(rng.getrandbits(64) if rng.random() < 0.3 else addrs[0] + rng.randrange(addrs[-1] - addrs[0] + 1))
    for d in (1, 2, 0x10, 0x1000, 1 << 20, 1 << 33):
        if addrs[0] >= d:
            qa.add(addrs[0] - d)
        qa.add((addrs[-1] + d) & (2 ** 64 - 1))
    qa.add(addrs[-1])
    if getattr(table, "end_valid", False) or end is not None:
        e = table.end if end is None else end
        qa.update([e - 1, e, e + 1])
    qa = sorted(qa)
    cmd = [args.dwarfpack, "lookup", "--no-demangle", "--output-style=JSON", args.table]
    out = []
    text = run(cmd, stdin=b"".join(b"%#x\n" % a for a in qa)).decode("utf-8", "surrogateescape")
    for line in text.splitlines():
        v = json.loads(line)
        out.extend(v if isinstance(v, list) else [v])
    assert len(out) == len(qa)
    for a, o in zip(qa, out):
        sym = o["Symbol"][0]
        res = table.lookup_address(a)
        got = ("", "") if res is None else (
            res[0].name.decode("utf-8", "replace"), "%#x" % res[0].address)
        want = (sym["FunctionName"], sym["StartAddress"])
        if got != want:
            errors.append("address %#x: reader %r, dwarfpack %r" % (a, got, want))
        elif res is not None:
            # Type and module of the answer agree with its dump line.
            s = res[0]
            if kr.dump_line(s).rstrip(b"\n") not in lines:
                errors.append("address %#x: answer %r is no dump line" % (a, kr.dump_line(s)))

    # Name queries.
    counts = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    dup = [n for n, c in counts.items() if c > 1]
    qn = set()
    for _ in range(q):
        kind = rng.randrange(4)
        n = rng.choice(names)
        if kind == 0 and dup:
            n = rng.choice(dup)
        elif kind == 1:
            n = n + b"_x"
        elif kind == 2 and len(n) > 1:
            n = n[:-1]
        qn.add(n)
    qn.update([b"", b"zzzzzzzzzzzz", b"\x01"])
    qn = sorted(n for n in qn if not n.startswith(b"-") and b"\0" not in n)
    theirs = b""
    for k in range(0, len(qn), 200):
        cmd = [args.dwarfpack, "kallsyms", args.table]
        for n in qn[k:k + 200]:
            cmd.append(b"--lookup-name=" + n)
        theirs += run(cmd)
    ours = b""
    for n in qn:
        found = table.lookup_name(n)
        if not found:
            ours += b"?? " + n + b"\n"
        for s in found:
            ours += kr.dump_line(s)
    if ours != theirs:
        a, b = ours.splitlines(), theirs.splitlines()
        for k, (x, y) in enumerate(zip(a, b)):
            if x != y:
                errors.append("name lookup line %d: reader %r, dwarfpack %r" % (k + 1, x, y))
                break
        else:
            errors.append("name lookups: reader %d lines, dwarfpack %d" % (len(a), len(b)))
    kind = "compact" if isinstance(table, kr.CompactTable) else "ksym-blob"
    if args.stats:
        sys.stdout.write(kr.stats_text(table).decode())
    print("%s %s: %d symbols dumped, %d address and %d name lookups: %s" % (
        kind, os.path.basename(args.table), len(lines), len(qa), len(qn),
        "all equal" if not errors else "%d DIFFERENCES" % len(errors)))
    for e in errors[:20]:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
