// Definitions of <ctir/passes/detail/graph_rewriter.hpp>.
#pragma once

#include <ctir/passes/detail/graph_rewriter.hpp>

#include <cstddef>
#include <utility>

namespace ctir::passes::detail {

CTIR_INLINE Expr with_operands(const Expr& e, std::vector<Expr>&& kids) {
  const std::vector<Expr> old = operands(e);
  bool changed = false;
  for (std::size_t i = 0; i < old.size(); ++i) {
    changed = changed || !old[i].same_as(kids[i]);
  }
  if (!changed) {
    return e;
  }
  if (const auto* call = e.as<CallNode>()) {
    auto copy = clone_object(*call);
    copy->op = kids[0];
    copy->args.assign(kids.begin() + 1, kids.end());
    return std::move(copy).publish();
  }
  if (const auto* tuple = e.as<TupleNode>()) {
    auto copy = clone_object(*tuple);
    copy->fields = std::move(kids);
    return std::move(copy).publish();
  }
  if (const auto* item = e.as<TupleGetItemNode>()) {
    auto copy = clone_object(*item);
    copy->tuple = kids[0];
    return std::move(copy).publish();
  }
  if (const auto* let = e.as<LetNode>()) {
    auto copy = clone_object(*let);
    copy->value = kids[0];
    copy->body = kids[1];
    return std::move(copy).publish();
  }
  if (const auto* branch = e.as<IfNode>()) {
    auto copy = clone_object(*branch);
    copy->cond = kids[0];
    copy->then_branch = kids[1];
    copy->else_branch = kids[2];
    return std::move(copy).publish();
  }
  if (const auto* fn = e.as<FunctionNode>()) {
    auto copy = clone_object(*fn);
    copy->body = kids[0];
    return std::move(copy).publish();
  }
  auto copy = clone_object(*downcast<CallDpsNode>(e));
  copy->args = std::move(kids);
  return std::move(copy).publish();
}

} // namespace ctir::passes::detail
