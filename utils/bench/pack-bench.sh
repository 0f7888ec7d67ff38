#!/usr/bin/env bash
# The goals of the one-walk pipeline (issue 31), ours beside the anchors in
# one run, alternating, on the Debian 6.1 cloud vmlinux (and its modules):
#
#   utils/bench/pack-bench.sh [--repeat R] [--threads T] [--baseline DWARFPACK]
#                             [--kernel] [--dwarfpack PATH]
#
# Each round runs, in turn: llvm-gsymutil --convert, pahole -J
# (--btf_encode_detached), dwarfpack gsym (compact and --format=gsym),
# dwarfpack ctf, dwarfpack pack --table --ctf; with --baseline, that other
# dwarfpack binary's gsym and ctf ("today's" figures, one after the other);
# with --kernel also the kernel mode over vmlinux and all its modules: ctf
# (archive) and pack (archive and every module's address table). Each tag's
# best wall time and highest peak RSS are kept; the ratios of the goals
# follow, best to best, then each round's own (median and range: on a
# shared machine the speed drifts between rounds for every tool alike).
# The outputs of pack are compared with those of gsym and ctf, byte for
# byte. Results: $DWARFPACK_BENCH_DIR/out/pack (default
# /var/tmp/dwarfpack-bench).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bench=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}
export PATH=/usr/lib/llvm-19/bin:$PATH
dp=$top/build/bin/dwarfpack
repeat=3 threads=2 baseline= kernel=0
while [ $# -gt 0 ]; do
  case "$1" in
  --repeat) repeat=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  --baseline) baseline=$(realpath "$2"); shift 2 ;;
  --kernel) kernel=1; shift ;;
  --dwarfpack) dp=$(realpath "$2"); shift 2 ;;
  -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v pahole >/dev/null || { echo "pahole is needed (apt-get install dwarves)" >&2; exit 1; }
vmlinux=$("$here/fetch-inputs.sh" --print | awk '$1 == "vmlinux" {print $2}')
[ -n "$vmlinux" ] || { "$here/fetch-inputs.sh" >&2; vmlinux=$("$here/fetch-inputs.sh" --print | awk '$1 == "vmlinux" {print $2}'); }
modules=()
if [ $kernel = 1 ]; then
  mapfile -t modules < <(find "$bench/kdbg/usr/lib/debug/lib/modules" -name '*.ko' | sort)
fi
out=$bench/out/pack
mkdir -p "$out"

declare -A best=() peak=()
run() { # tag cmd...
  local tag=$1 w m
  shift
  /usr/bin/time -f '%e %M' -o "$out/time.tmp" "$@" >"$out/$tag.log" 2>&1 ||
    { echo "$tag failed: see $out/$tag.log" >&2; return 1; }
  read -r w m < <(tail -n 1 "$out/time.tmp")
  echo "$r $tag $w" >>"$out/rounds.txt"
  if [ -z "${best[$tag]:-}" ] || awk "BEGIN{exit !($w < ${best[$tag]})}"; then best[$tag]=$w; fi
  [ "$m" -gt "${peak[$tag]:-0}" ] && peak[$tag]=$m
  return 0
}

bash "$here/host.sh"
echo "input: $vmlinux; threads $threads; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$out/rounds.txt"
for ((r = 1; r <= repeat; r++)); do
  echo "round $r" >&2
  run gsymutil llvm-gsymutil --convert "$vmlinux" -o "$out/v.llvm.gsym" --num-threads "$threads" --quiet
  run pahole pahole -J -j"$threads" --btf_encode_detached "$out/v.btf" "$vmlinux"
  run gsym "$dp" gsym "$vmlinux" -o "$out/v.dpat" --num-threads "$threads" --quiet
  run gsym-gsym "$dp" gsym --format=gsym "$vmlinux" -o "$out/v.gsym" --num-threads "$threads" --quiet
  run ctf "$dp" ctf "$vmlinux" -o "$out/v.ctf" --num-threads "$threads" --quiet
  run pack "$dp" pack "$vmlinux" --table "$out/v.pack.dpat" --ctf "$out/v.pack.ctf" --num-threads "$threads" --quiet
  if [ -n "$baseline" ]; then
    run base-gsym "$baseline" gsym "$vmlinux" -o "$out/v.base.dpat" --num-threads "$threads" --quiet
    run base-ctf "$baseline" ctf "$vmlinux" -o "$out/v.base.ctf" --num-threads "$threads" --quiet
  fi
  if [ $kernel = 1 ]; then
    rm -rf "$out/kctf" "$out/ktables"
    run kernel-ctf "$dp" ctf "$vmlinux" "${modules[@]}" -o "$out/kctf" --archive "$out/k.ctfa" --num-threads "$threads" --quiet
    run kernel-pack "$dp" pack "$vmlinux" "${modules[@]}" --ctf-archive "$out/k.pack.ctfa" --table-dir "$out/ktables" --num-threads "$threads" --quiet
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

