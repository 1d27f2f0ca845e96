// Well-formedness: the verifier (variables defined before use and once; calls, call_dps and
// tensor accesses that type-check) and the instrument that runs it after every pass.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/tensor/expr.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/tensor/stmt.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/ir/var.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/text/printer.hpp>
#include <ctir/traverse/access_path.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir {

/// One problem the verifier found: what is wrong, and where.
struct WellFormedDiagnostic {
  enum class Kind : std::uint8_t {
    /// A variable used where no definition of it is in scope.
    undefined_variable,
    /// A variable defined at a second definition site.
    duplicate_definition,
    /// A call its operator's type relation rejects, a call of a missing global, a call_dps
    /// of something other than a PrimFunc of the module, a tensor access with the wrong
    /// number of indices, ...
    ill_typed,
  };
  Kind kind = Kind::ill_typed;
  /// What is wrong: "variable %y is used but not defined".
  std::string message;
  /// The offending node from the module's root: `<root>.functions[1].body.args[0]`.
  AccessPath path;
  /// The same place from the function's name: `@main.body.args[0]`.
  std::string location;
  /// The offending node (a variable at a use or definition site, a call, a store, ...).
  ObjectRef node;

  /// `@main.body.args[0]: variable %y is used but not defined (at <root>.functions[0]...)`.
  std::string str() const { return location + ": " + message + " (at " + path.str() + ")"; }
};

/// The name of a diagnostic kind: "undefined variable", "duplicate definition", "ill-typed".
constexpr std::string_view to_string(WellFormedDiagnostic::Kind kind) noexcept {
  switch (kind) {
  case WellFormedDiagnostic::Kind::undefined_variable:
    return "undefined variable";
  case WellFormedDiagnostic::Kind::duplicate_definition:
    return "duplicate definition";
  case WellFormedDiagnostic::Kind::ill_typed:
    return "ill-typed";
  }
  return "?";
}

/// Settings of verify_well_formed.
struct WellFormedOptions {
  /// The verifier stops collecting after this many diagnostics (it still checks everything).
  std::size_t max_diagnostics = 100;
};

/// The module is not well-formed: the diagnostics, and the printed module with an offending
/// node underlined. `node()` is the node of the first diagnostic.
class WellFormedError : public NodeError {
public:
  WellFormedError(std::string message, std::vector<WellFormedDiagnostic> diagnostics,
                  std::string pass_name = {})
      : NodeError(diagnostics.empty() ? ObjectRef() : diagnostics.front().node, message),
        diagnostics_(std::move(diagnostics)), pass_name_(std::move(pass_name)) {}
  const std::vector<WellFormedDiagnostic>& diagnostics() const noexcept { return diagnostics_; }
  /// The pass after (or before) which the module was checked; empty when checked directly.
  const std::string& pass_name() const noexcept { return pass_name_; }

private:
  std::vector<WellFormedDiagnostic> diagnostics_;
  std::string pass_name_;
};

