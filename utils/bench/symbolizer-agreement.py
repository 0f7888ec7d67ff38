#!/usr/bin/env python3
"""Byte-for-byte agreement of the drop-in CLIs with the tools they replace.

    symbolizer-agreement.py ELF [--table TABLE] [-n 3000] [--seed 1]
                            [--work DIR] [--show 3] [--summary-json FILE]
                            [--variant=OPTIONS]...

For N addresses sampled from ELF, runs `llvm-symbolizer --obj=ELF` and
`dwarfpack lookup --obj=TABLE` (TABLE made with `dwarfpack gsym ELF` when not
given) with the same options, in LLVM, GNU and JSON styles, with and without
--inlines, with -a, -p, -s and --functions=linkage|short|none; and binutils
`addr2line -e ELF -f -i -C` (and with -a -p) against `dwarfpack addr2line -e
TABLE`. Reports, per option set and in all, the share of addresses whose
output is identical byte for byte, and classifies the others by the first of
these explanations that makes both outputs equal (each one is applied on top
of the previous ones):

  column           columns differ (tables without details carry none)
  discriminator    GNU "(discriminator N)" differs (likewise)
  decl-line        JSON StartFileName/StartLine differ (likewise)
  start-address    JSON StartAddress: llvm-symbolizer prints none for an
                   inlined call of several ranges, the table its range start
  comp-dir         a relative directory is doubled (binutils 2.40 joins a
                   relative DW_AT_comp_dir to DWARF 5's directory 0, which
                   is that same directory: ./stdlib/./stdlib/abort.c for
                   glibc's ./stdlib/abort.c)
  no-line-file     code without a line row in a DWARF function: at the
                   first lookup in a function without a linkage name,
                   binutils prints the STT_FILE name of its local symbol
                   ("unit.c:?"), "??:?" at later ones; dwarfpack addr2line
                   prints "??:?" (for code only a symbol describes it
                   prints binutils' file)
  basename         -s: llvm-symbolizer keeps a path the line table gives as
                   a file name of its own; a GSYM table (or a compact one
                   made before dwarfpack recorded such paths) cannot tell
                   them, and lookup strips them
  qualified-name   a name differs by its scope only (GCC functions without a
                   linkage name: the converter qualifies their DW_AT_name)
  clone-name       a name differs by a clone suffix (foo.cold against foo)
  not-found        one side answers "??" for the whole address
  symtab-name      llvm-symbolizer names no function where the table names
                   one from the symbol table (with --functions=short it
                   reads names from DWARF only)
  inline-missed    the reference lacks the innermost inlined frames and names
                   their caller at the innermost line (binutils 2.40 with
                   inlined calls of several address ranges)
  file             addr2line only: the same names and lines in other files,
                   where elfutils' eu-addr2line names the files the table
                   does (binutils 2.40 names another file of the unit for
                   some rows of GCC's DWARF 5 line tables)
  name             the same locations under other names (an alias symbol
                   the table is named after, where DWARF names another)
  other            anything else (frames, files, lines): see the examples

Sampling (the `Symbols` sampler of gsym-agreement.py): every function symbol
at its start and at a random offset (a random subset of the functions when
there are more than N/2), N/4 addresses uniform over the bytes of the
functions, and N/4 inline-heavy ones: the deepest inline chains (by
llvm-symbolizer's JSON) among 4N uniform draws. Addresses in LLVM and GNU
style are delimited by the -a header, added to every run (it is identical by
construction and checked like the rest); JSON answers one object per line
(its ModuleName, the ELF on one side and the table on the other, is left
out).

Python 3 standard library and LLVM 19's tools only. Exit status 0 unless a
tool failed to run.
"""

import argparse
import collections
import importlib.util
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def load_gsym_agreement():
    spec = importlib.util.spec_from_file_location(
        "gsym_agreement", os.path.join(HERE, "gsym-agreement.py"))
    mod = importlib.util.module_from_spec(spec)
    saved = sys.argv
    sys.argv = [sys.argv[0]]  # it parses no arguments at import
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.argv = saved
    return mod


GA = load_gsym_agreement()

STYLES = ["LLVM", "GNU", "JSON"]
VARIANTS = [[], ["--no-inlines"], ["-a"], ["-p"], ["-s"],
            ["--functions=linkage"], ["--functions=short"],
            ["--functions=none"]]
ADDR2LINE_SETS = [["-f", "-i", "-C"], ["-a", "-p", "-f", "-i", "-C"],
                  ["-f"], []]


def run(cmd, stdin_text):
    p = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True,
                       errors="replace")
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-2000:])
        raise RuntimeError("failed (exit %d): %s" % (p.returncode,
                                                     " ".join(cmd)))
    return p.stdout


