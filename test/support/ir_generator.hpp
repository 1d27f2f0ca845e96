// Test support: random IR of every node type, plug-in node types, and rebuilding helpers.
#pragma once

#include <ctir/ctir.hpp>
#include <ctir/traverse/detail/equal_support.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::testing {

/// Seed 003's add_one with `B[i] = A[i] + c`: a fresh program (fresh variables) per call.
inline PrimFunc make_add(float c) {
  auto n = Var::make("n", DataType::int32());
  auto A = Var::make("A", TensorType::make({n}, DataType::float32()));
  auto B = Var::make("B", TensorType::make({n}, DataType::float32()));
  auto i = Var::make("i", DataType::int32());
  return PrimFunc::make(
      "add_one", {A, B},
      For::make(i, 0, n, TensorStore::make(B, {i}, TensorLoad::make(A, {i}) + c)));
}

// ---------------------------------------------------------------------------
// Plug-in node types: registered at run time, known to the runtime layer only
// ---------------------------------------------------------------------------

/// The objects of every node type registered with register_dynamic_type: fields live in
/// slots (one per declared field, by kind), reached through the runtime field table.
struct DynamicNode : Object {
  std::vector<ObjectRef> nodes;
  std::vector<std::vector<ObjectRef>> arrays;
  std::vector<std::int64_t> values;
  std::string name; ///< the name hint, for variable types
};

/// One field of a plug-in node type.
struct DynamicField {
  std::string name;
  FieldKind kind = FieldKind::node;
  DefRegionKind def_kind = DefRegionKind::none;
  std::uint32_t flags = 0;
};

namespace detail {
inline const DynamicNode& dyn(const Object& object) {
  return static_cast<const DynamicNode&>(object);
}
inline DynamicNode& dyn(Object& object) { return static_cast<DynamicNode&>(object); }
} // namespace detail

/// Registers (once per key) a node type known only at run time, deriving from the type
/// named `parent_key`. Node fields hold any node; value fields hold an int64.
inline const TypeInfo& register_dynamic_type(const std::string& key, const std::string& parent_key,
                                             const std::vector<DynamicField>& fields,
                                             bool is_variable = false) {
  register_ir_types(); // the parents and element types named by key
  static std::mutex mutex;
  static std::map<std::string, const TypeInfo*> registered;
  std::lock_guard lock(mutex);
  if (auto it = registered.find(key); it != registered.end()) {
    return *it->second;
  }
  RuntimeTypeSpec spec;
  spec.key = key;
  spec.parent_key = parent_key;
  spec.is_variable = is_variable;
  std::uint32_t node_slots = 0;
  std::uint32_t array_slots = 0;
  std::uint32_t value_slots = 0;
  for (const DynamicField& field : fields) {
    FieldInfo info;
    info.name = field.name; // copied by the registry
    info.kind = field.kind;
    info.def_kind = field.def_kind;
    info.flags = field.flags;
    info.element_type_index = Object::type_index;
    if (field.kind == FieldKind::node) {
      info.slot = node_slots++;
      info.get = [](const Object& o, const FieldInfo& f) -> const Object* {
        return detail::dyn(o).nodes[f.slot].get();
      };
      info.set = [](Object& o, const FieldInfo& f, ObjectRef v) {
        detail::dyn(o).nodes[f.slot] = std::move(v);
      };
    } else if (field.kind == FieldKind::node_array) {
      info.slot = array_slots++;
      info.size = [](const Object& o, const FieldInfo& f) {
        return detail::dyn(o).arrays[f.slot].size();
      };
      info.at = [](const Object& o, const FieldInfo& f, std::size_t i) -> const Object* {
        return detail::dyn(o).arrays[f.slot][i].get();
      };
      info.set_at = [](Object& o, const FieldInfo& f, std::size_t i, ObjectRef v) {
        detail::dyn(o).arrays[f.slot][i] = std::move(v);
      };
    } else {
      info.slot = value_slots++;
      info.equal = [](const Object& a, const Object& b, const FieldInfo& f) {
        return detail::dyn(a).values[f.slot] == detail::dyn(b).values[f.slot];
      };
      info.hash = [](const Object& a, const FieldInfo& f) {
        return value_traits<std::int64_t>::hash(detail::dyn(a).values[f.slot]);
      };
      info.print = [](const Object& a, const FieldInfo& f, std::string& out) {
        out += std::to_string(detail::dyn(a).values[f.slot]);
      };
      info.is_default = [](const Object& a, const FieldInfo& f) {
        return detail::dyn(a).values[f.slot] == 0;
      };
    }
    spec.own_fields.push_back(info);
  }
  spec.destroy = [](Object* o) noexcept { delete static_cast<DynamicNode*>(o); };
  spec.clone = [](const Object& o) -> Object* { return new DynamicNode(detail::dyn(o)); };
  if (is_variable) {
    spec.variable_name = [](const Object& o) -> std::string_view { return detail::dyn(o).name; };
  }
  const TypeInfo& info = TypeRegistry::global().add_runtime_type(std::move(spec));
  registered.emplace(key, &info);
  return info;
}

