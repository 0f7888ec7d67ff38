"""The GNU build-id of a raw ELF note stream (/sys/kernel/notes), in hex:
an oracle for dwarfpack's reader. With --expect-in FILE, checks instead that
FILE holds "build-id is <hex> and" (exit status 1 if not)."""
import struct
import sys


def build_id(data):
    at = 0
    while at + 12 <= len(data):
        namesz, descsz, ntype = struct.unpack_from("<III", data, at)
        name_at = at + 12
        desc_at = name_at + ((namesz + 3) & ~3)
        name = data[name_at:name_at + namesz].rstrip(b"\0")
        if ntype == 3 and name == b"GNU":
            return data[desc_at:desc_at + descsz].hex()
        at = desc_at + ((descsz + 3) & ~3)
    return None


with open(sys.argv[1], "rb") as f:
    found = build_id(f.read())
if found is None:
    sys.exit("no GNU build-id note in " + sys.argv[1])
if len(sys.argv) > 3 and sys.argv[2] == "--expect-in":
    with open(sys.argv[3]) as f:
        text = f.read()
    if "build-id is %s and" % found not in text:
        sys.exit("expected the build-id %s in:\n%s" % (found, text))
else:
    print(found)
