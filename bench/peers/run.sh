#!/usr/bin/env bash
# Times ctir-opt against mlir-opt-14 on the same generated module, side by side in one run.
#
#   bash bench/peers/run.sh [CTIR_OPT] [sizes...]
#
#   CTIR_OPT  the ctir-opt to time (default build/release/tools/ctir-opt; build it in Release)
#   sizes     numbers of operator calls (default: 10000 100000 1000000)
#
# Environment: MLIR_OPT (default mlir-opt-14), CTIR_PEERS_RUNS (timed runs of each command per
# row, default 5; the 1M rows use at most CTIR_PEERS_RUNS_1M, default 3), CTIR_PEERS_OUT (the
# generated modules, outputs and timings, default build/bench/peers), CTIR_PEERS_ROWS (a regex
# over the row names: parse_print, cse, pipeline_o2, pipeline_o3, pipeline_o3_verify; default
# all), CTIR_PEERS_SHAPE (blocks, the default, or fibonacci: see gen.py).
#
# For each size, bench/peers/gen.py writes the module as .ctir and .mlir (the same operator
# calls, the same dataflow). Each row runs the ctir command and the MLIR command in turn,
# A B A B ..., after one untimed warm-up of each, under /usr/bin/time; the table gives the
# median wall time and the median peak resident memory of each, and the median of the
# per-pair ratios ctir / MLIR (pairs keep the ratio honest when the machine's speed drifts).
# Every command reads the module from a file and writes the result to a file.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ctir_opt="${1:-$root/build/release/tools/ctir-opt}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(10000 100000 1000000)
mlir_opt="${MLIR_OPT:-mlir-opt-14}"
runs="${CTIR_PEERS_RUNS:-5}"
runs_1m="${CTIR_PEERS_RUNS_1M:-3}"
out="${CTIR_PEERS_OUT:-$root/build/bench/peers}"
rows_regex="${CTIR_PEERS_ROWS:-.}"
shape="${CTIR_PEERS_SHAPE:-blocks}"
case "$shape" in
blocks) gen_flags=() ;;
fibonacci) gen_flags=(--fibonacci) ;;
*)
  echo "run.sh: CTIR_PEERS_SHAPE is '$shape'; use blocks or fibonacci" >&2
  exit 1
  ;;
esac

for tool in "$ctir_opt" "$mlir_opt" /usr/bin/time /usr/bin/python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run.sh: '$tool' not found (ctir-opt: build the target ctir-opt in Release;" \
      "Debian: apt-get install mlir-14-tools time python3)" >&2
    exit 1
  fi
done
mkdir -p "$out"

# Row name, ctir-opt arguments, mlir-opt arguments. CSE in ctir runs at opt_level 3 (its
# level), after the InferType it requires; the default pipeline at -O2 has no CSE, at -O3 it
# has (InferType, SimplifyExpr, FoldConstant, EliminateCommonSubexpr, DeadCodeElimination,
# RemoveUnusedFunctions and the tensor-level passes, which find nothing here). mlir-opt
# verifies the module after parsing and after each pass by default; pipeline_o3_verify asks
# the same of ctir-opt (--verify-each).
rows=(
  "parse_print|-|-"
  "cse|--opt-level 3 -p EliminateCommonSubexpr|--cse"
  "pipeline_o2|-O2|--canonicalize --cse"
  "pipeline_o3|-O3|--canonicalize --cse"
  "pipeline_o3_verify|--verify-each -O3|--canonicalize --cse"
)

# Runs a command once under /usr/bin/time; appends "wall_seconds max_rss_kb" to a file.
time_once() {
  local record="$1"
  shift
  /usr/bin/time -f "%e %M" -o "$record.one" "$@" >/dev/null 2>"$record.err" || {
    echo "run.sh: failed: $*" >&2
    cat "$record.err" >&2
    exit 1
  }
  cat "$record.one" >>"$record"
}

results="$out/results-$shape.tsv"
printf 'size\trow\tctir_s\tmlir_s\tratio\tctir_rss_kb\tmlir_rss_kb\truns\n' >"$results"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for size in "${sizes[@]}"; do
  module="$out/${shape}_$size"
  [[ -f "$module.ctir" && -f "$module.mlir" ]] ||
    /usr/bin/python3 "$root/bench/peers/gen.py" ${gen_flags[@]+"${gen_flags[@]}"} "$size" "$module"
  n="$runs"
  ((size >= 1000000 && runs_1m < n)) && n="$runs_1m"
  for row in "${rows[@]}"; do
    IFS='|' read -r name ctir_args mlir_args <<<"$row"
    [[ "$name" =~ $rows_regex ]] || continue
    [[ "$ctir_args" == "-" ]] && ctir_args=""
    [[ "$mlir_args" == "-" ]] && mlir_args=""
    read -r -a ctir_argv <<<"$ctir_args"
    read -r -a mlir_argv <<<"$mlir_args"
    ctir_cmd=("$ctir_opt" ${ctir_argv[@]+"${ctir_argv[@]}"} "$module.ctir" -o "$out/out.ctir")
    mlir_cmd=("$mlir_opt" ${mlir_argv[@]+"${mlir_argv[@]}"} "$module.mlir" -o "$out/out.mlir")
    record="$out/$shape.$name.$size"
    rm -f "$record".{ctir,mlir}
    "${ctir_cmd[@]}" >/dev/null # warm-up: page cache, and an early failure
    "${mlir_cmd[@]}" >/dev/null
    for ((i = 0; i < n; i++)); do
      time_once "$record.ctir" "${ctir_cmd[@]}"
      time_once "$record.mlir" "${mlir_cmd[@]}"
    done
    /usr/bin/python3 - "$size" "$name" "$record.ctir" "$record.mlir" >>"$results" <<'PY'
import statistics, sys
size, name, ctir_file, mlir_file = sys.argv[1:]
read = lambda path: [tuple(map(float, line.split())) for line in open(path) if line.strip()]
ctir, mlir = read(ctir_file), read(mlir_file)
ratios = [c[0] / m[0] if m[0] > 0 else float("nan") for c, m in zip(ctir, mlir)]
median = lambda values: statistics.median(values)
print(f"{size}\t{name}\t{median([c[0] for c in ctir]):.2f}\t{median([m[0] for m in mlir]):.2f}"
      f"\t{median(ratios):.2f}\t{median([c[1] for c in ctir]):.0f}"
      f"\t{median([m[1] for m in mlir]):.0f}\t{len(ratios)}")
PY
    tail -n 1 "$results"
  done
done

# The table, with the growth per 10x of each ctir row (time at 10n over time at n).
/usr/bin/python3 - "$results" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
by = {(r["row"], int(r["size"])): r for r in rows}
print()
print("| size | row | ctir-opt | mlir-opt-14 | ctir / mlir | ctir RSS | mlir RSS | ctir growth per 10x |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    size = int(r["size"])
    smaller = by.get((r["row"], size // 10))
    growth = ""
    if smaller and float(smaller["ctir_s"]) > 0:
        growth = f"{float(r['ctir_s']) / float(smaller['ctir_s']):.1f}"
    print(f"| {size:,} | {r['row']} | {r['ctir_s']} s | {r['mlir_s']} s | {r['ratio']} |"
          f" {int(r['ctir_rss_kb']) // 1024} MB | {int(r['mlir_rss_kb']) // 1024} MB | {growth} |")
PY
