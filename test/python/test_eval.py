"""The reference interpreter on numpy arrays."""

import numpy as np
import pytest

import ctir

from conftest import ADD_ONE, GRAPH


def test_run_a_graph_function_on_numpy_arrays(graph_mod):
    x = np.array([1.0, -2.0], dtype=np.float32)
    out = ctir.eval.run(graph_mod, "main", x)
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.float32 and out.shape == (2,)
    np.testing.assert_array_equal(out, np.array([4.0, -12.0], dtype=np.float32))


def test_run_a_tensor_function_writes_its_destination(add_one_mod):
    a = np.arange(4, dtype=np.float32)
    b = np.zeros(4, dtype=np.float32)
    outputs = ctir.eval.run(add_one_mod, "add_one", a, b)
    written = outputs[1] if isinstance(outputs, tuple) else outputs
    np.testing.assert_array_equal(written, a + 1)
    np.testing.assert_array_equal(b, np.zeros(4))  # the caller's arrays are not written


def test_a_wrong_dtype_is_an_eval_error(graph_mod):
    with pytest.raises(ctir.EvalError, match="float32"):
        ctir.eval.run(graph_mod, "main", np.array([1, 2], dtype=np.int32))


def test_a_wrong_shape_is_an_eval_error(graph_mod):
    with pytest.raises(ctir.EvalError):
        ctir.eval.run(graph_mod, "main", np.zeros((3,), dtype=np.float32))


def test_a_dtype_without_counterpart_is_a_type_error(graph_mod):
    with pytest.raises(TypeError, match="complex"):
        ctir.eval.run(graph_mod, "main", np.zeros((2,), dtype=np.complex64))


def test_an_unknown_function_is_an_eval_error(graph_mod):
    with pytest.raises(ctir.EvalError, match="nothing"):
        ctir.eval.run(graph_mod, "nothing")
