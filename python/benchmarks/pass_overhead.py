"""Per-pass overhead of the pass infrastructure seen from Python: a sequential of 100 passes
that do nothing, run on an empty module, as Python passes and as C++ passes (RemoveNoOp has
no function to visit there). Prints nanoseconds per pass, the best of several rounds.

    PYTHONPATH=build/rel/python /usr/bin/python3 python/benchmarks/pass_overhead.py
"""

import time

import ctir
from ctir import transform

PASSES = 100
ROUNDS = 7
RUNS = 200


def best_ns_per_pass(pipeline, mod):
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in range(RUNS):
            pipeline(mod)
        best = min(best, (time.perf_counter_ns() - start) / (RUNS * PASSES))
    return best


def main():
    mod = ctir.IRModule()

    @transform.module_pass(opt_level=0, name="Nothing")
    def nothing(mod, ctx):
        return mod

    python_seq = transform.Sequential([nothing] * PASSES)
    cpp_seq = transform.Sequential([transform.RemoveNoOp()] * PASSES)

    rows = [("C++ pass (RemoveNoOp), sequential", best_ns_per_pass(cpp_seq, mod)),
            ("Python pass (returns its module), sequential", best_ns_per_pass(python_seq, mod))]
    with transform.PassContext(instruments=[ctir.instrument.PassTimingInstrument()]):
        rows.append(("C++ pass, timing instrument", best_ns_per_pass(cpp_seq, mod)))
        rows.append(("Python pass, timing instrument", best_ns_per_pass(python_seq, mod)))
    for name, ns in rows:
        print(f"{name:48s} {ns:9.0f} ns per pass")


if __name__ == "__main__":
    main()
