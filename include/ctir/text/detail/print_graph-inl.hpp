// Definitions of <ctir/text/detail/print_graph.hpp>.
#pragma once

#include <ctir/text/detail/print_graph.hpp>

#include <ctir/core/error.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/ir/tensor/prim_func.hpp>

#include <string>
#include <utility>
#include <vector>

namespace ctir::detail {

CTIR_INLINE const VarNode* projected_var(const Object& node) {
  const Object* current = &node;
  while (current != nullptr && current->dynamic_type_index() == TupleGetItemNode::type_index) {
    current = static_cast<const TupleGetItemNode*>(current)->tuple.get();
  }
  return current != nullptr && current->dynamic_type_index() == VarNode::type_index
             ? static_cast<const VarNode*>(current)
             : nullptr;
}

CTIR_INLINE GraphKind graph_kind(const Object& node) {
  if (instance_of<PrimExprNode>(node)) {
    return GraphKind::atom; // variables, literals, and scalar arithmetic printed in place
  }
  switch (node.dynamic_type_index()) {
  case GlobalVarNode::type_index:
  case OpNode::type_index:
  case ConstantNode::type_index:
    return GraphKind::atom;
  case TupleGetItemNode::type_index:
    return projected_var(node) != nullptr ? GraphKind::atom : GraphKind::get_item;
  case CallNode::type_index:
    return GraphKind::call;
  case TupleNode::type_index:
    return GraphKind::tuple;
  case LetNode::type_index:
    return GraphKind::let;
  case IfNode::type_index:
    return GraphKind::if_;
  case FunctionNode::type_index:
    return GraphKind::function;
  case CallDpsNode::type_index:
    return GraphKind::call_dps;
  case PrimFuncNode::type_index:
    throw NodeError(ref_of(&node),
                    "ctir: cannot print a tensor-level function inside a graph-level expression: "
                    "add it to the module and call it with call_dps");
  default:
    throw NodeError(ref_of(&node), "ctir: the text format has no syntax for a " +
                                       std::string(node.dynamic_type_key()) +
                                       " inside a graph-level expression");
  }
}

CTIR_INLINE void throw_null_field(const Object& node, const std::string& field) {
  throw NodeError(ref_of(&node), "ctir: cannot print a " + std::string(node.dynamic_type_key()) +
                                     " whose " + field + " is null");
}

CTIR_INLINE std::vector<GraphField> graph_fields_of(const TypeInfo& type) {
  std::vector<GraphField> fields;
  const TypeRegistry& registry = TypeRegistry::global();
  for (std::uint32_t i = 0; i < type.fields.size(); ++i) {
    const FieldInfo& field = type.fields[i];
    if (field.ignored() || field.kind == FieldKind::value ||
        field.def_kind == DefRegionKind::def_pattern) {
      continue;
    }
    if (field.def_kind == DefRegionKind::def_simple) {
      fields.push_back({i, GraphField::Role::name});
      continue;
    }
    // An element type that is not registered has no objects: the field is null or empty,
    // and only an expression field must not be null, whose type (an ExprNode at least, an
    // ancestor of the printed node) is registered.
    const TypeInfo* element = registry.find(field.element_type_index);
    if (element == nullptr || !element->derives_from(ExprNode::type_index, ExprNode::type_depth)) {
      continue; // types, attributes: part of the node's syntax
    }
    fields.push_back({i, field.element_type_index == GlobalVarNode::type_index
                             ? GraphField::Role::name
                             : GraphField::Role::child});
  }
  return fields;
}

CTIR_INLINE std::uint32_t graph_block_count(const TypeInfo& type,
                                            const std::vector<GraphField>& fields) {
  std::uint32_t blocks = 0;
  for (const GraphField& entry : fields) {
    blocks += type.fields[entry.field].is_block() ? 1U : 0U;
  }
  return blocks;
}

CTIR_INLINE const GraphPlan::GraphType& GraphPlan::type_of(const TypeInfo& type) {
  for (const GraphType& known : types_) {
    if (known.type == &type) {
      return known;
    }
  }
  std::vector<GraphField> fields = graph_fields_of(type);
  const std::uint32_t blocks = graph_block_count(type, fields);
  types_.push_back({&type, std::move(fields), blocks});
  return types_.back();
}

CTIR_INLINE void GraphPlan::build(const Object& root, GraphKind (*kind_of)(const Object&)) {
  kind_of_ = kind_of;
  types_.clear();
  index_.clear();
  nodes_.clear();
  edges_.clear();
  blocks_.clear();
  blocks_.push_back(GraphBlock{});
  count_uses(root);
  place();
  order(root);
}

CTIR_INLINE std::uint32_t GraphPlan::add_node(const Object* node, GraphKind kind, UseKind use) {
  GraphNodeInfo info;
  info.node = node;
  info.kind = kind;
  info.first_use = use;
  nodes_.push_back(info);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

CTIR_INLINE void GraphPlan::count_uses(const Object& root) {
  const GraphKind root_kind = kind_of_(root);
  if (root_kind == GraphKind::atom) {
    return;
  }
  add_node(&root, root_kind, UseKind::root);
  nodes_[0].uses = 1;
  *index_.try_emplace(&root).first = 1;
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const std::uint32_t current = stack.back();
    stack.pop_back();
    nodes_[current].edge_begin = static_cast<std::uint32_t>(edges_.size());
    const Object& node = *nodes_[current].node;
    const std::vector<GraphField>& fields = type_of(node.type_info()).fields;
    for_each_graph_child(
        node, nodes_[current].kind, fields,
        [&](const Object* child, UseKind use, std::uint32_t block) {
          const GraphKind kind = kind_of_(*child);
          if (kind == GraphKind::atom) {
            edges_.push_back({child, atom_index, use, static_cast<std::uint16_t>(block)});
            return;
          }
          // The map holds index + 1, so that 0 (a new entry) means "not seen yet".
          auto [slot, inserted] = index_.try_emplace(child);
          if (inserted) {
            *slot = add_node(child, kind, use) + 1;
            stack.push_back(*slot - 1);
          }
          const std::uint32_t index = *slot - 1;
          ++nodes_[index].uses;
          edges_.push_back({child, index, use, static_cast<std::uint16_t>(block)});
        });
    nodes_[current].edge_end = static_cast<std::uint32_t>(edges_.size());
  }
  for (GraphNodeInfo& info : nodes_) {
    const bool single_block_use = info.uses == 1 && info.first_use != UseKind::operand;
    if (!single_block_use) {
      info.mode = GraphMode::temp;
    } else if (info.kind == GraphKind::let && info.first_use != UseKind::let_value) {
      info.mode = GraphMode::unrolled_let;
    } else {
      info.mode = GraphMode::inline_;
    }
    info.pending = info.uses;
  }
}

CTIR_INLINE std::int32_t GraphPlan::new_block(std::int32_t parent) {
  GraphBlock block;
  block.parent = parent;
  block.depth = blocks_[static_cast<std::size_t>(parent)].depth + 1;
  blocks_.push_back(std::move(block));
  return static_cast<std::int32_t>(blocks_.size() - 1);
}

CTIR_INLINE std::int32_t GraphPlan::common_block(std::int32_t a, std::int32_t b) const {
  while (a != b) {
    const GraphBlock& block_a = blocks_[static_cast<std::size_t>(a)];
    const GraphBlock& block_b = blocks_[static_cast<std::size_t>(b)];
    if (block_a.depth >= block_b.depth) {
      a = block_a.parent;
    } else {
      b = block_b.parent;
    }
  }
  return a;
}

CTIR_INLINE void GraphPlan::place() {
  if (nodes_.empty()) {
    return;
  }
  nodes_[0].home = 0;
  std::vector<std::uint32_t> ready{0};
  while (!ready.empty()) {
    const std::uint32_t current = ready.back();
    ready.pop_back();
    GraphNodeInfo& info = nodes_[current];
    if (info.kind == GraphKind::let) {
      // A let is the rest of its block, or opens one where it is not.
      info.inner = info.mode == GraphMode::unrolled_let ? info.home : new_block(info.home);
    } else {
      // Blocks from the hooks: one per block field, numbered from inner.
      const std::uint32_t blocks = type_of(info.node->type_info()).blocks;
      for (std::uint32_t k = 0; k < blocks; ++k) {
        const std::int32_t id = new_block(info.home);
        info.inner = k == 0 ? id : info.inner;
      }
    }
    const std::int32_t home = info.home;
    const std::int32_t inner = info.inner;
    for (std::uint32_t e = info.edge_begin; e < info.edge_end; ++e) {
      const GraphEdge& edge = edges_[e];
      if (edge.index == atom_index) {
        continue;
      }
      const std::int32_t at = edge.use == UseKind::operand ? home
                              : edge.use == UseKind::block
                                  ? inner + static_cast<std::int32_t>(edge.block)
                                  : inner;
      GraphNodeInfo& child = nodes_[edge.index];
      child.home = child.home < 0 ? at : common_block(child.home, at);
      if (--child.pending == 0) {
        ready.push_back(edge.index);
      }
    }
  }
}

CTIR_INLINE void GraphPlan::order(const Object& root) {
  struct Step {
    enum class Kind : std::uint8_t { visit, block, finish_temp, finish_let, finish_result };
    Kind kind;
    bool let_opens_block;
    std::int32_t block;
    std::uint32_t index;
    const Object* node;
  };
  std::vector<Step> stack;
  stack.push_back({Step::Kind::block, false, 0, nodes_.empty() ? atom_index : 0U, &root});
  auto visit_edge = [&](const GraphEdge& edge) {
    if (edge.index != atom_index) {
      stack.push_back({Step::Kind::visit, false, -1, edge.index, edge.node});
    }
  };
  auto block_step = [&](std::int32_t block, const GraphEdge& edge) {
    stack.push_back({Step::Kind::block, false, block, edge.index, edge.node});
  };
  while (!stack.empty()) {
    const Step step = stack.back();
    stack.pop_back();
    switch (step.kind) {
    case Step::Kind::block: {
      const GraphNodeInfo* info = step.index == atom_index ? nullptr : &nodes_[step.index];
      const bool unroll = info != nullptr && info->kind == GraphKind::let &&
                          (step.let_opens_block || info->mode == GraphMode::unrolled_let);
      if (unroll) {
        const GraphEdge* edges = edges_.data() + info->edge_begin; // value, body
        block_step(step.block, edges[1]);
        stack.push_back({Step::Kind::finish_let, false, step.block, step.index, step.node});
        visit_edge(edges[0]);
      } else {
        stack.push_back({Step::Kind::finish_result, false, step.block, step.index, step.node});
        if (info != nullptr) {
          stack.push_back({Step::Kind::visit, false, -1, step.index, step.node});
        }
      }
      break;
    }
    case Step::Kind::visit: {
      GraphNodeInfo& info = nodes_[step.index];
      if (info.mode == GraphMode::temp) {
        if (info.scheduled) {
          break;
        }
        info.scheduled = true;
        stack.push_back({Step::Kind::finish_temp, false, info.home, step.index, step.node});
      }
      if (info.kind == GraphKind::let) {
        // A let that is not the rest of a block prints as a block of its own.
        stack.push_back({Step::Kind::block, true, info.inner, step.index, step.node});
        break;
      }
      // Operands in order, each block field as a block of its own.
      for (std::uint32_t e = info.edge_end; e-- > info.edge_begin;) {
        const GraphEdge& edge = edges_[e];
        if (edge.use == UseKind::block) {
          block_step(info.inner + static_cast<std::int32_t>(edge.block), edge);
        } else {
          visit_edge(edge);
        }
      }
      break;
    }
    case Step::Kind::finish_temp:
      block(step.block).items.push_back({GraphItem::Kind::temp, step.node, step.index});
      break;
    case Step::Kind::finish_let:
      block(step.block).items.push_back({GraphItem::Kind::let, step.node, step.index});
      break;
    case Step::Kind::finish_result:
      block(step.block).items.push_back({GraphItem::Kind::result, step.node, step.index});
      break;
    }
  }
}

} // namespace ctir::detail
