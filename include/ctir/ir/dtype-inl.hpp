// Definitions of <ctir/ir/dtype.hpp>.
#pragma once

#include <ctir/ir/dtype.hpp>

#include <initializer_list>

namespace ctir {

CTIR_INLINE std::string DataType::str() const {
  switch (code) {
  case Code::bool_:
    return "bool";
  case Code::int_:
    return "int" + std::to_string(bits);
  case Code::uint:
    return "uint" + std::to_string(bits);
  case Code::float_:
    return "float" + std::to_string(bits);
  }
  return "?";
}

CTIR_INLINE std::optional<DataType> DataType::from_string(std::string_view name) {
  for (DataType t :
       {int8(), int16(), int32(), int64(), uint8(), float16(), float32(), float64(), boolean()}) {
    if (t.str() == name) {
      return t;
    }
  }
  return std::nullopt;
}

} // namespace ctir