namespace detail::well_formed {

/// The role of the position a node is reached at.
enum class Region : std::uint8_t {
  use,            ///< a use site (variables must be in scope)
  simple_def,     ///< a def_simple field: defines exactly this variable
  pattern_top,    ///< a variable of a def_pattern field: defines it
  pattern_nested, ///< inside the type of a pattern variable: defines it unless in scope
};

enum class Op : std::uint8_t { visit, check, define, begin_scope, end_scope };

/// One step of an access path: `.field` or `.field[index]`.
struct Step {
  std::string_view field;
  std::size_t index = npos;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

struct Item {
  Op op = Op::visit;
  Region region = Region::use;
  const Object* node = nullptr;
  /// For visit and check: the length of the parent's path; `step` leads from it to `node`.
  std::size_t depth = 0;
  Step step;
};

/// When the variable of a def_simple field comes into scope, and whether the scope ends
/// with the node.
struct DefPolicy {
  enum class When : std::uint8_t { after_field, before_field, at_end };
  When when = When::after_field;
  std::string_view field; ///< for before_field
  /// false: the definitions stay for the rest of the enclosing block (Bind, Allocate).
  bool scoped = true;
};

inline std::string strip_ctir_prefix(std::string_view message) {
  constexpr std::string_view prefix = "ctir: ";
  if (message.starts_with(prefix)) {
    message.remove_prefix(prefix.size());
  }
  return std::string(message);
}

/// The verifier's engine: one iterative pass over each function of the module (no
/// recursion: IR nested a million levels deep is fine), driven by the runtime field tables,
/// so node types registered at run time are walked too.
///
/// Scopes: a function's parameters (def_pattern, with the variables of their types) are in
/// scope in its body; `for` and graph-level `let` variables in their body (a `let` whose
/// value is a function also in that value, for recursion); `Bind` and `Allocate` for the
/// rest of the enclosing block; other node types' def fields for the node's later fields.
/// A variable may be defined once per top-level function; inside a pattern, a variable
/// already in scope (the `n` of `B: Tensor[(n)]` after `A: Tensor[(n)]`) is a check, not a
/// definition.
///
/// Shared expression nodes (a DAG) are checked once per set of variables in scope, so
/// sharing costs no exponential time; statements and nodes with definitions are always
/// walked (meeting one twice is meeting its definitions twice).
class Checker {
public:
  Checker(const IRModule& mod, const WellFormedOptions& options) : mod_(mod), options_(options) {}

  std::vector<WellFormedDiagnostic> run() {
    for (std::size_t i = 0; i < mod_.size(); ++i) {
      check_function(i);
    }
    return std::move(diagnostics_);
  }

private:
  void check_function(std::size_t i) {
    function_ = i;
    ever_defined_.clear();
    live_.clear();
    log_.clear();
    marks_.clear();
    memo_.clear();
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
      case Op::end_scope:
        end_scope();
        break;
      }
    }
    for (const auto& [var, record] : undefined_) {
      if (record.uses > 1 && record.diagnostic != Step::npos) {
        diagnostics_[record.diagnostic].message += " (" + std::to_string(record.uses) +
                                                   " uses without a definition; this is the "
                                                   "first)";
      }
    }
  }

  void enter_path(const Item& item) {
    path_.resize(item.depth);
    path_.push_back(item.step);
  }

  // ---- scopes -----------------------------------------------------------------------------

  bool in_scope(const Object* var) const {
    auto it = live_.find(var);
    return it != live_.end() && it->second > 0;
  }
  void define(const Object* var) {
    ++live_[var];
    log_.push_back(var);
    epoch_ = ++epoch_counter_;
  }
  void end_scope() {
    const auto [size, epoch] = marks_.back();
    marks_.pop_back();
    while (log_.size() > size) {
      --live_[log_.back()];
      log_.pop_back();
    }
    epoch_ = epoch;
  }

  // ---- the walk ---------------------------------------------------------------------------

  void visit(const Item& item) {
    enter_path(item);
    const Object& node = *item.node;
    const TypeInfo& info = node.type_info();
    if (info.is_variable) {
      visit_variable(item, node, info);
      return;
    }
    const bool has_defs = has_def_fields(info);
    if (!has_defs && node.use_count() > 1 &&
        (info.derives_from(ExprNode::type_index, ExprNode::type_depth) ||
         info.derives_from(TypeNode::type_index, TypeNode::type_depth))) {
      if (!memo_.insert({&node, epoch_}).second) {
        return; // this shared node was checked with the same variables in scope
      }
    }
    const std::uint32_t type = node.dynamic_type_index();
    if (type == CallNode::type_index || type == CallDpsNode::type_index ||
        type == TensorStoreNode::type_index || type == TensorLoadNode::type_index) {
      // Pushed first, so it runs after the children (their call types are known then).
      stack_.push_back({Op::check, item.region, &node, item.depth, item.step});
    }
    const Region inherited =
        item.region == Region::pattern_top || item.region == Region::pattern_nested ? item.region
                                                                                    : Region::use;
    plan_.clear();
    if (type == SeqStmtNode::type_index) {
      plan_.push_back({Op::begin_scope, Region::use, nullptr, 0, {}});
      add_fields(node, info, inherited, {});
      plan_.push_back({Op::end_scope, Region::use, nullptr, 0, {}});
    } else if (!has_defs) {
      add_fields(node, info, inherited, {});
    } else {
      add_fields(node, info, inherited, policy_of(node, type));
    }
    for (std::size_t k = plan_.size(); k-- > 0;) {
      stack_.push_back(plan_[k]);
    }
  }

