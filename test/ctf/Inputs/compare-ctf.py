#!/usr/bin/env python3
"""Compare the named types of two CTF files (dicts or ld archives).

Parses CTF v3 itself (independently of dwarfpack's reader) and prints, for
each side, named structs/unions/enums/typedefs/base types that the other
side lacks, and named structs/unions whose layout (size, members' names, bit
offsets and bitfield widths) differ. Exit 0 when both agree.

usage: compare-ctf.py A.ctf B.ctf
"""
import struct
import sys
import zlib

KINDS = {1: "int", 2: "float", 6: "struct", 7: "union", 8: "enum",
         10: "typedef"}


def parse_dict(data):
    magic, version, flags = struct.unpack_from("<HBB", data, 0)
    assert magic == 0xDFF2 and version == 4, "not a CTF v3 dict"
    f = struct.unpack_from("<12I", data, 4)
    typeoff, stroff, strlen = f[9], f[10], f[11]
    body = data[52:]
    if flags & 1:
        body = zlib.decompress(body)
    types, strs = body[typeoff:stroff], body[stroff:stroff + strlen]
    child = f[1] != 0

    def name(off):
        if off >> 31:
            return "?"
        return strs[off:strs.index(b"\0", off)].decode()

    recs = {}
    off, idx = 0, 1
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
            for _ in range(vlen):
                m_name, m_off, m_type = struct.unpack_from("<III", types, off)
                off += 12
                rec["members"].append((name(m_name), m_off, m_type))
        elif kind == 8:
            rec["values"] = []
            for _ in range(vlen):
                e_name, e_val = struct.unpack_from("<Ii", types, off)
                off += 8
                rec["values"].append((name(e_name), e_val))
        elif kind == 14:
            rec["ref"], _, rec["bits"] = struct.unpack_from("<IHH", types, off)
            off += 8
        recs[(0x80000000 if child else 0) | idx] = rec
        idx += 1
    return recs


def parse(path):
    data = open(path, "rb").read()
    if struct.unpack_from("<Q", data, 0)[0] == 0x8B47F2A4D7623EEB:
        _, _, ndicts, names, ctfs = struct.unpack_from("<5Q", data, 0)
        parent, children = {}, []
        for i in range(ndicts):
            name_off, ctf_off = struct.unpack_from("<QQ", data, 40 + 16 * i)
            size = struct.unpack_from("<Q", data, ctfs + ctf_off)[0]
            d = data[ctfs + ctf_off + 8: ctfs + ctf_off + 8 + size]
            nm = data[names + name_off:data.index(b"\0", names + name_off)]
            if nm == b".ctf":
                parent = parse_dict(d)
            else:
                children.append(parse_dict(d))
        dicts = [{**parent, **c} for c in children] or [parent]
    else:
        dicts = [parse_dict(data)]
    names, layouts = set(), set()
    for recs in dicts:
        for rec in recs.values():
            kind = KINDS.get(rec["kind"])
            # GCC writes "void" only where something cites it; we always do.
            if not kind or not rec["name"] or rec["name"] == "void":
                continue
            names.add(f"{kind} {rec['name']}")
            if kind in ("struct", "union"):
                ms = []
                for m_name, m_off, m_type in rec["members"]:
                    t = recs.get(m_type)
                    bits = t["bits"] if t and t["kind"] == 14 else 0
                    ms.append(f"{m_name}@{m_off}:{bits}")
                layouts.add(f"{kind} {rec['name']} {rec['size']}: "
                            + ",".join(ms))
            elif kind == "enum":
                layouts.add(f"enum {rec['name']} {rec['size']}: " +
                            ",".join(f"{n}={v}" for n, v in rec["values"]))
    return names, layouts


def main():
    (na, la), (nb, lb) = parse(sys.argv[1]), parse(sys.argv[2])
    bad = 0
    for what, a, b in (("name", na, nb), ("layout", la, lb)):
        for x in sorted(a - b):
            print(f"only in {sys.argv[1]}: {what} {x}")
            bad += 1
        for x in sorted(b - a):
            print(f"only in {sys.argv[2]}: {what} {x}")
            bad += 1
    print(f"named types: {len(na)} vs {len(nb)}, "
          f"layouts: {len(la)} vs {len(lb)}, differences: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
