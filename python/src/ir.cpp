// Nodes, modules and the text format: fields read through each type's runtime field table.
#include "common.hpp"

#include <ctir/core/type_info.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <ctir/core/type_list.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <concepts>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace ctir::python {
namespace {

const FieldInfo* find_field(const Object& node, std::string_view name) {
  for (const FieldInfo& field : node.type_info().fields) {
    if (field.name == name) {
      return &field;
    }
  }
  return nullptr;
}

/// Reads the value at an address, of the C++ type its converter was registered for.
using ValueConverter = py::object (*)(const void* address);

py::handle for_kind_enum; // ctir.ForKind, owned by the module

py::object to_python(bool value) { return py::bool_(value); }
template <std::integral V>
py::object to_python(V value) {
  return py::int_(value);
}
template <std::floating_point V>
py::object to_python(V value) {
  return py::float_(static_cast<double>(value));
}
py::object to_python(const std::string& value) { return py::str(value); }
py::object to_python(std::monostate) { return py::none(); }
py::object to_python(DataType value) { return py::str(value.str()); } // as tvm: "float32"
py::object to_python(ForKind value) { return for_kind_enum(static_cast<int>(value)); }
py::object to_python(const TensorData& value) { return tensor_to_numpy(value); }

template <class V>
py::object to_python(const std::vector<V>& values) {
  py::list items;
  for (const V& value : values) {
    items.append(to_python(value));
  }
  return items;
}

template <class V>
py::object to_python(const std::optional<V>& value) {
  return value ? to_python(*value) : py::none();
}

template <class... V>
py::object to_python(const std::variant<V...>& value) {
  return std::visit([](const auto& held) { return to_python(held); }, value);
}

py::object to_python(const Attrs& attrs) {
  py::dict items;
  for (const auto& [key, value] : attrs) {
    items[py::str(key)] = to_python(value);
  }
  return items;
}

template <class V>
py::object convert(const void* address) {
  return to_python(*static_cast<const V*>(address));
}

/// The converters, keyed by the value type a field table names: one entry per C++ value
/// type, whatever node types hold it.
const std::unordered_map<const ValueTypeId*, ValueConverter>& value_converters() {
  static const std::unordered_map<const ValueTypeId*, ValueConverter> table = [] {
    std::unordered_map<const ValueTypeId*, ValueConverter> converters;
    auto add = [&]<class... V>(type_list<V...>) {
      ((converters[&value_type_id_v<V>] = &convert<V>), ...);
    };
    add(type_list<bool, signed char, unsigned char, short, unsigned short, int, unsigned, long,
                  unsigned long, long long, unsigned long long, float, double, std::string,
                  DataType, ForKind, Attrs, AttrValue, TensorData, DynamicValue>{});
    add(type_list<std::vector<std::int64_t>, std::vector<double>, std::vector<std::string>,
                  std::vector<DataType>, std::optional<std::int64_t>, std::optional<double>,
                  std::optional<std::string>, std::optional<DataType>>{});
    return converters;
  }();
  return table;
}

/// A value field as Python sees it: through the converter of its C++ value type, or, for a
/// value type no converter knows, its printed text.
py::object value_field(const Object& node, const FieldInfo& field) {
  if (field.value_type != nullptr && field.value_address != nullptr) {
    const auto& converters = value_converters();
    if (const auto it = converters.find(field.value_type); it != converters.end()) {
      return it->second(field.value_address(node, field));
    }
  }
  std::string text;
  field.print(node, field, text);
  return py::str(text);
}

py::object get_field(const ObjectRef& node, const std::string& name) {
  const FieldInfo* field = find_field(*node, name);
  if (field == nullptr) {
    throw py::attribute_error("'" + std::string(node->dynamic_type_key()) +
                              "' node has no field '" + name + "'");
  }
  switch (field->kind) {
  case FieldKind::node:
    return wrap_node(ObjectRef::borrow(field->get(*node, *field)));
  case FieldKind::node_array: {
    const std::size_t size = field->size(*node, *field);
    py::list items(size);
    for (std::size_t i = 0; i < size; ++i) {
      items[i] = wrap_node(ObjectRef::borrow(field->at(*node, *field, i)));
    }
    return items;
  }
  default:
    if (field->print == nullptr) {
      // An ignored field (a cache, a span, a variable's name hint): the table cannot read
      // it, but the type knows the name hint of a variable.
      const TypeInfo& type = node->type_info();
      if (type.is_variable && type.variable_name != nullptr && name == "name") {
        const std::string_view hint = type.variable_name(*node);
        return py::str(hint.data(), hint.size());
      }
      return py::none();
    }
    return value_field(*node, *field);
  }
}

py::list field_names(const ObjectRef& node) {
  py::list names;
  for (const FieldInfo& field : node->type_info().fields) {
    names.append(py::str(field.name.data(), field.name.size()));
  }
  return names;
}

std::string node_str(const ObjectRef& node) {
  try {
    return print(node);
  } catch (const Error&) {
    return format_tree(*node); // not a printable node (a type registered by a plug-in)
  }
}

BaseFunc as_function(py::handle value) {
  const ObjectRef node = unwrap_node(value);
  if (!node.defined() || !node.is<BaseFuncNode>()) {
    throw py::type_error("an IRModule holds functions (ir.Function or ir.PrimFunc), not " +
                         (node.defined() ? std::string(node->dynamic_type_key()) : "None"));
  }
  return Ref<BaseFuncNode>::borrow(node.as<BaseFuncNode>());
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw py::value_error("cannot open '" + path + "'");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

py::object wrap_node(const ObjectRef& node) {
  if (!node.defined()) {
    return py::none();
  }
  return py::cast(node);
}

ObjectRef unwrap_node(py::handle value) {
  if (value.is_none()) {
    return ObjectRef();
  }
  if (py::isinstance<ObjectRef>(value)) {
    return value.cast<const ObjectRef&>();
  }
  if (py::isinstance<IRModule>(value)) {
    return ObjectRef(value.cast<const IRModule&>().node());
  }
  throw py::type_error("expected a ctir node or IRModule, got " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

void bind_ir(py::module_& m) {
  register_ir_types();

  // tvm.tir.ForKind's names and values.
  py::list kinds;
  for (const auto& [name, kind] :
       {std::pair{"SERIAL", ForKind::serial}, std::pair{"PARALLEL", ForKind::parallel},
        std::pair{"VECTORIZED", ForKind::vectorized}, std::pair{"UNROLLED", ForKind::unroll}}) {
    kinds.append(py::make_tuple(name, static_cast<int>(kind)));
  }
  m.attr("ForKind") =
      py::module_::import("enum").attr("IntEnum")("ForKind", kinds, py::arg("module") = "ctir");
  for_kind_enum = m.attr("ForKind");

  py::class_<ObjectRef>(m, "Node", "A node of ctir's IR, shared with C++ by reference count.")
      .def_property_readonly("type_key",
                             [](const ObjectRef& n) { return std::string(n->dynamic_type_key()); })
      .def_property_readonly("fields", &field_names, "The names of the node's fields, in order.")
      .def("__getattr__", &get_field)
      .def("__dir__",
           [](const ObjectRef& n) {
             py::list names = field_names(n);
             for (const char* extra : {"type_key", "fields", "same_as", "script", "use_count"}) {
               names.append(extra);
             }
             return names;
           })
      .def("same_as", [](const ObjectRef& a, py::handle b) { return a.same_as(unwrap_node(b)); })
      .def("__eq__",
           [](const ObjectRef& a, py::handle b) {
             return py::isinstance<ObjectRef>(b) && a.same_as(b.cast<const ObjectRef&>());
           })
      .def("__hash__", [](const ObjectRef& n) { return std::hash<const Object*>()(n.get()); })
      .def_property_readonly(
          "use_count", [](const ObjectRef& n) { return n->use_count(); },
          "How many references (from C++ and Python) hold the node.")
      .def("script", &node_str, "The node in the text format.")
      .def("__str__", &node_str)
      .def("__repr__", [](const ObjectRef& n) {
        return "<" + std::string(n->dynamic_type_key()) + " " + node_str(n) + ">";
      });

  py::class_<IRModule>(m, "IRModule", "An ordered map from global names to functions.")
      .def(py::init<>())
      .def(py::init([](const py::dict& functions) {
             IRModule mod;
             for (const auto& [name, function] : functions) {
               mod.add(name.cast<std::string>(), as_function(function));
             }
             return mod;
           }),
           py::arg("functions"))
      .def("__getitem__",
           [](const IRModule& mod, const std::string& name) {
             if (!mod.contains(name)) {
               throw py::key_error(name);
             }
             return wrap_node(ObjectRef(mod.find(name)));
           })
      .def("__setitem__", [](IRModule& mod, const std::string& name,
                             py::handle function) { mod.update(name, as_function(function)); })
      .def("__delitem__",
           [](IRModule& mod, const std::string& name) {
             if (!mod.contains(name)) {
               throw py::key_error(name);
             }
             mod.remove(name);
           })
      .def("__contains__",
           [](const IRModule& mod, const std::string& name) { return mod.contains(name); })
      .def("__len__", &IRModule::size)
      .def("keys",
           [](const IRModule& mod) {
             py::list names;
             for (std::size_t i = 0; i < mod.size(); ++i) {
               names.append(mod.global_at(i)->name);
             }
             return names;
           })
      .def("items",
           [](const IRModule& mod) {
             py::list items;
             for (std::size_t i = 0; i < mod.size(); ++i) {
               items.append(py::make_tuple(mod.global_at(i)->name,
                                           wrap_node(ObjectRef(mod.function_at(i)))));
             }
             return items;
           })
      .def("update", [](IRModule& mod, const IRModule& other) { mod.update(other); })
      .def("update",
           [](IRModule& mod, const py::dict& functions) {
             for (const auto& [name, function] : functions) {
               mod.update(name.cast<std::string>(), as_function(function));
             }
           })
      .def("remove", [](IRModule& mod, const std::string& name) { mod.remove(name); })
      .def("same_as", [](const IRModule& a, const IRModule& b) { return a.same_as(b); })
      .def_property_readonly("node", [](const IRModule& mod) { return ObjectRef(mod.node()); })
      .def("script", [](const IRModule& mod) { return print(mod); })
      .def("__str__", [](const IRModule& mod) { return print(mod); })
      .def("__repr__", [](const IRModule& mod) { return "<ctir.IRModule\n" + print(mod) + ">"; });

  m.def(
      "parse",
      [](const std::string& text, const std::string& file_name) {
        py::gil_scoped_release release;
        return parse_module(text, file_name);
      },
      py::arg("text"), py::arg("file_name") = "<input>", "Parses a module in the text format.");
  m.def(
      "parse_file",
      [](const std::string& path) {
        const std::string text = read_text_file(path);
        py::gil_scoped_release release;
        return parse_module(text, path);
      },
      py::arg("path"), "Parses the module in a file.");
  m.def(
      "format_tree",
      [](py::handle node) {
        const ObjectRef root = unwrap_node(node);
        return root.defined() ? format_tree(*root) : std::string("null\n");
      },
      py::arg("node"), "The node as an indented tree of its fields.");
}

} // namespace ctir::python
