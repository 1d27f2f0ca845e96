"""Node types registered at run time from Python: creating, reading, walking, mapping,
comparing, hashing and printing their nodes, and the errors of registering them."""

import gc

import pytest

import ctir
from ctir import tensor, transform

ANNOTATE_FIELDS = [("value", "node", "ir.Expr"), ("tag", "int"), ("scale", "float"),
                   ("label", "str"), ("hot", "bool"), ("extra", "array")]


@pytest.fixture
def annotate():
    return ctir.register_node("test.Annotate", parent="ir.Expr", fields=ANNOTATE_FIELDS)


def test_register_node_returns_a_constructor_of_nodes_of_that_type(annotate):
    x = tensor.var("x")
    note = annotate(x, 3, scale=0.5, label="hi", hot=True)
    assert isinstance(note, ctir.Node) and isinstance(note, annotate)
    assert not isinstance(x, annotate)
    assert annotate.fields[:3] == [("value", "node", "ir.Expr"), ("tag", "int"), ("scale", "float")]
    assert annotate.fields[-1] == ("extra", "array", "Object")  # any node by default
    assert note.type_key == "test.Annotate" == annotate.type_key
    assert note.fields == ["span", "value", "tag", "scale", "label", "hot", "extra"]
    assert note.value.same_as(x)
    assert (note.tag, note.scale, note.label, note.hot, note.extra) == (3, 0.5, "hi", True, [])
    assert type(note.tag) is int and type(note.scale) is float and type(note.hot) is bool


def test_omitted_fields_are_none_or_empty(annotate):
    note = annotate()
    assert note.value is None and note.tag is None and note.label is None and note.extra == []


def test_an_int_given_to_a_float_field_reads_back_as_a_float(annotate):
    assert type(annotate(scale=2).scale) is float


def test_registering_the_same_key_and_fields_again_returns_the_same_type(annotate):
    again = ctir.register_node("test.Annotate", parent="ir.Expr", fields=ANNOTATE_FIELDS)
    assert again is annotate


def test_registering_the_same_key_with_other_fields_is_an_error(annotate):
    with pytest.raises(ValueError, match="already registered with parent 'ir.Expr'"):
        ctir.register_node("test.Annotate", parent="ir.Expr", fields=[("value", "node")])
    with pytest.raises(ValueError, match="cannot be registered again"):
        ctir.register_node("test.Annotate", parent="ir.Stmt", fields=ANNOTATE_FIELDS)


def test_a_key_of_a_compiled_in_type_cannot_be_registered():
    with pytest.raises(ValueError, match="'ir.Add' is already a node type"):
        ctir.register_node("ir.Add", parent="ir.Expr", fields=[])


@pytest.mark.parametrize("parent, fields, message", [
    ("ir.Add", [], "cannot derive from 'ir.Add'"),
    ("ir.Expr", [("a", "tensor")], "has kind 'tensor'"),
    ("ir.Expr", [("a", "node", "no.Such")], "unknown node type 'no.Such'"),
    ("ir.Expr", [("a", "int", "ir.Expr")], "only node and array fields name an element type"),
    ("ir.Expr", [("a", "int"), ("a", "str")], "declares field 'a' twice"),
    ("ir.Expr", [("script", "int")], "'script' cannot name a field"),
    ("ir.Expr", [("not valid", "int")], "cannot name a field"),
    ("ir.Expr", [("span", "int")], "hides a field of 'ir.Expr'"),
])
def test_a_bad_registration_is_a_clear_error_and_registers_nothing(parent, fields, message,
                                                                  request):
    key = "test.Bad." + request.node.callspec.id
    with pytest.raises(ValueError, match=message):
        ctir.register_node(key, parent=parent, fields=fields)
    good = ctir.register_node(key, parent=parent if parent != "ir.Add" else "Object")
    assert good.fields == [] and good.type_key == key


def test_a_field_spec_of_the_wrong_shape_is_a_type_error():
    with pytest.raises(TypeError, match=r"\(name, kind\)"):
        ctir.register_node("test.Shape", fields=[("a",)])


