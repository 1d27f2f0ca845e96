"""Structural equality, hashing, walk and map with Python callbacks."""

import pytest

import ctir

from conftest import ADD_ONE


def test_two_parses_of_one_text_are_structurally_equal_and_hash_alike():
    a, b = ctir.parse(ADD_ONE), ctir.parse(ADD_ONE)
    assert not a["add_one"].same_as(b["add_one"])
    assert ctir.structural_equal(a, b)
    assert ctir.structural_equal(a["add_one"], b["add_one"])
    assert ctir.structural_hash(a) == ctir.structural_hash(b)


def test_a_changed_constant_breaks_equality_and_changes_the_hash():
    a = ctir.parse(ADD_ONE)
    b = ctir.parse(ADD_ONE.replace("1f", "2f"))
    assert not ctir.structural_equal(a, b)
    assert ctir.structural_hash(a) != ctir.structural_hash(b)


def test_free_variables_are_equal_only_when_mapped():
    loop_a = ctir.parse(ADD_ONE)["add_one"].body.seq[0]
    loop_b = ctir.parse(ADD_ONE)["add_one"].body.seq[0]  # %n, %A, %B are free in the loop
    assert not ctir.structural_equal(loop_a, loop_b)
    assert ctir.structural_equal(loop_a, loop_b, map_free_vars=True)
    assert ctir.structural_hash(loop_a, map_free_vars=True) == ctir.structural_hash(
        loop_b, map_free_vars=True)


def test_assert_structural_equal_names_the_access_paths_and_underlines_the_mismatch():
    a = ctir.parse(ADD_ONE)["add_one"]
    b = ctir.parse(ADD_ONE.replace("1f", "2f"))["add_one"]
    ctir.assert_structural_equal(a, ctir.parse(ADD_ONE)["add_one"])
    with pytest.raises(ctir.StructuralEqualError) as info:
        ctir.assert_structural_equal(a, b)
    error = info.value
    assert isinstance(error, AssertionError) and isinstance(error, ctir.Error)
    assert error.lhs_path == "<root>.body.seq[0].body.seq[0].value.b.value"
    assert error.rhs_path == error.lhs_path
    assert error.lhs_node.type_key == "ir.FloatImm"
    assert "1f" in str(error) and "2f" in str(error)
    assert "^" in str(error)  # the printed programs underline the mismatch


def test_walk_calls_the_callback_of_each_matching_node_in_post_order(add_one_mod):
    seen = []
    ctir.walk(add_one_mod["add_one"], {
        "ir.Var": lambda v: seen.append(v.name),
        "ir.For": lambda f: seen.append("for"),
    })
    assert seen[-1] == "for"
    assert "i" in seen and "A" in seen and "B" in seen


def test_walk_in_pre_order_can_skip_a_subtree(add_one_mod):
    seen = []

    def on_for(loop):
        seen.append("for")
        return ctir.skip

    ctir.walk(add_one_mod["add_one"], {"ir.For": on_for, "ir.Var": lambda v: seen.append(v.name)},
              order="pre")
    assert "for" in seen and "i" not in seen


def test_walk_returns_the_payload_of_an_interrupt(add_one_mod):
    result = ctir.walk(add_one_mod["add_one"],
                       {"ir.TensorStore": lambda s: ctir.interrupt(s.dest)})
    assert isinstance(result, ctir.Interrupt)
    assert result.payload.name == "B"
    assert ctir.walk(add_one_mod["add_one"], {"ir.Call": lambda c: ctir.interrupt()}) is None


def test_a_callback_on_an_abstract_type_sees_every_subtype(add_one_mod):
    keys = []
    ctir.walk(add_one_mod["add_one"], {"ir.BinaryExpr": lambda e: keys.append(e.type_key)})
    assert keys == ["ir.Add"]


def test_an_exception_in_a_walk_callback_reaches_the_caller_unchanged(add_one_mod):
    def boom(node):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        ctir.walk(add_one_mod["add_one"], {"ir.Var": boom})


def test_an_unknown_type_key_is_an_error(add_one_mod):
    with pytest.raises(ctir.Error, match="ir.Nothing"):
        ctir.walk(add_one_mod["add_one"], {"ir.Nothing": lambda n: None})


def test_map_rebuilds_only_the_path_to_a_replacement(add_one_mod):
    func = add_one_mod["add_one"]
    two = ctir.parse(ADD_ONE.replace("1f", "2f"))["add_one"].body.seq[0].body.seq[0].value.b

    mapped = ctir.map(func, {"ir.FloatImm": lambda f: two})
    assert ctir.structural_equal(mapped, ctir.parse(ADD_ONE.replace("1f", "2f"))["add_one"],
                                 map_free_vars=True)
    assert not mapped.same_as(func)
    assert mapped.params[0].same_as(func.params[0])  # untouched parts are shared
    assert "1f" in str(func)  # the input is never modified


