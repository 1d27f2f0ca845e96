#!/usr/bin/env bash
# Counts, under callgrind, the instructions of ten passes run as ten direct calls and as a
# static sequential (plain PassContext), for g++ and clang++ at -O2, and prints per compiler
# the instructions per run of the ten passes, the ratio of the sequential to the direct calls
# (the bar: <= 1.02) and the allocations of the sequential.
#
#   bash bench/pass/callgrind.sh
#
# Environment: CXX_GCC (default g++), CXX_CLANG (default clang++), CTIR_BENCH_OUT (build and
# result directory, default build/bench/pass-callgrind).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${CTIR_BENCH_OUT:-$root/build/bench/pass-callgrind}"
declare -A cxx=([gcc]="${CXX_GCC:-g++}" [clang]="${CXX_CLANG:-clang++}")
for tool in valgrind "${cxx[gcc]}" "${cxx[clang]}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "callgrind.sh: '$tool' is not installed (Debian: apt-get install valgrind g++ clang)" >&2
    exit 1
  fi
done
mkdir -p "$out"
flags=(-std=c++20 -O2 -g -DNDEBUG -Wall -Wextra -Werror -I"$root/include" -I"$root/bench" -Wl,-z,now)
for compiler in gcc clang; do
  "${cxx[$compiler]}" "${flags[@]}" "$root/bench/pass/callgrind_driver.cpp" \
    -o "$out/driver-$compiler" &
done
wait

for compiler in gcc clang; do
  driver="$out/driver-$compiler"
  echo "${cxx[$compiler]} -O2: instructions per run of ten passes over a module of 32 functions"
  printf '  %-8s %14s %14s %8s %12s\n' passes direct sequential ratio allocations
  for kind in nothing work; do
    declare -A per_run=() allocs=()
    for how in direct sequential; do
      base="$out/$compiler.$kind.$how"
      valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$base.out" \
        "$driver" "$kind.$how" >"$base.txt" 2>"$base.log"
      runs=$(awk -F': ' '/^runs:/ { print $2 }' "$base.txt")
      total=$(awk '/^totals:/ { print $2 }' "$base.out")
      per_run[$how]=$(awk -v t="$total" -v r="$runs" 'BEGIN { printf "%.1f", t / r }')
      allocs[$how]=$(awk -F': ' '/^allocations:/ { print $2 }' "$base.txt")
    done
    ratio=$(awk -v a="${per_run[sequential]}" -v b="${per_run[direct]}" 'BEGIN { printf "%.3f", a / b }')
    printf '  %-8s %14s %14s %8s %12s\n' "$kind" "${per_run[direct]}" "${per_run[sequential]}" \
      "$ratio" "${allocs[sequential]}"
  done
done
