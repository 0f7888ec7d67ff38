"""Sets the uncompressed size that an SHF_COMPRESSED section's header
declares (ch_size of its Elf64_Chdr), in a little-endian ELF64 file.

  set-compressed-size.py FILE SECTION SIZE

SIZE is a number, or "memory+1": one byte more than this machine's
physical memory.
"""
import os
import struct
import sys

path, name, size = sys.argv[1:4]
if size == "memory+1":
    size = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") + 1
else:
    size = int(size, 0)
d = bytearray(open(path, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
def header(i):
    return struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
strtab = header(shstrndx)[4]
for i in range(shnum):
    h = header(i)
    end = d.index(b"\0", strtab + h[0])
    if d[strtab + h[0]:end].decode() == name:
        if not h[2] & 0x800:  # SHF_COMPRESSED
            sys.exit(name + " is not compressed")
        struct.pack_into("<Q", d, h[4] + 8, size)
        break
else:
    sys.exit("no section " + name)
open(path, "wb").write(bytes(d))
