// Fixed-seed generators of tensor-level IR for the traversal benchmarks, and alpha renaming.
#pragma once

#include <ctir/ir/ir.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir::bench {

/// What to generate: how big, from which seed, and how often an Add is `x + 0`.
struct TreeSpec {
  /// Stop adding top-level loop nests once the function has at least this many nodes
  /// (counted as a full walk reaches them: see count_nodes).
  std::size_t target_nodes = 16'000;
  std::uint64_t seed = 0x5EED;
  /// The share of inner scalar nodes built as `x + 0` (int) or `x + 0.0` (float); the
  /// other inner nodes are Add, Sub, Mul, Div, Min, Max and Select in equal shares.
  double zero_add_share = 0.05;
  /// Deepest loop nest.
  int max_loop_depth = 3;
  /// Deepest scalar expression (leaves at depth 0).
  int max_expr_depth = 4;
};

/// The sizes the benchmarks use: about 16 thousand and about a million nodes.
inline constexpr std::size_t small_tree_nodes = 16'000;
inline constexpr std::size_t large_tree_nodes = 1'000'000;

/// The number of nodes a full walk of `root` reaches, through the runtime field tables:
/// every non-ignored node field, a shared node once per reference, a variable as a leaf at
/// its uses (its type is reached where it is defined).
inline std::size_t count_nodes(const Object* root) {
  struct Item {
    const Object* node;
    DefRegionKind region;
  };
  std::size_t count = 0;
  std::vector<Item> stack{{root, DefRegionKind::none}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    ++count;
    const TypeInfo& info = item.node->type_info();
    if (info.is_variable && item.region == DefRegionKind::none) {
      continue;
    }
    for (const FieldInfo& field : info.fields) {
      if (field.ignored()) {
        continue;
      }
      const DefRegionKind inner =
          item.region == DefRegionKind::def_pattern ? item.region : field.def_kind;
      if (field.kind == FieldKind::node) {
        if (const Object* child = field.get(*item.node, field)) {
          stack.push_back({child, inner});
        }
      } else if (field.kind == FieldKind::node_array) {
        for (std::size_t i = 0, n = field.size(*item.node, field); i < n; ++i) {
          if (const Object* child = field.at(*item.node, field, i)) {
            stack.push_back({child, inner});
          }
        }
      }
    }
  }
  return count;
}

namespace detail {

/// SplitMix64: tiny, fast and the same on every compiler and standard library
/// (std::uniform_int_distribution is not), so a seed always gives the same tree.
class Rng {
public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }
  /// Uniform in [0, n).
  std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }
  /// Uniform in [0, 1).
  double unit() noexcept { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }
  bool chance(double p) noexcept { return unit() < p; }

private:
  std::uint64_t state_;
};

class TreeGenerator {
public:
  explicit TreeGenerator(const TreeSpec& spec) : spec_(spec), rng_(spec.seed) {}

  PrimFunc run() {
    n_ = Var::make("n", DataType::int32());
    m_ = Var::make("m", DataType::int32());
    for (const char* name : {"A", "B", "C"}) {
      tensors_.push_back(Var::make(name, TensorType::make({n_, m_}, DataType::float32())));
    }
    ints_ = {n_, m_};
    std::vector<Stmt> body;
    // The parameters and the PrimFunc/SeqStmt around the body.
    std::size_t nodes = 2;
    for (const Var& tensor : tensors_) {
      nodes += count_nodes(tensor.get());
    }
    while (nodes < spec_.target_nodes) {
      Stmt nest = gen_for(0);
      nodes += count_nodes(nest.get());
      body.push_back(std::move(nest));
    }
    return PrimFunc::make("generated", tensors_, SeqStmt::make(std::move(body)));
  }

private:
  std::string fresh_name(const char* prefix) { return prefix + std::to_string(counter_++); }

