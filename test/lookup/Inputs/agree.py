#!/usr/bin/env python3
"""Runs dwarfpack and the tool it stands in for with the same options and
addresses, and diffs their output.

usage: agree.py symbolizer ELF TABLE ADDRS [--args] -- OPTIONS...
       agree.py addr2line ELF TABLE ADDRS [--args] [--ours CMD] -- OPTIONS...

symbolizer: `llvm-symbolizer --obj=ELF OPTIONS` against
`dwarfpack lookup --obj=TABLE OPTIONS`; addr2line: binutils `addr2line -e ELF
OPTIONS` against `dwarfpack addr2line -e TABLE OPTIONS` (or CMD -e TABLE, a
link named addr2line). Each OPTIONS is one shell-quoted string; "REF|OURS"
gives each tool its own spelling. Addresses are read from stdin, or with
--args given as arguments (llvm-symbolizer's JSON then prints one array).

Blanked on both sides (see blank()): in JSON, ModuleName, which names
different files. Columns, discriminators, declaration lines and start
addresses are compared: the compact tables carry them.
Everything else must be byte-identical. Exits 1 at the first difference.
"""
import difflib
import json
import shlex
import subprocess
import sys


def blank_json(obj):
    if "ModuleName" in obj:
        obj["ModuleName"] = ""
    return obj


def json_values(text, pretty):
    """The JSON values of a tool's output: one per line, or indented."""
    if not pretty:
        return [json.loads(line) for line in text.splitlines()]
    out, pos, dec = [], 0, json.JSONDecoder()
    while text[pos:].strip():
        doc, end = dec.raw_decode(text, pos)
        out.append(doc)
        pos = end + 1  # the line end after each value
    return out


def objects(values):
    for v in values:
        yield from v if isinstance(v, list) else [v]


def blank(texts, style, pretty):
    """Both outputs, with what the tables lack blanked."""
    if style == "json":
        values = [json_values(t, pretty) for t in texts]
        out = []
        for vs in values:
            for v in vs:
                for o in objects([v]):
                    blank_json(o)
            if pretty:
                out.append("\n".join(json.dumps(v, indent=2, ensure_ascii=False)
                                      for v in vs) + "\n")
            else:
                out.append("".join(json.dumps(v, separators=(",", ":"),
                                              ensure_ascii=False) + "\n"
                                   for v in vs))
        return out
    return texts


def style_of(opts):
    style = "llvm"
    for o in opts:
        if o.startswith("--output-style="):
            style = o.split("=", 1)[1].lower()
    return style


def main():
    sys.stdout.reconfigure(errors="surrogateescape")
    args = sys.argv[1:]
    sep = args.index("--")
    head, option_sets = args[:sep], args[sep + 1:]
    mode, elf, table, addr_file = head[:4]
    as_args = "--args" in head
    ours_cmd = ["dwarfpack", mode if mode == "addr2line" else "lookup"]
    if "--ours" in head:
        ours_cmd = [head[head.index("--ours") + 1]]
    with open(addr_file) as f:
        addrs = [l.strip() for l in f if l.strip()]
    for spec in option_sets:
        ref_opts, _, our_opts = spec.partition("|")
        ref_opts = shlex.split(ref_opts)
        our_opts = shlex.split(our_opts) if our_opts else ref_opts
        if mode == "addr2line":
            ref = ["addr2line", "-e", elf] + ref_opts
            ours = ours_cmd + ["-e", table] + our_opts
            style = "addr2line"
        else:
            ref = ["llvm-symbolizer", "--obj=" + elf] + ref_opts
            ours = ours_cmd + ["--obj=" + table] + our_opts
            style = style_of(ref_opts)
        pretty = "-p" in ref_opts or "--pretty-print" in ref_opts
        stdin = None if as_args else "\n".join(addrs) + "\n"
        extra = addrs if as_args else []
        texts = []
        for cmd in (ref, ours):
            # Source lines (--print-source-context-lines) may hold bytes
            # that are not UTF-8: kept as they are, and compared so.
            r = subprocess.run(cmd + extra, input=stdin, capture_output=True,
                               text=True, errors="surrogateescape")
            if r.returncode != 0:
                sys.exit("%s: exit status %d: %s" %
                         (" ".join(cmd), r.returncode, r.stderr))
            texts.append(r.stdout)
        outs = blank(texts, style, pretty)
        if outs[0] != outs[1]:
            sys.stdout.writelines(difflib.unified_diff(
                outs[0].splitlines(True), outs[1].splitlines(True),
                " ".join(ref), " ".join(ours), n=2))
            sys.exit("differ: %r" % spec)
        print("agree: %s (%d addresses)" % (spec, len(addrs)))


main()
