// Test support: random well-formed modules (graph-level and tensor-level functions mixed)
// from a fixed seed, for round trips through the text format.
#pragma once

#include <ctir/ir/builder.hpp>
#include <ctir/ir/ir.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ctir::testing {

/// Random modules that the text format can express exactly: every variable is defined
/// before its use, graph-level annotations are the values' real types (the parser
/// checks them), float literals are exact in their dtype, and the only shared
/// graph-level nodes are the non-atomic ones the printer binds to temporaries.
///
/// The same seed gives structurally equal modules. Graph functions compute on a few
/// tensor types with the built-in operators (calls, lets, ifs, tuples, projections,
/// closures, calls of other functions, call_dps into a `prim`, constants, attributes);
/// tensor-level functions have shape variables, loops of every kind, stores, lets,
/// ifs, allocations, nested blocks and every scalar expression form.
class RandomModuleGenerator {
public:
  /// What a generated module may do beyond the defaults.
  struct Options {
    /// Every tensor index is reduced into [0, 4) (`%i % 4`, through a cast to int32 when
    /// the index is of another dtype), so that the tensor-level functions run on inputs of
    /// eval::random_inputs (every shape variable 4) without going out of bounds.
    bool in_bounds = false;
    /// Closure parameters are always annotated and calls of other functions of the module
    /// pass one argument of the right type per parameter, so that InferType accepts the
    /// module.
    bool well_typed = false;
  };

  explicit RandomModuleGenerator(std::uint64_t seed) : rng_(seed) {}
  RandomModuleGenerator(std::uint64_t seed, Options options) : rng_(seed), options_(options) {}

  /// A module of one to five functions, `depth` bounding the nesting of expressions.
  IRModule module(int depth = 4) {
    depth_ = depth;
    IRModule result;
    // A kernel for call_dps, sometimes defined after its callers.
    const bool kernel_first = chance(0.5);
    if (kernel_first) {
      result.add("kernel", kernel());
    }
    const int graph_count = 1 + pick(3);
    helpers_.clear();
    signatures_.clear();
    for (int k = 0; k < graph_count; ++k) {
      const std::string name = "f" + std::to_string(k);
      result.add(name, graph_function(name));
      helpers_.push_back(name);
    }
    if (!kernel_first) {
      result.add("kernel", kernel());
    }
    if (chance(0.6)) {
      result.add("prim" + std::to_string(pick(10)), prim_function());
    }
    return result;
  }

private:
  // ---- randomness -------------------------------------------------------------------

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  std::string name() {
    static const char* const names[] = {"x", "y", "a", "b", "t", "v", "x_1", "w", "a.b", "0"};
    return names[pick(10)];
  }

  static DataType f32() { return DataType::float32(); }
  static DataType i32() { return DataType::int32(); }

  // ---- graph level --------------------------------------------------------------------

  /// A value in scope: an expression and its type.
  struct Value {
    Expr expr;
    Type type;
    bool shareable; ///< non-atomic: may be used again (the printer binds a temporary)
  };

  /// The tensor types graph code computes on.
  TensorType graph_type() {
    switch (pick(3)) {
    case 0:
      return tensor_type({2, 3}, f32());
    case 1:
      return tensor_type({4}, f32());
    default:
      return tensor_type({}, f32());
    }
  }

  static bool same_type(const Type& a, const Type& b) {
    const auto* x = a.as<TensorTypeNode>();
    const auto* y = b.as<TensorTypeNode>();
    if (x == nullptr || y == nullptr || x->dtype != y->dtype || x->ndim() != y->ndim()) {
      return false;
    }
    for (std::size_t i = 0; i < x->ndim(); ++i) {
      const auto* dx = x->shape[i].as<IntImmNode>();
      const auto* dy = y->shape[i].as<IntImmNode>();
      if (dx == nullptr || dy == nullptr ? !x->shape[i].same_as(y->shape[i])
                                         : dx->value != dy->value) {
        return false;
      }
    }
    return true;
  }

  /// Values of type `type` in scope.
  std::vector<Value> candidates(const Type& type) const {
    std::vector<Value> found;
    for (const std::vector<Value>& scope : scopes_) {
      for (const Value& value : scope) {
        if (same_type(value.type, type)) {
          found.push_back(value);
        }
      }
    }
    return found;
  }

  void remember(const Expr& expr, const Type& type, bool shareable) {
    scopes_.back().push_back({expr, type, shareable});
  }

  /// A variable of `type` (annotated or not) in the current scope.
  Var bind(const Type& type, bool annotate) {
    Var var = Var::make(name(), annotate ? type : Type());
    remember(var, type, false);
    return var;
  }

