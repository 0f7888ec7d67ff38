#!/usr/bin/env bash
# Benchmark and verify `dwarfpack ctf` in kernel mode on the Debian 6.1 cloud
# kernel debug package: vmlinux and all 1,121 modules into one shared parent
# and per-module children (docs/CTF-kernel.md).
#
#   utils/bench/ctf-kernel-bench.sh [options]
#
# Options:
#   --threads T       --num-threads (default 2)
#   --no-fetch        do not run fetch-inputs.sh (inputs must exist)
#   --no-determinism  skip the --num-threads 1 run compared byte for byte
#   --pahole          re-encode BTF with pahole for the size comparison
#                     (vmlinux detached, modules split against it, one by
#                     one, timed); default: the figures measured with pahole
#                     1.24 on this machine (4,113,175 + 8,667,790 bytes)
#   --check-sample N  layout check (vs pahole --sizes) on every Nth module
#                     only (default 1: all; 0: skip)
#   --dwarfpack PATH  the dwarfpack binary (default build/bin/dwarfpack)
# Results: $DWARFPACK_BENCH_DIR/out/ctf-kernel/ (default /var/tmp/dwarfpack-bench).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bench=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}
export PATH=/usr/lib/llvm-19/bin:$PATH
dp=$top/build/bin/dwarfpack
threads=2 fetch=1 determinism=1 pahole=0 sample=1
while [ $# -gt 0 ]; do
  case "$1" in
  --threads) threads=$2; shift 2 ;;
  --no-fetch) fetch=0; shift ;;
  --no-determinism) determinism=0; shift ;;
  --pahole) pahole=1; shift ;;
  --check-sample) sample=$2; shift 2 ;;
  --dwarfpack) dp=$(realpath "$2"); shift 2 ;;
  -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

