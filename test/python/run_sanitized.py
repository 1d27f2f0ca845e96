"""Runs the pytest suite of the Python frontend against a ctir built with
CTIR_SANITIZE=address[,undefined], with the sanitizer runtime preloaded into the (not
instrumented) interpreter and leak detection on.

Fails when pytest fails, on any sanitizer error, and on any leak whose allocation stack
passes through ctir's module, except what the module allocated while it was imported (its
functions and types, which live as long as the process: an extension module is never
unloaded). The interpreter's own allocations still alive at exit are reported too, and are
not ctir's to fix.

    python3 test/python/run_sanitized.py <sanitizer runtime .so>[:<another>] [pytest args]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile


def leak_records(report):
    """The leak records of a LeakSanitizer report: a headline and its stack."""
    return re.findall(r"((?:Direct|Indirect) leak of .*?)(?=\n\n|\Z)", report, flags=re.S)


def main():
    runtime, pytest_args = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as logs:
        env = dict(os.environ,
                   LD_PRELOAD=runtime.replace(":", " "),
                   ASAN_OPTIONS=f"detect_leaks=1:exitcode=0:log_path={logs}/report",
                   UBSAN_OPTIONS=f"print_stacktrace=1:halt_on_error=1:log_path={logs}/report",
                   PYTHONDONTWRITEBYTECODE="1")
        result = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], env=env)
        reports = []
        for path in sorted(glob.glob(os.path.join(logs, "report*"))):
            with open(path, encoding="utf-8", errors="replace") as f:
                reports.append(f.read())

    failed = result.returncode != 0
    for report in reports:
        if re.search(r"ERROR: AddressSanitizer|runtime error:", report):
            print(report, file=sys.stderr)
            failed = True
        ours = [r for r in leak_records(report)
                if ("_ctir." in r or "ctir::" in r) and "PyInit__ctir" not in r]
        for record in ours:
            print(record, file=sys.stderr)
        failed = failed or bool(ours)
        others = len(leak_records(report)) - len(ours)
        if others:
            print(f"({others} leak records of the interpreter and of the module's import ignored)")
    print("sanitized Python tests:", "FAILED" if failed else "passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
