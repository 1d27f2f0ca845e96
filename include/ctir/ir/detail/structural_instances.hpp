// Structural equality and hashing of the IR's own handles (modules, functions, expressions,
// statements), compiled once in the library in compiled mode, as a standard library compiles
// std::string's members once: a call site of structural_equal or structural_hash on them
// then compiles a call, not the comparison. Other roots (a node type of your own) are
// compiled where they are used, as before.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/ir/families.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstdint>

/// Declares (`extern`) or defines (empty) the instances of equality and hashing for the
/// handle type `Handle`.
#define CTIR_DETAIL_STRUCTURAL_INSTANCES(prefix, Handle)                                           \
  prefix template bool ctir::detail::structural::equal_objects<                                    \
      ctir::detail::structural::equal_universe_t<Handle, Handle>>(                                 \
      const ctir::Object*, const ctir::Object*, const ctir::StructuralEqualOptions&);              \
  prefix template std::uint64_t ctir::detail::structural::hash_object<                             \
      ctir::detail::structural::static_universe_t<ctir::detail::structural::root_node_t<Handle>>>( \
      const ctir::Object*, const ctir::StructuralHashOptions&)

/// Applies `apply(prefix, Handle)` to every IR handle type whose instances the library holds.
#define CTIR_DETAIL_FOR_EACH_STRUCTURAL_INSTANCE(apply, prefix)                                    \
  apply(prefix, ctir::IRModule);                                                                   \
  apply(prefix, ctir::PrimFunc);                                                                   \
  apply(prefix, ctir::Function);                                                                   \
  apply(prefix, ctir::Expr);                                                                       \
  apply(prefix, ctir::PrimExpr);                                                                   \
  apply(prefix, ctir::Stmt)

#ifndef CTIR_HEADER_ONLY
CTIR_DETAIL_FOR_EACH_STRUCTURAL_INSTANCE(CTIR_DETAIL_STRUCTURAL_INSTANCES, extern);
#endif
