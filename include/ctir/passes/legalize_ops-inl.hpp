// Definitions of <ctir/passes/legalize_ops.hpp>.
#pragma once

#include <ctir/passes/legalize_ops.hpp>

#include <ctir/core/error.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/families.hpp> // the traversals dispatch over the IR node types through it
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/passes/detail/legalize_elementwise.hpp>
#include <ctir/passes/detail/legalize_layout.hpp>
#include <ctir/passes/detail/legalize_reduction.hpp>
#include <ctir/passes/detail/type_inference.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace ctir::passes {

namespace detail {

/// Registers the lowerings of the built-in operators.
CTIR_INLINE void add_builtin_lowerings(LegalizeRegistry& registry) {
  registry.add("add", binary_lowering(BinaryOp::add));
  registry.add("subtract", binary_lowering(BinaryOp::sub));
  registry.add("multiply", binary_lowering(BinaryOp::mul));
  registry.add("divide", binary_lowering(BinaryOp::div));
  registry.add("maximum", binary_lowering(BinaryOp::max));
  registry.add("minimum", binary_lowering(BinaryOp::min));
  registry.add("negative", unary_lowering(false));
  registry.add("relu", unary_lowering(true));
  registry.add("nn.relu", unary_lowering(true));
  registry.add("matmul", lower_matmul);
  registry.add("transpose", lower_transpose);
  registry.add("reshape", lower_reshape);
  registry.add("sum", lower_sum);
  registry.add("concatenate", lower_concatenate);
  registry.add("zeros", fill_lowering(0.0));
  registry.add("ones", fill_lowering(1.0));
}

} // namespace detail

struct LegalizeRegistry::State {
  std::mutex mutex;
  std::map<std::string, Lowering, std::less<>> lowerings;
};

CTIR_INLINE LegalizeRegistry::LegalizeRegistry() : state_(new State) {}

CTIR_INLINE LegalizeRegistry::~LegalizeRegistry() { delete state_; }

CTIR_INLINE LegalizeRegistry& LegalizeRegistry::global() {
  static LegalizeRegistry* registry = [] {
    auto* r = new LegalizeRegistry(); // never destroyed: usable during exit
    detail::add_builtin_lowerings(*r);
    return r;
  }();
  return *registry;
}

CTIR_INLINE void LegalizeRegistry::add(std::string op, Lowering fn) {
  check(op, fn);
  std::lock_guard lock(state_->mutex);
  if (state_->lowerings.contains(op)) {
    throw Error("ctir: LegalizeRegistry: operator '" + op +
                "' already has a lowering (use replace to override it)");
  }
  state_->lowerings.emplace(std::move(op), std::move(fn));
}

CTIR_INLINE void LegalizeRegistry::replace(std::string op, Lowering fn) {
  check(op, fn);
  std::lock_guard lock(state_->mutex);
  state_->lowerings[std::move(op)] = std::move(fn);
}

CTIR_INLINE bool LegalizeRegistry::remove(std::string_view op) {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->lowerings.find(std::string(op));
  if (it == state_->lowerings.end()) {
    return false;
  }
  state_->lowerings.erase(it);
  return true;
}

CTIR_INLINE Lowering LegalizeRegistry::find(std::string_view op) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->lowerings.find(std::string(op));
  return it == state_->lowerings.end() ? Lowering() : it->second;
}

CTIR_INLINE bool LegalizeRegistry::contains(std::string_view op) const {
  return static_cast<bool>(find(op));
}

CTIR_INLINE std::vector<std::string> LegalizeRegistry::names() const {
  std::lock_guard lock(state_->mutex);
  std::vector<std::string> out;
  for (const auto& entry : state_->lowerings) {
    out.push_back(entry.first);
  }
  return out;
}

CTIR_INLINE void LegalizeRegistry::check(const std::string& op, const Lowering& fn) {
  if (op.empty()) {
    throw Error("ctir: LegalizeRegistry: an operator name is empty");
  }
  if (!fn) {
    throw Error("ctir: LegalizeRegistry: the lowering of '" + op + "' is empty");
  }
}

