#!/usr/bin/env bash
# Benchmark `dwarfpack gsym --format=gsym` (LLVM GSYM, comparable byte for
# byte and readable by llvm-gsymutil; the default output is the compact
# table, see compact-bench.sh) beside `llvm-gsymutil --convert`, same run, on
# real inputs (see utils/bench/README.md for the goals):
#
#   utils/bench/gsym-bench.sh [options] [INPUT...]
#
# INPUT is a name printed by fetch-inputs.sh (vmlinux, sqlite-gcc,
# sqlite-clang, dwarfpack; default: all of them) or a path to an ELF file.
# Options:
#   --repeat R        timed runs per tool (default 3; best wall, highest RSS)
#   --threads T       --num-threads of both converters (default 2)
#   -n N              addresses for the agreement check (default 20000)
#   --no-agreement    skip the lookup comparisons
#   --no-fetch        do not run fetch-inputs.sh (inputs must exist)
#   --dwarfpack PATH  the dwarfpack binary (default build/bin/dwarfpack)
# Outputs go to $DWARFPACK_BENCH_DIR/out (default /var/tmp/dwarfpack-bench).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bench=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}
export PATH=/usr/lib/llvm-19/bin:$PATH
dp=$top/build/bin/dwarfpack
repeat=3 threads=2 nsamples=20000 agreement=1 fetch=1
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
  --repeat) repeat=$2; shift 2 ;;
  --threads) threads=$2; shift 2 ;;
  -n) nsamples=$2; shift 2 ;;
  --no-agreement) agreement=0; shift ;;
  --no-fetch) fetch=0; shift ;;
  --dwarfpack) dp=$(realpath "$2"); shift 2 ;;
  -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
  *) inputs+=("$1"); shift ;;
  esac
done

