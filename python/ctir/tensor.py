"""Builders of tensor-level IR: seed 003's add_one in Python.

    n = tensor.var("n")
    A, B = tensor.tensor("A", [n]), tensor.tensor("B", [n])
    i = tensor.var("i")
    add_one = tensor.PrimFunc("add_one", [A, B],
                              tensor.For(i, 0, n, tensor.store(B, [i], tensor.load(A, [i]) + 1.0)))

Scalar expression nodes take +, -, *, / and % with nodes, ints (int32) and floats (float32).
"""

from ._ctir import tensor as _tensor

var = _tensor.var
tensor = _tensor.tensor
const = _tensor.const
load = _tensor.load
store = _tensor.store
For = _tensor.For
seq = _tensor.seq
PrimFunc = _tensor.PrimFunc

__all__ = ["For", "PrimFunc", "const", "load", "seq", "store", "tensor", "var"]
