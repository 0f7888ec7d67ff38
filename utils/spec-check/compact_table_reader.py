#!/usr/bin/env python3
"""An independent reader of dwarfpack's compact address table.

Written from docs/CompactTable.md and docs/TokenEncoder.md only (and the
GSYM dump and lookup rules those documents refer to), to show that the
documents are precise enough to write a reader from. It validates what it
reads and fails loudly on anything the documents do not allow.

Usage:
  compact_table_reader.py lookup FILE [ADDR...] [--output-style=JSON|LLVM|GNU]
                                                [--no-inlines] [--file-offsets]
      Answer like `dwarfpack lookup --no-demangle FILE` (stdin one address a
      line when no address is given, as dwarfpack does). Names are printed as
      stored: this reader does not demangle. With --file-offsets, each
      number is an offset in the module's file, turned into an address
      through the Segments section.
  compact_table_reader.py dump FILE
      Print what `dwarfpack dump FILE` prints.
  compact_table_reader.py addresses FILE [--random N] [--seed S] [--detail K]
                                         [--file-offsets]
      Print interesting addresses of the table (function starts and ends,
      gaps, inline range edges, line rows, before and after the table) and N
      random ones, one per line, for comparing the two readers. With
      --detail, line rows and inline edges of K random functions only. With
      --file-offsets, the file offsets of those addresses that a segment
      loads, and the edges of every segment, instead.
  compact_table_reader.py rewrite IN OUT [--explicit-root K] [--tokens-v2]
                                         [--block-shift S]
      Re-encode IN's block index, address blocks and records from what was
      decoded (OUT equals IN byte for byte), optionally in forms the
      documents allow but dwarfpack's writer does not use: explicit inline
      roots (HasInlineRoot) for every K-th record with an implicit one,
      front-coded (version 2) token tables, blocks of 1 << S functions. dwarfpack must read them alike.

Python 3, standard library only.
"""

import random
import struct
import sys

MAGIC = 0x54415044
VERSION = 4
HEADER_SIZE = 40
NUM_SECTIONS = 11
TABLE_END = HEADER_SIZE + NUM_SECTIONS * 8  # 128
HAS_DETAILS = 1  # header Flags
ADDR32 = 2  # header Flags: a 32-bit module
ROW_STOPS = 4  # header Flags: line tables with row stops (RowStopShift)


def record_flag_bits(details):
    """Flag bits below a record head's name offset."""
    return 6 if details else 3


# Record flags beyond HasLines (1), HasInlineChildren (2), HasInlineRoot (4),
# only with details.
NO_DWARF_START, HAS_DWARF_NAME, HAS_SYMBOL_FILE = 8, 16, 32
# Name entry flags (with details), below the declaration file.
NAME_HAS_SHORT = 1
FIRST_SPECIAL = 4
MAX_CODE_LENGTH = 20
SECTION_NAMES = [
    "UUID",
    "BlockIndex",
    "AddressBlocks",
    "Records",
    "NameTokens",
    "Names",
    "PathTokens",
    "Paths",
    "Files",
    "Segments",
    "ColumnCode",
]
(UUID, BLOCK_INDEX, ADDRESS_BLOCKS, RECORDS, NAME_TOKENS, NAMES, PATH_TOKENS,
 PATHS, FILES, SEGMENTS, COLUMN_CODE) = range(11)
HISTORY_SIZE = 32
MAX_EXPANDED = 16 << 20
MAX_INLINE_DEPTH = 256  # GSYM.md: deeper trees are an error
U32 = 0xFFFFFFFF
U64 = 0xFFFFFFFFFFFFFFFF


class FormatError(Exception):
    """The file breaks a rule of the documents."""


class LookupError_(Exception):
    """A lookup that fails (GSYM's "not in the line table")."""


def fail(msg):
    raise FormatError(msg)


class Cursor:
    """Reads LEB128 values and bytes inside [pos, end) of a buffer."""

    def __init__(self, data, pos, end, what):
        if not (0 <= pos <= end <= len(data)):
            fail("%s: range 0x%x..0x%x outside the file" % (what, pos, end))
        self.data, self.pos, self.end, self.what = data, pos, end, what

    def at_end(self):
        return self.pos >= self.end

    def byte(self):
        if self.pos >= self.end:
            fail("%s: byte past the end at 0x%x" % (self.what, self.pos))
        b = self.data[self.pos]
        self.pos += 1
        return b

    def _leb(self, kind):
        """The 7-bit groups of a LEB128 number: (value, bits read, last byte)."""
        result, shift, start = 0, 0, self.pos
        while True:
            if self.pos >= self.end:
                fail("%s: %s at 0x%x runs past the end" % (self.what, kind, start))
            b = self.data[self.pos]
            self.pos += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result, shift, b

    def uleb(self, bits=64):
        start = self.pos
        result, _, _ = self._leb("ULEB")
        if result >> 64:
            fail("%s: ULEB at 0x%x overflows 64 bits" % (self.what, start))
        if result >> bits:
            fail("%s: ULEB at 0x%x does not fit %d bits" % (self.what, start, bits))
        return result

    def sleb(self):
        start = self.pos
        result, shift, b = self._leb("SLEB")
        if b & 0x40:
            result -= 1 << shift
        if not -(1 << 63) <= result < (1 << 63):
            fail("%s: SLEB at 0x%x overflows 64 bits" % (self.what, start))
        return result


def u8(d, o):
    return d[o]


def u16(d, o):
    return struct.unpack_from("<H", d, o)[0]


def u32(d, o):
    return struct.unpack_from("<I", d, o)[0]


def u64(d, o):
    return struct.unpack_from("<Q", d, o)[0]


# --------------------------------------------------------------------------
# Token tables (docs/TokenEncoder.md)


