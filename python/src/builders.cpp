// Building IR from Python: ctir.tensor (variables, loads and stores, loops, functions),
// scalar arithmetic on expression nodes, and node types registered at run time.
#include "common.hpp"

#include <ctir/hooks/runtime_type.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir::python {
namespace {

std::string type_name(py::handle value) {
  if (py::isinstance<ObjectRef>(value)) {
    return std::string(value.cast<const ObjectRef&>()->dynamic_type_key());
  }
  return py::str(py::type::handle_of(value).attr("__name__"));
}

DataType dtype_of(const std::string& name) {
  if (const std::optional<DataType> dtype = DataType::from_string(name)) {
    return *dtype;
  }
  throw py::value_error("unknown dtype '" + name + "'");
}

/// `value` as a node of type N; TypeError naming `what` otherwise.
template <class N>
Ref<N> node_as(py::handle value, const char* what) {
  if (py::isinstance<ObjectRef>(value)) {
    const ObjectRef& node = value.cast<const ObjectRef&>();
    if (node.defined() && node.is<N>()) {
      return Ref<N>::borrow(node.as<N>());
    }
  }
  throw py::type_error(std::string(what) + " expected, got " + type_name(value));
}

/// A scalar expression: a node, or a Python int (int32) or float (float32).
PrimExpr prim(py::handle value) {
  if (py::isinstance<py::bool_>(value)) {
    return IntImm::make(value.cast<bool>() ? 1 : 0, DataType::boolean());
  }
  if (py::isinstance<py::int_>(value)) {
    return IntImm::make(value.cast<std::int64_t>());
  }
  if (py::isinstance<py::float_>(value)) {
    return FloatImm::make(value.cast<double>());
  }
  return node_as<PrimExprNode>(value, "a scalar expression (node, int or float)");
}

std::vector<PrimExpr> prims(const py::iterable& values) {
  std::vector<PrimExpr> result;
  for (py::handle value : values) {
    result.push_back(prim(value));
  }
  return result;
}

/// A statement, or a list of statements as a SeqStmt.
Stmt stmt(py::handle value) {
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::vector<Stmt> seq;
    for (py::handle item : value) {
      seq.push_back(stmt(item));
    }
    return SeqStmt::make(std::move(seq));
  }
  return node_as<StmtNode>(value, "a statement");
}

ForKind for_kind(const std::string& kind) {
  for (ForKind k : {ForKind::serial, ForKind::parallel, ForKind::vectorized, ForKind::unroll}) {
    if (to_string(k) == kind || (k == ForKind::serial && kind == "serial")) {
      return k;
    }
  }
  throw py::value_error("loop kind is 'serial', 'parallel', 'vectorized' or 'unroll', not '" +
                        kind + "'");
}

py::object out(const ObjectRef& node) { return wrap_node(node); }

// ---- Node types registered from Python ------------------------------------------------

/// The slots of a node of a type registered at run time, filled from Python values.
struct Slots {
  std::vector<ObjectRef> nodes;
  std::vector<std::vector<ObjectRef>> arrays;
  std::vector<DynamicValue> values;
};

template <class Base>
const TypeInfo& register_under(std::string key, const std::vector<RuntimeFieldSpec>& fields) {
  return register_dynamic_type<Base>(std::move(key), fields);
}

template <class Base>
ObjectRef make_under(const TypeInfo& type, Slots slots) {
  Owned<DynamicNode<Base>> node = make_dynamic<Base>(type);
  node->nodes = std::move(slots.nodes);
  node->arrays = std::move(slots.arrays);
  node->values = std::move(slots.values);
  ObjectRef published = std::move(node);
  return published;
}

/// A compiled-in node type a Python node type may derive from: its objects are then
/// accepted wherever one of that type is (a Python statement inside a SeqStmt).
struct PythonBase {
  std::string_view key;
  const TypeInfo& (*add)(std::string, const std::vector<RuntimeFieldSpec>&);
  ObjectRef (*make)(const TypeInfo&, Slots);
};

constexpr std::array<PythonBase, 5> python_bases = {{
    {"Object", &register_under<Object>, &make_under<Object>},
    {"ir.Expr", &register_under<ExprNode>, &make_under<ExprNode>},
    {"ir.PrimExpr", &register_under<PrimExprNode>, &make_under<PrimExprNode>},
    {"ir.Stmt", &register_under<StmtNode>, &make_under<StmtNode>},
    {"ir.Type", &register_under<TypeNode>, &make_under<TypeNode>},
}};