def test_field_values_of_the_wrong_type_are_type_errors(annotate):
    stmt = tensor.seq([])
    with pytest.raises(TypeError, match=r"test.Annotate.value holds a ir.Expr, not a ir.SeqStmt"):
        annotate(stmt)
    with pytest.raises(TypeError, match=r"test.Annotate.tag holds a int, not a str"):
        annotate(tag="3")
    with pytest.raises(TypeError, match=r"test.Annotate.tag holds a int, not a bool"):
        annotate(tag=True)
    with pytest.raises(TypeError, match=r"test.Annotate.hot holds a bool"):
        annotate(hot=1)
    with pytest.raises(TypeError, match=r"test.Annotate.extra holds a list"):
        annotate(extra=tensor.var("x"))
    with pytest.raises(TypeError, match="has no field 'nope'"):
        annotate(nope=1)
    with pytest.raises(TypeError, match="got field 'tag' twice"):
        annotate(None, 1, tag=2)
    with pytest.raises(TypeError, match="at most 6"):
        annotate(*range(7))


def test_nodes_of_a_python_type_sit_inside_compiled_in_nodes():
    tagged = ctir.register_node("test.Tagged", parent="ir.PrimExpr",
                                fields=[("value", "node", "ir.PrimExpr")])
    i = tensor.var("i")
    total = tagged(i + 1) * 2  # a scalar expression, so arithmetic takes it
    assert total.type_key == "ir.Mul"
    assert total.a.type_key == "test.Tagged" and total.a.value.type_key == "ir.Add"


def test_walk_and_map_see_python_types_through_python_callbacks(annotate):
    x, y = tensor.var("x"), tensor.var("y")
    tree = annotate(x, 1, extra=[annotate(y, 2), annotate(x, 3)])
    tags = []
    ctir.walk(tree, {"test.Annotate": lambda n: tags.append(n.tag)})
    assert tags == [2, 3, 1]  # post-order
    keyed_by_type = []
    ctir.walk(tree, {annotate: lambda n: keyed_by_type.append(n.tag)})
    assert keyed_by_type == tags
    renamed = ctir.map(tree, {"ir.Var": lambda v: y if v.same_as(x) else v})
    assert renamed.value.same_as(y) and renamed.extra[1].value.same_as(y)
    assert renamed.tag == 1 and renamed.extra[0].tag == 2
    assert tree.value.same_as(x)  # the original is untouched


def test_python_typed_nodes_compare_and_hash_structurally(annotate):
    x = tensor.var("x")
    a = annotate(x, 1, label="a", extra=[annotate(x, 2)])
    b = annotate(x, 1, label="a", extra=[annotate(x, 2)])
    c = annotate(x, 1, label="b", extra=[annotate(x, 2)])
    assert ctir.structural_equal(a, b) and not ctir.structural_equal(a, c)
    assert ctir.structural_hash(a) == ctir.structural_hash(b)
    assert ctir.structural_hash(a) != ctir.structural_hash(c)
    assert not ctir.structural_equal(annotate(tag=1), annotate(scale=1.0))
    with pytest.raises(ctir.StructuralEqualError, match="label"):
        ctir.assert_structural_equal(a, c)


def test_format_tree_and_str_print_python_typed_nodes(annotate):
    note = annotate(tensor.const(1), 4, label="hi")
    tree = ctir.format_tree(note)
    assert tree.startswith("test.Annotate") or "Annotate" in tree.splitlines()[0]
    assert "tag=4" in tree and 'label="hi"' in tree and "IntImm" in tree
    assert "tag=4" in str(note)


def test_a_statement_type_fits_in_a_statement_sequence():
    marker = ctir.register_node("test.Marker", parent="ir.Stmt", fields=[("id", "int")])
    seq = tensor.seq([marker(id=1), marker(id=2)])
    assert [s.id for s in seq.seq] == [1, 2]


def test_nodes_are_shared_by_reference_count_and_freed(annotate):
    x = tensor.var("x")
    before = x.use_count
    notes = [annotate(x, n) for n in range(10)]
    assert x.use_count == before + 10
    del notes
    gc.collect()
    assert x.use_count == before


# ---- Fields that define variables, blocks, ignored fields ------------------------------

BIND_FIELDS = [("var", "node", "ir.Var", {"defines": "simple", "scope_over": "body"}),
               ("value", "node", "ir.PrimExpr"), ("body", "node", "ir.PrimExpr")]


@pytest.fixture
def bind():
    """`let var = value in body` as a scalar expression: var is in scope in body only."""
    return ctir.register_node("test.BindIn", parent="ir.PrimExpr", fields=BIND_FIELDS)


def test_a_field_reads_back_with_its_options(bind):
    assert bind.fields[0] == ("var", "node", "ir.Var", {"defines": "simple", "scope_over": "body"})
    assert bind.fields[1] == ("value", "node", "ir.PrimExpr")  # no options, no dict
    assert ctir.register_node("test.BindIn", parent="ir.PrimExpr", fields=BIND_FIELDS) is bind
    with pytest.raises(ValueError, match="cannot be registered again"):
        ctir.register_node("test.BindIn", parent="ir.PrimExpr",
                           fields=[("var", "node", "ir.Var", {"defines": "simple"})] +
                           BIND_FIELDS[1:])


