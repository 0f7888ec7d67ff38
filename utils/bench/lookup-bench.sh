#!/usr/bin/env bash
# Lookup speed of the compact reader against LLVM 19's own GsymReader
# (issue 32, item 6), in one process over the same addresses: for each
# input, `dwarfpack gsym` writes the compact table and, with
# --format=gsym, GSYM of the same content; llvm-gsymutil --convert writes
# LLVM's own GSYM; dwarfpack-lookup-bench (lookup-bench.cpp, built against
# llvm-19-dev) then times LLVM's GsymReader::lookup on each GSYM file and
# CompactReader::lookupFrames on the compact table (1,000,000 addresses:
# a uniform function, then a uniform offset in it; every frame's name,
# file and line consumed; best of alternating runs, thread CPU time), and
# prints ns/lookup and the ratios; then the same for the compact table
# without details (--no-details), which holds what GSYM holds (no columns,
# discriminators or declarations). It also prints the sizes (compact, with
# and without details, against llvm-gsymutil's GSYM).
#
# usage: utils/bench/lookup-bench.sh [INPUT...]   (default: vmlinux)
#   INPUT: vmlinux, sqlite-gcc, sqlite-clang, dwarfpack
# Environment: BENCH_ADDRESSES (1000000), BENCH_RUNS (3), BENCH_SEED (1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${DWARFPACK:-$root/build/bin/dwarfpack}")
bench=$(dirname "$bin")/dwarfpack-lookup-bench
gsymutil=/usr/lib/llvm-19/bin/llvm-gsymutil
work=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}/lookup
mkdir -p "$work"

inputs=("$@")
bash "$here/host.sh"
[ ${#inputs[@]} -gt 0 ] || inputs=(vmlinux)

for name in "${inputs[@]}"; do
  input=$("$here/fetch-inputs.sh" --print | awk -v n="$name" '$1 == n { print $2 }')
  if [ -z "$input" ] || [ ! -e "$input" ]; then
    echo "== $name: input not available (utils/bench/fetch-inputs.sh), skipped"
    continue
  fi
  echo "== $name: $input"
  "$bin" gsym --quiet "$input" -o "$work/$name.dpat"
  "$bin" gsym --quiet --no-details "$input" -o "$work/$name.plain.dpat"
  "$bin" gsym --quiet --format=gsym "$input" -o "$work/$name.gsym"
  "$gsymutil" --convert "$input" -o "$work/$name.llvm.gsym" --quiet > /dev/null 2>&1
  size() { stat -c %s "$1"; }
  llvm=$(size "$work/$name.llvm.gsym")
  for t in dpat plain.dpat gsym; do
    s=$(size "$work/$name.$t")
    printf '  %-24s %10d bytes  %.3f of llvm-gsymutil'"'"'s %d\n' \
      "$name.$t" "$s" "$(echo "$s / $llvm" | bc -l)" "$llvm"
  done
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  readers() { # compact table, GSYM file
    "$bench" "$work/$1" "$work/$2" --addresses "${BENCH_ADDRESSES:-1000000}" \
      --runs "${BENCH_RUNS:-3}" --seed "${BENCH_SEED:-1}" | sed 's/^/  /'
  }
  for g in gsym llvm.gsym; do
    echo "  -- LLVM's GsymReader on $name.$g"
    readers "$name.dpat" "$name.$g"
  done
  # GSYM has no columns, discriminators or declarations: the table
  # without details is the one of the same content.
  echo "  -- the same, the compact table without details ($name.plain.dpat)"
  readers "$name.plain.dpat" "$name.gsym"
done

# Batch symbolization through the CLIs (issue 32, item 6): the same
# BENCH_CLI_ADDRESSES (1,000,000) addresses of the last input's functions
# (a uniform function symbol, then a uniform offset in it), `dwarfpack lookup
# --obj=TABLE --output-style=JSON` against `llvm-gsymutil
# --addresses-from-stdin` on LLVM's GSYM, each writing to a file; best wall
# and user time of BENCH_RUNS alternating runs.
cli_bench() {
  local name=$1 input=$2 n=${BENCH_CLI_ADDRESSES:-1000000}
  /usr/lib/llvm-19/bin/llvm-nm -S --defined-only "$input" |
    python3 -c '
import random, sys
n, seed, gsym = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
fns = []
for line in sys.stdin:
    f = line.split()
    if len(f) == 4 and f[2] in "tTwW" and int(f[1], 16) > 0:
        fns.append((int(f[0], 16), int(f[1], 16)))
rng = random.Random(seed)
with open(sys.argv[4], "w") as ours, open(sys.argv[5], "w") as theirs:
    for _ in range(n):
        start, size = fns[rng.randrange(len(fns))]
        a = "0x%x" % (start + rng.randrange(size))
        ours.write(a + "\n")
        theirs.write(a + " " + gsym + "\n")
' "$n" "${BENCH_SEED:-1}" "$work/$name.llvm.gsym" "$work/$name.addrs" \
      "$work/$name.gsymutil-addrs"
  echo "== $name: $n addresses through the CLIs"
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  local best_ours=999999 best_llvm=999999 t
  for _ in $(seq "${BENCH_RUNS:-3}"); do
    t=$( { /usr/bin/time -f '%e %U' "$bin" lookup --obj="$work/$name.dpat" \
      --output-style=JSON < "$work/$name.addrs" > "$work/$name.out.json"; } 2>&1)
    echo "  dwarfpack lookup:      wall ${t% *} s, user ${t#* } s"
    best_ours=$(echo "if (${t% *} < $best_ours) ${t% *} else $best_ours" | bc -l)
    t=$( { /usr/bin/time -f '%e %U' "$gsymutil" --addresses-from-stdin \
      < "$work/$name.gsymutil-addrs" > "$work/$name.out.gsymutil"; } 2>&1)
    echo "  llvm-gsymutil:         wall ${t% *} s, user ${t#* } s"
    best_llvm=$(echo "if (${t% *} < $best_llvm) ${t% *} else $best_llvm" | bc -l)
  done
  printf '  best wall: ours %s s, llvm-gsymutil %s s, ratio %.3f\n' \
    "$best_ours" "$best_llvm" "$(echo "$best_ours / $best_llvm" | bc -l)"
}
[ -z "${input:-}" ] || [ ! -e "$input" ] || cli_bench "$name" "$input"