# --- sampling -----------------------------------------------------------------

def sample(elf, n, rng, args):
    syms = GA.Symbols(elf, args)
    funcs = syms.sized
    if len(funcs) > n // 2:
        funcs = rng.sample(funcs, n // 2)
    addrs = set()
    for a, s in funcs:
        addrs.add(a)
        addrs.add(a + rng.randrange(s))
    for _ in range(n // 4):
        addrs.add(syms.draw(rng))
    pool = sorted({syms.draw(rng) for _ in range(4 * n)})
    depth = GA.run_oracle(elf, pool, args)
    deep = sorted(pool, key=lambda a: (-len(depth.get(a, [])), a))
    addrs.update(deep[: n // 4])
    return sorted(addrs)


# --- splitting outputs by address ---------------------------------------------

def split_plain(text):
    """{address: block} of a plain (-a) output."""
    head = re.compile(r"^0x([0-9a-f]+)(?:: |$)", re.M)
    starts = [(m.start(), int(m.group(1), 16)) for m in head.finditer(text)]
    blocks = {}
    for i, (pos, a) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        blocks[a] = text[pos:end]
    return blocks


def split_json(text):
    """{address: object} of JSON output, one object per line or indented
    (-p); ModuleName names the ELF on one side and the table on the other,
    as each was given, so it is left out."""
    blocks, pos, dec = {}, 0, json.JSONDecoder()
    while text[pos:].strip():
        o, end = dec.raw_decode(text, pos)
        pos = end + 1
        if "Address" in o:
            o.pop("ModuleName", None)
            blocks[int(o["Address"], 16)] = json.dumps(o) + "\n"
    return blocks


# --- classifying differences --------------------------------------------------

def no_columns(t):
    return re.sub(r"(:\d+):\d+$", r"\1:0", t, flags=re.M)


def no_discriminators(t):
    return re.sub(r" \(discriminator \d+\)", "", t)


def json_blank(t, keys):
    o = json.loads(t)
    for f in o.get("Symbol", []):
        for k in keys:
            f[k] = 0 if k in ("Column", "Discriminator", "StartLine") else ""
    return json.dumps(o, sort_keys=True)


def json_start_addresses(ref, ours):
    r, o = json.loads(ref), json.loads(ours)
    for rf, of in zip(r.get("Symbol", []), o.get("Symbol", [])):
        if rf.get("StartAddress") == "":
            of["StartAddress"] = ""
    return json.dumps(o)


def undoubled(t):
    """Paths without a relative directory repeated after itself."""
    return re.sub(r"(^|[\s|\"])(\.{1,2}(?:/[^\s/:\"|]+)*)/\2/", r"\1\2/", t,
                  flags=re.M)


def unknown_files(t):
    """The file of a location without a line ("FILE:?") as "??"."""
    t = re.sub(r"^[^ \n]*:\?$", "??:?", t, flags=re.M)
    return re.sub(r" at [^\n]*:\?$", " at ??:?", t, flags=re.M)


def basenames(t):
    return re.sub(r"(^|[\s\"])/[^\s:\"]*/([^/\s:\"]+:)", r"\1\2", t,
                  flags=re.M)


QUALIFIED = re.compile(r"(?<![\w:])(?:[A-Za-z_][\w<>, ]*::)+(?=[\w~]+<)")


def unqualified(t):
    """Drops the scope before a template function's name (ns::twice<int>)."""
    return QUALIFIED.sub("", t)


CLONE = re.compile(r"(\.(cold|isra|part|constprop|lto_priv|localalias|llvm)"
                   r"(\.\d+)?)+|( \(\.[a-z_]+(\.\d+)?\))+")


def unclone(t):
    return CLONE.sub("", t)


def only_unknown(t):
    lines = [l for l in t.splitlines()
             if not re.match(r"^0x[0-9a-f]+$", l) and l.strip()]
    return all(re.sub(r"^0x[0-9a-f]+: ", "", l).strip(" ?:0") == ""
               for l in lines)


def unnamed(t, style):
    """Whether some frame is named "??" (JSON: "")."""
    if style == "JSON":
        return any(f.get("FunctionName") == ""
                   for f in json.loads(t).get("Symbol", []))
    return bool(re.search(r"(^|: )\?\?( at |$)", t, flags=re.M))


def plain_frames(t):
    """[(name, location)] of a plain block (names "" when not printed)."""
    lines = t.splitlines()
    if lines and re.match(r"^0x[0-9a-f]+$", lines[0]):
        lines = lines[1:]
    elif lines:
        lines[0] = re.sub(r"^0x[0-9a-f]+: ", "", lines[0])
    lines = [l for l in lines if l]
    if any(" at " in l for l in lines):
        return [tuple(re.sub(r"^ \(inlined by\) ", "", l).rsplit(" at ", 1))
                for l in lines]
    if len(lines) % 2:
        return [("", l) for l in lines]
    return list(zip(lines[0::2], lines[1::2]))


def classify(ref, ours, style):
    if ref == ours:
        return "identical"
    steps = []
    if style == "JSON":
        steps = [("column", lambda r, o: (json_blank(r, ["Column"]),
                                          json_blank(o, ["Column"]))),
                 ("discriminator",
                  lambda r, o: (json_blank(r, ["Column", "Discriminator"]),
                                json_blank(o, ["Column", "Discriminator"]))),
                 ("decl-line", lambda r, o: (
                     json_blank(r, ["Column", "Discriminator",
                                    "StartFileName", "StartLine"]),
                     json_blank(o, ["Column", "Discriminator",
                                    "StartFileName", "StartLine"])))]
        r, o = steps[-1][1](ref, ours)
        if r == o:
            for kind, f in steps:
                a, b = f(ref, ours)
                if a == b:
                    return kind
        ours2 = json_start_addresses(ref, ours)
        keys = ["Column", "Discriminator", "StartFileName", "StartLine"]
        r, o = json_blank(ref, keys), json_blank(ours2, keys)
        if r == o:
            return "start-address"
        ref_t, ours_t = r, o
    else:
        ref_t, ours_t = ref, ours
        for kind, f in [("column", no_columns),
                        ("discriminator", no_discriminators)]:
            ref_t, ours_t = f(ref_t), f(ours_t)
            if ref_t == ours_t:
                return kind
    for kind, f in [("comp-dir", undoubled), ("no-line-file", unknown_files),
                    ("basename", basenames),
                    ("qualified-name", unqualified),
                    ("clone-name", unclone)]:
        ref_t, ours_t = f(ref_t), f(ours_t)
        if ref_t == ours_t:
            return kind
    if style != "JSON" and only_unknown(ref) != only_unknown(ours):
        return "not-found"
    if unnamed(ref, style) and not unnamed(ours, style):
        return "symtab-name"
    if style == "JSON" and (json_blank(ref_t, ["FunctionName"]) ==
                            json_blank(ours_t, ["FunctionName"])):
        return "name"
    if style != "JSON":
        r, o = plain_frames(ref_t), plain_frames(ours_t)
        if any(r == [(o[k][0], o[0][1])] + o[k + 1:]
               for k in range(1, len(o))):
            return "inline-missed"
        if [f[1] for f in r] == [f[1] for f in o]:
            return "name"
        if style == "addr2line" and ([(n, line_of(l)) for n, l in r] ==
                                     [(n, line_of(l)) for n, l in o]):
            return "file"
    return "other"


def line_of(location):
    """The line (and discriminator) of FILE:LINE[ (discriminator N)]."""
    return location.rsplit(":", 1)[-1]


def first_location(block):
    """The FILE:LINE of a plain block's innermost frame, without column,
    discriminator and doubled directories (comp-dir); "" when none."""
    loc = re.compile(r"^(.*?:(?:\d+|\?))(?::\d+)?(?: \(discriminator \d+\))?$")
    for line in block.splitlines():
        line = re.sub(r"^0x[0-9a-f]+(: |$)", "", line)
        m = loc.match(line.rsplit(" at ", 1)[-1])
        if m and " inlined at " not in line:
            return undoubled(m.group(1))
    return ""


def confirm_files(elf, tally, show):
    """Keeps "file" only where eu-addr2line names the table's file for the
    innermost frame (the row's file, which binutils misnames; eu-addr2line
    misses some inlined frames); the rest become "other". Without
    eu-addr2line, every one is "other"."""
    cases = tally.cases.get("file", [])
    if not cases:
        return
    eu = shutil.which("eu-addr2line")
    text = "".join("0x%x\n" % c[0] for c in cases)
    eu_b = split_plain(run([eu, "-e", elf, "-a"], text)) if eu else {}
    for case in cases:
        if first_location(eu_b.get(case[0], "")) != first_location(case[2]):
            tally.move(case, "file", "other", show)


# --- running ------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.kinds = collections.Counter()
        self.examples = collections.defaultdict(list)
        self.cases = collections.defaultdict(list)
        self.total = 0

    def add(self, kind, addr, ref, ours, show):
        self.total += 1
        self.kinds[kind] += 1
        if kind == "file":
            self.cases["file"].append((addr, ref, ours))
        if kind not in ("identical",) and len(self.examples[kind]) < show:
            self.examples[kind].append((addr, ref, ours))

    def move(self, case, old, new, show):
        self.kinds[old] -= 1
        self.kinds[new] += 1
        self.examples[old] = [e for e in self.examples[old] if e != case]
        if len(self.examples[new]) < show:
            self.examples[new].append(case)


def compare_sets(ref_cmd, our_cmd, style, addrs, show):
    text = "".join("0x%x\n" % a for a in addrs)
    ref_out, our_out = run(ref_cmd, text), run(our_cmd, text)
    tally = Tally()
    split = split_json if style == "JSON" else split_plain
    ref_b, our_b = split(ref_out), split(our_out)
    for a in addrs:
        r, o = ref_b.get(a, ""), our_b.get(a, "")
        tally.add(classify(r, o, style), a, r, o, show)
    return tally


def report(name, t, show, out):
    same = t.kinds["identical"]
    out.write("%-44s %6d/%-6d %6.2f%% identical\n" %
              (name, same, t.total, 100.0 * same / max(t.total, 1)))
    for kind, c in t.kinds.most_common():
        if kind != "identical":
            out.write("    %-16s %6d (%.2f%%)\n" %
                      (kind, c, 100.0 * c / max(t.total, 1)))
    for kind, ex in sorted(t.examples.items()):
        for a, r, o in ex[:show]:
            out.write("    e.g. %s at 0x%x:\n      ref:  %s\n      ours: %s\n"
                      % (kind, a, r.strip().replace("\n", " | ")[:300],
                         o.strip().replace("\n", " | ")[:300]))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("elf")
    p.add_argument("--table")
    p.add_argument("-n", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--show", type=int, default=2)
    p.add_argument("--work", default=os.path.join(
        os.environ.get("DWARFPACK_BENCH_DIR", "/var/tmp/dwarfpack-bench"),
        "out", "symbolizer-agreement"))
    p.add_argument("--dwarfpack", default=os.path.join(TOP, "build", "bin",
                                                       "dwarfpack"))
    p.add_argument("--llvm-bin", default=GA.LLVM_BIN)
    p.add_argument("--summary-json")
    p.add_argument("--variant", action="append",
                   help="an option set compared in each style instead of "
                   "the default ones (repeatable; with '=', as it starts "
                   "with a dash): --variant=--verbose, "
                   "'--variant=--print-source-context-lines=3 --no-inlines'")
    args = p.parse_args()
    variants = ([shlex.split(v) for v in args.variant] if args.variant
                else VARIANTS)

    os.makedirs(args.work, exist_ok=True)
    base = os.path.basename(args.elf)
    table = args.table
    if not table:
        table = os.path.join(args.work, base + ".dpat")
        run([args.dwarfpack, "gsym", args.elf, "-o", table], "")
    rng = random.Random(args.seed)
    addrs = sample(args.elf, args.n, rng, args)
    out = sys.stdout
    out.write("%s: %d addresses, table %s\n" % (args.elf, len(addrs), table))
    symbolizer = GA.tool("llvm-symbolizer", args)
    results, overall = {}, Tally()
    for style in STYLES:
        for v in variants:
            opts = ["--output-style=" + style] + v
            split = [] if style == "JSON" or "-a" in v else ["-a"]
            name = "lookup " + " ".join(opts)
            t = compare_sets([symbolizer, "--obj=" + args.elf] + opts + split,
                             [args.dwarfpack, "lookup", "--obj=" + table] +
                             opts + split, style, addrs, args.show)
            report(name, t, args.show, out)
            results[name] = dict(t.kinds)
            overall.kinds.update(t.kinds)
            overall.total += t.total
    for opts in ADDR2LINE_SETS:
        split = [] if "-a" in opts else ["-a"]
        name = "addr2line " + " ".join(opts)
        t = compare_sets(["addr2line", "-e", args.elf] + opts + split,
                         [args.dwarfpack, "addr2line", "-e", table] + opts +
                         split, "addr2line", addrs, args.show)
        confirm_files(args.elf, t, args.show)
        report(name, t, args.show, out)
        results[name] = dict(t.kinds)
    same = overall.kinds["identical"]
    data_kinds = ("identical", "column", "discriminator", "decl-line")
    modulo = sum(overall.kinds[k] for k in data_kinds)
    out.write("lookup, all option sets: %d/%d identical (%.2f%%); %.2f%% "
              "but for columns, discriminators and declaration lines (what "
              "tables without details lack)\n" %
              (same, overall.total, 100.0 * same / max(overall.total, 1),
               100.0 * modulo / max(overall.total, 1)))
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump({"elf": args.elf, "addresses": len(addrs),
                       "sets": results}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
