// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// Literals: numbers, attribute values and tensor constants.
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/text/detail/parse_literal.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ctir::detail {

CTIR_INLINE Expr ParseEngine::number_literal(bool negative) {
  const std::size_t start = negative ? last_ : pos_;
  const Token& token = tok();
  if (token.kind == Tok::word) {
    double value = 0;
    DataType dtype;
    float_word(text_of(token), value, dtype);
    advance();
    return float_imm(negative ? -value : value, dtype, start);
  }
  const std::size_t number_token = expect(Tok::number);
  NumberValue value;
  if (auto error =
          decode_number(text_of(tokens_[number_token]), negative, DataType::int32(), value)) {
    fail_at(start, *error);
  }
  if (value.dtype.is_float()) {
    return float_imm(value.float_value, value.dtype, start);
  }
  return int_imm(value.int_value, value.dtype, start);
}

CTIR_INLINE Expr ParseEngine::int_imm(std::int64_t value, DataType dtype, std::size_t start) {
  Owned<IntImmNode> node = make_object<IntImmNode>();
  node->value = value;
  node->dtype = dtype;
  return finish(std::move(node), start);
}

CTIR_INLINE Expr ParseEngine::float_imm(double value, DataType dtype, std::size_t start) {
  Owned<FloatImmNode> node = make_object<FloatImmNode>();
  node->value = value;
  node->dtype = dtype;
  return finish(std::move(node), start);
}

CTIR_INLINE AttrValue ParseEngine::attr_value() {
  const Token& first = tok();
  const std::size_t start = pos_;
  if (first.kind == Tok::word && (text_of(first) == "true" || text_of(first) == "false")) {
    advance();
    return text_of(first) == "true";
  }
  if (first.kind == Tok::string) {
    advance();
    std::string value;
    if (auto error = decode_string(text_of(first), value)) {
      Token at = first;
      at.offset += static_cast<std::uint32_t>(error->second);
      fail(at, error->first);
    }
    return value;
  }
  if (first.kind == Tok::lbracket) {
    advance();
    std::vector<std::int64_t> values;
    if (tok().kind != Tok::rbracket) {
      while (true) {
        const std::size_t at = pos_;
        const AttrValue item = attr_value();
        if (!std::holds_alternative<std::int64_t>(item)) {
          fail_at(at, "a list attribute holds integers only");
        }
        values.push_back(std::get<std::int64_t>(item));
        if (tok().kind != Tok::comma) {
          break;
        }
        advance();
      }
    }
    expect(Tok::rbracket);
    return values;
  }
  const bool negative = first.kind == Tok::minus && negative_literal_ahead();
  if (negative) {
    advance();
  }
  const Token& number = tok();
  double word_value = 0;
  DataType word_dtype;
  if (number.kind == Tok::word && float_word(text_of(number), word_value, word_dtype)) {
    advance();
    if (word_dtype != DataType::float64()) {
      fail_at(start, "a float attribute is a float64: write '" +
                         std::string(text_of(number).substr(0, 3)) + "f64'");
    }
    return negative ? -word_value : word_value;
  }
  if (number.kind == Tok::number) {
    advance();
    NumberValue value;
    if (auto error = decode_number(text_of(number), negative, DataType::int64(), value)) {
      fail_at(start, *error);
    }
    if (value.dtype == DataType::int64()) {
      return value.int_value;
    }
    if (value.dtype == DataType::float64()) {
      return value.float_value;
    }
    fail_at(start, "an attribute is an integer without a suffix or a float64 (with the "
                   "suffix f64), not a " +
                       value.dtype.str());
  }
  fail(first, "expected an attribute value (true, false, a number, a string or a list of "
              "integers) but found " +
                  describe(first));
}

CTIR_INLINE Expr ParseEngine::constant() {
  const std::size_t start = advance();
  expect(Tok::lparen);
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> ints;
  std::vector<double> floats;
  std::optional<DataType> dtype;
  bool empty = false;
  auto element = [&]() {
    const std::size_t at = pos_;
    const Token& first = tok();
    const bool negative = negative_literal_ahead();
    if (negative) {
      advance();
    }
    DataType element_dtype;
    std::int64_t int_value = 0;
    double float_value = 0;
    double word_value = 0;
    if (!negative && first.kind == Tok::word &&
        (text_of(first) == "true" || text_of(first) == "false")) {
      advance();
      element_dtype = DataType::boolean();
      int_value = text_of(first) == "true" ? 1 : 0;
    } else if (tok().kind == Tok::word && float_word(text_of(tok()), word_value, element_dtype)) {
      advance();
      float_value = negative ? -word_value : word_value;
    } else if (tok().kind == Tok::number) {
      advance();
      NumberValue value;
      if (auto error = decode_number(text_of(tokens_[last_]), negative, DataType::int32(), value)) {
        fail_at(at, *error);
      }
      element_dtype = value.dtype;
      int_value = value.int_value;
      float_value = value.float_value;
    } else {
      fail(tok(), "expected a literal but found " + describe(tok()));
    }
    if (dtype && *dtype != element_dtype) {
      fail_at(at, "the elements of a constant have one dtype, but this one is " +
                      element_dtype.str() + " and the first is " + dtype->str());
    }
    dtype = element_dtype;
    if (element_dtype.is_float()) {
      floats.push_back(float_value);
    } else {
      ints.push_back(int_value);
    }
  };
  if (tok().kind != Tok::lbracket) {
    element(); // rank 0
  } else {
    // The rank is the number of leading brackets; then an iterative walk checks that
    // every row at a level has the same length.
    std::size_t rank = 0;
    while (tok(rank).kind == Tok::lbracket) {
      if (++rank > max_nesting_depth) {
        fail(tok(rank - 1), "nesting too deep (more than " + std::to_string(max_nesting_depth) +
                                " levels); a tensor literal has at most " +
                                std::to_string(max_nesting_depth) + " dimensions");
      }
    }
    if (rank == 1 && tok(1).kind == Tok::rbracket) {
      advance();
      advance();
      empty = true;
    } else {
      shape.assign(rank, -1);
      std::vector<std::int64_t> counts(rank, 0);
      for (std::size_t k = 0; k < rank; ++k) {
        advance();
      }
      std::size_t depth = rank; // levels open
      while (true) {
        element();
        ++counts[rank - 1];
        while (tok().kind == Tok::rbracket) {
          const std::size_t level = depth - 1;
          if (shape[level] < 0) {
            shape[level] = counts[level];
          } else if (shape[level] != counts[level]) {
            fail(tok(), "the rows of a constant must have equal lengths, but this row has " +
                            std::to_string(counts[level]) +
                            (counts[level] == 1 ? " element" : " elements") +
                            " and the first has " + std::to_string(shape[level]));
          }
          counts[level] = 0;
          advance();
          depth = level;
          if (depth == 0) {
            break;
          }
          ++counts[depth - 1];
        }
        if (depth == 0) {
          break;
        }
        expect(Tok::comma);
        while (depth < rank) {
          if (tok().kind != Tok::lbracket) {
            fail(tok(), "the rows of a constant must nest equally deep: expected '[' but "
                        "found " +
                            describe(tok()));
          }
          advance();
          ++depth;
        }
      }
    }
  }
  Type declared;
  std::size_t type_token = no_token;
  if (tok().kind == Tok::comma) {
    advance();
    type_token = pos_;
    declared = type();
  }
  expect(Tok::rparen);
  if (empty && !declared.defined()) {
    fail_at(start, "a constant without elements needs its type: const([], Tensor[(0), "
                   "float32])");
  }
  if (declared.defined()) {
    const auto* tensor = declared.as<TensorTypeNode>();
    if (tensor == nullptr) {
      fail_at(type_token, "the type of a constant is a tensor type");
    }
    std::vector<std::int64_t> declared_shape;
    for (const PrimExpr& dim : tensor->shape) {
      const auto* imm = dim.as<IntImmNode>();
      if (imm == nullptr || imm->value < 0) {
        fail_at(type_token, "the type of a constant has non-negative integer dimensions");
      }
      declared_shape.push_back(imm->value);
    }
    if (empty) {
      const bool no_elements =
          std::find(declared_shape.begin(), declared_shape.end(), 0) != declared_shape.end();
      if (!no_elements) {
        fail_at(type_token,
                "the constant has no elements, but its type " + type_str(declared) + " has some");
      }
      shape = declared_shape;
      dtype = tensor->dtype;
    } else if (declared_shape != shape || tensor->dtype != *dtype) {
      fail_at(type_token,
              "the type " + type_str(declared) + " does not match the constant's elements (" +
                  std::to_string(ints.size() + floats.size()) + " of " + dtype->str() + ")");
    }
  }
  TensorData data(*dtype, shape);
  for (std::size_t i = 0; i < ints.size(); ++i) {
    data.set_int(i, ints[i]);
  }
  for (std::size_t i = 0; i < floats.size(); ++i) {
    data.set(i, floats[i]);
  }
  Owned<ConstantNode> node = make_object<ConstantNode>();
  node->data = std::move(data);
  return finish(std::move(node), start);
}

} // namespace ctir::detail
