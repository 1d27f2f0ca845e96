#!/usr/bin/env bash
# Builds ctir and runs all of its tests, in stages:
#   gcc    g++ Release (-O2), warnings as errors, tests + examples + benchmarks +
#          tools, every public header compiled on its own, the consumer projects
#   clang  clang++ at -O0 with AddressSanitizer + UndefinedBehaviorSanitizer,
#          warnings as errors, tests + examples + benchmarks + tools
#   tsan   clang++ with ThreadSanitizer, only the tests that run function passes on
#          several threads (the pass infrastructure's and the runtime pass layer's)
# and one more on request:
#   asan   g++ Debug (-O0) with AddressSanitizer + UndefinedBehaviorSanitizer
# Release means -O2, the level the performance bars are stated at. Each compiler
# builds everything once: the sanitizers ride on the clang build rather than on a
# third build of every test (which took a third of the run).
# Select stages with CTIR_STAGES (default "gcc clang tsan"), e.g.
#   CTIR_STAGES=gcc bash scripts/test.sh
# Build trees: build/test-<stage>. Parallelism: CTIR_JOBS (default: nproc).
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ALL_STAGES="gcc clang asan tsan"
STAGES="${CTIR_STAGES:-gcc clang tsan}"

CURRENT_STAGE=""
STAGE_START=0
TOTAL_START=$(date +%s)
SUMMARY=()

banner() {
  echo
  echo "================================================================"
  echo "== $*"
  echo "================================================================"
}

# step <description> <command>...: runs a command; on failure reports the stage
# and stops the whole run.
step() {
  local what="$1"
  shift
  echo "-- $what"
  local status=0
  "$@" || status=$?
  if [[ $status -ne 0 ]]; then
    local now
    now=$(date +%s)
    echo
    echo "FAILED: stage '$CURRENT_STAGE': $what (exit status $status," \
      "after $((now - STAGE_START)) s in the stage)" >&2
    SUMMARY+=("$(printf '%-8s %6d s  FAILED (%s)' "$CURRENT_STAGE" "$((now - STAGE_START))" "$what")")
    print_summary
    exit 1
  fi
}

begin_stage() {
  CURRENT_STAGE="$1"
  STAGE_START=$(date +%s)
  banner "stage $1: $2"
}

end_stage() {
  local seconds=$(( $(date +%s) - STAGE_START ))
  SUMMARY+=("$(printf '%-8s %6d s  passed' "$CURRENT_STAGE" "$seconds")")
  echo "== stage $CURRENT_STAGE passed in ${seconds} s"
}

print_summary() {
  echo
  echo "== summary"
  local line
  for line in "${SUMMARY[@]}"; do
    echo "   $line"
  done
  echo "   total    $(( $(date +%s) - TOTAL_START )) s"
}

# run_ctest <build-dir>: runs every test (but those labelled $SKIPPED_LABEL, if set);
# CTest's "N% tests passed" line stays visible.
SKIPPED_LABEL=""
run_ctest() {
  local skip=()
  if [[ -n "$SKIPPED_LABEL" ]]; then
    skip=(-LE "$SKIPPED_LABEL")
  fi
  ctest --test-dir "$1" --output-on-failure --no-tests=error -j "$CTIR_JOBS" "${skip[@]}"
}

# build_and_test <build-dir> <cmake args>...
build_and_test() {
  local dir="$1"
  shift
  step "configure ${dir#"$CTIR_ROOT"/}" ctir_configure "$dir" "$@"
  step "build" ctir_build "$dir"
  step "test" run_ctest "$dir"
}

stage_gcc() {
  begin_stage gcc "g++ Release, -Werror, tests + examples + benchmarks + tools + header checks + consumers"
  build_and_test "$CTIR_ROOT/build/test-gcc" \
    -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS= \
    -DCTIR_WARNINGS_AS_ERRORS=ON \
    -DCTIR_SANITIZE= \
    -DCTIR_BUILD_TESTS=ON -DCTIR_BUILD_EXAMPLES=ON \
    -DCTIR_BUILD_BENCHMARKS=ON -DCTIR_BUILD_TOOLS=ON \
    -DCTIR_HEADER_CHECKS=ON -DCTIR_CONSUMER_TESTS=ON
  end_stage
}

