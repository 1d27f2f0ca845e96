"""Passes and pass contexts (as tvm.transform): module, function and prim_func passes written
in Python, the registered C++ passes, Sequential and PassContext."""

import functools
import inspect

from . import _ctir

Pass = _ctir.Pass
PassInfo = _ctir.PassInfo
PassContext = _ctir.PassContext
list_configs = _ctir.list_configs
parse_pipeline = _ctir.parse_pipeline
register_pass = _ctir.register_pass
unregister_pass = _ctir.unregister_pass


def get_pass(name, **options):
    """A new pass registered as `name` (a standard pass, or one given to register_pass),
    with its options as keywords: get_pass("UnrollLoop", max_extent=4)."""
    return _ctir.get_pass(name, **options)


def list_passes():
    """The names of the registered passes, sorted."""
    return _ctir.list_passes()


class Sequential(Pass):
    """Runs passes in order; the context decides which of them run (opt_level, required and
    disabled lists), and each pass's required passes run first."""

    def __init__(self, passes=None, opt_level=0, name="sequential", required=None):
        passes = list(passes or [])
        for p in passes:
            if not isinstance(p, Pass):
                raise TypeError(f"Sequential takes passes, not {type(p).__name__}")
        super().__init__(_ctir._make_sequential(passes, opt_level, name, list(required or [])))


def _wrap_class(kind, method, cls, name, opt_level, required):
    """The class decorated as a pass: constructing it makes a Pass whose rewrite is the
    instance's `method`; the instance's attributes stay reachable through the pass."""
    if not hasattr(cls, method):
        raise TypeError(f"{cls.__name__} needs a {method} method to be a {kind} pass")

    class PyPass(Pass):
        def __init__(self, *args, **kwargs):
            instance = cls(*args, **kwargs)
            self.instance = instance
            super().__init__(
                _ctir._make_pass(kind, getattr(instance, method), name, opt_level, required))

        def __getattr__(self, attr):
            if attr == "instance":
                raise AttributeError(attr)
            return getattr(self.instance, attr)

    functools.update_wrapper(PyPass.__init__, cls.__init__)
    PyPass.__name__ = cls.__name__
    PyPass.__qualname__ = cls.__qualname__
    PyPass.__doc__ = cls.__doc__
    return PyPass


def _decorator(kind, method, pass_func, opt_level, name, required):
    if opt_level is None:
        raise ValueError("a pass needs an opt_level: @module_pass(opt_level=2)")
    if required is not None and not isinstance(required, (list, tuple)):
        raise TypeError("required is a list of pass names")
    required = list(required or [])

    def create(arg):
        fname = name if name else arg.__name__
        if inspect.isclass(arg):
            return _wrap_class(kind, method, arg, fname, opt_level, required)
        if not callable(arg):
            raise TypeError(f"a {kind} pass is made from a function or a class")
        return Pass(_ctir._make_pass(kind, arg, fname, opt_level, required))

    if pass_func is not None:
        return create(pass_func)
    return create


def module_pass(pass_func=None, opt_level=None, name=None, required=None):
    """Makes a module pass from `pass_func(mod, ctx) -> IRModule`, or from a class with
    `transform_module(self, mod, ctx)`; usable as a decorator, with or without arguments."""
    return _decorator("module", "transform_module", pass_func, opt_level, name, required)


def function_pass(pass_func=None, opt_level=None, name=None, required=None):
    """Makes a pass over each graph-level function from `pass_func(func, mod, ctx) ->
    Function`, or from a class with `transform_function`. Functions whose attribute
    SkipOptimization is true are left alone."""
    return _decorator("function", "transform_function", pass_func, opt_level, name, required)


def prim_func_pass(pass_func=None, opt_level=None, name=None, required=None):
    """Makes a pass over each tensor-level function from `pass_func(func, mod, ctx) ->
    PrimFunc` (None deletes the function), or from a class with `transform_function`."""
    return _decorator("prim_func", "transform_function", pass_func, opt_level, name, required)


def _standard_pass(name):
    def make(**options):
        return get_pass(name, **options)

    make.__name__ = name
    make.__qualname__ = name
    make.__doc__ = f"The registered pass {name} (options as keywords)."
    return make


_STANDARD = [
    "DeadCodeElimination", "DefaultPipeline", "EliminateCommonSubexpr", "FlattenBuffer",
    "FoldConstant", "InferType", "LegalizeOps", "PrintIR", "RemoveNoOp", "RemoveUnusedFunctions",
    "Simplify", "SimplifyExpr", "ToANormalForm", "UnrollLoop",
]
for _name in _STANDARD:
    globals()[_name] = _standard_pass(_name)
del _name

__all__ = [
    "Pass", "PassContext", "PassInfo", "Sequential", "function_pass", "get_pass",
    "list_configs", "list_passes", "module_pass", "parse_pipeline", "prim_func_pass",
    "register_pass", "unregister_pass",
] + _STANDARD