  Stmt gen_for(int depth) {
    Var var = Var::make(fresh_name("i"), DataType::int32());
    PrimExpr end = rng_.chance(0.5)
                       ? PrimExpr(rng_.chance(0.5) ? n_ : m_)
                       : PrimExpr(IntImm::make(static_cast<std::int64_t>(4 + rng_.below(60))));
    const std::size_t scope = ints_.size();
    ints_.push_back(var);
    SeqStmt body = SeqStmt::make(gen_block(depth + 1));
    ints_.resize(scope);
    const auto kind = static_cast<ForKind>(rng_.below(4));
    return For::make(std::move(var), IntImm::make(0), std::move(end), std::move(body), kind);
  }

  std::vector<Stmt> gen_block(int depth) {
    // A Bind defines its variable for the rest of the block only.
    const std::size_t scope = ints_.size();
    std::vector<Stmt> block;
    const std::size_t count = 1 + rng_.below(4);
    for (std::size_t k = 0; k < count; ++k) {
      const double pick = rng_.unit();
      if (depth < spec_.max_loop_depth && pick < 0.35) {
        block.push_back(gen_for(depth));
      } else if (pick < 0.50) {
        Var var = Var::make(fresh_name("t"), DataType::int32());
        block.push_back(Bind::make(var, gen_int(spec_.max_expr_depth)));
        ints_.push_back(std::move(var));
      } else if (depth <= spec_.max_loop_depth && pick < 0.60) {
        PrimExpr cond = gen_cond();
        SeqStmt then_case = SeqStmt::make(gen_block(depth + 1));
        SeqStmt else_case;
        if (rng_.chance(0.5)) {
          else_case = SeqStmt::make(gen_block(depth + 1));
        }
        block.push_back(
            IfThenElse::make(std::move(cond), std::move(then_case), std::move(else_case)));
      } else {
        const Var& dest = tensors_[rng_.below(tensors_.size())];
        std::vector<PrimExpr> indices;
        indices.push_back(gen_int(2));
        indices.push_back(gen_int(2));
        PrimExpr value = gen_float(spec_.max_expr_depth);
        block.push_back(TensorStore::make(dest, std::move(indices), std::move(value)));
      }
    }
    ints_.resize(scope);
    return block;
  }

  // Function arguments are evaluated in an unspecified order (g++ and clang differ), so
  // every random choice is sequenced through a local: a seed gives one tree everywhere.
  template <class N, class Gen>
  static PrimExpr binary(Gen gen) {
    PrimExpr a = gen();
    PrimExpr b = gen();
    return Ref<N>::make(std::move(a), std::move(b));
  }

  PrimExpr gen_cond() {
    PrimExpr a = gen_int(1);
    PrimExpr b = gen_int(1);
    return lt(std::move(a), std::move(b));
  }

  template <class Gen>
  PrimExpr gen_select(Gen gen) {
    PrimExpr cond = gen_cond();
    PrimExpr t = gen();
    PrimExpr f = gen();
    return Select::make(std::move(cond), std::move(t), std::move(f));
  }

  /// One inner node over operands from `gen`: Add (or `x + zero`), Sub, Mul, Div, Min,
  /// Max or Select.
  template <class Gen>
  PrimExpr gen_inner(Gen gen, const PrimExpr& zero) {
    if (rng_.chance(spec_.zero_add_share)) {
      PrimExpr a = gen();
      return Add::make(std::move(a), zero);
    }
    switch (rng_.below(7)) {
    case 0:
      return binary<AddNode>(gen);
    case 1:
      return binary<SubNode>(gen);
    case 2:
      return binary<MulNode>(gen);
    case 3:
      return binary<DivNode>(gen);
    case 4:
      return binary<MinNode>(gen);
    case 5:
      return binary<MaxNode>(gen);
    default:
      return gen_select(gen);
    }
  }

  PrimExpr gen_int(int depth) {
    if (depth == 0 || rng_.chance(0.25)) {
      if (rng_.chance(0.7)) {
        return ints_[rng_.below(ints_.size())];
      }
      return IntImm::make(static_cast<std::int64_t>(1 + rng_.below(16)));
    }
    return gen_inner([&] { return gen_int(depth - 1); }, IntImm::make(0));
  }

