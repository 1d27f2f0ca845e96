// Definitions of <ctir/ir/analysis/detail/well_formed_checker.hpp>: the walk and its
// scopes, and verify_well_formed, which runs it.
#pragma once

#include <ctir/ir/analysis/detail/well_formed_checker.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ctir::detail::well_formed {

CTIR_INLINE std::string strip_ctir_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.starts_with(prefix)) {
    message.remove_prefix(prefix.size());
  }
  return std::string(message);
}

CTIR_INLINE std::vector<WellFormedDiagnostic> Checker::run() {
  for (std::size_t i = 0; i < mod_.size(); ++i) {
    check_function(i);
  }
  return std::move(diagnostics_);
}

CTIR_INLINE void Checker::check_function(std::size_t i) {
  function_ = i;
  ever_defined_.clear();
  shape_defined_.clear();
  live_.clear();
  log_.clear();
  marks_.clear();
  memo_.clear();
  shared_definitions_.clear();
  undefined_.clear();
  epoch_ = ++epoch_counter_;
  path_.clear();
  const BaseFunc& function = mod_.function_at(i);
  if (!function.defined()) {
    return;
  }
  stack_.push_back({Op::visit, Region::use, function.get(), 0, {"functions", i}});
  while (!stack_.empty()) {
    const Item item = stack_.back();
    stack_.pop_back();
    switch (item.op) {
    case Op::visit:
      visit(item);
      break;
    case Op::check:
      enter_path(item);
      check(*item.node);
      break;
    case Op::define:
      define(item.node);
      break;
    case Op::begin_scope:
      marks_.push_back({log_.size(), epoch_});
      epoch_ = ++epoch_counter_;
      break;
    case Op::begin_block:
      // Opening a block changes no variable in scope: shared nodes met just before it and
      // in it are checked once.
      marks_.push_back({log_.size(), epoch_});
      break;
    case Op::end_scope:
      end_scope();
      break;
    }
  }
  undefined_.for_each([&](const void*, const Undefined& record) {
    if (record.uses > 1 && record.diagnostic != Step::npos) {
      diagnostics_[record.diagnostic].message += " (" + std::to_string(record.uses) +
                                                 " uses without a definition; this is the "
                                                 "first)";
    }
  });
}

CTIR_INLINE void Checker::enter_path(const Item& item) {
  path_.resize(item.depth);
  path_.push_back(item.step);
}

// ---- scopes -----------------------------------------------------------------------------

CTIR_INLINE bool Checker::in_scope(const Object* var) const {
  const std::size_t* count = live_.find(var);
  return count != nullptr && *count > 0;
}

CTIR_INLINE void Checker::define(const Object* var) {
  ++*live_.try_emplace(var).first;
  log_.push_back(var);
  epoch_ = ++epoch_counter_;
}

CTIR_INLINE void Checker::end_scope() {
  const auto [size, epoch] = marks_.back();
  marks_.pop_back();
  while (log_.size() > size) {
    --live_.at(log_.back());
    log_.pop_back();
  }
  epoch_ = epoch;
}

// ---- the walk ---------------------------------------------------------------------------

CTIR_INLINE void Checker::visit(const Item& item) {
  enter_path(item);
  const Object& node = *item.node;
  const TypeInfo& info = node.type_info();
  if (info.is_variable) {
    visit_variable(item, node, info);
    return;
  }
  const bool has_defs = has_def_fields(info);
  if (has_defs && structural::visited_once(node)) {
    // A graph-level node that defines variables (a closure, a let) reached through several
    // uses is one definition, checked at its first use; so is one reached again inside a
    // shared node that is checked again in another scope (an if holding a let).
    if (!shared_definitions_.try_emplace(&node).second) {
      return;
    }
  }
  if (!has_defs && node.use_count() > 1 &&
      (info.derives_from(ExprNode::type_index, ExprNode::type_depth) ||
       info.derives_from(TypeNode::type_index, TypeNode::type_depth))) {
    if (!memo_.try_emplace({&node, epoch_}).second) {
      return; // this shared node was checked with the same variables in scope
    }
  }
  const std::uint32_t type = node.dynamic_type_index();
  if (type == CallNode::type_index || type == CallDpsNode::type_index ||
      type == TensorStoreNode::type_index || type == TensorLoadNode::type_index ||
      type == NotNode::type_index || type == AndNode::type_index || type == OrNode::type_index ||
      type == SelectNode::type_index || type == IfThenElseNode::type_index ||
      type == NegNode::type_index) {
    // Pushed first, so it runs after the children (their call types are known then).
    stack_.push_back({Op::check, item.region, &node, item.depth, item.step});
  }
  const Region inherited =
      item.region == Region::pattern_top || item.region == Region::pattern_nested ? item.region
                                                                                  : Region::use;
  plan_.clear();
  add_fields(node, info, inherited, has_defs);
  for (std::size_t k = plan_.size(); k-- > 0;) {
    stack_.push_back(plan_[k]);
  }
}