/// A new object of a plug-in type; slots by kind, in field order.
inline ObjectRef make_dynamic(const TypeInfo& type, std::vector<ObjectRef> nodes,
                              std::vector<std::vector<ObjectRef>> arrays = {},
                              std::vector<std::int64_t> values = {}, std::string name = {}) {
  auto* node = new DynamicNode();
  node->nodes = std::move(nodes);
  node->arrays = std::move(arrays);
  node->values = std::move(values);
  node->name = std::move(name);
  ctir::detail::object_access::stamp(*node, &type);
  return ObjectRef::adopt_new(node);
}

/// A plug-in node type with node fields `first` and `second`, whose type index hashes to the
/// dispatch slot of a compiled IR node type in the static layer's structural equality and
/// hashing of ObjectRef roots: their table sends it to that type's entry, which must notice.
inline const TypeInfo& slot_twin_type() {
  namespace structural = ctir::detail::structural;
  using EqualSlots = structural::slot_table<structural::equal_universe_t<ObjectRef, ObjectRef>>;
  using HashSlots =
      structural::slot_table<structural::static_universe_t<structural::root_node_t<ObjectRef>>>;
  static_assert(EqualSlots::hash.found && HashSlots::hash.found);
  auto taken = [](auto slots, std::uint32_t index) {
    using Slots = decltype(slots);
    return Slots::position[structural::slot_of(index, Slots::hash)] >= 0;
  };
  for (int k = 0;; ++k) {
    const std::string key = "test.SlotTwin" + std::to_string(k);
    const std::uint32_t index = type_index_of_key(key);
    if (taken(EqualSlots{}, index) && taken(HashSlots{}, index)) {
      return register_dynamic_type(key, "Object",
                                   {{"first", FieldKind::node}, {"second", FieldKind::node}});
    }
  }
}

/// A family of plug-in node types for runtime-layer tests, registered once per process:
///  - `test.structural.Var`: a variable type (field `ty`, any node);
///  - `test.structural.Pair`: fields `first`, `second` (nodes), `tag` (int64), `note` (int64,
///  ignored);
///  - `test.structural.Let`: `var` (a def_simple site), `value`, `body`;
///  - `test.structural.Lambda` (under ir.Expr, so a graph-level node): `params` (a def_pattern
///  array),
///    `body`.
struct PluginTypes {
  const TypeInfo& var;
  const TypeInfo& pair;
  const TypeInfo& let;
  const TypeInfo& lambda;
};

inline const PluginTypes& plugin_types() {
  static const PluginTypes types{
      register_dynamic_type("test.structural.Var", "Object", {{"ty", FieldKind::node}}, true),
      register_dynamic_type("test.structural.Pair", "Object",
                            {{"first", FieldKind::node},
                             {"second", FieldKind::node},
                             {"tag", FieldKind::value},
                             {"note", FieldKind::value, DefRegionKind::none, field_flags::ignore}}),
      register_dynamic_type("test.structural.Let", "Object",
                            {{"var", FieldKind::node, DefRegionKind::def_simple},
                             {"value", FieldKind::node},
                             {"body", FieldKind::node}}),
      register_dynamic_type("test.structural.Lambda", "ir.Expr",
                            {{"params", FieldKind::node_array, DefRegionKind::def_pattern},
                             {"body", FieldKind::node}}),
  };
  return types;
}

inline ObjectRef plugin_var(std::string name, ObjectRef ty = {}) {
  return make_dynamic(plugin_types().var, {std::move(ty)}, {}, {}, std::move(name));
}
inline ObjectRef plugin_pair(ObjectRef first, ObjectRef second, std::int64_t tag = 0,
                             std::int64_t note = 0) {
  return make_dynamic(plugin_types().pair, {std::move(first), std::move(second)}, {}, {tag, note});
}
inline ObjectRef plugin_let(ObjectRef var, ObjectRef value, ObjectRef body) {
  return make_dynamic(plugin_types().let, {std::move(var), std::move(value), std::move(body)});
}
inline ObjectRef plugin_lambda(std::vector<ObjectRef> params, ObjectRef body) {
  return make_dynamic(plugin_types().lambda, {std::move(body)}, {std::move(params)});
}