  PrimExpr gen_float(int depth) {
    if (depth == 0 || rng_.chance(0.25)) {
      const double pick = rng_.unit();
      if (pick < 0.6) {
        const Var& source = tensors_[rng_.below(tensors_.size())];
        std::vector<PrimExpr> indices;
        indices.push_back(gen_int(1));
        indices.push_back(gen_int(1));
        return TensorLoad::make(source, std::move(indices));
      }
      if (pick < 0.8) {
        return FloatImm::make(static_cast<double>(rng_.below(1000)) / 8.0);
      }
      return Cast::make(DataType::float32(), gen_int(depth > 1 ? depth - 1 : 1));
    }
    return gen_inner([&] { return gen_float(depth - 1); }, FloatImm::make(0.0));
  }

  TreeSpec spec_;
  Rng rng_;
  Var n_;
  Var m_;
  std::vector<Var> tensors_;
  /// The int32 variables in scope: shape variables, enclosing loop variables, bindings.
  std::vector<PrimExpr> ints_;
  std::size_t counter_ = 0;
};

/// A deep copy in which every variable is replaced by a fresh one (same type, name with
/// a prime): the same program up to alpha renaming, sharing no node with the original.
class AlphaRenamer {
public:
  PrimFunc run(const PrimFuncNode& func) {
    std::vector<Var> params;
    params.reserve(func.params.size());
    for (const Var& param : func.params) {
      params.push_back(var(param.get()));
    }
    return PrimFunc::make(func.name, std::move(params), block(*func.body), func.attrs);
  }

private:
  Var var(const VarNode* old) {
    auto it = vars_.find(old);
    if (it != vars_.end()) {
      return it->second;
    }
    Var fresh = Var::make(old->name + "'", old->ty.defined() ? type(*old->ty) : Type());
    vars_.emplace(old, fresh);
    return fresh;
  }

  Type type(const TypeNode& ty) {
    if (const auto* prim = dynamic_cast_node<PrimTypeNode>(ty)) {
      return PrimType::make(prim->dtype);
    }
    if (const auto* tensor = dynamic_cast_node<TensorTypeNode>(ty)) {
      return TensorType::make(exprs(tensor->shape), tensor->dtype);
    }
    throw Error("alpha_renamed: unsupported type " + std::string(ty.dynamic_type_key()));
  }

  template <class T, class From>
  static const T* dynamic_cast_node(const From& node) {
    return node.dynamic_type_index() == T::type_index ? static_cast<const T*>(&node) : nullptr;
  }

  std::vector<PrimExpr> exprs(const std::vector<PrimExpr>& xs) {
    std::vector<PrimExpr> out;
    out.reserve(xs.size());
    for (const PrimExpr& x : xs) {
      out.push_back(expr(*x));
    }
    return out;
  }

  template <class N>
  PrimExpr binary(const PrimExprNode& e) {
    const auto& node = static_cast<const N&>(e);
    return Ref<N>::make(expr(*node.a), expr(*node.b));
  }

  PrimExpr expr(const PrimExprNode& e) {
    switch (e.dynamic_type_index()) {
    case VarNode::type_index:
      return var(static_cast<const VarNode*>(&e));
    case IntImmNode::type_index: {
      const auto& node = static_cast<const IntImmNode&>(e);
      return IntImm::make(node.value, node.dtype);
    }
    case FloatImmNode::type_index: {
      const auto& node = static_cast<const FloatImmNode&>(e);
      return FloatImm::make(node.value, node.dtype);
    }
    case AddNode::type_index:
      return binary<AddNode>(e);
    case SubNode::type_index:
      return binary<SubNode>(e);
    case MulNode::type_index:
      return binary<MulNode>(e);
    case DivNode::type_index:
      return binary<DivNode>(e);
    case ModNode::type_index:
      return binary<ModNode>(e);
    case MinNode::type_index:
      return binary<MinNode>(e);
    case MaxNode::type_index:
      return binary<MaxNode>(e);
    case EQNode::type_index:
      return binary<EQNode>(e);
    case NENode::type_index:
      return binary<NENode>(e);
    case LTNode::type_index:
      return binary<LTNode>(e);
    case LENode::type_index:
      return binary<LENode>(e);
    case GTNode::type_index:
      return binary<GTNode>(e);
    case GENode::type_index:
      return binary<GENode>(e);
    case AndNode::type_index:
      return binary<AndNode>(e);
    case OrNode::type_index:
      return binary<OrNode>(e);
    case NotNode::type_index:
      return Not::make(expr(*static_cast<const NotNode&>(e).a));
    case NegNode::type_index:
      return Neg::make(expr(*static_cast<const NegNode&>(e).a));
    case SelectNode::type_index: {
      const auto& node = static_cast<const SelectNode&>(e);
      return Select::make(expr(*node.cond), expr(*node.true_value), expr(*node.false_value));
    }
    case CastNode::type_index: {
      const auto& node = static_cast<const CastNode&>(e);
      return Cast::make(node.dtype, expr(*node.value));
    }
    case TensorLoadNode::type_index: {
      const auto& node = static_cast<const TensorLoadNode&>(e);
      return TensorLoad::make(var(node.source.get()), exprs(node.indices));
    }
    default:
      throw Error("alpha_renamed: unsupported expression " + std::string(e.dynamic_type_key()));
    }
  }

