#!/usr/bin/env python3
"""Compare GSYM lookups with llvm-symbolizer --inlines, address by address.

    gsym-agreement.py ELF GSYM [--candidate dwarfpack|llvm-gsymutil|both]
                      [-n 20000] [--seed 1] [--symtab-n 2000] [--show 5]
                      [--sampling functions|text] [--summary-json FILE]
                      [--file-offsets | --lookup-arg OPTION ...]
    gsym-agreement.py --self-test

Samples N addresses that DWARF covers (a DW_TAG_subprogram range contains
them) and up to --symtab-n addresses that only the symbol table covers, looks
them all up with the oracle (`llvm-symbolizer --inlines --output-style=JSON`)
and with each candidate reading GSYM (`dwarfpack lookup GSYM
--output-style=JSON`, `llvm-gsymutil --addresses-from-stdin`), and compares the
full inline chain: function, file and line of every frame, innermost first
(GSYM has no columns). Prints the agreement, the kinds of mismatch and a few
examples per kind.

GSYM is an LLVM GSYM file (`dwarfpack gsym --format=gsym ELF -o GSYM`: the
default output of `dwarfpack gsym` is the compact table, which only the
dwarfpack candidate reads; llvm-gsymutil needs --format=gsym).

Sampling. Addresses are drawn uniformly over the bytes of the sized function
symbols (llvm-nm types t/T/W), so every function gets its share. A draw is
"DWARF-covered" when `llvm-symbolizer --functions=short` names a function
there: with short names it does not fall back to the symbol table, so only a
subprogram DIE yields a name. Symbols whose start is not DWARF-covered are
"symtab-only" (e.g. the kernel's assembly entry code); for those the
candidate's outermost function must be named like a symbol covering the
address.

The oracle's names. llvm-symbolizer names the outermost frame after the ELF
symbol covering the address (demangled, with its signature): a gcc clone is
printed as `foo.constprop.0` where the DIE says `foo`. Inlined frames carry
the DIE's linkage name, demangled, or else its bare DW_AT_name, while GSYM
converters qualify such names (`llvm::handleErrors<...>`). The "agree" rate
therefore compares names by their bare function name (no clone suffix,
qualification, template arguments or parameters: kinds "outer-name-symbol"
and "inline-name-spelling"), files and lines exactly; the "exact" rate
compares everything character for character.

Only the Python standard library and LLVM 19's tools are used. Exit status 0
unless something failed to run.
"""

import argparse
import bisect
import collections
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

LLVM_BIN = "/usr/lib/llvm-19/bin"
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tool(name, args):
    p = os.path.join(args.llvm_bin, name)
    return p if os.access(p, os.X_OK) else shutil.which(name)


def run(cmd, stdin_text, what):
    """Runs cmd with stdin_text on stdin; returns stdout (text)."""
    with tempfile.TemporaryFile("w+") as f:
        f.write(stdin_text)
        f.flush()
        f.seek(0)
        p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           errors="replace")
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-2000:])
        raise RuntimeError("%s failed (exit %d): %s" %
                           (what, p.returncode, " ".join(cmd)))
    return p.stdout


# --- symbols ------------------------------------------------------------------

