#!/usr/bin/env bash
# The default job: convert dwarfpack's own binary (built with DWARF) into an
# address table, look a few of its functions up, and print a summary.
set -euo pipefail
bin=${1:-build/bin/dwarfpack}
out=$(dirname "$bin")/dwarfpack-self.gsym

echo "== dwarfpack gsym $bin"
"$bin" gsym "$bin" -o "$out" --stats

# A few addresses spread over the text: every 400th function symbol, 5 bytes in.
mapfile -t addrs < <(nm --defined-only "$bin" | awk '$2 ~ /^[Tt]$/ {print $1}' |
  sort -u | awk 'NR % 400 == 1 {printf "0x%x\n", strtonum("0x" $1) + 5}' | head -n 5)
echo "== dwarfpack lookup $out ${addrs[*]}"
"$bin" lookup "$out" "${addrs[@]}"