  SeqStmt block(const SeqStmtNode& seq) {
    std::vector<Stmt> out;
    out.reserve(seq.seq.size());
    for (const Stmt& s : seq.seq) {
      out.push_back(stmt(*s));
    }
    return SeqStmt::make(std::move(out));
  }

  Stmt stmt(const StmtNode& s) {
    switch (s.dynamic_type_index()) {
    case SeqStmtNode::type_index:
      return block(static_cast<const SeqStmtNode&>(s));
    case ForNode::type_index: {
      const auto& node = static_cast<const ForNode&>(s);
      Var v = var(node.var.get());
      return For::make(std::move(v), expr(*node.begin), expr(*node.end), block(*node.body),
                       node.kind);
    }
    case BindNode::type_index: {
      const auto& node = static_cast<const BindNode&>(s);
      PrimExpr value = expr(*node.value);
      return Bind::make(var(node.var.get()), std::move(value));
    }
    case TensorStoreNode::type_index: {
      const auto& node = static_cast<const TensorStoreNode&>(s);
      return TensorStore::make(var(node.dest.get()), exprs(node.indices), expr(*node.value));
    }
    case IfThenElseNode::type_index: {
      const auto& node = static_cast<const IfThenElseNode&>(s);
      PrimExpr cond = expr(*node.cond);
      SeqStmt then_case = block(*node.then_case);
      SeqStmt else_case = node.else_case.defined() ? block(*node.else_case) : SeqStmt();
      return IfThenElse::make(std::move(cond), std::move(then_case), std::move(else_case));
    }
    case AllocateNode::type_index:
      return Allocate::make(var(static_cast<const AllocateNode&>(s).buffer.get()));
    default:
      throw Error("alpha_renamed: unsupported statement " + std::string(s.dynamic_type_key()));
    }
  }

  std::unordered_map<const VarNode*, Var> vars_;
};

} // namespace detail

/// A tensor-level PrimFunc of about `spec.target_nodes` nodes, the same for the same spec:
/// parameters A, B, C: Tensor[(n, m), float32]; a body of loop nests (For of every kind)
/// holding SeqStmt, Bind, IfThenElse and TensorStore, whose values are random scalar
/// trees of Add, Sub, Mul, Div, Min, Max, Select, Cast, TensorLoad, IntImm, FloatImm and
/// Var, a share `spec.zero_add_share` of the Adds being `x + 0`.
inline PrimFunc make_tree(const TreeSpec& spec) { return detail::TreeGenerator(spec).run(); }

/// The generated tree of about `nodes` nodes with the default seed and shape.
inline PrimFunc make_tree(std::size_t nodes) {
  TreeSpec spec;
  spec.target_nodes = nodes;
  return make_tree(spec);
}

/// A copy of `func` with fresh variables everywhere (structurally equal, no node shared).
inline PrimFunc alpha_renamed(const PrimFunc& func) { return detail::AlphaRenamer().run(*func); }

} // namespace ctir::bench
