"""C++ errors as ctir.Error subclasses; nodes shared by reference count; the GIL released
while C++ passes run."""

import gc
import sys
import threading
import time

import pytest

import ctir
from ctir import transform

from conftest import ADD_ONE

ILL_TYPED = """\
def @main(%x: Tensor[(2), float32], %y: Tensor[(3), float32]) {
  add(%x, %y)
}
"""


def test_a_cpp_pass_error_is_a_pass_error_with_message_and_location():
    mod = ctir.parse(ILL_TYPED, "ill.ctir")
    with pytest.raises(ctir.PassError) as info:
        transform.InferType()(mod)
    error = info.value
    assert isinstance(error, ctir.Error) and isinstance(error, RuntimeError)
    assert error.pass_name == "InferType"
    assert str(error).startswith("Error in pass InferType:")
    assert "cannot broadcast" in error.message
    assert error.location.strip() == "at ill.ctir:2:3"


def test_a_pass_error_inside_a_sequential_is_reported_once():
    mod = ctir.parse(ILL_TYPED)
    with pytest.raises(ctir.PassError) as info:
        transform.Sequential([transform.SimplifyExpr(), transform.InferType()])(mod)
    assert str(info.value).count("Error in pass") == 1


def test_nodes_cross_by_reference_not_by_copy(add_one_mod):
    func = add_one_mod["add_one"]
    count = func.use_count
    again = add_one_mod["add_one"]
    assert again.same_as(func)
    assert func.use_count == count + 1  # one more Python reference, no new node
    del again
    gc.collect()
    assert func.use_count == count


def test_python_drops_its_references_to_nodes():
    func = ctir.parse(ADD_ONE)["add_one"]
    body = func.body
    assert body.use_count == 2  # the function's field and the Python object
    del func
    gc.collect()
    assert body.use_count == 1


def test_a_python_pass_holds_no_reference_after_it_is_gone(graph_mod):
    class Payload:
        pass

    payload = Payload()
    before = sys.getrefcount(payload)

    @transform.module_pass(opt_level=0)
    def keep(mod, ctx, payload=payload):
        return mod

    keep(graph_mod)
    del keep
    gc.collect()
    assert sys.getrefcount(payload) == before


def test_running_pipelines_many_times_leaks_no_reference_to_the_module(graph_mod):
    main = graph_mod["main"]
    baseline = main.use_count

    @transform.function_pass(opt_level=0)
    def touch(func, mod, ctx):
        ctir.walk(func, {"ir.Call": lambda c: None})
        return func

    @ctir.instrument.pass_instrument
    class Keep:
        def run_after_pass(self, mod, info):
            self.last = mod

    for _ in range(300):
        keep = Keep()
        with transform.PassContext(instruments=[keep, ctir.instrument.PassTimingInstrument()]):
            out = transform.Sequential([touch, transform.SimplifyExpr(), touch])(graph_mod)
        del keep, out
    gc.collect()
    assert main.use_count == baseline


def test_the_gil_is_released_while_a_cpp_pass_runs():
    # A long chain of lets: FoldConstant takes a while on it in C++.
    lines = ["def @main(%x: Tensor[(2), float32]) {"]
    for i in range(20000):
        prev = "%x" if i == 0 else f"%{i - 1}"
        lines.append(f"  %{i} = add({prev}, const([1f, 1f]));")
    lines.append(f"  %{19999}\n}}")
    mod = ctir.parse("\n".join(lines) + "\n")
    seq = transform.Sequential([transform.InferType(), transform.FoldConstant(),
                                transform.SimplifyExpr(), transform.InferType()])

    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    start = time.perf_counter()
    thread.start()
    seq(mod)
    end = time.perf_counter()
    done.set()
    thread.join()
    during = [t for t in ticks if start < t < end]
    # With the GIL held for the whole run, the ticker could not run until it ends.
    assert end - start > 0.05
    assert len(during) >= 5


def test_passes_run_concurrently_from_threads_with_their_own_contexts(graph_mod):
    results = {}

    def worker(level):
        with transform.PassContext(opt_level=level):
            results[level] = transform.PassContext.current().opt_level
            transform.Sequential([transform.InferType(), transform.FoldConstant()])(graph_mod)

    threads = [threading.Thread(target=worker, args=(level,)) for level in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: 0, 1: 1, 2: 2, 3: 3}
