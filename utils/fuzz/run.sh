#!/usr/bin/env bash
# Builds the libFuzzer targets, makes their seed corpora and runs them one
# at a time (see README.md).
#
#   utils/fuzz/run.sh [-b BUILD_DIR] [-t SECONDS] [-r ROUNDS] [TARGET...]
#
# BUILD_DIR defaults to build-fuzz/ beside this checkout; SECONDS (per target
# and round, default 60); ROUNDS (default 1); TARGETs default to all of them
# (names without the fuzz- prefix: readers gsym compact ctf ksyms token
# kallsyms-text breakpad convert line-table trace-text markup; dwo, dwp, dwp4 and dwz run
# fuzz-sidefile on a .dwo, a DWARF 5 or DWARF 4 .dwp package or a dwz supplementary file,
# dwz skipped when gcc or dwz is missing; dwo-pair, dwp-pair, dwp4-pair and
# dwz-pair damage the binary too, convert-pair an object and the kernel
# pipeline's partner, both: their inputs are pairs of files, see README.md).
# Seeds are written at run time under BUILD_DIR/fuzz-seeds (the binaries of
# the side files, which must stay where they were built, under
# BUILD_DIR/fuzz-sidefiles), the growing corpora live in BUILD_DIR/fuzz-corpus,
# crash reproducers in BUILD_DIR/fuzz-artifacts, each run's output in
# BUILD_DIR/fuzz-TARGET.rROUND.log: nothing here is committed.
# Environment: DWARFPACK (a normal dwarfpack binary to write seed tables
# with; default build/bin/dwarfpack, built in BUILD_DIR when missing),
# CC_FOR_SEEDS (default clang-19), SYMBOL_MAP (a System.map to take kernel
# symbols from; optional), BREAKPAD_SYM (a .sym to slice; optional),
# FUZZ_ARGS (extra libFuzzer flags). Only one fuzzer process runs at a time.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$SRC/build-fuzz
SECONDS_PER=60
ROUNDS=1
while getopts "b:t:r:" opt; do
  case $opt in
    b) BUILD=$(realpath -m "$OPTARG") ;;
    t) SECONDS_PER=$OPTARG ;;
    r) ROUNDS=$OPTARG ;;
    *) sed -n '2,25p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
ALL=(readers gsym compact ctf ksyms token kallsyms-text breakpad convert dwo dwp dwp4 dwz
  convert-pair dwo-pair dwp-pair dwp4-pair dwz-pair line-table trace-text markup)
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL[@]}")

# -max_len per target: the seeds fit, and mutations stay cheap.
max_len() {
  case $1 in
    readers) echo 32768 ;;
    ctf) echo 16384 ;;
    gsym | compact | ksyms) echo 16384 ;;
    token) echo 8192 ;;
    kallsyms-text) echo 4096 ;;
    breakpad) echo 8192 ;;
    convert | dwo | dwp | dwp4 | dwz) echo 65536 ;;
    *-pair) echo 65536 ;;
    line-table) echo 8192 ;;
    trace-text | markup) echo 8192 ;;
  esac
}

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
    -DDWARFPACK_FUZZ=ON
fi
ninja -C "$BUILD" -j2 dwarfpack-fuzzers

DWARFPACK=${DWARFPACK:-$SRC/build/bin/dwarfpack}
if [ ! -x "$DWARFPACK" ]; then
  # The sanitized tool writes the same bytes, only slower.
  ninja -C "$BUILD" -j2 dwarfpack
  DWARFPACK=$BUILD/bin/dwarfpack
fi
CC_FOR_SEEDS=${CC_FOR_SEEDS:-clang-19}
SYMBOL_MAP=${SYMBOL_MAP:-$(ls /var/tmp/dwarfpack-bench/kdbg/usr/lib/debug/boot/System.map-* 2>/dev/null | head -1 || true)}
BREAKPAD_SYM=${BREAKPAD_SYM:-$SRC/../shared/data/breakpad/sqlite-gcc.sym}

