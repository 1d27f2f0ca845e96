// ctir.eval: the reference interpreter on numpy arrays.
#include "common.hpp"

#include <ctir/eval/interpreter.hpp>
#include <ctir/eval/value.hpp>
#include <ctir/ir/dtype.hpp>
#include <ctir/ir/tensor_data.hpp>

#include <pybind11/numpy.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace ctir::python {
namespace {

DataType dtype_of(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const auto bits = static_cast<std::uint8_t>(dtype.itemsize() * 8);
  std::optional<DataType> result;
  if (kind == 'b') {
    result = DataType::boolean();
  } else if (kind == 'f' || kind == 'i' || kind == 'u') {
    const std::string name = std::string(kind == 'f'   ? "float"
                                         : kind == 'i' ? "int"
                                                       : "uint") +
                             std::to_string(bits);
    result = DataType::from_string(name);
  }
  if (!result) {
    throw py::type_error("ctir.eval: numpy dtype " + py::repr(dtype).cast<std::string>() +
                         " has no ctir counterpart (bool, int8-64, uint8, float16-64)");
  }
  return *result;
}

eval::Value to_value(py::handle value) {
  if (py::isinstance<py::tuple>(value)) {
    std::vector<eval::Value> fields;
    for (py::handle field : value) {
      fields.push_back(to_value(field));
    }
    return eval::Value::tuple(std::move(fields));
  }
  const auto array = py::array::ensure(value, py::array::c_style);
  if (!array) {
    throw py::type_error("ctir.eval: an argument is a numpy array (or a tuple of them)");
  }
  const DataType dtype = dtype_of(array.dtype());
  std::vector<std::int64_t> shape(array.shape(), array.shape() + array.ndim());
  TensorData data(dtype, shape);
  const auto count = static_cast<std::size_t>(array.size());
  const py::array flat = array.attr("reshape")(-1);
  if (dtype.is_float()) {
    const auto values = flat.attr("astype")("float64").cast<py::array_t<double>>();
    for (std::size_t i = 0; i < count; ++i) {
      data.set(i, values.at(static_cast<py::ssize_t>(i)));
    }
  } else {
    const auto values = flat.attr("astype")("int64").cast<py::array_t<std::int64_t>>();
    for (std::size_t i = 0; i < count; ++i) {
      data.set_int(i, values.at(static_cast<py::ssize_t>(i)));
    }
  }
  return eval::Value(std::move(data));
}

py::object to_python(const eval::Value& value) {
  switch (value.kind()) {
  case eval::Value::Kind::tensor:
    return tensor_to_numpy(value.as_tensor());
  case eval::Value::Kind::tuple: {
    py::list fields;
    for (const eval::Value& field : value.fields()) {
      fields.append(to_python(field));
    }
    return py::tuple(fields);
  }
  case eval::Value::Kind::scalar: {
    const eval::Scalar& scalar = value.as_scalar();
    if (scalar.is_float()) {
      return py::float_(scalar.f);
    }
    return py::int_(scalar.i);
  }
  default:
    throw py::type_error("ctir.eval: a closure has no Python counterpart");
  }
}

} // namespace

py::object tensor_to_numpy(const TensorData& data) {
  const std::string name = data.dtype().is_bool() ? std::string("bool") : data.dtype().str();
  py::array result(py::dtype(name), data.shape());
  std::memcpy(result.mutable_data(), data.bytes().data(), data.bytes().size());
  return result;
}

void bind_eval(py::module_& m) {
  py::module_ eval = m.def_submodule("eval", "The reference interpreter.");
  eval.def(
      "run",
      [](const IRModule& mod, const std::string& name, const py::args& args) -> py::object {
        std::vector<eval::Value> inputs;
        for (py::handle arg : args) {
          inputs.push_back(to_value(arg));
        }
        std::vector<eval::Value> outputs;
        {
          py::gil_scoped_release release;
          eval::Interpreter interpreter(mod);
          outputs = interpreter.call(name, std::move(inputs));
        }
        if (outputs.size() == 1) {
          return to_python(outputs.front());
        }
        py::list results;
        for (const eval::Value& output : outputs) {
          results.append(to_python(output));
        }
        return py::tuple(results);
      },
      py::arg("mod"), py::arg("name"),
      "Runs function `name` of `mod` on numpy arrays; returns a numpy array (a tuple for "
      "several results).");
}

} // namespace ctir::python
