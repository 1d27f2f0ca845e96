// The _ctir extension module: ctir's runtime layer for Python (see python/ctir for the API).
#include "common.hpp"

PYBIND11_MODULE(_ctir, m) {
  m.doc() = "ctir's runtime layer; use it through the ctir package.";
  ctir::python::bind_errors(m);
  ctir::python::bind_ir(m);
  ctir::python::bind_builders(m);
  ctir::python::bind_node_types(m);
  ctir::python::bind_structural(m);
  ctir::python::bind_passes(m);
  ctir::python::bind_instruments(m);
  ctir::python::bind_eval(m);
}
