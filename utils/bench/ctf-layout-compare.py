#!/usr/bin/env python3
"""Compare struct/union layouts of a CTF dict with pahole's BTF.

Two independent readers: our dict is read by libctf (the text of
`objdump --ctf`), the BTF that pahole encoded from the same DWARF is parsed
here. For every struct and union, named or anonymous, the size and each
top-level member's (name, bit offset, bitfield size) must agree; layouts are
compared as multisets per name, so same-named distinct types are fine as long
as both sides have them. Also prints type counts by kind for both.

usage: ctf-layout-compare.py BTF_FILE CTF_DICT

CTF_DICT is a raw CTF v3 dict (parsed here, independently of dwarfpack's
reader) or the text of `objdump --ctf` (libctf's reading; bitfields over
typedefs are printed without their width there, so prefer the dict).
"""
import collections
import zlib
import re
import struct
import sys

BTF_KINDS = {1: "int", 2: "ptr", 3: "array", 4: "struct", 5: "union",
             6: "enum", 7: "fwd", 8: "typedef", 9: "volatile", 10: "const",
             11: "restrict", 12: "func", 13: "func_proto", 14: "var",
             15: "datasec", 16: "float", 17: "decl_tag", 18: "type_tag",
             19: "enum64"}
CTF_KINDS = {0: "unknown", 1: "integer", 2: "float", 3: "pointer",
             4: "array", 5: "function", 6: "struct", 7: "union", 8: "enum",
             9: "forward", 10: "typedef", 11: "volatile", 12: "const",
             13: "restrict", 14: "slice"}


def read_btf(path):
    data = open(path, "rb").read()
    magic, ver, flags, hdr_len, type_off, type_len, str_off, str_len = \
        struct.unpack_from("<HBBIIIII", data, 0)
    if magic != 0xEB9F:
        sys.exit(f"{path}: not BTF")
    types = data[hdr_len + type_off: hdr_len + type_off + type_len]
    strs = data[hdr_len + str_off: hdr_len + str_off + str_len]

    def name(off):
        end = strs.index(b"\0", off)
        return strs[off:end].decode()

    recs = [None]  # id 0 = void
    off = 0
    while off < len(types):
        name_off, info, size = struct.unpack_from("<III", types, off)
        off += 12
        kind = (info >> 24) & 0x1F
        vlen = info & 0xFFFF
        kflag = info >> 31
        rec = {"kind": kind, "name": name(name_off), "size": size,
               "kflag": kflag}
        if kind == 1:
            (rec["int"],) = struct.unpack_from("<I", types, off)
            off += 4
        elif kind == 3:
            off += 12
        elif kind in (4, 5):
            rec["members"] = []
            for _ in range(vlen):
                m_name, m_type, m_off = struct.unpack_from("<III", types, off)
                off += 12
                rec["members"].append((name(m_name), m_type, m_off))
        elif kind == 6:
            off += 8 * vlen
        elif kind == 13:
            off += 8 * vlen
        elif kind in (14, 17):
            off += 4
        elif kind == 15:
            off += 12 * vlen
        elif kind == 19:
            off += 12 * vlen
        recs.append(rec)
    return recs


def btf_layouts(recs):
    layouts = collections.defaultdict(collections.Counter)
    for rec in recs[1:]:
        if rec["kind"] not in (4, 5):
            continue
        members = []
        for m_name, m_type, m_off in rec["members"]:
            if rec["kflag"]:
                bits, bitoff = m_off >> 24, m_off & 0xFFFFFF
            else:
                bits, bitoff = 0, m_off
                t = recs[m_type] if m_type < len(recs) else None
                if t and t["kind"] == 1:
                    nr = t["int"] & 0xFF
                    bitoff += (t["int"] >> 16) & 0xFF
                    if nr != t["size"] * 8:
                        bits = nr
            members.append(f"{m_name}@{bitoff}:{bits}")
        kind = "struct" if rec["kind"] == 4 else "union"
        layouts[f"{kind} {rec['name']}"][
            f"{rec['size']};" + ",".join(members)] += 1
    return layouts


HEAD = re.compile(r"^(\s+)0x[0-9a-f]+: \(kind ([67])\) (?:struct|union) (.*?)"
                  r" ?\(size 0x([0-9a-f]+)\)")
MEMBER = re.compile(r"^(\s+)\[0x([0-9a-f]+)\] (\S*?): ID 0x[0-9a-f]+: (.*)$")
SLICE = re.compile(r"\[slice 0x[0-9a-f]+:0x([0-9a-f]+)\]")
ANYTYPE = re.compile(r"^\s+0x[0-9a-f]+: \(kind (\d+)\)")