class Symbols:
    """Function symbols of the ELF from llvm-nm, grouped by address."""

    def __init__(self, elf, args):
        # Demangled, as llvm-symbolizer prints them; llvm-nm -S prints a size
        # for every defined symbol, so a name is everything after 3 fields.
        out = run([tool("llvm-nm", args), "-S", "-C", "--defined-only", elf],
                  "", "llvm-nm")
        self.text = text = self.exec_sections(elf, args)
        names = collections.defaultdict(set)  # (addr, size) -> names
        for line in out.splitlines():
            f = line.split(None, 3)
            if len(f) != 4 or len(f[2]) != 1:
                continue
            addr, size, typ, name = int(f[0], 16), int(f[1], 16), f[2], f[3]
            if typ not in "tTWwi" or not any(lo <= addr < hi
                                             for lo, hi in text):
                continue
            names[(addr, size)].add(name)
        self.ranges = sorted(names)  # (addr, size), sorted
        self.notype = self.notype_symbols(elf, args)
        self.names = names
        self.starts = [a for a, _ in self.ranges]
        self.sized = [(a, s) for a, s in self.ranges if s > 0]
        if not self.sized:
            sys.exit(f"{elf}: no sized function symbols to sample addresses "
                     "from (a stripped binary? give its debug file)")
        self.cum = list(itertools.accumulate(s for _, s in self.sized))

    @staticmethod
    def notype_symbols(elf, args):
        """{(address, demangled name)} of the STT_NOTYPE symbols of .symtab
        (assembly labels: llvm-gsymutil ignores them)."""
        out = run([tool("llvm-readelf", args), "-s", "--wide", "-C", elf], "",
                  "llvm-readelf")
        result, in_symtab = set(), False
        for line in out.splitlines():
            if line.startswith("Symbol table"):
                in_symtab = "'.symtab'" in line
                continue
            f = line.split(None, 7)
            if in_symtab and len(f) == 8 and f[3] == "NOTYPE":
                try:
                    result.add((int(f[1], 16), f[7]))
                except ValueError:
                    pass
        return result

    def all_notype(self, addr):
        """True if every symbol covering addr is STT_NOTYPE."""
        names = self.covering_names(addr)
        i = bisect.bisect_right(self.starts, addr) - 1
        starts = set()
        while i >= 0 and addr - self.starts[i] < (1 << 20):
            a, s = self.ranges[i]
            if a <= addr < a + s or (s == 0 and a == addr):
                starts |= {(a, n) for n in self.names[(a, s)]}
            i -= 1
        return bool(names) and all(x in self.notype for x in starts)

    @staticmethod
    def exec_sections(elf, args):
        """[lo, hi) of every allocated executable section."""
        out = run([tool("llvm-readelf", args), "-S", "--wide", elf], "",
                  "llvm-readelf")
        result = []
        for line in out.splitlines():
            m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+"
                         r"[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
            if m and "X" in m.group(5) and "A" in m.group(5):
                lo = int(m.group(3), 16)
                result.append((lo, lo + int(m.group(4), 16)))
        return result

    def draw(self, rng):
        """One address, uniform over the bytes of sized symbols."""
        r = rng.randrange(self.cum[-1])
        i = bisect.bisect_right(self.cum, r)
        a, s = self.sized[i]
        return a + (r - (self.cum[i] - s))

    def covering_names(self, addr):
        """Names of every symbol covering addr (a size-0 one at its start)."""
        result = set()
        i = bisect.bisect_right(self.starts, addr) - 1
        # Walk back over all symbols starting at or before addr that may still
        # contain it; the widest kernel function is well under 1 MiB.
        while i >= 0 and addr - self.starts[i] < (1 << 20):
            a, s = self.ranges[i]
            if a <= addr < a + s or (s == 0 and a == addr):
                result |= self.names[(a, s)]
            i -= 1
        return result


# --- parsing lookups ----------------------------------------------------------

Frame = collections.namedtuple("Frame", "name file line")


