#!/usr/bin/env python3
"""Independent checks of a kernel CTF archive written by `dwarfpack ctf`.

    ctf-kernel-check.py DUMP [--modules-dir DIR --vmlinux PATH --sample N]

DUMP is the text of `dwarfpack dump ARCHIVE` (members: '.ctf' the parent,
the others children). It reports:
  * identical records across all dicts: a record's identity is its text with
    the hidden flag dropped, parent ids literal (they are global) and child
    ids replaced by the identity of the child type they name (computed to a
    fixed point, so copies of whole cyclic subgraphs compare equal); the
    count is records minus distinct identities (target 0);
  * with --modules-dir: for each (sampled) module, every named struct/union
    that pahole prints from the module's DWARF must exist in the module's
    view (its child and the parent) with the same size and every named,
    byte-aligned top-level member at the same offset.
"""
import argparse
import collections
import hashlib
import os
import re
import subprocess
import sys

CHILD = re.compile(r"0x8[0-9a-f]{7}")


def parse(path):
    """Returns {member: {id: (header_text, [member_lines])}}."""
    members = {}
    cur = None
    types = None
    last = None
    in_types = False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("member '"):
                cur = line[len("member '"):-2]
                types = members.setdefault(cur, {})
                in_types = False
                continue
            if line == "types:":
                in_types = True
                continue
            if re.match(r"^(data objects|functions|variables) \(", line):
                in_types = False
                continue
            if not in_types or types is None:
                continue
            m = re.match(r"^  (0x[0-9a-f]+): (.*)$", line)
            if m:
                last = m.group(1)
                types[last] = [m.group(2).replace("(hidden) ", ""), []]
            elif line.startswith("      ") and last is not None:
                types[last][1].append(line.strip())
    return members


def identities(members):
    """Fixed-point identities of every (member, id)."""
    text = {}
    refs = {}
    for mem, types in members.items():
        for tid, (head, lines) in types.items():
            body = head + "\n" + "\n".join(lines)
            local = CHILD.findall(body)
            text[(mem, tid)] = CHILD.sub("L", body)
            refs[(mem, tid)] = [(mem, r) for r in local]
    ident = {k: hashlib.sha1(v.encode()).hexdigest() for k, v in text.items()}
    for _ in range(64):
        nxt = {}
        for k, t in text.items():
            h = hashlib.sha1(t.encode())
            for r in refs[k]:
                h.update(ident.get(r, "?").encode())
            nxt[k] = h.hexdigest()
        if len(set(nxt.values())) == len(set(ident.values())):
            ident = nxt
            break
        ident = nxt
    return ident


def pahole_layouts(text):
    """(kind, name) -> list of (size, frozenset of (member, byte offset)) from
    pahole's C output: named top-level members only (no bitfields)."""
    out = collections.defaultdict(list)
    cur = None
    depth = 0
    for line in text.splitlines():
        m = re.match(r"^(struct|union) (\w+) \{$", line)
        if m and depth == 0:
            cur = (m.group(1), m.group(2))
            members = set()
            size = None
            depth = 1
            continue
        if cur is None:
            continue
        if line.startswith("}"):
            out[cur].append((size, frozenset(members)))
            cur = None
            depth = 0
            continue
        body = line.rstrip()
        if re.match(r"^\t(struct|union) \{$", body) or body.endswith("{"):
            depth += 1
            continue
        if re.match(r"^\t+\}", body):
            depth -= 1
            # "} name; /* off size */" closes a named inline aggregate member.
            cm = re.match(r"^\t\}\s*(\w+);\s*/\*\s*(\d+)\s+\d+\s*\*/$", body)
            if cm and depth == 1:
                members.add((cm.group(1), int(cm.group(2))))
            continue
        sm = re.search(r"/\* size: (\d+),", body)
        if sm and depth == 1:
            size = int(sm.group(1))
            continue
        if depth != 1 or not body.startswith("\t"):
            continue
        mm = re.match(r"^\t(.*);\s*/\*\s*(\d+)\s+\d+\s*\*/$", body)
        if not mm:
            continue  # bitfields ("off: bit size"), comments
        decl = re.sub(r"\s*__attribute__\(\(.*\)\)\s*$", "",
                      mm.group(1).strip())
        fp = re.search(r"\(\*\s*(\w+)\)", decl)
        nm = fp.group(1) if fp else re.sub(r"(\[[^]]*\])+$", "", decl)
        nm = re.findall(r"\w+", nm)[-1] if not fp else nm
        members.add((nm, int(mm.group(2))))
    return out


