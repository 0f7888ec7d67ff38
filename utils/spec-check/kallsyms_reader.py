#!/usr/bin/env python3
"""Clean-room reader of dwarfpack's kernel symbol tables.

Written from docs/Kallsyms.md and docs/TokenEncoder.md only (not from
lib/Kallsyms or lib/Token), to check that the documents are precise enough
to write a reader from. It reads the compact format (version 5, token table
versions 1 and 2) and the ksym-blob format, validates what it reads and
fails on anything the documents do not allow.

  kallsyms_reader.py dump FILE               like `dwarfpack dump FILE`
  kallsyms_reader.py lookup FILE ADDR...     one line per address:
      ADDR NAME START OFFSET SIZE TYPE MODULE   (or `ADDR ??`)
  kallsyms_reader.py lookup-name FILE NAME...  like
      `dwarfpack kallsyms --lookup-name NAME FILE` (`?? NAME` when absent)
  kallsyms_reader.py validate FILE           full structural check

Addresses and names may also come from standard input (one per line) when
none are given. Exit status 1 with `error: FILE: ...` on malformed input.
"""

import bisect
import collections
import struct
import sys


class FormatError(Exception):
    pass


def fail(msg):
    raise FormatError(msg)


def check(cond, msg):
    if not cond:
        raise FormatError(msg)


class Bytes:
    """Bounds-checked little-endian access to a byte range."""

    def __init__(self, data, what):
        self.data = data
        self.what = what

    def need(self, off, size):
        check(0 <= off and off + size <= len(self.data),
              "%s: %d bytes at offset %d past the end (%d bytes)" %
              (self.what, size, off, len(self.data)))

    def u8(self, off):
        self.need(off, 1)
        return self.data[off]

    def u16(self, off):
        self.need(off, 2)
        return struct.unpack_from("<H", self.data, off)[0]

    def u32(self, off):
        self.need(off, 4)
        return struct.unpack_from("<I", self.data, off)[0]

    def u64(self, off):
        self.need(off, 8)
        return struct.unpack_from("<Q", self.data, off)[0]

    def raw(self, off, size):
        self.need(off, size)
        return self.data[off:off + size]

    def bits(self, bit, width):
        """A `width`-bit value at bit `bit` of a little-endian bit stream."""
        if width == 0:
            check(bit >= 0 and (bit + 7) >> 3 <= len(self.data),
                  "%s: bit %d past the end" % (self.what, bit))
            return 0
        first = bit >> 3
        last = (bit + width - 1) >> 3
        self.need(first, last - first + 1)
        v = int.from_bytes(self.data[first:last + 1], "little")
        return (v >> (bit & 7)) & ((1 << width) - 1)

    def nibble(self, k):
        self.need(k >> 1, 1)
        b = self.data[k >> 1]
        return (b >> 4) if (k & 1) else (b & 15)

    def uleb(self, off, limit):
        """ULEB128 at `off` inside [.., limit); returns (value, next)."""
        value = 0
        shift = 0
        while True:
            check(off < limit, "%s: ULEB128 at %d runs past its bounds" %
                  (self.what, off))
            b = self.data[off]
            off += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return value, off
            check(shift < 64, "%s: ULEB128 too long" % self.what)


def bit_width(x):
    return x.bit_length()


# ---------------------------------------------------------------------------
# Token table (docs/TokenEncoder.md)
# ---------------------------------------------------------------------------

