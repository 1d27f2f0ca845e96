// LegalizeOps: lowers graph-level operator calls to generated tensor-level functions.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/builder.hpp>
#include <ctir/ir/graph/expr.hpp>
#include <ctir/ir/module.hpp>
#include <ctir/ir/op_registry.hpp>
#include <ctir/ir/ops.hpp>
#include <ctir/ir/tensor/prim_func.hpp>
#include <ctir/ir/type_str.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>
#include <ctir/passes/detail/graph_rewriter.hpp>
#include <ctir/passes/detail/graph_utils.hpp>
#include <ctir/passes/infer_type.hpp>
#include <ctir/runtime/pass/registry.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ctir::passes {

/// One operator call to lower, as a lowering sees it: literal types, normalized
/// attributes, and the parameters of the tensor-level function being generated.
///
/// The function takes one parameter per argument (`inputs`, typed like the arguments)
/// and the output buffer last (`output`, typed like the call); the lowering returns its
/// body, which must write every element of `output` (the buffer is not assumed zero).
struct LegalizeCall {
  /// The operator's name.
  std::string op;
  /// The call's attributes with the operator's defaults filled in.
  Attrs attrs;
  /// The argument types, every dimension a literal.
  std::vector<TensorType> input_types;
  /// The call's type, every dimension a literal.
  TensorType output_type;
  /// The generated function's input parameters, one per argument.
  std::vector<Var> inputs;
  /// The generated function's output parameter.
  Var output;
  /// The dtype of loop variables and index arithmetic: int32, or int64 when a tensor
  /// has more elements than int32 can count.
  DataType index_dtype = DataType::int32();

  /// The literal dimensions of input `i`.
  std::vector<std::int64_t> input_shape(std::size_t i) const {
    return literal_shape(input_types.at(i));
  }
  /// The literal dimensions of the output.
  std::vector<std::int64_t> output_shape() const { return literal_shape(output_type); }
  /// An index literal of `index_dtype`.
  PrimExpr index(std::int64_t value) const { return IntImm::make(value, index_dtype); }

  /// Loops over every index of `shape` (outermost first, variables `<prefix>0`,
  /// `<prefix>1`, ...) around `body(indices)`; just the body for rank 0.
  Stmt loop_nest(const std::vector<std::int64_t>& shape, std::string_view prefix,
                 const std::function<Stmt(const std::vector<PrimExpr>&)>& body) const {
    std::vector<Var> vars;
    std::vector<PrimExpr> indices;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      vars.push_back(Var::make(std::string(prefix) + std::to_string(d), index_dtype));
      indices.push_back(vars.back());
    }
    Stmt stmt = body(indices);
    for (std::size_t d = shape.size(); d-- > 0;) {
      stmt = For::make(vars[d], index(0), index(shape[d]), stmt);
    }
    return stmt;
  }

  /// The literal dimensions of a type whose dimensions are all literals.
  static std::vector<std::int64_t> literal_shape(const TensorType& type) {
    std::vector<std::int64_t> shape;
    for (const PrimExpr& dim : type->shape) {
      const std::optional<std::int64_t> value = ops::static_dim(dim);
      if (!value) {
        throw Error("ctir: LegalizeCall: " + type_str(type) + " has the non-literal dimension " +
                    prim_expr_str(dim));
      }
      shape.push_back(*value);
    }
    return shape;
  }
};

/// A lowering: the body of the tensor-level function computing `call`, or a null
/// statement to leave this call a graph-level call (a dtype it does not handle, ...).
using Lowering = std::function<Stmt(const LegalizeCall& call)>;

class LegalizeRegistry;

namespace detail {
inline void add_builtin_lowerings(LegalizeRegistry& registry);
} // namespace detail

/// The lowerings LegalizeOps knows, by operator name.
///
/// The global registry holds the built-in operators' lowerings from its first use on; a
/// user operator gets one with `LegalizeRegistry::global().add("my.op", fn)`. Thread-safe.
class LegalizeRegistry {
public:
  LegalizeRegistry() = default;
  LegalizeRegistry(const LegalizeRegistry&) = delete;
  LegalizeRegistry& operator=(const LegalizeRegistry&) = delete;

  /// The process-wide registry, with the built-in lowerings.
  static LegalizeRegistry& global() {
    static LegalizeRegistry* registry = [] {
      auto* r = new LegalizeRegistry(); // never destroyed: usable during exit
      detail::add_builtin_lowerings(*r);
      return r;
    }();
    return *registry;
  }

