#!/usr/bin/env bash
# Measures what including and using ctir costs a compiler, against the budgets of
# docs/performance.md ("Compile time"), and prints one table per compiler.
#
#   bash bench/compile_time/compile_time.sh [--runs N] [--compilers "gcc clang"] [--no-stress]
#                                           [--stress-limit SECONDS]
#
# Each translation unit of bench/compile_time/tus/ is compiled in N rounds (default 3) with
# g++ and clang++, each round compiling every TU once; the table shows the median user
# time, the peak memory and the object size, the reference it is compared with (measured in
# the same rounds), the median over the rounds of the ratio or the difference to the
# reference, the budget and PASS/FAIL:
#
#   include_ctir -O0   <= 2.0 x baseline -O0, header-only and compiled mode
#   walk -O2           <= include_ctir -O2 + 0.5 s      map -O2  <= include_ctir -O2 + 2 s
#   structural_equal   <= include_ctir -O2 + 1 s
#   sequential -O2     <= include_passes -O2 + 1 s (ten standard passes in a static sequential)
#   walk -O2           <= 1.0 x MLIR 14's mlir_walk -O2 (skipped, loudly, without libmlir-14-dev)
#   stress -O2 (g++)   <= 20 s and <= 1.5 GB (50 node types x 100 static walk/map passes)
#
# The call-site TUs are compiled in compiled mode (-DCTIR_COMPILED_LIB), as a project of many
# translation units uses ctir; include_ctir is measured in both modes. Environment: CXX_GCC
# (default g++), CXX_CLANG (default clang++), CTIR_BENCH_OUT (default build/bench/compile_time).
# The stress TU is compiled once, stopped after --stress-limit seconds (default 300) or at 4 GB
# of memory; a stopped compile is reported as over its limit, and FAILs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/bench/compile_time"
out="${CTIR_BENCH_OUT:-$root/build/bench/compile_time}"
runs=3
compilers=(gcc clang)
stress=1
stress_limit=300
while [[ $# -gt 0 ]]; do
  case "$1" in
  --runs) runs="$2"; shift 2 ;;
  --compilers) read -r -a compilers <<<"$2"; shift 2 ;;
  --no-stress) stress=0; shift ;;
  --stress-limit) stress_limit="$2"; shift 2 ;;
  *) echo "compile_time.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
declare -A cxx=([gcc]="${CXX_GCC:-g++}" [clang]="${CXX_CLANG:-clang++}")
for compiler in "${compilers[@]}"; do
  command -v "${cxx[$compiler]}" >/dev/null 2>&1 ||
    { echo "compile_time.sh: ${cxx[$compiler]} is not installed" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "compile_time.sh: needs GNU time (Debian: apt-get install time)" >&2; exit 1; }

mkdir -p "$out"
bash "$here/gen_stress.sh" 50 100 >"$out/stress.cpp"
mlir_include=/usr/lib/llvm-14/include
have_mlir=0
[[ -f "$mlir_include/mlir/IR/BuiltinOps.h" ]] && have_mlir=1

# measure <compiler> <name> <source> <flags...>: one compile; appends its user seconds and
# peak memory (KB) to the runs of <compiler>/<name> and records its object size (KB).
declare -A seconds memory object runs_seconds runs_memory
measure() {
  local compiler="$1" name="$2" source="$3"
  shift 3
  local line
  line=$(/usr/bin/time -f "%U %M" "${cxx[$compiler]}" "$@" -c "$source" -o "$out/$compiler-$name.o" 2>&1 >/dev/null | tail -n 1) ||
    { echo "compile_time.sh: $compiler failed on $source" >&2; exit 1; }
  runs_seconds[$compiler/$name]+="${line% *} "
  runs_memory[$compiler/$name]+="${line#* } "
  object[$compiler/$name]=$(size "$out/$compiler-$name.o" | awk 'NR==2 {printf "%.0f", ($1+$2)/1024}')
}

