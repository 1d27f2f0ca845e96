"""IR from Python: parsing, printing, modules as mappings, nodes and their fields."""

import pytest

import ctir

from conftest import ADD_ONE, GRAPH


def test_parse_then_str_prints_the_canonical_text_back(add_one_mod):
    assert str(add_one_mod) == ADD_ONE
    assert add_one_mod.script() == ADD_ONE


def test_parse_file_reads_a_module_from_disk(tmp_path):
    path = tmp_path / "m.ctir"
    path.write_text(GRAPH)
    mod = ctir.parse_file(str(path))
    assert list(mod) == ["main", "helper"]


def test_parse_error_carries_file_line_column_and_message():
    text = "def @main(%x: Tensor[(2), float32]) {\n  add(%x, %y)\n}\n"
    with pytest.raises(ctir.ParseError) as info:
        ctir.parse(text, "broken.ctir")
    error = info.value
    assert isinstance(error, ctir.Error)
    assert error.file == "broken.ctir"
    assert error.line == 2
    assert error.column == 11
    assert "%y" in error.message
    assert "broken.ctir:2:11" in str(error)


def test_parse_file_of_a_missing_file_raises_value_error(tmp_path):
    with pytest.raises(ValueError, match="cannot open"):
        ctir.parse_file(str(tmp_path / "nothing.ctir"))


def test_a_module_is_a_mapping_of_names_to_functions(graph_mod):
    assert len(graph_mod) == 2
    assert "main" in graph_mod and "absent" not in graph_mod
    assert [name for name in graph_mod] == ["main", "helper"]
    assert graph_mod["main"].type_key == "ir.Function"
    assert [name for name, _ in graph_mod.items()] == ["main", "helper"]
    with pytest.raises(KeyError):
        graph_mod["absent"]


def test_module_update_and_remove_change_only_that_module(graph_mod, add_one_mod):
    before = str(graph_mod)
    copy = ctir.IRModule({"main": graph_mod["main"]})
    copy.update(add_one_mod)
    assert list(copy) == ["main", "add_one"]
    copy.update({"helper": graph_mod["helper"]})
    assert list(copy) == ["main", "add_one", "helper"]
    copy.remove("add_one")
    del copy["helper"]
    assert list(copy) == ["main"]
    assert str(graph_mod) == before  # the source module is untouched (copy on write)


def test_a_module_holds_functions_only(graph_mod):
    body = graph_mod["main"].body
    with pytest.raises(TypeError, match="holds functions"):
        graph_mod["bad"] = body


def test_node_fields_come_from_the_runtime_field_table(add_one_mod):
    func = add_one_mod["add_one"]
    assert func.type_key == "ir.PrimFunc"
    assert "params" in func.fields and "body" in func.fields
    params = func.params
    assert [p.name for p in params] == ["A", "B"]
    assert func.body.type_key == "ir.SeqStmt"
    loop = func.body.seq[0]
    assert loop.type_key == "ir.For"
    assert loop.var.name == "i"
    assert loop.body.seq[0].type_key == "ir.TensorStore"


def test_value_fields_read_back_as_python_values(add_one_mod):
    store = add_one_mod["add_one"].body.seq[0].body.seq[0]
    one = store.value.b
    assert one.type_key == "ir.FloatImm"
    assert one.value == 1.0 and type(one.value) is float
    begin = add_one_mod["add_one"].body.seq[0].begin
    assert begin.value == 0 and type(begin.value) is int


def test_a_dtype_reads_as_its_name_like_tvm(add_one_mod):
    one = add_one_mod["add_one"].body.seq[0].body.seq[0].value.b
    assert one.dtype == "float32" and type(one.dtype) is str
    tensor_type = add_one_mod["add_one"].params[0].ty
    assert tensor_type.dtype == "float32"


def test_a_loop_kind_reads_as_a_for_kind_enum():
    mod = ctir.parse(ADD_ONE.replace("range(", "parallel("))
    kind = mod["add_one"].body.seq[0].kind
    assert kind is ctir.ForKind.PARALLEL and kind == 1
    assert ctir.parse(ADD_ONE)["add_one"].body.seq[0].kind is ctir.ForKind.SERIAL
    assert [k.name for k in ctir.ForKind] == ["SERIAL", "PARALLEL", "VECTORIZED", "UNROLLED"]


def test_a_large_int64_literal_reads_exactly():
    mod = ctir.parse("prim @f(%A: Tensor[(1), int64]) {\n  %A[0] = 9007199254740993i64;\n}\n")
    literal = mod["f"].body.seq[0].value
    assert literal.value == 9007199254740993 and literal.dtype == "int64"


def test_attributes_read_as_a_dict_of_python_values():
    mod = ctir.parse("def @f(%a: Tensor[(2), float32]) -> Tensor[(2), float32] "
                     "attributes {Primitive = 1, SkipOptimization = false, Tag = \"x\\\"y\"} "
                     "{\n  %a\n}\n")
    attrs = mod["f"].attrs
    assert attrs == {"Primitive": 1, "SkipOptimization": False, "Tag": 'x"y'}
    assert type(attrs["SkipOptimization"]) is bool


def test_a_constant_reads_its_data_as_a_numpy_array(graph_mod):
    import numpy

    constant = graph_mod["main"].body.args[1].args[0]
    assert constant.type_key == "ir.Constant"
    assert isinstance(constant.data, numpy.ndarray)
    assert constant.data.dtype == numpy.float32 and constant.data.tolist() == [1.0, 2.0]


def test_an_unknown_field_raises_attribute_error(add_one_mod):
    with pytest.raises(AttributeError, match="no field 'nonsense'"):
        add_one_mod["add_one"].nonsense


def test_nodes_compare_by_identity(add_one_mod):
    a = add_one_mod["add_one"]
    b = add_one_mod["add_one"]
    assert a == b and a.same_as(b) and hash(a) == hash(b)
    assert a != ctir.parse(ADD_ONE)["add_one"]


def test_format_tree_shows_the_node_as_a_tree(add_one_mod):
    tree = ctir.format_tree(add_one_mod["add_one"])
    assert tree.startswith("PrimFunc")
    assert "TensorStore(dest=B, indices=[i])" in tree and "FloatImm(value=1.0)" in tree