  /// Registers the lowering of operator `op`; throws ctir::Error if `op` has one
  /// already (use `replace` to override it) or `fn` is empty.
  void add(std::string op, Lowering fn) {
    check(op, fn);
    std::lock_guard lock(mutex_);
    if (lowerings_.contains(op)) {
      throw Error("ctir: LegalizeRegistry: operator '" + op +
                  "' already has a lowering (use replace to override it)");
    }
    lowerings_.emplace(std::move(op), std::move(fn));
  }

  /// Registers or overrides the lowering of operator `op`.
  void replace(std::string op, Lowering fn) {
    check(op, fn);
    std::lock_guard lock(mutex_);
    lowerings_[std::move(op)] = std::move(fn);
  }

  /// Removes the lowering of `op`; whether there was one.
  bool remove(std::string_view op) {
    std::lock_guard lock(mutex_);
    const auto it = lowerings_.find(std::string(op));
    if (it == lowerings_.end()) {
      return false;
    }
    lowerings_.erase(it);
    return true;
  }

  /// The lowering of `op` (a copy, safe to call while others register), or an empty one.
  Lowering find(std::string_view op) const {
    std::lock_guard lock(mutex_);
    const auto it = lowerings_.find(std::string(op));
    return it == lowerings_.end() ? Lowering() : it->second;
  }

  bool contains(std::string_view op) const { return static_cast<bool>(find(op)); }

  /// The operators with a lowering, sorted.
  std::vector<std::string> names() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& entry : lowerings_) {
      out.push_back(entry.first);
    }
    return out;
  }

private:
  static void check(const std::string& op, const Lowering& fn) {
    if (op.empty()) {
      throw Error("ctir: LegalizeRegistry: an operator name is empty");
    }
    if (!fn) {
      throw Error("ctir: LegalizeRegistry: the lowering of '" + op + "' is empty");
    }
  }

  mutable std::mutex mutex_;
  std::map<std::string, Lowering, std::less<>> lowerings_;
};

namespace detail {

// ---------------------------------------------------------------------------------------
// The built-in lowerings. Each reproduces the reference kernel of eval/kernels.hpp: the
// same scalar operations (so integer wrapping, floor division and NaN rules follow), and
// for sums and products the same order of accumulation, in float64 for floats (rounded
// once at the end) and in the element dtype for integers and bool (wrapping arithmetic
// gives the kernel's 64-bit sum truncated; bool addition is "any").

/// Appends `stmt` to `body`, the statements of a block spliced in (no nested blocks).
inline void append(std::vector<Stmt>& body, const Stmt& stmt) {
  if (const auto* block = stmt.as<SeqStmtNode>()) {
    body.insert(body.end(), block->seq.begin(), block->seq.end());
  } else {
    body.push_back(stmt);
  }
}

/// The indices of an input broadcast to an output (numpy: aligned from the right; a
/// dimension of 1 against a larger one reads index 0).
inline std::vector<PrimExpr> broadcast_indices(const LegalizeCall& call,
                                               const std::vector<std::int64_t>& in,
                                               const std::vector<std::int64_t>& out,
                                               const std::vector<PrimExpr>& indices) {
  std::vector<PrimExpr> result;
  const std::size_t skip = out.size() - in.size();
  for (std::size_t d = 0; d < in.size(); ++d) {
    result.push_back(in[d] == out[d + skip] ? indices[d + skip] : call.index(0));
  }
  return result;
}

inline PrimExpr apply_binary(BinaryOp op, PrimExpr a, PrimExpr b) {
  switch (op) {
  case BinaryOp::add:
    return a + b;
  case BinaryOp::sub:
    return a - b;
  case BinaryOp::mul:
    return a * b;
  case BinaryOp::div:
    return a / b;
  case BinaryOp::min:
    return min(a, b);
  default:
    return max(a, b);
  }
}

inline Lowering binary_lowering(BinaryOp op) {
  return [op](const LegalizeCall& call) -> Stmt {
    const auto out = call.output_shape();
    const auto a = call.input_shape(0);
    const auto b = call.input_shape(1);
    return call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      return TensorStore::make(
          call.output, idx,
          apply_binary(op, load(call.inputs[0], broadcast_indices(call, a, out, idx)),
                       load(call.inputs[1], broadcast_indices(call, b, out, idx))));
    });
  };
}

inline Lowering unary_lowering(bool relu) {
  return [relu](const LegalizeCall& call) -> Stmt {
    const DataType dtype = call.output_type->dtype;
    return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      const PrimExpr x = load(call.inputs[0], idx);
      return TensorStore::make(call.output, idx, relu ? max(x, make_const(dtype, 0)) : -x);
    });
  };
}

