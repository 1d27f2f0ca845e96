// Node types registered from Python (ctir.register_node): their fields, with the options
// that make a field a definition with a scope, a block or ignored, and their nodes.
#include "common.hpp"

#include <ctir/core/type_info.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/runtime_type.hpp>

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

py::object out(const ObjectRef& node) { return wrap_node(node); }

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

/// What a field of a Python node type declares besides its kind: whether it defines
/// variables and where they are in scope, whether it is a block or ignored (the options of
/// the field hooks of a C++ node type; see RuntimeFieldSpec).
struct FieldOptions {
  std::string defines;        // "", "simple" or "pattern"
  std::string scope_over;     // a later field the definition's scope starts at
  std::string recursive_in;   // a field between, in scope too when it holds...
  std::string recursive_type; // ...a node of this type
  bool scope_to_block_end = false;
  bool block = false;
  bool ignore = false;
  bool empty() const noexcept { return *this == FieldOptions{}; }
  friend bool operator==(const FieldOptions&, const FieldOptions&) = default;
};

/// One field of a Python node type: (name, kind, element type key of node fields,
/// options).
struct PythonField {
  std::string name;
  std::string kind; // "node", "array", "int", "float", "bool" or "str"
  std::string element;
  FieldOptions options;
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

constexpr std::array<std::string_view, 6> option_names = {
    "defines", "scope_over", "recursive_in", "scope_to_block_end", "block", "ignore"};

/// A field's options dict: {"defines": "simple" | "pattern", "scope_over": name,
/// "recursive_in": (name, type key), "scope_to_block_end": bool, "block": bool,
/// "ignore": bool}.
FieldOptions field_options(const std::string& key, const std::string& name,
                           const py::dict& options) {
  const auto where = [&] { return "field '" + name + "' of '" + key + "'"; };
  FieldOptions result;
  for (const auto& item : options) {
    // Not a structured binding: clang 14 cannot capture one in the lambdas below.
    const py::handle value = item.second;
    const std::string option = py::str(item.first);
    if (std::find(option_names.begin(), option_names.end(), option) == option_names.end()) {
      throw py::value_error(where() + " has an unknown option '" + option +
                            "'; the options are defines, scope_over, recursive_in, "
                            "scope_to_block_end, block and ignore");
    }
    const auto text = [&] {
      if (!py::isinstance<py::str>(value)) {
        throw py::type_error(where() + ": option '" + option + "' is a str, not a " +
                             type_name(value));
      }
      return value.cast<std::string>();
    };
    const auto flag = [&] {
      if (!py::isinstance<py::bool_>(value)) {
        throw py::type_error(where() + ": option '" + option + "' is a bool, not a " +
                             type_name(value));
      }
      return value.cast<bool>();
    };
    if (option == "defines") {
      result.defines = text();
      if (result.defines != "simple" && result.defines != "pattern") {
        throw py::value_error(where() +
                              " defines 'simple' (the variable it holds) or "
                              "'pattern' (the variables in it), not '" +
                              result.defines + "'");
      }
    } else if (option == "scope_over") {
      result.scope_over = text();
    } else if (option == "recursive_in") {
      const bool pair = py::isinstance<py::tuple>(value) && py::len(value) == 2 &&
                        py::isinstance<py::str>(value[py::int_(0)]) &&
                        py::isinstance<py::str>(value[py::int_(1)]);
      if (!pair) {
        throw py::type_error(where() + ": option 'recursive_in' is (field name, type key)");
      }
      result.recursive_in = value[py::int_(0)].cast<std::string>();
      result.recursive_type = value[py::int_(1)].cast<std::string>();
    } else if (option == "scope_to_block_end") {
      result.scope_to_block_end = flag();
    } else if (option == "block") {
      result.block = flag();
    } else {
      result.ignore = flag();
    }
  }
  if (!result.scope_over.empty() && result.scope_to_block_end) {
    throw py::value_error(where() + " has scope_over and scope_to_block_end: one scope only");
  }
  if ((!result.scope_over.empty() || result.scope_to_block_end) && result.defines.empty()) {
    throw py::value_error(where() + " declares a scope but defines nothing (add \"defines\": "
                                    "\"simple\")");
  }
  if (!result.recursive_in.empty() && result.scope_over.empty()) {
    throw py::value_error(where() + ": recursive_in goes with scope_over");
  }
  return result;
}

std::vector<PythonField> python_fields(const std::string& key, const py::iterable& specs) {
  std::vector<PythonField> fields;
  for (py::handle spec : specs) {
    auto items = py::cast<std::vector<py::object>>(spec);
    py::dict options;
    if (items.size() >= 3 && py::isinstance<py::dict>(items.back())) {
      options = items.back();
      items.pop_back();
    }
    if (items.size() != 2 && items.size() != 3) {
      throw py::type_error("a field of '" + key +
                           "' is (name, kind) or (name, kind, element type key), with a dict "
                           "of options last if any");
    }
    PythonField field{items[0].cast<std::string>(), items[1].cast<std::string>(), "", {}};
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
    field.options = field_options(key, field.name, options);
    fields.push_back(std::move(field));
  }
  return fields;
}

/// The options of a field as the dict they were given as (only those set).
py::dict options_dict(const FieldOptions& options) {
  py::dict result;
  if (!options.defines.empty()) {
    result["defines"] = options.defines;
  }
  if (!options.scope_over.empty()) {
    result["scope_over"] = options.scope_over;
  }
  if (!options.recursive_in.empty()) {
    result["recursive_in"] = py::make_tuple(options.recursive_in, options.recursive_type);
  }
  if (options.scope_to_block_end) {
    result["scope_to_block_end"] = true;
  }
  if (options.block) {
    result["block"] = true;
  }
  if (options.ignore) {
    result["ignore"] = true;
  }
  return result;
}

py::list field_list(const std::vector<PythonField>& fields) {
  py::list result;
  for (const PythonField& field : fields) {
    py::list items;
    items.append(field.name);
    items.append(field.kind);
    if (!field.element.empty()) {
      items.append(field.element);
    }
    if (!field.options.empty()) {
      items.append(options_dict(field.options));
    }
    result.append(py::tuple(items));
  }
  return result;
}

std::string describe(const std::string& parent, const std::vector<PythonField>& fields) {
  std::string text = "parent '" + parent + "', fields [";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    text += (i == 0 ? "(" : ", (") + fields[i].name + ", " + fields[i].kind;
    if (!fields[i].element.empty()) {
      text += ", " + fields[i].element;
    }
    if (!fields[i].options.empty()) {
      text += ", " + std::string(py::str(options_dict(fields[i].options)));
    }
    text += ")";
  }
  return text + "]";
}

