#!/usr/bin/env python3
"""Writes a trace made from a binary's functions and, beside it, the text
`dwarfpack lookup --annotate` must print for it, built from llvm-symbolizer's
answers at the same addresses (an oracle that shares no code with
dwarfpack).

usage: trace.py MODE BINARY TRACE EXPECTED [options]

MODE
  oops   kernel oops lines: NAME+0xOFF/0xSIZE as call-trace frames (return
         addresses: the oracle is asked one byte before, at the call), after
         RIP: and in WARNING lines (as printed), and [<ADDRESS>] alone; with
         the text around them that must stay as it is
  perf   perf script samples: callchain lines with the DSO's own addresses,
         with perf's symbol and offset, its symbol only and none, and
         sample lines with the process's addresses (--base)
  query  llvm-symbolizer input lines: PREFIX ADDRESS, or NAME+OFF

options
  --module NAME[:BUILDID]  oops: frames name this kernel module
  --slide N        oops: [<ADDRESS>] is the running kernel's (KASLR)
  --exact          oops: return addresses looked up as printed
  --no-inlines     no lines for inlined frames
  --dso PATH       perf: the DSO's path in the trace (default: BINARY)
  --base N         perf: where the process loaded BINARY
  --maps FILE      perf: write the process's /proc/PID/maps there
  --mapped         perf: the process's addresses are answered (maps given)
  --mmap-events    perf: the trace starts with perf's mmap events
  --thread         perf: samples of thread 4243 of process 4242, whose
                   fork event follows the mmap events
  --demangle       perf: symbols demangled, as perf shows C++ names:
                   without parameters (binutils' c++filt -p, the demangler
                   perf links), and a sample line with them (c++filt)
  --prefix TEXT    query: before each address
  --file-offsets   query: addresses are written as offsets in BINARY
  --every N        every Nth instruction only

The annotation expected: a frame becomes "NAME (FILE:LINE)" (NAME as the
trace gives it, else the outermost function's) at the outermost frame's
location; each inlined frame, innermost first, gets a line before it: the
text before the frame, then "NAME (FILE:LINE) (inlined)". An address gets
the annotation after it. Frames without an answer stay as they are.
"""
import re
import subprocess
import sys


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, check=True, capture_output=True,
                          text=True).stdout