/// How a reduction accumulates: into a float64 buffer for float32 and float16 (the
/// kernel's float64 accumulator), into the output element otherwise.
struct Accumulation {
  DataType dtype;
  Var acc; // null: the output element itself

  explicit Accumulation(DataType element) : dtype(element) {
    if (element.is_float() && element.bits != 64) {
      acc = Var::make("acc", TensorType::make({}, DataType::float64()));
    }
  }
  /// What goes before the loops (the accumulator's allocation).
  void prologue(std::vector<Stmt>& body) const {
    if (acc.defined()) {
      body.push_back(Allocate::make(acc));
    }
  }
  PrimExpr widen(PrimExpr x) const { return acc.defined() ? cast(DataType::float64(), x) : x; }
  /// `reduce` (the loops adding into the accumulator, given a function that makes one
  /// addition) framed by the initialization and the final store into `out[idx]`.
  Stmt wrap(const Var& out, const std::vector<PrimExpr>& idx,
            const std::function<Stmt(const std::function<Stmt(PrimExpr)>&)>& reduce) const {
    const Var target = acc.defined() ? acc : out;
    const std::vector<PrimExpr> at = acc.defined() ? std::vector<PrimExpr>{} : idx;
    const DataType acc_dtype = acc.defined() ? DataType::float64() : dtype;
    std::vector<Stmt> seq;
    seq.push_back(TensorStore::make(target, at, make_const(acc_dtype, 0)));
    seq.push_back(reduce([&](PrimExpr term) -> Stmt {
      return TensorStore::make(target, at, load(target, at) + std::move(term));
    }));
    if (acc.defined()) {
      seq.push_back(TensorStore::make(out, idx, cast(dtype, load(acc, {}))));
    }
    return SeqStmt::make(std::move(seq));
  }
};

inline Stmt lower_matmul(const LegalizeCall& call) {
  const auto out = call.output_shape();
  const auto a = call.input_shape(0);
  const auto b = call.input_shape(1);
  const std::size_t rank = out.size();
  const std::vector<std::int64_t> batch(out.begin(), out.end() - 2);
  const std::vector<std::int64_t> batch_a(a.begin(), a.end() - 2);
  const std::vector<std::int64_t> batch_b(b.begin(), b.end() - 2);
  const std::int64_t inner = a.back();
  const Accumulation accumulation(call.output_type->dtype);
  std::vector<Stmt> body;
  accumulation.prologue(body);
  append(body, call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    const std::vector<PrimExpr> outer(idx.begin(), idx.end() - 2);
    std::vector<PrimExpr> ia = broadcast_indices(call, batch_a, batch, outer);
    std::vector<PrimExpr> ib = broadcast_indices(call, batch_b, batch, outer);
    const Var k = Var::make("k", call.index_dtype);
    ia.push_back(idx[rank - 2]);
    ia.push_back(k);
    ib.push_back(k);
    ib.push_back(idx[rank - 1]);
    return accumulation.wrap(call.output, idx, [&](const auto& add) -> Stmt {
      return For::make(k, call.index(0), call.index(inner),
                       add(accumulation.widen(load(call.inputs[0], ia)) *
                           accumulation.widen(load(call.inputs[1], ib))));
    });
  }));
  return SeqStmt::make(std::move(body));
}

/// The axes of `call`'s attribute `key` normalized against rank `rank` (the type relation
/// has checked them).
inline std::vector<std::size_t> axes_attr(const LegalizeCall& call, std::string_view key,
                                          std::size_t rank) {
  std::vector<std::size_t> axes;
  for (std::int64_t axis :
       call.attrs.get<std::vector<std::int64_t>>(key).value_or(std::vector<std::int64_t>{})) {
    axes.push_back(
        static_cast<std::size_t>(axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis));
  }
  return axes;
}