SEEDS=$BUILD/fuzz-seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS"/{readers,gsym,compact,ctf,ksyms,token,kallsyms-text,breakpad,convert,dwo,dwp,dwp4,dwz,line-table,trace-text,markup}
mkdir -p "$SEEDS"/{convert,dwo,dwp,dwp4,dwz}-pair
W=$SEEDS/work
mkdir -p "$W"

# An input of the pair modes (FuzzCommon.h): the first file's size as 4
# bytes little-endian, the first file, the second file.
join_pair() {
  python3 -c 'import struct, sys
a, b = (open(f, "rb").read() for f in sys.argv[1:3])
sys.stdout.buffer.write(struct.pack("<I", len(a)) + a + b)' "$1" "$2" > "$3"
}

# --- Kernel symbol text and tables ---------------------------------------
cat > "$W/kallsyms.txt" <<'TXT'
ffffffff81000000 T _stext
ffffffff81000000 t __alias
ffffffff81000010 D some_data
ffffffff81000040 t dup
ffffffff81000080 T do_fork
ffffffff81000090 t $x
ffffffff810000c0 t dup
ffffffff810000d0 t get_page.isra.0
ffffffff810000e0 t get_page.cold
ffffffffc0001000 t mod_fn	[ext4]
ffffffffc0001080 T mod_fn2	[ext4]
ffffffffc0002000 t other	[xfs]
TXT
cat > "$W/nm.txt" <<'TXT'
                 U puts
0000000000001000 T _ZN2ns5twiceEi
0000000000001010 T _ZN2ns3addEii
0000000000001020 t _RNvCs1234_7mycrate3foo
0000000000001030 t ns::add(int, int)
0000000000001040 W weak_fn
TXT
printf '0000000000001000 T a\r\n0000000000001004 T b_c_d\r\n\n0000000000001008 t c\n' > "$W/crlf.txt"
if [ -n "$SYMBOL_MAP" ] && [ -f "$SYMBOL_MAP" ]; then
  # Real kernel names: their shared tokens fill the token tables.
  awk '$2 ~ /^[tT]$/' "$SYMBOL_MAP" | sed -n '20000,20300p' > "$W/map-small.txt"
  awk '$2 ~ /^[tT]$/' "$SYMBOL_MAP" | sed -n '40000,41500p' > "$W/map-big.txt"
