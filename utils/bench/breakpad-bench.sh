#!/usr/bin/env bash
# Breakpad input benchmark and cross-check.
#
# 1. Rebuilds the binary that ../shared/data/breakpad/sqlite-gcc.sym was
#    dumped from (SQLite amalgamation from the npm package
#    better-sqlite3@12.11.1, gcc -O2 -g; see that directory's README.md) and
#    checks its build-id against the .sym's INFO CODE_ID.
# 2. Converts the .sym and the binary's DWARF to GSYM (--format=gsym
#    throughout: step 3b parses the GSYM dump) and looks the same
#    addresses up in both (every FUNC start, every line-record boundary and
#    random addresses, from the reference resolver), reporting how often the
#    function, the file:line and the inline frames agree. They need not agree
#    everywhere: dump_syms writes .cold parts as PUBLIC records and far fewer
#    INLINE records than the DWARF has (2,424 vs ~10,500 inlined calls here),
#    so the DWARF-derived lookups often have more frames; the .sym-derived
#    lookups are checked exactly against the .sym (0 mismatches expected) by
#    the reference resolver, here and in test/breakpad/sqlite-reference.test.
# 3. Times the conversion of kernel-sized .sym files (46 MB goal: <= 1.5 s).
#    We have no Breakpad dump_syms here (it needs linux-syscall-support, which
#    Debian lacks), so we make them ourselves:
#    a. the sqlite .sym repeated at shifted addresses by
#       utils/bench/scale-breakpad-sym.py (19 copies, ~47 MB, with the STACK
#       CFI records dump_syms writes);
#    b. when the Debian kernel debug package is unpacked
#       ($DWARFPACK_BENCH_ROOT/vmlinux), a .sym of the real kernel written
#       from `dwarfpack dump` of its DWARF-derived GSYM by
#       utils/bench/gsym-to-breakpad-sym.py (FUNC, line, INLINE records, no
#       STACK records; ~34 MB), also checked against the reference resolver
#       at 30,000 random addresses.
#
# usage: utils/bench/breakpad-bench.sh [build/bin/dwarfpack]
# Work files go to $DWARFPACK_BENCH_DIR (default /var/tmp/dwarfpack-bench/breakpad).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/build/bin/dwarfpack}")
data=${DWARFPACK_SHARED:-$root/../shared}/data/breakpad
[ -d "$data" ] || data=/work/shared/data/breakpad
sym=$data/sqlite-gcc.sym
work=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench/breakpad}
ref=$root/test/breakpad/Inputs/breakpad_ref.py
mkdir -p "$work"
cd "$work"