/// The field as ctir's run-time field tables take it.
RuntimeFieldSpec runtime_field(const PythonField& field) {
  RuntimeFieldSpec spec;
  spec.name = field.name;
  spec.kind = field.kind == "node"    ? FieldKind::node
              : field.kind == "array" ? FieldKind::node_array
                                      : FieldKind::value;
  spec.element_type_key = field.element;
  const FieldOptions& options = field.options;
  spec.def_kind = options.defines == "simple"    ? DefRegionKind::def_simple
                  : options.defines == "pattern" ? DefRegionKind::def_pattern
                                                 : DefRegionKind::none;
  spec.flags =
      (options.block ? field_flags::block : 0U) | (options.ignore ? field_flags::ignore : 0U);
  if (!options.scope_over.empty()) {
    spec.scope = DefScope::field;
    spec.scope_field = options.scope_over;
    spec.recursive_field = options.recursive_in;
    spec.recursive_type_key = options.recursive_type;
  } else if (options.scope_to_block_end) {
    spec.scope = DefScope::block_end;
  }
  return spec;
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
    runtime_fields.push_back(runtime_field(field));
  }
  const TypeInfo* type = nullptr;
  try {
    type = &base->add(key, runtime_fields);
  } catch (const type_registration_error& error) {
    // A scope that names no suitable field, an option on a field that cannot take it.
    std::string_view message = error.what();
    message.remove_prefix(message.starts_with("ctir: ") ? 6 : 0);
    throw py::value_error(std::string(message));
  }
  types.emplace(key, PythonNodeType{parent, fields, type, &*base});
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

void bind_node_types(py::module_& m) {
  m.def("register_node", &register_node, py::arg("key"), py::arg("parent"), py::arg("fields"),
        "Registers a node type (see ctir.register_node); returns its fields.");
  m.def("make_node", &make_node, py::arg("key"), py::arg("values"),
        "A node of a type registered with register_node, its field values in order.");
}

} // namespace ctir::python