fi
for f in "$W"/*.txt; do
  b=$(basename "$f" .txt)
  # The first byte is the options byte of fuzz-kallsyms-text.
  for flags in 0 3 5; do
    if [ "$(wc -c < "$f")" -le 4000 ]; then
      { printf "\\x$(printf %02x "$flags")"; cat "$f"; } > "$SEEDS/kallsyms-text/$b-$flags"
    fi
  done
  "$DWARFPACK" kallsyms "$f" -o "$W/$b.dpk" 2>/dev/null || continue
  "$DWARFPACK" kallsyms "$f" --all-types --etext=0xffffffffffffff00 -o "$W/$b.all.dpk" 2>/dev/null || true
  "$DWARFPACK" kallsyms "$f" --format=ksym-blob -o "$W/$b.blob" 2>/dev/null || true
  "$DWARFPACK" kallsyms "$f" --demangle --format=ksym-blob -o "$W/$b.dem.blob" 2>/dev/null || true
done
cp "$W"/*.dpk "$W"/*.blob "$SEEDS/ksyms/"
cp "$W"/*.dpk "$W"/*.blob "$SEEDS/readers/"

# --- Trace text (lookup --annotate) and process maps ----------------------
# Symbolizer markup: a module and its mappings, every presentation element,
# SGR colours, a reset, CRLF lines, malformed elements.
printf '%s\n' \
  'log {{{reset}}}' \
  '{{{module:0:libc.so:elf:0123456789abcdef}}}' \
  '{{{mmap:0x7f0000000000:0x2000:load:0:rx:0x0}}}' \
  '{{{mmap:0x7f0000002000:0x1000:load:0:RW:0x2000}}}' \
  $'pc {{{pc:0x7f0000000013}}} ra {{{pc:0x7f0000000014:ra}}}\r' \
  '{{{bt:0:0x7f0000000017}}} {{{bt:12:0x7f0000000012:pc}}}' \
  $'\033[31m{{{data:0x7f0000002001}}}\033[0m {{{data:0x7f0000002002}}}\033[1m' \
  '{{{symbol:_ZN2ns1fEv}}} {{{PC:0x1}}} {{{pc}}} {{{bt:x:0x1}}} {{{}}}' \
  '{{{reset}}}' '{{{pc:0x7f0000000013}}}' > "$SEEDS/markup/markup"

cat > "$SEEDS/trace-text/perf" <<'TXT'
         swapper     0 [000]     0.000000: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1276f48) @ 0xffffffff81000000]: x [kernel.kallsyms]_text
            prog  4242 [001]    99.000000: PERF_RECORD_MMAP2 4242/4242: [0x555555555000(0x2000) @ 0x1000 fe:00 4242 0]: r-xp /usr/bin/my prog
            prog  4242 [001]    99.000000: PERF_RECORD_MMAP2 4242/4242: [0x555555556000(0x1000) @ 0 fe:00 4242 0]: r-xp /usr/lib/libx.so (deleted)
            prog   999 [001]    99.000000: PERF_RECORD_MMAP2 999/999: [0x555555555000(0x1000) @ 0 fe:00 4242 0]: r-xp /opt/other.so
            prog  4242 [001]    99.500000: PERF_RECORD_FORK(4242:4243):(4242:4242)
            prog  4244 [001]    99.600000: PERF_RECORD_FORK(4244:4244):(4242:4243)
            prog  4244 [001]    99.700000: PERF_RECORD_COMM exec: new:prog:4244/4244
            prog  4244 [001]    99.800000: PERF_RECORD_EXIT(4244:4244):(4242:4242)
prog  4242 [001]   100.000000:     250000 cpu-clock: 
	            1613 compute+0x3 (/usr/bin/my prog)
	            1610 _start (/usr/bin/my prog)
	            1611 [unknown] (/usr/bin/my prog)
prog  4242/4243 [001]   100.000001:     250000 cpu-clock:   555555555613 compute+0x3 (/usr/bin/my prog)
	    555555556010 [unknown] (/usr/lib/libx.so (deleted))
	ffffffff81001003 vfs_read+0x3 ([kernel.kallsyms])
	ffffffffc0001002 ext4_read+0x2 ([ext4])
	               0 [unknown] ([unknown])
TXT
cat > "$SEEDS/trace-text/oops" <<'TXT'
[  123.456789] BUG: unable to handle page fault for address: 0000000000001234
[  123.456800] RIP: 0010:vfs_read+0x5/0x1a0
[  123.456810] Call Trace:
[  123.456811]  <TASK>
[  123.456812]  ? schedule+0x4/0x90
[  123.456813]  nft_do_chain+0x1/0x2 [nf_tables]
[  123.456814]  ext4_read+0x10/0x40 [ext4 0123456789abcdef0123456789abcdef01234567]
[  123.456815]  [<ffffffff81234567>] do_syscall_64+0x3b/0x90
[  123.456816] WARNING: CPU: 0 PID: 1 at fs/read_write.c:470 vfs_read+0x1a6/0x30c
pc : foo+0x10/0x20 (P)
RIP: 0033:0x7f1234567890
TXT
cat > "$SEEDS/trace-text/queries" <<'TXT'
BUILDID:0123456789abcdef0123456789abcdef01234567 0x1a2b
CODE /usr/bin/prog 0x1a2b
DATA "/usr/bin/my prog" 0x4000
FILE:'/usr/bin/prog' 0x10
0x1a2b
main+4
_ZN2ns3addEii+0x10
TXT
cat > "$SEEDS/trace-text/maps" <<'TXT'
55d0c8a00000-55d0c8a01000 r--p 00000000 08:01 1234567    /usr/bin/my prog
55d0c8a01000-55d0c8a05000 r-xp 00001000 08:01 1234567    /usr/bin/my prog
55d0c8c00000-55d0c8c21000 rw-p 00000000 00:00 0          [heap]
7f0000000000-7f0000002000 r-xp 00026000 fe:00 42         /lib/libc.so.6 (deleted)
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0          [stack]
TXT

# --- GSYM, compact address tables, CTF -----------------------------------
cat > "$W/prog.c" <<'C'
struct point { int x, y; };
union u { long l; double d; };
enum color { RED, GREEN = 5 };
typedef struct point point_t;
struct node { struct node *next; point_t p; unsigned bits : 3; char name[8]; };
static inline int sq(int v) { return v * v; }
static inline int dist(const point_t *p) { return sq(p->x) + sq(p->y); }
__attribute__((noinline)) int walk(struct node *n) {
  int s = 0;
  for (; n; n = n->next)
    s += dist(&n->p) + n->bits;
  return s;
}
int (*fp)(struct node *) = walk;
const volatile enum color c = GREEN;
union u g_u;
int main(int argc, char **argv) {
  struct node n = {0, {argc, 2}, 1, "x"};
  return walk(&n) + (int)g_u.l + (argv != 0);
}
C
"$CC_FOR_SEEDS" -O2 -g -o "$W/prog" "$W/prog.c"
"$CC_FOR_SEEDS" -O0 -g -gdwarf-4 -c -o "$W/prog.o" "$W/prog.c"
for obj in prog prog.o; do
  "$DWARFPACK" gsym --format=gsym "$W/$obj" -o "$W/$obj.gsym" --quiet
  "$DWARFPACK" gsym --format=compact "$W/$obj" -o "$W/$obj.cpt" --quiet
  "$DWARFPACK" ctf "$W/$obj" -o "$W/$obj.ctf"
  "$DWARFPACK" ctf "$W/$obj" --no-compress --indexed-symbols -o "$W/$obj.plain.ctf"
done
"$DWARFPACK" ctf "$W/prog.o" --embed -o "$W/prog.emb"
# A compact table with a row stop every other row (its functions are short).
"$DWARFPACK" compare-tables --convert "$W/prog" --save-prefix "$W/prog.stops" \
  --row-stop-shift=1 > /dev/null
mv "$W/prog.stops.dpat" "$W/prog.stops.cpt"
rm -f "$W/prog.stops.gsym"
# ELF files with both sections (`pack --embed`: .ctf and the address table
# in .dwarfpack.table), the table compact and GSYM.
"$DWARFPACK" pack "$W/prog" --embed -o "$W/prog.pack.emb" --quiet
"$DWARFPACK" pack "$W/prog.o" --embed --format=gsym -o "$W/prog.o.pack.emb" --quiet
# ELF files with DWARF for fuzz-convert: both compilers, DWARF 4 and 5,
# linked and relocatable, type units, C and C++.
cat > "$W/prog.cc" <<'CC'
namespace ns {
template <typename T> struct box { T v; T get() const { return v; } };
struct base { virtual int f() const { return 1; } virtual ~base() {} };
struct derived : base { int f() const override { return 2; } };
inline int twice(int x) { return 2 * x; }
}
ns::box<long> gb = {3};
int use(const ns::base &b) { return b.f() + ns::twice(int(gb.get())); }
int main() { ns::derived d; return use(d); }
CC
cp "$W/prog" "$SEEDS/convert/clang-O2"
# fuzz-convert's partner (DWARFPACK_FUZZ_PARTNER): a module-like object
# whose types partly agree with prog.c's (point, color) and partly
# conflict (node), for the kernel pipeline over different objects.
mkdir -p "$BUILD/fuzz-partner"
cat > "$W/partner.c" <<'C'
struct point { int x, y; };
enum color { RED, GREEN = 5 };
struct node { struct node *next; long weight; enum color c; };
struct point partner_origin;
int partner_use(struct node *n, struct point *p) { return n->weight + p->x + n->c; }
C
"$CC_FOR_SEEDS" -O1 -g -c -o "$BUILD/fuzz-partner/partner.o" "$W/partner.c"
cp "$W/prog.o" "$SEEDS/convert/clang-O0-dwarf4.o"
"$CC_FOR_SEEDS" -O2 -g -gdwarf-5 -fdebug-types-section -o "$SEEDS/convert/clang-types" "$W/prog.c"
# Compressed debug sections (SHF_COMPRESSED): every context decompresses
# them first.
"$CC_FOR_SEEDS" -O2 -g -gz=zlib -o "$SEEDS/convert/clang-gz-zlib" "$W/prog.c"
"$CC_FOR_SEEDS" -O2 -g -gz=zstd -o "$SEEDS/convert/clang-gz-zstd" "$W/prog.c"
"$CC_FOR_SEEDS" -x c++ -O1 -g -fno-exceptions -c -o "$SEEDS/convert/clang-cxx.o" "$W/prog.cc"
# Relocatable objects of other machines: MIPS64's three-in-one relocation
# types, big-endian SHT_REL (MIPS) and SHT_RELA (PowerPC), BPF's SHT_REL
# read with the written value, RISC-V's add/sub and uleb128 pairs.
if [[ "$CC_FOR_SEEDS" == *clang* ]]; then
  for t in mips64el-linux-gnuabi64 mips-linux-gnu powerpc-linux-gnu bpfel \
           riscv64-linux-gnu; do
    "$CC_FOR_SEEDS" --target=$t -O2 -g -c -o "$SEEDS/convert/clang-$t.o" "$W/prog.c"
  done
fi
if command -v gcc > /dev/null; then
  gcc -O2 -g -o "$SEEDS/convert/gcc-O2" "$W/prog.c"
  # Stripped, with MiniDebugInfo (.gnu_debugdata): the xz decoder and the
  # ELF file inside.
  python3 "$SRC/test/gsym/Inputs/make-minidebuginfo.py" \
    "$SEEDS/convert/gcc-O2" "$W/gcc-O2-minidebuginfo"
  cp "$W/gcc-O2-minidebuginfo" "$SEEDS/convert/"
  gcc -O1 -g -gdwarf-4 -fdebug-types-section -c -o "$SEEDS/convert/gcc-dwarf4-types.o" "$W/prog.c"
fi
# convert-pair: each object with the partner, and a partner with type
# units (DWARF 4 .debug_types).
for f in "$SEEDS"/convert/*; do
  join_pair "$f" "$BUILD/fuzz-partner/partner.o" "$SEEDS/convert-pair/$(basename "$f")+partner"
done
if [ -f "$SEEDS/convert/gcc-dwarf4-types.o" ]; then
  join_pair "$SEEDS/convert/clang-O0-dwarf4.o" "$SEEDS/convert/gcc-dwarf4-types.o" \
    "$SEEDS/convert-pair/clang-O0-dwarf4.o+gcc-dwarf4-types.o"
fi
# Side files for fuzz-sidefile: a binary and its .dwo (split DWARF, clang,
# DWARF 5), and two gcc binaries and their dwz supplementary file. Each
# binary names its side file by path, so they stay under fuzz-sidefiles.
SIDE=$BUILD/fuzz-sidefiles
rm -rf "$SIDE" && mkdir -p "$SIDE/dwo" "$SIDE/dwp" "$SIDE/dwp4" "$SIDE/dwz"
cp "$W/prog.c" "$SIDE/dwo/"
(cd "$SIDE/dwo" && "$CC_FOR_SEEDS" -O2 -g -gdwarf-5 -gsplit-dwarf -c prog.c -o prog.o &&
  "$CC_FOR_SEEDS" prog.o -o prog)
cp "$SIDE/dwo/prog.dwo" "$SEEDS/dwo/"
join_pair "$SIDE/dwo/prog" "$SIDE/dwo/prog.dwo" "$SEEDS/dwo-pair/prog+prog.dwo"
# Packages: two units, with type units, in a DWARF 5 .dwp (cu and tu index
# version 5) and a DWARF 4 one (GNU index version 2); no .dwo stays beside
# them, so the package is what the loader finds.
cat > "$W/lib.c" <<'C'
struct pair { long key; struct pair *next; };
struct pair *find(struct pair *p, long key) {
  while (p && p->key != key) p = p->next;
  return p;
}
C
for v in 5 4; do
  d=$SIDE/dwp$([ $v = 5 ] || echo 4)
  cp "$W/prog.c" "$W/lib.c" "$d/"
  (cd "$d" && "$CC_FOR_SEEDS" -O2 -g -gdwarf-$v -gsplit-dwarf -fdebug-types-section \
      -c prog.c lib.c && "$CC_FOR_SEEDS" prog.o lib.o -o prog &&
    llvm-dwp-19 -e prog -o prog.dwp && rm prog.dwo lib.dwo)
  cp "$d/prog.dwp" "$SEEDS/$(basename "$d")/"
  join_pair "$d/prog" "$d/prog.dwp" "$SEEDS/$(basename "$d")-pair/prog+prog.dwp"
done
if command -v gcc > /dev/null && command -v dwz > /dev/null; then
  cat > "$SIDE/dwz/one.c" <<'C'
struct config { int level; const char *name; struct config *parent; };
static inline int depth(struct config *c) {
  int d = 0;
  while (c) { d++; c = c->parent; }
  return d;
}
struct config root_config = {1, "root", 0};
__attribute__((noinline)) int use_config(struct config *c) { return depth(c) + c->level; }
int main(int argc, char **argv) {
  struct config c = {argc, argv[0], &root_config};
  return use_config(&c);
}
C
  sed 's/root/other/g; s/depth(c) + c->level/depth(c) * c->level/' "$SIDE/dwz/one.c" > "$SIDE/dwz/two.c"
  (cd "$SIDE/dwz" && gcc -O2 -g one.c -o one && gcc -O2 -g two.c -o two &&
    dwz -m common.debug -M common.debug one two)
  cp "$SIDE/dwz/common.debug" "$SEEDS/dwz/"
  # Both binaries use the file; fuzz-sidefile names either DWARFPACK_FUZZ_MAIN.
  for b in one two; do
    join_pair "$SIDE/dwz/$b" "$SIDE/dwz/common.debug" "$SEEDS/dwz-pair/$b+common.debug"
  done
fi
# Line tables for fuzz-line-table: the .debug_line of the objects above
# (clang and gcc, DWARF 4 and 5, linked and relocatable, type units), of
# 64-bit DWARF and of the assembler's tables from .loc, each after an
# options byte (address size 8 or unknown; the first table or the second).
"$CC_FOR_SEEDS" -O2 -g -gdwarf-5 -gdwarf64 -c -o "$W/prog64.o" "$W/prog.c"
printf '.file 1 "/s" "a.c"\n.file 2 "/s/i" "b.h"\nf:\n.loc 1 3 1\nnop\n.loc 2 9 4 is_stmt 0\nnop\n.loc 1 4 2 discriminator 3\nret\n' > "$W/loc.s"
for v in 3 4 5; do
  llvm-mc-19 -filetype=obj -triple=x86_64-pc-linux -dwarf-version=$v "$W/loc.s" -o "$W/loc$v.o"
done
for obj in "$SEEDS"/convert/* "$W/prog64.o" "$W"/loc*.o; do
  objcopy --dump-section .debug_line="$W/line" "$obj" "$W/line.scratch" 2>/dev/null || continue
  for flags in 2 0 10; do
    if [ "$(wc -c < "$W/line")" -le 8000 ]; then
      { printf "\\x$(printf %02x "$flags")"; cat "$W/line"; } > "$SEEDS/line-table/$(basename "$obj")-$flags"
    fi
  done
done

# A build-id note, as /sys/module/*/notes/.note.gnu.build-id shows it.
objcopy --dump-section .note.gnu.build-id="$SEEDS/readers/build-id.note" \
  "$W/prog" "$W/prog.scratch"