  static bool has_def_fields(const TypeInfo& info) noexcept {
    for (const FieldInfo& field : info.fields) {
      if (field.def_kind != DefRegionKind::none && !field.ignored() &&
          field.kind != FieldKind::value) {
        return true;
      }
    }
    return false;
  }

  static DefPolicy policy_of(const Object& node, std::uint32_t type) {
    if (type == ForNode::type_index) {
      return {DefPolicy::When::before_field, "body", true};
    }
    if (type == LetNode::type_index) {
      const auto& let = static_cast<const LetNode&>(node);
      if (let.value.defined() && let.value->dynamic_type_index() == FunctionNode::type_index) {
        return {DefPolicy::When::after_field, {}, true}; // a recursive function
      }
      return {DefPolicy::When::before_field, "body", true};
    }
    if (type == BindNode::type_index) {
      return {DefPolicy::When::at_end, {}, false};
    }
    if (type == AllocateNode::type_index) {
      return {DefPolicy::When::after_field, {}, false};
    }
    return {};
  }

  /// Appends the node's fields to plan_, with the definitions `policy` places.
  void add_fields(const Object& node, const TypeInfo& info, Region inherited,
                  std::optional<DefPolicy> policy) {
    if (policy && policy->scoped) {
      plan_.push_back({Op::begin_scope, Region::use, nullptr, 0, {}});
    }
    std::vector<const Object*>& pending = pending_defines_;
    pending.clear();
    const auto flush = [&] {
      for (const Object* var : pending) {
        plan_.push_back({Op::define, Region::use, var, 0, {}});
      }
      pending.clear();
    };
    const std::size_t depth = path_.size();
    for (const FieldInfo& field : info.fields) {
      if (field.ignored() || field.kind == FieldKind::value) {
        continue;
      }
      if (policy && policy->when == DefPolicy::When::before_field && field.name == policy->field) {
        flush();
      }
      Region region = inherited;
      if (field.def_kind == DefRegionKind::def_simple) {
        region = Region::simple_def;
      } else if (field.def_kind == DefRegionKind::def_pattern) {
        region = Region::pattern_top;
      }
      const auto add = [&](const Object* child, std::size_t index) {
        if (child == nullptr) {
          return;
        }
        plan_.push_back({Op::visit, region, child, depth, {field.name, index}});
        if (region == Region::simple_def && child->type_info().is_variable) {
          pending.push_back(child);
        }
      };
      if (field.kind == FieldKind::node) {
        add(field.get(node, field), Step::npos);
      } else {
        const std::size_t size = field.size(node, field);
        for (std::size_t k = 0; k < size; ++k) {
          add(field.at(node, field, k), k);
        }
      }
      if (!policy || policy->when == DefPolicy::When::after_field) {
        flush();
      }
    }
    flush();
    if (policy && policy->scoped) {
      plan_.push_back({Op::end_scope, Region::use, nullptr, 0, {}});
    }
  }

  void visit_variable(const Item& item, const Object& var, const TypeInfo& info) {
    Region children = Region::use;
    switch (item.region) {
    case Region::use:
      if (!in_scope(&var)) {
        report_undefined(var);
      }
      return; // a use is a leaf: the variable's type belongs to its definition
    case Region::simple_def:
      if (!ever_defined_.insert(&var).second) {
        report_duplicate(var);
      }
      break; // brought into scope by a define item where its scope starts
    case Region::pattern_top:
      if (!ever_defined_.insert(&var).second) {
        report_duplicate(var);
      }
      if (!in_scope(&var)) {
        define(&var);
      }
      children = Region::pattern_nested;
      break;
    case Region::pattern_nested:
      if (!in_scope(&var)) {
        if (!ever_defined_.insert(&var).second) {
          report_duplicate(var);
        }
        define(&var);
      }
      children = Region::pattern_nested;
      break;
    }
    plan_.clear();
    add_fields(var, info, children, {});
    for (std::size_t k = plan_.size(); k-- > 0;) {
      stack_.push_back(plan_[k]);
    }
  }