def test_map_with_no_change_returns_the_very_same_node(add_one_mod):
    func = add_one_mod["add_one"]
    assert ctir.map(func, {"ir.FloatImm": lambda f: None}).same_as(func)


def test_map_rejects_a_replacement_that_cannot_stand_in_its_place(add_one_mod):
    func = add_one_mod["add_one"]
    with pytest.raises(ctir.Error):
        ctir.map(func, {"ir.FloatImm": lambda f: func})


def test_not_into_keeps_walk_and_map_out_of_the_types_it_names(add_one_mod):
    func = add_one_mod["add_one"]
    everywhere, outside_types = [], []
    ctir.walk(func, {"ir.Var": lambda v: everywhere.append(v.name)})
    ctir.walk(func, {"ir.Var": lambda v: outside_types.append(v.name)}, not_into=["ir.Type"])
    assert everywhere.count("n") == outside_types.count("n") + 2  # %n in the types of %A, %B
    assert everywhere.count("A") == outside_types.count("A")

    seen = []
    assert ctir.map(func, {"ir.TensorType": lambda t: seen.append(t)}).same_as(func)
    assert len(seen) == 2
    seen.clear()
    assert ctir.map(func, {"ir.TensorType": lambda t: seen.append(t)},
                    not_into=["ir.Type"]).same_as(func)
    assert seen == []


def test_not_into_rejects_what_is_not_a_type():
    func = ctir.parse(ADD_ONE)["add_one"]
    with pytest.raises(TypeError, match="not_into holds type keys"):
        ctir.walk(func, {"ir.Var": lambda v: None}, not_into=[1])
    with pytest.raises(ctir.Error, match="ir.NoSuchType"):
        ctir.walk(func, {"ir.Var": lambda v: None}, not_into=["ir.NoSuchType"])


FOLD = """\
prim @fold[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = (%A[%i] + 0f) * (%A[%i] + 0f + 0f) + 0f;
  }
}
"""

FOLDED = """\
prim @fold[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] * %A[%i];
  }
}
"""


def _is_zero(node):
    return node.type_key == "ir.FloatImm" and node.value == 0.0


def test_a_mapped_callback_reads_the_mapped_children_before_its_node_is_built():
    func = ctir.parse(FOLD)["fold"]
    seen = []

    def fold(add):
        seen.append((add.changed, add.original.type_key))
        if _is_zero(add.get("b")):
            return add.get("a")
        return None

    folded = ctir.map(func, {"ir.Add": ctir.mapped(fold)})
    assert ctir.structural_equal(folded, ctir.parse(FOLDED)["fold"], map_free_vars=True)
    assert (True, "ir.Add") in seen  # (A[i] + 0f) + 0f: its child was folded first
    by_node = ctir.map(func, {"ir.Add": lambda a: a.a if _is_zero(a.b) else None})
    assert ctir.structural_equal(by_node, folded)
    assert "0f" in str(func)  # the input is never modified


def test_a_mapped_view_builds_its_node_and_reads_arrays():
    func = ctir.parse(FOLD)["fold"]
    built = []

    def keep(store):
        assert store.size("indices") == 1
        assert store.get("indices", 0).type_key == "ir.Var"
        built.append(store.node())
        return None

    folded = ctir.map(func, {"ir.Add": ctir.mapped(lambda a: a.get("a") if _is_zero(a.get("b"))
                                                   else None),
                             "ir.TensorStore": ctir.mapped(keep)})
    assert len(built) == 1
    assert built[0].same_as(folded.body.seq[0].body.seq[0])


def test_a_mapped_view_is_valid_during_its_call_only_and_names_missing_fields():
    func = ctir.parse(FOLD)["fold"]
    kept = []

    def remember(add):
        kept.append(add)
        with pytest.raises(ctir.Error, match="'ir.Add' has no node field 'c'"):
            add.get("c")
        return None

    ctir.map(func, {"ir.Add": ctir.mapped(remember)})
    with pytest.raises(ctir.Error, match="valid only during the call"):
        kept[0].get("a")
    with pytest.raises(TypeError, match="a walk callback takes the node"):
        ctir.walk(func, {"ir.Add": ctir.mapped(lambda a: None)})
    with pytest.raises(ctir.Error, match="only a post-order map has"):
        ctir.map(func, {"ir.Add": ctir.mapped(lambda a: None)}, order="pre")
    with pytest.raises(TypeError, match="takes a callable"):
        ctir.mapped(3)
