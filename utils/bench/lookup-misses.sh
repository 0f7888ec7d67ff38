#!/usr/bin/env bash
# Where the time of a random lookup goes, for both readers of
# lookup-bench.sh: valgrind's cachegrind counts, per lookup, the
# instructions, the data reads, and the data read misses of a simulated
# L1 (48 KiB), L2 (1 MiB, this host's) and shared cache (LL_BYTES, default
# 16 MiB), for LLVM's GsymReader on the GSYM file and for
# CompactReader::lookupFrames on the compact table that lookup-bench.sh
# wrote (run it first). Each figure is the difference between a run of
# SMALL and one of LARGE addresses (100,000 and 300,000), divided by the
# difference, so that opening the tables and drawing the addresses cancel
# out. Then the functions with the most L2 read misses per lookup, for
# each reader.
#
# The counts are simulated (no prefetching, no overlap of misses), but
# they tell what the thread CPU times of lookup-bench.sh cannot: how many
# cache lines a lookup needs from beyond L2, which bounds how fast it can
# be once the instructions are few.
#
# usage: utils/bench/lookup-misses.sh [INPUT]   (default: vmlinux)
# Environment: DWARFPACK (its directory holds dwarfpack-lookup-bench),
# LL_BYTES, SMALL, LARGE, TOP (functions listed, 8).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${DWARFPACK:-$root/build/bin/dwarfpack}")
bench=$(dirname "$bin")/dwarfpack-lookup-bench
work=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}/lookup
name=${1:-vmlinux}
small=${SMALL:-100000} large=${LARGE:-300000} ll=${LL_BYTES:-16777216}
command -v valgrind >/dev/null ||
  { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
for f in "$work/$name.dpat" "$work/$name.gsym" "$bench"; do
  [ -e "$f" ] || { echo "$f is missing: run utils/bench/lookup-bench.sh $name first" >&2; exit 1; }
done

# count READER N LL OUT: the totals cachegrind prints, as "Ir Dr D1mr LLmr".
count() {
  valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 \
    --LL="$3,16,64" --cachegrind-out-file="$4" \
    "$bench" "$work/$name.dpat" "$work/$name.gsym" --addresses "$2" \
    --runs 1 --only "$1" 2>&1 >/dev/null |
    awk '/ I *refs:/ {ir=$4} / D *refs:/ {dr=$4} / D1 *misses:/ {d1=$4}
         / LLd *misses:/ {ll=$4} END {gsub(",", "", ir); gsub(",", "", dr);
         gsub(",", "", d1); gsub(",", "", ll); print ir, dr, d1, ll}'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== $name: per lookup, from runs of $small and $large addresses"
printf '  %-10s %12s %10s %10s %10s %10s\n' reader instructions "data reads" \
  "L1 misses" "L2 misses" "LL misses"
for reader in llvm frames; do
  read -r i1 r1 a1 b1 <<< "$(count $reader "$small" 1048576 /dev/null)"
  read -r i2 r2 a2 b2 <<< "$(count $reader "$large" 1048576 "$tmp/$reader.l2")"
  read -r _ _ _ c1 <<< "$(count $reader "$small" "$ll" /dev/null)"
  read -r _ _ _ c2 <<< "$(count $reader "$large" "$ll" /dev/null)"
  awk -v r="$reader" -v n=$((large - small)) \
    -v i=$((i2 - i1)) -v d=$((r2 - r1)) -v a=$((a2 - a1)) -v b=$((b2 - b1)) \
    -v c=$((c2 - c1)) 'BEGIN { printf "  %-10s %12.0f %10.0f %10.2f %10.2f %10.2f\n",
      r, i / n, d / n, a / n, b / n, c / n }'
done
for reader in llvm frames; do
  echo "  -- $reader: the functions with the most L2 read misses per lookup ($large lookups)"
  cg_annotate --show=DLmr --sort=DLmr "$tmp/$reader.l2" 2>/dev/null |
    awk -v n="$large" -v top="${TOP:-8}" '
      /file:function/ { on = 1; next }
      on && /^ *[0-9,]+ / && shown < top {
        v = $1; gsub(",", "", v); sub(/^ *[0-9,]+ +(\([ 0-9.%]+\) +)?/, "")
        gsub(/\(anonymous namespace\)/, "{anon}"); sub(/\(.*/, "")
        sub(/^[^:]*\//, ""); printf "    %6.2f  %s\n", v / n, $0; shown++ }'
done
