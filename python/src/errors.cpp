// The ctir.Error hierarchy and the translation of C++ exceptions into Python exceptions.
#include "common.hpp"

#include <ctir/eval/error.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/text/diagnostic.hpp>
#include <ctir/traverse/assert_structural_equal.hpp>

#include <Python.h>

#include <string>

namespace ctir::python {
namespace {

/// The exception classes, created once when the module is imported and kept for the life
/// of the process (an extension module is never unloaded).
struct ErrorClasses {
  py::handle error;
  py::handle parse;
  py::handle pass;
  py::handle instrument;
  py::handle pipeline;
  py::handle config;
  py::handle node;
  py::handle eval;
  py::handle structural;
};

ErrorClasses classes;

py::handle new_class(py::module_& m, const char* name, py::handle bases, const char* doc) {
  const std::string qualified = std::string("ctir.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (cls == nullptr) {
    throw py::error_already_set();
  }
  m.attr(name) = py::handle(cls); // the module holds a reference; `classes` keeps its own
  return cls;
}

py::object instance(py::handle cls, const std::string& what) { return cls(py::str(what)); }

/// The Python exception object for a ctir error (rethrown by the caller's try block).
py::object translate_current() {
  try {
    throw;
  } catch (py::error_already_set& error) {
    return error.value();
  } catch (const ParseError& error) {
    py::object e = instance(classes.parse, error.what());
    e.attr("file") = error.file();
    e.attr("line") = error.line();
    e.attr("column") = error.column();
    e.attr("message") = error.message();
    e.attr("source_line") = error.source_line();
    return e;
  } catch (const PassError& error) {
    py::object e = instance(classes.pass, error.what());
    e.attr("pass_name") = error.pass_name();
    e.attr("message") = error.message();
    e.attr("location") = error.location();
    return e;
  } catch (const InstrumentError& error) {
    py::object e = instance(classes.instrument, error.what());
    e.attr("instrument") = error.instrument();
    e.attr("hook") = error.hook();
    e.attr("pass_name") = error.pass_name();
    e.attr("message") = error.message();
    return e;
  } catch (const PipelineError& error) {
    return instance(classes.pipeline, error.what());
  } catch (const ConfigError& error) {
    return instance(classes.config, error.what());
  } catch (const StructuralEqualError& error) {
    py::object e = instance(classes.structural, error.what());
    e.attr("lhs_path") = error.lhs_path().str();
    e.attr("rhs_path") = error.rhs_path().str();
    e.attr("lhs_node") = wrap_node(error.lhs_node());
    e.attr("rhs_node") = wrap_node(error.rhs_node());
    return e;
  } catch (const eval::EvalError& error) {
    py::object e = instance(classes.eval, error.what());
    e.attr("node") = wrap_node(error.node());
    e.attr("location") = error.span().defined() ? error.span().str() : std::string();
    return e;
  } catch (const NodeError& error) {
    py::object e = instance(classes.node, error.what());
    e.attr("node") = wrap_node(error.node());
    return e;
  } catch (const Error& error) {
    return instance(classes.error, error.what());
  }
}

/// The Python exception an error that crossed the pass infrastructure came from, if any.
std::exception_ptr python_original(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const PassError& e) {
    if (e.original()) {
      return python_original(e.original());
    }
  } catch (const InstrumentError& e) {
    if (e.original()) {
      return python_original(e.original());
    }
  } catch (const py::error_already_set&) {
    return error;
  } catch (...) {
  }
  return nullptr;
}

} // namespace

py::object exception_object(const std::exception_ptr& error) {
  const std::exception_ptr original = python_original(error);
  try {
    std::rethrow_exception(original ? original : error);
  } catch (...) {
    return translate_current();
  }
}

void rethrow_python_original() {
  const std::exception_ptr current = std::current_exception();
  if (const std::exception_ptr original = python_original(current)) {
    std::rethrow_exception(original);
  }
  throw;
}

void bind_errors(py::module_& m) {
  classes.error = new_class(m, "Error", PyExc_RuntimeError, "An error reported by ctir.");
  classes.parse = new_class(m, "ParseError", classes.error,
                            "A syntax or name error in IR text: file, line, column, message.");
  classes.pass = new_class(m, "PassError", classes.error,
                           "An error inside a pass: pass_name, message, location.");
  classes.instrument = new_class(m, "InstrumentError", classes.error,
                                 "An error inside an instrument hook: instrument, hook, "
                                 "pass_name, message.");
  classes.pipeline = new_class(m, "PipelineError", classes.error,
                               "A pipeline that cannot run: unknown pass, unmet requirement.");
  classes.config =
      new_class(m, "ConfigError", classes.error, "A bad pass configuration key or value.");
  classes.node = new_class(m, "NodeError", classes.error, "An error about a node: node.");
  classes.eval = new_class(m, "EvalError", classes.node,
                           "An error of the reference interpreter: node, location.");
  const py::tuple structural_bases =
      py::make_tuple(classes.error, py::handle(PyExc_AssertionError));
  classes.structural = new_class(m, "StructuralEqualError", structural_bases,
                                 "Two values differ: lhs_path, rhs_path, lhs_node, rhs_node.");

  py::register_exception_translator([](std::exception_ptr error) {
    if (!error) {
      return;
    }
    try {
      std::rethrow_exception(error);
    } catch (py::error_already_set&) {
      throw; // pybind11 restores it
    } catch (const Error&) {
      const std::exception_ptr original = python_original(error);
      if (original) {
        std::rethrow_exception(original);
      }
      const py::object e = exception_object(error);
      PyErr_SetObject(py::type::handle_of(e).ptr(), e.ptr());
    }
  });
}

} // namespace ctir::python
