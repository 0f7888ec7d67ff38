#!/usr/bin/env bash
# CTF benchmark on the Debian 6.1 cloud vmlinux (docs/CTF.md, issue 4).
#
#   utils/bench/ctf-bench.sh [--threads N] [--repeat N] [--gdb-sample N]
#                            [--out DIR]
#
# In one run, on the same machine state:
#   1. pahole -J -jN --btf_encode_detached (the reference), /usr/bin/time -v
#   2. dwarfpack ctf --num-threads N, /usr/bin/time -v; also --no-compress
#      (with --repeat N, 1 and 2 alternate N times: the table then shows
#      each tool's best run and the range of its wall times, with the load
#      average before each pair)
#   3. wall-time, peak-RSS and size ratios against pahole/BTF
#   4. type counts by kind beside BTF's, and every struct/union layout
#      compared with pahole's BTF (ctf-layout-compare.py)
#   5. objdump --ctf (libctf) reads the dict
#   6. with --gdb-sample N: GDB ptype of N random named types, vmlinux with
#      DWARF against a small ELF that carries only our .ctf (slow: GDB needs
#      about a minute to index vmlinux's DWARF)
# The kernel is fetched on demand by fetch-inputs.sh (never committed).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
threads=2
repeat=1
gdb_sample=0
out=${TMPDIR:-/tmp}/dwarfpack-ctf-bench
while [ $# -gt 0 ]; do
  case "$1" in
  --threads) threads=$2; shift 2 ;;
  --repeat) repeat=$2; shift 2 ;;
  --gdb-sample) gdb_sample=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "usage: $0 [--threads N] [--repeat N] [--gdb-sample N] [--out DIR]" >&2; exit 2 ;;
  esac
done
dwarfpack=${DWARFPACK:-$top/build/bin/dwarfpack}
vmlinux=$("$top/utils/bench/fetch-inputs.sh" --print | awk '$1 == "vmlinux" {print $2}')
if [ -z "$vmlinux" ]; then
  "$top/utils/bench/fetch-inputs.sh" >&2
  vmlinux=$("$top/utils/bench/fetch-inputs.sh" --print | awk '$1 == "vmlinux" {print $2}')
fi
mkdir -p "$out"
echo "input: $vmlinux"
echo "threads: $threads; load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"

# Prints "wall_s user_s sys_s maxrss_kib" of a command run under time -v.
measure() {
  local log=$1; shift
  /usr/bin/time -v "$@" > "$log.out" 2> "$log.time"
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = 0;
      for (i = 1; i <= n; i++) w = w * 60 + t[i] }
    /User time/ { u = $2 } /System time/ { s = $2 }
    /Maximum resident set size/ { m = $2 }
    END { printf "%.2f %.2f %.2f %d\n", w, u, s, m }' "$log.time"
}

# Alternating runs; each tool's best (lowest wall) run is kept.
p_walls=() d_walls=()
for ((run = 1; run <= repeat; run++)); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  read -r w u sy r < <(measure "$out/pahole" \
    pahole -J -j"$threads" --btf_encode_detached="$out/vmlinux.btf" "$vmlinux")
  p_walls+=("$w")
  if [ "$run" = 1 ] || awk -v a="$w" -v b="$p_wall" 'BEGIN { exit !(a < b) }'; then
    p_wall=$w p_user=$u p_sys=$sy p_rss=$r
  fi
  read -r w u sy r < <(measure "$out/dwarfpack" \
    "$dwarfpack" ctf "$vmlinux" -o "$out/vmlinux.ctf" --num-threads "$threads" --stats)
  d_walls+=("$w")
  if [ "$run" = 1 ] || awk -v a="$w" -v b="$d_wall" 'BEGIN { exit !(a < b) }'; then
    d_wall=$w d_user=$u d_sys=$sy d_rss=$r
  fi
  if [ "$repeat" -gt 1 ]; then
    echo "run $run (load $load): pahole ${p_walls[-1]} s, dwarfpack ${d_walls[-1]} s"
  fi
done
if [ "$repeat" -gt 1 ]; then
  range() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd- ; }
  echo "wall range over $repeat runs: pahole $(range "${p_walls[@]}") s," \
    "dwarfpack $(range "${d_walls[@]}") s; best-to-best ratio below"
fi
"$dwarfpack" ctf "$vmlinux" -o "$out/vmlinux-plain.ctf" --no-compress \
  --num-threads "$threads" 2>/dev/null
btf_size=$(stat -c %s "$out/vmlinux.btf")
ctf_size=$(stat -c %s "$out/vmlinux.ctf")
plain_size=$(stat -c %s "$out/vmlinux-plain.ctf")

