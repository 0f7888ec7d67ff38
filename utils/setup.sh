#!/usr/bin/env bash
# Set up dwarfpack on Debian 12 (as root): install what is missing, configure,
# build; then either run the default job or every test.
#
#   utils/setup.sh run    build, convert dwarfpack's own binary, look up a few
#                         addresses, print a summary
#   utils/setup.sh test   build and run the lit suite and the unit tests, on
#                         the release build and on one with assertions,
#                         AddressSanitizer and UBSan
set -euo pipefail

mode=${1:-run}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${DWARFPACK_BUILD_DIR:-$top/build}
assert_build=${DWARFPACK_ASSERT_BUILD_DIR:-$top/build-assert}

packages=(cmake ninja-build g++ gcc make pkgconf python3 file
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev lld-19 zlib1g-dev
  libzstd-dev liblzma-dev libgtest-dev
  binutils gdb elfutils dwarves dwz libdebuginfod-dev debuginfod strace
  linux-perf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== configuring and building in $build"
cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -- -j"$(nproc)"

case "$mode" in
run)
  exec "$top/utils/default-job.sh" "$build/bin/dwarfpack"
  ;;
test)
  status=0
  suites() {
    echo "== lit ($1)"
    python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$1/test" || status=1
    echo "== unit tests, ctest ($1)"
    (cd "$1" && ctest --output-on-failure -j"$(nproc)") || status=1
  }
  suites "$build"
  # The same suites with assertions and the sanitizers on: a release build
  # compiles out the checks of LLVM's containers, so misuse there (a
  # reserved DenseMap key taken from the input) only shows as undefined
  # behaviour, and a read past a buffer or a leak shows nowhere. A
  # sanitizer's report aborts the process, so `not dwarfpack ...` in a test
  # fails too (by default it would exit with 1, an expected failure). This
  # build uses clang, the release build the system's gcc: code one of them
  # refuses (the fuzz targets are clang's) fails here, and clang's UBSan
  # checks more (enum values a C caller passes).
  echo "== configuring and building with assertions and sanitizers in $assert_build"
  cmake -S "$top" -B "$assert_build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DDWARFPACK_ASSERTIONS=ON -DDWARFPACK_SANITIZE=ON >/dev/null
  cmake --build "$assert_build" -- -j"$(nproc)"
  ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
    UBSAN_OPTIONS=abort_on_error=1:print_stacktrace=1 suites "$assert_build"
  exit $status
  ;;
*)
  echo "usage: $0 run|test" >&2
  exit 2
  ;;
esac
