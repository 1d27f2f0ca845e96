// Definitions of <ctir/passes/to_a_normal_form.hpp>.
#pragma once

#include <ctir/passes/to_a_normal_form.hpp>

#include <ctir/core/detail/pointer_map.hpp>
#include <ctir/core/error.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/passes/detail/type_inference.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/walk.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::passes {

namespace detail {

/// The scope tree of one graph-level function for ToANormalForm, and the scope each
/// computation is bound in.
///
/// The scopes are the function's body, each branch of an if and each closure's body. A
/// computation is bound in the innermost scope that contains all its uses (their lowest
/// common ancestor), so a node shared by both branches of an if is bound before the if,
/// and one used by a single branch stays inside it. Scopes are found top-down over the
/// DAG in reverse post-order (every user before what it uses), without recursion.
///
/// The traversals here and in AnfConverter see graph-level expressions only
/// (`excluding<PrimExpr>`), so they never enter a type: after type inference a closure's
/// type holds the types of all the closures it returns, and entering them made the pass
/// quadratic in the nesting of closures.
class AnfScopes {
public:
  static constexpr std::size_t root = 0;

  explicit AnfScopes(const Function& f) : scopes_{{root, 0}} {
    // The names a new variable must not take: those of the variables the function defines
    // (its parameters with the shape variables of their types, its lets' and closures'
    // variables); each parameter's type is walked once.
    auto add_parameter_names = [this](const std::vector<Var>& params) {
      for (const Var& param : params) {
        walk(param, [this](const Var& var) { names_.insert(var->name); });
      }
    };
    add_parameter_names(f->params);
    if (!f->body.defined()) {
      return;
    }
    // A single walk finds both the names that lets and closures define (a new variable
    // must avoid them) and the composite nodes.
    walk(f->body, excluding<PrimExpr>([&](const Expr& e) {
           if (const auto* let = e.as<LetNode>()) {
             names_.insert(let->var->name);
           } else if (const auto* closure = e.as<FunctionNode>()) {
             add_parameter_names(closure->params);
           }
           if (is_composite(e)) {
             order_.push_back(e);
           }
         }));
    if (order_.empty()) {
      return;
    }
    scope_of_.insert_new(f->body.get(), root);
    for (std::size_t k = order_.size(); k-- > 0;) {
      const Expr& node = order_[k];
      const std::size_t scope = scope_of_.at(node.get());
      std::array<std::size_t, 3> inner{scope, scope, scope};
      if (node.is<IfNode>()) {
        inner[1] = add_scope(scope);
        inner[2] = add_scope(scope);
        children_.insert_new(node.get(), inner);
      } else if (node.is<FunctionNode>()) {
        inner[0] = add_scope(scope);
        children_.insert_new(node.get(), inner);
      }
      std::size_t index = 0;
      for_each_operand(*node, [&](const Object* operand) {
        const std::size_t use = inner[index < inner.size() ? index : 0];
        ++index;
        if (!is_composite(operand)) {
          return;
        }
        auto [known, first] = scope_of_.try_emplace(operand, use);
        if (!first) {
          *known = common_ancestor(scopes_, *known, use);
        }
      });
    }
  }

  /// The scope `node` (a composite node of the function) is bound in.
  std::size_t scope_of(const Object* node) const { return scope_of_.at(node); }
  /// The scope of operand `index` of an if (1, 2: its branches) or a closure (0: its body).
  std::size_t inner_scope(const Object* node, std::size_t index) const {
    return children_.at(node)[index];
  }
  std::size_t size() const noexcept { return scopes_.size(); }
  /// The names of the function's variables.
  const std::unordered_set<std::string>& names() const noexcept { return names_; }
  /// The composite nodes of the function's body, each once, in evaluation order (a
  /// post-order walk's).
  const std::vector<Expr>& order() const noexcept { return order_; }

private:
  struct Scope {
    std::size_t parent;
    std::size_t depth;
  };
  std::vector<Scope> scopes_;
  ctir::detail::PointerMap<std::size_t> scope_of_;
  /// The scopes an if's branches (indices 1, 2) or a closure's body (index 0) open.
  ctir::detail::PointerMap<std::array<std::size_t, 3>> children_;
  std::unordered_set<std::string> names_;
  std::vector<Expr> order_;