# build_and_test_sanitized <build-dir> <compiler> <warnings-as-errors> <benchmarks>:
# a Debug build at -O0 with AddressSanitizer and UndefinedBehaviorSanitizer. -O0 because
# the stage is bound by compile time (-O1 with sanitizers compiles ctir's template-heavy
# tests about 1.7 times slower); -g1 (line tables, enough for the sanitizers' stack
# traces) saves another tenth. One CTest test per test executable: starting an
# instrumented executable once per doctest case costs minutes. Header checks and consumer
# projects are the gcc stage's, and so are the benchmarks' smoke runs: the benchmarks are
# built here (they compile with this compiler's warnings), but running them under the
# sanitizers repeated, on inputs of a million nodes, what the unit tests check (two
# minutes of the stage).
build_and_test_sanitized() {
  export ASAN_OPTIONS="detect_leaks=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  SKIPPED_LABEL="bench"
  build_and_test "$1" \
    -DCMAKE_CXX_COMPILER="$2" \
    -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCTIR_TEST_DISCOVERY=OFF \
    -DCMAKE_CXX_FLAGS= \
    -DCTIR_WARNINGS_AS_ERRORS="$3" \
    -DCTIR_SANITIZE=address,undefined \
    -DCTIR_BUILD_TESTS=ON -DCTIR_BUILD_EXAMPLES=ON \
    -DCTIR_BUILD_BENCHMARKS="$4" -DCTIR_BUILD_TOOLS=ON \
    -DCTIR_HEADER_CHECKS=OFF -DCTIR_CONSUMER_TESTS=OFF
  unset ASAN_OPTIONS UBSAN_OPTIONS
  SKIPPED_LABEL=""
}

stage_clang() {
  begin_stage clang "clang++ -O0, AddressSanitizer + UndefinedBehaviorSanitizer, -Werror, tests + examples + benchmarks + tools"
  build_and_test_sanitized "$CTIR_ROOT/build/test-clang" clang++ ON ON
  end_stage
}

stage_asan() {
  # GCC's sanitizer builds emit known false-positive warnings, so they are not errors here.
  begin_stage asan "g++ Debug, AddressSanitizer + UndefinedBehaviorSanitizer"
  build_and_test_sanitized "$CTIR_ROOT/build/test-asan" g++ OFF OFF
  end_stage
}

# The test executables a ThreadSanitizer build runs: function passes run their functions
# on a thread pool (pass.num_threads), and these are the tests that drive it.
stage_tsan() {
  begin_stage tsan "clang++ ThreadSanitizer, -Werror, the pass tests (function passes on several threads)"
  local dir="$CTIR_ROOT/build/test-tsan"
  step "configure ${dir#"$CTIR_ROOT"/}" ctir_configure "$dir" \
    -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCMAKE_CXX_FLAGS= \
    -DCTIR_TEST_DISCOVERY=OFF \
    -DCTIR_WARNINGS_AS_ERRORS=ON \
    -DCTIR_SANITIZE=thread \
    -DCTIR_BUILD_TESTS=ON -DCTIR_BUILD_EXAMPLES=OFF \
    -DCTIR_BUILD_BENCHMARKS=OFF -DCTIR_BUILD_TOOLS=OFF \
    -DCTIR_HEADER_CHECKS=OFF -DCTIR_CONSUMER_TESTS=OFF
  step "build" ctir_build "$dir" ctir_test_pass ctir_test_runtime
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
  step "test pass" "$dir/test/ctir_test_pass"
  # Of the runtime layer's tests, those of its pass files (test/runtime/pass_*.test.cpp).
  step "test runtime passes" "$dir/test/ctir_test_runtime" --source-file='*pass_*'
  unset TSAN_OPTIONS
  end_stage
}

main() {
  local stage
  for stage in $STAGES; do
    case " $ALL_STAGES " in
      *" $stage "*) ;;
      *) ctir_die "unknown stage '$stage' in CTIR_STAGES (known: $ALL_STAGES)" ;;
    esac
  done

  ensure_packages
  echo "ctir tests: stages '$STAGES', $CTIR_JOBS parallel jobs"
  echo "   $(g++ --version | head -n 1)"
  echo "   $(clang++ --version | head -n 1)"
  echo "   $(cmake --version | head -n 1), ninja $(ninja --version)"

  for stage in $STAGES; do
    "stage_$stage"
  done

  print_summary
  echo "All stages passed."
}

main "$@"
