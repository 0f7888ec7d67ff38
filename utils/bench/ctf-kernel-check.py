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
  * with --modules-dir: for each (sampled) module, every struct/union that
    pahole --sizes finds in the module's DWARF must exist under the same
    name and size in the module's view (its child, then the parent).
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


def view_sizes(members, mem):
    """name -> set of sizes of structs/unions visible in a module's view."""
    out = collections.defaultdict(set)
    for m in (mem, ".ctf"):
        for head, _ in members.get(m, {}).values():
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
        names = names[:: a.sample]
    checked = missing = mismatched = 0
    for mem in names:
        path = kos.get(mem) if mem != "vmlinux" else a.vmlinux
        if not path:
            continue
        r = subprocess.run(["pahole", "--sizes", path], capture_output=True,
                           text=True)
        view = view_sizes(members, mem)
        for line in r.stdout.splitlines():
            parts = line.split("\t")
            if len(parts) < 2 or not parts[1].isdigit():
                continue
            name, size = parts[0], int(parts[1])
            checked += 1
            if name not in view:
                missing += 1
                if missing <= 5:
                    print(f"  missing in {mem}: {name} ({size})")
            elif size not in view[name]:
                mismatched += 1
                if mismatched <= 5:
                    print(f"  size differs in {mem}: {name} {size} vs "
                          f"{sorted(view[name])}")
    print(f"layout check: {checked} named structs/unions in "
          f"{len(names)} modules' DWARF, {missing} missing, "
          f"{mismatched} with another size")
    return 1 if (nrec - distinct) or missing or mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
