"""Shared fixtures of the Python frontend's tests: small modules in the text format."""

import pathlib

import pytest

import ctir

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]

ADD_ONE = """\
prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
}
"""

GRAPH = """\
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = add(const([1f, 2f]), const([3f, 4f]));
  multiply(%x, %0)
}

def @helper(%a: Tensor[(2), float32]) -> Tensor[(2), float32] {
  negative(negative(%a))
}
"""


@pytest.fixture
def add_one_mod():
    return ctir.parse(ADD_ONE)


@pytest.fixture
def graph_mod():
    return ctir.parse(GRAPH)


@pytest.fixture
def model_path():
    return SOURCE_DIR / "examples" / "python" / "model.ctir"