def test_variables_a_field_defines_are_paired_by_structural_equality(bind):
    x, y, one = tensor.var("x"), tensor.var("y"), tensor.const(1)
    a, b = bind(x, one, x + 1), bind(y, one, y + 1)
    assert ctir.structural_equal(a, b)
    assert ctir.structural_hash(a) == ctir.structural_hash(b)
    assert not ctir.structural_equal(a, bind(y, one, x + 1))  # x is free there
    # Without "defines" the same variables are free, and equal only themselves.
    plain = ctir.register_node("test.BindPlain", parent="ir.PrimExpr",
                               fields=[field[:3] for field in BIND_FIELDS])
    assert not ctir.structural_equal(plain(x, one, x + 1), plain(y, one, y + 1))
    assert ctir.structural_equal(plain(x, one, x + 1), plain(y, one, y + 1),
                                 map_free_vars=True)


def _store_module(value):
    out = tensor.tensor("out", [1], dtype="int32")
    return ctir.IRModule({"f": tensor.PrimFunc("f", [out], [tensor.store(out, [0], value)])})


def test_the_verifier_follows_a_python_field_s_scope(bind):
    @transform.module_pass(opt_level=0, name="Keep")
    def keep(mod, ctx):
        return mod

    x, one = tensor.var("x"), tensor.const(1)
    with transform.PassContext(instruments=[ctir.instrument.VerifyWellFormed()]):
        keep(_store_module(bind(x, one, x * 2)))
        with pytest.raises(ctir.InstrumentError, match="%x"):
            keep(_store_module(bind(x, one, x * 2) + x))  # a use after the scope ends


def test_an_ignored_field_is_neither_compared_nor_walked():
    noted = ctir.register_node("test.Noted", parent="ir.PrimExpr",
                               fields=[("value", "node", "ir.PrimExpr"),
                                       ("note", "node", "Object", {"ignore": True})])
    x, y = tensor.var("x"), tensor.var("y")
    assert ctir.structural_equal(noted(x, x), noted(x, y))
    seen = []
    ctir.walk(noted(x, y), {"ir.Var": lambda v: seen.append(v.name)})
    assert seen == ["x"]


def test_a_block_field_is_accepted_on_a_field_of_nodes():
    block = ctir.register_node("test.Block", parent="ir.Stmt",
                               fields=[("stmts", "array", "ir.Stmt", {"block": True})])
    assert block.fields[0][3] == {"block": True}


@pytest.mark.parametrize("fields, error, message", [
    ([("v", "node", "ir.Var", {"defines": "both"})], ValueError, "'simple'.*'pattern'"),
    ([("v", "node", "ir.Var", {"scope": "b"})], ValueError, "unknown option 'scope'"),
    ([("v", "node", "ir.Var", {"defines": 1})], TypeError, "is a str, not a int"),
    ([("v", "node", "ir.Var", {"block": "yes"})], TypeError, "is a bool, not a str"),
    ([("v", "node", "ir.Var", {"scope_over": "b"}), ("b", "node")], ValueError,
     "declares a scope but defines nothing"),
    ([("v", "node", "ir.Var", {"defines": "simple", "scope_over": "nope"})], ValueError,
     "'nope' is not a field declared after it"),
    ([("b", "node"), ("v", "node", "ir.Var", {"defines": "simple", "scope_over": "b"})],
     ValueError, "'b' is not a field declared after it"),
    ([("v", "node", "ir.Var", {"defines": "simple", "scope_over": "b",
                               "scope_to_block_end": True}), ("b", "node")], ValueError,
     "one scope only"),
    ([("v", "node", "ir.Var", {"defines": "simple", "recursive_in": ("b", "ir.Expr")}),
      ("b", "node")], ValueError, "recursive_in goes with scope_over"),
    ([("v", "node", "ir.Var", {"defines": "simple", "recursive_in": "b"})], TypeError,
     r"\(field name, type key\)"),
    ([("n", "int", {"block": True})], ValueError, "a block is a field of nodes"),
])
def test_bad_field_options_are_clear_errors_and_register_nothing(fields, error, message,
                                                                 request):
    key = "test.BadOption." + request.node.callspec.id
    with pytest.raises(error, match=message):
        ctir.register_node(key, parent="ir.PrimExpr", fields=fields)
    assert ctir.register_node(key, parent="ir.PrimExpr").fields == []
