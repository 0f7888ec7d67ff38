#!/usr/bin/env bash
# The default job: `dwarfpack pack` on dwarfpack's own binary (built with
# DWARF): one read of its DWARF gives its compact address table and its CTF
# types. verify then checks every line row and inline boundary of the table
# against the DWARF (through LLVM's own reader); a few functions are looked
# up in llvm-symbolizer's and addr2line's styles, and a type is printed from
# the CTF.
set -euo pipefail
bin=${1:-build/bin/dwarfpack}
out=$(dirname "$bin")/dwarfpack-self.dpat
ctf=$(dirname "$bin")/dwarfpack-self.ctf

echo "== dwarfpack pack $bin --table $out --ctf $ctf --stats"
"$bin" pack "$bin" --table "$out" --ctf "$ctf" --stats
echo "== dwarfpack verify $out $bin"
"$bin" verify "$out" "$bin"

# Four of dwarfpack's own functions (LLVM's, linked in, have no DWARF here)
# whose names read well (demangled, at most 56 characters, no templates),
# spread evenly over the binary; an address 5 bytes into each.
addrs=()
while read -r a; do
  addrs+=("$(printf '0x%x' $((16#$a + 5)))")
done < <(nm -C --defined-only "$bin" |
  awk '$2 ~ /^[Tt]$/ { name = substr($0, index($0, $3)) }
       $2 ~ /^[Tt]$/ && length(name) <= 56 && name ~ /^dwarfpack::/ &&
       name !~ /[<>]|\.(cold|isra|part|constprop)|anonymous/ { print $1 }' |
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
# A C type from the CTF dict (a libctf reader such as `objdump --ctf` or
# GDB reads the same dict).
echo "== dwarfpack dump $ctf: struct timespec"
"$bin" dump "$ctf" | awk '/struct .timespec. size/ { p = 1; print; next }
  p && /^      / { print; next } { p = 0 }'
