#!/usr/bin/env bash
# The default job: convert dwarfpack's own binary (built with DWARF) into a
# compact address table (the default format of `dwarfpack gsym`), look a few
# of its functions up, and print a summary. --verify then checks every line
# row and inline boundary of the table against the DWARF.
set -euo pipefail
bin=${1:-build/bin/dwarfpack}
out=$(dirname "$bin")/dwarfpack-self.dpat

echo "== dwarfpack gsym $bin -o $out --stats --verify"
"$bin" gsym "$bin" -o "$out" --stats --verify

# Five addresses spread evenly over the function symbols, 5 bytes in.
addrs=()
while read -r a; do
  addrs+=("$(printf '0x%x' $((16#$a + 5)))")
done < <(nm --defined-only "$bin" | awk '$2 ~ /^[Tt]$/ {print $1}' | sort -u |
  awk '{a[NR] = $1} END {for (i = 1; i <= 5; i++) print a[int((i - 0.5) * NR / 5) + 1]}')
echo "== dwarfpack lookup $out ${addrs[*]}"
"$bin" lookup "$out" "${addrs[@]}"
