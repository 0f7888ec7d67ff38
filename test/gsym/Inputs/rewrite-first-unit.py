"""Rewrites a side file's first unit (a .dwo's or a dwz file's) into one
of two kinds of damage LLVM 19 does not survive on its own:

  rewrite-first-unit.py INFO ABBREV KIND

block-past-end: a DIE's DW_FORM_block4 runs 1 GiB past the end of its
section, followed by a DW_FORM_udata value (what Inputs/block-past-end.s
does in a main file). truncated-children: the unit's DIEs stop, at an
unknown abbreviation code, after the end of a nested DIE's children and
before the unit DIE's own end, so that the last DIE LLVM read is a nested
end-of-children marker.

INFO holds the section's bytes (dumped with llvm-objcopy --dump-section):
the first unit's header is kept (its DWO id or type stays valid), its DIEs
are replaced and the other units dropped. ABBREV is written: the
abbreviation table the new DIEs use, for the matching abbreviation section.
"""
import struct
import sys

info_path, abbrev_path, kind = sys.argv[1:4]
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

if kind == "block-past-end":
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
elif kind == "truncated-children":
    abbrev = bytes([
        1, 0x11, 1,        # 1: DW_TAG_compile_unit, children
        0x03, 0x08,        #   DW_AT_name, DW_FORM_string
        0, 0,
        2, 0x24, 0,        # 2: DW_TAG_base_type, no children
        0x03, 0x08,        #   DW_AT_name, DW_FORM_string
        0x0b, 0x0b,        #   DW_AT_byte_size, DW_FORM_data1
        0x3e, 0x0b,        #   DW_AT_encoding, DW_FORM_data1
        0, 0,
        3, 0x2e, 1,        # 3: DW_TAG_subprogram, children
        0x03, 0x08,        #   DW_AT_name, DW_FORM_string
        0, 0,
        4, 0x05, 0,        # 4: DW_TAG_formal_parameter, no children
        0x03, 0x08,        #   DW_AT_name, DW_FORM_string
        0, 0,
        0,
    ])
    dies = (bytes([1]) + b"b.c\0" + bytes([2]) + b"int\0" + bytes([4, 5]) +
            bytes([3]) + b"f\0" + bytes([4]) + b"x\0" + bytes([0]) +
            bytes([0x7F, 0, 0]))  # abbreviation 127 does not exist
else:
    sys.exit("unknown kind " + kind)
unit = bytearray(info[:header]) + dies
struct.pack_into("<I", unit, 0, len(unit) - 4)
struct.pack_into("<I", unit, abbrev_at, 0)  # the table written below
open(info_path, "wb").write(bytes(unit))
open(abbrev_path, "wb").write(abbrev)
