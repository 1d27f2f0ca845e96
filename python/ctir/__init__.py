"""ctir for Python: parse, print, compare and transform ctir's IR, and run passes written in
Python or C++ under one PassContext."""

from . import _ctir
from ._ctir import (
    ConfigError,
    Error,
    EvalError,
    ForKind,
    InstrumentError,
    Interrupt,
    IRModule,
    Mapped,
    Node,
    NodeError,
    ParseError,
    PassError,
    PipelineError,
    StructuralEqualError,
    assert_structural_equal,
    format_tree,
    map,
    mapped,
    parse,
    parse_file,
    skip,
    structural_equal,
    structural_hash,
    walk,
)
from . import eval, instrument, tensor, transform  # noqa: E402  (they import _ctir too)
from .node import NodeType, register_node  # noqa: E402


def interrupt(payload=None):
    """What a walk callback returns to stop the walk; walk then returns it, with `payload`."""
    return Interrupt(payload)


def _iter_module(mod):
    return iter(mod.keys())


IRModule.__iter__ = _iter_module

__all__ = [
    "ConfigError", "Error", "EvalError", "ForKind", "InstrumentError", "Interrupt", "IRModule",
    "Mapped", "Node", "NodeError", "NodeType", "ParseError", "PassError", "PipelineError",
    "StructuralEqualError", "assert_structural_equal", "eval", "format_tree", "instrument",
    "interrupt", "map", "mapped", "parse", "parse_file", "register_node", "skip",
    "structural_equal", "structural_hash", "tensor", "transform", "walk",
]