def ctf_layouts(types):
    """(kind, name) -> list of (size, frozenset of (member, byte offset)) for
    the named members at whole-byte offsets."""
    out = collections.defaultdict(list)
    for head, lines in types.values():
        r = re.match(r"^(struct|union) '([^']+)' size (\d+)", head)
        if not r:
            continue
        ms = set()
        for ln in lines:
            mm = re.match(r"^'([^']*)' 0x[0-9a-f]+ at bit (\d+)", ln)
            if mm and mm.group(1) and int(mm.group(2)) % 8 == 0:
                ms.add((mm.group(1), int(mm.group(2)) // 8))
        out[(r.group(1), r.group(2))].append((int(r.group(3)), frozenset(ms)))
    return out


def sizes_of(types):
    """name -> set of sizes of the structs/unions among types."""
    out = collections.defaultdict(set)
    for head, _ in types.values():
        r = re.match(r"^(struct|union) '([^']+)' size (\d+)", head)
        if r:
            out[r.group(2)].add(int(r.group(3)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--modules-dir")
    ap.add_argument("--vmlinux")
    ap.add_argument("--sample", type=int, default=0,
                    help="check every Nth module only (0: all)")
    a = ap.parse_args()
    members = parse(a.dump)
    nrec = sum(len(t) for t in members.values())
    ident = identities(members)
    distinct = len(set(ident.values()))
    print(f"dicts: {len(members)}")
    print(f"records: {nrec}")
    print(f"identical records: {nrec - distinct}")
    if nrec - distinct:
        seen = {}
        shown = 0
        for k, h in sorted(ident.items()):
            if h in seen and shown < 10:
                print(f"  duplicate: {k} == {seen[h]}: "
                      f"{members[k[0]][k[1]][0]}")
                shown += 1
            seen.setdefault(h, k)
    if not a.modules_dir:
        return 0
    kos = {}
    for root, _, files in os.walk(a.modules_dir):
        for f in files:
            if f.endswith(".ko"):
                kos[f[:-3]] = os.path.join(root, f)
    names = sorted(m for m in members if m != ".ctf")
    if a.sample > 1:
        names = sorted(set(names[:: a.sample]) |
                       ({"vmlinux"} & set(names)))
    checked = missing = mismatched = 0
    parent = ctf_layouts(members.get(".ctf", {}))
    for mem in names:
        path = kos.get(mem) if mem != "vmlinux" else a.vmlinux
        if not path:
            continue
        r = subprocess.run(["pahole", path], capture_output=True, text=True)
        own = ctf_layouts(members[mem])
        for key, layouts in pahole_layouts(r.stdout).items():
            view = own.get(key, []) + parent.get(key, [])
            for size, ms in layouts:
                checked += 1
                if not view:
                    missing += 1
                    if missing <= 5:
                        print(f"  missing in {mem}: {key[0]} {key[1]}")
                    continue
                # Our members are a superset only where pahole hides some
                # (bitfields); each pahole member must be there, same offset.
                # (pahole prints no size for unions.)
                if not any((size is None or sz == size) and ms <= cm
                           for sz, cm in view):
                    mismatched += 1
                    if mismatched <= 5:
                        print(f"  layout differs in {mem}: {key[0]} {key[1]} "
                              f"size {size}: {sorted(ms)[:6]} vs "
                              f"{[(sz, sorted(cm)[:6]) for sz, cm in view][:2]}")
    print(f"layout check: {checked} named structs/unions (pahole) in "
          f"{len(names)} modules' DWARF, {missing} missing from the module's "
          f"view, {mismatched} with another size or member offsets")
    return 1 if (nrec - distinct) or missing or mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
