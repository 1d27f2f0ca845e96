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
  // A tuple or function type whose parameter or result types are being read.
  struct Open {
    bool is_function;
    std::vector<Type> fields;
    bool in_result = false; ///< reading a function type's result (after `->`)
  };
  std::vector<Open> open;
  while (true) {
    // The start of a type: a complete one, or one that opens.
    Type done;
    const std::string_view word = tok().kind == Tok::word ? text_of(tok()) : std::string_view();
    if (!word.empty() && DataType::from_string(word)) {
      done = PrimType::make(dtype());
    } else if (word == "Tensor") {
      done = tensor_type();
    } else if (word == "Tuple" || word == "fn") {
      const bool is_function = word == "fn";
      advance();
      expect(is_function ? Tok::lparen : Tok::lbracket);
      const Tok close = is_function ? Tok::rparen : Tok::rbracket;
      if (tok().kind != close) {
        open.push_back({is_function, {}});
        continue;
      }
      advance();
      if (!is_function) {
        done = TupleType::make({});
      } else if (tok().kind == Tok::arrow) {
        advance();
        open.push_back({true, {}, true});
        continue;
      } else {
        done = FuncType::make({}, Type());
      }
    } else {
      fail_expected("a type");
    }
    // Close the open types that `done` completes.
    while (true) {
      if (open.empty()) {
        return done;
      }
      Open& top = open.back();
      if (top.in_result) {
        done = FuncType::make(std::move(top.fields), std::move(done));
        open.pop_back();
        continue;
      }
      top.fields.push_back(std::move(done));
      if (tok().kind == Tok::comma) {
        advance();
        break; // the next field
      }
      if (!top.is_function) {
        expect(Tok::rbracket);
        done = TupleType::make(std::move(top.fields));
        open.pop_back();
        continue;
      }
      expect(Tok::rparen);
      if (tok().kind == Tok::arrow) {
        advance();
        top.in_result = true;
        break; // the result type
      }
      done = FuncType::make(std::move(top.fields), Type());
      open.pop_back();
    }
  }
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

} // namespace ctir::detail
