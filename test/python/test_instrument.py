"""Instruments written in Python and the built-in ones, with the hook order and exception
rules of ctir's C++ PassContext (those of TVM's test_pass_instrument.py, and exits of the
instruments already entered when one fails to enter)."""

import pytest

import ctir
from ctir import transform
from ctir.instrument import PassInstrument, pass_instrument


def make_recorder(log):
    @pass_instrument
    class Recorder:
        def __init__(self, id, fail=None):
            self.id = id
            self.fail = fail

        def _hook(self, name):
            log.append(f"{self.id} {name}")
            if self.fail == name:
                raise RuntimeError(f"dummy error in {name}")

        def enter_pass_ctx(self):
            self._hook("enter_pass_ctx")

        def exit_pass_ctx(self):
            self._hook("exit_pass_ctx")

        def should_run(self, mod, info):
            self._hook("should_run")
            return True

        def run_before_pass(self, mod, info):
            self._hook("run_before_pass")

        def run_after_pass(self, mod, info):
            self._hook("run_after_pass")

        def run_after_pass_failed(self, mod, info, error):
            log.append(f"{self.id} run_after_pass_failed {type(error).__name__}: {error}")

    return Recorder


def make_pass(log, name="transform", fail=False):
    @transform.module_pass(opt_level=2, name=name)
    def p(mod, ctx):
        log.append(f"{name} pass")
        if fail:
            raise ValueError("dummy error in the pass")
        return mod

    return p


def test_the_decorator_makes_a_pass_instrument_class():
    @pass_instrument
    class Plain:
        def run_before_pass(self, mod, info):
            pass

    assert issubclass(Plain, PassInstrument)
    assert Plain.__name__ == "Plain"
    assert Plain().should_run(None, None) is True


def test_hooks_run_in_order_around_each_pass(graph_mod):
    log = []
    Recorder = make_recorder(log)
    with transform.PassContext(instruments=[Recorder("%1"), Recorder("%2")]):
        make_pass(log, "transform1")(graph_mod)
        make_pass(log, "transform2")(graph_mod)
    per_pass = ["%1 should_run", "%2 should_run", "%1 run_before_pass", "%2 run_before_pass"]
    after = ["%1 run_after_pass", "%2 run_after_pass"]
    assert log == (["%1 enter_pass_ctx", "%2 enter_pass_ctx"] + per_pass +
                   ["transform1 pass"] + after + per_pass + ["transform2 pass"] + after +
                   ["%1 exit_pass_ctx", "%2 exit_pass_ctx"])


def test_an_exception_in_a_python_pass_reaches_the_caller_as_itself(graph_mod):
    log = []
    Recorder = make_recorder(log)
    before = str(graph_mod)
    with pytest.raises(ValueError, match="dummy error in the pass"):
        with transform.PassContext(instruments=[Recorder("%1")]):
            graph_mod = make_pass(log, fail=True)(graph_mod)
    assert log == ["%1 enter_pass_ctx", "%1 should_run", "%1 run_before_pass", "transform pass",
                   "%1 run_after_pass_failed ValueError: dummy error in the pass",
                   "%1 exit_pass_ctx"]
    assert str(graph_mod) == before


def test_an_exception_in_a_python_pass_inside_a_sequential_keeps_its_type(graph_mod):
    log = []
    seq = transform.Sequential([transform.FoldConstant(), make_pass(log, fail=True)])
    with pytest.raises(ValueError, match="dummy error in the pass"):
        seq(graph_mod)


def test_should_run_raising_stops_the_round_and_exits_every_instrument(graph_mod):
    log = []
    Recorder = make_recorder(log)
    with pytest.raises(RuntimeError, match="dummy error in should_run"):
        with transform.PassContext(instruments=[Recorder("%1", "should_run"), Recorder("%2")]):
            make_pass(log)(graph_mod)
    assert log == ["%1 enter_pass_ctx", "%2 enter_pass_ctx", "%1 should_run",
                   "%1 exit_pass_ctx", "%2 exit_pass_ctx"]


def test_run_before_pass_raising_skips_the_pass(graph_mod):
    log = []
    Recorder = make_recorder(log)
    with pytest.raises(RuntimeError, match="dummy error in run_before_pass"):
        with transform.PassContext(instruments=[Recorder("%1", "run_before_pass"),
                                                Recorder("%2")]):
            make_pass(log)(graph_mod)
    assert log == ["%1 enter_pass_ctx", "%2 enter_pass_ctx", "%1 should_run", "%2 should_run",
                   "%1 run_before_pass", "%1 exit_pass_ctx", "%2 exit_pass_ctx"]


def test_run_after_pass_raising_stops_the_other_after_hooks(graph_mod):
    log = []
    Recorder = make_recorder(log)
    with pytest.raises(RuntimeError, match="dummy error in run_after_pass"):
        with transform.PassContext(instruments=[Recorder("%1", "run_after_pass"),
                                                Recorder("%2")]):
            make_pass(log)(graph_mod)
    assert log == ["%1 enter_pass_ctx", "%2 enter_pass_ctx", "%1 should_run", "%2 should_run",
                   "%1 run_before_pass", "%2 run_before_pass", "transform pass",
                   "%1 run_after_pass", "%1 exit_pass_ctx", "%2 exit_pass_ctx"]


def test_enter_pass_ctx_raising_exits_the_entered_ones_and_leaves_no_context():
    log = []
    Recorder = make_recorder(log)
    ctx = transform.PassContext(instruments=[Recorder("%1"), Recorder("%2", "enter_pass_ctx"),
                                             Recorder("%3")])
    with pytest.raises(RuntimeError, match="dummy error in enter_pass_ctx"):
        with ctx:
            log.append("body")
    assert log == ["%1 enter_pass_ctx", "%2 enter_pass_ctx", "%1 exit_pass_ctx"]
    assert transform.PassContext.current() is not ctx
    assert ctx.instruments == []


