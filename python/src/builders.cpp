// Building IR from Python: ctir.tensor (variables, loads and stores, loops, functions),
// and scalar arithmetic on expression nodes.
#include "common.hpp"

#include <ctir/ir/builder.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/var.hpp>

#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ctir::python {
namespace {

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
}

} // namespace ctir::python
