"""Writes a deterministic Breakpad .sym that exercises the compact table's
corners for utils/spec-check/compact_table_reader.py: more than 32 files in
one line table (file history eviction), SetFile to old and new files, long
and negative line deltas, lines near 2^32, multi-range and nested inline
calls, call files of every kind, unusual paths (Windows separators, quotes,
spaces, UTF-8, "/"), names that split into many and long tokens, PUBLIC
records and addresses above 2^32."""
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
nfunc = int(sys.argv[2]) if len(sys.argv) > 2 else 40
paths = ["/src/a.c", "/src/inc/b.h", "rel/c.c", "C:\\win\\d.cpp", "/abs//e.c",
         'q"uote.c', "back\\slash/f.c", "/x/./y/../z.h", "\u00fcn/c\u00f6d\u00e9.c",
         "plain", "/", "a b/c d.c"]
paths += ["/gen/dir%d/file%d.c" % (i % 7, i) for i in range(40)]
names = ["main", "a__b", "_x", "x_", "_", "foo.isra.0", ".x", "a..b", "x._y",
         "__libc_start", "op<int>::f", "name with spaces", "\u00ff_unicode",
         "a_verylongtokenofmorethanfifteenbytes_b", "a_b_c_d_e_f_g_h_i_j_k"]
names += ["gen_func_%d_%s" % (i, rng.choice(["cold", "part.0", "constprop.1", "x"]))
          for i in range(60)]
print("MODULE Linux x86_64 B334ACDE67454BA8DA6B660A6264ABBF0 test")
for i, p in enumerate(paths):
    print("FILE %d %s" % (i, p))
for i, n in enumerate(names):
    print("INLINE_ORIGIN %d %s" % (i, n))


def inline(depth, lo, hi, count):
    if depth > 5 or hi - lo < 2:
        return
    for _ in range(count):
        if hi - lo < 2:
            return
        s = rng.randrange(lo, hi - 1)
        e = rng.randrange(s + 1, min(hi, s + 1 + rng.choice([4, 40, 400])) + 1)
        ranges = [(s, e)]
        if rng.random() < 0.3 and e + 2 < hi:
            s2 = rng.randrange(e + 1, hi)
            ranges.append((s2, rng.randrange(s2 + 1, min(hi, s2 + 50) + 1)))
        print("INLINE %d %d %d %d %s" % (
            depth, rng.choice([0, 1, rng.randrange(1, 50000)]), rng.randrange(len(paths)),
            rng.randrange(len(names)), " ".join("%x %x" % (x, y - x) for x, y in ranges)))
        inline(depth + 1, s, e, rng.choice([0, 1, 2]))
        lo = ranges[-1][1]


addr = rng.choice([0x1000, 0x7FFF00000000])
for f in range(nfunc):
    addr += rng.choice([0, 0, 1, 16, 0x1000, rng.randrange(1, 1 << 20)])
    size = rng.choice([1, 2, 5, 50, 300, 3000])
    if f == 0:  # a long table over 45 files: the file history overflows
        size = 1500
    print("FUNC %x %x 0 %s" % (addr, size, rng.choice(names)))
    files = rng.sample(range(len(paths)), 45 if f == 0 else rng.choice([1, 2, 3, 40]))
    a, end, line = addr, addr + size, rng.randrange(1, 100000)
    while a < end:
        n = min(end - a, rng.choice([1, 2, 3, 4, 8] + [30, 200] * (f > 0)))
        r = rng.random()
        if r < 0.3:
            line += rng.randrange(-3, 8)
        elif r < 0.35:
            line = rng.randrange(0, 1 << 32) if rng.random() < 0.2 else rng.randrange(0, 100000)
        line = max(0, min(line, (1 << 32) - 1))
        print("%x %x %d %d" % (a, n, line, files[0] if rng.random() < 0.5 else rng.choice(files)))
        a += n
    if rng.random() < 0.7:
        inline(0, addr, end, rng.choice([1, 2, 5]))
    addr = end
    if rng.random() < 0.1:
        addr += 5
        print("PUBLIC %x 0 pub_%d" % (addr, f))
