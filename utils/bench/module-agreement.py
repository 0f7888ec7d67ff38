#!/usr/bin/env python3
"""Check `dwarfpack lookup --kaslr-from --module-tables` on real kernel modules.

    module-agreement.py [--kdbg DIR] [--modules 40] [-n 300] [--work DIR]

A running kernel loads each module's sections on its own: the text sections
one after another in one region (in section-header order, each aligned), the
.init sections in another. This script loads a sample of the Debian 6.1
cloud kernel's modules that way without a kernel: it links each .ko with
ld.lld at such addresses (KDBG/usr/lib/debug/lib/modules/*/kernel, as
utils/bench/fetch-inputs.sh unpacks linux-image-*-dbg), so the linked file
is what the running kernel has in memory, with its DWARF relocated there.

Then, as on a profiling host:
  * the running kernel's kallsyms: System.map moved by --slide (KASLR),
    plus each linked module's text symbols as `addr t name\\t[module]`;
  * the tables: System.map's (`dwarfpack kallsyms`) and one per module,
    made from its .ko (`dwarfpack gsym mod.ko -o tables/mod.dpat`);
  * for each module, utils/bench/gsym-agreement.py samples addresses of the
    linked module and compares `dwarfpack lookup core-table
    --kaslr-from=kallsyms --module-tables=tables` with llvm-symbolizer on
    the linked module (the oracle), frame by frame.
Prints each module's agreement and the totals.

With --by-build-id, the tables go into a build-id store (`dwarfpack gsym
mod.ko --store tables`) and each module's build-id note into
WORK/sys/module/<module>/notes/.note.gnu.build-id, as /sys shows them;
lookups then find and check the tables by build-id (`--build-ids-from`).

With --symbol-queries N, it also asks kernel trace queries
(`NAME+OFFSET [module]`) for N symbols of each module, against
llvm-symbolizer's `NAME+OFFSET` on the linked module.
"""
import argparse
import collections
import glob
import json
import os
import random
import shutil
import struct
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4


def sections(path):
    """(name, flags, size, align) of every section of an ELF64 LE file."""
    with open(path, "rb") as f:
        d = f.read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
            for i in range(shnum)]
    names = hdrs[shstrndx][4]

    def name(off):
        return d[names + off:d.index(b"\0", names + off)].decode()
    return [(name(h[0]), h[2], h[5], h[8]) for h in hdrs]