/// One field of a Python node type: (name, kind, element type key of node fields).
struct PythonField {
  std::string name;
  std::string kind; // "node", "array", "int", "float", "bool" or "str"
  std::string element;
  friend bool operator==(const PythonField&, const PythonField&) = default;
};

struct PythonNodeType {
  std::string parent;
  std::vector<PythonField> fields;
  const TypeInfo* type = nullptr;
  const PythonBase* base = nullptr;
};

/// Every node type registered from Python, by key (the GIL guards it).
std::map<std::string, PythonNodeType, std::less<>>& python_node_types() {
  static std::map<std::string, PythonNodeType, std::less<>> types;
  return types;
}

constexpr std::array<std::string_view, 6> value_kinds = {"node",  "array", "int",
                                                         "float", "bool",  "str"};
// Names Node defines itself: a field of that name could not be read by name.
constexpr std::array<std::string_view, 5> reserved_names = {"type_key", "fields", "same_as",
                                                            "script", "use_count"};

std::string describe(const std::string& parent, const std::vector<PythonField>& fields) {
  std::string text = "parent '" + parent + "', fields [";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    text += (i == 0 ? "(" : ", (") + fields[i].name + ", " + fields[i].kind;
    if (!fields[i].element.empty()) {
      text += ", " + fields[i].element;
    }
    text += ")";
  }
  return text + "]";
}