inline Stmt lower_sum(const LegalizeCall& call) {
  const auto in = call.input_shape(0);
  const std::size_t rank = in.size();
  std::vector<bool> reduced(rank, !call.attrs.contains("axis"));
  for (std::size_t axis : axes_attr(call, "axis", rank)) {
    reduced[axis] = true;
  }
  const bool keepdims = call.attrs.get<bool>("keepdims").value_or(false);
  const Accumulation accumulation(call.output_type->dtype);
  std::vector<Stmt> body;
  accumulation.prologue(body);
  append(body,
         call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
           // The input index: output loop variables for the kept axes, reduction variables for
           // the others; the reduction loops run in axis order, as the kernel adds.
           std::vector<PrimExpr> at(rank);
           std::vector<std::pair<Var, std::int64_t>> loops;
           for (std::size_t d = 0, kept = 0; d < rank; ++d) {
             if (reduced[d]) {
               loops.emplace_back(Var::make("r" + std::to_string(loops.size()), call.index_dtype),
                                  in[d]);
               at[d] = loops.back().first;
               kept += keepdims ? 1 : 0;
             } else {
               at[d] = idx[kept++];
             }
           }
           return accumulation.wrap(call.output, idx, [&](const auto& add) -> Stmt {
             Stmt stmt = add(accumulation.widen(load(call.inputs[0], at)));
             for (std::size_t l = loops.size(); l-- > 0;) {
               stmt = For::make(loops[l].first, call.index(0), call.index(loops[l].second), stmt);
             }
             return stmt;
           });
         }));
  return SeqStmt::make(std::move(body));
}

inline Stmt lower_transpose(const LegalizeCall& call) {
  const std::size_t rank = call.input_types[0]->ndim();
  std::vector<std::size_t> axes = axes_attr(call, "axes", rank);
  if (!call.attrs.contains("axes")) {
    for (std::size_t d = 0; d < rank; ++d) {
      axes.push_back(rank - 1 - d);
    }
  }
  return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    std::vector<PrimExpr> at(rank);
    for (std::size_t d = 0; d < rank; ++d) {
      at[axes[d]] = idx[d];
    }
    return TensorStore::make(call.output, idx, load(call.inputs[0], at));
  });
}

inline Stmt lower_reshape(const LegalizeCall& call) {
  const auto in = call.input_shape(0);
  const auto out = call.output_shape();
  return call.loop_nest(out, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
    if (in == out) {
      return TensorStore::make(call.output, idx, load(call.inputs[0], idx));
    }
    // The row-major position of the output element (dimensions of 1 add nothing), then
    // the input index at that position.
    PrimExpr flat;
    for (std::size_t d = 0; d < out.size(); ++d) {
      if (out[d] != 1) {
        flat = flat.defined() ? flat * call.index(out[d]) + idx[d] : idx[d];
      }
    }
    if (!flat.defined()) {
      flat = call.index(0);
    }
    std::vector<Stmt> seq;
    PrimExpr position = flat;
    if (!flat.is<VarNode>() && !flat.is<IntImmNode>()) {
      const Var k = Var::make("k", call.index_dtype);
      seq.push_back(Bind::make(k, flat));
      position = k;
    }
    std::vector<PrimExpr> at;
    std::int64_t stride = 1;
    std::vector<std::int64_t> strides(in.size());
    for (std::size_t d = in.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= in[d];
    }
    bool outermost = true; // no larger dimension before: no modulo needed
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (in[d] == 1) {
        at.push_back(call.index(0));
        continue;
      }
      PrimExpr e = strides[d] == 1 ? position : position / call.index(strides[d]);
      if (!outermost) {
        e = e % call.index(in[d]);
      }
      outermost = false;
      at.push_back(e);
    }
    seq.push_back(TensorStore::make(call.output, idx, load(call.inputs[0], at)));
    return SeqStmt::make(std::move(seq));
  });
}

inline Stmt lower_concatenate(const LegalizeCall& call) {
  const std::size_t rank = call.output_type->ndim();
  const std::int64_t given = call.attrs.get<std::int64_t>("axis").value_or(0);
  const auto axis =
      static_cast<std::size_t>(given < 0 ? given + static_cast<std::int64_t>(rank) : given);
  std::vector<Stmt> body;
  std::int64_t offset = 0;
  for (std::size_t p = 0; p < call.inputs.size(); ++p) {
    const auto shape = call.input_shape(p);
    append(body, call.loop_nest(shape, "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      std::vector<PrimExpr> at = idx;
      if (offset != 0) {
        at[axis] = idx[axis] + call.index(offset);
      }
      return TensorStore::make(call.output, at, load(call.inputs[p], idx));
    }));
    offset += shape[axis];
  }
  return SeqStmt::make(std::move(body));
}

inline Lowering fill_lowering(double value) {
  return [value](const LegalizeCall& call) -> Stmt {
    const PrimExpr fill = make_const(call.output_type->dtype, value);
    return call.loop_nest(call.output_shape(), "i", [&](const std::vector<PrimExpr>& idx) -> Stmt {
      return TensorStore::make(call.output, idx, fill);
    });
  };
}

