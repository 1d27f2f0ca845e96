#!/usr/bin/env bash
# The time of each pass of ctir-opt's default pipeline at -O3 on the generated modules, and its
# growth per 10x input (the bar: at most 12).
#
#   bash bench/peers/growth.sh [CTIR_OPT] [sizes...]
#
#   CTIR_OPT  the ctir-opt to time (default build/release/tools/ctir-opt; build it in Release)
#   sizes     numbers of operator calls (default: 10000 100000 1000000)
#
# Environment: CTIR_PEERS_RUNS (runs per size, default 3; the median of each pass's time is
# kept), CTIR_PEERS_OUT (default build/bench/peers), CTIR_PEERS_SHAPE (blocks or fibonacci).
# The times are ctir-opt's own --time-passes figures (a pass that runs several times in the
# pipeline, as InferType does, is summed), so they leave out parsing and printing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ctir_opt="${1:-$root/build/release/tools/ctir-opt}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(10000 100000 1000000)
runs="${CTIR_PEERS_RUNS:-3}"
out="${CTIR_PEERS_OUT:-$root/build/bench/peers}"
shape="${CTIR_PEERS_SHAPE:-blocks}"
case "$shape" in
blocks) gen_flags=() ;;
fibonacci) gen_flags=(--fibonacci) ;;
*)
  echo "growth.sh: CTIR_PEERS_SHAPE is '$shape'; use blocks or fibonacci" >&2
  exit 1
  ;;
esac
if ! command -v "$ctir_opt" >/dev/null 2>&1; then
  echo "growth.sh: '$ctir_opt' not found (build the target ctir-opt in Release)" >&2
  exit 1
fi
mkdir -p "$out"

for size in "${sizes[@]}"; do
  module="$out/${shape}_$size"
  [[ -f "$module.ctir" ]] ||
    /usr/bin/python3 "$root/bench/peers/gen.py" ${gen_flags[@]+"${gen_flags[@]}"} "$size" "$module"
  for ((i = 0; i < runs; i++)); do
    "$ctir_opt" -O3 --time-passes "$module.ctir" -o "$out/out.ctir" 2>"$out/passes.$shape.$size.$i"
  done
done

/usr/bin/python3 - "$out" "$shape" "$runs" "${sizes[@]}" <<'PY'
import re, statistics, sys
out, shape, runs, sizes = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(s) for s in sys.argv[4:]]
units = {"ms": 1e-3, "s": 1.0, "us": 1e-6, "µs": 1e-6}
times = {}  # (pass, size) -> median seconds
order = []
for size in sizes:
    per_run = []
    for i in range(runs):
        sums = {}
        for line in open(f"{out}/passes.{shape}.{size}.{i}", encoding="utf-8"):
            m = re.match(r"\s+(\w+)\s+([\d.]+) (\w+)\s+([\d.]+) (\w+)", line)
            if not m or m.group(1) == "DefaultPipeline":
                continue
            name = m.group(1)
            if name not in order:
                order.append(name)
            sums[name] = sums.get(name, 0.0) + float(m.group(4)) * units[m.group(5)]
        per_run.append(sums)
    for name in order:
        times[(name, size)] = statistics.median(run.get(name, 0.0) for run in per_run)
head = " | ".join(f"{s:,}" for s in sizes)
print(f"| pass | {head} | growth per 10x |")
print("| --- |" + " ---: |" * (len(sizes) + 1))
for name in order:
    cells = [times[(name, s)] for s in sizes]
    if max(cells) < 1e-3:
        continue  # the tensor-level passes: nothing to do on a graph-level module
    growth = [f"{b / a:.1f}" for a, b in zip(cells, cells[1:]) if a > 0]
    print(f"| {name} | " + " | ".join(f"{c * 1e3:.1f} ms" for c in cells) + f" | {', '.join(growth)} |")
PY