def linker_script(ko, core, init):
    """The kernel's placement: text sections in header order from core,
    .init ones from init. Returns the script and where each region ends."""
    out = []
    for name, flags, size, align in sections(ko):
        if flags & (SHF_ALLOC | SHF_EXECINSTR) != SHF_ALLOC | SHF_EXECINSTR \
                or size == 0:
            continue
        a = max(align, 1)
        if name.startswith(".init"):
            init = -(-init // a) * a
            out.append((init, name))
            init += size
        else:
            core = -(-core // a) * a
            out.append((core, name))
            core += size
    # In address order: lld gives file offsets in the order of the script.
    body = "".join('  "%s" 0x%x : { *("%s") }\n' % (n, a, n)
                   for a, n in sorted(out))
    return "SECTIONS {\n" + body + "}\n", core, init


def pick_modules(kdbg, count):
    kos = sorted(glob.glob(os.path.join(
        kdbg, "usr/lib/debug/lib/modules/*/kernel/**/*.ko"), recursive=True))
    if not kos:
        sys.exit("error: no .ko under %s" % kdbg)
    largest = sorted(kos, key=lambda k: -os.path.getsize(k))[:5]
    step = max(1, len(kos) // max(1, count - len(largest)))
    chosen = list(dict.fromkeys(largest + kos[::step]))[:count]
    return sorted(chosen)


def timing(args, mods, core, kallsyms, tables):
    """All sampled addresses at once: one `dwarfpack lookup` over the
    running kernel, against one llvm-symbolizer reading 'module address'
    lines (it opens each linked module once)."""
    ours, theirs = [], []
    for module, elf in mods:
        with open(elf + ".addrs") as f:
            for a in f.read().split():
                ours.append(a + "\n")
                theirs.append("%s %s\n" % (elf, a))

    def measure(cmd, text):
        best = None
        for _ in range(3):
            p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd,
                               input=text, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, check=True)
            sec, kb = p.stderr.split()[-2:]
            if best is None or float(sec) < best[0]:
                best = (float(sec), int(kb) // 1024)
        return best
    d = measure([args.dwarfpack, "lookup", core] + args.lookup_args,
                "".join(ours))
    l = measure(["llvm-symbolizer-19", "--inlines"], "".join(theirs))
    print("%d addresses in %d modules, best of 3: dwarfpack lookup %.2f s, "
          "%d MB; llvm-symbolizer (on the linked modules) %.2f s, %d MB" %
          (len(ours), len(mods), d[0], d[1], l[0], l[1]))


def symbol_queries(args, mods, core):
    """Kernel trace queries (`NAME+OFFSET [module]`) for up to
    --symbol-queries text symbols of unique name in each module, at a
    random offset inside each: one `dwarfpack lookup` over the running
    kernel against llvm-symbolizer on each linked module (`NAME+OFFSET`).
    Compares each query's first answer: function, file and line."""
    rng = random.Random(1)
    ours, theirs = [], []
    for module, elf in mods:
        sized = collections.defaultdict(list)
        out = subprocess.run([args.llvm_nm, "--print-size", "--defined-only",
                              elf], check=True, capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwW":
                sized[f[3]].append(int(f[1], 16))
        names = sorted(n for n, v in sized.items() if len(v) == 1 and v[0])
        picked = rng.sample(names, min(args.symbol_queries, len(names)))
        queries = ["%s+0x%x" % (n, rng.randrange(sized[n][0]))
                   for n in picked]
        ours += ["%s [%s]\n" % (q, module) for q in queries]
        ref = subprocess.run(["llvm-symbolizer-19", "--output-style=JSON",
                              "--obj=" + elf],
                             input="".join(q + "\n" for q in queries),
                             check=True, capture_output=True, text=True)
        theirs += [json.loads(l)["Loc"] for l in ref.stdout.splitlines()]
    got = subprocess.run([args.dwarfpack, "lookup", "--output-style=JSON",
                          core] + args.lookup_args, input="".join(ours),
                         check=True, capture_output=True, text=True)
    first = lambda loc: (loc[0]["FunctionName"], loc[0]["FileName"],
                         loc[0]["Line"]) if loc else None
    kinds = collections.Counter()
    shown = collections.Counter()
    for q, r, g in zip(ours, theirs,
                       (json.loads(l)["Loc"] for l in
                        got.stdout.splitlines())):
        if first(g) == first(r):
            kind = "agree"
        elif not r and g and not g[0]["FileName"]:
            kind = "named, no line (llvm-symbolizer: nothing)"
        elif not r and g:
            # llvm-symbolizer keeps one name of an address (aliases such as
            # init_module are left out).
            kind = "answered (llvm-symbolizer: nothing)"
        else:
            kind = "differ"
        kinds[kind] += 1
        if kind != "agree" and shown[kind] < 3:
            shown[kind] += 1
            print("    %s: %s / %s" % (q.strip(), first(r), first(g)))
    print("symbol queries (NAME+OFFSET [module]): %d; %s" %
          (len(ours), ", ".join("%s %d" % kv for kv in kinds.most_common())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kdbg", default="/var/tmp/dwarfpack-bench/kdbg")
    ap.add_argument("--modules", type=int, default=40)
    ap.add_argument("-n", type=int, default=300,
                    help="DWARF-covered addresses per module")
    ap.add_argument("--slide", type=lambda s: int(s, 0), default=0x2e000000)
    ap.add_argument("--work", default="/var/tmp/dwarfpack-bench/out/modules")
    ap.add_argument("--dwarfpack",
                    default=os.path.join(TOP, "build", "bin", "dwarfpack"))
    ap.add_argument("--lld", default="ld.lld-19")
    ap.add_argument("--llvm-nm", default="llvm-nm-19")
    ap.add_argument("--llvm-objcopy", default="llvm-objcopy-19")
    ap.add_argument("--by-build-id", action="store_true",
                    help="tables in a build-id store, found and checked "
                    "through a /sys-like tree of build-id notes")
    ap.add_argument("--symbol-queries", type=int, default=0, metavar="N",
                    help="also ask NAME+OFFSET [module] queries for up to N "
                    "symbols of each module")
    args = ap.parse_args()

    maps = glob.glob(os.path.join(args.kdbg, "usr/lib/debug/boot/System.map-*"))
    if not maps:
        sys.exit("error: no System.map under %s" % args.kdbg)
    work, tables = args.work, os.path.join(args.work, "tables")
    sysfs = os.path.join(work, "sys")
    for old in (tables, sysfs):
        shutil.rmtree(old, ignore_errors=True)
    os.makedirs(tables)
    args.lookup_args = ["--kaslr-from=" + os.path.join(work, "kallsyms"),
                        "--module-tables=" + tables]
    if args.by_build_id:
        args.lookup_args.append("--build-ids-from=" + sysfs)

    def run(cmd, **kw):
        return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                              text=True, **kw).stdout

    core = os.path.join(work, "core.dpk")
    run([args.dwarfpack, "kallsyms", maps[0], "-o", core])
    running = []
    with open(maps[0]) as f:
        for line in f:
            a, rest = line.split(" ", 1)
            running.append("%016x %s" % ((int(a, 16) + args.slide) % 2**64,
                                         rest))
    mods = []
    # The module area of x86-64; .init sections in its last 256 MiB. Each
    # module starts on a fresh page after the previous one, as module_alloc
    # places them.
    text_at, init_at = 0xffffffffc0000000, 0xfffffffff0000000
    for ko in pick_modules(args.kdbg, args.modules):
        stem = os.path.basename(ko)[:-3]
        module = stem.replace("-", "_")
        elf = os.path.join(work, stem + ".elf")
        lds = os.path.join(work, stem + ".lds")
        script, text_end, init_end = linker_script(ko, text_at, init_at)
        if text_end > 0xfffffffff0000000 or init_end >= 2**64:
            sys.exit("error: the modules do not fit the module area")
        text_at = -(-(text_end + 0x1000) // 0x1000) * 0x1000
        init_at = -(-(init_end + 0x1000) // 0x1000) * 0x1000
        with open(lds, "w") as f:
            f.write(script)
        # Kernel symbols the module uses stay undefined (address 0).
        subprocess.run([args.lld, "-T", lds, ko, "-o", elf, "-e", "0",
                        "--unresolved-symbols=ignore-all", "--noinhibit-exec"],
                       check=True, stderr=subprocess.DEVNULL)
        for line in run([args.llvm_nm, "-n", elf]).splitlines():
            f = line.split()
            # The kernel lists a module's weak functions as T, like others.
            if len(f) == 3 and f[1] in "tTwW":
                t = {"w": "t", "W": "T"}.get(f[1], f[1])
                running.append("%s %s %s\t[%s]\n" % (f[0], t, f[2], module))
        if args.by_build_id:
            notes = os.path.join(sysfs, "module", module, "notes")
            os.makedirs(notes)
            scratch = elf + ".objcopy"
            run([args.llvm_objcopy, "--dump-section=.note.gnu.build-id=" +
                 os.path.join(notes, ".note.gnu.build-id"), ko, scratch])
            os.remove(scratch)
            run([args.dwarfpack, "gsym", ko, "--store", tables])
        else:
            run([args.dwarfpack, "gsym", ko, "-o",
                 os.path.join(tables, stem + ".dpat")])
        mods.append((module, elf))
    kallsyms = os.path.join(work, "kallsyms")
    with open(kallsyms, "w") as f:
        f.writelines(running)

    total = {"dwarf_n": 0, "dwarf_agree": 0, "exact": 0, "symtab_n": 0,
             "symtab_ok": 0}
    agreement = os.path.join(TOP, "utils", "bench", "gsym-agreement.py")
    for module, elf in mods:
        summary = elf + ".json"
        out = subprocess.run(
            [sys.executable, agreement, elf, core, "--candidate", "dwarfpack",
             "-n", str(args.n), "--symtab-n", "50", "--show", "2",
             "--dwarfpack", args.dwarfpack,
] + ["--lookup-arg=" + a for a in args.lookup_args] + [
             "--summary-json", summary, "--save-addresses", elf + ".addrs"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if out.returncode:
            print(out.stdout)
            sys.exit("error: gsym-agreement.py failed on %s" % elf)
        with open(summary) as f:
            r = json.load(f)["candidates"]["dwarfpack"]
        total["dwarf_n"] += r["dwarf_n"]
        total["dwarf_agree"] += r["dwarf_agree"]
        total["exact"] += round((r["dwarf_exact_pct"] or 0) * r["dwarf_n"] /
                                100)
        total["symtab_n"] += r["symtab_n"]
        total["symtab_ok"] += round((r["symtab_pct"] or 0) * r["symtab_n"] / 100)
        print("%-24s DWARF-covered %4d: %6.2f %% agree, %6.2f %% exact; "
              "symtab-only %3d: %6.2f %%" %
              (module, r["dwarf_n"], r["dwarf_pct"] or 0,
               r["dwarf_exact_pct"] or 0, r["symtab_n"],
               r["symtab_pct"] or 0))
        if (r["dwarf_n"] and r["dwarf_pct"] < 100) or \
                (r["symtab_n"] and r["symtab_pct"] < 100):
            print("\n".join("    " + l for l in out.stdout.splitlines()
                            if l.strip()))
    t = total
    timing(args, mods, core, kallsyms, tables)
    if args.symbol_queries:
        symbol_queries(args, mods, core)
    print("modules %d; DWARF-covered %d: %.2f %% agree (%d), %.2f %% exact; "
          "symtab-only %d: %.2f %% named after their symbol" %
          (len(mods), t["dwarf_n"], 100.0 * t["dwarf_agree"] / t["dwarf_n"],
           t["dwarf_agree"], 100.0 * t["exact"] / t["dwarf_n"],
           t["symtab_n"],
           100.0 * t["symtab_ok"] / t["symtab_n"] if t["symtab_n"] else 0))


if __name__ == "__main__":
    main()