/// `test.structural.Wide`: more fields than a cached field plan holds (node fields `n0`..`n7`,
/// arrays `a0`..`a3`, int64 values `v0`..`v5`), so that the runtime layer reads it through a
/// plan rebuilt at each use.
inline const TypeInfo& plugin_wide_type() {
  static const TypeInfo& type = []() -> const TypeInfo& {
    std::vector<DynamicField> fields;
    for (int k = 0; k < 8; ++k) {
      fields.push_back({"n" + std::to_string(k), FieldKind::node});
      if (k < 4) {
        fields.push_back({"a" + std::to_string(k), FieldKind::node_array});
      }
      if (k < 6) {
        fields.push_back({"v" + std::to_string(k), FieldKind::value});
      }
    }
    return register_dynamic_type("test.structural.Wide", "Object", fields);
  }();
  return type;
}

/// A `test.structural.Wide` node: 8 nodes, 4 arrays, 6 values (missing ones are null or 0).
inline ObjectRef plugin_wide(std::vector<ObjectRef> nodes,
                             std::vector<std::vector<ObjectRef>> arrays,
                             std::vector<std::int64_t> values) {
  nodes.resize(8);
  arrays.resize(4);
  values.resize(6);
  return make_dynamic(plugin_wide_type(), std::move(nodes), std::move(arrays), std::move(values));
}

/// Random, mostly well-formed IR from a fixed seed: the same seed gives structurally
/// equal programs (with distinct objects), with every compiler (no random draw depends
/// on the evaluation order of function arguments). Variables are defined before use where a
/// scope exists and otherwise taken from a small pool of free variables shared by all
/// programs of one generator; graph-level expressions are sometimes reused within their
/// scope, so that programs contain shared DAG nodes, and scalar expressions too.
class IrGenerator {
public:
  explicit IrGenerator(std::uint64_t seed) : rng_(seed) {
    free_scalars_ = {Var::make("x", DataType::int32()), Var::make("y", DataType::int32()),
                     Var::make("z", DataType::int64())};
    free_tensors_ = {Var::make("F", tensor_type({4}, DataType::float32())),
                     Var::make("G", tensor_type({2, 3}, DataType::float32()))};
    free_graph_ = {Var::make("g", tensor_type({4}, DataType::float32())), Var::make("h")};
  }

