"""Building tensor-level IR in Python: seed 003's add_one."""

import numpy as np
import pytest

import ctir
from ctir import tensor

from conftest import ADD_ONE


def build_add_one():
    n = tensor.var("n")
    A = tensor.tensor("A", [n])
    B = tensor.tensor("B", [n])
    i = tensor.var("i")
    body = tensor.For(i, 0, n, tensor.store(B, [i], tensor.load(A, [i]) + 1.0))
    return tensor.PrimFunc("add_one", [A, B], body)


def test_add_one_built_in_python_equals_the_parsed_one():
    built = build_add_one()
    ctir.assert_structural_equal(built, ctir.parse(ADD_ONE)["add_one"])
    assert str(ctir.IRModule({"add_one": built})) == ADD_ONE


def test_add_one_built_in_python_runs():
    mod = ctir.IRModule({"add_one": build_add_one()})
    a = np.arange(3, dtype=np.float32)
    outputs = ctir.eval.run(mod, "add_one", a, np.zeros(3, dtype=np.float32))
    np.testing.assert_array_equal(outputs[1], a + 1)


def test_scalar_arithmetic_builds_expression_nodes():
    x, y = tensor.var("x"), tensor.var("y")
    e = (x + 1) * y - 2 / x % 3
    assert e.type_key == "ir.Sub"
    assert e.a.type_key == "ir.Mul" and e.a.a.b.value == 1
    assert (-x).type_key == "ir.Neg"
    assert (1 + x).a.value == 1  # reflected operators keep the operand order
    assert tensor.const(2.5, "float64").dtype == "float64"


def test_a_loop_kind_and_a_list_body_are_accepted():
    n, i = tensor.var("n"), tensor.var("i")
    A = tensor.tensor("A", [n], "int32")
    loop = tensor.For(i, 0, n, [tensor.store(A, [i], i), tensor.store(A, [i], i * 2)],
                      kind="parallel")
    assert loop.body.type_key == "ir.SeqStmt" and len(loop.body.seq) == 2
    assert "parallel(0, %n)" in str(loop)


def test_building_with_the_wrong_node_kinds_raises_type_error():
    n = tensor.var("n")
    A = tensor.tensor("A", [n])
    store = tensor.store(A, [0], 1.0)
    with pytest.raises(TypeError, match="scalar expression"):
        store + 1
    with pytest.raises(TypeError, match="a statement expected"):
        tensor.For(tensor.var("i"), 0, n, n)
    with pytest.raises(ValueError, match="unknown dtype"):
        tensor.var("x", "int7")
    with pytest.raises(ValueError, match="loop kind"):
        tensor.For(tensor.var("i"), 0, n, store, kind="sideways")
