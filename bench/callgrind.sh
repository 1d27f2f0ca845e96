#!/usr/bin/env bash
# Counts the instructions of each traversal under callgrind, for g++ and clang++, and prints a
# table per compiler: instructions, ratio to the hand-written baseline, the bar, allocations.
#
#   bash bench/callgrind.sh [size] [operation-regex]
#   bash bench/callgrind.sh --table [size]     print the tables of the last run again
#   bash bench/callgrind.sh --markdown [size]  the same, as Markdown (docs/performance.md)
#
#   size             16k (default), 1m, or a number of nodes
#   operation-regex  only the operations matching it (default: all; see driver --list)
#
# Environment: CXX_GCC (default g++), CXX_CLANG (default clang++), CTIR_BENCH_COMPILERS (default
# "gcc clang"), CTIR_BENCH_OUT (build and result directory, default build/bench/callgrind). Instruction counts repeat exactly from
# run to run on one machine, unlike wall times. Each run leaves its callgrind.out file in the
# result directory: `callgrind_annotate --inclusive=yes <file>` shows where the time goes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
table_only=0
markdown=0
if [[ "${1:-}" == "--table" || "${1:-}" == "--markdown" ]]; then
  table_only=1
  [[ "$1" == "--markdown" ]] && markdown=1
  shift
fi
size="${1:-16k}"
filter="${2:-.}"
out="${CTIR_BENCH_OUT:-$root/build/bench/callgrind}"
cxx_gcc="${CXX_GCC:-g++}"
cxx_clang="${CXX_CLANG:-clang++}"
read -r -a compilers <<<"${CTIR_BENCH_COMPILERS:-gcc clang}"

declare -A cxx=([gcc]="$cxx_gcc" [clang]="$cxx_clang")
needed=(valgrind)
for compiler in "${compilers[@]}"; do
  if [[ -z "${cxx[$compiler]:-}" ]]; then
    echo "callgrind.sh: CTIR_BENCH_COMPILERS names '$compiler'; use gcc and/or clang" >&2
    exit 1
  fi
  needed+=("${cxx[$compiler]}")
done
for tool in "${needed[@]}"; do
  [[ $table_only -eq 1 ]] && break
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "callgrind.sh: '$tool' is not installed (Debian: apt-get install valgrind g++ clang)" >&2
    exit 1
  fi
done
if [[ $table_only -eq 0 && ! -f /usr/include/valgrind/callgrind.h ]]; then
  echo "callgrind.sh: valgrind/callgrind.h is missing (Debian package valgrind)" >&2
  exit 1
fi

results="$out/results-$size.tsv"
if [[ $table_only -eq 0 ]]; then
mkdir -p "$out"
flags=(-std=c++20 -O2 -g -DNDEBUG
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
  -Wnon-virtual-dtor -Woverloaded-virtual -Werror
  -I"$root/include" -I"$root/bench" -Wl,-z,now)
source_file="$root/bench/traverse/callgrind_driver.cpp"

echo "Building the driver (-O2) with: ${compilers[*]} in $out ..."
pids=()
for compiler in "${compilers[@]}"; do
  "${cxx[$compiler]}" "${flags[@]}" "$source_file" -o "$out/driver-$compiler" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
if [[ $status -ne 0 ]]; then
  echo "callgrind.sh: building the driver failed" >&2
  exit 1
fi

