"""Gives the first type units of an ELF file the signatures 0xff..ff,
0xff..fe, ...: rewrites every occurrence of each old signature's 8 bytes
(the unit header and the DW_FORM_ref_sig8 / DW_AT_signature references).

    set-signatures.py IN OUT COUNT
"""
import re
import struct
import subprocess
import sys

src, dst, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
dump = subprocess.run(["llvm-dwarfdump", "--debug-info", src], check=True,
                      capture_output=True, text=True).stdout
sigs = re.findall(r"type_signature = 0x([0-9a-f]{16})", dump)
if len(sigs) < count:
    sys.exit("only %d type units in %s" % (len(sigs), src))
data = open(src, "rb").read()
for i, sig in enumerate(sigs[:count]):
    old = struct.pack("<Q", int(sig, 16))
    if data.count(old) < 2:
        sys.exit("signature %s is not referred to" % sig)
    data = data.replace(old, struct.pack("<Q", 0xFFFFFFFFFFFFFFFF - i))
open(dst, "wb").write(data)
