#!/bin/sh
# Builds the differential pipeline fuzzer (diff_fuzzer.cpp) and runs it.
#
#   test/fuzz/run_diff_fuzzer.sh [seconds] [extra libFuzzer flags...]
#       the libFuzzer target (clang++, AddressSanitizer and UndefinedBehaviorSanitizer) for a
#       bounded time, seed fixed (-seed=1) so that runs repeat; a failure is a finding
#       (crash-* in the build directory) and a non-zero exit status.
#   test/fuzz/run_diff_fuzzer.sh --generate [diff_fuzzer options...]
#       the plain generator (no libFuzzer, no sanitizers, -O2) over a range of seeds
#       (default: --first 1 --count 100): failures are minimized and printed, and saved
#       with --save DIR (test/data/regressions for a case to keep).
#
# The build goes to $CTIR_FUZZ_BUILD (default: build/fuzz under the repository); the
# compiler is $CXX_FUZZ (default: clang++).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${CTIR_FUZZ_BUILD:-$root/build/fuzz}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$build"

if [ "${1:-}" = "--generate" ]; then
  shift
  "$cxx" -std=c++20 -O2 -DCTIR_DIFF_FUZZ_GENERATOR -I"$root/include" -I"$root/test/support" \
    "$here/diff_fuzzer.cpp" -o "$build/diff_generator"
  exec "$build/diff_generator" "$@"
fi

seconds=${1:-60}
[ $# -gt 0 ] && shift
"$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/include" -I"$root/test/support" "$here/diff_fuzzer.cpp" -o "$build/diff_fuzzer"

mkdir -p "$build/diff_corpus"
cd "$build"
exec ./diff_fuzzer -seed=1 -max_total_time="$seconds" -max_len=64 -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 "$@" diff_corpus