  /// A random node of the concrete type T, `depth` levels deep at most.
  template <class T>
  Ref<T> make(int depth = 3) {
    static_assert(concrete_node<T>, "IrGenerator::make<T>: T must be a concrete IR node type");
    if constexpr (std::is_same_v<T, PrimTypeNode>) {
      return PrimType::make(scalar_dtype());
    } else if constexpr (std::is_same_v<T, TensorTypeNode>) {
      return tensor_type_node(depth);
    } else if constexpr (std::is_same_v<T, TupleTypeNode>) {
      std::vector<Type> fields;
      for (int k = pick(3); k-- > 0;) {
        fields.push_back(type(depth - 1));
      }
      return TupleType::make(std::move(fields));
    } else if constexpr (std::is_same_v<T, FuncTypeNode>) {
      std::vector<Type> params;
      for (int k = pick(3); k-- > 0;) {
        params.push_back(type(depth - 1));
      }
      return FuncType::make(std::move(params), type(depth - 1));
    } else if constexpr (std::is_same_v<T, VarNode>) {
      return chance(0.5) ? scalar_use() : tensor_use();
    } else if constexpr (std::is_same_v<T, IntImmNode>) {
      const std::int64_t value = pick(100);
      return IntImm::make(value, chance(0.8) ? DataType::int32() : DataType::int64());
    } else if constexpr (std::is_same_v<T, FloatImmNode>) {
      const double value = static_cast<double>(pick(1000)) / 8.0;
      return FloatImm::make(value, chance(0.8) ? DataType::float32() : DataType::float64());
    } else if constexpr (requires { T::is_comparison; }) { // a BinaryNode
      PrimExpr a = prim_expr(depth - 1);
      return T::ref_methods::make(a, prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, NotNode>) {
      return Not::make(prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, NegNode>) {
      return Neg::make(prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, SelectNode>) {
      PrimExpr cond = prim_expr(depth - 1);
      PrimExpr true_value = prim_expr(depth - 1);
      return Select::make(cond, true_value, prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, CastNode>) {
      const DataType dtype = scalar_dtype();
      return Cast::make(dtype, prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, TensorLoadNode>) {
      std::vector<PrimExpr> indices;
      for (int k = 1 + pick(2); k-- > 0;) {
        indices.push_back(prim_expr(depth - 1));
      }
      return TensorLoad::make(tensor_use(), std::move(indices));
    } else if constexpr (std::is_same_v<T, GlobalVarNode>) {
      return GlobalVar::make(chance(0.5) ? "main" : "helper");
    } else if constexpr (std::is_same_v<T, OpNode>) {
      static const char* const names[] = {"add", "multiply", "nn.relu", "concat"};
      return Op::make(names[pick(4)]);
    } else if constexpr (std::is_same_v<T, ConstantNode>) {
      std::vector<double> values;
      const int count = 1 + pick(3);
      for (int k = 0; k < count; ++k) {
        values.push_back(static_cast<double>(pick(16)) / 4.0);
      }
      return Constant::make(TensorData::from_doubles(DataType::float32(), {count}, values));
    } else if constexpr (std::is_same_v<T, CallNode>) {
      std::vector<Expr> args;
      for (int k = 1 + pick(2); k-- > 0;) {
        args.push_back(graph_expr(depth - 1));
      }
      Attrs attrs;
      if (chance(0.3)) {
        attrs.set("axis", std::int64_t{pick(3)});
      }
      Expr op = chance(0.85) ? Expr(make<OpNode>(0)) : Expr(make<GlobalVarNode>(0));
      return Call::make(std::move(op), std::move(args), std::move(attrs));
    } else if constexpr (std::is_same_v<T, TupleNode>) {
      std::vector<Expr> fields;
      for (int k = pick(3); k-- > 0;) {
        fields.push_back(graph_expr(depth - 1));
      }
      return Tuple::make(std::move(fields));
    } else if constexpr (std::is_same_v<T, TupleGetItemNode>) {
      Expr tuple = graph_expr(depth - 1);
      return TupleGetItem::make(tuple, pick(3));
    } else if constexpr (std::is_same_v<T, LetNode>) {
      Var var = Var::make("v" + std::to_string(counter_++),
                          chance(0.5) ? Type(tensor_type_node(1)) : Type());
      Expr value = graph_expr(depth - 1);
      Scope scope(*this);
      graph_scope_.push_back(var);
      Expr body = graph_expr(depth - 1);
      return Let::make(var, value, body);
    } else if constexpr (std::is_same_v<T, IfNode>) {
      Expr cond = graph_expr(depth - 1);
      Expr then_branch = graph_expr(depth - 1);
      return If::make(cond, then_branch, graph_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, CallDpsNode>) {
      std::vector<Expr> args;
      for (int k = 1 + pick(2); k-- > 0;) {
        args.push_back(graph_expr(depth - 1));
      }
      GlobalVar func = make<GlobalVarNode>(0);
      return CallDps::make(func, std::move(args), tensor_type_node(1));
    } else if constexpr (std::is_same_v<T, FunctionNode>) {
      Scope scope(*this);
      std::vector<Var> params = pattern_params(/*graph=*/true);
      Expr body = graph_expr(depth - 1);
      Type ret = chance(0.5) ? Type(tensor_type_node(1)) : Type();
      Attrs attrs;
      if (chance(0.2)) {
        attrs.set("SkipOptimization", true);
      }
      return Function::make(std::move(params), body, ret, attrs, "fn");
    } else if constexpr (std::is_same_v<T, PrimFuncNode>) {
      Scope scope(*this);
      std::vector<Var> params = pattern_params(/*graph=*/false);
      SeqStmt body = block(depth - 1);
      return PrimFunc::make("prim", std::move(params), body);
    } else if constexpr (std::is_same_v<T, SeqStmtNode>) {
      return block(depth);
    } else if constexpr (std::is_same_v<T, ForNode>) {
      Var i = Var::make("i" + std::to_string(counter_++), DataType::int32());
      PrimExpr begin = prim_expr(depth - 1);
      PrimExpr end = prim_expr(depth - 1);
      Scope scope(*this);
      scalar_scope_.push_back(i);
      SeqStmt body = block(depth - 1);
      static constexpr ForKind kinds[] = {ForKind::serial, ForKind::parallel, ForKind::vectorized,
                                          ForKind::unroll};
      return For::make(i, begin, end, body, kinds[pick(4)]);
    } else if constexpr (std::is_same_v<T, TensorStoreNode>) {
      std::vector<PrimExpr> indices;
      for (int k = 1 + pick(2); k-- > 0;) {
        indices.push_back(prim_expr(depth - 1));
      }
      Var dest = tensor_use();
      return TensorStore::make(dest, std::move(indices), prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, BindNode>) {
      // A Bind defines its variable for the rest of its block; alone, it defines it for
      // nothing, so the variable is not put into scope here (block() does that).
      return Bind::make(Var::make("b" + std::to_string(counter_++), DataType::int32()),
                        prim_expr(depth - 1));
    } else if constexpr (std::is_same_v<T, IfThenElseNode>) {
      PrimExpr cond = prim_expr(depth - 1);
      SeqStmt then_case = block(depth - 1);
      return chance(0.5) ? IfThenElse::make(cond, then_case, block(depth - 1))
                         : IfThenElse::make(cond, then_case);
    } else if constexpr (std::is_same_v<T, AllocateNode>) {
      return Allocate::make(
          Var::make("buf" + std::to_string(counter_++), tensor_type_node(depth - 1)));
    } else if constexpr (std::is_same_v<T, IRModuleNode>) {
      IRModule module;
      const int count = 1 + pick(3);
      for (int k = 0; k < count; ++k) {
        BaseFunc function = chance(0.5) ? BaseFunc(make<PrimFuncNode>(depth - 1))
                                        : BaseFunc(make<FunctionNode>(depth - 1));
        module.add("f" + std::to_string(k), function);
      }
      return module.node();
    } else {
      static_assert(sizeof(T) == 0, "IrGenerator::make<T>: no generator for this node type");
    }
  }

  /// A random scalar (tensor-level) expression.
  PrimExpr prim_expr(int depth) {
    for (const auto& [scope_id, expr] : prim_pool_) {
      if (scope_id == scope_id_ && chance(0.1)) {
        return expr; // shared: tensor-level expressions compare as trees all the same
      }
    }
    PrimExpr result;
    if (depth <= 0) {
      switch (pick(3)) {
      case 0:
        result = make<IntImmNode>(0);
        break;
      case 1:
        result = make<FloatImmNode>(0);
        break;
      default:
        result = scalar_use();
        break;
      }
    } else {
      switch (pick(12)) {
      case 0:
        result = make<AddNode>(depth);
        break;
      case 1:
        result = make<SubNode>(depth);
        break;
      case 2:
        result = make<MulNode>(depth);
        break;
      case 3:
        result = make<LTNode>(depth);
        break;
      case 4:
        result = make<MaxNode>(depth);
        break;
      case 5:
        result = make<AndNode>(depth);
        break;
      case 6:
        result = make<NegNode>(depth);
        break;
      case 7:
        result = make<SelectNode>(depth);
        break;
      case 8:
        result = make<CastNode>(depth);
        break;
      case 9:
        result = make<TensorLoadNode>(depth);
        break;
      case 10:
        result = make<IntImmNode>(0);
        break;
      default:
        result = scalar_use();
        break;
      }
    }
    if (chance(0.3)) {
      prim_pool_.emplace_back(scope_id_, result);
    }
    return result;
  }

  /// A random graph-level expression.
  Expr graph_expr(int depth) {
    for (const auto& [scope_id, expr] : graph_pool_) {
      if (scope_id == scope_id_ && chance(0.15)) {
        return expr; // shared: the program becomes a DAG
      }
    }
    Expr result;
    if (depth <= 0) {
      switch (pick(4)) {
      case 0:
        result = make<ConstantNode>(0);
        break;
      case 1:
        result = make<IntImmNode>(0);
        break;
      default:
        result = graph_use();
        break;
      }
    } else {
      switch (pick(9)) {
      case 0:
      case 1:
        result = make<CallNode>(depth);
        break;
      case 2:
        result = make<TupleNode>(depth);
        break;
      case 3:
        result = make<TupleGetItemNode>(depth);
        break;
      case 4:
        result = make<LetNode>(depth);
        break;
      case 5:
        result = make<IfNode>(depth);
        break;
      case 6:
        result = make<CallDpsNode>(depth);
        break;
      case 7:
        result = make<FunctionNode>(depth);
        break;
      default:
        result = graph_use();
        break;
      }
    }
    graph_pool_.emplace_back(scope_id_, result);
    return result;
  }

  /// A random type.
  Type type(int depth) {
    if (depth <= 0) {
      return chance(0.5) ? Type(make<PrimTypeNode>(0)) : Type(tensor_type_node(0));
    }
    switch (pick(4)) {
    case 0:
      return make<PrimTypeNode>(depth);
    case 1:
      return tensor_type_node(depth);
    case 2:
      return make<TupleTypeNode>(depth);
    default:
      return make<FuncTypeNode>(depth);
    }
  }

  /// A random statement.
  Stmt stmt(int depth) {
    switch (depth <= 0 ? 2 + pick(2) : pick(5)) {
    case 0:
      return make<ForNode>(depth);
    case 1:
      return make<IfThenElseNode>(depth);
    case 2:
      return make<TensorStoreNode>(depth);
    case 3:
      return make<BindNode>(depth);
    default:
      return make<AllocateNode>(depth);
    }
  }

  /// A block of one to three statements; Bind and Allocate define their variable for the
  /// statements after them.
  SeqStmt block(int depth) {
    Scope scope(*this);
    std::vector<Stmt> items;
    for (int k = 1 + pick(3); k-- > 0;) {
      Stmt s = stmt(depth);
      if (const auto* bind = s.as<BindNode>()) {
        scalar_scope_.push_back(bind->var);
      } else if (const auto* alloc = s.as<AllocateNode>()) {
        tensor_scope_.push_back(alloc->buffer);
      }
      items.push_back(std::move(s));
    }
    return SeqStmt::make(std::move(items));
  }

  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
  /// True with probability p (53 random bits: the same on every standard library).
  bool chance(double p) { return static_cast<double>(rng_() >> 11U) * 0x1.0p-53 < p; }

private:
  /// Saves the scopes and restores them when the generated construct ends.
  class Scope {
  public:
    explicit Scope(IrGenerator& gen)
        : gen_(gen), scalars_(gen.scalar_scope_.size()), tensors_(gen.tensor_scope_.size()),
          graph_(gen.graph_scope_.size()), saved_id_(gen.scope_id_) {
      gen.scope_id_ = ++gen.scope_counter_;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() {
      gen_.scalar_scope_.resize(scalars_);
      gen_.tensor_scope_.resize(tensors_);
      gen_.graph_scope_.resize(graph_);
      gen_.scope_id_ = saved_id_;
    }

  private:
    IrGenerator& gen_;
    std::size_t scalars_;
    std::size_t tensors_;
    std::size_t graph_;
    int saved_id_;
  };

  DataType scalar_dtype() {
    static constexpr DataType types[] = {DataType::int32(), DataType::int64(), DataType::float32(),
                                         DataType::boolean()};
    return types[pick(4)];
  }

  TensorType tensor_type_node(int depth) {
    std::vector<PrimExpr> shape;
    for (int k = 1 + pick(2); k-- > 0;) {
      shape.push_back(chance(0.5) ? PrimExpr(IntImm::make(1 + pick(8)))
                                  : (depth > 0 && chance(0.3) ? prim_expr(1) : scalar_use()));
    }
    return TensorType::make(std::move(shape),
                            chance(0.8) ? DataType::float32() : DataType::float16());
  }

  /// Parameters of a function: tensors whose shapes mention fresh shape variables (the
  /// pattern defines them; a later mention is a check), plus scalars. They are put into
  /// scope for the body (the caller's Scope restores it).
  std::vector<Var> pattern_params(bool graph) {
    std::vector<Var> shape_vars;
    for (int k = 1 + pick(2); k-- > 0;) {
      shape_vars.push_back(Var::make("n" + std::to_string(counter_++), DataType::int32()));
    }
    std::vector<Var> params;
    for (int k = 1 + pick(3); k-- > 0;) {
      if (chance(0.75)) {
        std::vector<PrimExpr> shape;
        for (int d = 1 + pick(2); d-- > 0;) {
          shape.push_back(chance(0.7) ? PrimExpr(shape_vars[static_cast<std::size_t>(
                                            pick(static_cast<int>(shape_vars.size())))])
                                      : PrimExpr(IntImm::make(1 + pick(4))));
        }
        params.push_back(Var::make("p" + std::to_string(counter_++),
                                   TensorType::make(std::move(shape), DataType::float32())));
      } else {
        params.push_back(Var::make("s" + std::to_string(counter_++), DataType::int32()));
      }
    }
    for (const Var& param : params) {
      (graph ? graph_scope_ : (param->ty.is<TensorTypeNode>() ? tensor_scope_ : scalar_scope_))
          .push_back(param);
    }
    for (const Var& n : shape_vars) {
      scalar_scope_.push_back(n);
    }
    return params;
  }

  Var pick_from(const std::vector<Var>& scope, const std::vector<Var>& free) {
    if (!scope.empty() && chance(0.85)) {
      return scope[static_cast<std::size_t>(pick(static_cast<int>(scope.size())))];
    }
    return free[static_cast<std::size_t>(pick(static_cast<int>(free.size())))];
  }
  Var scalar_use() { return pick_from(scalar_scope_, free_scalars_); }
  Var tensor_use() { return pick_from(tensor_scope_, free_tensors_); }
  Var graph_use() { return pick_from(graph_scope_, free_graph_); }

  std::mt19937_64 rng_;
  int counter_ = 0;
  int scope_counter_ = 0;
  int scope_id_ = 0;
  std::vector<Var> scalar_scope_;
  std::vector<Var> tensor_scope_;
  std::vector<Var> graph_scope_;
  std::vector<Var> free_scalars_;
  std::vector<Var> free_tensors_;
  std::vector<Var> free_graph_;
  std::vector<std::pair<int, PrimExpr>> prim_pool_;
  std::vector<std::pair<int, Expr>> graph_pool_;
};

namespace detail {

/// The variables of `root` that structural equality treats as bound: those whose first
/// encounter, in comparison order, is a definition site (a def_simple field, or anywhere
/// inside a def_pattern region, types included). A variable used before any definition
/// is free, as it is for structural_equal. Each node's subtree is walked once: a second
/// visit meets no variable for the first time.
inline void collect_defined(const Object* node, bool pattern, bool def_site,
                            std::set<const Object*>& defined, std::set<const Object*>& seen) {
  if (node == nullptr || !seen.insert(node).second) {
    return;
  }
  const TypeInfo& info = node->type_info();
  if (info.is_variable && (pattern || def_site)) {
    defined.insert(node);
  }
  for (const FieldInfo& field : info.fields) {
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    const bool child_pattern = pattern || field.def_kind == DefRegionKind::def_pattern;
    const bool child_def = field.def_kind == DefRegionKind::def_simple;
    if (field.kind == FieldKind::node) {
      collect_defined(field.get(*node, field), child_pattern, child_def, defined, seen);
    } else {
      for (std::size_t k = 0; k < field.size(*node, field); ++k) {
        collect_defined(field.at(*node, field, k), child_pattern, child_def, defined, seen);
      }
    }
  }
}

inline ObjectRef rebuild_renamed(const Object* node, const std::set<const Object*>& defined,
                                 std::unordered_map<const Object*, ObjectRef>& memo) {
  if (node == nullptr) {
    return {};
  }
  if (auto it = memo.find(node); it != memo.end()) {
    return it->second;
  }
  const TypeInfo& info = node->type_info();
  if (info.is_variable && defined.count(node) == 0) {
    return memo[node] = ObjectRef::borrow(node); // free: kept
  }
  Owned<Object> copy = clone_object(*node);
  if (node->dynamic_type_index() == VarNode::type_index) {
    static_cast<VarNode*>(copy.get())->name += "_renamed";
  }
  for (const FieldInfo& field : info.fields) {
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    if (field.kind == FieldKind::node) {
      field.set(*copy, field, rebuild_renamed(field.get(*node, field), defined, memo));
    } else {
      for (std::size_t k = 0; k < field.size(*node, field); ++k) {
        field.set_at(*copy, field, k, rebuild_renamed(field.at(*node, field, k), defined, memo));
      }
    }
  }
  ObjectRef result = std::move(copy).publish();
  memo[node] = result;
  return result;
}

} // namespace detail

/// A copy of `root` in which every node is a new object (sharing preserved) and every
/// variable bound in it is replaced by a fresh variable with another name; free
/// variables stay the same objects. Structurally equal to `root`.
inline ObjectRef alpha_rename(const ObjectRef& root) {
  std::set<const Object*> defined;
  std::set<const Object*> seen;
  detail::collect_defined(root.get(), false, false, defined, seen);
  std::unordered_map<const Object*, ObjectRef> memo;
  return detail::rebuild_renamed(root.get(), defined, memo);
}

/// `root` with one leaf value changed, and the access path of that value.
struct LeafChange {
  ObjectRef changed;
  std::string path;
};

namespace detail {

struct PathStep {
  const Object* owner;
  const FieldInfo* field;
  std::size_t index; ///< element index, or npos for a node field
};

inline constexpr std::size_t no_element = static_cast<std::size_t>(-1);

/// Whether the node holds a plain value this helper knows how to change; its field name.
inline const char* changeable_field(const Object& node) {
  const std::uint32_t index = node.dynamic_type_index();
  if (index == IntImmNode::type_index || index == FloatImmNode::type_index) {
    return "value";
  }
  if (index == PrimTypeNode::type_index) {
    return "dtype";
  }
  if (index == GlobalVarNode::type_index || index == OpNode::type_index) {
    return "name";
  }
  if (index == ConstantNode::type_index) {
    return "data";
  }
  return nullptr;
}

inline ObjectRef changed_leaf(const Object& node) {
  Owned<Object> copy = clone_object(node);
  const std::uint32_t index = node.dynamic_type_index();
  if (index == IntImmNode::type_index) {
    static_cast<IntImmNode*>(copy.get())->value += 1;
  } else if (index == FloatImmNode::type_index) {
    static_cast<FloatImmNode*>(copy.get())->value += 1.5;
  } else if (index == PrimTypeNode::type_index) {
    auto* type = static_cast<PrimTypeNode*>(copy.get());
    type->dtype = type->dtype == DataType::int64() ? DataType::int32() : DataType::int64();
  } else if (index == GlobalVarNode::type_index) {
    static_cast<GlobalVarNode*>(copy.get())->name += "_changed";
  } else if (index == OpNode::type_index) {
    static_cast<OpNode*>(copy.get())->name += "_changed";
  } else if (index == ConstantNode::type_index) {
    auto* constant = static_cast<ConstantNode*>(copy.get());
    constant->data.set(0, constant->data.get(0) + 1.0);
  }
  return std::move(copy).publish();
}

/// Depth-first in structural_equal's comparison order: each node before its children,
/// node fields in order; a variable's fields only at its first encounter, and only when
/// that is a definition or free variables are mapped (an unmapped free variable that
/// changed would mismatch as a whole); each node's subtree once.
inline bool find_leaf(const Object* node, bool pattern, bool def_site, bool map_free_vars,
                      std::vector<PathStep>& path, std::set<const Object*>& seen,
                      const Object*& found) {
  if (node == nullptr) {
    return false;
  }
  const TypeInfo& info = node->type_info();
  if (!seen.insert(node).second) {
    return false;
  }
  if (info.is_variable && !(pattern || def_site || map_free_vars)) {
    return false;
  }
  if (changeable_field(*node) != nullptr) {
    found = node;
    return true;
  }
  for (const FieldInfo& field : info.fields) {
    if (field.ignored() || field.kind == FieldKind::value) {
      continue;
    }
    const bool child_pattern = pattern || field.def_kind == DefRegionKind::def_pattern;
    const bool child_def = field.def_kind == DefRegionKind::def_simple;
    if (field.kind == FieldKind::node) {
      path.push_back({node, &field, no_element});
      if (find_leaf(field.get(*node, field), child_pattern, child_def, map_free_vars, path, seen,
                    found)) {
        return true;
      }
      path.pop_back();
    } else {
      for (std::size_t k = 0; k < field.size(*node, field); ++k) {
        path.push_back({node, &field, k});
        if (find_leaf(field.at(*node, field, k), child_pattern, child_def, map_free_vars, path,
                      seen, found)) {
          return true;
        }
        path.pop_back();
      }
    }
  }
  return false;
}

} // namespace detail

/// Changes the first changeable leaf value (an IntImm's or FloatImm's value, a PrimType's
/// dtype, a GlobalVar's or Op's name, a Constant's data) reached in comparison order, by
/// rebuilding the path from it to the root. Returns nullopt when there is none. With
/// `map_free_vars`, the leaf may sit in a free variable's type (the comparison pairs free
/// variables and compares their types then); without, it never does.
inline std::optional<LeafChange> change_first_leaf(const ObjectRef& root,
                                                   bool map_free_vars = false) {
  std::vector<detail::PathStep> path;
  std::set<const Object*> seen;
  const Object* leaf = nullptr;
  if (!detail::find_leaf(root.get(), false, false, map_free_vars, path, seen, leaf)) {
    return std::nullopt;
  }
  std::string text = "<root>";
  for (const detail::PathStep& step : path) {
    text += '.';
    text += step.field->name;
    if (step.index != detail::no_element) {
      text += '[' + std::to_string(step.index) + ']';
    }
  }
  text += '.';
  text += detail::changeable_field(*leaf);
  ObjectRef current = detail::changed_leaf(*leaf);
  for (std::size_t k = path.size(); k-- > 0;) {
    const detail::PathStep& step = path[k];
    Owned<Object> copy = clone_object(*step.owner);
    if (step.index == detail::no_element) {
      step.field->set(*copy, *step.field, current);
    } else {
      step.field->set_at(*copy, *step.field, step.index, current);
    }
    current = std::move(copy).publish();
  }
  return LeafChange{current, text};
}

/// Every concrete IR node type as a std::tuple, for doctest's TEST_CASE_TEMPLATE_APPLY.
template <class List>
struct tuple_of_types;
template <class... Ts>
struct tuple_of_types<type_list<Ts...>> {
  using type = std::tuple<Ts...>;
};
using all_ir_node_types = tuple_of_types<ir_node_types>::type;

} // namespace ctir::testing