[ $fetch = 1 ] && "$here/fetch-inputs.sh" >/dev/null
vmlinux=$(ls "$bench"/kdbg/usr/lib/debug/boot/vmlinux-* | head -1)
moddir=$(ls -d "$bench"/kdbg/usr/lib/debug/lib/modules/* | head -1)
out=$bench/out/ctf-kernel
mkdir -p "$out"
cd "$out"
log() { echo "== $*" >&2; }

# Inputs through a response file (the command line would be ~150 KB).
{ echo "$vmlinux"; find "$moddir" -name '*.ko' | sort; } >inputs.rsp
nmods=$(($(wc -l <inputs.rsp) - 1))
log "vmlinux + $nmods modules"

# Peak RSS (MiB), wall, user and system seconds from /usr/bin/time -v.
timev() { # logfile -> "wall user sys rss_mib"
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0
      for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 }
    /Maximum resident/ { r = $2 / 1024 }
    END { printf "%.2f %.2f %.2f %.0f\n", w, u, s, r }' "$1"
}

log "dwarfpack ctf (threads $threads)"
rm -rf ctf
/usr/bin/time -v "$dp" ctf -o ctf --archive kernel.ctfa --num-threads "$threads" \
  --stats @inputs.rsp >stats.txt 2>time.log || { cat time.log >&2; exit 1; }
read -r wall user sys rss < <(timev time.log)
grep -E '^dwarfpack: warning' time.log >&2 || true

log "second run: unchanged files must not be rewritten"
/usr/bin/time -v "$dp" ctf -o ctf --num-threads "$threads" --stats @inputs.rsp \
  >stats2.txt 2>time2.log
read -r wall2 _ _ _ < <(timev time2.log)
rewritten=$(sed -n 's/^written: \([0-9]*\),.*/\1/p' stats2.txt)

same=skipped
if [ $determinism = 1 ]; then
  log "--num-threads 1: same bytes?"
  "$dp" ctf -o ctf1 --archive kernel1.ctfa --num-threads 1 @inputs.rsp 2>/dev/null
  if cmp -s kernel.ctfa kernel1.ctfa && diff -rq ctf ctf1 >/dev/null; then same=yes; else same=NO; fi
  rm -rf ctf1 kernel1.ctfa
fi

log "libctf: objdump --ctf over the archive (children open with the parent)"
echo 'int dwarfpack_ctf_carrier;' | gcc -x c -c -o carrier.o -
objcopy --add-section .ctf=kernel.ctfa carrier.o kernel-ctf.o
set +e
objdump --ctf=.ctf kernel-ctf.o >objdump.txt 2>objdump.err
objdump_status=$?
set -e
members=$(grep -c '^CTF archive member:' objdump.txt || true)
objdump_errors=$(grep -ci 'error\|warning' objdump.err || true)

log "independent checks (identical records, layouts vs pahole --sizes)"
"$dp" dump kernel.ctfa >dump.txt
check_args=(dump.txt)
[ "$sample" != 0 ] && check_args+=(--modules-dir "$moddir" --vmlinux "$vmlinux" --sample "$sample")
set +e
python3 "$here/ctf-kernel-check.py" "${check_args[@]}" >check.txt
check_status=$?
set -e

# BTF reference sizes.
if [ $pahole = 1 ]; then
  log "pahole: vmlinux BTF and split BTF of every module"
  rm -rf btf && mkdir btf
  /usr/bin/time -v pahole -J --btf_encode_detached=btf/vmlinux.btf "$vmlinux" \
    >/dev/null 2>btf-vmlinux.log
  read -r pwall _ _ _ < <(timev btf-vmlinux.log)
  start=$(date +%s.%N)
  while read -r ko; do
    pahole -J --btf_base btf/vmlinux.btf --btf_encode_detached="btf/$(basename "$ko" .ko).btf" \
      "$ko" >/dev/null 2>&1 || true
  done < <(tail -n +2 inputs.rsp)
  mwall=$(echo "$(date +%s.%N) - $start" | bc)
  btf_v=$(stat -c %s btf/vmlinux.btf)
  btf_m=$(find btf -name '*.btf' ! -name vmlinux.btf -printf '%s\n' | awk '{s += $1} END {print s}')
  btf_gz=$(cat btf/*.btf | gzip -9 | wc -c)
  echo "pahole: vmlinux $pwall s, modules one by one $mwall s" >&2
else
  btf_v=4113175 btf_m=8667790 btf_gz=$((1315961 + 2433805))
fi
btf=$((btf_v + btf_m))

unc=$(sed -n 's/^uncompressed size: //p' stats.txt)
zl=$(sed -n 's/^size: //p' stats.txt)
arc=$(stat -c %s kernel.ctfa)
raw_gz=$("$dp" ctf -o ctf-raw --no-compress --archive raw.ctfa @inputs.rsp 2>/dev/null &&
  gzip -9 <raw.ctfa | wc -c)
rm -rf ctf-raw raw.ctfa
ratio() { echo "scale=3; $1 / $2" | bc; }

{
  echo "inputs: vmlinux + $nmods modules, --num-threads $threads"
  echo "wall $wall s, user $user s, sys $sys s, peak RSS $rss MiB"
  grep '^time:' stats.txt
  grep -E '^(input types|global nodes|resolved forwards|classes|parent types|child types|sharing rounds|stored more than once):' stats.txt
  echo "second run: $wall2 s, files rewritten: $rewritten"
  echo "same bytes with --num-threads 1: $same"
  echo "objdump --ctf: exit $objdump_status, $members archive members, $objdump_errors error/warning lines"
  cat check.txt
  echo "BTF (pahole): vmlinux $btf_v + modules $btf_m = $btf bytes; gzip -9 $btf_gz"
  echo "CTF uncompressed: $unc bytes = $(ratio "$unc" "$btf") x BTF"
  echo "CTF per-dict zlib: $zl bytes = $(ratio "$zl" "$btf") x BTF ($(ratio "$zl" "$btf_gz") x gzipped BTF); archive file $arc"
  echo "CTF uncompressed archive, gzip -9: $raw_gz bytes = $(ratio "$raw_gz" "$btf") x BTF"
} | tee summary.txt
[ "$objdump_status" = 0 ] && [ "$check_status" = 0 ] && [ "$same" != NO ]