# median <numbers...>
median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# summarize <compiler> <name>: the medians of its runs.
summarize() {
  local key="$1/$2"
  # shellcheck disable=SC2086 # the runs are a space-separated list of numbers
  seconds[$key]=$(median ${runs_seconds[$key]})
  # shellcheck disable=SC2086
  memory[$key]=$(awk -v m="$(median ${runs_memory[$key]})" 'BEGIN {printf "%.0f", m/1024}')
  echo "  $1 $2: ${seconds[$key]} s, ${memory[$key]} MB (runs: ${runs_seconds[$key]% })" >&2
}

# paired <compiler> <tu> <ref> <ratio|delta>: the median over the rounds of the TU's time
# divided by (or minus) its reference's time in the same round.
paired() {
  local -a a b values=()
  read -r -a a <<<"${runs_seconds[$1/$2]}"
  read -r -a b <<<"${runs_seconds[$1/$3]}"
  local i
  for ((i = 0; i < ${#a[@]}; ++i)); do
    if [[ $4 == ratio ]]; then
      values+=("$(awk -v x="${a[i]}" -v y="${b[i]}" 'BEGIN {print x / y}')")
    else
      values+=("$(awk -v x="${a[i]}" -v y="${b[i]}" 'BEGIN {print x - y}')")
    fi
  done
  median "${values[@]}"
}

# measure_stress <compiler> <source> <flags...>: one compile, bounded in time and memory.
measure_stress() {
  local compiler="$1" source="$2" line status=0
  shift 2
  line=$( (ulimit -v $((4 * 1024 * 1024)) && /usr/bin/time -f "%U %M" timeout "$stress_limit" \
    "${cxx[$compiler]}" "$@" -c "$source" -o "$out/$compiler-stress.o") 2>&1 >/dev/null | tail -n 1) ||
    status=$?
  if [[ $status -ne 0 ]]; then
    seconds[$compiler/stress]=">$stress_limit"
    memory[$compiler/stress]="?"
    object[$compiler/stress]="-"
    echo "  $compiler stress: stopped (time limit ${stress_limit} s or 4 GB of memory)" >&2
    return
  fi
  seconds[$compiler/stress]="${line% *}"
  memory[$compiler/stress]=$(awk -v m="${line#* }" 'BEGIN {printf "%.0f", m/1024}')
  object[$compiler/stress]=$(size "$out/$compiler-stress.o" | awk 'NR==2 {printf "%.0f", ($1+$2)/1024}')
  echo "  $compiler stress: ${seconds[$compiler/stress]} s, ${memory[$compiler/stress]} MB" >&2
}

# Every round compiles each translation unit once, so that a slow spell of the machine falls
# on a TU and its reference alike; a difference or ratio is the median of the rounds'.
std=(-std=c++20 -I"$root/include")
tus=(walk map structural_equal include_passes sequential)
for compiler in "${compilers[@]}"; do
  echo "Compiling with ${cxx[$compiler]} ($runs rounds) ..." >&2
  for ((round = 0; round < runs; ++round)); do
    measure "$compiler" baseline "$here/tus/baseline.cpp" "${std[@]}" -O0
    measure "$compiler" include_header_only "$here/tus/include_ctir.cpp" "${std[@]}" -O0
    measure "$compiler" include_compiled "$here/tus/include_ctir.cpp" "${std[@]}" -O0 -DCTIR_COMPILED_LIB
    measure "$compiler" include_O2 "$here/tus/include_ctir.cpp" "${std[@]}" -O2 -DCTIR_COMPILED_LIB
    for tu in "${tus[@]}"; do
      measure "$compiler" "$tu" "$here/tus/$tu.cpp" "${std[@]}" -O2 -DCTIR_COMPILED_LIB
    done
    if [[ $have_mlir -eq 1 ]]; then
      measure "$compiler" mlir_walk "$here/tus/mlir_walk.cpp" -std=c++17 -I"$mlir_include" -O2
    fi
  done
  for name in baseline include_header_only include_compiled include_O2 "${tus[@]}"; do
    summarize "$compiler" "$name"
  done
  [[ $have_mlir -eq 1 ]] && summarize "$compiler" mlir_walk
  if [[ $stress -eq 1 && $compiler == gcc ]]; then
    measure_stress "$compiler" "$out/stress.cpp" "${std[@]}" -O2 -DCTIR_COMPILED_LIB
  fi
done

# row <compiler> <tu> <label> <reference> <kind: ratio|delta|absolute> <budget>
failures=0
row() {
  local compiler="$1" tu="$2" label="$3" ref="$4" kind="$5" budget="$6"
  local s="${seconds[$compiler/$tu]}" value verdict reference="-"
  case "$kind" in
  ratio)
    reference="${seconds[$compiler/$ref]} s ($ref)"
    value=$(paired "$compiler" "$tu" "$ref" ratio)
    verdict=$(awk -v r="$value" -v m="$budget" 'BEGIN {print (r <= m) ? "PASS" : "FAIL"}')
    value=$(awk -v r="$value" 'BEGIN {printf "%.2fx", r}')
    budget="<= ${budget}x" ;;
  delta)
    reference="${seconds[$compiler/$ref]} s ($ref)"
    value=$(paired "$compiler" "$tu" "$ref" delta)
    verdict=$(awk -v d="$value" -v m="$budget" 'BEGIN {print (d <= m) ? "PASS" : "FAIL"}')
    value=$(awk -v d="$value" 'BEGIN {printf "%+.2f s", d}')
    budget="<= +${budget} s" ;;
  absolute)
    value="${s} s, ${memory[$compiler/$tu]} MB"
    if [[ $s == ">"* ]]; then
      verdict=FAIL
    else
      verdict=$(awk -v a="$s" -v m="${memory[$compiler/$tu]}" 'BEGIN {print (a <= 20 && m <= 1536) ? "PASS" : "FAIL"}')
    fi
    budget="<= 20 s, <= 1536 MB" ;;
  esac
  [[ $verdict == FAIL ]] && failures=$((failures + 1))
  printf '| %s | %s s | %s MB | %s KB | %s | %s | %s | %s |\n' "$label" "$s" "${memory[$compiler/$tu]}" \
    "${object[$compiler/$tu]}" "$reference" "$value" "$budget" "$verdict"
}

