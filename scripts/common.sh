# Shared helpers for scripts/demo.sh and scripts/test.sh (source it; do not run it).
# shellcheck shell=bash

CTIR_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CTIR_JOBS="${CTIR_JOBS:-$(nproc 2>/dev/null || echo 2)}"

ctir_error() {
  printf 'error: %s\n' "$*" >&2
}

ctir_die() {
  ctir_error "$@"
  exit 1
}

# ctir_as_root <command>...: runs a command as root (directly, or through sudo
# when not root and sudo exists).
ctir_as_root() {
  if [[ "$(id -u)" -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    ctir_error "need root to run: $*"
    ctir_error "run this script as root, or install sudo"
    return 1
  fi
}

ctir_have_benchmark_config() {
  local f
  for f in /usr/lib/*/cmake/benchmark/benchmarkConfig.cmake \
           /usr/lib/cmake/benchmark/benchmarkConfig.cmake \
           /usr/local/lib/cmake/benchmark/benchmarkConfig.cmake \
           /usr/local/lib/*/cmake/benchmark/benchmarkConfig.cmake; do
    [[ -f "$f" ]] && return 0
  done
  return 1
}

# Prints the Debian packages that are needed but missing, one per line.
ctir_missing_packages() {
  command -v g++ >/dev/null 2>&1 || echo g++
  command -v clang++ >/dev/null 2>&1 || echo clang
  command -v cmake >/dev/null 2>&1 || echo cmake
  command -v ninja >/dev/null 2>&1 || echo ninja-build
  [[ -f /usr/include/boost/hana.hpp ]] || echo libboost-dev
  [[ -f /usr/include/doctest/doctest.h ]] || echo doctest-dev
  ctir_have_benchmark_config || echo libbenchmark-dev
  command -v valgrind >/dev/null 2>&1 || echo valgrind
  # The native backend (<ctir/codegen/...>): DLPack's header, and a C compiler to run.
  [[ -f /usr/include/dlpack/dlpack.h ]] || echo libdlpack-dev
  command -v cc >/dev/null 2>&1 || echo gcc
  # The Python frontend (python/) and its tests, with Debian's interpreter /usr/bin/python3.
  [[ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ]] || echo pybind11-dev
  compgen -G "/usr/include/python3*/Python.h" >/dev/null || echo python3-dev
  /usr/bin/python3 -c "import pytest" >/dev/null 2>&1 || echo python3-pytest
  /usr/bin/python3 -c "import numpy" >/dev/null 2>&1 || echo python3-numpy
  # libFuzzer's runtime, for the parser's fuzz target (test/fuzz).
  compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
    compgen -G "/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
    echo libclang-rt-dev
}

# ensure_packages: installs the missing build and test dependencies with
# apt-get (Debian/Ubuntu). Silent when nothing is missing.
ensure_packages() {
  local missing
  mapfile -t missing < <(ctir_missing_packages)
  if [[ ${#missing[@]} -eq 0 ]]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    ctir_die "missing packages (${missing[*]}) and no apt-get to install them; install them by hand"
  fi

  echo "Installing missing packages: ${missing[*]}"
  local log
  log="$(mktemp "${TMPDIR:-/tmp}/ctir-apt.XXXXXX")"
  if ! ctir_as_root env DEBIAN_FRONTEND=noninteractive apt-get update >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    ctir_die "apt-get update failed (full log: $log)"
  fi
  if ! ctir_as_root env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    ctir_die "apt-get install ${missing[*]} failed (full log: $log)"
  fi

  mapfile -t missing < <(ctir_missing_packages)
  if [[ ${#missing[@]} -ne 0 ]]; then
    ctir_die "still missing after apt-get install: ${missing[*]} (log: $log)"
  fi
  rm -f "$log"
}

# ctir_configure <build-dir> <cmake args>...: configures ctir with Ninja.
ctir_configure() {
  local dir="$1"
  shift
  cmake -S "$CTIR_ROOT" -B "$dir" -G Ninja "$@"
}

# ctir_build <build-dir> [targets...]
ctir_build() {
  local dir="$1"
  shift
  local targets=()
  if [[ $# -gt 0 ]]; then
    targets=(--target "$@")
  fi
  cmake --build "$dir" --parallel "$CTIR_JOBS" "${targets[@]}"
}