def functions(binary, weak=False):
    """(start, size, name) of every sized function symbol of a unique name,
    GCC's .cold parts left out (their name is the function's in DWARF);
    with weak, C++'s inline functions (templates' members) too."""
    out = run(["llvm-nm", "-S", "--defined-only", binary])
    funcs, count = [], {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in ("tTW" if weak else "tT") and \
                int(f[1], 16) > 0:
            funcs.append((int(f[0], 16), int(f[1], 16), f[3]))
            count[f[3]] = count.get(f[3], 0) + 1
    return sorted(x for x in funcs if count[x[2]] == 1 and ".cold" not in x[2])


def instructions(binary, funcs):
    """The address of every instruction of funcs (padding left out)."""
    names = ",".join(f[2] for f in funcs)
    out = run(["llvm-objdump", "-d", "--no-show-raw-insn",
               "--disassemble-symbols=" + names, binary])
    addrs = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if (m and m.group(2) != "file" and not m.group(2).startswith("nop")
            and m.group(2) != "int3"):
            addrs.append(int(m.group(1), 16))
    return addrs


def symbolize(binary, addrs):
    """llvm-symbolizer's frames for each address: [(name, file, line)],
    innermost first."""
    text = run(["llvm-symbolizer", "--inlines", "--obj=" + binary],
               "".join("0x%x\n" % a for a in addrs))
    blocks = [b for b in text.split("\n\n") if b.strip()]
    assert len(blocks) == len(addrs), "one answer per address"
    result = []
    for b in blocks:
        lines = b.strip("\n").split("\n")
        frames = []
        for i in range(0, len(lines), 2):
            name, loc = lines[i], lines[i + 1]
            file, line, _col = loc.rsplit(":", 2)
            frames.append((name, file, line))
        result.append(frames)
    return result


def loc(frame):
    return "" if frame[1] == "??" else " (%s:%s)" % (frame[1], frame[2])


def annotate(before, text, after, frames, name, insert, inlines):
    """The expected lines for the frame text between before and after; name
    None: the table's."""
    outer = frames[-1]
    if outer[0] == "??" or (name is not None and outer[1] == "??"):
        return [before + text + after]
    lead = " " if insert else ""
    out = []
    if inlines:
        for f in frames[:-1]:
            out.append(before + lead + f[0] + loc(f) + " (inlined)")
    out.append(before + lead + (name or outer[0]) + loc(outer) + after)
    return out


def oops(opts, funcs, addrs):
    start = {}
    for s, size, name in funcs:
        start.update({a: (s, size, name) for a in addrs if s <= a < s + size})
    module = ""
    if opts["module"]:
        module = " [%s]" % opts["module"].replace(":", " ")
    forms = ["[%(t)12.6f]  %(sym)s%(mod)s", "[%(t)12.6f]  ? %(sym)s%(mod)s",
             "[%(t)12.6f] RIP: 0010:%(sym)s%(mod)s",
             " %(sym)s%(mod)s", "[<%(addr)016x>] %(sym)s%(mod)s",
             "[%(t)12.6f] WARNING: CPU: 0 PID: 1 at %(sym)s%(mod)s (P)"]
    exact = {2, 5}
    if not opts["module"]:
        forms.append("[%(t)12.6f]  [<%(addr)016x>]")
    texts = ["[%(t)12.6f] Call Trace:", "[%(t)12.6f]  <TASK>",
             "[%(t)12.6f]  </TASK>",
             "[%(t)12.6f] RSP: 0018:ffffc90000a3be48 EFLAGS: 00010246",
             "[%(t)12.6f] CPU: 1 PID: 4242 Comm: cat Not tainted 6.1.0 #1"]
    lines, queries = [], []
    for i, a in enumerate(addrs):
        s, size, name = start[a]
        form = forms[i % len(forms)]
        off = a - s
        back = (i % len(forms)) not in exact and "sym" in form and off > 0
        back = back and not opts["exact"]
        v = {"t": 12 + i / 1e6, "sym": "%s+%#x/%#x" % (name, off, size),
             "mod": module, "addr": a + opts["slide"]}
        lines.append((form, v, name, back))
        queries.append(a - 1 if back else a)
    answers = symbolize(opts["binary"], queries)
    trace, expected = [], []
    for i, ((form, v, name, back), frames) in enumerate(zip(lines, answers)):
        text = form % v
        if "sym" in form:
            b = text.index(v["sym"])
            e = b + len(v["sym"])
            expected += annotate(text[:b], text[b:e], text[e:], frames,
                                 name, False, opts["inlines"])
        else:
            expected += annotate(text, "", "", frames, None, True,
                                 opts["inlines"])
        trace.append(text)
        if i % 7 == 3:
            t = texts[i % len(texts)] % {"t": 12 + i / 1e6}
            trace.append(t)
            expected.append(t)
    return trace, expected


def load_segments(binary):
    out = run(["llvm-readelf", "-lW", binary])
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            off, vaddr, filesz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
            flags = "".join(c for c in f[6:-1] if c in "RWE")
            segs.append((off, vaddr, filesz, flags))
    return segs


def mappings(binary, base):
    """(start, end, perms, file offset) of each load segment, as mapped."""
    for off, vaddr, filesz, flags in load_segments(binary):
        lo, hi = vaddr & ~0xfff, (vaddr + filesz + 0xfff) & ~0xfff
        perms = ("r" if "R" in flags else "-") + \
                ("w" if "W" in flags else "-") + \
                ("x" if "E" in flags else "-") + "p"
        yield base + lo, base + hi, perms, off & ~0xfff


def write_maps(path, binary, dso, base):
    with open(path, "w") as m:
        for lo, hi, perms, off in mappings(binary, base):
            m.write("%x-%x %s %08x fe:00 4242                %s\n" %
                    (lo, hi, perms, off, dso))
        m.write("%x-%x rw-p 00000000 00:00 0          [heap]\n" %
                (base + 0x10000000, base + 0x10021000))


def mmap_events(binary, dso, base):
    """perf script --show-mmap-events' lines for the process (pid 4242),
    after those of the kernel and of another process (pid 999) that maps
    another file at the same addresses."""
    lines = ["         swapper     0 [000]     0.000000: PERF_RECORD_MMAP "
             "-1/0: [0xffffffff81000000(0x1276f48) @ 0xffffffff81000000]: "
             "x [kernel.kallsyms]_text"]
    for pid, path in ((999, "/opt/other/lib.so"), (4242, dso)):
        for lo, hi, perms, off in mappings(binary, base):
            lines.append("            prog %5d [001]    99.000000: "
                         "PERF_RECORD_MMAP2 %d/%d: [%#x(%#x) @ %s fe:00 4242 "
                         "0]: %s %s" % (pid, pid, pid, lo, hi - lo,
                                        "%#x" % off if off else "0", perms,
                                        path))
    return lines


def demangled(names, *flags):
    out = run(["c++filt"] + list(flags), "".join(n + "\n" for n in names))
    return dict(zip(names, out.splitlines()))


def perf(opts, funcs, addrs):
    start = {}
    for s, size, name in funcs:
        start.update({a: (s, name) for a in addrs if s <= a < s + size})
    answers = symbolize(opts["binary"], addrs)
    dso, base = opts["dso"], opts["base"]
    names = sorted({f[2] for f in funcs})
    shown = {n: n for n in names}
    full = {}
    if opts["demangle"]:
        shown, full = demangled(names, "-p"), demangled(names)
    trace, expected = [], []
    for i, (a, frames) in enumerate(zip(addrs, answers)):
        s, mangled = start[a]
        name = shown[mangled]
        sym = "%s+%#x" % (name, a - s)
        header = "prog  %d [001] %12.6f:     250000 cpu-clock: " % (
            4243 if opts["thread"] else 4242, 100 + i / 1e6)
        # perf's default callchain line, -F ip,sym,dso's (no offset), and
        # one without a symbol.
        rows = [("\t%16x " % a, sym, " (%s)" % dso, name),
                ("\t%16x " % a, name, " (%s)" % dso, name),
                ("\t%16x " % a, "[unknown]", " (%s)" % dso, None)]
        # The process's address: perf's symbol answers by name; without
        # one only the maps do.
        rows.append((header + "  %x " % (base + a), sym, " (%s)" % dso, name))
        if mangled in full and full[mangled] != name:
            rows.append((header + "  %x " % (base + a),
                         "%s+%#x" % (full[mangled], a - s), " (%s)" % dso,
                         full[mangled]))
        absolute = ("\t%16x " % (base + a), "[unknown]", " (%s)" % dso, None)
        trace.append(header)
        expected.append(header)
        for before, symbol, after, keep in rows:
            trace.append(before + symbol + after)
            expected += annotate(before, symbol, after, frames, keep, False,
                                 opts["inlines"])
        trace.append("".join(absolute[:3]))
        if opts["mapped"]:
            expected += annotate(*absolute[:3], frames, None, False,
                                 opts["inlines"])
        else:
            expected.append("".join(absolute[:3]))
        trace.append("\t               0 [unknown] ([unknown])")
        expected.append(trace[-1])
        trace.append("")
        expected.append("")
    return trace, expected


def query(opts, funcs, addrs):
    answers = symbolize(opts["binary"], addrs)
    offsets = {}
    if opts["file_offsets"]:
        for off, vaddr, filesz, _ in load_segments(opts["binary"]):
            for a in addrs:
                if vaddr <= a < vaddr + filesz:
                    offsets[a] = a - vaddr + off
    trace, expected = [], []
    for a, frames in zip(addrs, answers):
        text = opts["prefix"] + "0x%x" % offsets.get(a, a)
        trace.append(text)
        expected += annotate(text, "", "", frames, None, True,
                             opts["inlines"])
    return trace, expected


def main(argv):
    mode, binary, trace_path, expected_path = argv[:4]
    opts = {"binary": binary, "module": "", "slide": 0, "exact": False,
            "inlines": True, "dso": binary, "base": 0, "maps": None,
            "mapped": False, "prefix": "", "file_offsets": False, "every": 1,
            "mmap_events": False, "thread": False, "demangle": False}
    args = argv[4:]
    while args:
        a = args.pop(0)
        if a in ("--module", "--dso", "--maps", "--prefix"):
            opts[a[2:]] = args.pop(0)
        elif a in ("--slide", "--base", "--every"):
            opts[a[2:]] = int(args.pop(0), 0)
        elif a == "--exact":
            opts["exact"] = True
        elif a == "--no-inlines":
            opts["inlines"] = False
        elif a == "--mapped":
            opts["mapped"] = True
        elif a == "--mmap-events":
            opts["mmap_events"] = True
        elif a == "--thread":
            opts["thread"] = True
        elif a == "--demangle":
            opts["demangle"] = True
        elif a == "--file-offsets":
            opts["file_offsets"] = True
        else:
            sys.exit("unknown option " + a)
    funcs = functions(binary, weak=opts["demangle"])
    addrs = instructions(binary, funcs)[::opts["every"]]
    if opts["maps"]:
        write_maps(opts["maps"], binary, opts["dso"], opts["base"])
    trace, expected = {"oops": oops, "perf": perf, "query": query}[mode](
        opts, funcs, addrs)
    if opts["mmap_events"]:
        events = mmap_events(binary, opts["dso"], opts["base"])
        if opts["thread"]:
            events.append("            prog  4243 [001]    99.500000: "
                          "PERF_RECORD_FORK(4242:4243):(4242:4242)")
        trace, expected = events + trace, events + expected
    with open(trace_path, "w") as f:
        f.write("\n".join(trace) + "\n")
    with open(expected_path, "w") as f:
        f.write("\n".join(expected) + "\n")


main(sys.argv[1:])
