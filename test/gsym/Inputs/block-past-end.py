"""Rewrites a side file's first unit (a .dwo's or a dwz file's) so that a
DIE's DW_FORM_block4 runs 1 GiB past the end of its section, followed by a
DW_FORM_udata value: what Inputs/block-past-end.s does in a main file.

  block-past-end.py INFO ABBREV

INFO holds the section's bytes (dumped with llvm-objcopy --dump-section):
the first unit's header is kept (its DWO id or type stays valid), its DIEs
are replaced and the other units dropped. ABBREV is written: the
abbreviation table the new DIEs use, for the matching abbreviation section.
"""
import struct
import sys

info_path, abbrev_path = sys.argv[1:3]
info = open(info_path, "rb").read()
length, version = struct.unpack_from("<IH", info, 0)
if length >= 0xFFFFFFF0:
    sys.exit("DWARF64 units are not handled")
if version >= 5:
    unit_type = info[6]
    # Split and skeleton units carry an 8-byte DWO id after the abbrev offset.
    header = 12 + (8 if unit_type in (4, 5) else 0)
    abbrev_at = 8
else:
    header = 11
    abbrev_at = 6

abbrev = bytes([
    1, 0x11, 1,        # 1: DW_TAG_compile_unit, children
    0x03, 0x08,        #   DW_AT_name, DW_FORM_string
    0, 0,
    2, 0x2e, 0,        # 2: DW_TAG_subprogram, no children
    0x03, 0x08,        #   DW_AT_name, DW_FORM_string
    0x2a, 0x04,        #   DW_AT_return_addr, DW_FORM_block4
    0x3b, 0x0f,        #   DW_AT_decl_line, DW_FORM_udata
    0, 0,
    0,
])
dies = (bytes([1]) + b"b.c\0" + bytes([2]) + b"f\0" +
        struct.pack("<I", 0x40000000) + bytes([5, 0]))
unit = bytearray(info[:header]) + dies
struct.pack_into("<I", unit, 0, len(unit) - 4)
struct.pack_into("<I", unit, abbrev_at, 0)  # the table written below
open(info_path, "wb").write(bytes(unit))
open(abbrev_path, "wb").write(abbrev)
