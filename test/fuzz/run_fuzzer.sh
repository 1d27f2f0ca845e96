#!/bin/sh
# Builds the parser's libFuzzer target with clang++ and runs it for a bounded time.
#
#   test/fuzz/run_fuzzer.sh [seconds] [extra libFuzzer flags...]
#
# seconds defaults to 60; the seed is fixed (-seed=1) so that runs repeat. The
# build goes to $CTIR_FUZZ_BUILD (default: build/fuzz under the repository); the
# seed corpus is test/fuzz/corpus, copied into the build directory so that new
# inputs do not touch the sources. Findings (crash-*, leak-*, timeout-*) are
# written to the build directory; the exit status is libFuzzer's (non-zero on a
# finding).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
build=${CTIR_FUZZ_BUILD:-$root/build/fuzz}
cxx=${CXX_FUZZ:-clang++}

mkdir -p "$build/corpus"
cp "$here"/corpus/*.ctir "$build/corpus/"

"$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/include" "$here/parse_fuzzer.cpp" -o "$build/parse_fuzzer"

cd "$build"
exec ./parse_fuzzer -seed=1 -max_total_time="$seconds" -max_len=4096 -timeout=10 -dict="$here/ctir.dict" \
  -rss_limit_mb=2048 -print_final_stats=1 "$@" corpus