  // ---- type checks ------------------------------------------------------------------------

  void check(const Object& node) {
    const std::uint32_t type = node.dynamic_type_index();
    if (type == CallNode::type_index) {
      check_call(static_cast<const CallNode&>(node));
    } else if (type == CallDpsNode::type_index) {
      check_call_dps(static_cast<const CallDpsNode&>(node));
    } else if (type == TensorStoreNode::type_index) {
      const auto& store = static_cast<const TensorStoreNode&>(node);
      check_access(node, "store into", store.dest, store.indices.size());
    } else if (type == TensorLoadNode::type_index) {
      const auto& load = static_cast<const TensorLoadNode&>(node);
      check_access(node, "load from", load.source, load.indices.size());
    }
  }

  void check_call(const CallNode& call) {
    if (!call.op.defined()) {
      return;
    }
    if (const auto* op = call.op.as<OpNode>()) {
      const OpDef* def = OpRegistry::global().find(op->name);
      if (def == nullptr) {
        std::string message;
        try {
          static_cast<void>(OpRegistry::global().get(op->name));
        } catch (const Error& error) {
          message = strip_ctir_prefix(error.what());
        }
        report(WellFormedDiagnostic::Kind::ill_typed, call, "call of " + message);
        return;
      }
      if (!def->arity.accepts(call.args.size())) {
        report(WellFormedDiagnostic::Kind::ill_typed, call,
               "operator '" + op->name + "' takes " + def->arity.str() + ", but the call gives " +
                   std::to_string(call.args.size()));
        return;
      }
      try {
        static_cast<void>(def->normalize_attrs(call.attrs));
      } catch (const Error& error) {
        report(WellFormedDiagnostic::Kind::ill_typed, call, strip_ctir_prefix(error.what()));
        return;
      }
      std::vector<Type> types;
      types.reserve(call.args.size());
      for (const Expr& arg : call.args) {
        types.push_back(type_of(arg));
        if (!types.back().defined()) {
          return; // an argument of unknown type: nothing to check
        }
      }
      try {
        call_types_[&call] = def->infer_type(types, call.attrs);
      } catch (const Error& error) {
        std::string listing;
        for (const Type& t : types) {
          listing += (listing.empty() ? "" : ", ") + type_str(t);
        }
        report(WellFormedDiagnostic::Kind::ill_typed, call,
               "ill-typed call of '" + op->name + "' with arguments of types (" + listing +
                   "): " + strip_ctir_prefix(error.what()));
      }
      return;
    }
    if (const auto* global = call.op.as<GlobalVarNode>()) {
      const BaseFunc target = mod_.find(global->name);
      if (!target.defined()) {
        report(WellFormedDiagnostic::Kind::ill_typed, call,
               "call of @" + global->name + ", which is not a function of the module");
      } else if (target.as<PrimFuncNode>() != nullptr) {
        report(WellFormedDiagnostic::Kind::ill_typed, call,
               "call of tensor-level function @" + global->name +
                   " as a graph-level function (call it with call_dps)");
      } else if (const auto* function = target.as<FunctionNode>()) {
        if (function->params.size() != call.args.size()) {
          report(WellFormedDiagnostic::Kind::ill_typed, call,
                 "call of @" + global->name + " gives " + std::to_string(call.args.size()) +
                     " arguments, but it takes " + std::to_string(function->params.size()));
        } else if (function->ret_type.defined()) {
          call_types_[&call] = function->ret_type;
        }
      }
    }
  }

