#!/usr/bin/env bash
# Builds ctir's examples and tools (Release, g++) in build/demo and runs them.
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

BUILD_DIR="$CTIR_ROOT/build/demo"

# Runs every built example, quick_start first, then in name order.
run_examples() {
  local dir="$BUILD_DIR/examples"
  local examples=()
  if [[ -x "$dir/ctir_example_quick_start" ]]; then
    examples+=("$dir/ctir_example_quick_start")
  fi
  local exe
  for exe in "$dir"/ctir_example_*; do
    [[ -f "$exe" && -x "$exe" ]] || continue
    [[ "$(basename "$exe")" == ctir_example_quick_start ]] && continue
    examples+=("$exe")
  done

  if [[ ${#examples[@]} -eq 0 ]]; then
    echo "No examples were built (examples/ has no .cpp files yet)."
    return 0
  fi
  for exe in "${examples[@]}"; do
    echo
    echo "=== $(basename "$exe") ==="
    "$exe" || ctir_die "$(basename "$exe") failed with exit status $?"
  done
}

# Hook for the command-line tool demo: runs scripts/demo_tools.sh when it
# exists, with the build directory as its argument.
run_tool_demo() {
  local script="$CTIR_ROOT/scripts/demo_tools.sh"
  if [[ -f "$script" ]]; then
    echo
    echo "=== tools ==="
    bash "$script" "$BUILD_DIR"
  fi
}

# Runs examples/python/demo.py against the Python package built in BUILD_DIR, when the
# Python frontend was configured (pybind11 and Python 3 found).
run_python_demo() {
  if [[ ! -d "$BUILD_DIR/python/ctir" ]]; then
    echo
    echo "(the Python frontend was not built: see docs/python.md)"
    return 0
  fi
  # The interpreter the module was built for (Debian's /usr/bin/python3 by default).
  local python
  python="$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")"
  echo
  echo "=== examples/python/demo.py ==="
  PYTHONPATH="$BUILD_DIR/python" "${python:-/usr/bin/python3}" "$CTIR_ROOT/examples/python/demo.py" ||
    ctir_die "examples/python/demo.py failed with exit status $?"
}

main() {
  ensure_packages

  echo "=== building ctir examples and tools in ${BUILD_DIR#"$CTIR_ROOT"/} ==="
  ctir_configure "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=g++ \
    -DCTIR_BUILD_TESTS=OFF \
    -DCTIR_BUILD_BENCHMARKS=OFF \
    -DCTIR_BUILD_EXAMPLES=ON \
    -DCTIR_BUILD_TOOLS=ON \
    -DCTIR_WARNINGS_AS_ERRORS=OFF \
    -DCTIR_SANITIZE= \
    || ctir_die "configuring ctir failed"
  ctir_build "$BUILD_DIR" || ctir_die "building ctir failed"

  run_examples
  run_python_demo
  run_tool_demo
}

main "$@"