  std::size_t add_scope(std::size_t parent) {
    scopes_.push_back({parent, scopes_[parent].depth + 1});
    return scopes_.size() - 1;
  }
};

/// The rewriting state of ToANormalForm for one (typed) function.
///
/// One post-order map rewrites the body; its callbacks bind computations. Each scope
/// collects its bindings in evaluation order; a computation is appended to the list of its
/// own scope (which is open: it contains the use) when the map finishes it, so a node that
/// an if's branches share lands before the if, whose binding follows once its branches are
/// done. A scope's list is wrapped around its result as a chain of lets when the if or
/// closure that opens it is rebuilt (the body's at the end). Bindings that come from the
/// input's lets reuse those lets when nothing in them changed, so A-normal input comes
/// back as the same object.
///
/// A post-order map finishes the composite nodes in the order a post-order walk meets
/// them (the same children in the same order, each shared node once), so the callback
/// knows which input node it finishes from AnfScopes::order; scopes and types are those
/// of the input nodes.
class AnfConverter {
public:
  AnfConverter(const Function& f, const GraphTypeInference& types)
      : scopes_(f), types_(types), lists_(scopes_.size()) {
    // A computation first reached as a let's value, in the let's scope, is bound to the
    // let's own variable rather than to a new one.
    if (!f->body.defined()) {
      return;
    }
    ctir::detail::PointerMap<std::size_t> pre_order_index;
    std::vector<const LetNode*> lets;
    walk(f->body, excluding<PrimExpr>([&](const Expr& e) {
           if (!is_composite(e)) {
             return;
           }
           if (const auto* let = e.as<LetNode>()) {
             lets.push_back(let);
             const Expr& value = let->value;
             if (value.defined() && is_composite(value) && !value.is<LetNode>() &&
                 !pre_order_index.contains(value.get()) &&
                 scopes_.scope_of(value.get()) == scopes_.scope_of(let)) {
               named_.try_emplace(value.get(), downcast<LetNode>(e));
             }
           }
           pre_order_index.try_emplace(e.get(), pre_order_index.size());
         }),
         pre_order);
    find_let_starts(pre_order_index, lets);
  }

  Function run(const Function& f) {
    if (!f->body.defined()) {
      return f;
    }
    const Expr result =
        map(f->body, excluding<PrimExpr>([this](const Expr& rebuilt) -> Expr {
              if (!is_composite(rebuilt)) {
                return rebuilt;
              }
              const std::vector<Expr>& order = scopes_.order();
              if (next_ >= order.size() ||
                  order[next_]->dynamic_type_index() != rebuilt->dynamic_type_index()) {
                throw NodeError(rebuilt, "ctir: ToANormalForm: the map met the nodes in an order "
                                         "the walk did not");
              }
              for (; next_start_ < let_starts_.size() && let_starts_[next_start_].first == next_;
                   ++next_start_) {
                start_let(*let_starts_[next_start_].second);
              }
              const Expr& original = order[next_++];
              Expr out = finish(original, rebuilt);
              // Each node finishes once: the lets waiting for it are bound now, once.
              waiting_.for_each(original.get(), [&](const LetNode* let) {
                push(scopes_.scope_of(let), let->var, out, Let::borrow(let));
              });
              results_.try_emplace(original.get(), out);
              return out;
            }));
    const Expr body = wrap(AnfScopes::root, result);
    if (body.same_as(f->body)) {
      return f;
    }
    auto copy = clone_object(*f);
    copy->body = body;
    return std::move(copy).publish();
  }

private:
  /// One binding of a scope: `let var = value`, made from the input's `let` when there
  /// was one (null otherwise).
  struct Binding {
    Var var;
    Expr value;
    Let let;
  };