  /// A graph-level expression of tensor type `type`.
  Expr expr(const TensorType& type, int depth) {
    if (depth <= 0 || chance(0.2)) {
      return leaf(type);
    }
    const int kind = pick(13);
    Expr result;
    switch (kind) {
    case 0: { // share a non-atomic value
      std::vector<Value> found = candidates(type);
      std::vector<Value> shareable;
      for (const Value& value : found) {
        if (value.shareable) {
          shareable.push_back(value);
        }
      }
      if (!shareable.empty()) {
        return shareable[static_cast<std::size_t>(pick(static_cast<int>(shareable.size())))].expr;
      }
      result = call("exp", {expr(type, depth - 1)});
      break;
    }
    case 1: {
      static const char* const unary[] = {"exp", "negative", "relu", "nn.relu", "tanh", "sigmoid"};
      result = call(unary[pick(6)], {expr(type, depth - 1)});
      break;
    }
    case 2: {
      static const char* const binary[] = {"add",    "subtract", "multiply",
                                           "divide", "maximum",  "minimum"};
      Expr rhs = chance(0.3) ? Expr(FloatImm::make(pick(16) / 4.0)) : expr(type, depth - 1);
      result = call(binary[pick(6)], {expr(type, depth - 1), rhs});
      break;
    }
    case 3: { // a let, annotated or not
      const bool annotate = chance(0.5);
      Expr value = expr(type, depth - 1);
      scopes_.emplace_back();
      Var var = bind(type, annotate);
      Expr body = expr(type, depth - 1);
      scopes_.pop_back();
      result = Let::make(var, value, body);
      break;
    }
    case 4: { // an if on a bool parameter or literal
      Expr cond = cond_ ? Expr(cond_) : Expr(IntImm::make(1, DataType::boolean()));
      result = If::make(cond, scoped_expr(type, depth - 1), scoped_expr(type, depth - 1));
      break;
    }
    case 5: { // a projection of a tuple built here
      TensorType other = graph_type();
      if (chance(0.5)) {
        result =
            TupleGetItem::make(Tuple::make({expr(type, depth - 1), expr(other, depth - 1)}), 0);
      } else {
        result =
            TupleGetItem::make(Tuple::make({expr(other, depth - 1), expr(type, depth - 1)}), 1);
      }
      break;
    }
    case 6: { // a projection of a tuple-typed let variable (an atom: not shared)
      Expr tuple = Tuple::make({expr(type, depth - 1)});
      scopes_.emplace_back();
      Var var = Var::make(name(), chance(0.5) ? Type(TupleType::make({type})) : Type());
      Expr body = call("add", {TupleGetItem::make(var, 0), expr(type, depth - 1)});
      scopes_.pop_back();
      result = Let::make(var, tuple, body);
      break;
    }
    case 7: { // a closure bound by a let and called
      scopes_.emplace_back();
      Var param = bind(type, true);
      Expr body = expr(type, depth - 1);
      scopes_.pop_back();
      Function closure = Function::make({param}, body, chance(0.5) ? Type(type) : Type());
      Var f = Var::make(name());
      scopes_.emplace_back();
      Expr use = Call::make(f, {expr(type, depth - 1)});
      scopes_.pop_back();
      result = Let::make(f, closure, use);
      break;
    }
    case 8: { // a closure called directly
      scopes_.emplace_back();
      Var param = bind(type, chance(0.7) || options_.well_typed);
      Expr body = expr(type, depth - 1);
      scopes_.pop_back();
      result = Call::make(Function::make({param}, body), {expr(type, depth - 1)});
      break;
    }
    case 9: // another function of the module
      if (options_.well_typed) {
        result = typed_helper_call(type, depth);
        break;
      }
      if (!helpers_.empty() && same_type(type, helper_type_)) {
        result = Call::make(
            GlobalVar::make(
                helpers_[static_cast<std::size_t>(pick(static_cast<int>(helpers_.size())))]),
            {expr(type, depth - 1)});
      } else {
        result = call("sqrt", {expr(type, depth - 1)});
      }
      break;
    case 10: // call_dps into the kernel (over 4 elements)
      if (same_type(type, tensor_type({4}, f32()))) {
        result = CallDps::make(GlobalVar::make("kernel"), {expr(type, depth - 1)}, type);
      } else {
        result = call("negative", {expr(type, depth - 1)});
      }
      break;
    case 11: { // attributes
      std::vector<std::int64_t> shape;
      for (const PrimExpr& dim : type->shape) {
        shape.push_back(dim.as<IntImmNode>()->value);
      }
      result = call("reshape", {expr(type, depth - 1)}, Attrs{{"newshape", shape}});
      break;
    }
    default: // a block-valued let used as an operand
    {
      scopes_.emplace_back();
      Expr value = expr(type, depth - 1);
      Var var = bind(type, chance(0.3));
      Expr body = call("log", {var});
      scopes_.pop_back();
      result = call("add", {Let::make(var, value, body), expr(type, depth - 1)});
      break;
    }
    }
    remember(result, type, true);
    return result;
  }