echo "== 1. rebuild sqlite-gcc from public sources"
if [ ! -x src/sqlite-gcc ]; then
  [ -f better-sqlite3-12.11.1.tgz ] || npm pack better-sqlite3@12.11.1 >/dev/null
  rm -rf src && mkdir src
  tar xzf better-sqlite3-12.11.1.tgz -C src \
    package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
  mv src/package/deps/sqlite3/* src/ && rm -rf src/package
  echo "60d2f39a3726cd6b9021da6f4e868608d66fbb6528a9f513dc8ffcc640493422  src/sqlite3.c" |
    sha256sum -c --quiet
  cp "$data/sqlite_main.c" src/shell_main.c
  (cd src && gcc -O2 -g -fdebug-prefix-map="$PWD"=/src shell_main.c sqlite3.c \
    -o sqlite-gcc -lm)
fi
want=$(awk '$1 == "INFO" && $2 == "CODE_ID" {print tolower($3); exit}' "$sym")
have=$(readelf -n src/sqlite-gcc | awk '/Build ID/ {print $3}')
echo "build-id $have (.sym says $want)"
[ "$want" = "$have" ] || { echo "error: build-id differs; not the same binary" >&2; exit 1; }

echo "== 2. .sym-derived vs DWARF-derived lookups"
"$bin" gsym --format=gsym "$sym" -o sym.gsym
"$bin" gsym --format=gsym src/sqlite-gcc -o dwarf.gsym
python3 "$ref" addresses "$sym" --random 5000 --seed 7 > addrs.txt
echo "$(wc -l < addrs.txt) addresses"
"$bin" lookup --output-style=JSON sym.gsym < addrs.txt > sym.json
"$bin" lookup --output-style=JSON dwarf.gsym < addrs.txt > dwarf.json
llvm-symbolizer-19 --output-style=JSON --obj=src/sqlite-gcc < addrs.txt > symbolizer.json
python3 "$ref" check "$sym" addrs.txt sym.json | tail -n 1
python3 - "$ref" addrs.txt sym.json dwarf.json symbolizer.json <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
addrs = open(sys.argv[2]).read().split()
load = lambda p: [ref.frames_from_json(o) for o in ref.read_json_values(open(p).read())]
sym = load(sys.argv[3])
for label, path in (("dwarfpack DWARF gsym", sys.argv[4]), ("llvm-symbolizer", sys.argv[5])):
    other = load(path)
    n = len(addrs)
    fn = sum(1 for a, b in zip(sym, other) if a and b and a[-1][0] == b[-1][0])
    inner = sum(1 for a, b in zip(sym, other) if a and b and a[0][:3] == b[0][:3])
    full = sum(1 for a, b in zip(sym, other) if [f[:3] for f in a] == [f[:3] for f in b])
    depth = sum(1 for a, b in zip(sym, other) if len(a) == len(b))
    pct = lambda k: "%d (%.2f %%)" % (k, 100.0 * k / n)
    print("%s vs .sym over %d addresses:" % (label, n))
    print("  same outermost function       %s" % pct(fn))
    print("  same innermost name:file:line %s" % pct(inner))
    print("  same number of frames         %s" % pct(depth))
    print("  all frames identical          %s" % pct(full))
EOF

echo "== 3a. conversion time of a large .sym (load average: $(cut -d" " -f1-3 /proc/loadavg))"
[ -f big.sym ] || python3 "$here/scale-breakpad-sym.py" "$sym" big.sym 19
echo "big.sym: $(du -m big.sym | cut -f1) MB, $(grep -c '^FUNC' big.sym) FUNC records"
cat big.sym > /dev/null # page cache
for run in 1 2 3; do
  /usr/bin/time -f "run $run: %e s wall, %U s user + %S s sys CPU, %M KB max RSS" \
    "$bin" gsym --format=gsym big.sym -o big.gsym
done
ls -l big.gsym | awk '{print "big.gsym: " $5 " bytes"}'
"$bin" gsym --format=gsym big.sym -o big.gsym --stats | grep -E '^records:|^wall time:'

vmlinux=${DWARFPACK_BENCH_ROOT:-/var/tmp/dwarfpack-bench}/vmlinux
if [ -e "$vmlinux" ]; then
  echo "== 3b. a .sym of the kernel (from its DWARF, via dwarfpack gsym + dump)"
  if [ ! -f vmlinux.sym ]; then
    "$bin" gsym --format=gsym --quiet "$vmlinux" -o vmlinux.gsym
    "$bin" dump vmlinux.gsym | python3 "$here/gsym-to-breakpad-sym.py" vmlinux vmlinux.sym
  fi
  echo "vmlinux.sym: $(du -m vmlinux.sym | cut -f1) MB, $(grep -c '^FUNC' vmlinux.sym) FUNC, $(grep -c '^INLINE ' vmlinux.sym) INLINE records"
  cat vmlinux.sym > /dev/null
  for run in 1 2 3; do
    /usr/bin/time -f "run $run: %e s wall, %U s user + %S s sys CPU, %M KB max RSS" \
      "$bin" gsym --format=gsym vmlinux.sym -o vmlinux-sym.gsym
  done
  "$bin" gsym --format=gsym vmlinux.sym -o vmlinux-sym.gsym --stats | grep -E '^records:|^wall time:|^output bytes:'
  python3 "$ref" addresses vmlinux.sym --random 30000 --only-random > k.addrs
  "$bin" lookup --output-style=JSON vmlinux-sym.gsym < k.addrs > k.json
  python3 "$ref" check vmlinux.sym k.addrs k.json | tail -n 1
else
  echo "== 3b. skipped: no $vmlinux (utils/bench/fetch-inputs.sh unpacks it)"
fi