# Archives: ours (kernel module mode) and, when gcc has -gctf, GCC's dicts
# and the archive ld makes of two units that disagree on a struct.
printf 'struct conflict { int a; };\nstruct conflict ga;\nint fa(struct conflict *p) { return p->a; }\n' > "$W/a.c"
printf 'struct conflict { long a, b; };\nstruct conflict gb;\nint fb(struct conflict *p) { return p->a; }\n' > "$W/b.c"
"$CC_FOR_SEEDS" -g -c "$W/a.c" -o "$W/a.o"
"$CC_FOR_SEEDS" -g -c "$W/b.c" -o "$W/b.o"
"$DWARFPACK" ctf -o "$W/kout" --archive "$W/kernel.ctf" "$W/a.o" "$W/b.o" > /dev/null
cp "$W"/kout/*.ctf "$W/"
if gcc -gctf -c "$W/a.c" -o "$W/a-gcc.o" 2>/dev/null &&
  gcc -gctf -c "$W/b.c" -o "$W/b-gcc.o" && ld -r "$W/a-gcc.o" "$W/b-gcc.o" -o "$W/ab-gcc.o"; then
  objcopy --dump-section .ctf="$W/a-gcc.ctf" "$W/a-gcc.o"
  objcopy --dump-section .ctf="$W/ab-gcc.ctf" "$W/ab-gcc.o"
  cp "$W/ab-gcc.o" "$W/ab-gcc.emb"
fi

# A slice of a real Breakpad file: its header, the first functions with
# their records, some PUBLIC and STACK records; plus the hand-made ones the
# lit tests use.
cp "$SRC"/test/breakpad/Inputs/*.sym "$SEEDS/breakpad/"
if [ -f "$BREAKPAD_SYM" ]; then
  python3 - "$BREAKPAD_SYM" "$SEEDS/breakpad/sqlite-slice.sym" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
out, funcs, publics, stacks = [], 0, 0, 0
files = origins = 0
infunc = False
for l in lines:
    k = l.split(" ", 1)[0]
    if k in ("MODULE", "INFO"):
        out.append(l)
    elif k == "FILE" and files < 40:
        files += 1; out.append(l)
    elif k == "INLINE_ORIGIN" and origins < 40:
        origins += 1; out.append(l)
    elif k == "FUNC":
        infunc = funcs < 6
        funcs += 1
        if infunc: out.append(l)
    elif k == "PUBLIC" and publics < 4:
        publics += 1; out.append(l); infunc = False
    elif k == "STACK" and stacks < 4:
        stacks += 1; out.append(l); infunc = False
    elif infunc and k not in ("FILE", "INLINE_ORIGIN", "PUBLIC", "STACK"):
        out.append(l)
open(sys.argv[2], "w").write("\n".join(out)[:8000] + "\n")
PY
fi
for s in "$SEEDS"/breakpad/*.sym; do
  b=$(basename "$s" .sym)
  "$DWARFPACK" gsym --format=gsym "$s" -o "$W/$b.sym.gsym" --quiet 2>/dev/null || true
  "$DWARFPACK" gsym --format=compact "$s" -o "$W/$b.sym.cpt" --quiet 2>/dev/null || true
done
cp "$W"/*.gsym "$SEEDS/gsym/"
cp "$W"/*.cpt "$SEEDS/compact/"
cp "$W"/*.ctf "$SEEDS/ctf/"
cp "$W"/*.gsym "$W"/*.cpt "$W"/*.ctf "$W"/*.emb "$SEEDS/readers/"

# Token tables: every "DPTK" table inside the tables written above, with
# the bytes after it (names, as readName reads them).
python3 - "$SEEDS/token" "$W"/*.dpk "$W"/*.cpt <<'PY'
import os, sys
n = 0
for path in sys.argv[2:]:
    d = open(path, "rb").read()
    i = d.find(b"DPTK")
    while i >= 0:
        open(os.path.join(sys.argv[1], "%s-%d" % (os.path.basename(path), i)), "wb").write(d[i:i + 8192])
        n += 1
        i = d.find(b"DPTK", i + 1)
print("token seeds:", n)
PY
rm -rf "$W"
RUN_TARGETS=()
for t in "${TARGETS[@]}"; do
  if [ -z "$(ls "$SEEDS/$t")" ]; then
    echo "no seeds for $t (gcc or dwz missing): skipped"
    continue
  fi
  RUN_TARGETS+=("$t")
  echo "seeds for $t: $(ls "$SEEDS/$t" | wc -l) files, largest $(wc -c "$SEEDS/$t"/* | sort -n | tail -2 | head -1 | awk '{print $1}') bytes"
done

# --- Campaigns ------------------------------------------------------------
for ((round = 1; round <= ROUNDS; round++)); do
  for t in "${RUN_TARGETS[@]}"; do
    corpus=$BUILD/fuzz-corpus/$t
    binary=$BUILD/bin/fuzz-$t
    # The pair modes take the same setting as the target they extend.
    export DWARFPACK_FUZZ_PAIR=0
    case $t in
      *-pair)
        export DWARFPACK_FUZZ_PAIR=1
        ;;
    esac
    case ${t%-pair} in
      dwo)
        binary=$BUILD/bin/fuzz-sidefile
        export DWARFPACK_FUZZ_MAIN=$SIDE/dwo/prog DWARFPACK_FUZZ_SIDE=$SIDE/dwo/prog.dwo
        ;;
      convert)
        binary=$BUILD/bin/fuzz-convert
        export DWARFPACK_FUZZ_PARTNER=$BUILD/fuzz-partner/partner.o
        ;;
      dwp | dwp4)
        binary=$BUILD/bin/fuzz-sidefile
        export DWARFPACK_FUZZ_MAIN=$SIDE/${t%-pair}/prog DWARFPACK_FUZZ_SIDE=$SIDE/${t%-pair}/prog.dwp
        ;;
      dwz)
        binary=$BUILD/bin/fuzz-sidefile
        export DWARFPACK_FUZZ_MAIN=$SIDE/dwz/one DWARFPACK_FUZZ_SIDE=$SIDE/dwz/common.debug
        ;;
    esac
    art=$BUILD/fuzz-artifacts/$t
    mkdir -p "$corpus" "$art"
    echo "=== round $round: fuzz-$t for ${SECONDS_PER}s"
    # Not -fork or -jobs>1: the machine is shared, one process at a time.
    set +e
    "$binary" "$corpus" "$SEEDS/$t" -max_len="$(max_len "$t")" \
      -timeout=10 -rss_limit_mb=2048 -max_total_time="$SECONDS_PER" \
      -artifact_prefix="$art/" -print_final_stats=1 ${FUZZ_ARGS:-} \
      2>&1 | tee "$BUILD/fuzz-$t.r$round.log" |
      grep -aE '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|fuzz invariant)'
    status=${PIPESTATUS[0]}
    set -e
    [ "$status" -eq 0 ] || echo "fuzz-$t stopped with status $status: see $BUILD/fuzz-$t.r$round.log and $art"
  done
done