  void check_call_dps(const CallDpsNode& call) {
    if (!call.func.defined()) {
      return;
    }
    const std::string& name = call.func->name;
    const BaseFunc target = mod_.find(name);
    if (!target.defined()) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "call_dps of @" + name + ", which is not a function of the module");
      return;
    }
    const auto* prim = target.as<PrimFuncNode>();
    if (prim == nullptr) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "call_dps of @" + name +
                 ", which is a graph-level function, not a PrimFunc (call_dps calls "
                 "tensor-level functions)");
      return;
    }
    if (prim->params.size() != call.args.size() + 1) {
      report(WellFormedDiagnostic::Kind::ill_typed, call,
             "call_dps of @" + name + " passes " + std::to_string(call.args.size()) +
                 " arguments and the output, but @" + name + " takes " +
                 std::to_string(prim->params.size()) + " parameters");
    }
  }

  void check_access(const Object& node, std::string_view what, const Var& tensor,
                    std::size_t index_count) {
    if (!tensor.defined() || !tensor->ty.defined()) {
      return;
    }
    const std::string name = "%" + tensor->name;
    if (const auto* tensor_type = tensor->ty.as<TensorTypeNode>()) {
      if (tensor_type->ndim() != index_count) {
        report(WellFormedDiagnostic::Kind::ill_typed, node,
               std::string(what) + " " + name + " uses " + std::to_string(index_count) +
                   (index_count == 1 ? " index" : " indices") + ", but " + name + " has type " +
                   type_str(tensor->ty) + " of rank " + std::to_string(tensor_type->ndim()));
      }
    } else {
      report(WellFormedDiagnostic::Kind::ill_typed, node,
             std::string(what) + " " + name + ", which is not a tensor (its type is " +
                 type_str(tensor->ty) + ")");
    }
  }

  /// The type of a graph-level expression when it is known without inference: variables
  /// (their annotation), literals (graph-level scalars are rank-0 tensors), constants,
  /// call_dps (its output type), checked calls, tuples of known types and their items.
  Type type_of(const Expr& expr) const {
    if (!expr.defined()) {
      return {};
    }
    const std::uint32_t type = expr->dynamic_type_index();
    if (type == VarNode::type_index) {
      return static_cast<const VarNode&>(*expr).ty;
    }
    if (type == IntImmNode::type_index) {
      return TensorType::make({}, static_cast<const IntImmNode&>(*expr).dtype);
    }
    if (type == FloatImmNode::type_index) {
      return TensorType::make({}, static_cast<const FloatImmNode&>(*expr).dtype);
    }
    if (type == ConstantNode::type_index) {
      const TensorData& data = static_cast<const ConstantNode&>(*expr).data;
      std::vector<PrimExpr> shape;
      for (std::int64_t d : data.shape()) {
        shape.push_back(IntImm::make(d));
      }
      return TensorType::make(std::move(shape), data.dtype());
    }
    if (type == CallDpsNode::type_index) {
      return static_cast<const CallDpsNode&>(*expr).out_type;
    }
    if (type == CallNode::type_index) {
      auto it = call_types_.find(expr.get());
      return it == call_types_.end() ? Type() : it->second;
    }
    if (type == TupleNode::type_index) {
      std::vector<Type> fields;
      for (const Expr& field : static_cast<const TupleNode&>(*expr).fields) {
        fields.push_back(type_of(field));
        if (!fields.back().defined()) {
          return {};
        }
      }
      return TupleType::make(std::move(fields));
    }
    if (type == TupleGetItemNode::type_index) {
      const auto& item = static_cast<const TupleGetItemNode&>(*expr);
      const Type tuple = type_of(item.tuple);
      if (const auto* tuple_type = tuple.as<TupleTypeNode>()) {
        if (item.index >= 0 && static_cast<std::size_t>(item.index) < tuple_type->fields.size()) {
          return tuple_type->fields[static_cast<std::size_t>(item.index)];
        }
      }
    }
    return {};
  }

  // ---- diagnostics ------------------------------------------------------------------------

  static std::string variable_name(const Object& var) {
    const TypeInfo& info = var.type_info();
    if (var.dynamic_type_index() == VarNode::type_index) {
      return "%" + static_cast<const VarNode&>(var).name;
    }
    if (info.variable_name != nullptr) {
      return "%" + std::string(info.variable_name(var));
    }
    return "a variable of type " + std::string(info.key);
  }

  void report_undefined(const Object& var) {
    auto [it, first] = undefined_.try_emplace(&var);
    ++it->second.uses;
    if (first) {
      it->second.diagnostic = report(WellFormedDiagnostic::Kind::undefined_variable, var,
                                     "variable " + variable_name(var) + " is used but not defined");
    }
  }

  void report_duplicate(const Object& var) {
    report(WellFormedDiagnostic::Kind::duplicate_definition, var,
           "variable " + variable_name(var) +
               " is defined more than once; this is a second "
               "definition");
  }

  /// Records a diagnostic at the current path; its index, or npos past max_diagnostics.
  std::size_t report(WellFormedDiagnostic::Kind kind, const Object& node, std::string message) {
    if (diagnostics_.size() >= options_.max_diagnostics) {
      return Step::npos;
    }
    WellFormedDiagnostic diagnostic;
    diagnostic.kind = kind;
    diagnostic.message = std::move(message);
    diagnostic.node = ObjectRef::borrow(&node);
    diagnostic.location = "@" + mod_.global_at(function_)->name;
    for (std::size_t k = 0; k < path_.size(); ++k) {
      const Step& step = path_[k];
      diagnostic.path.push_field(step.field);
      if (step.index != Step::npos) {
        diagnostic.path.push_index(step.index);
      }
      if (k == 0) {
        continue; // `functions[i]` is the function's name in the location
      }
      diagnostic.location += '.';
      diagnostic.location += step.field;
      if (step.index != Step::npos) {
        diagnostic.location += '[' + std::to_string(step.index) + ']';
      }
    }
    diagnostics_.push_back(std::move(diagnostic));
    return diagnostics_.size() - 1;
  }

  struct MemoHash {
    std::size_t operator()(const std::pair<const Object*, std::uint64_t>& key) const noexcept {
      return std::hash<const Object*>()(key.first) ^ (std::hash<std::uint64_t>()(key.second) << 1U);
    }
  };
  struct Undefined {
    std::size_t uses = 0;
    std::size_t diagnostic = Step::npos;
  };

  const IRModule& mod_;
  WellFormedOptions options_;
  std::vector<WellFormedDiagnostic> diagnostics_;
  std::size_t function_ = 0;

  std::vector<Item> stack_;
  std::vector<Item> plan_;
  std::vector<const Object*> pending_defines_;
  std::vector<Step> path_;

  /// Definitions in scope (a count: a doubly defined variable is still in scope once the
  /// inner definition's scope ends), the order they were made, and the scope starts.
  std::unordered_map<const Object*, std::size_t> live_;
  std::vector<const Object*> log_;
  std::vector<std::pair<std::size_t, std::uint64_t>> marks_;
  /// Every variable defined so far in the function.
  std::unordered_set<const Object*> ever_defined_;
  /// Identifies the set of variables in scope: a new value at each change.
  std::uint64_t epoch_ = 0;
  std::uint64_t epoch_counter_ = 0;
  std::unordered_set<std::pair<const Object*, std::uint64_t>, MemoHash> memo_;
  std::unordered_map<const Object*, Undefined> undefined_;
  std::unordered_map<const Object*, Type> call_types_;
};

} // namespace detail::well_formed

