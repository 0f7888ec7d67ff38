#!/usr/bin/env bash
# Compact address table benchmark (issue 6): sizes and lookup speed against
# LLVM-format GSYM of the same content.
#
# For each input the model is converted once and written both ways in memory
# by `dwarfpack compare-tables --convert` (copies are kept as
# $work/NAME.gsym and $work/NAME.dpat), which prints:
#   * both sizes broken down by part (line tables, inline trees, names,
#     paths, framing, address table, header) and the compact/GSYM ratio
#     (goal <= 0.6 on vmlinux);
#   * for a Breakpad .sym, both sizes as a fraction of the .sym text (goal
#     <= 1/6 for compact);
#   * the lookup time of both readers over the same 1,000,000 random
#     addresses in one process (best of three alternating runs, thread CPU
#     time; goal: compact <= 1.1x GSYM), after checking that both give the
#     same answer for every one of them.
# With BENCH_LLVM=1 the vmlinux GSYM of llvm-gsymutil is written too, for
# reference (its content differs slightly from ours).
#
# usage: utils/bench/compact-bench.sh [INPUT...]
#   INPUT: vmlinux, sqlite-sym, dwarfpack (default: all three)
# Inputs are fetched/built on demand by utils/bench/fetch-inputs.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${DWARFPACK:-$root/build/bin/dwarfpack}")
work=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}/compact
data=${DWARFPACK_SHARED:-$root/../shared}/data/breakpad
[ -d "$data" ] || data=/work/shared/data/breakpad
addresses=${BENCH_ADDRESSES:-1000000}
mkdir -p "$work"

inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(vmlinux sqlite-sym dwarfpack)

path_of() {
  case "$1" in
  sqlite-sym) echo "$data/sqlite-gcc.sym" ;;
  *)
    "$here/fetch-inputs.sh" --print | awk -v n="$1" '$1 == n { print $2 }'
    ;;
  esac
}

# Fetch what is missing (kernel debug package, a copy of dwarfpack).
need_fetch=0
for name in "${inputs[@]}"; do
  [ "$name" = sqlite-sym ] && continue
  [ -n "$(path_of "$name")" ] || need_fetch=1
done
[ $need_fetch = 0 ] || "$here/fetch-inputs.sh"

for name in "${inputs[@]}"; do
  input=$(path_of "$name")
  if [ -z "$input" ] || [ ! -e "$input" ]; then
    echo "== $name: input not available, skipped"
    continue
  fi
  echo "== $name: $input ($(stat -c %s "$input") bytes)"
  "$bin" compare-tables --convert "$input" --sizes --random "$addresses" \
    --save-prefix "$work/$name"
  ls -l "$work/$name.gsym" "$work/$name.dpat" | awk '{ print "  " $5 "  " $9 }'
  if [ "$name" = vmlinux ] && [ "${BENCH_LLVM:-0}" = 1 ]; then
    /usr/lib/llvm-19/bin/llvm-gsymutil --convert "$input" \
      -o "$work/vmlinux.llvm.gsym" --quiet >/dev/null 2>&1 || true
    [ -f "$work/vmlinux.llvm.gsym" ] &&
      echo "  llvm-gsymutil GSYM: $(stat -c %s "$work/vmlinux.llvm.gsym") bytes," \
        "compact/llvm = $(awk -v a="$(stat -c %s "$work/vmlinux.dpat")" \
          -v b="$(stat -c %s "$work/vmlinux.llvm.gsym")" 'BEGIN { printf "%.3f", a / b }')"
  fi
done