std::vector<PythonField> python_fields(const std::string& key, const py::iterable& specs) {
  std::vector<PythonField> fields;
  for (py::handle spec : specs) {
    const auto items = py::cast<std::vector<py::object>>(spec);
    if (items.size() != 2 && items.size() != 3) {
      throw py::type_error("a field of '" + key +
                           "' is (name, kind) or (name, kind, element type key)");
    }
    PythonField field{items[0].cast<std::string>(), items[1].cast<std::string>(), ""};
    const bool node_kind = field.kind == "node" || field.kind == "array";
    if (node_kind) {
      field.element = items.size() == 3 ? items[2].cast<std::string>() : std::string("Object");
    }
    if (std::find(value_kinds.begin(), value_kinds.end(), field.kind) == value_kinds.end()) {
      throw py::value_error("field '" + field.name + "' of '" + key + "' has kind '" + field.kind +
                            "'; a kind is node, array, int, float, bool or str");
    }
    if (items.size() == 3 && !node_kind) {
      throw py::value_error("field '" + field.name + "' of '" + key +
                            "' is a value: only node and array fields name an element type");
    }
    if (node_kind && TypeRegistry::global().find(field.element) == nullptr) {
      throw py::value_error("field '" + field.name + "' of '" + key +
                            "' names an unknown node type '" + field.element + "'");
    }
    if (!py::str(field.name).attr("isidentifier")().cast<bool>() ||
        std::find(reserved_names.begin(), reserved_names.end(), field.name) !=
            reserved_names.end()) {
      throw py::value_error("'" + field.name + "' cannot name a field of '" + key +
                            "': a field name is an identifier other than type_key, fields, "
                            "same_as, script and use_count");
    }
    for (const PythonField& earlier : fields) {
      if (earlier.name == field.name) {
        throw py::value_error("'" + key + "' declares field '" + field.name + "' twice");
      }
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

py::list field_list(const std::vector<PythonField>& fields) {
  py::list result;
  for (const PythonField& field : fields) {
    result.append(field.element.empty() ? py::make_tuple(field.name, field.kind)
                                        : py::make_tuple(field.name, field.kind, field.element));
  }
  return result;
}

/// Registers a node type from Python, or finds the one registered before with the same
/// parent and fields; returns its fields as (name, kind), with the element type key of
/// node fields: (name, kind, key).
py::list register_node(const std::string& key, const std::string& parent,
                       const py::iterable& specs) {
  std::vector<PythonField> fields = python_fields(key, specs);
  auto& types = python_node_types();
  if (const auto it = types.find(key); it != types.end()) {
    if (it->second.parent != parent || it->second.fields != fields) {
      throw py::value_error("node type '" + key + "' is already registered with " +
                            describe(it->second.parent, it->second.fields) +
                            "; it cannot be registered again with " + describe(parent, fields));
    }
    return field_list(fields);
  }
  if (key.empty()) {
    throw py::value_error("a node type key is not empty ('my.Annotate')");
  }
  if (TypeRegistry::global().find(key) != nullptr) {
    throw py::value_error("'" + key + "' is already a node type of ctir or of a plug-in");
  }
  const auto base = std::find_if(python_bases.begin(), python_bases.end(),
                                 [&](const PythonBase& b) { return b.key == parent; });
  if (base == python_bases.end()) {
    throw py::value_error("node type '" + key + "' cannot derive from '" + parent +
                          "': the parent is Object, ir.Expr, ir.PrimExpr, ir.Stmt or ir.Type");
  }
  std::vector<RuntimeFieldSpec> runtime_fields;
  const TypeInfo* parent_type = TypeRegistry::global().find(parent); // bind_ir registered it
  for (const PythonField& field : fields) {
    for (const FieldInfo& inherited :
         parent_type == nullptr ? std::span<const FieldInfo>() : parent_type->fields) {
      if (inherited.name == field.name) {
        throw py::value_error("field '" + field.name + "' of '" + key + "' hides a field of '" +
                              parent + "'");
      }
    }
    RuntimeFieldSpec spec;
    spec.name = field.name;
    spec.kind = field.kind == "node"    ? FieldKind::node
                : field.kind == "array" ? FieldKind::node_array
                                        : FieldKind::value;
    spec.element_type_key = field.element;
    runtime_fields.push_back(std::move(spec));
  }
  const TypeInfo& type = base->add(key, runtime_fields);
  types.emplace(key, PythonNodeType{parent, fields, &type, &*base});
  return field_list(fields);
}

ObjectRef field_node(const std::string& key, const PythonField& field, py::handle value) {
  if (value.is_none()) {
    return ObjectRef();
  }
  const ObjectRef node =
      py::isinstance<ObjectRef>(value) ? value.cast<const ObjectRef&>() : ObjectRef();
  const TypeInfo* element = TypeRegistry::global().find(field.element);
  if (!node.defined() || !node->type_info().derives_from(*element)) {
    throw py::type_error(
        key + "." + field.name + " holds a " + field.element + ", not " +
        (node.defined() ? "a " + std::string(node->dynamic_type_key()) : "a " + type_name(value)));
  }
  return node;
}

DynamicValue field_value(const std::string& key, const PythonField& field, py::handle value) {
  if (value.is_none()) {
    return std::monostate{};
  }
  const bool is_bool = py::isinstance<py::bool_>(value);
  const bool is_int = py::isinstance<py::int_>(value) && !is_bool;
  if (field.kind == "int" && is_int) {
    return value.cast<std::int64_t>();
  }
  if (field.kind == "float" && (is_int || py::isinstance<py::float_>(value))) {
    return value.cast<double>();
  }
  if (field.kind == "bool" && is_bool) {
    return value.cast<bool>();
  }
  if (field.kind == "str" && py::isinstance<py::str>(value)) {
    return value.cast<std::string>();
  }
  throw py::type_error(key + "." + field.name + " holds a " + field.kind + ", not a " +
                       type_name(value));
}

/// A node of a type registered from Python; `values` holds one value per field, in order.
py::object make_node(const std::string& key, const py::list& values) {
  const auto& types = python_node_types();
  const auto it = types.find(key);
  if (it == types.end()) {
    throw py::value_error("'" + key + "' is not a node type registered from Python");
  }
  const PythonNodeType& type = it->second;
  if (values.size() != type.fields.size()) {
    throw py::type_error(key + " has " + std::to_string(type.fields.size()) + " fields, not " +
                         std::to_string(values.size()));
  }
  Slots slots;
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const PythonField& field = type.fields[i];
    const py::handle value = values[i];
    if (field.kind == "node") {
      slots.nodes.push_back(field_node(key, field, value));
    } else if (field.kind == "array") {
      std::vector<ObjectRef> items;
      if (!value.is_none()) {
        if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
          throw py::type_error(key + "." + field.name + " holds a list of " + field.element +
                               ", not a " + type_name(value));
        }
        for (py::handle item : value) {
          items.push_back(field_node(key, field, item));
        }
      }
      slots.arrays.push_back(std::move(items));
    } else {
      slots.values.push_back(field_value(key, field, value));
    }
  }
  return out(type.base->make(*type.type, std::move(slots)));
}

} // namespace