class TokenTable:
    def __init__(self, data, what, want_w, want_s):
        self.what = what
        if len(data) < 24:
            fail("%s: token table of %d bytes is shorter than its header" % (what, len(data)))
        if u32(data, 0) != 0x4B545044:
            fail("%s: bad token table magic" % what)
        version = data[4]
        self.w, self.s = data[5], data[6]
        if self.w != want_w or self.s != want_s:
            fail("%s: separators %r/%r, expected %r/%r" % (what, self.w, self.s, want_w, want_s))
        if self.s == self.w:
            fail("%s: sub-separator equals the word separator" % what)
        self.b = data[8]
        if not 1 <= self.b <= 254:
            fail("%s: one-byte id limit %d outside 1..254" % (what, self.b))
        if data[9:12] != b"\0\0\0":
            fail("%s: reserved header bytes are not zero" % what)
        if len(data) % 4:
            fail("%s: size %d is not a multiple of 4" % (what, len(data)))
        if version == 1:
            self.tokens = self._v1(data)
        elif version == 2:
            self.tokens = self._v2(data)
        else:
            fail("%s: token table version %d" % (what, version))
        if len(self.tokens) > 1 << 24:
            fail("%s: more than 2^24 tokens" % what)

    def _v1(self, data):
        what = self.what
        if data[7] != 4:
            fail("%s: index shift %d, expected 4" % (what, data[7]))
        n, nlong, text_size = u32(data, 12), u32(data, 16), u32(data, 20)
        pos = 24
        nidx = (n + 15) // 16
        need = 24 + 4 * nidx + 8 * nlong + (n + 1) // 2 + text_size
        if need > len(data):
            fail("%s: table needs %d bytes, has %d" % (what, need, len(data)))
        offsets = [u32(data, pos + 4 * k) for k in range(nidx)]
        pos += 4 * nidx
        longs = [(u32(data, pos + 8 * k), u32(data, pos + 8 * k + 4)) for k in range(nlong)]
        pos += 8 * nlong
        nib_pos = pos
        pos += (n + 1) // 2
        text_pos = pos
        lengths = []
        li = 0
        for i in range(n):
            byte = data[nib_pos + i // 2]
            ln = (byte >> 4) if i & 1 else (byte & 15)
            if ln == 15:
                if li >= nlong or longs[li][0] != i:
                    fail("%s: long token %d not in the long list" % (what, i))
                ln = longs[li][1]
                if ln < 15:
                    fail("%s: long token %d of length %d" % (what, i, ln))
                li += 1
            lengths.append(ln)
        if li != nlong:
            fail("%s: long list has entries that are not long tokens" % what)
        if n & 1 and data[nib_pos + n // 2] >> 4:
            fail("%s: unused length nibble is not zero" % what)
        tokens, off = [], 0
        for i, ln in enumerate(lengths):
            if i % 16 == 0 and offsets[i // 16] != off:
                fail("%s: index entry %d is %d, expected %d" % (what, i // 16, offsets[i // 16], off))
            tokens.append(bytes(data[text_pos + off:text_pos + off + ln]))
            off += ln
        if off != text_size:
            fail("%s: token lengths add up to %d, TextSize is %d" % (what, off, text_size))
        end = text_pos + text_size
        if len(data) - end > 3 or any(data[end:]):
            fail("%s: %d bytes after the text are not 0..3 zero bytes" % (what, len(data) - end))
        return tokens

    def _v2(self, data):
        what = self.what
        if data[7] != 0:
            fail("%s: version 2 byte 7 is not zero" % what)
        n, enc_size, text_size = u32(data, 12), u32(data, 16), u32(data, 20)
        if n > (1 << 24) or n > enc_size:
            fail("%s: %d tokens for %d encoded bytes" % (what, n, enc_size))
        if 24 + enc_size > len(data):
            fail("%s: records run past the table" % what)
        size = (24 + enc_size + 3) & ~3
        if size != len(data):
            fail("%s: table of %d bytes in a section of %d" % (what, size, len(data)))
        if any(data[24 + enc_size:]):
            fail("%s: padding is not zero" % what)
        if text_size > 16 * size:
            fail("%s: TextSize beyond the decoding bound" % what)
        c = Cursor(data, 24, 24 + enc_size, what)
        tokens, prev, total = [], b"", 0
        for _ in range(n):
            h = c.byte()
            shared = h & 15
            if shared == 15:
                shared = 15 + c.uleb(32)
            new = h >> 4
            if new == 15:
                new = 15 + c.uleb(32)
            if shared > len(prev):
                fail("%s: shared count %d beyond the previous token" % (what, shared))
            if c.pos + new > c.end:
                fail("%s: new bytes run past the records" % what)
            tok = prev[:shared] + bytes(data[c.pos:c.pos + new])
            c.pos += new
            tokens.append(tok)
            prev = tok
            total += len(tok)
        if c.pos != c.end:
            fail("%s: records end at %d, EncodedSize says %d" % (what, c.pos - 24, enc_size))
        if total != text_size:
            fail("%s: tokens add up to %d bytes, TextSize is %d" % (what, total, text_size))
        nlong = sum(1 for t in tokens if len(t) >= 15)
        image = ((24 + 4 * ((n + 15) // 16) + 8 * nlong + (n + 1) // 2 + text_size + 3) & ~3) + 16
        if image > 16 * size:
            fail("%s: decoded image beyond the decoding bound" % what)
        return tokens

    def read_id(self, c):
        b = c.byte()
        if b < self.b:
            tid = b
        elif b < 0xFF:
            tid = self.b + (((b - self.b) << 8) | c.byte())
        else:
            lo = c.byte()
            mid = c.byte()
            hi = c.byte()
            tid = self.b + (0xFF - self.b) * 256 + (lo | mid << 8 | hi << 16)
        if tid >= len(self.tokens):
            fail("%s: token id %d of %d" % (self.what, tid, len(self.tokens)))
        return tid

    def join(self, ids):
        out = bytearray()
        for k, tid in enumerate(ids):
            tok = self.tokens[tid]
            if k and not (self.s and tok[:1] == bytes([self.s])):
                out.append(self.w)
            out += tok
            if len(out) > MAX_EXPANDED:
                fail("%s: entry expands to more than 16 MiB" % self.what)
        return bytes(out)


def read_entry(data, pos, end, tokens, what):
    """A name or path entry: ULEB ByteLength, then token id codes."""
    c = Cursor(data, pos, end, what)
    n = c.uleb(32)
    if c.pos + n > end:
        fail("%s: entry at 0x%x of %d bytes runs past its section" % (what, pos, n))
    ids_end = c.pos + n
    ic = Cursor(data, c.pos, ids_end, what)
    ids = []
    while not ic.at_end():
        ids.append(tokens.read_id(ic))
    return tokens.join(ids), ids_end


# --------------------------------------------------------------------------
# The table


class Function:
    __slots__ = ("index", "start", "size", "rec_off", "rec_end")


class Table:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = f.read()
        self._parse()

    def _parse(self):
        d = self.data
        if len(d) < TABLE_END:
            fail("file of %d bytes is shorter than header and section table" % len(d))
        if len(d) > 1 << 32:
            fail("file larger than 4 GiB")
        if u32(d, 0) != MAGIC:
            fail("bad magic 0x%08x" % u32(d, 0))
        self.version = u16(d, 4)
        if self.version != VERSION:
            fail("version %d" % self.version)
        self.block_shift = d[6]
        if self.block_shift > 12:
            fail("BlockShift %d above 12" % self.block_shift)
        self.flags = d[7]
        if self.flags & ~(HAS_DETAILS | ADDR32 | ROW_STOPS):
            fail("unknown header flags 0x%x" % self.flags)
        self.details = bool(self.flags & HAS_DETAILS)
        self.address_bytes = 4 if self.flags & ADDR32 else 8
        self.row_stop_shift = d[26]
        self.row_stop_index = None
        if self.flags & ROW_STOPS:
            if not 1 <= self.row_stop_shift <= 16:
                fail("RowStopShift %d not in 1..16" % self.row_stop_shift)
        elif self.row_stop_shift != 0:
            fail("RowStopShift %d without the RowStops flag" % self.row_stop_shift)
        if d[27] != 0:
            fail("reserved header byte is not zero")
        self.base = u64(d, 8)
        self.num_functions = u32(d, 16)
        self.num_blocks = u32(d, 20)
        self.line_base = struct.unpack_from("<b", d, 24)[0]
        self.line_range = d[25]
        if self.line_range == 0:
            fail("LineRange 0")
        self.num_files = u32(d, 28)
        self.num_names = u32(d, 32)
        self.num_paths = u32(d, 36)
        per = 1 << self.block_shift
        if self.num_blocks != (self.num_functions + per - 1) // per:
            fail("NumBlocks %d for %d functions" % (self.num_blocks, self.num_functions))
        self.sections = []
        prev_end = TABLE_END
        for i in range(NUM_SECTIONS):
            off, size = u32(d, HEADER_SIZE + 8 * i), u32(d, HEADER_SIZE + 8 * i + 4)
            name = SECTION_NAMES[i]
            if off < TABLE_END or off + size > len(d):
                fail("section %s (0x%x, %d bytes) outside the file" % (name, off, size))
            # Layout: in order, 4-aligned, zero padding between them.
            if off % 4:
                fail("section %s at 0x%x is not 4-aligned" % (name, off))
            if off < prev_end or off - prev_end > 3 or any(d[prev_end:off]):
                fail("section %s at 0x%x: not after the previous one with 0..3 zero bytes" % (name, off))
            prev_end = off + size
            self.sections.append((off, size))
        if prev_end != len(d):
            fail("%d bytes after the last section" % (len(d) - prev_end))
        self.uuid = self.section(UUID)
        seg = self.section(SEGMENTS)
        if len(seg) % 24:
            fail("Segments of %d bytes, not a multiple of 24" % len(seg))
        self.segments = []
        for k in range(0, len(seg), 24):
            fo, addr, size = struct.unpack_from("<QQQ", seg, k)
            if size == 0:
                fail("segment %d of size 0" % (k // 24))
            if fo + size > U64 + 1 or addr + size > U64 + 1:
                fail("segment %d wraps around" % (k // 24))
            if self.segments and fo < self.segments[-1][0] + self.segments[-1][2]:
                fail("segment %d unsorted or overlapping" % (k // 24))
            self.segments.append((fo, addr, size))
        bi_off, bi_size = self.sections[BLOCK_INDEX]
        if bi_size != 16 * self.num_blocks:
            fail("BlockIndex of %d bytes for %d blocks" % (bi_size, self.num_blocks))
        self.blocks = []
        ab_size = self.sections[ADDRESS_BLOCKS][1]
        rec_size = self.sections[RECORDS][1]
        for b in range(self.num_blocks):
            o = bi_off + 16 * b
            first, boff, roff = u64(d, o), u32(d, o + 8), u32(d, o + 12)
            if self.blocks:
                pf, pb, pr = self.blocks[-1]
                if first <= pf or boff < pb or roff < pr:
                    fail("block %d: index entry does not ascend" % b)
            if boff > ab_size or roff > rec_size:
                fail("block %d: offsets outside their sections" % b)
            if self.base + first > U64:
                fail("block %d: start beyond 2^64" % b)
            self.blocks.append((first, boff, roff))
        self._parse_column_code()
        self.name_tokens = TokenTable(self.section(NAME_TOKENS), "NameTokens", ord("_"), ord("."))
        self.path_tokens = TokenTable(self.section(PATH_TOKENS), "PathTokens", ord("/"), 0)
        self.paths = self._list(PATHS, self.num_paths, self._path_entry)
        self.files = [b""] + self._list(FILES, self.num_files, self._file_entry)
        self._name_cache = {}

    def section(self, i):
        off, size = self.sections[i]
        return self.data[off:off + size]

    def _parse_column_code(self):
        """The canonical prefix code of columns: self.symbols in canonical
        order, self.codes {(length, code): value}."""
        off, size = self.sections[COLUMN_CODE]
        self.symbols, self.codes = [], {}
        if size == 0:
            return
        if not self.details:
            fail("ColumnCode in a table without details")
        c = Cursor(self.data, off, off + size, "ColumnCode")
        count = c.uleb()
        if count < 1 or count > 65536:
            fail("ColumnCode: %d symbols" % count)
        kraft = 0
        for _ in range(count):
            value = c.uleb()
            length = c.byte()
            if value > 0xFFFF or not 1 <= length <= MAX_CODE_LENGTH:
                fail("ColumnCode: symbol (%d, %d) out of range" % (value, length))
            if self.symbols and (length, value) <= (self.symbols[-1][1], self.symbols[-1][0]):
                fail("ColumnCode: symbols not in canonical order")
            self.symbols.append((value, length))
            kraft += 1 << (MAX_CODE_LENGTH - length)
        if kraft > 1 << MAX_CODE_LENGTH:
            fail("ColumnCode: lengths of no prefix code")
        if len(set(v for v, _ in self.symbols)) != count:
            fail("ColumnCode: a value with two codes")
        if not c.at_end():
            fail("ColumnCode: trailing bytes")
        code, prev_len = 0, None
        for value, length in self.symbols:
            if prev_len is not None:
                code = (code + 1) << (length - prev_len)
            self.codes[(length, code)] = value
            prev_len = length

    def read_columns(self, pos, end, n, what, starts=None):
        """n column codes from the bit string [pos, end), most significant
        bit first; the string must have exactly the bytes they need. The bit
        offset of each code is appended to starts."""
        out, bit = [], 0
        nbits = 8 * (end - pos)
        for _ in range(n):
            if starts is not None:
                starts.append(bit)
            code, length = 0, 0
            while True:
                if bit >= nbits:
                    fail("%s: column codes run past their bytes" % what)
                code = code << 1 | (self.data[pos + bit // 8] >> (7 - bit % 8)) & 1
                bit += 1
                length += 1
                if (length, code) in self.codes:
                    out.append(self.codes[(length, code)])
                    break
                if length == MAX_CODE_LENGTH:
                    fail("%s: bits that are no column code" % what)
        if (bit + 7) // 8 != end - pos:
            fail("%s: column codes of %d bits in %d bytes" % (what, bit, end - pos))
        return out

    def _list(self, sec, count, entry):
        off, size = self.sections[sec]
        end = off + size
        nidx = (count + 3) // 4
        if 4 * nidx > size:
            fail("%s: index of %d entries does not fit" % (SECTION_NAMES[sec], nidx))
        base = off + 4 * nidx
        index = [u32(self.data, off + 4 * k) for k in range(nidx)]
        out, pos = [], base
        for i in range(count):
            if i % 4 == 0:
                if base + index[i // 4] != pos:
                    fail("%s: index entry %d is %d, entry %d is at %d" %
                         (SECTION_NAMES[sec], i // 4, index[i // 4], i, pos - base))
            value, pos = entry(pos, end)
            out.append(value)
        if pos != end:
            fail("%s: %d bytes after the last entry" % (SECTION_NAMES[sec], end - pos))
        return out

    def _path_entry(self, pos, end):
        return read_entry(self.data, pos, end, self.path_tokens, "Paths")

    def _file_entry(self, pos, end):
        c = Cursor(self.data, pos, end, "Files")
        dir_id, base_id = c.uleb(32), c.uleb(32)
        if dir_id >= self.num_paths or base_id >= self.num_paths:
            fail("Files: path id %d/%d of %d paths" % (dir_id, base_id, self.num_paths))
        return join_path(self.paths[dir_id], self.paths[base_id]), c.pos

    def name(self, off):
        return self.name_decl(off)[0]

    def name_decl(self, off):
        """(name, declaration file id, declaration line) of the entry at
        off; with details the entry ends with the declaration."""
        return self.name_entry(off)[:3]

    def name_entry(self, off):
        """(name, declaration file id, declaration line, short name or
        None) of the entry at off."""
        if off in self._name_cache:
            return self._name_cache[off]
        noff, nsize = self.sections[NAMES]
        if off >= nsize:
            fail("name offset %d outside Names (%d bytes)" % (off, nsize))
        name, pos = read_entry(self.data, noff + off, noff + nsize, self.name_tokens, "Names")
        decl_file = decl_line = 0
        short = None
        if self.details:
            c = Cursor(self.data, pos, noff + nsize, "Names")
            head = c.uleb(33)
            decl_file, decl_line = head >> 1, c.uleb(32)
            self.file(decl_file)
            if head & NAME_HAS_SHORT:
                short, _ = read_entry(self.data, c.pos, noff + nsize, self.name_tokens, "Names")
        self._name_cache[off] = (name, decl_file, decl_line, short)
        return self._name_cache[off]

    def file(self, fid):
        if fid > self.num_files:
            fail("file id %d of %d" % (fid, self.num_files))
        return self.files[fid]

    # -- address blocks

    def block_functions(self, b):
        """The functions of block b: list of Function."""
        d = self.data
        first, boff, roff = self.blocks[b]
        ab_off, ab_size = self.sections[ADDRESS_BLOCKS]
        r_off, r_size = self.sections[RECORDS]
        bend = self.blocks[b + 1][1] if b + 1 < self.num_blocks else ab_size
        rend = self.blocks[b + 1][2] if b + 1 < self.num_blocks else r_size
        per = 1 << self.block_shift
        count = min(per, self.num_functions - (b << self.block_shift))
        c = Cursor(d, ab_off + boff, ab_off + bend, "AddressBlocks block %d" % b)
        funcs = []
        rec = roff
        prev_end = None
        for j in range(count):
            f = Function()
            f.index = (b << self.block_shift) + j
            if j == 0:
                f.start = self.base + first
            else:
                f.start = prev_end + c.uleb()
            f.size = c.uleb()
            if f.size < 1:
                fail("function %d: size 0" % f.index)
            if f.start + f.size > U64 + 1:
                fail("function %d: range beyond 2^64" % f.index)
            prev_end = f.start + f.size
            f.rec_off = rec
            if j + 1 < count:
                ln = c.uleb(32)
                rec += ln
                f.rec_end = rec
            else:
                f.rec_end = rend
            if f.rec_end > rend or f.rec_off > f.rec_end:
                fail("function %d: record runs past its block's records" % f.index)
            funcs.append(f)
        if not c.at_end():
            fail("block %d: %d bytes after its last function" % (b, c.end - c.pos))
        if b + 1 < self.num_blocks and prev_end > self.base + self.blocks[b + 1][0]:
            fail("block %d overlaps the next block" % b)
        return funcs

    def all_functions(self):
        for b in range(self.num_blocks):
            for f in self.block_functions(b):
                yield f

    # -- records

    def decode_record(self, f, full=True):
        """Returns (name_offset, rows, tree); rows are (address, file, line,
        column, discriminator); tree is None or a root node dict {ranges,
        name, call_file, call_line, call_column, call_disc, start,
        children}. The head's other values are in self.head_extra:
        {flags, dwarf_name (offset or None), symbol_file (file id; 0 with
        HAS_SYMBOL_FILE: an STT_FILE symbol without a name)}."""
        r_off = self.sections[RECORDS][0]
        c = Cursor(self.data, r_off + f.rec_off, r_off + f.rec_end, "record of function %d" % f.index)
        head = c.uleb()
        bits = record_flag_bits(self.details)
        flags = head & ((1 << bits) - 1)
        name_off = head >> bits
        if name_off > U32:
            fail("function %d: name offset beyond 32 bits" % f.index)
        if not self.details and flags & ~7:
            fail("function %d: record flags 0x%x without details" % (f.index, flags))
        has_lines = flags & 1
        children = flags & 2
        root = flags & 4
        if children and root:
            fail("function %d: both inline flags set" % f.index)
        dwarf_name = c.uleb(32) if flags & HAS_DWARF_NAME else None
        symbol_file = c.uleb(32) if flags & HAS_SYMBOL_FILE else 0
        self.file(symbol_file)
        self.head_extra = {"flags": flags, "dwarf_name": dwarf_name,
                           "symbol_file": symbol_file}
        rows = None
        if has_lines:
            rows = self._line_table(c, f, bool(children or root))
        tree = None
        if children:
            ref = (rows[0][1], rows[0][2]) if rows else (0, 0)
            n = c.uleb()
            kids = self._siblings(c, n, f.start, ref, 1, [(f.start, f.start + f.size)])
            tree = {"ranges": [(f.start, f.start + f.size)], "name": name_off,
                    "call_file": 0, "call_line": 0, "call_column": 0,
                    "call_disc": 0, "start": None, "children": kids}
        elif root:
            kids = self._siblings(c, 1, f.start, (0, 0), 0, [(f.start, f.start + f.size)])
            tree = kids[0]
        if not c.at_end():
            fail("function %d: record ends at 0x%x, its length says 0x%x" %
                 (f.index, c.pos - r_off, c.end - r_off))
        return name_off, rows, tree

    def _line_table(self, c, f, has_tree):
        num_rows = c.uleb()
        if num_rows < 1:
            fail("function %d: line table of 0 rows" % f.index)
        columns = [0] * num_rows
        col_starts = []
        if self.codes:
            col_bytes = c.uleb()
            if c.pos + col_bytes > c.end:
                fail("function %d: ColumnBytes past the record" % f.index)
            columns = self.read_columns(c.pos, c.pos + col_bytes, num_rows,
                                        "function %d" % f.index, col_starts)
            c.pos += col_bytes
        if has_tree:
            row_bytes = c.uleb()
            lt_end = c.pos + row_bytes
            if lt_end > c.end:
                fail("function %d: RowBytes past the record" % f.index)
        # Row stops: every stop_every-th row of a longer table is coded
        # whole, the history starting over; the index locates each one.
        stop_every = 0
        stops = None
        self.row_stop_index = None  # (offset, size) in the file, for tests
        if self.flags & ROW_STOPS and num_rows > 1 << self.row_stop_shift:
            stop_every = 1 << self.row_stop_shift
            stop_bytes = c.uleb()
            stops = Cursor(self.data, c.pos, c.pos + stop_bytes,
                           "function %d: row stop index" % f.index)
            if stops.end > (lt_end if has_tree else c.end):
                fail("function %d: row stop index past the line table" % f.index)
            self.row_stop_index = (c.pos, stop_bytes)
            c.pos += stop_bytes
            prev_stop = (f.start, 0, 0)
        rows_begin = c.pos

        def whole_row():
            fid = c.uleb(33 if self.details else 32)
            line = c.uleb(32)
            disc = 0
            if self.details:
                if fid & 1:
                    disc = c.uleb(32)
                fid >>= 1
            self.file(fid)
            return fid, line, disc

        addr = f.start + c.uleb()
        fid, line, disc = whole_row()
        rows = [(addr, fid, line, columns[0], disc)]
        history = [[fid, line]]
        for r in range(1, num_rows):
            if stop_every and r % stop_every == 0:
                offset = c.pos - rows_begin
                addr = f.start + c.uleb()
                fid, line, disc = whole_row()
                history = [[fid, line]]
                rows.append((addr, fid, line, columns[r], disc))
                want = (prev_stop[0] + stops.uleb(), prev_stop[1] + stops.uleb(),
                        prev_stop[2] + (stops.uleb() if self.codes else 0))
                got = (addr, offset, col_starts[r] if self.codes else 0)
                if want != got:
                    fail("function %d: row stop %d at %s, the index says %s"
                         % (f.index, r, got, want))
                prev_stop = want
                continue
            base_line = line
            disc = 0
            while True:
                op = c.byte()
                if op == 3:
                    if not self.details:
                        fail("function %d: SetDiscriminator without details" % f.index)
                    disc = c.uleb(32)
                    continue
                if op in (1, 2):
                    # A context: an earlier one, or a new one of a file at
                    # the current line (even if the file has one already).
                    k = c.uleb() if op == 1 else 1
                    n = len(history)
                    if k < n:
                        ent = history.pop(k)
                    else:
                        new_id = k - n
                        self.file(new_id)
                        ent = [new_id, line]
                    history.insert(0, ent)
                    del history[HISTORY_SIZE:]
                    base_line = ent[1]
                    fid = ent[0]
                    continue
                if op == 0:
                    # The context left keeps its line behind the front.
                    history.insert(1, list(history[0]))
                    del history[HISTORY_SIZE:]
                    ad = c.uleb()
                    ld = c.sleb()
                else:
                    v = op - FIRST_SPECIAL
                    ad = v // self.line_range
                    ld = self.line_base + v % self.line_range
                break
            addr += ad
            line = (base_line + ld) & U32
            history[0][1] = line
            rows.append((addr, fid, line, columns[r], disc))
        for i in range(1, len(rows)):
            if rows[i][0] < rows[i - 1][0]:
                fail("function %d: line rows descend" % f.index)
        if rows[0][0] < f.start:
            fail("function %d: line row before the function" % f.index)
        if has_tree and c.pos != lt_end:
            fail("function %d: line table ends at 0x%x, RowBytes says 0x%x" % (f.index, c.pos, lt_end))
        if stops is not None and not stops.at_end():
            fail("function %d: row stop index longer than its stops" % f.index)
        return rows

    def _siblings(self, c, n, parent_base, ref, depth, parent_ranges):
        if depth > MAX_INLINE_DEPTH:
            fail("inline tree deeper than %d" % MAX_INLINE_DEPTH)
        prev_file, prev_line = ref
        out = []
        for _ in range(n):
            h = c.uleb()
            flag_bits = 3 if self.details else 1
            nkids = h >> flag_bits
            nranges = c.uleb() if h & 1 else 1
            if nranges < 1:
                fail("inline node with 0 ranges")
            ranges = []
            pos = parent_base
            for k in range(nranges):
                start = pos + c.uleb()
                size = c.uleb()
                if size < 1:
                    fail("inline range of size 0")
                ranges.append((start, start + size))
                pos = start + size
            name = c.uleb(32)
            code = c.uleb(32)
            call_file = prev_file if code == 0 else code - 1
            self.file(call_file)
            call_line = (prev_line + c.sleb()) & U32
            call_column, call_disc, start = 0, 0, None
            if self.details:
                call_column = c.uleb(32)
                if h & 2:
                    start = ranges[0][0]
                if h & 4:
                    extra = c.uleb()
                    if extra == 0 or extra & ~3 or (extra & 1 and h & 2):
                        fail("inline node: extra flags 0x%x" % extra)
                    if extra & 1:
                        start = (ranges[0][0] + c.sleb()) & U64
                    if extra & 2:
                        call_disc = c.uleb(32)
            for s, e in ranges:
                if not any(ps <= s and e <= pe for ps, pe in parent_ranges):
                    fail("inline range [0x%x, 0x%x) not inside its parent" % (s, e))
            kids = []
            if nkids:
                kid_bytes = c.uleb()
                kid_end = c.pos + kid_bytes
                if kid_end > c.end:
                    fail("inline node: ChildrenBytes past the record")
                kc = Cursor(c.data, c.pos, kid_end, c.what)
                kids = self._siblings(kc, nkids, ranges[0][0], (0, 0), depth + 1, ranges)
                if not kc.at_end():
                    fail("inline node: children end %d bytes before ChildrenBytes" % (kid_end - kc.pos))
                c.pos = kid_end
            out.append({"ranges": ranges, "name": name, "call_file": call_file,
                        "call_line": call_line, "call_column": call_column,
                        "call_disc": call_disc, "start": start, "children": kids})
            prev_file, prev_line = call_file, call_line
        return out

    # -- lookup

    def find_function(self, addr):
        if addr < self.base or self.num_functions == 0:
            return None
        off = addr - self.base
        lo, hi = 0, self.num_blocks
        while lo < hi:
            mid = (lo + hi) // 2
            if self.blocks[mid][0] <= off:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return None
        best = None
        for f in self.block_functions(lo - 1):
            if f.start <= addr:
                best = f
            else:
                break
        if best is None or addr >= best.start + best.size:
            return None
        return best

    def address_of_offset(self, off):
        """The address file offset off is loaded at, or None."""
        for fo, addr, size in self.segments:
            if fo <= off < fo + size:
                return addr + off - fo
        return None

    def lookup(self, addr):
        """None (not found) or a list of frames, innermost first: dicts of
        name, start (None: none printed), file, line, column, disc,
        decl_file, decl_line. Raises LookupError_ for GSYM's line-table
        error."""
        f = self.find_function(addr)
        if f is None:
            return None
        name_off, rows, tree = self.decode_record(f)
        symbol_file = self.file(self.head_extra["symbol_file"])

        def frame(name_off, start, file_id, line, column, disc):
            name, decl_file, decl_line = self.name_decl(name_off)
            return {"name": name, "start": start, "file": self.file(file_id),
                    "line": line, "column": column, "disc": disc,
                    "decl_file": self.file(decl_file), "decl_line": decl_line,
                    "symbol_file": symbol_file}

        if rows is None:
            return [frame(name_off, f.start, 0, 0, 0, 0)]
        row = None
        for r in rows:
            if r[0] <= addr:
                row = r
            else:
                break
        # With details a row of file 0 is code without a line: a frame
        # without file; without, GSYM's error.
        if row is None or (row[1] == 0 and not self.details):
            raise LookupError_("address 0x%x is not in the line table of the function at 0x%x"
                               % (addr, f.start))
        frames = [frame(name_off, f.start, row[1], row[2], row[3], row[4])]
        chain = []
        if tree is not None and any(s <= addr < e for s, e in tree["ranges"]):
            chain.append(tree)
            nodes = tree["children"]
            while True:
                for nd in nodes:
                    if any(s <= addr < e for s, e in nd["ranges"]):
                        chain.append(nd)
                        nodes = nd["children"]
                        break
                else:
                    break
        for nd in reversed(chain):
            # The root (implicit, or stored without a call file) is the
            # function itself; any other node is a call, with a file or not.
            if nd is tree and nd["call_file"] == 0:
                continue
            last = frames[-1]
            caller = dict(last)
            caller.update(file=self.file(nd["call_file"]), line=nd["call_line"],
                          column=nd["call_column"], disc=nd["call_disc"])
            name, decl_file, decl_line = self.name_decl(nd["name"])
            last.update(name=name, decl_file=self.file(decl_file), decl_line=decl_line,
                        symbol_file=b"")
            if self.details:
                last["start"] = nd["start"]
            else:
                last["start"] = next(s for s, e in nd["ranges"] if s <= addr < e)
            frames.append(caller)
        return frames


def join_path(d, b):
    # docs/CompactTable.md, "Paths and files".
    if not d:
        return b
    if not b:
        return d
    if b"\\" in d and b"/" not in d:
        # Windows directory: llvm::sys::path::append, windows_backslash style.
        seps = b"\\/"
        if d[-1] in seps:
            return d + b.lstrip(seps)
        if b[0] in seps or (len(b) >= 2 and b[1:2] == b":"):
            return d + b
        return d + b"\\" + b
    if d.endswith(b"/"):
        return d + b.lstrip(b"/")
    if b.startswith(b"/"):
        return d + b
    return d + b"/" + b


# --------------------------------------------------------------------------
# Output


def txt(b):
    # Text output (dump, LLVM and GNU styles) prints names and paths as
    # stored, whatever their bytes; stdout re-encodes them unchanged.
    return b.decode("utf-8", "surrogateescape")


def json_str(b):
    # llvm::json replaces invalid UTF-8 with U+FFFD.
    s = b.decode("utf-8", "replace")
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif o >= 0x20:
            out.append(ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        else:
            out.append("\\u%04x" % o)
    out.append('"')
    return "".join(out)


def json_frame(fr):
    return ('{"Column":%d,"Discriminator":%d,"FileName":%s,"FunctionName":%s,"Line":%d,'
            '"StartAddress":%s,"StartFileName":%s,"StartLine":%d}'
            % (fr["column"], fr["disc"], json_str(fr["file"]), json_str(fr["name"]),
               fr["line"], '"0x%x"' % fr["start"] if fr["start"] is not None else '""',
               json_str(fr["decl_file"]), fr["decl_line"]))


NOT_FOUND = {"name": b"", "start": None, "file": b"", "line": 0, "column": 0,
             "disc": 0, "decl_file": b"", "decl_line": 0, "symbol_file": b""}


def answer(table, addr, style, module, no_inlines, offsets=False):
    """(text, warning) for one address (a file offset when offsets is set);
    text without a trailing newline."""
    warning = None
    try:
        if offsets:
            where = table.address_of_offset(addr)
            frames = None if where is None else table.lookup(where)
        else:
            frames = table.lookup(addr)
    except LookupError_ as e:
        frames = None
        warning = str(e)
        if style == "JSON":
            return ('{"Address":"0x%x","Error":{"Message":%s},"ModuleName":%s}'
                    % (addr, json_str(warning.encode()), json_str(module)), warning)
    if frames and no_inlines:
        one = dict(frames[-1])
        for k in ("file", "line", "column", "disc"):
            one[k] = frames[0][k]
        frames = [one]
    # An address without a line: the file of the function's local symbol.
    if frames and not frames[-1]["file"]:
        frames[-1] = dict(frames[-1], file=frames[-1]["symbol_file"])
    if style == "JSON":
        syms = ",".join(json_frame(fr) for fr in frames or [NOT_FOUND])
        return '{"Address":"0x%x","ModuleName":%s,"Symbol":[%s]}' % (addr, json_str(module), syms), warning
    lines = []
    for fr in frames or [NOT_FOUND]:
        n = fr["name"].decode("utf-8", "surrogateescape") or "??"
        fn = fr["file"].decode("utf-8", "surrogateescape") or "??"
        if style == "GNU":
            disc = " (discriminator %d)" % fr["disc"] if fr["disc"] else ""
            lines += [n, "%s:%d%s" % (fn, fr["line"], disc)]
        else:
            lines += [n, "%s:%d:%d" % (fn, fr["line"], fr["column"])]
    if style != "GNU":
        lines.append("")
    return "\n".join(lines), warning


def warn(path, msg):
    # As dwarfpack lookup reports a lookup that fails.
    sys.stdout.flush()
    sys.stderr.write("dwarfpack: warning: '%s': %s\n" % (path, msg))
    sys.stderr.flush()


def parse_addr(s):
    s = s.strip()
    try:
        if s[:2] in ("0x", "0X"):
            return int(s[2:], 16)
        if s[:2] in ("0b", "0B"):
            return int(s[2:], 2)
        if s[:2] in ("0o", "0O"):
            return int(s[2:], 8)
        if len(s) > 1 and s[0] == "0":
            return int(s[1:], 8)
        if s.isdigit():
            return int(s)
    except ValueError:
        pass
    return None


def cmd_lookup(args):
    style, no_inlines, offsets, rest = "LLVM", False, False, []
    for a in args:
        if a.startswith("--output-style="):
            style = a.split("=", 1)[1]
        elif a == "--no-inlines":
            no_inlines = True
        elif a == "--file-offsets":
            offsets = True
        elif a == "--no-demangle":
            pass
        else:
            rest.append(a)
    path, addrs = rest[0], rest[1:]
    table = Table(path)
    if offsets and not table.segments:
        fail("no segments to convert file offsets with")
    module = path.encode()
    out = sys.stdout
    if addrs:
        texts = []
        for a in addrs:
            v = parse_addr(a)
            if v is None or v > U64:
                fail("bad address %r" % a)
            t, w = answer(table, v, style, module, no_inlines, offsets)
            if w:
                warn(path, w)
            texts.append(t)
        if style == "JSON":
            out.write("[" + ",".join(texts) + "]\n")
        else:
            out.write("\n".join(texts) + "\n")
        return 0
    for line in sys.stdin:
        words = line.split()
        v = parse_addr(words[0]) if words else None
        if v is None or v > U64:
            fail("bad address line %r" % line)
        t, w = answer(table, v, style, module, no_inlines, offsets)
        out.write(t + "\n")
        if w:
            warn(path, w)
    return 0


# --------------------------------------------------------------------------
# Dump


def quoted(b):
    return '"%s"' % b.decode("utf-8", "surrogateescape")


def cmd_dump(args):
    t = Table(args[0])
    o = []
    o.append("Compact address table version %d, little-endian, %d bytes" % (t.version, len(t.data)))
    o.append("Header:")
    o.append("  Magic        = 0x%08x" % MAGIC)
    o.append("  Version      = %d" % t.version)
    o.append("  BlockShift   = %d" % t.block_shift)
    o.append("  Flags        = %d" % t.flags)
    o.append("  BaseAddress  = 0x%016x" % t.base)
    o.append("  NumFunctions = %d" % t.num_functions)
    o.append("  NumBlocks    = %d" % t.num_blocks)
    o.append("  LineBase     = %d" % t.line_base)
    o.append("  LineRange    = %d" % t.line_range)
    if t.flags & ROW_STOPS:
        o.append("  RowStopShift = %d" % t.row_stop_shift)
    o.append("  NumFiles     = %d" % t.num_files)
    o.append("  NumNames     = %d" % t.num_names)
    o.append("  NumPaths     = %d" % t.num_paths)
    o.append("  UUID         = %s" % t.uuid.hex())
    o.append("Sections:")
    for i, (off, size) in enumerate(t.sections):
        o.append("  %-13s @ 0x%08x, %d bytes" % (SECTION_NAMES[i], off, size))
    o.append("Segments: %d" % len(t.segments))
    for fo, addr, size in t.segments:
        o.append("  file [0x%016x, 0x%016x) at 0x%016x" % (fo, fo + size, addr))
    o.append("ColumnCode: %d" % len(t.symbols))
    for value, length in t.symbols:
        o.append("  %d %d" % (value, length))
    o.append("Files: %d" % t.num_files)
    for i in range(1, t.num_files + 1):
        o.append("  [%4d] %s" % (i, quoted(t.files[i])))
    o.append("Functions: %d" % t.num_functions)
    sys.stdout.write("\n".join(o) + "\n")
    o = []
    r_off = t.sections[RECORDS][0]
    for f in t.all_functions():
        name_off, rows, tree = t.decode_record(f)
        name, decl_file, decl_line = t.name_decl(name_off)
        extra = t.head_extra
        s = '[%4d] @ 0x%08x: [0x%016x - 0x%016x) %s%s%s' % (
            f.index, r_off + f.rec_off, f.start, f.start + f.size, quoted(name),
            dump_decl(t, decl_file, decl_line), dump_name_details(t, name_off))
        if extra["dwarf_name"] is not None:
            dn, dfile, dline = t.name_decl(extra["dwarf_name"])
            s += " dwarf-name %s%s%s" % (quoted(dn), dump_decl(t, dfile, dline),
                                        dump_name_details(t, extra["dwarf_name"]))
        if extra["flags"] & NO_DWARF_START:
            s += " no-dwarf-start"
        if extra["flags"] & HAS_SYMBOL_FILE:
            # File 0: the STT_FILE symbol has no name.
            sym = t.file(extra["symbol_file"]).decode("utf-8", "surrogateescape")
            s += " symbol-file " + (sym if extra["symbol_file"] else '""')
        o.append(s)
        if rows is not None:
            o.append("  LineTable: %d rows" % len(rows))
            for a, fid, line, col, disc in rows:
                s = "    0x%016x %s:%d" % (a, t.file(fid).decode("utf-8", "surrogateescape"), line)
                if t.details:
                    s += ":%d" % col
                    if disc:
                        s += " discriminator %d" % disc
                o.append(s)
        if tree is not None:
            o.append("  InlineInfo:")
            dump_node(t, tree, 4, o)
        if len(o) > 4096:
            sys.stdout.write("\n".join(o) + "\n")
            o = []
    if o:
        sys.stdout.write("\n".join(o) + "\n")
    return 0


def dump_name_details(t, off):
    short = t.name_entry(off)[3]
    return "" if short is None else " short " + quoted(short)


def dump_decl(t, decl_file, decl_line):
    if not t.details or (decl_file == 0 and decl_line == 0):
        return ""
    return " decl %s:%d" % (t.file(decl_file).decode("utf-8", "surrogateescape"), decl_line)


def dump_node(t, nd, indent, o):
    s = " " * indent + " ".join("[0x%016x - 0x%016x)" % r for r in nd["ranges"])
    name, decl_file, decl_line = t.name_decl(nd["name"])
    s += " " + name.decode("utf-8", "surrogateescape")
    if nd["call_file"]:
        s += " called from %s:%d" % (t.file(nd["call_file"]).decode("utf-8", "surrogateescape"), nd["call_line"])
        if t.details:
            s += ":%d" % nd["call_column"]
            if nd["call_disc"]:
                s += " discriminator %d" % nd["call_disc"]
    s += dump_decl(t, decl_file, decl_line)
    if t.details:
        s += dump_name_details(t, nd["name"])
    if t.details and nd["start"] is not None:
        s += " start 0x%016x" % nd["start"]
    o.append(s)
    for k in nd["children"]:
        dump_node(t, k, indent + 2, o)


# --------------------------------------------------------------------------
# Interesting addresses


def cmd_addresses(args):
    n, seed, path, detail, offsets = 0, 1, None, None, False
    it = iter(args)
    for a in it:
        if a == "--file-offsets":
            offsets = True
        elif a == "--random":
            n = int(next(it))
        elif a == "--detail":
            detail = int(next(it))
        elif a == "--seed":
            seed = int(next(it))
        else:
            path = a
    t = Table(path)
    rng = random.Random(seed)
    addrs = set()
    funcs = list(t.all_functions())
    if t.base:
        addrs.update([0, t.base - 1])
    addrs.add(t.base)
    detailed = set(range(len(funcs)))
    if detail is not None and detail < len(funcs):
        detailed = set(rng.sample(range(len(funcs)), detail))
    for i, f in enumerate(funcs):
        e = f.start + f.size
        addrs.update([f.start, f.start + 1, e - 1, e, e + 1])
        if f.start:
            addrs.add(f.start - 1)
        if i not in detailed:
            continue
        _, rows, tree = t.decode_record(f)
        for r in (rows or [])[:64]:
            addrs.update([r[0], r[0] - 1])
        stack = [tree] if tree else []
        while stack:
            nd = stack.pop()
            for s, en in nd["ranges"]:
                addrs.update([s, s - 1, en - 1, en])
            stack.extend(nd["children"])
    if funcs:
        last = funcs[-1].start + funcs[-1].size
        addrs.update([last + 0x1000, U64])
        lo, hi = funcs[0].start, last
        for _ in range(n):
            if rng.random() < 0.9:
                f = funcs[rng.randrange(len(funcs))]
                addrs.add(f.start + rng.randrange(f.size))
            else:
                addrs.add(rng.randrange(max(lo - 16, 0), hi + 16))
    if offsets:
        offs = set()
        for fo, addr, size in t.segments:
            offs.update([fo - 1, fo, fo + size - 1, fo + size])
            offs.update(fo + a - addr for a in addrs if addr <= a < addr + size)
        addrs = offs
    for a in sorted(x for x in addrs if 0 <= x <= U64):
        print("0x%x" % a)
    return 0

# --------------------------------------------------------------------------
# Rewrite: forms the documents allow but dwarfpack's writer does not use


def enc_uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if not v:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def enc_sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def enc_nodes(nodes, parent_base, ref, details):
    out = bytearray()
    prev_file, prev_line = ref
    for nd in nodes:
        multi = len(nd["ranges"]) > 1
        first = nd["ranges"][0][0]
        extra = 0
        if details and nd["start"] is not None and nd["start"] != first:
            extra |= 1
        if details and nd["call_disc"]:
            extra |= 2
        if details:
            flags = int(multi) | (2 if nd["start"] == first else 0) | (4 if extra else 0)
            out += enc_uleb(len(nd["children"]) << 3 | flags)
        else:
            out += enc_uleb(len(nd["children"]) << 1 | int(multi))
        if multi:
            out += enc_uleb(len(nd["ranges"]))
        pos = parent_base
        for s, e in nd["ranges"]:
            out += enc_uleb(s - pos) + enc_uleb(e - s)
            pos = e
        out += enc_uleb(nd["name"])
        out += enc_uleb(0 if nd["call_file"] == prev_file else nd["call_file"] + 1)
        line_delta = (nd["call_line"] - prev_line) & U32
        out += enc_sleb(line_delta - (1 << 32) if line_delta >> 31 else line_delta)
        if details:
            out += enc_uleb(nd["call_column"])
            if extra:
                out += enc_uleb(extra)
                if extra & 1:
                    delta = (nd["start"] - first) & U64
                    out += enc_sleb(delta - (1 << 64) if delta >> 63 else delta)
                if extra & 2:
                    out += enc_uleb(nd["call_disc"])
        if nd["children"]:
            kids = enc_nodes(nd["children"], nd["ranges"][0][0], (0, 0), details)
            out += enc_uleb(len(kids)) + kids
        prev_file, prev_line = nd["call_file"], nd["call_line"]
    return bytes(out)


def enc_tokens_v2(tt):
    recs, prev = bytearray(), b""
    for tok in tt.tokens:
        shared = 0
        while shared < min(len(prev), len(tok)) and prev[shared] == tok[shared]:
            shared += 1
        new = len(tok) - shared
        recs.append(min(shared, 15) | min(new, 15) << 4)
        if shared >= 15:
            recs += enc_uleb(shared - 15)
        if new >= 15:
            recs += enc_uleb(new - 15)
        recs += tok[shared:]
        prev = tok
    out = b"DPTK" + bytes([2, tt.w, tt.s, 0, tt.b, 0, 0, 0])
    out += struct.pack("<III", len(tt.tokens), len(recs), sum(map(len, tt.tokens))) + bytes(recs)
    return out + b"\0" * (-len(out) % 4)


def cmd_rewrite(args):
    """Re-encodes the block index, address blocks and records from what was
    decoded (byte for byte the input unless asked otherwise): --explicit-root
    K stores the inline root explicitly (HasInlineRoot) in every K-th record
    with an implicit one; --tokens-v2 writes both token tables front-coded."""
    src, dst, every, v2, shift = None, None, 0, False, None
    it = iter(args)
    for a in it:
        if a == "--block-shift":
            shift = int(next(it))
            if not 0 <= shift <= 12:
                fail("BlockShift %d outside 0..12" % shift)
        elif a == "--explicit-root":
            every = int(next(it))
        elif a == "--tokens-v2":
            v2 = True
        elif src is None:
            src = a
        else:
            dst = a
    t = Table(src)
    d = t.data
    r_off = t.sections[RECORDS][0]
    funcs, records, implicit, converted = [], [], 0, 0
    for f in t.all_functions():
        c = Cursor(d, r_off + f.rec_off, r_off + f.rec_end, "record")
        bits = record_flag_bits(t.details)
        flags = c.uleb() & ((1 << bits) - 1)
        if flags & HAS_DWARF_NAME:
            c.uleb()
        if flags & HAS_SYMBOL_FILE:
            c.uleb()
        head = bytes(d[r_off + f.rec_off:c.pos])
        body = c.pos
        name_off, rows, tree = t.decode_record(f)
        rec = bytes(d[r_off + f.rec_off:r_off + f.rec_end])
        if flags & 2:
            implicit += 1
            if every and implicit % every == 0:
                lines = b""
                if rows is not None:  # verbatim, columns and RowBytes included
                    c = Cursor(d, body, r_off + f.rec_end, "record")
                    c.uleb()
                    if t.codes:
                        col_bytes = c.uleb()
                        c.pos += col_bytes
                    row_bytes = c.uleb()
                    lines = bytes(d[body:c.pos + row_bytes])
                extra = head[len(enc_uleb(name_off << bits | flags)):]
                rec = (enc_uleb(name_off << bits | (flags & ~6) | 4) +
                       extra + lines + enc_nodes([tree], f.start, (0, 0), t.details))
                converted += 1
        funcs.append(f)
        records.append(rec)
    if shift is None:
        shift = t.block_shift
    per = 1 << shift
    num_blocks = (len(funcs) + per - 1) // per
    index, blocks, recs = bytearray(), bytearray(), bytearray()
    for b in range(num_blocks):
        first = b * per
        fs = funcs[first:first + per]
        index += struct.pack("<QII", fs[0].start - t.base, len(blocks), len(recs))
        for j, f in enumerate(fs):
            if j:
                blocks += enc_uleb(f.start - (fs[j - 1].start + fs[j - 1].size))
            blocks += enc_uleb(f.size)
            if j + 1 < len(fs):
                blocks += enc_uleb(len(records[first + j]))
            recs += records[first + j]
    secs = [t.section(i) for i in range(NUM_SECTIONS)]
    secs[BLOCK_INDEX], secs[ADDRESS_BLOCKS], secs[RECORDS] = bytes(index), bytes(blocks), bytes(recs)
    if v2:
        secs[NAME_TOKENS] = enc_tokens_v2(t.name_tokens)
        secs[PATH_TOKENS] = enc_tokens_v2(t.path_tokens)
    out = bytearray(d[:HEADER_SIZE])
    out[6] = shift
    struct.pack_into("<I", out, 20, num_blocks)
    off = TABLE_END
    for sec in secs:
        off = (off + 3) & ~3
        out += struct.pack("<II", off, len(sec))
        off += len(sec)
    for sec in secs:
        out += b"\0" * (-len(out) % 4)
        out += sec
    with open(dst, "wb") as f:
        f.write(out)
    print("%d of %d records given an explicit inline root; token tables version %d; %s"
          % (converted, len(funcs), 2 if v2 else 1,
             "identical to the input" if bytes(out) == d else "%d bytes (input: %d)" % (len(out), len(d))))
    return 0



def main(argv):
    if len(argv) < 2 or argv[0] not in ("lookup", "dump", "addresses", "rewrite"):
        sys.stderr.write(__doc__)
        return 2
    cmd = {"lookup": cmd_lookup, "dump": cmd_dump, "addresses": cmd_addresses,
           "rewrite": cmd_rewrite}[argv[0]]
    sys.stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
    try:
        return cmd(argv[1:])
    except FormatError as e:
        sys.stdout.flush()
        sys.stderr.write("compact_table_reader: %s: corrupt compact table: %s\n" % (argv[-1], e))
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