def ctf_layouts(path):
    layouts = collections.defaultdict(collections.Counter)
    kinds = collections.Counter()
    in_types = False
    cur = None
    indent = None

    def flush():
        if cur:
            key, size, members = cur
            layouts[key][f"{size};" + ",".join(members)] += 1

    for line in open(path, errors="replace"):
        if line.startswith("  Types:"):
            in_types = True
            continue
        if line.startswith("  Strings:"):
            break
        if not in_types:
            continue
        m = ANYTYPE.match(line)
        if m:
            kinds[CTF_KINDS.get(int(m.group(1)), "?")] += 1
        h = HEAD.match(line)
        if h:
            flush()
            kind = "struct" if h.group(2) == "6" else "union"
            cur = (f"{kind} {h.group(3)}", int(h.group(4), 16), [])
            indent = None
            continue
        if m:
            flush()
            cur = None
            continue
        mm = MEMBER.match(line)
        if mm and cur:
            if indent is None:
                indent = len(mm.group(1))
            if len(mm.group(1)) != indent:
                continue  # members of a nested member, printed expanded
            s = SLICE.search(mm.group(4))
            bits = int(s.group(1), 16) if s else 0
            cur[2].append(f"{mm.group(3)}@{int(mm.group(2), 16)}:{bits}")
    flush()
    return layouts, kinds


def ctf_dict_layouts(data):
    """Parses a little-endian CTF v3 dict (include/ctf.h)."""
    magic, version, flags = struct.unpack_from("<HBB", data, 0)
    if magic != 0xDFF2 or version != 4:
        sys.exit("not a CTF v3 dict")
    f = struct.unpack_from("<12I", data, 4)
    typeoff, stroff, strlen = f[9], f[10], f[11]
    body = data[52:]
    if flags & 1:
        body = zlib.decompress(body)
    types, strs = body[typeoff:stroff], body[stroff:stroff + strlen]

    def name(off):
        if off >> 31:
            return "?"
        return strs[off:strs.index(b"\0", off)].decode()

    recs = [None]
    off = 0
    while off < len(types):
        name_off, info, size = struct.unpack_from("<III", types, off)
        off += 12
        if size == 0xFFFFFFFF:
            hi, lo = struct.unpack_from("<II", types, off)
            size = (hi << 32) | lo
            off += 8
        kind, vlen = info >> 26, info & 0xFFFFFF
        rec = {"kind": kind, "name": name(name_off), "size": size}
        if kind in (1, 2):
            off += 4
        elif kind == 4:
            off += 12
        elif kind == 5:
            off += 4 * (vlen + (vlen & 1))
        elif kind in (6, 7):
            rec["members"] = []
            large = size >= 536870912
            for _ in range(vlen):
                if large:
                    m_name, hi, m_type, lo = struct.unpack_from("<IIII", types,
                                                               off)
                    m_off = (hi << 32) | lo
                    off += 16
                else:
                    m_name, m_off, m_type = struct.unpack_from("<III", types,
                                                               off)
                    off += 12
                rec["members"].append((name(m_name), m_type, m_off))
        elif kind == 8:
            off += 8 * vlen
        elif kind == 14:
            rec["ref"], slice_off, rec["bits"] = struct.unpack_from(
                "<IHH", types, off)
            off += 8
        recs.append(rec)
    layouts = collections.defaultdict(collections.Counter)
    kinds = collections.Counter(CTF_KINDS.get(r["kind"], "?")
                                for r in recs[1:])
    for rec in recs[1:]:
        if rec["kind"] not in (6, 7):
            continue
        members = []
        for m_name, m_type, m_off in rec["members"]:
            t = recs[m_type] if 0 < m_type < len(recs) else None
            bits = t["bits"] if t and t["kind"] == 14 else 0
            members.append(f"{m_name}@{m_off}:{bits}")
        kind = "struct" if rec["kind"] == 6 else "union"
        layouts[f"{kind} {rec['name']}"][
            f"{rec['size']};" + ",".join(members)] += 1
    return layouts, kinds


def main():
    btf = read_btf(sys.argv[1])
    raw = open(sys.argv[2], "rb").read()
    if raw[:2] == b"\xf2\xdf":
        ours, ctf_kinds = ctf_dict_layouts(raw)
    else:
        ours, ctf_kinds = ctf_layouts(sys.argv[2])
    theirs = btf_layouts(btf)
    btf_kinds = collections.Counter(BTF_KINDS.get(r["kind"], "?")
                                    for r in btf[1:])
    print(f"BTF types: {len(btf) - 1}  CTF types: {sum(ctf_kinds.values())}")
    print("BTF by kind: " + ", ".join(f"{k} {n}" for k, n in
                                      sorted(btf_kinds.items())))
    print("CTF by kind: " + ", ".join(f"{k} {n}" for k, n in
                                      sorted(ctf_kinds.items())))
    total = same = 0
    bad = []
    for key in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(key, collections.Counter()), ours.get(key, {})
        for layout in a:
            total += 1
            if layout in b:
                same += 1
            else:
                bad.append((key, "BTF only", layout))
        for layout in b:
            if layout not in a:
                bad.append((key, "CTF only", layout))
    print(f"struct/union layouts in BTF: {total}, equal in CTF: {same}, "
          f"differences: {len(bad)}")
    for key, where, layout in bad[:20]:
        print(f"  {where}: {key}: {layout[:200]}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
