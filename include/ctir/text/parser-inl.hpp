// Definitions of <ctir/text/parser.hpp>.
#pragma once

#include <ctir/text/parser.hpp>

#include <ctir/text/detail/parse_engine.hpp>
#include <ctir/text/detail/parse_engine_expr-inl.hpp>
#include <ctir/text/detail/parse_engine_graph-inl.hpp>
#include <ctir/text/detail/parse_engine_literal-inl.hpp>
#include <ctir/text/detail/parse_engine_module-inl.hpp>
#include <ctir/text/detail/parse_engine_stmt-inl.hpp>
#include <ctir/text/detail/parse_engine_type-inl.hpp>

#include <string_view>
#include <vector>

namespace ctir {

CTIR_INLINE IRModule parse_module(std::string_view text, std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::error);
  return engine.module();
}

CTIR_INLINE Expr parse_expr(std::string_view text, std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::declare);
  return engine.expr_text();
}

CTIR_INLINE Expr parse_expr(std::string_view text, const std::vector<Var>& free_vars,
                            std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::error);
  engine.predefine(free_vars);
  return engine.expr_text();
}

CTIR_INLINE PrimExpr parse_prim_expr(std::string_view text, std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::declare);
  return engine.prim_expr_text();
}

CTIR_INLINE PrimExpr parse_prim_expr(std::string_view text, const std::vector<Var>& free_vars,
                                     std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::error);
  engine.predefine(free_vars);
  return engine.prim_expr_text();
}

CTIR_INLINE Type parse_type(std::string_view text, std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::declare);
  return engine.type_text();
}

CTIR_INLINE Type parse_type(std::string_view text, const std::vector<Var>& free_vars,
                            std::string_view file_name) {
  detail::ParseEngine engine(text, file_name, detail::FreeVars::error);
  engine.predefine(free_vars);
  return engine.type_text();
}

} // namespace ctir