/// Checks that `mod` is well-formed and returns what is wrong (nothing when it is):
///
/// - every variable is used only where a definition of it is in scope (def_simple sites:
///   `for` and `let` in their body, `Bind` for the rest of its block; def_pattern sites:
///   function parameters with the variables of their types, `Allocate` for the rest of its
///   block);
/// - every variable is defined once per top-level function (a second mention inside a
///   pattern, as `n` in `%B: Tensor[(%n)]`, is a check, not a definition);
/// - calls type-check where the argument types are known (variables with a type, literals,
///   constants, call_dps, calls checked before them): a registered operator with the right
///   number of inputs, valid attributes and argument types its type relation accepts, or a
///   graph-level function of the module with the right number of arguments;
/// - every call_dps calls a PrimFunc of the module with its arguments plus one output;
/// - tensor stores and loads give one index per dimension of their tensor's type.
///
/// Each diagnostic names the problem and where it is, as an access path from the module
/// (`<root>.functions[1].body.args[0]`) and from the function (`@main.body.args[0]`).
inline std::vector<WellFormedDiagnostic> verify_well_formed(const IRModule& mod,
                                                            WellFormedOptions options = {}) {
  detail::well_formed::Checker checker(mod, options);
  return checker.run();
}

namespace detail::well_formed {

/// The error message for `diagnostics`: `headline`, each diagnostic on its own line, and
/// the printed module with an offending node underlined.
inline std::string describe(const std::string& headline, const IRModule& mod,
                            const std::vector<WellFormedDiagnostic>& diagnostics) {
  std::string message = headline + " (" + std::to_string(diagnostics.size()) +
                        (diagnostics.size() == 1 ? " problem" : " problems") + "):";
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    message += "\n  " + diagnostic.str();
  }
  // A variable prints at each of its sites and its text cannot tell a second definition
  // from the first: underline the first problem that is not a duplicate definition.
  for (const WellFormedDiagnostic& diagnostic : diagnostics) {
    if (diagnostic.kind == WellFormedDiagnostic::Kind::duplicate_definition ||
        !diagnostic.node.defined()) {
      continue;
    }
    try {
      const std::string marked = print_with_ranges(mod).underline(diagnostic.node.get(), 2);
      if (!marked.empty()) {
        message += "\n" + diagnostic.location + " in the printed module:\n" + marked;
      }
    } catch (const Error&) {
      static_cast<void>(0); // a module the text format cannot print: the paths must do
    }
    break;
  }
  return message;
}

} // namespace detail::well_formed