def test_exit_pass_ctx_raising_stops_the_other_exits_and_clears_the_instruments():
    log = []
    Recorder = make_recorder(log)
    ctx = transform.PassContext(instruments=[Recorder("%1"), Recorder("%2", "exit_pass_ctx"),
                                             Recorder("%3")])
    with pytest.raises(RuntimeError, match="dummy error in exit_pass_ctx"):
        with ctx:
            pass
    assert log[-2:] == ["%1 exit_pass_ctx", "%2 exit_pass_ctx"]
    assert transform.PassContext.current() is not ctx
    assert ctx.instruments == []


def test_override_instruments_exits_the_old_and_enters_the_new():
    log = []
    Recorder = make_recorder(log)
    ctx = transform.PassContext(instruments=[Recorder("%1")])
    with ctx:
        ctx.override_instruments([Recorder("%2")])
        assert [i.id for i in ctx.instruments] == ["%2"]
    assert log == ["%1 enter_pass_ctx", "%1 exit_pass_ctx", "%2 enter_pass_ctx",
                   "%2 exit_pass_ctx"]


def test_override_instruments_with_a_broken_enter_leaves_no_instruments():
    log = []
    Recorder = make_recorder(log)
    ctx = transform.PassContext.current()
    with pytest.raises(RuntimeError):
        ctx.override_instruments([Recorder("%1", "enter_pass_ctx")])
    assert ctx.instruments == []


def test_should_run_false_skips_a_pass_and_its_other_hooks(graph_mod):
    names = []

    @pass_instrument
    class OnlyInferType:
        def should_run(self, mod, info):
            return info.name == "InferType"

        def run_before_pass(self, mod, info):
            names.append(info.name)

    with transform.PassContext(instruments=[OnlyInferType()]):
        transform.FoldConstant()(graph_mod)
        transform.SimplifyExpr()(graph_mod)
        transform.InferType()(graph_mod)
    assert names == ["InferType"]


def test_the_context_returns_the_python_instrument_objects():
    @pass_instrument
    class Mine:
        pass

    mine = Mine()
    timing = ctir.instrument.PassTimingInstrument()
    ctx = transform.PassContext(instruments=[mine, timing])
    assert ctx.instruments[0] is mine
    assert ctx.instruments[1].same_as(timing)


def test_an_instrument_without_pass_instrument_still_works_by_duck_typing(graph_mod):
    seen = []

    class Duck:
        def run_after_pass(self, mod, info):
            seen.append(info.name)

    with transform.PassContext(instruments=[Duck()]):
        transform.FoldConstant()(graph_mod)
    assert seen == ["FoldConstant"]


def test_the_timing_instrument_renders_nested_runs(graph_mod):
    timing = ctir.instrument.PassTimingInstrument()
    with transform.PassContext(opt_level=3, instruments=[timing]):
        transform.Sequential([transform.InferType(), transform.FoldConstant()])(graph_mod)
        report = timing.render()
    lines = report.splitlines()
    assert lines[0].split()[0] == "pass"
    assert any(line.startswith("sequential") for line in lines)
    assert any(line.startswith("  FoldConstant") for line in lines)
    with pytest.raises(TypeError, match="timing"):
        ctir.instrument.PrintAfterAll().render()


def test_print_before_and_after_write_to_sys_stdout(graph_mod, capsys):
    with transform.PassContext(instruments=[ctir.instrument.PrintBeforeAll(),
                                            ctir.instrument.PrintAfterAll()]):
        transform.FoldConstant()(graph_mod)
    out = capsys.readouterr().out
    assert "FoldConstant" in out
    assert out.count("def @main") == 2
    assert "add(const([1f, 2f])" in out


def test_print_changed_shows_a_diff_only_for_passes_that_changed_the_module(graph_mod, capsys):
    with transform.PassContext(instruments=[ctir.instrument.PrintChanged()]):
        folded = transform.FoldConstant()(graph_mod)
        transform.FoldConstant()(folded)
    out = capsys.readouterr().out
    assert out.count("IR changed by pass FoldConstant") == 1
    assert "-  %0 = add(" in out


def test_the_verifier_blames_the_python_pass_that_broke_the_ir(graph_mod):
    # Breaker puts @helper's body, which uses @helper's parameter %a, into @main.
    helper_body = graph_mod["helper"].body

    @transform.module_pass(opt_level=0, name="Breaker")
    def breaker(mod, ctx):
        main = ctir.map(mod["main"], {
            "ir.Call": lambda c: helper_body if c.op.name == "multiply" else None})
        return ctir.IRModule({"main": main})

    with pytest.raises(ctir.InstrumentError, match="Breaker") as info:
        with transform.PassContext(instruments=[ctir.instrument.VerifyWellFormed()]):
            breaker(graph_mod)
    assert "%a" in str(info.value)
    assert info.value.hook == "run_after_pass"
    assert info.value.instrument == "VerifyWellFormed"


def test_a_context_dropped_without_exit_is_left_when_collected():
    import gc

    log = []
    Recorder = make_recorder(log)
    ctx = transform.PassContext(opt_level=3, instruments=[Recorder("%1")])
    ctx.__enter__()
    assert transform.PassContext.current() is ctx
    del ctx
    gc.collect()
    assert log == ["%1 enter_pass_ctx", "%1 exit_pass_ctx"]
    assert transform.PassContext.current().opt_level == 2
