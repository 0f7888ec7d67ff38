#!/usr/bin/env bash
# Kernel symbol tables: size per symbol, lookup speed, build time and round
# trip of both formats on real inputs (never committed, fetched on demand).
#
#   utils/bench/kallsyms-bench.sh [--lookups N] [--builds N] [--candidates]
#
# Inputs: the Debian 6.1 cloud kernel's System.map (fetched with
# fetch-inputs.sh when missing) and this machine's /proc/kallsyms (needs
# root for real addresses). For each input and format it prints bytes per
# symbol beside the anchors of the issue, the mean CPU and wall time of N
# random address and name lookups (`dwarfpack kallsyms --bench-lookups`),
# the best of N in-memory builds (`--bench-build`, parse + write, no file
# I/O) and the wall time of the whole `dwarfpack kallsyms` process, and
# whether `dwarfpack dump` gives back the filtered input exactly, then the
# address lookup with each address repeated (--bench-repeat 10000). The
# perfetto-style map (dwarfpack-perfetto-style, the size anchor's layout)
# is measured beside them, addresses only. With
# --candidates it also runs dwarfpack-token-candidates (token schemes
# compared on both inputs, docs/TokenEncoder.md).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
bench=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}
build=${DWARFPACK_BUILD_DIR:-$top/build}
dp=$build/bin/dwarfpack
ps=$build/bin/dwarfpack-perfetto-style
lookups=1000000
builds=10
candidates=0
while [ $# -gt 0 ]; do
  case $1 in
  --lookups) lookups=$2; shift 2 ;;
  --builds) builds=$2; shift 2 ;;
  --candidates) candidates=1; shift ;;
  *) echo "usage: $0 [--lookups N] [--builds N] [--candidates]" >&2; exit 2 ;;
  esac
done
[ -x "$dp" ] || { echo "build dwarfpack first ($dp)" >&2; exit 1; }
[ -x "$ps" ] || { echo "build dwarfpack-perfetto-style first ($ps)" >&2; exit 1; }

sysmap=$(ls "$bench"/kdbg/usr/lib/debug/boot/System.map-* 2>/dev/null | head -1 || true)
if [ -z "$sysmap" ]; then
  "$top/utils/bench/fetch-inputs.sh" >&2
  sysmap=$(ls "$bench"/kdbg/usr/lib/debug/boot/System.map-* | head -1)
fi
out=$bench/out/kallsyms
mkdir -p "$out"
# A snapshot, so every format sees the same lines.
cat /proc/kallsyms > "$out/proc-kallsyms.txt"

field() { sed -n "s/^$1: //p"; }

printf '%-14s %-16s %9s %9s %8s %8s %9s %9s %8s %8s %s\n' input format syms bytes \
  B/sym vs-9.9 addr-cpu addr-wall name-cpu name-wall roundtrip
for input in "System.map:$sysmap" "proc-kallsyms:$out/proc-kallsyms.txt"; do
  name=${input%%:*}
  path=${input#*:}
  # In address order, stably: /proc/kallsyms lists module symbols in
  # symbol-table order (addresses are 16 hex digits, so text order works).
  awk '$2 == "t" || $2 == "T"' "$path" | LC_ALL=C sort -s -k1,1 > "$out/$name.expected"
  # The ksym-blob layout has no module column.
  sed 's/\t\[.*\]$//' "$out/$name.expected" > "$out/$name.expected-nomod"
  # compact-portable: the same table read by the portable paths only
  # (what a CPU without AVX2 and BMI2 runs).
  for format in compact compact-portable ksym-blob; do
    portable=0
    if [ $format = compact-portable ]; then
      format=compact
      portable=1
    fi
    table=$out/$name.$format
    "$dp" kallsyms "$path" --format=$format -o "$table"
    r=$(DWARFPACK_PORTABLE_READER=$portable "$dp" kallsyms --bench-lookups "$lookups" "$table")
    if [ $portable = 1 ]; then format=compact-portable; fi
    DWARFPACK_PORTABLE_READER=$portable "$dp" dump "$table" > "$out/$name.$format.dump"
    want=$out/$name.expected
    [ $format = ksym-blob ] && want=$out/$name.expected-nomod
    if cmp -s "$out/$name.$format.dump" "$want"; then rt=ok; else rt=DIFFERS; fi
    syms=$(echo "$r" | field symbols)
    bytes=$(echo "$r" | field bytes)
    bps=$(echo "$r" | field bytes-per-symbol)
    printf '%-14s %-16s %9s %9s %8s %7.2fx %7sns %7sns %6sns %6sns %s\n' "$name" "$format" \
      "$syms" "$bytes" "$bps" "$(echo "$bps / 9.9" | bc -l)" \
      "$(echo "$r" | field address-lookup-cpu-ns)" "$(echo "$r" | field address-lookup-ns)" \
      "$(echo "$r" | field name-lookup-cpu-ns)" "$(echo "$r" | field name-lookup-ns)" "$rt"
  done
  # The size anchor's layout (perfetto-style, built in memory by
  # dwarfpack-perfetto-style, which checks every address): addresses only.
  r=$("$ps" "$path" --lookups "$lookups")
  bps=$(echo "$r" | field bytes-per-symbol)
  printf '%-14s %-16s %9s %9s %8s %7.2fx %7sns %9s %8s %8s %s\n' "$name" perfetto-style \
    "$(echo "$r" | field symbols)" "$(echo "$r" | field bytes | cut -d' ' -f1)" "$bps" \
    "$(echo "$bps / 9.9" | bc -l)" "$(echo "$r" | field address-lookup-cpu-ns)" - - - checked
  # Each address looked up 10,000 times in a row: its data cached, its
  # branches predicted, what the lookup's work itself costs.
  for format in compact ksym-blob perfetto-style; do
    if [ $format = perfetto-style ]; then
      r=$("$ps" "$path" --lookups "$lookups" --repeat 10000)
    else
      r=$("$dp" kallsyms --bench-lookups "$lookups" --bench-repeat 10000 --bench-address-only "$out/$name.$format")
    fi
    printf '%-14s %-16s %s\n' "$name" "$format" \
      "each address 10,000 times in a row: $(echo "$r" | field address-lookup-cpu-ns) ns CPU per lookup"
  done
done
echo "anchors on System.map: kernel kallsyms tables 19.5 B/sym, perfetto-style 9.9 B/sym; goal <= 7.9 B/sym"

echo
echo "build from /proc/kallsyms ($(wc -l < "$out/proc-kallsyms.txt") lines):"
for format in compact ksym-blob; do
  r=$("$dp" kallsyms --bench-build "$builds" --format=$format "$out/proc-kallsyms.txt")
  t0=$(date +%s%N)
  "$dp" kallsyms /proc/kallsyms --format=$format -o "$out/live.$format"
  t1=$(date +%s%N)
  printf '  %-9s in-memory best of %s: %s ms wall, %s ms CPU; whole process from /proc/kallsyms: %s ms\n' \
    $format "$builds" "$(echo "$r" | field build-ms)" "$(echo "$r" | field build-cpu-ms)" \
    $(((t1 - t0) / 1000000))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wall times include waiting for a core)"

if [ $candidates = 1 ]; then
  tc=$build/bin/dwarfpack-token-candidates
  [ -x "$tc" ] || { echo "build dwarfpack-token-candidates first ($tc)" >&2; exit 1; }
  echo
  echo "token candidates (names + token table bytes, random decode of one name):"
  "$tc" "$sysmap"
  "$tc" "$out/proc-kallsyms.txt"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
