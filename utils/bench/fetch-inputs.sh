#!/usr/bin/env bash
# Fetch and build the real benchmark inputs on demand (never committed).
#
#   utils/bench/fetch-inputs.sh [--print] [--variants]
#
# Into $DWARFPACK_BENCH_DIR (default /var/tmp/dwarfpack-bench) it puts:
#   kdbg/                 the Debian 6.1 cloud kernel debug package, extracted
#   vmlinux               symlink to kdbg/usr/lib/debug/boot/vmlinux-*
#   sqlite/sqlite-gcc     SQLite shell-less demo, gcc -O2 -g
#   sqlite/sqlite-clang   the same, clang-19 -O2 -g
#   dwarfpack             a copy of build/bin/dwarfpack (C++, -O2 -g)
# With --variants, also SQLite built the ways that change what the DWARF
# looks like (see utils/bench/README.md):
#   sqlite/sqlite-gcc-lto        gcc -O2 -g -flto (early debug: abstract
#                                origins in other units)
#   sqlite/sqlite-clang-thinlto  clang-19 -O2 -g -flto=thin, lld
#   sqlite/split/sqlite-gcc-split  gcc -O2 -g -gsplit-dwarf, .dwo beside it
#   sqlite/sqlite-clang-d4-types-zstd  clang-19 -O1 -gdwarf-4
#                                -fdebug-types-section -gz=zstd
#   sqlite/sqlite-gcc-os-g3      gcc -Os -g3 -gdwarf-5 (macro sections)
# Everything already present is reused, so running it again is cheap. With
# --print it only prints the input paths (one "name path" per line) of the
# inputs that exist.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
bench=${DWARFPACK_BENCH_DIR:-/var/tmp/dwarfpack-bench}
build=${DWARFPACK_BUILD_DIR:-$top/build}
kernel_pkg=linux-image-6.1.0-56-cloud-amd64-dbg
kernel_meta=linux-image-cloud-amd64-dbg
sqlite_npm=better-sqlite3@12.11.1
# Recipe of ../shared/data/breakpad/README.md; gcc 12.2.0 gives this build id.
sqlite_gcc_buildid=deac34b34567a84bda6b660a6264abbfde3e9b99
shell_main=$top/../shared/data/breakpad/sqlite_main.c

print_inputs() {
  local v
  v=$(ls "$bench"/kdbg/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1 || true)
  [ -n "$v" ] && echo "vmlinux $v"
  [ -x "$bench/sqlite/sqlite-gcc" ] && echo "sqlite-gcc $bench/sqlite/sqlite-gcc"
  [ -x "$bench/sqlite/sqlite-clang" ] && echo "sqlite-clang $bench/sqlite/sqlite-clang"
  [ -x "$bench/dwarfpack" ] && echo "dwarfpack $bench/dwarfpack"
  for v in sqlite-gcc-lto sqlite-clang-thinlto split/sqlite-gcc-split \
    sqlite-clang-d4-types-zstd sqlite-gcc-os-g3; do
    [ -x "$bench/sqlite/$v" ] && echo "${v#split/} $bench/sqlite/$v"
  done
  return 0
}

variants=0
for arg in "$@"; do
  case $arg in
  --print) print_inputs; exit 0 ;;
  --variants) variants=1 ;;
  *) echo "usage: $0 [--print] [--variants]" >&2; exit 2 ;;
  esac
done

log() { echo "== $*" >&2; }

# --- tools -----------------------------------------------------------------
need_pkgs=()
command -v /usr/bin/time >/dev/null || need_pkgs+=(time)
command -v npm >/dev/null || need_pkgs+=(npm)
command -v gcc >/dev/null || need_pkgs+=(gcc)
command -v clang-19 >/dev/null || need_pkgs+=(clang-19)
command -v dpkg-deb >/dev/null || need_pkgs+=(dpkg)
command -v python3 >/dev/null || need_pkgs+=(python3)
[ -x /usr/lib/llvm-19/bin/llvm-gsymutil ] || need_pkgs+=(llvm-19)
if [ $variants = 1 ] && ! [ -x /usr/lib/llvm-19/bin/ld.lld ]; then
  need_pkgs+=(lld-19)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing: ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

mkdir -p "$bench"