namespace detail {

/// `type` as a tensor type whose dimensions are all literals, or null.
CTIR_INLINE TensorType static_tensor(const Type& type) {
  const auto* tensor = type.as<TensorTypeNode>();
  if (tensor == nullptr) {
    return {};
  }
  for (const PrimExpr& dim : tensor->shape) {
    if (!ops::static_dim(dim)) {
      return {};
    }
  }
  return ref_of(tensor);
}

/// A global name for functions lowered from `op`: its characters outside
/// `[A-Za-z0-9_]` become `_` (`nn.relu` -> `nn_relu`).
CTIR_INLINE std::string function_base_name(std::string_view op) {
  std::string name;
  for (char c : op) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    name += ok ? c : '_';
  }
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) {
    name.insert(name.begin(), '_');
  }
  return name;
}

/// The state of one run of LegalizeOps over a module: the generated functions, shared by
/// every graph-level function of the module.
class Legalizer {
public:
  explicit Legalizer(const IRModule& mod) {
    for (std::size_t i = 0; i < mod.size(); ++i) {
      taken_.insert(mod.global_at(i)->name);
      if (const auto* prim = mod.function_at(i).as<PrimFuncNode>()) {
        existing_[structural_hash(ref_of(prim))].emplace_back(mod.global_at(i), ref_of(prim));
      }
    }
  }

  /// The generated functions, in order of generation.
  const std::vector<std::pair<std::string, PrimFunc>>& generated() const { return generated_; }

  /// The call_dps replacing a call of `op` on `args` (types `arg_types`) of type
  /// `out_type`, or null when the call stays.
  Expr lower(const CallNode& call, std::vector<Expr> args, std::vector<Type> arg_types,
             const Type& out_type) {
    const auto* op = call.op.as<OpNode>();
    if (op == nullptr) {
      return {};
    }
    const Lowering lowering = LegalizeRegistry::global().find(op->name);
    const OpDef* def = OpRegistry::global().find(op->name);
    if (!lowering || def == nullptr) {
      return {};
    }
    // concatenate also takes its tensors as one tuple: they are passed one by one.
    if (op->name == "concatenate" && args.size() == 1 && arg_types[0].is<TupleTypeNode>()) {
      const auto fields = arg_types[0].as<TupleTypeNode>()->fields;
      const Expr tuple = args[0];
      args.clear();
      for (std::size_t k = 0; k < fields.size(); ++k) {
        args.push_back(tuple.is<TupleNode>()
                           ? tuple.as<TupleNode>()->fields[k]
                           : Expr(TupleGetItem::make(tuple, static_cast<std::int64_t>(k))));
      }
      arg_types = fields;
    }
    LegalizeCall request;
    request.op = op->name;
    request.output_type = static_tensor(out_type);
    if (!request.output_type.defined()) {
      return {};
    }
    for (const Type& type : arg_types) {
      request.input_types.push_back(static_tensor(type));
      if (!request.input_types.back().defined()) {
        return {};
      }
    }
    request.attrs = def->normalize_attrs(call.attrs);
    std::string key = op->name;
    value_traits<Attrs>::print(request.attrs, key);
    for (const TensorType& type : request.input_types) {
      key += type_str(type) + ";";
    }
    key += "->" + type_str(request.output_type);
    auto known = by_key_.find(key);
    if (known == by_key_.end()) {
      const GlobalVar global = generate(request, lowering);
      if (!global.defined()) {
        return {};
      }
      known = by_key_.emplace(key, global).first;
    }
    return CallDps::make(known->second, std::move(args), request.output_type);
  }

private:
  std::unordered_set<std::string> taken_;
  /// The tensor-level functions of the module and those generated so far, by structural
  /// hash, in module order: a lowering equal to one of them (from an earlier run, another
  /// operator, or written by hand) calls the first instead of adding a copy.
  std::unordered_map<std::uint64_t, std::vector<std::pair<GlobalVar, PrimFunc>>> existing_;
  std::unordered_map<std::string, GlobalVar> by_key_;
  std::vector<std::pair<std::string, PrimFunc>> generated_;

