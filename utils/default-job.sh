#!/usr/bin/env bash
# The default job: convert dwarfpack's own binary (built with DWARF) into a
# compact address table (the default format of `dwarfpack gsym`), look a few
# of its functions up in llvm-symbolizer's and addr2line's styles, and print
# a summary. --verify then checks every line
# row and inline boundary of the table against the DWARF.
set -euo pipefail
bin=${1:-build/bin/dwarfpack}
out=$(dirname "$bin")/dwarfpack-self.dpat

echo "== dwarfpack gsym $bin -o $out --stats --verify"
"$bin" gsym "$bin" -o "$out" --stats --verify

# Four functions whose names read well (demangled, at most 40 characters,
# no templates), spread evenly over the binary; an address 5 bytes into each.
addrs=()
while read -r a; do
  addrs+=("$(printf '0x%x' $((16#$a + 5)))")
done < <(nm -C --defined-only "$bin" |
  awk '$2 ~ /^[Tt]$/ { name = substr($0, index($0, $3)) }
       $2 ~ /^[Tt]$/ && length(name) <= 40 && name ~ /[a-z]/ &&
       name !~ /[<>]|^_|\.(cold|isra|part|constprop)/ { print $1 }' |
  sort -u |
  awk '{a[NR] = $1} END {for (i = 1; i <= 4; i++) print a[int((i - 0.5) * NR / 4) + 1]}')

# The same addresses in the styles llvm-symbolizer prints, and as GNU
# addr2line prints them.
echo "== dwarfpack lookup $out ${addrs[*]}"
"$bin" lookup "$out" "${addrs[@]}"
echo "== dwarfpack lookup --obj=$out --output-style=GNU -a -p ${addrs[*]}"
"$bin" lookup --obj="$out" --output-style=GNU -a -p "${addrs[@]}"
echo "== dwarfpack lookup --obj=$out --output-style=JSON --functions=short ${addrs[0]}"
"$bin" lookup --obj="$out" --output-style=JSON --functions=short "${addrs[0]}"
echo "== dwarfpack addr2line -e $out -f -i -C ${addrs[*]}"
"$bin" addr2line -e "$out" -f -i -C "${addrs[@]}"
