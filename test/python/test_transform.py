"""Passes written in Python and in C++, Sequential and PassContext (as tvm.transform)."""

import pytest

import ctir
from ctir import transform

from conftest import GRAPH


def test_a_module_pass_from_a_decorated_function_has_its_info_and_runs(graph_mod):
    seen = []

    @transform.module_pass(opt_level=1, name="Record", required=["InferType"])
    def record(mod, ctx):
        seen.append((list(mod), ctx.opt_level))
        return mod

    assert isinstance(record, transform.Pass)
    assert record.info.name == "Record"
    assert record.info.opt_level == 1
    assert record.info.required == ["InferType"]
    assert record(graph_mod).same_as(graph_mod)
    assert seen == [(["main", "helper"], 2)]


def test_a_pass_is_named_after_its_function_by_default():
    @transform.module_pass(opt_level=0)
    def my_pass(mod, ctx):
        return mod

    assert my_pass.info.name == "my_pass"


def test_a_pass_without_opt_level_is_refused():
    with pytest.raises(ValueError, match="opt_level"):
        transform.module_pass(lambda mod, ctx: mod)


def test_a_module_pass_may_replace_functions(graph_mod):
    @transform.module_pass(opt_level=0)
    def drop_helper(mod, ctx):
        out = ctir.IRModule({"main": mod["main"]})
        return out

    result = drop_helper(graph_mod)
    assert list(result) == ["main"]
    assert list(graph_mod) == ["main", "helper"]


def test_a_class_decorated_as_module_pass_keeps_its_state():
    @transform.module_pass(opt_level=2)
    class CountFunctions:
        def __init__(self, scale):
            self.scale = scale
            self.counts = []

        def transform_module(self, mod, ctx):
            self.counts.append(len(mod) * self.scale)
            return mod

    p = CountFunctions(10)
    assert isinstance(p, transform.Pass)
    assert p.info.name == "CountFunctions"
    p(ctir.parse(GRAPH))
    assert p.counts == [20]
    assert p.scale == 10


def test_a_function_pass_sees_each_graph_function_with_the_module_and_context(graph_mod):
    calls = []

    @transform.function_pass(opt_level=1)
    def negate_nothing(func, mod, ctx):
        calls.append((func.type_key, len(mod), isinstance(ctx, transform.PassContext)))
        return func

    assert negate_nothing(graph_mod).same_as(graph_mod)
    assert calls == [("ir.Function", 2, True)] * 2


def test_a_class_function_pass_rewrites_functions_with_map(graph_mod):
    @transform.function_pass(opt_level=1)
    class DoubleToTriple:
        def transform_function(self, func, mod, ctx):
            return ctir.map(func, {"ir.Op": lambda op: ctir.parse(
                "def @f(%a: Tensor[(2), float32]) { subtract(%a, %a) }")["f"].body.op
                if op.name == "multiply" else None})

    out = DoubleToTriple()(graph_mod)
    assert "subtract(%x, %0)" in str(out)
    assert "multiply(%x, %0)" in str(graph_mod)


def test_a_prim_func_pass_returning_none_deletes_the_function(add_one_mod, graph_mod):
    @transform.prim_func_pass(opt_level=0)
    def delete_all(func, mod, ctx):
        return None

    mod = ctir.IRModule({"main": graph_mod["main"]})
    mod.update(add_one_mod)
    out = delete_all(mod)
    assert list(out) == ["main"]


def test_a_function_pass_must_return_a_function(graph_mod):
    @transform.function_pass(opt_level=0)
    def broken(func, mod, ctx):
        return 42

    with pytest.raises(TypeError, match="ctir node"):
        broken(graph_mod)


def test_a_module_pass_must_return_a_module(graph_mod):
    @transform.module_pass(opt_level=0)
    def broken(mod, ctx):
        return "not a module"

    with pytest.raises(TypeError, match="must return an IRModule"):
        broken(graph_mod)


def test_standard_passes_come_by_name_and_as_functions(graph_mod):
    fold = transform.FoldConstant()
    assert fold.info.name == "FoldConstant"
    assert transform.get_pass("FoldConstant").info.opt_level == fold.info.opt_level
    folded = transform.Sequential([transform.InferType(), fold])(graph_mod)
    assert "add(" not in str(folded["main"])
    assert "FoldConstant" in transform.list_passes()