  /// A call of an earlier function of the module returning `type`, one argument of the
  /// right type per parameter; `sqrt` of a value when there is none.
  Expr typed_helper_call(const TensorType& type, int depth) {
    std::vector<const Signature*> found;
    for (const Signature& signature : signatures_) {
      // A bool parameter gets this function's bool parameter, so that the condition
      // varies with the inputs: a function without one calls no function with one.
      const bool needs_cond = std::any_of(signature.params.begin(), signature.params.end(),
                                          [](const Type& t) { return !t.is<TensorTypeNode>(); });
      if (same_type(signature.result, type) && (cond_ || !needs_cond)) {
        found.push_back(&signature);
      }
    }
    if (found.empty()) {
      return call("sqrt", {expr(type, depth - 1)});
    }
    const Signature& callee =
        *found[static_cast<std::size_t>(pick(static_cast<int>(found.size())))];
    std::vector<Expr> args;
    for (const Type& param : callee.params) {
      const auto* tensor = param.as<TensorTypeNode>();
      if (tensor == nullptr) { // the bool condition
        args.push_back(cond_);
      } else if (tensor->shape.size() == 1 && tensor->shape[0].as<IntImmNode>() == nullptr) {
        args.push_back(expr(tensor_type({4}, f32()), depth - 1)); // Tensor[(%n), float32]
      } else {
        args.push_back(expr(downcast<TensorTypeNode>(param), depth - 1));
      }
    }
    return Call::make(GlobalVar::make(callee.name), std::move(args));
  }

  /// An expression in a scope of its own (an if branch): values made there stay there.
  Expr scoped_expr(const TensorType& type, int depth) {
    scopes_.emplace_back();
    Expr result = expr(type, depth);
    scopes_.pop_back();
    return result;
  }

  /// A variable, a constant or a literal of type `type`.
  Expr leaf(const TensorType& type) {
    std::vector<Value> found = candidates(type);
    if (!found.empty() && chance(0.8)) {
      return found[static_cast<std::size_t>(pick(static_cast<int>(found.size())))].expr;
    }
    std::vector<std::int64_t> shape;
    for (const PrimExpr& dim : type->shape) {
      shape.push_back(dim.as<IntImmNode>()->value);
    }
    TensorData data(type->dtype, shape);
    for (std::size_t i = 0; i < data.size(); ++i) {
      data.set(i, static_cast<double>(pick(33) - 16) / 8.0);
    }
    return Constant::make(std::move(data));
  }

  Function graph_function(const std::string& function_name) {
    scopes_.assign(1, {});
    TensorType type = graph_type();
    if (function_name == "f0") {
      helper_type_ = type; // later functions may call the first ones of this type
    }
    std::vector<Var> params;
    for (int k = 1 + pick(2); k-- > 0;) {
      params.push_back(bind(type, true));
    }
    cond_ = Var();
    if (chance(0.5)) {
      cond_ = Var::make("c", DataType::boolean());
      params.push_back(cond_);
    }
    // A parameter whose type has a symbolic dimension, defined by that type.
    if (chance(0.3)) {
      Var n = Var::make("n", i32());
      params.push_back(Var::make(name(), TensorType::make({n}, f32())));
    }
    // Two operands, so that even a shallow function computes something and can share.
    Expr body = call(chance(0.5) ? "add" : "multiply", {expr(type, depth_), expr(type, depth_)});
    Attrs attrs;
    if (chance(0.2)) {
      attrs.set("SkipOptimization", chance(0.5));
    }
    std::vector<Type> param_types;
    for (const Var& param : params) {
      param_types.push_back(param->ty);
    }
    signatures_.push_back({function_name, std::move(param_types), type});
    return Function::make(params, body, chance(0.6) ? Type(type) : Type(), attrs, function_name);
  }

  // ---- tensor level -------------------------------------------------------------------

