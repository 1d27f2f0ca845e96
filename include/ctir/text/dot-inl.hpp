// Definitions of <ctir/text/dot.hpp>.
#pragma once

#include <ctir/text/dot.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/error.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/text/detail/print_literal.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {
namespace detail::dot {

/// `text` as a dot string literal.
CTIR_INLINE std::string dot_label(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

/// Draws graph-level expressions: nodes grouped in nested clusters (a function, its
/// closures), edges listed after them.
class Writer {
public:
  /// Draws `function` as a cluster labelled `label`.
  void add_function(const Function& function, std::string_view label) {
    ids_.clear(); // a function is a graph of its own: nothing is shared across clusters
    const std::size_t scope = new_scope(top_, std::string(label));
    for (const Var& param : function->params) {
      var_node(param, scope);
    }
    const std::size_t result = draw(function->body, scope);
    const std::size_t ret = add_node(scope, "return", "shape=plaintext");
    edge(result, ret, "");
  }

  std::string finish() {
    std::string out = "digraph ctir {\n  node [fontname=\"monospace\"];\n"
                      "  edge [fontname=\"monospace\", fontsize=10];\n";
    write_scopes(out);
    out += edges_;
    out += "}\n";
    return out;
  }

private:
  struct Scope {
    std::string label;
    std::string nodes;
    std::vector<std::size_t> children;
  };
  struct Frame {
    Expr node;
    std::size_t scope;
    bool expanded;
  };

  std::size_t new_scope(std::size_t parent, std::string label) {
    scopes_.push_back({std::move(label), {}, {}});
    const std::size_t index = scopes_.size() - 1;
    if (index != parent) {
      scopes_[parent].children.push_back(index);
    }
    return index;
  }

  std::size_t add_node(std::size_t scope, std::string_view label, std::string_view attrs) {
    const std::size_t id = next_id_++;
    std::string& out = scopes_[scope].nodes;
    out += "n" + std::to_string(id) + " [label=" + dot_label(label);
    if (!attrs.empty()) {
      out += ", ";
      out += attrs;
    }
    out += "];\n";
    return id;
  }

  void edge(std::size_t from, std::size_t to, std::string_view label) {
    edges_ += "  n" + std::to_string(from) + " -> n" + std::to_string(to);
    if (!label.empty()) {
      edges_ += " [label=" + dot_label(label) + "]";
    }
    edges_ += ";\n";
  }

  std::size_t var_node(const Var& var, std::size_t scope) {
    const Object* key = var.get();
    if (const std::size_t* found = ids_.find(key); found != nullptr) {
      return *found;
    }
    std::string label = "%" + var->name;
    if (var->ty.defined()) {
      label += ": " + type_str(var->ty);
    }
    const std::size_t id = add_node(scope, label, "shape=ellipse");
    ids_.try_emplace(key, id);
    return id;
  }

  std::size_t id_of(const Expr& expr) const { return ids_.at(expr.get()); }

  /// Draws `root` and everything it uses that is not drawn yet; returns its node.
  std::size_t draw(const Expr& root, std::size_t root_scope) {
    std::vector<Frame> stack{{root, root_scope, false}};
    const auto push = [&stack](const Expr& child, std::size_t scope) {
      stack.push_back({child, scope, false});
    };
    while (!stack.empty()) {
      const Frame frame = std::move(stack.back());
      stack.pop_back();
      const Expr& node = frame.node;
      if (!frame.expanded && ids_.contains(node.get())) {
        continue;
      }
      if (frame.expanded) {
        finish_node(node, frame.scope);
        continue;
      }
      if (const auto* var = node.as<VarNode>()) {
        var_node(ref_of(var), frame.scope);
      } else if (const auto* global = node.as<GlobalVarNode>()) {
        ids_.try_emplace(node.get(), add_node(frame.scope, "@" + global->name, "shape=ellipse"));
      } else if (const auto* op = node.as<OpNode>()) {
        ids_.try_emplace(node.get(),
                         add_node(frame.scope, op->name, "shape=ellipse, style=dashed"));
      } else if (const auto* constant = node.as<ConstantNode>()) {
        ids_.try_emplace(node.get(),
                         add_node(frame.scope, constant_label(constant->data), "shape=note"));
      } else if (const auto* scalar = node.as<PrimExprNode>()) {
        // A scalar literal or expression used as a graph-level value (`multiply(%w, 2f)`).
        ids_.try_emplace(node.get(),
                         add_node(frame.scope, prim_expr_str(ref_of(scalar)), "shape=note"));
      } else {
        std::size_t scope = frame.scope;
        if (node.as<FunctionNode>() != nullptr) {
          scope = new_scope(frame.scope, "fn");
          closure_scopes_.try_emplace(node.get(), scope);
        }
        stack.push_back({node, frame.scope, true});
        push_children(node, scope, push);
      }
    }
    return id_of(root);
  }

  template <class Push>
  void push_children(const Expr& node, std::size_t scope, const Push& push) {
    // Pushed last to first: the first operand is drawn first.
    if (const auto* call = node.as<CallNode>()) {
      for (std::size_t i = call->args.size(); i-- > 0;) {
        push(call->args[i], scope);
      }
      if (call->op.as<OpNode>() == nullptr && call->op.as<GlobalVarNode>() == nullptr) {
        push(call->op, scope);
      }
    } else if (const auto* tuple = node.as<TupleNode>()) {
      for (std::size_t i = tuple->fields.size(); i-- > 0;) {
        push(tuple->fields[i], scope);
      }
    } else if (const auto* item = node.as<TupleGetItemNode>()) {
      push(item->tuple, scope);
    } else if (const auto* let = node.as<LetNode>()) {
      push(let->body, scope);
      push(let->value, scope);
    } else if (const auto* if_ = node.as<IfNode>()) {
      push(if_->else_branch, scope);
      push(if_->then_branch, scope);
      push(if_->cond, scope);
    } else if (const auto* fn = node.as<FunctionNode>()) {
      push(fn->body, scope);
      for (const Var& param : fn->params) {
        var_node(param, scope);
      }
    } else if (const auto* dps = node.as<CallDpsNode>()) {
      for (std::size_t i = dps->args.size(); i-- > 0;) {
        push(dps->args[i], scope);
      }
    } else {
      throw Error("ctir: print_dot cannot draw a " + std::string(node->dynamic_type_key()));
    }
  }

  /// Draws a node whose operands are drawn, with an edge from each.
  void finish_node(const Expr& node, std::size_t scope) {
    const auto operands = [&](const std::vector<Expr>& args, std::size_t to) {
      for (std::size_t i = 0; i < args.size(); ++i) {
        edge(id_of(args[i]), to, args.size() > 1 ? std::to_string(i) : std::string());
      }
    };
    std::size_t id = 0;
    if (const auto* call = node.as<CallNode>()) {
      std::string label = "call";
      if (const auto* op = call->op.as<OpNode>()) {
        label = op->name;
      } else if (const auto* global = call->op.as<GlobalVarNode>()) {
        label = "@" + global->name;
      }
      for (const auto& [key, value] : call->attrs) {
        label += "\n" + key + "=";
        append_attr_value(label, value);
      }
      id = add_node(scope, label, "shape=box");
      if (call->op.as<OpNode>() == nullptr && call->op.as<GlobalVarNode>() == nullptr) {
        edge(id_of(call->op), id, "callee");
      }
      operands(call->args, id);
    } else if (const auto* tuple = node.as<TupleNode>()) {
      id = add_node(scope, "tuple", "shape=box, style=rounded");
      operands(tuple->fields, id);
    } else if (const auto* item = node.as<TupleGetItemNode>()) {
      id = add_node(scope, "." + std::to_string(item->index), "shape=box, style=rounded");
      edge(id_of(item->tuple), id, "");
    } else if (const auto* let = node.as<LetNode>()) {
      edge(id_of(let->value), var_node(let->var, scope), "let");
      id = id_of(let->body);
    } else if (const auto* if_ = node.as<IfNode>()) {
      id = add_node(scope, "if", "shape=diamond");
      edge(id_of(if_->cond), id, "cond");
      edge(id_of(if_->then_branch), id, "then");
      edge(id_of(if_->else_branch), id, "else");
    } else if (const auto* fn = node.as<FunctionNode>()) {
      std::string label = "fn(";
      for (std::size_t i = 0; i < fn->params.size(); ++i) {
        label += (i > 0 ? ", %" : "%") + fn->params[i]->name;
      }
      label += ")";
      scopes_[closure_scopes_.at(node.get())].label = label;
      id = add_node(scope, label, "shape=box, style=\"rounded,bold\"");
      edge(id_of(fn->body), id, "result");
    } else if (const auto* dps = node.as<CallDpsNode>()) {
      id = add_node(scope, "call_dps @" + dps->func->name + "\n-> " + type_str(dps->out_type),
                    "shape=box, style=bold");
      operands(dps->args, id);
    }
    ids_.try_emplace(node.get(), id);
  }

  static std::string constant_label(const TensorData& data) {
    constexpr std::size_t max_elements = 4;
    std::string label;
    if (data.size() > 0 && data.size() <= max_elements) {
      append_tensor_elements(label, data);
    } else {
      label = "constant\n" + data.dtype().str() + "[";
      for (std::size_t i = 0; i < data.shape().size(); ++i) {
        label += (i > 0 ? ", " : "") + std::to_string(data.shape()[i]);
      }
      label += "]";
    }
    return label;
  }

  /// Blanks for a nesting depth; capped, so that closures nested a million deep do not
  /// make the output quadratic.
  static std::string indentation(std::size_t depth) {
    constexpr std::size_t max_depth = 16;
    return std::string(2 * (depth < max_depth ? depth : max_depth), ' ');
  }

  /// A scope's opening line and label (the top scope has none) and its node lines.
  void write_scope_head(std::size_t scope, std::size_t depth, std::string& out) const {
    const std::string indent = indentation(depth);
    if (scope != top_) {
      out += indentation(depth - 1) + "subgraph cluster_" + std::to_string(scope) + " {\n";
      out += indent + "label=" + dot_label(scopes_[scope].label) + ";\n";
    }
    std::size_t begin = 0;
    const std::string& nodes = scopes_[scope].nodes;
    while (begin < nodes.size()) {
      const std::size_t end = nodes.find('\n', begin);
      out += indent;
      out.append(nodes, begin, end + 1 - begin);
      begin = end + 1;
    }
  }

  /// Writes the scopes nested as the closures nest, iteratively (closures may nest deeply).
  void write_scopes(std::string& out) const {
    struct Open {
      std::size_t scope;
      std::size_t depth;
      std::size_t next_child;
    };
    std::vector<Open> stack{{top_, 1, 0}};
    write_scope_head(top_, 1, out);
    while (!stack.empty()) {
      const Open open = stack.back();
      const std::vector<std::size_t>& children = scopes_[open.scope].children;
      if (open.next_child < children.size()) {
        ++stack.back().next_child;
        const std::size_t child = children[open.next_child];
        write_scope_head(child, open.depth + 1, out);
        stack.push_back({child, open.depth + 1, 0});
        continue;
      }
      if (open.scope != top_) {
        out += indentation(open.depth - 1) + "}\n";
      }
      stack.pop_back();
    }
  }

  std::vector<Scope> scopes_{Scope{}};
  std::size_t top_ = 0;
  PointerMap<std::size_t> ids_;
  PointerMap<std::size_t> closure_scopes_;
  std::string edges_;
  std::size_t next_id_ = 0;
};

} // namespace detail::dot

CTIR_INLINE std::string print_dot(const Function& function, std::string_view name) {
  detail::dot::Writer writer;
  writer.add_function(function, "@" + std::string(name));
  return writer.finish();
}

CTIR_INLINE std::string print_dot(const IRModule& mod) {
  detail::dot::Writer writer;
  bool any = false;
  for (const auto& [global, function] : mod) {
    if (const auto* graph_function = function.template as<FunctionNode>()) {
      writer.add_function(ref_of(graph_function), "@" + global->name);
      any = true;
    }
  }
  if (!any) {
    throw Error("ctir: the module has no graph-level function to draw");
  }
  return writer.finish();
}

} // namespace ctir