  /// The global of the function computing `request`: an equal one of the module, or a
  /// new one; null when the lowering declines.
  GlobalVar generate(LegalizeCall& request, const Lowering& lowering) {
    std::uint64_t largest = 0;
    const auto count = [&](const TensorType& type) {
      std::uint64_t elements = 1;
      for (std::int64_t d : LegalizeCall::literal_shape(type)) {
        const auto extent = static_cast<std::uint64_t>(d);
        elements = extent != 0 && elements > std::numeric_limits<std::uint64_t>::max() / extent
                       ? std::numeric_limits<std::uint64_t>::max()
                       : elements * extent;
      }
      largest = std::max(largest, elements);
    };
    count(request.output_type);
    std::vector<Var> params;
    for (std::size_t i = 0; i < request.input_types.size(); ++i) {
      count(request.input_types[i]);
      request.inputs.push_back(Var::make("in" + std::to_string(i), request.input_types[i]));
      params.push_back(request.inputs.back());
    }
    request.output = Var::make("out", request.output_type);
    params.push_back(request.output);
    if (largest > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      request.index_dtype = DataType::int64();
    }
    const Stmt body = lowering(request);
    if (!body.defined()) {
      return {};
    }
    const std::string name = fresh_name(function_base_name(request.op));
    const PrimFunc function = PrimFunc::make(name, std::move(params), body);
    std::vector<std::pair<GlobalVar, PrimFunc>>& same_hash = existing_[structural_hash(function)];
    for (const auto& [global, prim] : same_hash) {
      if (structural_equal(prim, function)) {
        taken_.erase(name);
        return global;
      }
    }
    const GlobalVar global = GlobalVar::make(name);
    same_hash.emplace_back(global, function);
    generated_.emplace_back(name, function);
    return global;
  }

  std::string fresh_name(const std::string& base) {
    std::string name = base;
    for (std::size_t n = 1; taken_.contains(name); ++n) {
      name = base + "_" + std::to_string(n);
    }
    taken_.insert(name);
    return name;
  }
};

/// `f` with each lowerable call replaced, bottom-up (a post-order map: a call shared by
/// several uses is lowered once). The types are those of the input's nodes.
CTIR_INLINE Function legalize_function(const Function& f, Legalizer& legalizer,
                                       const GraphTypeInference& types) {
  return map(f, [&](const Mapped<Call>& mapped) -> Expr {
    const Call& call = mapped.original();
    if (!call->op.is<OpNode>()) {
      return mapped.node();
    }
    std::vector<Type> arg_types;
    for (const Expr& arg : call->args) {
      arg_types.push_back(types.type_of(arg.get()));
    }
    Expr lowered = legalizer.lower(*call, mapped[&CallNode::args], std::move(arg_types),
                                   types.type_of(call.get()));
    return lowered.defined() ? lowered : Expr(mapped.node());
  });
}

/// The module with every lowerable operator call lowered (see LegalizeOps).
CTIR_INLINE IRModule legalize_module(const IRModule& mod) {
  // Types come from inference, so a module without annotations on its lets is lowered
  // as well; an ill-typed one cannot be, and says why.
  IRModule typed;
  try {
    typed = ModuleTypeInference(mod).run();
  } catch (const NodeError& e) {
    throw NodeError(e.node(),
                    std::string("ctir: LegalizeOps needs a well-typed module: ") + e.what());
  } catch (const Error& e) {
    throw Error(std::string("ctir: LegalizeOps needs a well-typed module: ") + e.what());
  }
  const auto signature = [&typed](const GlobalVar& global, const ObjectRef& use) -> Type {
    const Function fn = try_downcast<FunctionNode>(typed.find(global->name));
    if (!fn.defined()) {
      type_error(use, "@" + global->name + " is not a graph-level function of the module");
    }
    std::vector<Type> params;
    for (const Var& param : fn->params) {
      params.push_back(param->ty);
    }
    return FuncType::make(std::move(params), fn->ret_type);
  };
  Legalizer legalizer(mod);
  std::vector<std::pair<std::string, Function>> changed;
  for (std::size_t i = 0; i < mod.size(); ++i) {
    const Function f = try_downcast<FunctionNode>(mod.function_at(i));
    if (!f.defined()) {
      continue;
    }
    GraphTypeInference types(mod, signature);
    (void)types.infer_function(f);
    const Function out = legalize_function(f, legalizer, types);
    if (!out.same_as(f)) {
      changed.emplace_back(mod.global_at(i)->name, out);
    }
  }
  if (changed.empty()) {
    return mod;
  }
  IRModule result = mod;
  for (const auto& [name, f] : changed) {
    result.update(name, f);
  }
  for (const auto& [name, prim] : legalizer.generated()) {
    result.add(name, prim);
  }
  return result;
}

} // namespace detail

CTIR_INLINE IRModule legalize_ops(const IRModule& mod) { return detail::legalize_module(mod); }

CTIR_INLINE IRModule LegalizeOps::transform_module(IRModule mod, const PassContext&) const {
  return legalize_ops(mod);
}

} // namespace ctir::passes