CTIR_INLINE bool Checker::has_def_fields(const TypeInfo& info) noexcept {
  for (const FieldInfo& field : info.fields) {
    if (field.def_kind != DefRegionKind::none && !field.ignored() &&
        field.kind != FieldKind::value) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE std::size_t Checker::scope_start(const Object& node, const TypeInfo& info,
                                             std::size_t index) {
  const FieldInfo& field = info.fields[index];
  switch (field.scope) {
  case DefScope::rest_of_node:
    return index + 1;
  case DefScope::block_end:
    return info.fields.size();
  case DefScope::field:
    break;
  }
  if (field.recursive_field != FieldInfo::no_field) {
    const FieldInfo& value = info.fields[field.recursive_field];
    const Object* held = value.kind == FieldKind::node ? value.get(node, value) : nullptr;
    if (held != nullptr &&
        held->type_info().derives_from(field.recursive_type_index, field.recursive_type_depth)) {
      return field.recursive_field;
    }
  }
  return field.scope_begin;
}

CTIR_INLINE void Checker::add_fields(const Object& node, const TypeInfo& info, Region inherited,
                                     bool has_defs) {
  // A node with definitions is a scope unless all of them outlive it (they last to the end
  // of the enclosing block).
  bool scoped = false;
  for (std::size_t i = 0; has_defs && i < info.fields.size(); ++i) {
    const FieldInfo& field = info.fields[i];
    if (field.def_kind != DefRegionKind::none && !field.ignored() &&
        field.kind != FieldKind::value && field.scope != DefScope::block_end) {
      scoped = true;
    }
  }
  if (scoped) {
    plan_.push_back({Op::begin_scope, Region::use, nullptr, 0, {}});
  }
  // Variables of def_simple fields, each with the index of the field it comes into scope
  // before (fields.size(): after the last one).
  std::vector<std::pair<std::size_t, const Object*>>& pending = pending_defines_;
  pending.clear();
  const auto flush = [&](std::size_t before) {
    for (auto& [at, var] : pending) {
      if (var != nullptr && at <= before) {
        plan_.push_back({Op::define, Region::use, var, 0, {}});
        var = nullptr;
      }
    }
  };
  const std::size_t depth = path_.size();
  const std::size_t count = info.fields.size();
  for (std::size_t i = 0; i < count; ++i) {
    const FieldInfo& field = info.fields[i];
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    if (!pending.empty()) {
      flush(i);
    }
    Region region = inherited;
    std::size_t scope_at = count;
    if (field.def_kind == DefRegionKind::def_simple) {
      region = Region::simple_def;
      scope_at = scope_start(node, info, i);
    } else if (field.def_kind == DefRegionKind::def_pattern) {
      region = Region::pattern_top;
    }
    const auto add = [&](const Object* child, std::size_t index) {
      if (child == nullptr) {
        return;
      }
      plan_.push_back({Op::visit, region, child, depth, {field.name, index}});
      if (region == Region::simple_def && child->type_info().is_variable) {
        pending.emplace_back(scope_at, child);
      }
    };
    if (field.is_block()) {
      plan_.push_back({Op::begin_block, Region::use, nullptr, 0, {}});
    }
    if (field.kind == FieldKind::node) {
      add(field.get(node, field), Step::npos);
    } else {
      const std::size_t size = field.size(node, field);
      for (std::size_t k = 0; k < size; ++k) {
        add(field.at(node, field, k), k);
      }
    }
    if (field.is_block()) {
      plan_.push_back({Op::end_scope, Region::use, nullptr, 0, {}});
    }
  }
  flush(count);
  if (scoped) {
    plan_.push_back({Op::end_scope, Region::use, nullptr, 0, {}});
  }
}

CTIR_INLINE void Checker::visit_variable(const Item& item, const Object& var,
                                         const TypeInfo& info) {
  Region children = Region::use;
  switch (item.region) {
  case Region::use:
    if (!in_scope(&var)) {
      report_undefined(var);
    }
    return; // a use is a leaf: the variable's type belongs to its definition
  case Region::simple_def:
    if (!ever_defined_.try_emplace(&var).second) {
      report_duplicate(var);
    }
    break; // brought into scope by a define item where its scope starts
  case Region::pattern_top:
    // A parameter that is a shape variable of an earlier parameter's type (`%n` in
    // `(%A: Tensor[(%n)], %n: int32)`) is a mention of it, once.
    if (bool* shape = shape_defined_.find(&var); shape != nullptr && *shape && in_scope(&var)) {
      *shape = false;
      // checked, not defined again
    } else if (!ever_defined_.try_emplace(&var).second) {
      report_duplicate(var);
    }
    if (!in_scope(&var)) {
      define(&var);
    }
    children = Region::pattern_nested;
    break;
  case Region::pattern_nested:
    if (!in_scope(&var)) {
      if (!ever_defined_.try_emplace(&var).second) {
        report_duplicate(var);
      }
      define(&var);
      *shape_defined_.try_emplace(&var).first = true;
    }
    children = Region::pattern_nested;
    break;
  }
  plan_.clear();
  add_fields(var, info, children, has_def_fields(info));
  for (std::size_t k = plan_.size(); k-- > 0;) {
    stack_.push_back(plan_[k]);
  }
}

} // namespace ctir::detail::well_formed

namespace ctir {

CTIR_INLINE std::vector<WellFormedDiagnostic> verify_well_formed(const IRModule& mod,
                                                                 WellFormedOptions options) {
  detail::well_formed::Checker checker(mod, options);
  return checker.run();
}

} // namespace ctir