cmp -s "$out/v.dpat" "$out/v.pack.dpat" && echo "pack --table = gsym: identical" || echo "pack --table = gsym: DIFFERENT"
cmp -s "$out/v.ctf" "$out/v.pack.ctf" && echo "pack --ctf = ctf: identical" || echo "pack --ctf = ctf: DIFFERENT"
[ $kernel = 1 ] && { cmp -s "$out/k.ctfa" "$out/k.pack.ctfa" && echo "kernel pack archive = ctf archive: identical" || echo "kernel pack archive: DIFFERENT"; }

printf '\n%-12s %9s %9s\n' tag wall_s peak_MiB
for t in gsymutil pahole gsym gsym-gsym ctf pack base-gsym base-ctf kernel-ctf kernel-pack; do
  [ -n "${best[$t]:-}" ] || continue
  printf '%-12s %9s %9.0f\n' "$t" "${best[$t]}" "$(awk "BEGIN{print ${peak[$t]}/1024}")"
done
ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }
echo
echo "gsym / llvm-gsymutil:      wall $(ratio "${best[gsym]}" "${best[gsymutil]}")x (goal <= 0.40), peak $(ratio "${peak[gsym]}" "${peak[gsymutil]}")x (goal <= 0.35)"
echo "ctf / pahole:              wall $(ratio "${best[ctf]}" "${best[pahole]}")x (goal <= 0.35), peak $(ratio "${peak[ctf]}" "${peak[pahole]}")x (goal <= 0.35)"
anchors=$(awk "BEGIN{print ${best[gsymutil]} + ${best[pahole]}}")
echo "pack / (gsymutil + pahole): wall $(ratio "${best[pack]}" "$anchors")x (goal <= 0.40)"
if [ -n "$baseline" ]; then
  today=$(awk "BEGIN{print ${best[base-gsym]} + ${best[base-ctf]}}")
  echo "pack / (today's gsym + ctf): wall $(ratio "${best[pack]}" "$today")x (goal <= 0.60)"
fi
# The machine's speed may drift between rounds for all the tools alike:
# each round's own ratios, which compare runs minutes apart at most.
python3 - "$out/rounds.txt" <<'PY'
import collections, statistics, sys
walls = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, tag, w = line.split()
    walls[int(r)][tag] = float(w)
goals = [("gsym / llvm-gsymutil", ["gsym"], ["gsymutil"]),
         ("ctf / pahole", ["ctf"], ["pahole"]),
         ("pack / (gsymutil + pahole)", ["pack"], ["gsymutil", "pahole"]),
         ("pack / (today's gsym + ctf)", ["pack"], ["base-gsym", "base-ctf"])]
print("\nwall ratios of each round:")
for name, ours, theirs in goals:
    rs = [sum(w[t] for t in ours) / sum(w[t] for t in theirs)
          for w in walls.values() if all(t in w for t in ours + theirs)]
    if rs:
        print("  %-28s median %.2f, range %.2f-%.2f (%s)" % (
            name + ":", statistics.median(rs), min(rs), max(rs),
            " ".join("%.2f" % x for x in rs)))
PY
if [ $kernel = 1 ]; then
  echo "kernel pack (vmlinux + ${#modules[@]} modules, archive and tables): ${best[kernel-pack]} s, $(awk "BEGIN{printf \"%.0f\", ${peak[kernel-pack]}/1024}") MiB (goal <= 12 s on the issue's host, <= 1 GiB)"
fi
