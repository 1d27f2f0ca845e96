// Definitions of <ctir/passes/detail/tensor_utils.hpp>.
#pragma once

#include <ctir/passes/detail/tensor_utils.hpp>

#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::passes::detail {

CTIR_INLINE std::optional<eval::Scalar> literal_value(const PrimExpr& e) {
  if (const auto* imm = e.as<IntImmNode>()) {
    return eval::Scalar::make_int(imm->dtype, imm->value);
  }
  if (const auto* imm = e.as<FloatImmNode>()) {
    return eval::Scalar::make_float(imm->dtype, imm->value);
  }
  return std::nullopt;
}

CTIR_INLINE PrimExpr literal_of(const eval::Scalar& value) {
  if (value.is_float()) {
    return FloatImm::make(value.f, value.dtype);
  }
  return IntImm::make(value.i, value.dtype);
}

CTIR_INLINE std::optional<std::int64_t> int_literal(const PrimExpr& e) {
  if (const auto* imm = e.as<IntImmNode>()) {
    if (!imm->dtype.is_bool()) {
      return eval::Scalar::make_int(imm->dtype, imm->value).i;
    }
  }
  return std::nullopt;
}

CTIR_INLINE SeqStmt flatten_block(const SeqStmt& block) {
  bool nested = false;
  for (const Stmt& s : block->seq) {
    nested = nested || s.is<SeqStmtNode>();
  }
  if (!nested) {
    return block;
  }
  std::vector<Stmt> items;
  // An explicit stack of (block, next index): blocks may nest deeply.
  std::vector<std::pair<const SeqStmtNode*, std::size_t>> stack{{block.get(), 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == node->seq.size()) {
      stack.pop_back();
      continue;
    }
    const Stmt& s = node->seq[next++];
    if (const auto* inner = s.as<SeqStmtNode>()) {
      stack.emplace_back(inner, 0);
    } else {
      items.push_back(s);
    }
  }
  return SeqStmt::make(std::move(items));
}

CTIR_INLINE bool is_empty_block(const Stmt& s) {
  const auto* block = s.as<SeqStmtNode>();
  return block != nullptr && block->seq.empty();
}

CTIR_INLINE SeqStmt substitute(const SeqStmt& body, const Var& var, const PrimExpr& value) {
  return map(body, [&](const Var& v) -> PrimExpr { return v.same_as(var) ? value : PrimExpr(v); });
}

CTIR_INLINE SeqStmt fresh_definitions(const SeqStmt& body) {
  std::unordered_map<const VarNode*, Var> renamed;
  const auto fresh = [&](const Var& v) {
    if (v.defined() && !renamed.contains(v.get())) {
      renamed.emplace(v.get(), Var::make(v->name, v->ty));
    }
  };
  walk(
      body, [&](const For& loop) { fresh(loop->var); }, [&](const Bind& bind) { fresh(bind->var); },
      [&](const Allocate& alloc) { fresh(alloc->buffer); });
  if (renamed.empty()) {
    return body;
  }
  return map(body, [&](const Var& v) -> Var {
    auto it = renamed.find(v.get());
    return it == renamed.end() ? v : it->second;
  });
}

} // namespace ctir::passes::detail