def test_get_pass_takes_options_as_keywords():
    printer = transform.get_pass("PrintIR", header="as parsed", stream="stdout")
    assert str(printer) == 'PrintIR{header="as parsed",stream=stdout}'
    with pytest.raises(ctir.PipelineError, match="no option 'max_extent'"):
        transform.get_pass("FoldConstant", max_extent=4)
    with pytest.raises(ctir.PipelineError, match="unknown pass"):
        transform.get_pass("NoSuchPass")


def test_a_sequential_is_named_sequential_by_default():
    seq = transform.Sequential([transform.FoldConstant()])
    assert seq.info.name == "sequential"
    assert len(seq.passes) == 1
    assert transform.Sequential([], name="O2", opt_level=2).info.name == "O2"


def test_python_and_cpp_passes_mix_in_a_sequential_gated_by_the_context(graph_mod):
    order = []

    @transform.module_pass(opt_level=3, name="Late")
    def late(mod, ctx):
        order.append("Late")
        return mod

    @transform.module_pass(opt_level=1, name="Early")
    def early(mod, ctx):
        order.append("Early")
        return mod

    seq = transform.Sequential([early, transform.FoldConstant(), late])
    with transform.PassContext(opt_level=2):
        seq(graph_mod)
    assert order == ["Early"]

    order.clear()
    with transform.PassContext(opt_level=3):
        seq(graph_mod)
    assert order == ["Early", "Late"]

    order.clear()
    with transform.PassContext(opt_level=3, disabled_pass=["Early"]):
        seq(graph_mod)
    assert order == ["Late"]

    order.clear()
    with transform.PassContext(opt_level=0, required_pass=["Late"]):
        seq(graph_mod)
    assert order == ["Late"]


def test_a_pass_called_directly_runs_whatever_the_opt_level(graph_mod):
    ran = []

    @transform.module_pass(opt_level=5)
    def high(mod, ctx):
        ran.append(True)
        return mod

    with transform.PassContext(opt_level=0):
        high(graph_mod)
    assert ran == [True]


def test_required_passes_run_before_the_pass_that_needs_them(graph_mod):
    order = []

    @transform.module_pass(opt_level=0, name="Needy", required=["InferType"])
    def needy(mod, ctx):
        order.append("Needy")
        return mod

    @transform.module_pass(opt_level=0, name="Spy")
    def spy(mod, ctx):
        order.append("Spy")
        return mod

    seen = []

    @ctir.instrument.pass_instrument
    class Names:
        def run_before_pass(self, mod, info):
            seen.append(info.name)

    with transform.PassContext(instruments=[Names()]):
        transform.Sequential([spy, needy])(graph_mod)
    assert order == ["Spy", "Needy"]
    assert seen.index("InferType") < seen.index("Needy")


def test_an_unknown_requirement_is_an_error_when_the_sequential_is_built():
    @transform.module_pass(opt_level=0, name="Lost", required=["NoSuchPass"])
    def lost(mod, ctx):
        return mod

    with pytest.raises(ctir.PipelineError, match="NoSuchPass"):
        transform.Sequential([lost])


def test_a_python_pass_can_be_registered_and_named_in_a_pipeline(graph_mod):
    ran = []

    @transform.module_pass(opt_level=0, name="PyRegistered")
    def registered(mod, ctx):
        ran.append(True)
        return mod

    transform.register_pass(registered)
    try:
        pipeline = transform.parse_pipeline("PyRegistered,FoldConstant")
        assert str(pipeline) == "PyRegistered,FoldConstant"
        pipeline(graph_mod)
        assert ran == [True]
    finally:
        assert transform.unregister_pass("PyRegistered")
    assert "PyRegistered" not in transform.list_passes()


def test_pass_context_current_is_the_innermost_entered_context():
    outer = transform.PassContext(opt_level=3)
    inner = transform.PassContext(opt_level=1)
    default = transform.PassContext.current()
    assert default.opt_level == 2
    with outer:
        assert transform.PassContext.current() is outer
        with inner:
            assert transform.PassContext.current() is inner
        assert transform.PassContext.current() is outer
    assert transform.PassContext.current() is not outer
    assert not outer.entered