def parse_symbolizer_json(text):
    """llvm-symbolizer style JSON (one object per line, or one array) ->
    {address: [Frame, ...]} (innermost first; [] when not found)."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("["):
        objs = json.loads(text)
    else:
        objs = [json.loads(l) for l in text.splitlines() if l.strip()]
    result = {}
    for o in objs:
        if "Address" not in o:  # input that was not an address
            continue
        addr = int(str(o["Address"]), 0)
        frames = []
        for s in o.get("Symbol", o.get("Frames", [])) or []:
            name = s.get("FunctionName", "")
            fname = s.get("FileName", "")
            line = int(s.get("Line", 0) or 0)
            if name in ("", "??") and fname in ("", "??") and line == 0:
                continue
            frames.append(Frame(name, "" if fname == "??" else fname, line))
        result[addr] = frames
    return result


ADDR_LINE = re.compile(r"^(0x[0-9a-fA-F]+): (.*)$")


def parse_gsymutil(text):
    """llvm-gsymutil --addresses-from-stdin text -> {address: [Frame]}."""
    result = {}
    cur = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("Looking up addresses"):
            continue
        m = ADDR_LINE.match(line)
        if m:
            cur = int(m.group(1), 16)
            result[cur] = []
            body = m.group(2)
            if body.startswith("error:"):
                continue
        elif cur is not None and line.startswith(" "):
            body = line.strip()
        else:
            continue
        if body.endswith(" [inlined]"):
            body = body[: -len(" [inlined]")]
        fname, lineno = "", 0
        if " @ " in body:
            body, loc = body.rsplit(" @ ", 1)
            m2 = re.match(r"^(.*):(\d+)$", loc)
            if m2:
                fname, lineno = m2.group(1), int(m2.group(2))
            else:
                fname = loc
        m3 = re.match(r"^(.*) \+ \d+$", body)
        name = m3.group(1) if m3 else body
        result[cur].append(Frame(name, fname, lineno))
    return result


def demangle_all(frames_by_addr, args):
    """Demangles every name in place (GSYM keeps linkage names)."""
    names = sorted({f.name for fr in frames_by_addr.values() for f in fr
                    if f.name.startswith("_Z") or f.name.startswith("_R")})
    if not names:
        return frames_by_addr
    out = run([tool("llvm-cxxfilt", args)], "\n".join(names) + "\n",
              "llvm-cxxfilt").splitlines()
    table = dict(zip(names, out)) if len(out) == len(names) else {}
    return {a: [f._replace(name=table.get(f.name, f.name)) for f in fr]
            for a, fr in frames_by_addr.items()}


# --- candidates ---------------------------------------------------------------

def run_oracle(elf, addrs, args, short=False):
    cmd = [tool("llvm-symbolizer", args), "--inlines", "--output-style=JSON",
           "-e", elf]
    if short:
        cmd.insert(1, "--functions=short")
    text = "".join("0x%x\n" % a for a in addrs)
    return parse_symbolizer_json(run(cmd, text, "llvm-symbolizer"))


def run_gsymutil(gsym, addrs, args):
    text = "".join("0x%x %s\n" % (a, gsym) for a in addrs)
    out = run([tool("llvm-gsymutil", args), "--addresses-from-stdin"], text,
              "llvm-gsymutil")
    return demangle_all(parse_gsymutil(out), args)


def load_segments(elf, args):
    """(offset, address, size) of the PT_LOAD segments with file bytes, as
    llvm-readelf prints them: the oracle for --file-offsets."""
    out = subprocess.run([tool("llvm-readelf", args), "-lW", elf], check=True,
                         capture_output=True, text=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and int(f[4], 16):
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def run_dwarfpack(gsym, addrs, args):
    if not args.file_offsets:
        text = "".join("0x%x\n" % a for a in addrs)
        out = run([args.dwarfpack, "lookup", gsym, "--output-style=JSON"] +
                  args.lookup_arg, text, "dwarfpack lookup")
        return demangle_all(parse_symbolizer_json(out), args)
    # Ask by file offset, as a profiler's (build-id, offset) sample would,
    # and file the answers under the addresses the offsets stand for.
    segs = load_segments(args.elf, args)
    by_offset = {}
    for a in addrs:
        for off, va, size in segs:
            if va <= a < va + size:
                by_offset[a - va + off] = a
                break
    text = "".join("0x%x\n" % o for o in sorted(by_offset))
    out = run([args.dwarfpack, "lookup", gsym, "--file-offsets",
               "--output-style=JSON"], text, "dwarfpack lookup --file-offsets")
    answers = parse_symbolizer_json(out)
    return demangle_all({by_offset[o]: fr for o, fr in answers.items()}, args)


def dwarfpack_lookup_available(args):
    if not args.dwarfpack or not os.access(args.dwarfpack, os.X_OK):
        return False
    p = subprocess.run([args.dwarfpack, "lookup", "--help"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode == 0 and "output-style" in p.stdout


# --- comparison ---------------------------------------------------------------

CLONE_SUFFIX = re.compile(
    r"(( \[clone [^\]]*\])|( \(\.[^)]*\))|"
    r"(\.(isra|constprop|part|cold|lto_priv|localalias|llvm)(\.\d+)?))+$")
OPERATOR_CHARS = set("<>=!+-*/%^&|~,")


def matching_paren(name, i):
    """Index of the ')' closing the '(' at i (or the last index)."""
    depth = 0
    for k in range(i, len(name)):
        if name[k] == "(":
            depth += 1
        elif name[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(name) - 1


def base_name(name):
    """The bare function name, however it is spelled: without clone suffix,
    return type, qualification, template arguments and parameters.
    'llvm::Error llvm::handleErrorImpl<F>(std::unique_ptr<E>, F&&)' ->
    'handleErrorImpl'; 'foo.constprop.0' -> 'foo'; 'ns::S::operator<(S)'
    -> 'operator<'."""
    name = CLONE_SUFFIX.sub("", name)
    depth, start, i, n = 0, 0, 0, len(name)
    end = n
    while i < n:
        c = name[i]
        if name.startswith("operator", i) and (i == 0 or name[i - 1] in ": ~"):
            j = i + len("operator")
            if name.startswith("()", j) or name.startswith("[]", j):
                j += 2
            elif j < n and name[j] == " ":  # new, delete, conversions
                j += 1
                while j < n and (name[j].isalnum() or name[j] in "_:[]"):
                    j += 1
            else:
                while j < n and name[j] in OPERATOR_CHARS:
                    j += 1
            if depth == 0:
                start = i
            i = j
            continue
        if c == "(" and depth == 0 and i > 0:
            # A parameter list, unless a scope follows: 'f(int)::g',
            # "(anonymous namespace)::", "'lambda'(int)::operator()".
            close = matching_paren(name, i)
            if not name.startswith("::", close + 1):
                end = i
                break
            start = close + 3
            i = close + 3
            continue
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth = max(0, depth - 1)
        elif depth == 0 and c == " ":
            start = i + 1
        elif depth == 0 and name.startswith("::", i):
            start = i + 2
            i += 2
            continue
        i += 1
    base = name[start:end]
    # Drop trailing template arguments: 'f<int>' -> 'f' (not 'operator<').
    if base.endswith(">") and not base.startswith("operator"):
        depth = 0
        for k in range(len(base) - 1, -1, -1):
            if base[k] == ">":
                depth += 1
            elif base[k] == "<":
                depth -= 1
                if depth == 0:
                    base = base[:k]
                    break
    return base


def classify(oracle, cand, aliases=frozenset()):
    """None if equal; else the kind of the first real difference, or of a
    difference in spelling only ('outer-name-symbol': the oracle names the
    outermost frame after the ELF symbol, e.g. 'foo.isra.0' or with the
    signature, the candidate after the DIE; 'inline-name-spelling': an
    inlined function's name spelled differently, e.g. qualified;
    'outer-name-alias': the candidate names the outermost frame after another
    symbol covering the address, e.g. one of two aliases of the same code)."""
    if oracle == cand:
        return None
    if not cand:
        return "not-found"
    if len(cand) < len(oracle):
        return "fewer-frames"
    if len(cand) > len(oracle):
        return "more-frames"
    spelling = None
    for i, (o, c) in enumerate(zip(oracle, cand)):
        if o == c:
            continue
        where = "outer" if i == len(oracle) - 1 else "inline"
        if o.name != c.name:
            if where == "outer" and c.name in aliases:
                spelling = spelling or "outer-name-alias"
            elif base_name(o.name) != base_name(c.name):
                return where + "-name"
            else:
                spelling = spelling or (
                    "outer-name-symbol" if where == "outer" else
                    "inline-name-spelling")
        if o.file != c.file:
            if os.path.normpath(o.file) == os.path.normpath(c.file):
                return where + "-file-spelling"
            return where + "-file"
        if o.line != c.line:
            return where + "-line"
    return spelling or "other"


# Kinds that count as agreement: the same functions, files and lines.
SPELLING_KINDS = ("outer-name-symbol", "inline-name-spelling",
                  "outer-name-alias")


def fmt_frames(frames):
    if not frames:
        return "        (not found)"
    return "\n".join("        %s @ %s:%d" % f for f in frames)


def pct(a, n):
    return 100.0 * a / n if n else None


def evaluate(label, cand, oracle, short, sample, syms, args):
    """Prints and returns the figures of one candidate."""
    res = {"candidate": label}
    print("candidate %s" % label)

    def compare(addrs, title):
        kinds = collections.Counter()
        examples = collections.defaultdict(list)
        for a in addrs:
            k = classify(oracle.get(a, []), cand.get(a, []),
                         syms.covering_names(a))
            if k:
                kinds[k] += 1
                if len(examples[k]) < args.show:
                    examples[k].append(a)
        n = len(addrs)
        exact = n - sum(kinds.values())
        agree = exact + sum(kinds[k] for k in SPELLING_KINDS)
        if n:
            print("  %s: %.2f %% agree (%d of %d); %.2f %% exactly as "
                  "llvm-symbolizer" % (title, pct(agree, n), agree, n,
                                       pct(exact, n)))
        for k, c in kinds.most_common():
            print("    %-22s %6d  (%.2f %%)" % (k, c, pct(c, n)))
            for a in examples[k]:
                print("      0x%x  llvm-symbolizer:\n%s\n      %s:\n%s" %
                      (a, fmt_frames(oracle.get(a, [])), label,
                       fmt_frames(cand.get(a, []))))
        return n, agree, exact, dict(kinds)

    n, agree, exact, kinds = compare(sample["dwarf"], "DWARF-covered")
    res.update(dwarf_n=n, dwarf_agree=agree, dwarf_pct=pct(agree, n),
               dwarf_exact_pct=pct(exact, n), kinds=kinds)
    if sample["lineonly"] is not None:
        n2, agree2, exact2, kinds2 = compare(
            sample["lineonly"], "line table only (padding, assembly)")
        res.update(lineonly_n=n2, lineonly_pct=pct(agree2, n2),
                   lineonly_kinds=kinds2,
                   line_covered_pct=pct(agree + agree2, n + n2))
        print("  every address with a source line (DWARF-covered + line table "
              "only): %.2f %%" % res["line_covered_pct"])

    sym = sample["symtab"]
    def symtab_names(a):
        # A symbol covering a, or the one llvm-symbolizer picked (it lets a
        # size-0 symbol, e.g. an assembly label, extend to the next one).
        o = oracle.get(a, [])
        return syms.covering_names(a) | ({o[-1].name} if o else set())
    ok = [a for a in sym if cand.get(a) and
          cand[a][-1].name in symtab_names(a)]
    noline = [a for a in sym if not any(f.file for f in oracle.get(a, []))]
    notype = [a for a in sym if syms.all_notype(a)]
    okset = set(ok)
    full = sum(1 for a in sym if cand.get(a, []) == oracle.get(a, []))
    res.update(symtab_n=len(sym), symtab_pct=pct(len(ok), len(sym)),
               symtab_noline_n=len(noline),
               symtab_noline_pct=pct(sum(a in okset for a in noline),
                                     len(noline)),
               symtab_full_pct=pct(full, len(sym)),
               symtab_notype_n=len(notype),
               symtab_notype_pct=pct(sum(a in okset for a in notype),
                                     len(notype)))
    if sym:
        print("  symtab-only: %.2f %% named after their symbol (%d of %d); "
              "of those without any line info: %s (%d); of those in NOTYPE "
              "symbols (assembly): %s (%d); whole chain as llvm-symbolizer: "
              "%.2f %%" %
              (res["symtab_pct"], len(ok), len(sym),
               "%.2f %%" % res["symtab_noline_pct"] if noline else "n/a",
               len(noline),
               "%.2f %%" % res["symtab_notype_pct"] if notype else "n/a",
               len(notype), res["symtab_full_pct"]))
        for a in [a for a in sym if a not in okset][: args.show]:
            print("      0x%x  symbols %s; %s:\n%s" %
                  (a, ",".join(sorted(symtab_names(a))), label,
                   fmt_frames(cand.get(a, []))))
    return res


def sample_addresses(args, syms, rng):
    """Returns {"dwarf": [...], "lineonly": [...] or None, "symtab": [...]}
    and the --functions=short oracle results used to classify them."""
    if args.sampling == "text":
        secs = syms.text
        cum = list(itertools.accumulate(hi - lo for lo, hi in secs))

        def draw():
            r = rng.randrange(cum[-1])
            i = bisect.bisect_right(cum, r)
            return secs[i][1] - (cum[i] - r)
    else:
        def draw():
            return syms.draw(rng)

    draws, seen = [], set()
    space = cum[-1] if args.sampling == "text" else syms.cum[-1]
    want = min(int(args.n * 1.3) + 100, space)
    tries = 0
    # Unique addresses; a small program may have fewer bytes than wanted.
    while len(draws) < want and tries < 20 * want:
        tries += 1
        a = draw()
        if a not in seen:
            seen.add(a)
            draws.append(a)
    short = run_oracle(args.elf, sorted(seen | set(syms.starts)), args,
                       short=True)

    def covered(a):
        fr = short.get(a) or []
        return bool(fr) and fr[-1].name != ""

    dwarf, lineonly = [], []
    for a in draws:
        if len(dwarf) == args.n:
            break
        if covered(a):
            dwarf.append(a)
        elif short.get(a) and any(f.file for f in short[a]):
            lineonly.append(a)

    # Symtab-only symbols: no subprogram DIE at their start.
    bare = [(a, s) for a, s in syms.ranges if not covered(a)]
    symtab = set()
    if bare and args.symtab_n > 0:
        bare_cum = list(itertools.accumulate(max(s, 1) for _, s in bare))
        want = min(args.symtab_n, bare_cum[-1])
        tries = 0
        while len(symtab) < want and tries < 20 * want:
            tries += 1
            r = rng.randrange(bare_cum[-1])
            i = bisect.bisect_right(bare_cum, r)
            a, s = bare[i]
            symtab.add(a + (r - (bare_cum[i] - max(s, 1))))
        # An interior address may still lie in a subprogram: check.
        short.update(run_oracle(args.elf, sorted(symtab - set(short)), args,
                                short=True))
    sample = {"dwarf": dwarf,
              "lineonly": lineonly if args.sampling == "text" else None,
              "symtab": sorted(a for a in symtab if not covered(a)),
              "draws": len(draws), "bare": len(bare)}
    return sample, short


def self_test():
    """Checks the parsers and the name comparison on fixed vectors."""
    bases = {
        "llvm::Error llvm::handleErrorImpl<F>(std::unique_ptr<E>, F&&)":
            "handleErrorImpl",
        "handleErrors<ns::f(int)::<lambda(const E&)> >": "handleErrors",
        "ns::(anonymous namespace)::P::check<unsigned int>": "check",
        "ns::f(llvm::StringRef)::'lambda1'(int)::operator()(int) const":
            "operator()",
        "ns::S::operator<(ns::S const&) const": "operator<",
        "llvm::raw_ostream::operator<<(llvm::StringRef)": "operator<<",
        "operator new(unsigned long)": "operator new",
        "S::operator bool() const": "operator bool",
        "ac6_get_next.isra.0": "ac6_get_next",
        "fib6_add_1.constprop.0.isra.0": "fib6_add_1",
        "ns::mapInputFile(llvm::StringRef) (.cold)": "mapInputFile",
        "f(int) [clone .part.0]": "f",
        "sqlite3VdbeExec": "sqlite3VdbeExec",
    }
    for name, want in bases.items():
        got = base_name(name)
        assert got == want, (name, got, want)
    text = ("Looking up addresses in \"x.gsym\":\n"
            "0x0000000000001010: g + 4 @ /s/a.h:3 [inlined]\n"
            "                    f + 16 @ /s/a.c:10\n\n"
            "0x0000000000000001: error: address 0x1 is not in GSYM\n\n"
            "0x0000000000002000: h + 0\n")
    got = parse_gsymutil(text)
    assert got == {0x1010: [Frame("g", "/s/a.h", 3), Frame("f", "/s/a.c", 10)],
                   0x1: [], 0x2000: [Frame("h", "", 0)]}, got
    js = ('{"Address":"0x1010","ModuleName":"m","Symbol":[{"Column":1,'
          '"FileName":"/s/a.h","FunctionName":"g","Line":3},{"FileName":'
          '"/s/a.c","FunctionName":"f","Line":10}]}\n'
          '{"Address":"0x1","ModuleName":"m","Symbol":[{"FileName":"",'
          '"FunctionName":"","Line":0}]}\n'
          '{"Address":"0x2","Error":{"Message":"bad"}}\n')
    got = parse_symbolizer_json(js)
    assert got == {0x1010: [Frame("g", "/s/a.h", 3), Frame("f", "/s/a.c", 10)],
                   0x1: [], 0x2: []}, got
    o = [Frame("g", "/s/a.h", 3), Frame("f.isra.0", "/s/a.c", 10)]
    assert classify(o, o) is None
    assert classify(o, []) == "not-found"
    assert classify(o, o[1:]) == "fewer-frames"
    assert classify(o, [o[0], Frame("f", "/s/a.c", 10)]) == "outer-name-symbol"
    assert classify(o, [Frame("ns::g", "/s/a.h", 3), o[1]]) == \
        "inline-name-spelling"
    assert classify(o, [o[0], Frame("f", "/s/a.c", 11)]) == "outer-line"
    assert classify(o, [Frame("g", "/s/./a.h", 3), o[1]]) == \
        "inline-file-spelling"
    assert classify(o, [o[0], Frame("alias", "/s/a.c", 10)],
                    {"alias"}) == "outer-name-alias"
    assert classify(o, [o[0], Frame("other", "/s/a.c", 10)]) == "outer-name"
    print("self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("elf")
    ap.add_argument("gsym")
    ap.add_argument("--candidate", choices=["dwarfpack", "llvm-gsymutil",
                                            "both", "auto"], default="auto",
                    help="auto: both when `dwarfpack lookup` exists, else "
                    "llvm-gsymutil")
    ap.add_argument("-n", type=int, default=20000,
                    help="DWARF-covered addresses to sample")
    ap.add_argument("--symtab-n", type=int, default=2000,
                    help="symtab-only addresses to sample at most")
    ap.add_argument("--sampling", choices=["functions", "text"],
                    default="functions",
                    help="functions: uniform over the bytes of function "
                    "symbols; text: uniform over executable sections, which "
                    "also reports addresses the line table covers outside "
                    "any subprogram (inter-function padding, assembly)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=3,
                    help="examples per mismatch kind")
    ap.add_argument("--dwarfpack",
                    default=os.path.join(TOP, "build", "bin", "dwarfpack"))
    ap.add_argument("--llvm-bin", default=LLVM_BIN)
    ap.add_argument("--summary-json", help="write the figures here")
    ap.add_argument("--save-addresses", help="write the sampled addresses")
    ap.add_argument("--file-offsets", action="store_true",
                    help="query dwarfpack by file offset (GSYM must then be "
                    "a compact table): offsets from the ELF's program "
                    "headers, answers compared at the addresses they load "
                    "at; addresses outside every segment count as missing")
    ap.add_argument("--lookup-arg", action="append", default=[],
                    help="pass this option to `dwarfpack lookup` too "
                    "(repeatable; e.g. --kaslr-from=FILE: ELF is then the "
                    "running image and GSYM the table of its build)")
    args = ap.parse_args()
    if args.lookup_arg and args.file_offsets:
        sys.exit("error: --lookup-arg and --file-offsets exclude each other")

    cands = args.candidate
    have_dp = dwarfpack_lookup_available(args)
    if cands == "auto":
        cands = "both" if have_dp else "llvm-gsymutil"
    if cands in ("dwarfpack", "both") and not have_dp:
        sys.exit("error: %s has no `lookup --output-style`" % args.dwarfpack)

    syms = Symbols(args.elf, args)
    if not syms.sized:
        sys.exit("error: %s has no sized function symbols" % args.elf)
    rng = random.Random(args.seed)
    sample, short = sample_addresses(args, syms, rng)
    all_addrs = sorted(set(sample["dwarf"]) | set(sample["lineonly"] or []) |
                       set(sample["symtab"]))
    if args.save_addresses:
        with open(args.save_addresses, "w") as f:
            f.writelines("0x%x\n" % a for a in all_addrs)
    oracle = run_oracle(args.elf, all_addrs, args)

    print("input %s, GSYM %s" % (args.elf, args.gsym))
    print("sampled (%s, seed %d) %d DWARF-covered addresses%s and %d "
          "symtab-only addresses (from %d of %d function symbols without a "
          "subprogram DIE)" %
          (args.sampling, args.seed, len(sample["dwarf"]),
           "" if sample["lineonly"] is None else
           ", %d covered by the line table only" % len(sample["lineonly"]),
           len(sample["symtab"]), sample["bare"], len(syms.ranges)))
    if len(sample["dwarf"]) < args.n:
        print("note: only %d DWARF-covered addresses in %d draws" %
              (len(sample["dwarf"]), sample["draws"]))
    summary = {"elf": args.elf, "gsym": args.gsym, "seed": args.seed,
               "sampling": args.sampling, "candidates": {}}
    results = {}
    if cands in ("llvm-gsymutil", "both"):
        results["llvm-gsymutil"] = run_gsymutil(args.gsym, all_addrs, args)
    if cands in ("dwarfpack", "both"):
        results["dwarfpack"] = run_dwarfpack(args.gsym, all_addrs, args)
    for label, cand in results.items():
        summary["candidates"][label] = evaluate(label, cand, oracle, short,
                                                sample, syms, args)
    if len(results) == 2:
        a, b = results["dwarfpack"], results["llvm-gsymutil"]
        diff = [x for x in all_addrs if a.get(x, []) != b.get(x, [])]
        same = len(all_addrs) - len(diff)
        summary["cross_equal_pct"] = pct(same, len(all_addrs))
        print("dwarfpack lookup vs llvm-gsymutil on the same GSYM: %.3f %% "
              "equal (%d of %d)" % (summary["cross_equal_pct"], same,
                                    len(all_addrs)))
        for x in diff[: args.show]:
            print("      0x%x  dwarfpack:\n%s\n      llvm-gsymutil:\n%s" %
                  (x, fmt_frames(a.get(x, [])), fmt_frames(b.get(x, []))))
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit("error: %s" % e)
