#!/bin/sh
# The compiler launcher of the header self-containment checks: runs the compile command it
# is given with -fsyntax-only, then leaves the empty object file the build rule expects.
# A check needs only the front end; generating code for what a header instantiates (every
# pass, for <ctir/passes/passes.hpp>) took more than half of the checks' time.
set -e
out=
prev=
for arg in "$@"; do
  if [ "$prev" = "-o" ]; then
    out=$arg
  fi
  prev=$arg
done
"$@" -fsyntax-only
if [ -n "$out" ]; then
  : >"$out"
fi