/// Throws a WellFormedError listing the problems if `mod` is not well-formed.
inline void check_well_formed(const IRModule& mod, WellFormedOptions options = {}) {
  std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mod, options);
  if (!diagnostics.empty()) {
    std::string message =
        detail::well_formed::describe("ctir: the module is not well-formed", mod, diagnostics);
    throw WellFormedError(std::move(message), std::move(diagnostics));
  }
}

/// Settings of VerifyWellFormedInstrument.
struct VerifyWellFormedOptions {
  /// Also verify the module a pass receives, unless it is the output of a pass already
  /// verified, so that a module broken before the pipeline is not blamed on its first pass.
  bool check_input = true;
  WellFormedOptions verifier = {};
};

/// Verifies the module after every pass (verify_well_formed) and throws a WellFormedError
/// naming the pass that broke it, with the problems and where they are; through a
/// PassContext the caller gets it as an InstrumentError (the WellFormedError is its
/// `original()`):
///
///     Error in instrument VerifyWellFormed (run_after_pass of pass Inline): ctir: pass
///     'Inline' broke the IR (1 problem):
///       @main.body.args[0]: variable %y is used but not defined (at <root>...)
///
/// A module is verified once: the output of one pass, given to the next, is not checked
/// again.
class VerifyWellFormedInstrument {
public:
  explicit VerifyWellFormedInstrument(VerifyWellFormedOptions options = {}) : options_(options) {}

  static std::string_view name() noexcept { return "VerifyWellFormed"; }

  void exit_pass_ctx() noexcept { verified_.reset(); }
  void run_before_pass(const IRModule& mod, const PassInfo& info) {
    if (options_.check_input) {
      verify(mod, info,
             "ctir: the module given to pass '" + std::string(info.name) +
                 "' is not well-formed, so it was broken before that pass ran");
    }
  }
  void run_after_pass(const IRModule& mod, const PassInfo& info) {
    verify(mod, info, "ctir: pass '" + std::string(info.name) + "' broke the IR");
  }

  const VerifyWellFormedOptions& options() const noexcept { return options_; }

private:
  void verify(const IRModule& mod, const PassInfo& info, const std::string& headline) {
    if (verified_ && verified_->same_as(mod)) {
      return;
    }
    std::vector<WellFormedDiagnostic> diagnostics = verify_well_formed(mod, options_.verifier);
    if (!diagnostics.empty()) {
      std::string message = detail::well_formed::describe(headline, mod, diagnostics);
      throw WellFormedError(std::move(message), std::move(diagnostics), std::string(info.name));
    }
    // Kept (not just its address) so that the node cannot be freed and its address reused,
    // and cannot be changed in place, since a shared module is copied on write.
    verified_ = mod;
  }

  VerifyWellFormedOptions options_;
  std::optional<IRModule> verified_;
};

} // namespace ctir