void bind_builders(py::module_& m) {
  py::module_ t = m.def_submodule("tensor", "Builders of tensor-level IR.");
  t.def(
      "var",
      [](const std::string& name, const std::string& dtype) {
        return out(Var::make(name, dtype_of(dtype)));
      },
      py::arg("name"), py::arg("dtype") = "int32", "A scalar variable.");
  t.def(
      "tensor",
      [](const std::string& name, const py::iterable& shape, const std::string& dtype) {
        return out(Var::make(name, TensorType::make(prims(shape), dtype_of(dtype))));
      },
      py::arg("name"), py::arg("shape"), py::arg("dtype") = "float32",
      "A tensor variable; the shape holds ints and scalar variables.");
  t.def(
      "const",
      [](py::handle value, const py::object& dtype) {
        if (dtype.is_none()) {
          return out(prim(value));
        }
        const DataType type = dtype_of(dtype.cast<std::string>());
        if (type.is_float()) {
          return out(FloatImm::make(value.cast<double>(), type));
        }
        return out(IntImm::make(value.cast<std::int64_t>(), type));
      },
      py::arg("value"), py::arg("dtype") = py::none(), "A scalar literal.");
  t.def(
      "load",
      [](py::handle tensor, const py::iterable& indices) {
        return out(load(node_as<VarNode>(tensor, "a tensor variable"), prims(indices)));
      },
      py::arg("tensor"), py::arg("indices"), "`tensor[indices]` as a scalar expression.");
  t.def(
      "store",
      [](py::handle tensor, const py::iterable& indices, py::handle value) {
        return out(TensorStore::make(node_as<VarNode>(tensor, "a tensor variable"), prims(indices),
                                     prim(value)));
      },
      py::arg("tensor"), py::arg("indices"), py::arg("value"), "`tensor[indices] = value`.");
  t.def(
      "For",
      [](py::handle var, py::handle begin, py::handle end, py::handle body,
         const std::string& kind) {
        return out(For::make(node_as<VarNode>(var, "a loop variable"), prim(begin), prim(end),
                             stmt(body), for_kind(kind)));
      },
      py::arg("var"), py::arg("begin"), py::arg("end"), py::arg("body"), py::arg("kind") = "serial",
      "A loop over [begin, end); a list body is a sequence.");
  t.def(
      "seq", [](const py::iterable& stmts) { return out(stmt(py::list(stmts))); }, py::arg("stmts"),
      "A statement sequence.");
  t.def(
      "PrimFunc",
      [](const std::string& name, const py::iterable& params, py::handle body) {
        std::vector<Var> vars;
        for (py::handle param : params) {
          vars.push_back(node_as<VarNode>(param, "a parameter variable"));
        }
        return out(PrimFunc::make(name, std::move(vars), stmt(body)));
      },
      py::arg("name"), py::arg("params"), py::arg("body"), "A tensor-level function.");

  // Arithmetic on scalar expression nodes (`A[i] + 1.0`); comparisons stay identity.
  auto node = py::reinterpret_borrow<py::class_<ObjectRef>>(m.attr("Node"));
  const auto binary = [&](const char* name, const char* rname, auto op) {
    node.def(name, [op](py::handle a, py::handle b) { return out(op(prim(a), prim(b))); });
    node.def(rname, [op](py::handle a, py::handle b) { return out(op(prim(b), prim(a))); });
  };
  binary("__add__", "__radd__", [](const PrimExpr& a, const PrimExpr& b) { return a + b; });
  binary("__sub__", "__rsub__", [](const PrimExpr& a, const PrimExpr& b) { return a - b; });
  binary("__mul__", "__rmul__", [](const PrimExpr& a, const PrimExpr& b) { return a * b; });
  binary("__truediv__", "__rtruediv__", [](const PrimExpr& a, const PrimExpr& b) { return a / b; });
  binary("__mod__", "__rmod__", [](const PrimExpr& a, const PrimExpr& b) { return a % b; });
  node.def("__neg__", [](py::handle a) { return out(-prim(a)); });

  m.def("register_node", &register_node, py::arg("key"), py::arg("parent"), py::arg("fields"),
        "Registers a node type (see ctir.register_node); returns its fields.");
  m.def("make_node", &make_node, py::arg("key"), py::arg("values"),
        "A node of a type registered with register_node, its field values in order.");
}

} // namespace ctir::python
