#!/usr/bin/env bash
# What issue 31 asks to report beside its bars: the instructions per DIE of
# the shared DWARF decoder (lib/DwarfInput), and the share of each phase.
#
#   utils/bench/decoder-cost.sh [INPUT...]   (default: sqlite-gcc sqlite-clang)
#
# INPUT is a name printed by fetch-inputs.sh or a path to an ELF file. For
# each, the DIEs are counted (llvm-dwarfdump-19 --debug-info, NULL entries
# included, as the decoder keeps them), then `dwarfpack gsym` and `dwarfpack
# ctf` run on one thread under callgrind, and the instructions of the
# decoder's parts (parts() below) are divided by the DIEs.
# Then the phases of `gsym --stats` and `pack --stats` (2 threads, wall) on
# the same input. Instruction counts do not depend on the machine; the
# phases' times do. Needs valgrind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${DWARFPACK:-$root/build/bin/dwarfpack}")
work=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}/out/decoder
mkdir -p "$work"

inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(sqlite-gcc sqlite-clang)

# The instructions of a callgrind profile ($1) by part of the decoder, each
# function's own (self) instructions, inlined code included, so that no
# instruction counts twice: "TOTAL PARSE ABBREVS ATTRS LINES".
#   parse    Unit::parseDies: a unit's tree, each value skipped by its form;
#   abbrevs  the abbreviation tables;
#   attrs    the DIEs' other functions (Unit, Die, DieAttrView, FormValue):
#            the attribute values, references, siblings and ranges the
#            visitors ask for;
#   lines    the line tables.
# (Walking, opening and relocating are left out.)
parts() {
  callgrind_annotate --threshold=100 --auto=no "$1" 2>/dev/null |
    awk '
      /PROGRAM TOTALS/ && !total { total = $1; gsub(",", "", total) }
      /^ *[0-9,]+ +\(/ {
        n = $1; gsub(",", "", n)
        fn = $0; sub(/^[^:]*:/, "", fn)
        gsub(/\(anonymous namespace\)/, "anon", fn); sub(/\(.*/, "", fn)
        if (fn !~ /^dwarfpack::input::/) next
        if (fn ~ /::Unit::(parseDies|skipVariable)$/) parse += n
        else if (fn ~ /::Unit::parseAbbrevs$|::anon::(fixedFormSize|formInfo)$/)
          abbrevs += n
        else if (fn ~ /::LineTable|::LineHeader|::anon::(HeaderParser|ProgramDecoder)::/)
          lines += n
        else if (fn ~ /::(Unit|Die|DieAttrView|FormValue|AbbrevSlots|AttrSlots)::/)
          attrs += n
      }
      END { printf "%.0f %.0f %.0f %.0f %.0f\n", total, parse, abbrevs, attrs, lines }'
}

for name in "${inputs[@]}"; do
  input=$name
  if [ ! -e "$input" ]; then
    input=$("$here/fetch-inputs.sh" --print | awk -v n="$name" '$1 == n { print $2 }')
  fi
  if [ -z "$input" ] || [ ! -e "$input" ]; then
    echo "== $name: input not available (utils/bench/fetch-inputs.sh), skipped"
    continue
  fi
  echo "== $name: $input"
  dies=$(llvm-dwarfdump-19 --debug-info "$input" |
    grep -c -E '^0x[0-9a-f]+: +(DW_TAG|NULL)')
  echo "  DIEs: $dies"
  for mode in gsym ctf; do
    out=$work/$(basename "$input").$mode
    prof=$work/$(basename "$input").$mode.callgrind
    valgrind --tool=callgrind --callgrind-out-file="$prof" \
      "$bin" "$mode" --num-threads 1 --quiet "$input" -o "$out" \
      > /dev/null 2>&1
    read -r all parse abbrevs attrs lines < <(parts "$prof")
    awk -v m="$mode" -v d="$dies" -v a="$all" -v p="$parse" -v b="$abbrevs" \
      -v t="$attrs" -v l="$lines" 'BEGIN {
        printf "  %-4s %6.1f instructions/DIE in all; decoder: parse %.1f, " \
               "abbreviations %.1f, attributes %.1f, line tables %.1f " \
               "(%.1f %% of all)\n", m, a / d, p / d, b / d, t / d, l / d,
               100 * (p + b + t + l) / a }'
  done
  echo "  phases, 2 threads (wall):"
  "$bin" gsym --num-threads 2 --stats --quiet "$input" -o "$work/phases.dpat" |
    sed -n 's/^wall time: */    gsym: /p'
  "$bin" pack --num-threads 2 --stats --quiet "$input" \
    --table "$work/phases.dpat" --ctf "$work/phases.ctf" |
    sed -n 's/^time: */    pack: /p'
done