def test_pass_context_keeps_its_settings():
    ctx = transform.PassContext(opt_level=3, required_pass=["A"], disabled_pass=["B"],
                                config={"tensor.UnrollLoop.max_extent": 4})
    assert ctx.opt_level == 3
    assert ctx.required_pass == ["A"]
    assert ctx.disabled_pass == ["B"]
    assert ctx.config == {"tensor.UnrollLoop.max_extent": 4}
    assert ctx.get_config("tensor.UnrollLoop.max_extent") == 4
    assert ctx.get_config("tensor.UnrollLoop.strict") is False


def test_list_configs_reports_each_key_with_type_and_default():
    configs = transform.list_configs()
    assert configs["tensor.UnrollLoop.max_extent"]["type"] == "int"
    assert configs["transform.entry_functions"]["default"] == "main"


def test_an_unknown_config_key_is_a_config_error_naming_the_nearest():
    with pytest.raises(ctir.ConfigError, match="tensor.UnrollLoop.max_extent"):
        transform.PassContext(config={"tensor.UnrollLoop.max_extnt": 4})


def test_a_config_value_of_the_wrong_type_is_a_config_error():
    with pytest.raises(ctir.ConfigError, match="int"):
        transform.PassContext(config={"tensor.UnrollLoop.max_extent": "four"})


def test_a_python_pass_reads_the_config_of_its_context(graph_mod):
    values = []

    @transform.module_pass(opt_level=0)
    def read(mod, ctx):
        values.append(ctx.get_config("tensor.UnrollLoop.max_extent"))
        return mod

    with transform.PassContext(config={"tensor.UnrollLoop.max_extent": 7}):
        read(graph_mod)
    read(graph_mod, transform.PassContext(config={"tensor.UnrollLoop.max_extent": 9}))
    assert values == [7, 9]


def test_pass_info_reads_like_tvms():
    info = transform.PassInfo("MyPass", 2, ["InferType"])
    assert (info.name, info.opt_level, info.required) == ("MyPass", 2, ["InferType"])
    assert repr(info) == "PassInfo(name='MyPass', opt_level=2, required=['InferType'])"


def test_a_nested_sequential_is_gated_as_a_whole_and_inside(graph_mod):
    order = []

    def recorder(name, level):
        @transform.module_pass(opt_level=level, name=name)
        def p(mod, ctx):
            order.append(name)
            return mod

        return p

    inner = transform.Sequential([recorder("A", 1), recorder("B", 3)], opt_level=1, name="Inner")
    outer = transform.Sequential([recorder("C", 0), inner])
    with transform.PassContext(opt_level=2):
        outer(graph_mod)
    assert order == ["C", "A"]

    order.clear()
    with transform.PassContext(opt_level=3, disabled_pass=["Inner"]):
        outer(graph_mod)
    assert order == ["C"]


def test_a_pass_given_a_context_runs_under_it_not_under_the_current_one(graph_mod):
    seen = []

    @transform.module_pass(opt_level=0)
    def level(mod, ctx):
        seen.append(ctx.opt_level)
        return mod

    given = transform.PassContext(opt_level=0)
    with transform.PassContext(opt_level=3):
        level(graph_mod, given)
        level(graph_mod)
    assert seen == [0, 3]


def test_parse_and_structural_equality_work_from_several_threads_at_once():
    import threading

    results = []
    text = GRAPH
    threads = [threading.Thread(target=lambda: results.append(
        ctir.structural_equal(ctir.parse(text), ctir.parse(text)))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 4


def test_every_registered_standard_pass_has_a_function_in_transform():
    for name in transform.list_passes():
        assert getattr(transform, name)().info.name == name


def test_print_ir_is_a_pass_that_prints_the_module_and_returns_it(graph_mod, capfd):
    out = transform.PrintIR(header="as parsed", stream="stdout")(graph_mod)
    assert out.same_as(graph_mod)
    printed = capfd.readouterr().out
    assert printed.startswith("# as parsed\n")
    assert "def @main" in printed and "def @helper" in printed