  /// `prim @kernel[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32])`, the
  /// call_dps target.
  PrimFunc kernel() {
    Var n = Var::make("n", i32());
    Var A = Var::make("A", TensorType::make({n}, f32()));
    Var B = Var::make("B", TensorType::make({n}, f32()));
    Var i = Var::make("i", i32());
    return PrimFunc::make("kernel", {A, B},
                          For::make(i, 0, n,
                                    TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + 1.0f),
                                    static_cast<ForKind>(pick(4))));
  }

  PrimFunc prim_function() {
    scalars_.clear();
    tensors_.clear();
    Var n = Var::make("n", i32());
    Var m = Var::make("m", DataType::int64());
    std::vector<Var> params;
    params.push_back(Var::make(name(), TensorType::make({n}, f32())));
    tensors_.push_back({params.back(), 1});
    if (chance(0.5)) {
      params.push_back(Var::make(name(), TensorType::make({m, n}, f32())));
      tensors_.push_back({params.back(), 2});
    }
    if (chance(0.5)) {
      params.push_back(Var::make(name(), tensor_type({4}, DataType::int32())));
      tensors_.push_back({params.back(), 1});
    }
    if (chance(0.3)) {
      params.push_back(n); // a parameter that is also a shape variable
    }
    params.push_back(Var::make(name(), DataType::float32()));
    scalars_.push_back(params.back());
    scalars_.push_back(n);
    if (params.size() > 2 && params[1]->ty.as<TensorTypeNode>() != nullptr &&
        params[1]->ty.as<TensorTypeNode>()->ndim() == 2) {
      scalars_.push_back(m);
    }
    std::vector<Stmt> body = block(depth_);
    Attrs attrs;
    if (chance(0.3)) {
      attrs.set("tir.noalias", true).set("global_symbol", std::string("kernel \"x\"\n"));
    }
    return PrimFunc::make("p", params, SeqStmt::make(std::move(body)), attrs);
  }

  std::vector<Stmt> block(int depth) {
    const std::size_t scalars = scalars_.size();
    const std::size_t tensors = tensors_.size();
    std::vector<Stmt> seq;
    for (int k = 1 + pick(3); k-- > 0;) {
      seq.push_back(stmt(depth));
    }
    scalars_.resize(scalars);
    tensors_.resize(tensors);
    return seq;
  }

  Stmt stmt(int depth) {
    const int kind = depth <= 0 ? pick(3) : pick(7);
    switch (kind) {
    case 0: { // a store
      const auto& [tensor, rank] =
          tensors_[static_cast<std::size_t>(pick(static_cast<int>(tensors_.size())))];
      std::vector<PrimExpr> indices;
      for (int d = 0; d < rank; ++d) {
        indices.push_back(index(prim(2)));
      }
      return TensorStore::make(tensor, std::move(indices), prim(3));
    }
    case 1: { // a let, its variable of the value's dtype or another
      PrimExpr value = prim(3);
      const DataType dtype = chance(0.7) ? dtype_of(value) : scalar_dtype();
      Var var = Var::make(name(), dtype);
      scalars_.push_back(var);
      return Bind::make(var, value);
    }
    case 2: { // an allocation
      Var buffer =
          Var::make(name(), chance(0.5) ? Type(tensor_type({16}, f32()))
                                        : Type(TensorType::make({scalars_[1] * 2}, f32())));
      tensors_.push_back({buffer, 1});
      return Allocate::make(buffer);
    }
    case 3:
    case 4: { // a loop
      Var var = Var::make(name(), i32());
      PrimExpr begin = IntImm::make(pick(3));
      PrimExpr end = chance(0.5) ? PrimExpr(scalars_[1]) : PrimExpr(IntImm::make(4 + pick(8)));
      scalars_.push_back(var);
      std::vector<Stmt> body = block(depth - 1);
      scalars_.pop_back();
      return For::make(var, begin, end, SeqStmt::make(std::move(body)),
                       static_cast<ForKind>(pick(4)));
    }
    case 5: { // an if, with or without else
      PrimExpr cond = lt(prim(2), prim(2));
      Stmt then_case = SeqStmt::make(block(depth - 1));
      Stmt else_case = chance(0.5) ? Stmt(SeqStmt::make(block(depth - 1))) : Stmt();
      return IfThenElse::make(cond, then_case, else_case);
    }
    default: // a nested block
      return SeqStmt::make(block(depth - 1));
    }
  }

  DataType scalar_dtype() {
    static const DataType dtypes[] = {DataType::int32(),   DataType::int64(),   DataType::float32(),
                                      DataType::float64(), DataType::boolean(), DataType::int8(),
                                      DataType::uint8(),   DataType::float16(), DataType::int16()};
    return dtypes[pick(9)];
  }

  PrimExpr literal() {
    switch (pick(8)) {
    case 0:
      return IntImm::make(pick(200) - 100);
    case 1:
      return IntImm::make(static_cast<std::int64_t>(pick(1000)) * 1000003, DataType::int64());
    case 2:
      return FloatImm::make(static_cast<double>(pick(64) - 32) / 8.0);
    case 3:
      return FloatImm::make(static_cast<double>(pick(1000)) / 1024.0, DataType::float64());
    case 4:
      return IntImm::make(pick(2), DataType::boolean());
    case 5:
      return IntImm::make(pick(256), DataType::uint8());
    case 6:
      return FloatImm::make(static_cast<double>(pick(16)) / 4.0, DataType::float16());
    default:
      return IntImm::make(pick(100) - 50, DataType::int8());
    }
  }

  /// `e` as a tensor index: itself, or within [0, 4) when the indices stay in bounds.
  PrimExpr index(PrimExpr e) const {
    if (!options_.in_bounds) {
      return e;
    }
    if (dtype_of(e) != DataType::int32()) {
      e = cast(DataType::int32(), std::move(e));
    }
    return std::move(e) % PrimExpr(IntImm::make(4));
  }

  /// `e` as a bool: itself if it is one, else `e != 0`.
  static PrimExpr truth(PrimExpr e) {
    const DataType dtype = dtype_of(e);
    return dtype.is_bool() ? e : ne(e, make_const(dtype, 0));
  }

  /// A tensor-level expression over the scalars and tensors in scope.
  PrimExpr prim(int depth) {
    if (depth <= 0 || chance(0.25)) {
      if (chance(0.5)) {
        return scalars_[static_cast<std::size_t>(pick(static_cast<int>(scalars_.size())))];
      }
      return literal();
    }
    switch (pick(12)) {
    case 0:
      return prim(depth - 1) + prim(depth - 1);
    case 1:
      return prim(depth - 1) - prim(depth - 1);
    case 2:
      return prim(depth - 1) * prim(depth - 1);
    case 3:
      return chance(0.5) ? prim(depth - 1) / prim(depth - 1) : prim(depth - 1) % prim(depth - 1);
    case 4: {
      switch (pick(6)) {
      case 0:
        return lt(prim(depth - 1), prim(depth - 1));
      case 1:
        return le(prim(depth - 1), prim(depth - 1));
      case 2:
        return gt(prim(depth - 1), prim(depth - 1));
      case 3:
        return ge(prim(depth - 1), prim(depth - 1));
      case 4:
        return eq(prim(depth - 1), prim(depth - 1));
      default:
        return ne(prim(depth - 1), prim(depth - 1));
      }
    }
    case 5: // `&&` and `||` take bools: other operands are compared with zero
      return chance(0.5) ? logical_and(truth(prim(depth - 1)), truth(prim(depth - 1)))
                         : logical_or(truth(prim(depth - 1)), truth(prim(depth - 1)));
    case 6: { // `-` takes numbers: a bool is negated with `!`, which takes bools
      if (chance(0.5)) {
        PrimExpr a = prim(depth - 1);
        return dtype_of(a).is_bool() ? logical_not(std::move(a)) : PrimExpr(Neg::make(a));
      }
      return logical_not(truth(prim(depth - 1)));
    }
    case 7:
      return chance(0.5) ? min(prim(depth - 1), prim(depth - 1))
                         : max(prim(depth - 1), prim(depth - 1));
    case 8:
      return select(truth(prim(depth - 1)), prim(depth - 1), prim(depth - 1));
    case 9:
      return cast(scalar_dtype(), prim(depth - 1));
    default: { // a load
      const auto& [tensor, rank] =
          tensors_[static_cast<std::size_t>(pick(static_cast<int>(tensors_.size())))];
      std::vector<PrimExpr> indices;
      for (int d = 0; d < rank; ++d) {
        indices.push_back(index(prim(depth - 1)));
      }
      return TensorLoad::make(tensor, std::move(indices));
    }
    }
  }

  std::mt19937_64 rng_;
  Options options_;
  int depth_ = 4;
  std::vector<std::vector<Value>> scopes_;
  std::vector<std::string> helpers_;
  /// The graph functions made so far: name, parameter types, result type.
  struct Signature {
    std::string name;
    std::vector<Type> params;
    TensorType result;
  };
  std::vector<Signature> signatures_;
  TensorType helper_type_;
  Var cond_;
  std::vector<Var> scalars_; ///< [0] a float parameter, [1] the shape variable n
  std::vector<std::pair<Var, int>> tensors_;
};

} // namespace ctir::testing
