// What the translation units of the _ctir extension module share: conversions between ctir
// objects and Python objects, and the functions that bind each part of the API.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/ir/module.hpp>

#include <pybind11/pybind11.h>

#include <exception>
#include <string>

namespace ctir {
class TensorData;
}

namespace ctir::python {

namespace py = pybind11;

/// A node as Python sees it: None for a null reference, else a Node sharing the object.
py::object wrap_node(const ObjectRef& node);

/// The node behind a Node, an IRModule (its module node) or None (a null reference);
/// throws TypeError for anything else.
ObjectRef unwrap_node(py::handle value);

/// The exception `error` as a Python exception object: the original Python exception for
/// an error that came from Python code, else an instance of the matching ctir.Error class.
py::object exception_object(const std::exception_ptr& error);

/// Rethrows the exception in flight, replaced by the Python exception it carries, if a
/// Python pass or instrument raised it. Call from a catch block.
[[noreturn]] void rethrow_python_original();

/// Runs `f`, which calls Python code, for C++ code that may handle its exceptions without
/// the GIL: a pybind11 TypeError/ValueError becomes the Python exception it stands for, and
/// a Python exception's message is formatted now, while the GIL is held.
template <class F>
decltype(auto) call_python(F&& f) {
  try {
    return f();
  } catch (py::error_already_set& error) {
    static_cast<void>(error.what());
    throw;
  } catch (py::builtin_exception& error) {
    error.set_error();
    py::error_already_set python;
    static_cast<void>(python.what());
    throw python;
  }
}

/// What a Python value is, for messages: a node's type key, else its Python type's name.
inline std::string type_name(py::handle value) {
  if (py::isinstance<ObjectRef>(value)) {
    return std::string(value.cast<const ObjectRef&>()->dynamic_type_key());
  }
  return py::str(py::type::handle_of(value).attr("__name__"));
}

/// A copy of `data` as a numpy array of its dtype and shape.
py::object tensor_to_numpy(const TensorData& data);

void bind_errors(py::module_& m);
void bind_ir(py::module_& m);
void bind_builders(py::module_& m);
void bind_node_types(py::module_& m);
void bind_structural(py::module_& m);
void bind_passes(py::module_& m);
void bind_instruments(py::module_& m);
void bind_eval(py::module_& m);

} // namespace ctir::python
