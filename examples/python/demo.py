"""A pass written in Python and the C++ standard passes in one pipeline, timed by an
instrument, over examples/python/model.ctir."""

import pathlib
import sys

import numpy as np

import ctir
from ctir import transform
from ctir.instrument import PassTimingInstrument, pass_instrument

MODEL = pathlib.Path(__file__).with_name("model.ctir")


@transform.function_pass(opt_level=1, name="CountCalls")
class CountCalls:
    """Counts the operator calls of each graph-level function (changes nothing)."""

    def __init__(self):
        self.counts = []

    def transform_function(self, func, mod, ctx):
        calls = []
        ctir.walk(func, {"ir.Call": calls.append})
        self.counts.append(len(calls))
        return func


@pass_instrument
class ShowChanges:
    """Prints the passes that changed the module."""

    def __init__(self):
        self.inputs = []  # passes nest (a sequential runs passes): one input per open pass

    def run_before_pass(self, mod, info):
        self.inputs.append(mod)

    def run_after_pass(self, mod, info):
        if not mod.same_as(self.inputs.pop()):
            print(f"  {info.name} changed the module")

    def run_after_pass_failed(self, mod, info, error):
        self.inputs.pop()


def main():
    mod = ctir.parse_file(str(MODEL))
    count_before, count_after = CountCalls(), CountCalls()
    pipeline = transform.Sequential([
        count_before,
        transform.SimplifyExpr(),
        transform.FoldConstant(),
        transform.EliminateCommonSubexpr(),
        transform.DeadCodeElimination(),
        transform.RemoveUnusedFunctions(),
        count_after,
    ])
    timing = PassTimingInstrument()
    print("== running the pipeline at opt_level 3")
    with transform.PassContext(opt_level=3, instruments=[timing, ShowChanges()]):
        optimized = pipeline(mod)
        print("== pass timing")
        print(timing.render())
    print(f"== calls per function: before {count_before.counts}, after {count_after.counts}")
    print("== the optimized module")
    print(optimized)

    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(shape).astype(np.float32) for shape in [(2, 3), (3, 4), (4,)]]
    before = ctir.eval.run(mod, "main", *inputs)
    after = ctir.eval.run(optimized, "main", *inputs)
    print("== @main computes the same before and after:", bool(np.allclose(before, after)))
    return 0 if np.allclose(before, after) else 1


if __name__ == "__main__":
    sys.exit(main())