[ $fetch = 1 ] && "$here/fetch-inputs.sh" >/dev/null
declare -A known=()
while read -r name path; do known[$name]=$path; done < <("$here/fetch-inputs.sh" --print)
[ ${#inputs[@]} -gt 0 ] || inputs=(vmlinux sqlite-gcc sqlite-clang dwarfpack)

out=$bench/out
mkdir -p "$out"
results=$out/gsym-results.tsv
: >"$results"
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$results"; } # input key value

has_subcommand() { # name
  [ -x "$dp" ] && "$dp" --help 2>&1 | grep -qE "^[[:space:]]+$1([[:space:]]|$)"
}
have_gsym=0 have_lookup=0
has_subcommand gsym && have_gsym=1
has_subcommand lookup && have_lookup=1

# Runs a command once under /usr/bin/time, keeping the best wall time and the
# highest peak RSS per tag in best[] and peak[]; its output goes to
# $out/<input>.<tag>.log. Returns the command's exit status.
declare -A best=() peak=() cpu=()
run_timed() { # input tag cmd...
  local input=$1 tag=$2 rc=0 w m u k
  shift 2
  /usr/bin/time -f '%e %M %U %S' -o "$out/time.tmp" "$@" \
    >"$out/$input.$tag.log" 2>&1 || rc=$?
  # On failure time(1) writes a "Command exited ..." line first.
  read -r w m u k < <(tail -n 1 "$out/time.tmp")
  if [ -z "${best[$tag]:-}" ] || awk "BEGIN{exit !($w < ${best[$tag]})}"; then
    best[$tag]=$w
  fi
  u=$(awk "BEGIN{print $u + $k}")
  if [ -z "${cpu[$tag]:-}" ] || awk "BEGIN{exit !($u < ${cpu[$tag]})}"; then
    cpu[$tag]=$u
  fi
  [ "$m" -gt "${peak[$tag]:-0}" ] && peak[$tag]=$m
  return $rc
}
record_timed() { # input tag
  [ -n "${best[$2]:-}" ] || return 0
  record "$1" "${2}_wall" "${best[$2]}"
  record "$1" "${2}_cpu" "${cpu[$2]}"
  record "$1" "${2}_rss_mib" "$(awk "BEGIN{printf \"%.0f\", ${peak[$2]}/1024}")"
}

for input in "${inputs[@]}"; do
  elf=${known[$input]:-$input}
  [ -f "$elf" ] || { echo "== $input: not found (run fetch-inputs.sh)" >&2; continue; }
  input=$(basename "$input")
  echo "== $input ($elf)" >&2
  x=$out/$input.llvm.gsym y=$out/$input.dwarfpack.gsym
  rm -f "$x" "$y" "$out/$input".*.agree.* "$out/$input".*.log
  best=() peak=() cpu=()
  di=$(llvm-readelf -S --wide "$elf" | sed 's/^ *\[ *[0-9]*\]//' |
    awk '$1 == ".debug_info" {print $5}')
  record "$input" debug_info_mib "$(awk "BEGIN{printf \"%.1f\", $((16#${di:-0})) / 1048576}")"

  # Alternate the two converters so that load from elsewhere hits both alike.
  llvm_ok=1 dp_ok=$have_gsym
  for ((r = 1; r <= repeat; r++)); do
    echo "   run $r: llvm-gsymutil --convert$([ $dp_ok = 1 ] && echo ", dwarfpack gsym")" >&2
    if [ $llvm_ok = 1 ] && ! run_timed "$input" llvm llvm-gsymutil --convert "$elf" \
      -o "$x" --num-threads "$threads" --quiet; then
      llvm_ok=0
      echo "   llvm-gsymutil failed, see $out/$input.llvm.log" >&2
      record "$input" llvm_error failed
    fi
    if [ $dp_ok = 1 ] && ! run_timed "$input" dp "$dp" gsym --format=gsym "$elf" -o "$y" \
      --num-threads "$threads" --quiet; then
      dp_ok=0
      echo "   dwarfpack gsym failed, see $out/$input.dp.log" >&2
      record "$input" dp_error failed
    fi
  done
  if [ $llvm_ok = 1 ]; then
    record_timed "$input" llvm
    record "$input" llvm_size "$(stat -c %s "$x")"
  fi
  if [ $dp_ok = 1 ]; then
    record_timed "$input" dp
    record "$input" dp_size "$(stat -c %s "$y")"
    # Determinism: 1 thread must give the same bytes as $threads threads.
    "$dp" gsym --format=gsym "$elf" -o "$y.t1" --num-threads 1 --quiet >/dev/null 2>&1 &&
      { cmp -s "$y" "$y.t1" && record "$input" deterministic yes ||
        record "$input" deterministic "NO (1 vs $threads threads differ)"; }
    rm -f "$y.t1"
    if "$dp" gsym --help 2>&1 | grep -q -- '--verify'; then
      echo "   dwarfpack gsym --verify" >&2
      rc=0
      run_timed "$input" verify "$dp" gsym --format=gsym "$elf" -o "$y.v" \
        --num-threads "$threads" --quiet --verify || rc=$?
      record_timed "$input" verify
      record "$input" verify_status "$([ $rc = 0 ] && echo ok ||
        echo "exit $rc, see $out/$input.verify.log")"
      rm -f "$y.v"
    fi
    # llvm-gsymutil must read our file: a full dump decodes every record.
    rc=0
    llvm-gsymutil "$y" >/dev/null 2>"$out/$input.llvm-reads-ours.log" || rc=$?
    record "$input" llvm_reads_ours "$([ $rc = 0 ] && echo yes || echo "NO (exit $rc)")"
  fi

  if [ $agreement = 1 ]; then
    if [ -f "$x" ]; then
      echo "   agreement of llvm-gsymutil" >&2
      python3 "$here/gsym-agreement.py" "$elf" "$x" --candidate llvm-gsymutil \
        -n "$nsamples" --summary-json "$out/$input.llvm.agree.json" \
        >"$out/$input.llvm.agree.txt" 2>&1 || echo "   failed: $out/$input.llvm.agree.txt" >&2
    fi
    if [ -f "$y" ] && [ $have_lookup = 1 ]; then
      echo "   agreement of dwarfpack lookup and llvm-gsymutil reading ours" >&2
      python3 "$here/gsym-agreement.py" "$elf" "$y" --candidate both \
        --dwarfpack "$dp" -n "$nsamples" --summary-json "$out/$input.dp.agree.json" \
        >"$out/$input.dp.agree.txt" 2>&1 || echo "   failed: $out/$input.dp.agree.txt" >&2
    elif [ -f "$y" ]; then
      echo "   agreement of llvm-gsymutil reading ours (no dwarfpack lookup yet)" >&2
      python3 "$here/gsym-agreement.py" "$elf" "$y" --candidate llvm-gsymutil \
        -n "$nsamples" --summary-json "$out/$input.dp.agree.json" \
        >"$out/$input.dp.agree.txt" 2>&1 || echo "   failed: $out/$input.dp.agree.txt" >&2
    fi
  fi
done

python3 - "$out" "$results" "$threads" "$repeat" <<'EOF'
import collections, json, os, sys
out, results, threads, repeat = sys.argv[1:5]
r = collections.defaultdict(dict)
for line in open(results):
    i, k, v = line.rstrip("\n").split("\t")
    r[i][k] = v

def agree(i, who, cand):
    p = os.path.join(out, "%s.%s.agree.json" % (i, who))
    try:
        return json.load(open(p))["candidates"][cand]
    except Exception:
        return None

def cross(i):
    try:
        return json.load(open(os.path.join(out, i + ".dp.agree.json"))).get("cross_equal_pct")
    except Exception:
        return None

def f(v, fmt="%s"):
    return "n/a" if v is None else fmt % v

def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None

def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b

def goal(v, ok, fmt="%.2fx"):
    if v is None:
        return "n/a"
    return (fmt % v) + (" ok" if ok(v) else " MISSED")

print()
print("GSYM conversion, --num-threads %s, best of %s runs (wall; cpu = user+sys), highest peak RSS"
      % (threads, repeat))
try:
    print("load average at the end: %s" % open("/proc/loadavg").read().split()[0])
except OSError:
    pass
hdr = "%-13s %-14s %8s %8s %9s %12s %9s %9s %9s" % (
    "input", "tool", "wall s", "cpu s", "RSS MiB", "size B", "agree %", "exact %", "symtab %")
print(hdr)
print("-" * len(hdr))
for i, d in r.items():
    print("%s (%s MiB of .debug_info)" % (i, d.get("debug_info_mib", "?")))
    for tool, tag, who, cand in (("llvm-gsymutil", "llvm", "llvm", "llvm-gsymutil"),
                                 ("dwarfpack", "dp", "dp", "dwarfpack")):
        a = agree(i, who, cand)
        if tool == "dwarfpack" and a is None:
            a = None
        print("%-13s %-14s %8s %8s %9s %12s %9s %9s %9s" % (
            i, tool, f(num(d, tag + "_wall"), "%.2f"), f(num(d, tag + "_cpu"), "%.2f"),
            f(num(d, tag + "_rss_mib"), "%.0f"),
            f(d.get(tag + "_size")),
            f(a and a["dwarf_pct"], "%.2f"), f(a and a["dwarf_exact_pct"], "%.2f"),
            f(a and a["symtab_pct"], "%.2f")))
    print()

print("Goals (ours / llvm-gsymutil): wall <= 0.5x, peak RSS <= 0.5x, size <= 1.0x,")
print("agreement >= 99.9 %, --verify <= 2x the conversion, deterministic, llvm-gsymutil reads ours")
for i, d in r.items():
    a = agree(i, "dp", "dwarfpack")
    la = agree(i, "dp", "llvm-gsymutil")
    wall = ratio(num(d, "dp_wall"), num(d, "llvm_wall"))
    cpur = ratio(num(d, "dp_cpu"), num(d, "llvm_cpu"))
    rss = ratio(num(d, "dp_rss_mib"), num(d, "llvm_rss_mib"))
    size = ratio(num(d, "dp_size"), num(d, "llvm_size"))
    ver = ratio(num(d, "verify_wall"), num(d, "dp_wall"))
    print("%-13s wall %s (cpu %s), RSS %s, size %s, agreement %s, symtab-only %s, verify %s" % (
        i, goal(wall, lambda v: v <= 0.5), f(cpur, "%.2fx"), goal(rss, lambda v: v <= 0.5),
        goal(size, lambda v: v <= 1.0),
        goal(a and a["dwarf_pct"], lambda v: v >= 99.9, "%.2f %%"),
        f(a and a["symtab_pct"], "%.2f %%") + (
            " (assembly NOTYPE: %s)" % f(a.get("symtab_notype_pct"), "%.2f %%")
            if a and a.get("symtab_notype_n") else ""),
        goal(ver, lambda v: v <= 2.0)
        + ("" if d.get("verify_status", "ok") == "ok" else " (" + d["verify_status"] + ")")))
    print("%-13s deterministic %s; llvm-gsymutil reads ours: %s; its lookups on ours agree "
          "%s, equal dwarfpack lookup's %s" % (
        "", d.get("deterministic", "n/a"), d.get("llvm_reads_ours", "n/a"),
        f(la and la["dwarf_pct"], "%.2f %%"), f(cross(i), "%.3f %%")))
print()
print("Details: %s/<input>.{llvm,dp}.agree.txt (mismatch kinds, examples), *.log" % out)
EOF