# --- kernel ----------------------------------------------------------------
vmlinux=$(ls "$bench"/kdbg/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1 || true)
if [ -z "$vmlinux" ]; then
  (
    cd "$bench"
    deb=$(ls ${kernel_pkg}_*.deb 2>/dev/null | head -1 || true)
    if [ -z "$deb" ]; then
      log "downloading $kernel_pkg (about 280 MB)"
      if ! apt-get download "$kernel_pkg" >&2; then
        # That ABI is gone from the archive: take what the metapackage points to.
        apt-get update -qq
        real=$(apt-cache depends "$kernel_meta" 2>/dev/null |
          sed -n 's/^ *Depends: \(linux-image-[^ ]*-dbg\)$/\1/p' | head -1)
        [ -n "$real" ] || { echo "cannot resolve $kernel_meta" >&2; exit 1; }
        log "$kernel_pkg unavailable; downloading $real"
        apt-get download "$real" >&2
      fi
      deb=$(ls linux-image-*-dbg_*.deb | head -1)
    fi
    log "extracting $deb"
    rm -rf kdbg.tmp && mkdir kdbg.tmp
    dpkg-deb -x "$deb" kdbg.tmp
    rm -rf kdbg && mv kdbg.tmp kdbg
  )
  vmlinux=$(ls "$bench"/kdbg/usr/lib/debug/boot/vmlinux-* | head -1)
else
  log "reusing $vmlinux"
fi
ln -sfn "$vmlinux" "$bench/vmlinux"

# --- SQLite ----------------------------------------------------------------
sq=$bench/sqlite
mkdir -p "$sq"
if [ ! -f "$sq/sqlite3.c" ]; then
  log "fetching $sqlite_npm from npm"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$sqlite_npm" >/dev/null)
  tar -xzf "$tmp"/better-sqlite3-*.tgz -C "$tmp" package/deps/sqlite3
  cp "$tmp"/package/deps/sqlite3/sqlite3.c "$tmp"/package/deps/sqlite3/sqlite3.h "$sq/"
  rm -rf "$tmp"
fi
cmp -s "$shell_main" "$sq/shell_main.c" || cp "$shell_main" "$sq/shell_main.c"
build_sqlite() { # name compiler
  local out=$sq/$1
  if [ ! -x "$out" ] || [ "$out" -ot "$sq/shell_main.c" ]; then
    log "building $1 with $2 -O2 -g"
    (cd "$sq" && "$2" -O2 -g -fdebug-prefix-map="$PWD"=/src shell_main.c sqlite3.c -o "$1.tmp" -lm &&
      mv "$1.tmp" "$1")
  fi
}
build_sqlite sqlite-gcc gcc
build_sqlite sqlite-clang clang-19
id=$(/usr/lib/llvm-19/bin/llvm-readelf -n "$sq/sqlite-gcc" | sed -n 's/.*Build ID: *//p')
[ "$id" = "$sqlite_gcc_buildid" ] ||
  log "note: sqlite-gcc build id $id differs from the recorded $sqlite_gcc_buildid (other gcc?)"

if [ $variants = 1 ]; then
  build_variant() { # name compiler flags...
    local name=$1 cc=$2
    shift 2
    [ -x "$sq/$name" ] && return 0
    log "building $name with $cc $*"
    (cd "$sq" && "$cc" "$@" -fdebug-prefix-map="$PWD"=/src shell_main.c sqlite3.c \
      -o "$name.tmp" -lm && mv "$name.tmp" "$name")
  }
  build_variant sqlite-gcc-lto gcc -O2 -g -flto=2
  build_variant sqlite-clang-thinlto clang-19 -O2 -g -flto=thin -fuse-ld=lld
  build_variant sqlite-clang-d4-types-zstd clang-19 -O1 -gdwarf-4 \
    -fdebug-types-section -gz=zstd
  build_variant sqlite-gcc-os-g3 gcc -Os -g3 -gdwarf-5
  # Objects compiled one by one, so each .dwo is named after its source
  # and lies beside the program (no prefix map: readers find the .dwo
  # through the compilation directory).
  if [ ! -x "$sq/split/sqlite-gcc-split" ]; then
    log "building sqlite-gcc-split with gcc -O2 -g -gsplit-dwarf"
    mkdir -p "$sq/split"
    (cd "$sq/split" && cp ../sqlite3.c ../sqlite3.h ../shell_main.c . &&
      gcc -O2 -g -gsplit-dwarf -c sqlite3.c && gcc -O2 -g -gsplit-dwarf -c shell_main.c &&
      gcc sqlite3.o shell_main.o -o sqlite-gcc-split.tmp -lm &&
      mv sqlite-gcc-split.tmp sqlite-gcc-split)
  fi
fi

# --- dwarfpack itself ------------------------------------------------------
if [ -x "$build/bin/dwarfpack" ]; then
  cmp -s "$build/bin/dwarfpack" "$bench/dwarfpack" ||
    cp "$build/bin/dwarfpack" "$bench/dwarfpack"
else
  log "no $build/bin/dwarfpack: build dwarfpack first (ninja -C build) to bench it"
fi

print_inputs