# One line per run: compiler operation instructions allocations same_root statement_share result
fresh="$out/.fresh-$size.tsv"
: >"$fresh"
for compiler in "${compilers[@]}"; do
  driver="$out/driver-$compiler"
  mapfile -t ops < <("$driver" --list | grep -E -- "$filter" || true)
  if [[ ${#ops[@]} -eq 0 ]]; then
    echo "callgrind.sh: no operation matches '$filter'" >&2
    exit 1
  fi
  for op in "${ops[@]}"; do
    base="$out/$compiler.$op.$size"
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$base.out" \
      "$driver" "$op" "$size" >"$base.txt" 2>"$base.log"
    instructions=$(awk '/^totals:/ { total = $2 } END { print total }' "$base.out")
    allocs=$(awk -F': ' '/^allocations:/ { print $2 }' "$base.txt")
    same=$(awk -F': ' '/^same_root:/ { print $2 }' "$base.txt")
    share=$(awk -F': ' '/^statement_share:/ { print $2 }' "$base.txt")
    result=$(awk -F': ' '/^result:/ { print $2 }' "$base.txt")
    nodes=$(awk -F': ' '/^tree_nodes:/ { print $2 }' "$base.txt")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$compiler" "$op" "$instructions" "${allocs:-?}" \
      "${same:--}" "${share:--}" "$nodes" "$result" >>"$fresh"
    printf '  %-6s %-30s %14s instructions\n' "$compiler" "$op" "$instructions"
  done
done
# A partial run (an operation filter) replaces its rows of the last full run in place.
if [[ -f "$results" && "$filter" != "." ]]; then
  awk -F'\t' 'NR == FNR { row[$1 FS $2] = $0; order[++n] = $1 FS $2; next }
               { key = $1 FS $2; if (key in row) { print row[key]; done[key] = 1 } else print }
               END { for (i = 1; i <= n; i++) if (!(order[i] in done)) print row[order[i]] }' \
    "$fresh" "$results" >"$fresh.merged"
  mv "$fresh.merged" "$results"
  rm -f "$fresh"
else
  mv "$fresh" "$results"
fi
fi

# The bars, per operation and implementation (and compiler where they differ).
if [[ ! -s "$results" ]]; then
  echo "callgrind.sh: no results in $results; run bash bench/callgrind.sh $size first" >&2
  exit 1
fi
awk -F'\t' -v size="$size" -v md="$markdown" '
function bar(compiler, op, impl, share) {
  if (impl == "ctir_static") {
    if (op == "walk_add") return compiler == "gcc" ? 1.10 : 1.25;
    if (op == "walk_for") return share + 0;
    if (op ~ /^map_/) return 1.00;
    if (op == "equal" || op == "hash") return 1.5;
  }
  if (impl == "ctir_runtime") return op ~ /^walk_/ ? 2.0 : 1.5;
  return -1;
}
{
  compiler = $1; split($2, parts, "."); op = parts[1]; impl = parts[2];
  key = compiler SUBSEP op SUBSEP impl;
  ir[key] = $3; allocs[key] = $4; same[key] = $5; share[key] = $6; res[key] = $8;
  nodes = $7;
  if (!((compiler, op) in seen_op)) { seen_op[compiler, op] = 1; ops[compiler, ++nops[compiler]] = op; }
  impls[compiler, op, ++nimpl[compiler, op]] = impl;
  if (!(compiler in seen_c)) { seen_c[compiler] = 1; comps[++ncomp] = compiler; }
}
END {
  failures = 0;
  for (c = 1; c <= ncomp; c++) {
    compiler = comps[c];
    title = sprintf("%s -O2, tree of %s nodes (%s), callgrind instructions of one operation", (compiler == "gcc" ? "g++" : "clang++"), nodes, size);
    if (md) {
      printf "\n**%s**\n\n", title;
      printf "| operation | implementation | instructions | × hand-written | bar | verdict | allocations |\n";
      printf "| --- | --- | ---: | ---: | ---: | --- | ---: |\n";
    } else {
      printf "\n%s\n", title;
      printf "%-13s %-16s %14s %8s %8s %-13s %7s\n", "operation", "implementation", "instructions", "x hand", "bar", "verdict", "allocs";
    }
    for (o = 1; o <= nops[compiler]; o++) {
      op = ops[compiler, o];
      hand = ir[compiler, op, "hand_written"];
      for (i = 1; i <= nimpl[compiler, op]; i++) {
        impl = impls[compiler, op, i];
        key = compiler SUBSEP op SUBSEP impl;
        ratio = (hand > 0) ? sprintf("%.3f", ir[key] / hand) : "-";
        b = bar(compiler, op, impl, share[key]);
        barText = "-"; verdict = "";
        if (b >= 0) {
          barText = (op == "walk_for" && impl == "ctir_static") ? sprintf("<=%.3f", b) : sprintf("<=%.2f", b);
          verdict = (hand > 0 && ir[key] / hand <= b) ? "PASS" : "MISS";
        }
        # A map that changes nothing returns its input; the static layer allocates nothing.
        if (op == "map_nochange") {
          if (same[key] != "yes") { verdict = verdict " NOT-SAME-ROOT"; failures++; }
          else if (impl != "virtual_visitor" && allocs[key] != 0) { verdict = "MISS(allocs)"; }
        }
        if (impl == "ctir_runtime" && op ~ /^walk_/ && ir[key] >= ir[compiler, op, "virtual_visitor"]) {
          verdict = verdict " >virt";
        }
        if (op != "hash" && res[key] != res[compiler, op, "hand_written"]) {
          verdict = verdict " WRONG RESULT";
          failures++;
        }
        if (md) {
          mdBar = barText; sub(/^<=/, "≤ ", mdBar);
          printf "| %s | %s | %s | %s | %s | %s | %s |\n", op, impl, ir[key], ratio, mdBar, verdict, allocs[key];
        } else {
          printf "%-13s %-16s %14s %8s %8s %-13s %7s\n", op, impl, ir[key], ratio, barText, verdict, allocs[key];
        }
      }
    }
  }
  if (!md) {
    printf "\nbar: the ratio to hand_written a ctir row must not exceed (walk_for: the share of\n";
    printf "nodes a walk for loops must reach); >virt: the runtime walk is not faster than the\n";
    printf "virtual visitor; MISS(allocs): a map that changes nothing allocated.\n";
  }
  if (failures > 0) { printf "\n%d result(s) disagree with the hand-written one or are not the same root\n", failures; exit 1; }
}' "$results"
if [[ $markdown -eq 0 ]]; then
  echo
  echo "Raw results: $results; callgrind files: $out/<compiler>.<operation>.$size.out"
fi
