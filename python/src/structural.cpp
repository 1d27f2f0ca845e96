// Structural equality and hashing, and walk and map with Python callbacks, through the
// runtime layer.
#include "common.hpp"

#include <ctir/runtime/callbacks.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/mapped.hpp>
#include <ctir/runtime/structural_equal.hpp>
#include <ctir/runtime/structural_hash.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/text/install_printer.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <optional>
#include <string>
#include <utility>

namespace ctir::python {
namespace {

/// What a walk callback returns to stop the walk (`ctir.interrupt(payload)`).
struct WalkInterrupt {
  py::object payload;
};

WalkOrder order_of(const std::string& order) {
  if (order == "post") {
    return WalkOrder::post;
  }
  if (order == "pre") {
    return WalkOrder::pre;
  }
  throw py::value_error("order must be 'pre' or 'post', not '" + order + "'");
}

/// `ctir.mapped(fn)`: a map callback that takes a `ctir.Mapped` view instead of its node.
struct MappedCallback {
  py::object fn;
};

/// `ctir.Mapped`: the runtime::Mapped view a `ctir.mapped` callback receives, valid during
/// its call only (the view and the children it shows live on the map's stack).
struct MappedView {
  const runtime::Mapped* view = nullptr;

  const runtime::Mapped& get() const {
    if (view == nullptr) {
      throw Error("ctir.Mapped: a view is valid only during the call of its callback");
    }
    return *view;
  }
};

/// `ctir.skip`, kept for the life of the process (the module is never unloaded).
py::handle skip_sentinel;

/// Checks that the callbacks are a mapping from type keys (or node types registered from
/// Python, which have one) to callables, and calls `add(key, fn)` for each.
template <class Add>
void for_each_callback(const py::dict& callbacks, Add add) {
  for (const auto& [key, fn] : callbacks) {
    const py::object type_key = py::isinstance<py::str>(key)
                                    ? py::reinterpret_borrow<py::object>(key)
                                    : py::getattr(key, "type_key", py::none());
    if (!py::isinstance<py::str>(type_key) ||
        !(PyCallable_Check(fn.ptr()) || py::isinstance<MappedCallback>(fn))) {
      throw py::type_error("callbacks map type keys ('ir.Var', ...) to callables");
    }
    add(py::cast<std::string>(type_key), py::reinterpret_borrow<py::object>(fn));
  }
}

/// The type key of `type`: a string, or a node type registered from Python (which has one).
std::string type_key_of(py::handle type, const char* what) {
  const py::object key = py::isinstance<py::str>(type) ? py::reinterpret_borrow<py::object>(type)
                                                       : py::getattr(type, "type_key", py::none());
  if (!py::isinstance<py::str>(key)) {
    throw py::type_error(std::string(what) + " holds type keys ('ir.Type', ...) or node types");
  }
  return py::cast<std::string>(key);
}

/// Makes the types listed in `not_into` opaque to the traversal (runtime::Callbacks::not_into).
void add_opaque_types(runtime::Callbacks& cbs, const py::iterable& not_into) {
  for (const py::handle type : not_into) {
    cbs.not_into(type_key_of(type, "not_into"));
  }
}

py::object walk(py::handle root, const py::dict& callbacks, const std::string& order,
                const py::iterable& not_into) {
  runtime::Callbacks cbs;
  add_opaque_types(cbs, not_into);
  for_each_callback(callbacks, [&](const std::string& key, py::object fn) {
    if (py::isinstance<MappedCallback>(fn)) {
      throw py::type_error("the callback for '" + key +
                           "' is a ctir.mapped(...) map callback; a walk callback takes the node");
    }
    cbs.on(key, [fn = std::move(fn)](const ObjectRef& node) -> runtime::WalkResult {
      py::object result = fn(wrap_node(node));
      if (result.is_none()) {
        return advance;
      }
      if (result.is(skip_sentinel)) {
        return skip;
      }
      if (py::isinstance<WalkInterrupt>(result)) {
        const py::object payload = result.cast<const WalkInterrupt&>().payload;
        return runtime::WalkResult::interrupted(unwrap_node(payload));
      }
      throw py::type_error("a walk callback returns None, ctir.skip or ctir.interrupt(...)");
    });
  });
  const std::optional<ObjectRef> stopped = runtime::walk(unwrap_node(root), cbs, order_of(order));
  if (!stopped) {
    return py::none();
  }
  return py::cast(WalkInterrupt{wrap_node(*stopped)});
}

py::object map(py::handle root, const py::dict& callbacks, const std::string& order,
               const py::iterable& not_into) {
  runtime::Callbacks cbs;
  add_opaque_types(cbs, not_into);
  for_each_callback(callbacks, [&](const std::string& key, py::object fn) {
    if (py::isinstance<MappedCallback>(fn)) {
      cbs.on(key,
             [fn = fn.cast<const MappedCallback&>().fn](
                 const runtime::Mapped& view) -> MapResult<Object> {
               py::object handle = py::cast(MappedView{&view});
               // The view dies with this call, whatever the callback kept of it.
               struct Expire {
                 py::object& handle;
                 ~Expire() { handle.cast<MappedView&>().view = nullptr; }
               } expire{handle};
               py::object result = fn(handle);
               if (result.is_none()) {
                 return unchanged;
               }
               return MapResult<Object>(unwrap_node(result));
             });
      return;
    }
    cbs.on(key, [fn = std::move(fn)](const ObjectRef& node) -> MapResult<Object> {
      py::object result = fn(wrap_node(node));
      if (result.is_none()) {
        return unchanged;
      }
      return MapResult<Object>(unwrap_node(result));
    });
  });
  return wrap_node(runtime::map(unwrap_node(root), cbs, order_of(order)));
}

} // namespace

void bind_structural(py::module_& m) {
  install_printer(); // mismatch reports show both programs, the mismatch underlined

  skip_sentinel = py::module_::import("builtins").attr("object")().release();
  m.attr("skip") = skip_sentinel;
  py::class_<WalkInterrupt>(m, "Interrupt", "What walk returns when a callback interrupted it.")
      .def(py::init([](py::object payload) { return WalkInterrupt{std::move(payload)}; }),
           py::arg("payload") = py::none())
      .def_readonly("payload", &WalkInterrupt::payload);

  m.def(
      "structural_equal",
      [](py::handle a, py::handle b, bool map_free_vars) {
        const ObjectRef lhs = unwrap_node(a);
        const ObjectRef rhs = unwrap_node(b);
        py::gil_scoped_release release;
        return runtime::structural_equal(lhs, rhs,
                                         StructuralEqualOptions{.map_free_vars = map_free_vars});
      },
      py::arg("lhs"), py::arg("rhs"), py::arg("map_free_vars") = false);
  m.def(
      "structural_hash",
      [](py::handle value, bool map_free_vars) {
        const ObjectRef node = unwrap_node(value);
        py::gil_scoped_release release;
        return runtime::structural_hash(node,
                                        StructuralHashOptions{.map_free_vars = map_free_vars});
      },
      py::arg("value"), py::arg("map_free_vars") = false);
  m.def(
      "assert_structural_equal",
      [](py::handle a, py::handle b, bool map_free_vars) {
        const ObjectRef lhs = unwrap_node(a);
        const ObjectRef rhs = unwrap_node(b);
        std::optional<StructuralMismatch> mismatch = runtime::find_structural_mismatch(
            lhs, rhs, StructuralEqualOptions{.map_free_vars = map_free_vars});
        if (mismatch) {
          std::string message = format_structural_mismatch(lhs, rhs, *mismatch);
          throw StructuralEqualError(std::move(*mismatch), message);
        }
      },
      py::arg("lhs"), py::arg("rhs"), py::arg("map_free_vars") = false);
  py::class_<MappedCallback>(m, "MappedCallback",
                             "A map callback that takes a ctir.Mapped view (ctir.mapped(fn)).")
      .def_readonly("fn", &MappedCallback::fn);
  m.def(
      "mapped",
      [](py::object fn) {
        if (!PyCallable_Check(fn.ptr())) {
          throw py::type_error("ctir.mapped takes a callable");
        }
        return MappedCallback{std::move(fn)};
      },
      py::arg("fn"),
      "Marks a post-order map callback that takes a ctir.Mapped view: the node's mapped "
      "children before the node is built.");
  py::class_<MappedView>(m, "Mapped",
                         "A node whose children are mapped, before it is built (valid during "
                         "the callback's call only).")
      .def_property_readonly(
          "original", [](const MappedView& self) { return wrap_node(self.get().original()); })
      .def_property_readonly("changed", [](const MappedView& self) { return self.get().changed(); })
      .def(
          "get",
          [](const MappedView& self, const std::string& field) {
            return wrap_node(self.get().get(field));
          },
          py::arg("field"), "The mapped value of a node field.")
      .def(
          "get",
          [](const MappedView& self, const std::string& field, std::size_t index) {
            return wrap_node(self.get().get(field, index));
          },
          py::arg("field"), py::arg("index"),
          "The mapped value of element `index` of a node-array field.")
      .def(
          "size",
          [](const MappedView& self, const std::string& field) { return self.get().size(field); },
          py::arg("field"))
      .def(
          "node", [](const MappedView& self) { return wrap_node(self.get().node()); },
          "The node with its mapped children (built once, only if one changed).");
  m.def("walk", &walk, py::arg("node"), py::arg("callbacks"), py::arg("order") = "post",
        py::arg("not_into") = py::tuple());
  m.def("map", &map, py::arg("node"), py::arg("callbacks"), py::arg("order") = "post",
        py::arg("not_into") = py::tuple());
}

} // namespace ctir::python