echo
echo "| | pahole -J -j$threads (BTF) | dwarfpack ctf --num-threads $threads | ratio |"
echo "|---|---|---|---|"
awk -v pw="$p_wall" -v dw="$d_wall" -v pu="$p_user" -v du="$d_user" \
    -v ps="$p_sys" -v ds="$d_sys" -v pr="$p_rss" -v dr="$d_rss" \
    -v b="$btf_size" -v c="$ctf_size" -v u="$plain_size" 'BEGIN {
  printf "| wall | %.2f s | %.2f s | %.2f |\n", pw, dw, dw / pw
  printf "| user+sys CPU | %.2f s | %.2f s | %.2f |\n", pu + ps, du + ds, (du + ds) / (pu + ps)
  printf "| peak RSS | %.0f MiB | %.0f MiB | %.2f |\n", pr / 1024, dr / 1024, dr / pr
  printf "| size (BTF / uncompressed CTF) | %d | %d | %.3f |\n", b, u, u / b
  printf "| size (BTF / zlib CTF) | %d | %d | %.3f |\n", b, c, c / b
}'
echo
sed -n 's/^/    /p' "$out/dwarfpack.out"
grep 'warning:' "$out/dwarfpack.time" | sed 's/^/    /' || true
echo
python3 "$top/utils/bench/ctf-layout-compare.py" "$out/vmlinux.btf" "$out/vmlinux.ctf" || true

# libctf reads the dict (objdump needs an ELF around it).
printf 'int x;\n' > "$out/carrier.c"
gcc -c -o "$out/carrier.o" "$out/carrier.c"
llvm-objcopy --add-section .ctf="$out/vmlinux.ctf" "$out/carrier.o" "$out/vmlinux-ctf.o"
if objdump --ctf "$out/vmlinux-ctf.o" > "$out/objdump.txt" 2> "$out/objdump.err" &&
   ! grep -qi 'error\|warning' "$out/objdump.err"; then
  echo "objdump --ctf: read $(grep -c '^    0x' "$out/objdump.txt") type lines, no error"
else
  echo "objdump --ctf: FAILED"; head "$out/objdump.err"
fi

if [ "$gdb_sample" -gt 0 ]; then
  python3 - "$out/vmlinux.ctf" "$gdb_sample" > "$out/gdb-cmds.txt" <<'EOF'
import random, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
f = struct.unpack_from("<12I", data, 4)
body = zlib.decompress(data[52:]) if data[3] & 1 else data[52:]
types, strs = body[f[9]:f[10]], body[f[10]:f[10] + f[11]]
name = lambda o: strs[o:strs.index(b"\0", o)].decode()
seen, off = {}, 0
vl = {1: lambda v: 4, 2: lambda v: 4, 4: lambda v: 12,
      5: lambda v: 4 * (v + (v & 1)), 6: lambda v: 12 * v,
      7: lambda v: 12 * v, 8: lambda v: 8 * v, 14: lambda v: 8}
prefix = {6: "struct ", 7: "union ", 8: "enum ", 10: ""}
while off < len(types):
    n, info, size = struct.unpack_from("<III", types, off)
    off += 12
    if size == 0xFFFFFFFF:
        off += 8
    kind, vlen = info >> 26, info & 0xFFFFFF
    off += vl.get(kind, lambda v: 0)(vlen)
    if kind in prefix and n:
        key = prefix[kind] + name(n)
        seen[key] = seen.get(key, 0) + 1
# Names with one definition only: for the others GDB may pick any.
names = sorted(k for k, c in seen.items() if c == 1)
random.seed(4)
for k in random.sample(names, min(int(sys.argv[2]), len(names))):
    print(f"echo ==== {k}\\n")
    print(f"ptype {k}")
EOF
  gdb -batch -nx -iex 'set debuginfod enabled off' -x "$out/gdb-cmds.txt" \
    "$vmlinux" > "$out/gdb-dwarf.txt" 2>&1 || true
  gdb -batch -nx -iex 'set debuginfod enabled off' -x "$out/gdb-cmds.txt" \
    "$out/vmlinux-ctf.o" > "$out/gdb-ctf.txt" 2>&1 || true
  python3 - "$out/gdb-dwarf.txt" "$out/gdb-ctf.txt" <<'EOF'
import sys
def split(path):
    out, cur = {}, None
    for line in open(path, errors="replace"):
        if line.startswith("==== "):
            cur = line[5:].strip(); out[cur] = []
        elif cur:
            out[cur].append(line)
    return out
a, b = split(sys.argv[1]), split(sys.argv[2])
diff = [k for k in a if a[k] != b.get(k)]
print(f"gdb ptype sample: {len(a)} types, identical {len(a) - len(diff)}, "
      f"different {len(diff)}")
for k in diff[:10]:
    print(f"  differs: {k}")
EOF
fi
