// Definitions of the parse engine (<ctir/text/detail/parse_engine-inl.hpp>).
// Types and dtypes.
#pragma once

#include <ctir/text/detail/parse_engine.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace ctir::detail {

CTIR_INLINE DataType ParseEngine::dtype() {
  const Token& token = tok();
  if (token.kind == Tok::word) {
    if (std::optional<DataType> parsed = DataType::from_string(text_of(token))) {
      advance();
      return *parsed;
    }
  }
  fail_expected("a dtype (bool, int8, int16, int32, int64, uint8, float16, float32 or float64)");
}

CTIR_INLINE Type ParseEngine::type() {
  DepthGuard guard(*this, pos_);
  if (tok().kind == Tok::word) {
    const std::string_view word = text_of(tok());
    if (DataType::from_string(word)) {
      return PrimType::make(dtype());
    }
    if (word == "Tensor") {
      return tensor_type();
    }
    if (word == "Tuple") {
      return tuple_type();
    }
    if (word == "fn") {
      return func_type();
    }
  }
  fail_expected("a type");
}

CTIR_INLINE Type ParseEngine::tensor_type() {
  advance();
  expect(Tok::lbracket);
  expect(Tok::lparen);
  std::vector<PrimExpr> shape;
  if (tok().kind != Tok::rparen) {
    while (true) {
      const std::size_t at = pos_;
      shape.push_back(as_prim(expr(Ctx::prim), at));
      check_dimension(shape.back(), at);
      if (tok().kind != Tok::comma) {
        break;
      }
      advance();
    }
  }
  expect(Tok::rparen);
  expect(Tok::comma);
  const DataType element = dtype();
  expect(Tok::rbracket);
  return TensorType::make(std::move(shape), element);
}

CTIR_INLINE std::vector<Type> ParseEngine::type_list(Tok close) {
  std::vector<Type> types;
  if (tok().kind == close) {
    return types;
  }
  while (true) {
    types.push_back(type());
    if (tok().kind != Tok::comma) {
      return types;
    }
    advance();
  }
}

CTIR_INLINE Type ParseEngine::tuple_type() {
  advance();
  expect(Tok::lbracket);
  std::vector<Type> fields = type_list(Tok::rbracket);
  expect(Tok::rbracket);
  return TupleType::make(std::move(fields));
}

CTIR_INLINE Type ParseEngine::func_type() {
  advance();
  expect(Tok::lparen);
  std::vector<Type> params = type_list(Tok::rparen);
  expect(Tok::rparen);
  Type ret;
  if (tok().kind == Tok::arrow) {
    advance();
    ret = type();
  }
  return FuncType::make(std::move(params), std::move(ret));
}

} // namespace ctir::detail
