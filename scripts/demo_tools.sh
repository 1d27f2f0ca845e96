#!/usr/bin/env bash
# Shows ctir-opt and ctir-diff at work on the modules of test/data/tools.
#
#   bash scripts/demo_tools.sh BUILD_DIR
#
# BUILD_DIR is a configured ctir build folder; the tools are built there if they are not yet.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash scripts/demo_tools.sh BUILD_DIR" >&2
  exit 2
fi
build="$(cd "$1" && pwd)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="$build/tools/ctir-opt"
diff="$build/tools/ctir-diff"

if [[ ! -x "$opt" || ! -x "$diff" ]]; then
  cmake --build "$build" --target ctir-opt ctir-diff
fi

# Short, stable paths in the tools' messages.
cd "$root/test/data/tools"

# Prints a command (the tools' paths relative to the build folder, arguments quoted as a
# shell would need them), then runs it.
show() {
  local line="" arg
  for arg in "${@/#$build\//}"; do
    if [[ "$arg" =~ ^[A-Za-z0-9_./=,:@+-]+$ ]]; then
      line+=" $arg"
    else
      line+=" '${arg//\'/\'\\\'\'}'"
    fi
  done
  printf '\n$%s\n' "$line"
  "$@"
}

# Scratch files of the end-to-end run.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "--- ctir-opt formats a hand-written module into canonical text:"
show "$opt" messy.ctir

echo
echo "--- ctir-opt runs a pipeline of registered passes, with instruments from the command line:"
show "$opt" mixed_module.ctir \
  -p 'PrintIR{header="as parsed"},sequential{name=Checks}(PrintIR{header="inside Checks"})' \
  --print-ir-after Checks --verify-each --time-passes -o /dev/null

echo
echo "--- ctir-opt lists what it can run:"
show "$opt" --list-passes

echo
echo "--- ctir-opt reports a bad pipeline with the nearest registered name (exit status 2):"
status=0
show "$opt" mixed_module.ctir -p 'PrintIR,PrintRI' || status=$?
echo "(exit status $status)"

echo
echo "--- ctir-diff: the same program with every local variable renamed is equal (exit status 0):"
status=0
show "$diff" diff/alpha_a.ctir diff/alpha_b.ctir || status=$?
echo "(exit status $status)"

echo
echo "--- ctir-diff: a changed literal is shown on both sides (exit status 1):"
status=0
show "$diff" diff/alpha_a.ctir diff/literal_b.ctir || status=$?
echo "(exit status $status)"

echo
echo "=== A small model end to end (test/data/tools/model.ctir) ==="
echo
echo "--- The -O3 pipeline, with each pass's time and what each pass changed:"
show "$opt" model.ctir -O3 --time-passes --print-changed -o "$work/optimized.ctir"

echo
echo "--- LegalizeOps lowers the graph operators to generated tensor-level functions,"
echo "--- called through call_dps; the tensor-level passes then tidy them:"
show "$opt" "$work/optimized.ctir" -p 'LegalizeOps,Simplify,RemoveNoOp' -o "$work/lowered.ctir"
cat "$work/lowered.ctir"

echo
echo "--- The reference interpreter runs the original and the lowered module on the same"
echo "--- random inputs:"
show "$opt" model.ctir --run main --inputs random:4
show "$opt" "$work/lowered.ctir" --run main --inputs random:4
echo
# The inputs and outputs only: the command lines differ.
values() { "$opt" "$1" --run main --inputs random:4 | grep -E '^(input|output) '; }
if diff -u <(values model.ctir) <(values "$work/lowered.ctir"); then
  echo "The original and the lowered module agree on every output."
else
  echo "The original and the lowered module disagree (see the diff above)." >&2
  exit 1
fi

echo
echo "--- The same lowered module compiled to native code through C (--backend compiled)"
echo "--- on the same random inputs; the first lines of the C it compiles:"
show "$opt" "$work/lowered.ctir" --emit c -o "$work/lowered.c"
grep -m 1 -A 12 '^/\* prim @' "$work/lowered.c"
show "$opt" "$work/lowered.ctir" --run main --inputs random:4 --backend compiled
compiled() { "$opt" "$1" --run main --inputs random:4 --backend compiled | grep -E '^(input|output) '; }
if diff -u <(values model.ctir) <(compiled "$work/lowered.ctir"); then
  echo "The interpreted model and the compiled lowered module agree on every output."
else
  echo "The interpreted and the compiled module disagree (see the diff above)." >&2
  exit 1
fi