inline void add_builtin_lowerings(LegalizeRegistry& registry) {
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

// ---------------------------------------------------------------------------------------
// The pass.

/// `type` as a tensor type whose dimensions are all literals, or null.
inline TensorType static_tensor(const Type& type) {
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
inline std::string function_base_name(std::string_view op) {
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

/// Rewrites one graph-level function, replacing each lowerable call bottom-up.
class LegalizeRewriter : public GraphRewriter<LegalizeRewriter> {
public:
  LegalizeRewriter(Legalizer& legalizer, const GraphTypeInference& types)
      : legalizer_(legalizer), types_(types) {}

  Expr post(const Expr& original, Expr rebuilt) {
    const auto* call = original.as<CallNode>();
    if (call == nullptr || !call->op.is<OpNode>()) {
      return rebuilt;
    }
    std::vector<Type> arg_types;
    for (const Expr& arg : call->args) {
      arg_types.push_back(types_.type_of(arg.get()));
    }
    const auto* now = rebuilt.as<CallNode>();
    Expr lowered =
        legalizer_.lower(*call, now->args, std::move(arg_types), types_.type_of(original.get()));
    return lowered.defined() ? lowered : rebuilt;
  }

private:
  Legalizer& legalizer_;
  const GraphTypeInference& types_;
};

/// The module with every lowerable operator call lowered (see LegalizeOps).
inline IRModule legalize_module(const IRModule& mod) {
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
    const Expr out = LegalizeRewriter(legalizer, types).rewrite(f);
    if (!out.same_as(f)) {
      changed.emplace_back(mod.global_at(i)->name, downcast<FunctionNode>(out));
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

/// `mod` with its lowerable operator calls lowered (see LegalizeOps); `mod` itself when
/// nothing is lowered. Throws NodeError for an ill-typed module.
inline IRModule legalize_ops(const IRModule& mod) { return detail::legalize_module(mod); }

/// Lowers graph-level operator calls to generated tensor-level functions.
///
/// A call `op(args)` of an operator with a lowering (see LegalizeRegistry), whose
/// arguments and result are tensors of literal shape, becomes
/// `call_dps @op(args) -> <result type>`, where `@op` is a generated PrimFunc taking the
/// arguments then the output and computing exactly what the operator's reference kernel
/// computes (eval/kernels.hpp): the same scalar operations, broadcasting, and order of
/// accumulation (float sums and matrix products accumulate in float64 and round once).
///
/// - Lowered: `add subtract multiply divide maximum minimum` (numpy broadcasting,
///   graph-level scalars such as `2f` as rank-0 tensors), `negative relu nn.relu`,
///   `matmul` (batch dimensions broadcast), `transpose` (with or without `axes`),
///   `reshape`, `sum` (some or all axes, `keepdims`), `concatenate` (its tensors given
///   one by one or as one tuple), `zeros ones`; and user operators registered with
///   `LegalizeRegistry::global().add(...)`.
/// - Kept as graph-level calls: operators without a tensor-level equivalent (`exp log
///   sqrt tanh sigmoid`: the tensor-level scalar language has no transcendental
///   functions), operators without a lowering, calls whose argument or result types have
///   symbolic dimensions or are not tensors, and calls a lowering declines.
///
/// Generated functions are named after the operator (`nn.relu` -> `@nn_relu`), made
/// unique in the module by a suffix (`@add_1`); names depend only on the module, so the
/// output is deterministic. A function is never generated twice: calls of one operator
/// with the same attributes and argument types share one, and a lowering structurally
/// equal to a tensor-level function already in the module (from an earlier run, written
/// by hand, or lowered from another operator such as `relu` for `nn.relu`) calls that
/// one. The pass is idempotent and returns the very module it was given when nothing is
/// lowered.
///
/// Types: the pass needs the type of every argument. It requires InferType, and also
/// infers types itself, so a module without `let` annotations is lowered too; an
/// ill-typed module is a NodeError saying so. A lowered call has the type of the call it
/// replaces, so InferType's result stays valid.
struct LegalizeOps : pass_interface<LegalizeOps> {
  using required_passes = pass_list<InferType>;
  static constexpr PassInfo info() {
    return {.name = "LegalizeOps",
            .opt_level = 0,
            .required = {"InferType"},
            .description = "lowers operator calls to generated tensor-level functions"};
  }
  IRModule transform_module(IRModule mod, const PassContext&) const { return legalize_ops(mod); }
};


} // namespace ctir::passes