for compiler in "${compilers[@]}"; do
  echo
  echo "### ${cxx[$compiler]} ($("${cxx[$compiler]}" --version | head -n 1)), median of $runs rounds"
  echo
  echo "| translation unit | user | peak memory | object | reference | ratio / difference | budget | |"
  echo "| --- | ---: | ---: | ---: | --- | ---: | --- | --- |"
  row "$compiler" include_header_only "ctir.hpp, empty main, -O0, header-only" baseline ratio 2.0
  row "$compiler" include_compiled "ctir.hpp, empty main, -O0, compiled mode" baseline ratio 2.0
  row "$compiler" walk "one walk, -O2" include_O2 delta 0.5
  row "$compiler" map "one map, -O2" include_O2 delta 2
  row "$compiler" structural_equal "one structural_equal, -O2" include_O2 delta 1
  row "$compiler" sequential "static sequential of 10 passes, -O2" include_passes delta 1
  if [[ $have_mlir -eq 1 ]]; then
    row "$compiler" walk "one walk, -O2, against MLIR 14" mlir_walk ratio 1.0
  fi
  if [[ $stress -eq 1 && $compiler == gcc ]]; then
    row "$compiler" stress "stress: 50 node types x 100 walk/map passes, -O2" - absolute -
  fi
done
if [[ $have_mlir -eq 0 ]]; then
  echo
  echo "SKIPPED: the comparison with MLIR 14 (libmlir-14-dev is not installed; apt-get install libmlir-14-dev)"
fi
echo
echo "baseline: std + Boost.Hana headers ctir needs, empty main (bench/compile_time/tus/baseline.cpp)"
echo "$failures budget(s) missed"