  AnfScopes scopes_;
  const GraphTypeInference& types_;
  /// Each let of the function with the index in AnfScopes::order of the first node the map
  /// finishes after meeting the let's variable: the let starts just before that node.
  /// Sorted by that index, lets that start together in the order they are met.
  std::vector<std::pair<std::size_t, const LetNode*>> let_starts_;
  std::size_t next_start_ = 0;
  /// Values whose lets have started, to those lets: bound once the value is finished.
  ctir::detail::PointerMultiMap<const LetNode*> waiting_;
  /// What each finished composite input node became.
  ctir::detail::PointerMap<Expr> results_;
  /// The next node of AnfScopes::order the map finishes.
  std::size_t next_ = 0;
  /// The bindings of each scope, by scope index, in evaluation order.
  std::vector<std::vector<Binding>> lists_;
  /// Computations bound to the variable of the input let whose value they are.
  ctir::detail::PointerMap<Let> named_;
  std::size_t next_name_ = 0;

  /// Finds where each let starts. The nodes the map finishes inside a node n's traversal
  /// are a run of AnfScopes::order that ends just before n; it begins where the run of n's
  /// first operand that is first met inside n begins (an operand met before n, shared,
  /// was finished earlier), or at n itself when there is none. A let's variable comes
  /// before its value and body, so the let starts where its own run begins.
  void find_let_starts(const ctir::detail::PointerMap<std::size_t>& pre_order_index,
                       const std::vector<const LetNode*>& lets_in_pre_order) {
    const std::vector<Expr>& order = scopes_.order();
    ctir::detail::PointerMap<std::size_t> run_start;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const Object* node = order[k].get();
      const std::size_t met = pre_order_index.at(node);
      std::size_t start = k;
      bool found = false;
      for_each_operand(*node, [&](const Object* operand) {
        if (!found && is_composite(operand) && pre_order_index.at(operand) > met) {
          start = run_start.at(operand);
          found = true;
        }
      });
      run_start.insert_new(node, start);
    }
    let_starts_.reserve(lets_in_pre_order.size());
    for (const LetNode* let : lets_in_pre_order) {
      let_starts_.emplace_back(run_start.at(let), let);
    }
    std::stable_sort(let_starts_.begin(), let_starts_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  /// A let's variable is met (it comes before the value): the let's binding follows its
  /// value's, now if the value has none to make, else once the value is finished.
  void start_let(const LetNode& let) {
    const Expr& value = let.value;
    if (value.defined() && is_composite(value)) {
      if (const Let* named = named_.find(value.get()); named != nullptr && named->get() == &let) {
        return; // bound to this let's variable when finished
      }
      if (const Expr* result = results_.find(value.get())) {
        push(scopes_.scope_of(&let), let.var, *result, Let::borrow(&let));
      } else {
        waiting_.insert(value.get(), &let);
      }
      return;
    }
    push(scopes_.scope_of(&let), let.var, value, Let::borrow(&let));
  }

  /// What composite input node `original` becomes, given `rebuilt` (the node with its
  /// operands rewritten).
  Expr finish(const Expr& original, const Expr& rebuilt) {
    if (original.is<LetNode>()) {
      // The binding is in its scope's list already; the let stands for its body's value.
      return rebuilt.as<LetNode>()->body;
    }
    Expr node = rebuilt;
    if (const auto* branch = rebuilt.as<IfNode>()) {
      const auto* old = original.as<IfNode>();
      Expr then_branch = wrap(scopes_.inner_scope(old, 1), branch->then_branch);
      Expr else_branch = wrap(scopes_.inner_scope(old, 2), branch->else_branch);
      if (!branch->cond.same_as(old->cond) || !then_branch.same_as(old->then_branch) ||
          !else_branch.same_as(old->else_branch)) {
        auto copy = clone_object(*old);
        copy->cond = branch->cond;
        copy->then_branch = std::move(then_branch);
        copy->else_branch = std::move(else_branch);
        node = std::move(copy).publish();
      } else {
        node = original;
      }
    } else if (const auto* fn = rebuilt.as<FunctionNode>()) {
      const auto* old = original.as<FunctionNode>();
      Expr body = wrap(scopes_.inner_scope(old, 0), fn->body);
      if (!body.same_as(old->body)) {
        auto copy = clone_object(*old);
        copy->body = std::move(body);
        node = std::move(copy).publish();
      } else {
        node = original;
      }
    }
    return bind(original, std::move(node));
  }

  void push(std::size_t scope, Var var, Expr value, Let let) {
    lists_[scope].push_back({std::move(var), std::move(value), std::move(let)});
  }

  /// Binds the rewritten `value` of input node `original` in its scope; returns the variable.
  Expr bind(const Expr& original, Expr value) {
    const std::size_t scope = scopes_.scope_of(original.get());
    if (const Let* named = named_.find(original.get())) {
      Var var = (*named)->var;
      push(scope, var, std::move(value), *named);
      return var;
    }
    Type type = types_.type_of(original.get());
    if (!type.defined()) {
      throw NodeError(original, "ctir: ToANormalForm: this expression has no inferred type; "
                                "run InferType before ToANormalForm");
    }
    Var var = Var::make(fresh_name(), std::move(type));
    push(scope, var, std::move(value), Let());
    return var;
  }

  /// A name not used in the function yet: x0, x1, ...
  std::string fresh_name() {
    while (true) {
      std::string name = "x" + std::to_string(next_name_++);
      if (!scopes_.names().contains(name)) {
        return name;
      }
    }
  }

  /// The bindings of `scope` as a chain of lets around `result` (consumes the list).
  Expr wrap(std::size_t scope, const Expr& result) {
    std::vector<Binding> list = std::move(lists_[scope]);
    lists_[scope].clear();
    Expr body = result;
    for (std::size_t k = list.size(); k-- > 0;) {
      Binding& binding = list[k];
      const Let& let = binding.let;
      if (!let.defined()) {
        body = Let::make(std::move(binding.var), std::move(binding.value), std::move(body));
      } else if (let->var.same_as(binding.var) && let->value.same_as(binding.value) &&
                 let->body.same_as(body)) {
        body = let;
      } else {
        auto copy = clone_object(*let);
        copy->value = std::move(binding.value);
        copy->body = std::move(body);
        body = std::move(copy).publish();
      }
    }
    return body;
  }
};

/// The declared type of a global graph-level function of `mod` (inferred when only
/// inference gives its result type), for the type inference ToANormalForm runs.
CTIR_INLINE Type anf_signature(const IRModule& mod, const GlobalVar& global, const ObjectRef& use) {
  const Function fn = try_downcast<FunctionNode>(mod.find(global->name));
  if (!fn.defined()) {
    throw NodeError(use, "ctir: ToANormalForm: @" + global->name +
                             " is not a graph-level function of the module");
  }
  const Type ret = fn->ret_type.defined() ? fn->ret_type : infer_type(fn, mod)->ret_type;
  std::vector<Type> params;
  params.reserve(fn->params.size());
  for (const Var& param : fn->params) {
    params.push_back(param->ty);
  }
  return FuncType::make(std::move(params), ret);
}

} // namespace detail

CTIR_INLINE Function to_a_normal_form(const Function& f, const IRModule& mod) {
  if (!f.defined()) {
    throw Error("ctir: ToANormalForm: the function is null");
  }
  detail::GraphTypeInference types(mod, [&mod](const GlobalVar& global, const ObjectRef& use) {
    return detail::anf_signature(mod, global, use);
  });
  const Function typed = types.infer_function(f);
  return detail::AnfConverter(typed, types).run(typed);
}

CTIR_INLINE Function ToANormalForm::transform_function(Function f, const IRModule& mod,
                                                       const PassContext&) const {
  return to_a_normal_form(f, mod);
}

} // namespace ctir::passes