class TokenTable:
    def __init__(self, data, what):
        b = Bytes(data, what)
        check(b.raw(0, 4) == b"DPTK", "%s: bad magic" % what)
        self.version = b.u8(4)
        self.W = b.u8(5)
        self.S = b.u8(6)
        check(self.S != self.W, "%s: sub-separator equals the separator" % what)
        self.stats = collections.Counter()
        self.B = b.u8(8)
        check(1 <= self.B <= 254, "%s: one-byte id limit %d" % (what, self.B))
        check(b.raw(9, 3) == b"\0\0\0", "%s: bytes 9..11 not zero" % what)
        n = b.u32(12)
        check(n <= 1 << 24, "%s: %d tokens, more than 2^24" % (what, n))
        if self.version == 1:
            check(b.u8(7) == 4, "%s: index shift %d, not 4" % (what, b.u8(7)))
            self.tokens, end = self._v1(b, n)
        elif self.version == 2:
            check(b.u8(7) == 0, "%s: byte 7 not zero" % what)
            self.tokens, end = self._v2(b, n)
        else:
            fail("%s: token table version %d" % (what, self.version))
        # Size padded to a multiple of 4 with zeros.
        size = (end + 3) & ~3
        check(len(data) >= size, "%s: padding past the end" % what)
        check(all(x == 0 for x in data[end:size]),
              "%s: padding not zero" % what)
        self.size = size
        self.sep = bytes([self.W])
        self.sub = self.S

    def _v1(self, b, n):
        num_long = b.u32(16)
        text_size = b.u32(20)
        off = 24
        nidx = (n + 15) // 16
        offsets = [b.u32(off + 4 * k) for k in range(nidx)]
        off += 4 * nidx
        longs = []
        for k in range(num_long):
            longs.append((b.u32(off + 8 * k), b.u32(off + 8 * k + 4)))
        off += 8 * num_long
        lengths = Bytes(b.raw(off, (n + 1) // 2), b.what + " lengths")
        off += (n + 1) // 2
        text = b.raw(off, text_size)
        end = off + text_size
        tokens = []
        pos = 0
        li = 0
        for i in range(n):
            if i % 16 == 0:
                check(offsets[i >> 4] == pos,
                      "%s: offset of token %d is %d, not %d" %
                      (b.what, i, offsets[i >> 4], pos))
            ln = lengths.nibble(i)
            if ln == 15:
                check(li < num_long and longs[li][0] == i,
                      "%s: long list does not match token %d" % (b.what, i))
                ln = longs[li][1]
                self.stats["long tokens in a version-1 table"] += 1
                check(ln >= 15, "%s: long token %d of %d bytes" % (b.what, i, ln))
                li += 1
            check(pos + ln <= text_size,
                  "%s: token %d past the text" % (b.what, i))
            tokens.append(bytes(text[pos:pos + ln]))
            pos += ln
        check(li == num_long, "%s: long list has extra entries" % b.what)
        check(pos == text_size, "%s: lengths add up to %d, not %d" %
              (b.what, pos, text_size))
        if n & 1:
            check(lengths.nibble(n) == 0, "%s: last length nibble" % b.what)
        return tokens, end

    def _v2(self, b, n):
        enc = b.u32(16)
        text_size = b.u32(20)
        check(n <= enc, "%s: more tokens than record bytes" % b.what)
        b.need(24, enc)
        size = (24 + enc + 3) & ~3
        check(text_size <= 16 * size, "%s: decoding bound (text)" % b.what)
        limit = 24 + enc
        off = 24
        tokens = []
        prev = b""
        total = 0
        num_long = 0
        for i in range(n):
            check(off < limit, "%s: record %d past the records" % (b.what, i))
            h = b.data[off]
            off += 1
            shared = h & 15
            new = h >> 4
            if shared == 15:
                x, off = b.uleb(off, limit)
                shared = 15 + x
                self.stats["token records sharing 15 bytes or more"] += 1
            if new == 15:
                y, off = b.uleb(off, limit)
                new = 15 + y
                self.stats["token records adding 15 bytes or more"] += 1
            check(shared <= 0xFFFFFFFF and new <= 0xFFFFFFFF,
                  "%s: count above 2^32-1" % b.what)
            check(shared <= len(prev),
                  "%s: token %d shares %d bytes of a %d-byte token" %
                  (b.what, i, shared, len(prev)))
            check(off + new <= limit, "%s: token %d bytes past the records" %
                  (b.what, i))
            tok = prev[:shared] + bytes(b.data[off:off + new])
            off += new
            total += len(tok)
            check(total <= text_size, "%s: text past TextSize" % b.what)
            if len(tok) >= 15:
                num_long += 1
            tokens.append(tok)
            prev = tok
        check(off == limit, "%s: records end at %d, not %d" %
              (b.what, off - 24, enc))
        check(total == text_size, "%s: lengths add up to %d, not %d" %
              (b.what, total, text_size))
        image = ((24 + 4 * ((n + 15) // 16) + 8 * num_long + (n + 1) // 2 +
                  text_size + 3) & ~3) + 16
        check(image <= 16 * size, "%s: decoding bound (image %d > 16 x %d)" %
              (b.what, image, size))
        return tokens, limit

    def join(self, ids):
        out = bytearray()
        for k, t in enumerate(ids):
            tok = self.tokens[t]
            if k and not (self.S and tok[:1] == bytes([self.S])):
                out += self.sep
            out += tok
        return bytes(out)


# ---------------------------------------------------------------------------
# Compact format (docs/Kallsyms.md)
# ---------------------------------------------------------------------------

NUM_SECTIONS = 13
ADDR_BLOCK = 32
NAME_BLOCK = 32


class Symbol:
    __slots__ = ("name", "address", "type", "module", "index")

    def __init__(self, name, address, type_, module, index):
        self.name = name
        self.address = address
        self.type = type_
        self.module = module
        self.index = index


def leading_underscores(name):
    return len(name) - len(name.lstrip(b"_"))


def is_upper(t):
    return 0x41 <= t <= 0x5A


class CompactTable:
    def __init__(self, data, path):
        self.path = path
        self.data = data
        w = path
        b = Bytes(data, w + " header")
        check(b.raw(0, 8) == b"DPKSYMTB", "%s: bad magic" % w)
        version = b.u32(8)
        check(version == 5, "%s: version %d, not 5" % (w, version))
        self.flags = b.u32(12)
        check(self.flags & ~1 == 0, "%s: unknown flags %#x" % (w, self.flags))
        self.end_valid = bool(self.flags & 1)
        self.N = N = b.u32(16)
        check(1 <= N <= (1 << 31) - 1, "%s: N = %d" % (w, N))
        self.perm_bits = b.u32(20)
        check(self.perm_bits == max(1, bit_width(N - 1)),
              "%s: PermBits %d for N = %d" % (w, self.perm_bits, N))
        self.base = b.u64(24)
        self.end = b.u64(32)
        check(b.u8(40) == 5 and b.u8(41) == 5, "%s: block shifts %d, %d" %
              (w, b.u8(40), b.u8(41)))
        self.T = b.u8(42)
        check(1 <= self.T <= 64, "%s: back-pointer stride %d" % (w, self.T))
        self.type_bits = b.u8(43)
        self.num_modules = b.u32(44)
        self.num_marks = b.u32(48)
        self.A, self.Bn, self.Cn = b.u8(52), b.u8(53), b.u8(54)
        check(self.A >= 1 and self.A + self.Bn + self.Cn <= 15,
              "%s: id code A=%d B=%d C=%d" % (w, self.A, self.Bn, self.Cn))
        check(b.u8(55) == 0, "%s: byte 55 not zero" % w)
        self.num_types = b.u32(56)
        check(1 <= self.num_types <= 256, "%s: NumTypes %d" % (w, self.num_types))
        check(self.type_bits == bit_width(self.num_types - 1),
              "%s: TypeBits %d for %d types" % (w, self.type_bits, self.num_types))
        check(b.u16(60) == 0, "%s: bytes 60..61 not zero" % w)
        self.name_off_bits = b.u8(62)
        self.guide_bits = b.u8(63)
        for name, v in (("NameOffBits", self.name_off_bits), ("GuideBits", self.guide_bits)):
            check(v <= 32, "%s: %s = %d, more than 32" % (w, name, v))
        check(self.guide_bits >= 1, "%s: GuideBits is 0" % w)
        self.sections = []
        prev_end = 64 + 8 * NUM_SECTIONS
        for s in range(NUM_SECTIONS):
            off = b.u32(64 + 8 * s)
            size = b.u32(68 + 8 * s)
            check(off % 8 == 0, "%s: section %d at %d, not 8-aligned" % (w, s, off))
            check(off >= prev_end, "%s: section %d at %d overlaps (or is out of order)" % (w, s, off))
            check(off + size <= len(data), "%s: section %d (%d + %d) past the end (%d)" %
                  (w, s, off, size, len(data)))
            check(all(x == 0 for x in data[prev_end:off]),
                  "%s: gap before section %d not zero" % (w, s))
            self.sections.append((off, size))
            prev_end = off + size
        self.file_end = prev_end
        self.sec = [Bytes(memoryview(data)[o:o + s], "%s section %d" % (w, i))
                    for i, (o, s) in enumerate(self.sections)]
        self.num_blocks = (N + ADDR_BLOCK - 1) // ADDR_BLOCK
        self.num_name_blocks = (N + NAME_BLOCK - 1) // NAME_BLOCK
        self.stats = collections.Counter()
        self._tokens()
        self._addresses()
        self._permutation()
        self._names()
        self._modules()
        self._name_cache = {}

    # -- 0. tokens
    def _tokens(self):
        off, size = self.sections[0]
        self.tt = TokenTable(bytes(self.data[off:off + size]), "%s token table" % self.path)
        check(self.tt.size == size, "%s: token table is %d bytes, section %d" %
              (self.path, self.tt.size, size))
        check(self.tt.W == ord("_") and self.tt.S == ord("."),
              "%s: token separators %r %r, not '_' '.'" % (self.path, self.tt.W, self.tt.S))
        self.num_tokens = len(self.tt.tokens)
        self.stats.update(self.tt.stats)

    # -- 1, 2, 11. addresses
    def _addresses(self):
        """Sections 1 and 2: every block's entry and its Elias-Fano offsets,
        decoded and checked when the table is opened."""
        w = self.path
        idx = self.sec[1]
        d = self.sec[2]
        check(len(idx.data) == 16 * self.num_blocks,
              "%s: address blocks are %d bytes, expected %d (16 per block)" %
              (w, len(idx.data), 16 * self.num_blocks))
        self.rel = []
        self.addr_word = []  # (Off, Unary, Shift, Low) per block
        self.block_addrs = []  # relative addresses of every block's symbols
        want_off = 0
        for k in range(self.num_blocks):
            rel = idx.u32(16 * k)
            off = idx.u32(16 * k + 4)
            word = idx.u64(16 * k + 8)
            unary = word & ((1 << 56) - 1)
            shift = (word >> 56) & 7
            low = word >> 59
            n = min(ADDR_BLOCK, self.N - ADDR_BLOCK * k) - 1
            check(off == want_off, "%s: address block %d low parts at %d, expected %d "
                  "(right after the previous block's)" % (w, k, off, want_off))
            nbytes = (n * low + 7) // 8
            want_off = off + nbytes
            check(want_off <= len(d.data), "%s: address block %d low parts (%d + %d bytes) "
                  "past section 2 (%d bytes)" % (w, k, off, nbytes, len(d.data)))
            if k == 0:
                check(rel == 0, "%s: block 0 Rel %d, not 0" % (w, rel))
            else:
                check(rel >= self.rel[-1], "%s: block %d Rel decreases" % (w, k))
                check(rel >= self.block_addrs[-1][-1],
                      "%s: address block %d ends above the next block's start" % (w, k - 1))
            check(bin(unary).count("1") == n,
                  "%s: address block %d Unary has %d set bits, not %d" %
                  (w, k, bin(unary).count("1"), n))
            # Padding bits after the low parts are zero.
            used = n * low
            if used % 8:
                check(d.data[off + used // 8] >> (used % 8) == 0,
                      "%s: address block %d low parts padding not zero" % (w, k))
            out = [rel]
            prev_o = 0
            pos = 0
            for j in range(n):
                while not (unary >> pos) & 1:
                    pos += 1
                h = pos - j
                pos += 1
                o = (h << low) | d.bits(8 * off + j * low, low)
                check(o >= prev_o, "%s: address block %d offset %d (%d) below the previous (%d)" %
                      (w, k, j, o, prev_o))
                prev_o = o
                a = rel + (o << shift)
                check(a < 1 << 32, "%s: address block %d past 4 GiB of Base" % (w, k))
                out.append(a)
            self.rel.append(rel)
            self.addr_word.append((off, unary, shift, low))
            self.block_addrs.append(out)
            if n:
                if low == 0:
                    self.stats["address blocks with Low 0"] += 1
                if shift == 0:
                    self.stats["address blocks with Shift 0"] += 1
                if low > self.stats["address blocks, widest Low"]:
                    self.stats["address blocks, widest Low"] = low
                if any(out[j] == out[j + 1] for j in range(n)):
                    self.stats["address blocks with aliases"] += 1
            else:
                self.stats["address blocks of one symbol"] += 1
        check(len(d.data) == want_off + 8,
              "%s: address low parts are %d bytes, expected %d (+ 8 zero bytes)" %
              (w, len(d.data), want_off + 8))
        check(bytes(d.data[want_off:]) == b"\0" * 8, "%s: address low parts tail not zero" % w)
        # Guide.
        g = self.sec[11]
        nseg = g.u32(0)
        check(nseg >= 1, "%s: no guide segments" % w)
        self.segments = []
        total = 0
        for s in range(nseg):
            start, first, num, shift = (g.u32(4 + 16 * s + 4 * j) for j in range(4))
            check(num >= 1 and shift <= 32, "%s: guide segment %d" % (w, s))
            check(first == total, "%s: guide segment %d FirstEntry %d, not %d" % (w, s, first, total))
            if s == 0:
                check(start == 0, "%s: guide segment 0 starts at %d" % (w, start))
            else:
                check(start > self.segments[-1][0], "%s: guide segment starts not increasing" % w)
            self.segments.append((start, first, num, shift))
            total += num
        ebase = 8 * (4 + 16 * nseg)
        check(len(g.data) == 4 + 16 * nseg + (total * self.guide_bits + 7) // 8,
              "%s: guide is %d bytes, expected %d" %
              (w, len(g.data), 4 + 16 * nseg + (total * self.guide_bits + 7) // 8))
        self.guide = [g.bits(ebase + e * self.guide_bits, self.guide_bits) for e in range(total)]
        for e in self.guide:
            check(e < self.num_blocks, "%s: guide entry %d past the blocks" % (w, e))
        self.seg_starts = [s[0] for s in self.segments]
        # The document: "a reader checks at open that every entry is that block".
        self.validate_guide()

    def validate_guide(self):
        w = self.path
        for start, first, num, shift in self.segments:
            for gi in range(num):
                x = start + (gi << shift)
                want = bisect.bisect_right(self.rel, x) - 1
                check(self.guide[first + gi] == want,
                      "%s: guide entry %d is %d, expected %d (last block with Rel <= %d)" %
                      (w, first + gi, self.guide[first + gi], want, x))

    def block_addresses(self, k):
        """Relative addresses of block k's symbols (decoded at open)."""
        return self.block_addrs[k]

    def find_in_block(self, k, r):
        """Index in block k of the last symbol at or below relative address
        r >= Rel, as the document describes it: q = (r - Rel) >> Shift;
        elements whose high part is below q >> Low are at or below it,
        those above are above it, and the run with high part equal to it
        (set bits of Unary between two zero bits) is compared by low part."""
        rel = self.rel[k]
        off, unary, shift, low = self.addr_word[k]
        n = len(self.block_addrs[k]) - 1
        q = (r - rel) >> shift
        H = q >> low
        ql = q & ((1 << low) - 1)
        # select0(H): position of the H-th (from 0) zero bit of Unary. Bit 56
        # counts as a zero: the run of the highest high part may end there.
        zeros = 0
        z = None
        for pos in range(57):
            if not (unary >> pos) & 1:
                if zeros == H:
                    z = pos
                    break
                zeros += 1
        if z is None:
            return n  # every element's high part is below H
        below = z - H  # set bits before the H-th zero: elements with h <= H
        # Elements with h == H: the set bits right before the H-th zero bit,
        # i.e. after the (H-1)-th zero.
        first_eq = below
        pos = z - 1
        while pos >= 0 and (unary >> pos) & 1:
            first_eq -= 1
            pos -= 1
        j = first_eq
        d = self.sec[2]
        while j < below and d.bits(8 * off + j * low, low) <= ql:
            j += 1
        return j  # elements 0..j-1 are at or below; symbol index j

    def rel_address(self, i):
        return self.block_addresses(i // ADDR_BLOCK)[i % ADDR_BLOCK]

    def address(self, i):
        return (self.base + self.rel_address(i)) & 0xFFFFFFFFFFFFFFFF

    def find_block(self, r):
        """The block holding relative address r, through the guide: the
        entry for r and the next one (the last block when there is none)
        bound it; a binary search between them finishes."""
        s = bisect.bisect_right(self.seg_starts, r) - 1
        start, first, num, shift = self.segments[s]
        g = first + min((r - start) >> shift, num - 1)
        lo = self.guide[g]
        hi = self.guide[g + 1] if g + 1 < len(self.guide) else self.num_blocks - 1
        check(lo <= hi and self.rel[lo] <= r,
              "%s: guide entries %d, %d do not bound the block of %#x" % (self.path, lo, hi, r))
        k = bisect.bisect_right(self.rel, r, lo, hi + 1) - 1
        check(k + 1 >= self.num_blocks or self.rel[k + 1] > r,
              "%s: block of %#x past the next guide entry" % (self.path, r))
        return k

    # -- 3-5. permutation and inverse
    def _permutation(self):
        w = self.path
        p = self.sec[3]
        need = (self.N * self.perm_bits + 7) // 8
        check(len(p.data) == need, "%s: permutation is %d bytes, expected %d" % (w, len(p.data), need))
        m = self.sec[4]
        words = (self.N + 63) // 64
        ranks = (words + 7) // 8
        check(len(m.data) == 8 * words + 4 * ranks,
              "%s: inverse marks are %d bytes, expected %d" % (w, len(m.data), 8 * words + 4 * ranks))
        self.mark_words = [m.u64(8 * j) for j in range(words)]
        self.ranks = [m.u32(8 * words + 4 * j) for j in range(ranks)]
        count = 0
        for j in range(words):
            if j % 8 == 0:
                check(self.ranks[j // 8] == count, "%s: mark rank %d is %d, not %d" %
                      (w, j // 8, self.ranks[j // 8], count))
            count += bin(self.mark_words[j]).count("1")
        check(count == self.num_marks, "%s: %d marks, header says %d" % (w, count, self.num_marks))
        if self.N % 64:
            check(self.mark_words[-1] >> (self.N % 64) == 0, "%s: marks past N" % w)
        bp = self.sec[5]
        need = (self.num_marks * self.perm_bits + 7) // 8
        check(len(bp.data) == need, "%s: back pointers are %d bytes, expected %d" % (w, len(bp.data), need))

    def pi(self, i):
        v = self.sec[3].bits(i * self.perm_bits, self.perm_bits)
        check(v < self.N, "%s: permutation entry %d is %d >= N" % (self.path, i, v))
        return v

    def is_mark(self, x):
        return (self.mark_words[x >> 6] >> (x & 63)) & 1

    def mark_rank(self, x):
        j = x >> 6
        r = self.ranks[j >> 3]
        for q in range(j & ~7, j):
            r += bin(self.mark_words[q]).count("1")
        return r + bin(self.mark_words[j] & ((1 << (x & 63)) - 1)).count("1")

    def back(self, x):
        v = self.sec[5].bits(self.mark_rank(x) * self.perm_bits, self.perm_bits)
        check(v < self.N and self.is_mark(v), "%s: back pointer of %d is %d, not a mark" % (self.path, x, v))
        return v

    def pi_inverse(self, s):
        z = s
        taken = False
        for step in range(2 * self.T + 2):
            p = self.pi(z)
            if p == s:
                self.last_inverse_steps = step + 1
                return z
            if self.is_mark(z) and not taken:
                z = self.back(z)
                taken = True
            else:
                z = p
        fail("%s: inverse of name slot %d not found within 2T + 2 steps" % (self.path, s))

    def validate_inverse(self):
        """Marks and back pointers exactly as the document defines them."""
        w = self.path
        perm = [self.pi(i) for i in range(self.N)]
        check(len(set(perm)) == self.N, "%s: permutation is not a bijection" % w)
        seen = bytearray(self.N)
        want_marks = {}
        for c0 in range(self.N):
            if seen[c0]:
                continue
            cyc = []
            x = c0
            while not seen[x]:
                seen[x] = 1
                cyc.append(x)
                x = perm[x]
            if len(cyc) > self.T:
                marks = cyc[::self.T]
                for j, mk in enumerate(marks):
                    want_marks[mk] = marks[j - 1]
        for x in range(self.N):
            check(bool(self.is_mark(x)) == (x in want_marks),
                  "%s: symbol %d %s a mark" % (w, x, "is" if self.is_mark(x) else "is not"))
        for x, prev in want_marks.items():
            check(self.back(x) == prev, "%s: back pointer of %d is %d, expected %d" %
                  (w, x, self.back(x), prev))
        longest = 0
        for s in range(self.N):
            check(perm[self.pi_inverse(s)] == s, "%s: inverse walk" % w)
            longest = max(longest, self.last_inverse_steps)
        check(longest <= 2 * self.T + 1, "%s: an inverse walk took %d steps, more than 2T + 1" % (w, longest))
        self.stats["longest inverse walk (steps)"] = longest
        return perm

    # -- 6, 7, 10, 12. names
    def _names(self):
        w = self.path
        ix = self.sec[6]
        nb = self.num_name_blocks
        need = ((nb + 1) * self.name_off_bits + 7) // 8
        check(len(ix.data) == need, "%s: name index is %d bytes, expected %d" % (w, len(ix.data), need))
        self.name_off = [ix.bits(k * self.name_off_bits, self.name_off_bits) for k in range(nb + 1)]
        nd = self.sec[7]
        check(self.name_off[0] == 0, "%s: name block 0 at %d" % (w, self.name_off[0]))
        for k in range(nb):
            check(self.name_off[k + 1] >= self.name_off[k] + 16 + 4 * self.type_bits,
                  "%s: name block %d too short" % (w, k))
        check(len(nd.data) == self.name_off[nb] + 8,
              "%s: name data is %d bytes, expected %d (+ 8 zero bytes)" % (w, len(nd.data), self.name_off[nb] + 8))
        check(bytes(nd.data[self.name_off[nb]:]) == b"\0" * 8, "%s: name data tail not zero" % w)
        rc = self.sec[10]
        check(len(rc.data) == 30 + self.num_types,
              "%s: record codes are %d bytes, expected %d" % (w, len(rc.data), 30 + self.num_types))
        self.codes = []
        for c in range(15):
            k, d = rc.u8(2 * c), rc.u8(2 * c + 1)
            check(k <= 14 and d <= 14, "%s: record code %d = (%d, %d)" % (w, c, k, d))
            self.codes.append((k, d))
        self.type_letters = bytes(rc.raw(30, self.num_types))
        keys = self.sec[12]
        nk = (nb + 3) // 4
        check(len(keys.data) == 8 * nk, "%s: name keys are %d bytes, expected %d" % (w, len(keys.data), 8 * nk))
        self.keys = [int.from_bytes(keys.raw(8 * j, 8), "little") for j in range(nk)]
        # Id code bases (tiers).
        A, B, C = self.A, self.Bn, self.Cn
        self.tier_base = [0, A, A + 16 * B, A + 16 * B + 256 * C,
                          A + 16 * B + 256 * C + 4096 * (15 - A - B - C)]

    def id_len(self, f):
        A, B, C = self.A, self.Bn, self.Cn
        if f < A:
            return 0
        if f < A + B:
            return 1
        if f < A + B + C:
            return 2
        if f < 15:
            return 3
        return 6

    def id_base(self, f):
        A, B, C = self.A, self.Bn, self.Cn
        if f < A:
            return f
        if f < A + B:
            return A + 16 * (f - A)
        if f < A + B + C:
            return A + 16 * B + 256 * (f - A - B)
        if f < 15:
            return A + 16 * B + 256 * C + 4096 * (f - A - B - C)
        return self.tier_base[4]

    def name_block(self, b):
        """[(token ids, type letter)] of name block b's records."""
        got = self._name_cache.get(b)
        if got is not None:
            return got
        w = "%s: name block %d" % (self.path, b)
        nd = self.sec[7]
        start, end = self.name_off[b], self.name_off[b + 1]
        count = min(NAME_BLOCK, self.N - NAME_BLOCK * b)
        codes = [nd.nibble(2 * start + j) for j in range(32)]
        for j in range(count, 32):
            check(codes[j] == 0, "%s: code nibble %d past the records not zero" % (w, j))
        planes = [nd.u32(start + 16 + 4 * p) for p in range(self.type_bits)]
        types = []
        for j in range(32):
            t = 0
            for p in range(self.type_bits):
                t |= ((planes[p] >> j) & 1) << p
            if j >= count:
                check(t == 0, "%s: type bits past the records not zero" % w)
            else:
                check(t < self.num_types, "%s: record %d type index %d" % (w, j, t))
                types.append(self.type_letters[t])
        pos = start + 16 + 4 * self.type_bits
        # Part 6: the escape bytes are the block's last NumEscapes bytes.
        num_esc = sum(1 for j in range(count) if codes[j] == 15)
        esc_at = end - num_esc
        check(esc_at >= pos, "%s: %d escape bytes do not fit the block" % (w, num_esc))
        # Part 3: the escape extensions, right after the type planes.
        counts = []
        e_rank = 0
        for j in range(count):
            if codes[j] == 15:
                e = nd.data[esc_at + e_rank]
                e_rank += 1
                k, d = e & 15, e >> 4
                self.stats["record escapes"] += 1
                if k == 15:
                    at = pos
                    x, pos = nd.uleb(pos, esc_at)
                    k = 15 + x
                    self.stats["new counts in ULEB128 of %d bytes" % (pos - at)] += 1
                if d == 15:
                    at = pos
                    x, pos = nd.uleb(pos, esc_at)
                    d = 15 + x
                    self.stats["dropped counts in ULEB128 of %d bytes" % (pos - at)] += 1
            else:
                k, d = self.codes[codes[j]]
            counts.append((k, d))
        # Records' token structure.
        lens = []
        prev_len = 0
        for j, (k, d) in enumerate(counts):
            check(d <= prev_len, "%s: record %d drops %d of %d tokens" % (w, j, d, prev_len))
            ln = prev_len - d + k
            check(ln >= 1, "%s: record %d has no token" % (w, j))
            lens.append(ln)
            prev_len = ln
        nids = sum(k for k, _ in counts)
        first_nib = 2 * pos
        E = 2 * esc_at  # the tails end where the escape bytes start
        check(first_nib + nids <= E, "%s: %d id nibbles run into the escape bytes" % (w, nids))
        firsts = [nd.nibble(first_nib + i) for i in range(nids)] if nids else []
        tails = [self.id_len(f) for f in firsts]
        for L in tails:
            self.stats["ids with %d tail nibbles" % L] += 1

        used = first_nib + nids + sum(tails)
        check(used == E or used + 1 == E,
              "%s: id nibbles and tails end at nibble %d, the escape bytes start at %d" %
              (w, used - 2 * start, E - 2 * start))
        if used + 1 == E:
            check(nd.nibble(first_nib + nids) == 0, "%s: padding nibble not zero" % w)
        ids = []
        tsum = 0
        for i, f in enumerate(firsts):
            L = tails[i]
            v = 0
            # nibble positions E - T_{k+1} .. E - T_k - 1, lowest first.
            lo = E - (tsum + L)
            for q in range(L):
                v |= nd.nibble(lo + q) << (4 * q)
            tsum += L
            tid = self.id_base(f) + v
            check(tid < self.num_tokens, "%s: token id %d >= %d tokens" % (w, tid, self.num_tokens))
            ids.append(tid)
        records = []
        prev = []
        at = 0
        for j, (k, d) in enumerate(counts):
            cur = prev[:len(prev) - d] + ids[at:at + k]
            at += k
            records.append((cur, types[j]))
            prev = cur
        if len(self._name_cache) > 4096:
            self._name_cache.clear()
        self._name_cache[b] = records
        return records

    def slot_record(self, s):
        ids, t = self.name_block(s // NAME_BLOCK)[s % NAME_BLOCK]
        return self.tt.join(ids), t

    # -- 8, 9. modules
    def _modules(self):
        w = self.path
        mn = self.sec[8]
        off = 0
        self.modules = [None]
        for _ in range(self.num_modules):
            ln = mn.u16(off)
            self.modules.append(bytes(mn.raw(off + 2, ln)))
            off += 2 + ln
        check(off == len(mn.data), "%s: module names are %d bytes, entries take %d" %
              (w, len(mn.data), off))
        mr = self.sec[9]
        check(len(mr.data) % 8 == 0 and len(mr.data) >= 8, "%s: module runs size %d" % (w, len(mr.data)))
        self.run_first = []
        self.run_mod = []
        for j in range(len(mr.data) // 8):
            f, m = mr.u32(8 * j), mr.u32(8 * j + 4)
            check(m <= self.num_modules, "%s: module run %d id %d" % (w, j, m))
            check(f < self.N, "%s: module run %d starts at %d" % (w, j, f))
            if j == 0:
                check(f == 0, "%s: first module run starts at %d" % (w, f))
            else:
                check(f > self.run_first[-1] and m != self.run_mod[-1],
                      "%s: module run %d not sorted or no change" % (w, j))
            self.run_first.append(f)
            self.run_mod.append(m)

    def module(self, i):
        j = bisect.bisect_right(self.run_first, i) - 1
        return self.modules[self.run_mod[j]]

    # -- queries
    def symbol(self, i):
        name, t = self.slot_record(self.pi(i))
        return Symbol(name, self.address(i), t, self.module(i), i)

    def lookup_address(self, a):
        if a < self.base:
            return None
        r = a - self.base
        if self.end_valid and a >= self.end:
            return None
        k = self.find_block(min(r, (1 << 32) - 1) if r >= 1 << 32 else r)
        addrs = self.block_addresses(k)
        j = bisect.bisect_right(addrs, r) - 1
        check(j >= 0, "%s: address block %d starts above %#x" % (self.path, k, a))
        # The document's in-block search (high part, then low parts) agrees.
        check(self.find_in_block(k, r) == j,
              "%s: in-block search of %#x gives symbol %d of block %d, not %d" %
              (self.path, a, self.find_in_block(k, r), k, j))
        i = ADDR_BLOCK * k + j
        at = addrs[j]
        first = i
        while first > 0 and self.rel_address(first - 1) == at:
            first -= 1
        last = i
        while last + 1 < self.N and self.rel_address(last + 1) == at:
            last += 1
        size = None
        if last + 1 < self.N:
            size = self.rel_address(last + 1) - at
        elif self.end_valid:
            size = self.end - (self.base + at)
        group = [self.symbol(x) for x in range(first, last + 1)]
        best = canonical(group)
        return best, a - best.address, size

    def lookup_name(self, name):
        """Symbols called `name`, in address order, via keys, blocks, pi^-1."""
        nb = self.num_name_blocks
        key = int.from_bytes(name[:8].ljust(8, b"\0"), "big")
        lo = bisect.bisect_left(self.keys, key)  # keys[:lo] < key
        hi = bisect.bisect_right(self.keys, key)  # keys[hi:] > key
        first_block = 4 * (lo - 1) if lo else 0
        end_block = min(4 * hi, nb) if hi < len(self.keys) else nb
        # Last block in [first_block, end_block) whose first name < name.
        a, b = first_block, end_block
        while b - a > 1:
            mid = (a + b) // 2
            if self.slot_record(NAME_BLOCK * mid)[0] < name:
                a = mid
            else:
                b = mid
        out = []
        s = NAME_BLOCK * a
        while s < self.N:
            n, _ = self.slot_record(s)
            if n > name:
                break
            if n == name:
                out.append(self.symbol(self.pi_inverse(s)))
            s += 1
        return out

    def all_symbols(self):
        for i in range(self.N):
            yield self.symbol(i)

    def validate(self):
        w = self.path
        perm = self.validate_inverse()
        names = []
        for b in range(self.num_name_blocks):
            for ids, t in self.name_block(b):
                names.append(self.tt.join(ids))
        inv = [0] * self.N
        for i, s in enumerate(perm):
            inv[s] = i
        for s in range(1, self.N):
            check((names[s - 1], inv[s - 1]) < (names[s], inv[s]),
                  "%s: name slots %d, %d not in name order" % (w, s - 1, s))
        for j, k in enumerate(self.keys):
            want = int.from_bytes(names[4 * j * NAME_BLOCK][:8].ljust(8, b"\0"), "big")
            check(k == want, "%s: name key %d is %#x, expected %#x" % (w, j, k, want))
        prev = 0
        for i in range(self.N):
            a = self.rel_address(i)
            check(a >= prev, "%s: address of symbol %d decreases" % (w, i))
            prev = a
        if self.end_valid:
            check(self.end >= self.base + prev, "%s: EndAddress below the last symbol" % w)
        check(self.file_end == len(self.data), "%s: %d bytes after the last section" %
              (w, len(self.data) - self.file_end))


def canonical(group):
    cands = [s for s in group if is_upper(s.type)] or group
    fewest = min(leading_underscores(s.name) for s in cands)
    return next(s for s in cands if leading_underscores(s.name) == fewest)


# ---------------------------------------------------------------------------
# ksym-blob
# ---------------------------------------------------------------------------

def align(x, a):
    return (x + a - 1) // a * a


class KsymBlob:
    def __init__(self, data, path, end=None):
        self.path = path
        w = path
        b = Bytes(data, path)
        self.b = b
        n = b.u64(0)
        check(n >= 1 and 8 + 16 * n <= len(data), "%s: num_syms %d" % (w, n))
        self.N = n
        off = 8
        self.addresses = list(struct.unpack_from("<%dQ" % n, data, off))
        off += 8 * n
        off = align(off, 4)
        b.need(off, 4 * n)
        self.offsets = list(struct.unpack_from("<%dI" % n, data, off))
        off += 4 * n
        off = align(off, 4)
        b.need(off, 4 * n)
        self.seqs = list(struct.unpack_from("<%dI" % n, data, off))
        off += 4 * n
        pad_from = off
        off = align(off, 8)
        self._zero(pad_from, off)
        names_len = b.u64(off)
        off += 8
        self.names_at = off
        b.need(off, names_len)
        self.names_end = off + names_len
        off += names_len
        pad_from = off
        off = align(off, 8)
        self._zero(pad_from, off)
        tt_len = b.u64(off)
        off += 8
        b.need(off, tt_len)
        self.token_text = bytes(data[off:off + tt_len])
        off += tt_len
        pad_from = off
        off = align(off, 8)
        self._zero(pad_from, off)
        ti_len = b.u64(off)
        off += 8
        pad_from = off
        off = align(off, 4)
        self._zero(pad_from, off)
        b.need(off, 4 * ti_len)
        starts = list(struct.unpack_from("<%dI" % ti_len, data, off))
        off += 4 * ti_len
        check(off == len(data), "%s: blob ends at %d, file is %d bytes" % (w, off, len(data)))
        self.tokens = []
        for k, st in enumerate(starts):
            en = starts[k + 1] if k + 1 < ti_len else tt_len
            check(st <= en <= tt_len, "%s: token %d bounds %d..%d" % (w, k, st, en))
            self.tokens.append(self.token_text[st:en])
        for i in range(1, n):
            check(self.addresses[i] >= self.addresses[i - 1], "%s: addresses not ascending" % w)
        check(sorted(self.seqs) == list(range(n)), "%s: seqs is not a permutation" % w)
        self.end = end
        self.data = data
        self.modules = None
        self.stats = collections.Counter()

    def _zero(self, a, b):
        check(all(x == 0 for x in self.data_or(a, b)), "%s: padding at %d not zero" % (self.path, a))

    def data_or(self, a, b):
        self.b.need(a, b - a)
        return self.b.data[a:b]

    def record(self, i):
        w = "%s: record of symbol %d" % (self.path, i)
        off = self.names_at + self.offsets[i]
        check(off + 3 <= self.names_end, "%s past the names" % w)
        t = self.b.data[off]
        ln = self.b.u16(off + 1)
        check(off + 3 + ln <= self.names_end, "%s: payload past the names" % w)
        p = bytes(self.b.data[off + 3:off + 3 + ln])
        if p[:1] == b"\xff":
            if len(p) >= 3 and p[2] == 0xFF:
                tid, rest = p[1], p[3:]
            elif len(p) >= 4 and p[3] == 0xFF:
                tid, rest = (p[1] << 8) | p[2], p[4:]
                self.stats["two-byte token ids"] += 1
                check(tid >= 256, "%s: two-byte id %d below 256" % (w, tid))
            else:
                fail("%s: unterminated token reference" % w)
            check(tid < len(self.tokens), "%s: token id %d >= %d" % (w, tid, len(self.tokens)))
            p = self.tokens[tid] + rest
        return p, t

    def symbol(self, i):
        name, t = self.record(i)
        return Symbol(name, self.addresses[i], t, None, i)

    def all_symbols(self):
        for i in range(self.N):
            yield self.symbol(i)

    def lookup_address(self, a):
        i = bisect.bisect_right(self.addresses, a) - 1
        if i < 0:
            return None
        if self.end is not None and a >= self.end:
            return None
        at = self.addresses[i]
        first = bisect.bisect_left(self.addresses, at)
        last = bisect.bisect_right(self.addresses, at) - 1
        size = None
        if last + 1 < self.N:
            size = self.addresses[last + 1] - at
        elif self.end is not None:
            size = self.end - at
        best = canonical([self.symbol(x) for x in range(first, last + 1)])
        return best, a - best.address, size

    def lookup_name(self, name):
        lo, hi = 0, self.N
        while lo < hi:
            mid = (lo + hi) // 2
            if self.record(self.seqs[mid])[0] < name:
                lo = mid + 1
            else:
                hi = mid
        out = []
        while lo < self.N and self.record(self.seqs[lo])[0] == name:
            out.append(self.symbol(self.seqs[lo]))
            lo += 1
        return out

    def validate(self):
        prev = None
        for k, i in enumerate(self.seqs):
            cur = (self.record(i)[0], i)
            check(prev is None or prev < cur, "%s: seqs %d not in name order" % (self.path, k))
            prev = cur


# ---------------------------------------------------------------------------

def open_table(path, end=None):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] == b"DPKSYMTB":
        return CompactTable(data, path)
    return KsymBlob(data, path, end)


def stats_text(t):
    """What decoding the table so far has exercised."""
    lines = []
    if isinstance(t, CompactTable):
        for k, v in (("token table version", t.tt.version), ("T", t.T),
                     ("TypeBits", t.type_bits), ("modules", t.num_modules),
                     ("guide segments", len(t.segments)), ("marks", t.num_marks)):
            lines.append("%s: %d" % (k, v))
    else:
        lines.append("tokens: %d" % len(t.tokens))
    for k in sorted(t.stats):
        lines.append("%s: %d" % (k, t.stats[k]))
    return ("\n".join(lines) + "\n").encode()


def dump_line(s):
    line = b"%016x %c %s" % (s.address, s.type, s.name)
    if s.module:
        line += b"\t[" + s.module + b"]"
    return line + b"\n"


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    cmd, path, rest = argv[1], argv[2], argv[3:]
    end = None
    if rest and rest[0].startswith("--end="):
        end = int(rest[0][6:], 16)
        rest = rest[1:]
    out = sys.stdout.buffer
    try:
        t = open_table(path, end)
        if cmd == "validate":
            t.validate()
            out.write(b"ok %d symbols\n" % t.N)
            return 0
        if cmd == "stats":
            t.validate()
            for s in t.all_symbols():
                pass
            out.write(stats_text(t))
            return 0
        if cmd == "dump":
            for s in t.all_symbols():
                out.write(dump_line(s))
            return 0
        queries = rest or [l.rstrip(b"\n") for l in sys.stdin.buffer]
        if cmd == "lookup":
            for q in queries:
                q = q.decode() if isinstance(q, bytes) else q
                a = int(q, 16)
                res = t.lookup_address(a)
                if res is None:
                    out.write(b"%#x ??\n" % a)
                    continue
                s, off, size = res
                out.write(b"%#x %s %#x %d %s %c %s\n" % (
                    a, s.name, s.address, off,
                    b"?" if size is None else b"%d" % size, s.type,
                    s.module or b"-"))
            return 0
        if cmd == "lookup-name":
            for q in queries:
                q = q.encode() if isinstance(q, str) else q
                found = t.lookup_name(q)
                if not found:
                    out.write(b"?? " + q + b"\n")
                for s in found:
                    out.write(dump_line(s))
            return 0
        sys.stderr.write("unknown command %s\n" % cmd)
        return 2
    except FormatError as e:
        sys.stdout.flush()
        sys.stderr.write("error: %s\n" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
