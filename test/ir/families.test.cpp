// Tests of ctir/ir/families.hpp: IR families, ir_node_types, registration, field tables.
#include <ctir/ir/families.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using namespace ctir;

namespace {

// ---------------------------------------------------------------------------
// Compile-time list facts, checked at namespace scope
// ---------------------------------------------------------------------------

/// Whether every element of A is in B and both have the same size (lists without repeats).
template <class A, class B>
inline constexpr bool same_members_v = false;
template <class... As, class B>
inline constexpr bool same_members_v<type_list<As...>, B> = sizeof...(As) == B::size &&
                                                            (list_contains_v<As, B> && ...);

/// Whether the elements' type indices are pairwise distinct (so no type is listed twice and
/// no two type keys collide).
template <class List>
inline constexpr bool distinct_indices_v = false;
template <class... Ts>
inline constexpr bool distinct_indices_v<type_list<Ts...>> = [] {
  constexpr std::array<std::uint32_t, sizeof...(Ts)> indices{Ts::type_index...};
  for (std::size_t i = 0; i < indices.size(); ++i) {
    for (std::size_t j = i + 1; j < indices.size(); ++j) {
      if (indices[i] == indices[j]) {
        return false;
      }
    }
  }
  return true;
}();

using prim_expr_types =
    type_list<VarNode, IntImmNode, FloatImmNode, AddNode, SubNode, MulNode, DivNode, ModNode,
              MinNode, MaxNode, EQNode, NENode, LTNode, LENode, GTNode, GENode, AndNode, OrNode,
              NotNode, NegNode, SelectNode, CastNode, TensorLoadNode>;
using graph_expr_types = type_list<GlobalVarNode, OpNode, ConstantNode, CallNode, TupleNode,
                                   TupleGetItemNode, LetNode, IfNode, CallDpsNode>;
using base_func_types = type_list<FunctionNode, PrimFuncNode>;
using stmt_types =
    type_list<SeqStmtNode, ForNode, TensorStoreNode, BindNode, IfThenElseNode, AllocateNode>;
using type_types = type_list<PrimTypeNode, TensorTypeNode, TupleTypeNode, FuncTypeNode>;

static_assert(same_members_v<family_t<PrimExprNode>, prim_expr_types>,
              "family_t<PrimExprNode> must list exactly the tensor-level scalar expressions");
static_assert(same_members_v<family_t<StmtNode>, stmt_types>,
              "family_t<StmtNode> must list exactly the statements");
static_assert(same_members_v<family_t<BaseFuncNode>, base_func_types>);
static_assert(same_members_v<family_t<TypeNode>, type_types>);
static_assert(same_members_v<family_t<ExprNode>,
                             concat_t<prim_expr_types, graph_expr_types, base_func_types>>,
              "family_t<ExprNode> must hold every PrimExpr, graph-level expression and function");
static_assert(
    same_members_v<ir_node_types, concat_t<type_types, prim_expr_types, graph_expr_types,
                                           base_func_types, stmt_types, type_list<IRModuleNode>>>,
    "ir_node_types must hold every concrete IR node type");
static_assert(std::is_same_v<family_t<Object>, ir_node_types>);
static_assert(ir_node_types::size == 45);

// Spot checks of membership, as users will write them.
static_assert(list_contains_v<ForNode, family_t<StmtNode>>);
static_assert(list_contains_v<VarNode, family_t<PrimExprNode>>);
static_assert(list_contains_v<VarNode, family_t<ExprNode>>);
static_assert(list_contains_v<PrimFuncNode, family_t<ExprNode>>);
static_assert(list_contains_v<GlobalVarNode, family_t<ExprNode>>);
static_assert(!list_contains_v<GlobalVarNode, family_t<PrimExprNode>>);
static_assert(!list_contains_v<ForNode, family_t<ExprNode>>);
static_assert(!list_contains_v<VarNode, family_t<StmtNode>>);
static_assert(!list_contains_v<TensorTypeNode, family_t<ExprNode>>);
static_assert(!list_contains_v<IRModuleNode, family_t<ExprNode>>);
static_assert(list_contains_v<IRModuleNode, ir_node_types>);

// A concrete type is its own family.
static_assert(std::is_same_v<family_t<ForNode>, type_list<ForNode>>);
static_assert(std::is_same_v<family_t<AddNode>, type_list<AddNode>>);
static_assert(std::is_same_v<family_t<IRModuleNode>, type_list<IRModuleNode>>);

// No type is listed twice, and no two type keys hash to the same index.
static_assert(distinct_indices_v<ir_node_types>, "two IR node types share a type index");
static_assert(distinct_indices_v<family_t<ExprNode>>);

/// For every T in List: T is in family_t<Root> exactly when T derives from Root.
template <class Root, class... Ts>
constexpr bool family_is_exhaustive(type_list<Ts...>) {
  return ((list_contains_v<Ts, family_t<Root>> == std::is_base_of_v<Root, Ts>)&&...);
}
static_assert(family_is_exhaustive<PrimExprNode>(ir_node_types{}),
              "an IR type derived from PrimExprNode is missing from its family (or vice versa)");
static_assert(family_is_exhaustive<ExprNode>(ir_node_types{}));
static_assert(family_is_exhaustive<StmtNode>(ir_node_types{}));
static_assert(family_is_exhaustive<BaseFuncNode>(ir_node_types{}));
static_assert(family_is_exhaustive<TypeNode>(ir_node_types{}));

/// Every member is a concrete node whose hooks pass the compile-time checks.
template <class... Ts>
constexpr bool all_concrete_and_hooked(type_list<Ts...>) {
  return ((concrete_node<Ts> && hooked_node<Ts>)&&...);
}
static_assert(all_concrete_and_hooked(ir_node_types{}));

/// Only Var is a variable type.
template <class... Ts>
constexpr int count_variable_types(type_list<Ts...>) {
  return ((is_variable_node_v<Ts> ? 1 : 0) + ...);
}
static_assert(count_variable_types(ir_node_types{}) == 1 && is_variable_node_v<VarNode>);

// ---------------------------------------------------------------------------
// Registration by register_ir_types
// ---------------------------------------------------------------------------

/// The keys of the types in the list that the registry does not know (or knows wrongly).
template <class... Ts>
std::vector<std::string> unregistered(type_list<Ts...>) {
  std::vector<std::string> missing;
  const TypeRegistry& registry = TypeRegistry::global();
  const auto check = [&](const TypeInfo* expected, std::string_view key, std::uint32_t index) {
    if (registry.find(key) != expected || registry.find(index) != expected) {
      missing.emplace_back(key);
    }
  };
  (check(&type_info_v<Ts>, Ts::type_key, Ts::type_index), ...);
  return missing;
}

/// A node type that nothing creates or registers: the control for the check above.
struct NeverRegisteredNode final : Object {
  CTIR_NODE(NeverRegisteredNode, Object, "test.ir.families.NeverRegistered");
};

using abstract_ir_types =
    type_list<Object, ExprNode, PrimExprNode, BaseFuncNode, StmtNode, TypeNode>;

// ---------------------------------------------------------------------------
// The runtime field table against the static hooks
// ---------------------------------------------------------------------------

template <class T>
void check_field_table() {
  const std::string_view key = T::type_key;
  CAPTURE(key);
  const TypeInfo& info = type_info_v<T>;
  REQUIRE(info.fields.size() == field_count_v<T>);
  std::size_t i = 0;
  for_each_field<T>([&](const auto& field) {
    using F = std::remove_cvref_t<decltype(field)>;
    const FieldInfo& entry = info.fields[i];
    CAPTURE(i);
    CAPTURE(field.name);
    CHECK(entry.name == field.name);
    CHECK(entry.kind == F::kind);
    CHECK(entry.def_kind == F::def_kind);
    CHECK(entry.flags == F::flags);
    CHECK(entry.ignored() == F::ignored);
    if constexpr (std::is_void_v<typename F::element_type>) {
      CHECK(F::kind == FieldKind::value);
    } else {
      CHECK(entry.element_type_index == F::element_type::type_index);
    }
    if constexpr (F::kind == FieldKind::node) {
      CHECK((entry.get != nullptr && entry.set != nullptr));
    } else if constexpr (F::kind == FieldKind::node_array) {
      CHECK((entry.size != nullptr && entry.at != nullptr && entry.set_at != nullptr));
    } else if constexpr (!F::ignored) {
      CHECK((entry.equal != nullptr && entry.hash != nullptr && entry.print != nullptr &&
             entry.is_default != nullptr));
    }
    // Field names are unique within a type: the name finds this very field.
    CHECK(field_index<T>(field.name) == i);
    ++i;
  });
  CHECK(i == field_count_v<T>);
}

template <class... Ts>
void check_field_tables(type_list<Ts...>) {
  (check_field_table<Ts>(), ...);
}

/// The (name, def kind, flags) of every field of T, for spot checks.
struct FieldRow {
  std::string name;
  DefRegionKind def_kind;
  std::uint32_t flags;
  friend bool operator==(const FieldRow&, const FieldRow&) = default;
};

template <class T>
std::vector<FieldRow> field_rows() {
  std::vector<FieldRow> rows;
  for (const FieldInfo& f : type_info_v<T>.fields) {
    rows.push_back({std::string(f.name), f.def_kind, f.flags});
  }
  return rows;
}

constexpr auto none = DefRegionKind::none;
constexpr auto simple = DefRegionKind::def_simple;
constexpr auto pattern = DefRegionKind::def_pattern;
constexpr std::uint32_t ignore = field_flags::ignore;
constexpr std::uint32_t elide = field_flags::elide_default;
constexpr std::uint32_t block = field_flags::block;

} // namespace

TEST_CASE("register_ir_types registers every IR node type by key and index") {
  register_ir_types();
  const std::vector<std::string> missing = unregistered(ir_node_types{});
  CHECK(missing.empty());
  for (const std::string& key : missing) {
    CAPTURE(key);
    CHECK_MESSAGE(false, "not registered by register_ir_types");
  }
  CHECK(unregistered(abstract_ir_types{}).empty());
  // Idempotent.
  register_ir_types();
  CHECK(unregistered(ir_node_types{}).empty());
}

TEST_CASE("the registration check reports a type nothing registered") {
  CHECK(unregistered(type_list<NeverRegisteredNode>{}) ==
        std::vector<std::string>{"test.ir.families.NeverRegistered"});
  CHECK(TypeRegistry::global().find("test.ir.families.NeverRegistered") == nullptr);
}

TEST_CASE("the registry lists every IR node type among all types") {
  register_ir_types();
  const std::vector<const TypeInfo*> all = TypeRegistry::global().all();
  std::size_t found = 0;
  for_each_type(ir_node_types{}, [&](auto identity) {
    using T = typename decltype(identity)::type;
    for (const TypeInfo* info : all) {
      found += info == &type_info_v<T> ? 1 : 0;
    }
  });
  CHECK(found == ir_node_types::size);
  for (std::size_t i = 1; i < all.size(); ++i) {
    CHECK(all[i - 1]->key < all[i]->key); // sorted by key
  }
}

TEST_CASE("the runtime field table of every IR node type equals its static hooks") {
  check_field_tables(ir_node_types{});
  check_field_tables(abstract_ir_types{});
}

TEST_CASE("every IR node type's descriptor matches its declaration") {
  for_each_type(ir_node_types{}, [&](auto identity) {
    using T = typename decltype(identity)::type;
    const TypeInfo& info = type_info_v<T>;
    const std::string_view key = T::type_key;
    CAPTURE(key);
    CHECK(info.key == T::type_key);
    CHECK(info.index == T::type_index);
    CHECK(info.depth == T::type_depth);
    CHECK_FALSE(info.is_abstract);
    CHECK((info.destroy != nullptr && info.clone != nullptr));
    CHECK(info.parent == &type_info_v<typename T::base_type>);
    CHECK(info.ancestors[info.depth] == info.index);
    CHECK(info.ancestors[0] == Object::type_index);
    CHECK(info.is_variable == is_variable_node_v<T>);
    CHECK((info.variable_name != nullptr) == is_variable_node_v<T>);
  });
}

TEST_CASE("the family roots are abstract and sit where the hierarchy says") {
  CHECK(type_info_v<ExprNode>.is_abstract);
  CHECK(type_info_v<PrimExprNode>.is_abstract);
  CHECK(type_info_v<BaseFuncNode>.is_abstract);
  CHECK(type_info_v<StmtNode>.is_abstract);
  CHECK(type_info_v<TypeNode>.is_abstract);
  CHECK(type_info_v<PrimExprNode>.parent == &type_info_v<ExprNode>);
  CHECK(type_info_v<BaseFuncNode>.parent == &type_info_v<ExprNode>);
  CHECK(type_info_v<ExprNode>.parent == &type_info_v<Object>);
  CHECK(type_info_v<StmtNode>.parent == &type_info_v<Object>);
  CHECK(type_info_v<TypeNode>.parent == &type_info_v<Object>);
  CHECK(type_info_v<IRModuleNode>.parent == &type_info_v<Object>);
}

TEST_CASE("the fields of the IR are declared with their definition regions and flags") {
  CHECK(field_rows<ForNode>() == std::vector<FieldRow>{{"span", none, ignore},
                                                       {"var", simple, 0},
                                                       {"begin", none, 0},
                                                       {"end", none, 0},
                                                       {"body", none, 0},
                                                       {"kind", none, elide}});
  CHECK(field_rows<PrimFuncNode>() == std::vector<FieldRow>{{"span", none, ignore},
                                                            {"name", none, ignore},
                                                            {"attrs", none, elide},
                                                            {"params", pattern, 0},
                                                            {"body", none, 0}});
  CHECK(field_rows<FunctionNode>() == std::vector<FieldRow>{{"span", none, ignore},
                                                            {"name", none, ignore},
                                                            {"attrs", none, elide},
                                                            {"params", pattern, 0},
                                                            {"body", none, block},
                                                            {"ret_type", none, 0}});
  CHECK(field_rows<IfNode>() == std::vector<FieldRow>{{"span", none, ignore},
                                                      {"cond", none, 0},
                                                      {"then_branch", none, block},
                                                      {"else_branch", none, block}});
  CHECK(field_rows<SeqStmtNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"seq", none, block}});
  CHECK(field_rows<LetNode>() ==
        std::vector<FieldRow>{
            {"span", none, ignore}, {"var", simple, 0}, {"value", none, 0}, {"body", none, 0}});
  CHECK(field_rows<BindNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"var", simple, 0}, {"value", none, 0}});
  CHECK(field_rows<AllocateNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"buffer", pattern, 0}});
  CHECK(field_rows<VarNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"name", none, ignore}, {"ty", none, 0}});
  CHECK(field_rows<IntImmNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"dtype", none, elide}, {"value", none, 0}});
  CHECK(field_rows<AddNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"a", none, 0}, {"b", none, 0}});
  CHECK(field_rows<CallNode>() ==
        std::vector<FieldRow>{
            {"span", none, ignore}, {"op", none, 0}, {"args", none, 0}, {"attrs", none, elide}});
  CHECK(field_rows<GlobalVarNode>() ==
        std::vector<FieldRow>{{"span", none, ignore}, {"name", none, 0}});
  CHECK(field_rows<TensorTypeNode>() ==
        std::vector<FieldRow>{{"shape", none, 0}, {"dtype", none, 0}});
  CHECK(field_rows<IRModuleNode>() == std::vector<FieldRow>{{"globals", none, 0},
                                                            {"functions", none, 0},
                                                            {"index", none, ignore}});
  CHECK(field_index<ForNode>("body") == 4);
  CHECK(field_index<ForNode>("nope") == field_count_v<ForNode>);
}

TEST_CASE("the definition fields of the IR declare their scopes") {
  const FieldInfo& loop = type_info_v<ForNode>.fields[1];
  CHECK(loop.scope == DefScope::field);
  CHECK(loop.scope_begin == field_index<ForNode>("body"));
  CHECK(loop.recursive_field == FieldInfo::no_field);
  const FieldInfo& let = type_info_v<LetNode>.fields[1];
  CHECK(let.scope == DefScope::field);
  CHECK(let.scope_begin == field_index<LetNode>("body"));
  CHECK(let.recursive_field == field_index<LetNode>("value"));
  CHECK(let.recursive_type_index == FunctionNode::type_index);
  CHECK(type_info_v<BindNode>.fields[1].scope == DefScope::block_end);
  CHECK(type_info_v<AllocateNode>.fields[1].scope == DefScope::block_end);
  // Parameters: in scope in the function's later fields, the default.
  CHECK(type_info_v<FunctionNode>.fields[field_index<FunctionNode>("params")].scope ==
        DefScope::rest_of_node);
  CHECK(type_info_v<PrimFuncNode>.fields[field_index<PrimFuncNode>("params")].scope ==
        DefScope::rest_of_node);
}

TEST_CASE("node fields declare the node type their elements must have") {
  const auto element_of = [](const TypeInfo& info, std::string_view name) {
    for (const FieldInfo& f : info.fields) {
      if (f.name == name) {
        return f.element_type_index;
      }
    }
    return std::uint32_t{0};
  };
  CHECK(element_of(type_info_v<ForNode>, "var") == VarNode::type_index);
  CHECK(element_of(type_info_v<ForNode>, "begin") == PrimExprNode::type_index);
  CHECK(element_of(type_info_v<ForNode>, "body") == SeqStmtNode::type_index);
  CHECK(element_of(type_info_v<SeqStmtNode>, "seq") == StmtNode::type_index);
  CHECK(element_of(type_info_v<CallNode>, "args") == ExprNode::type_index);
  CHECK(element_of(type_info_v<CallDpsNode>, "func") == GlobalVarNode::type_index);
  CHECK(element_of(type_info_v<IRModuleNode>, "functions") == BaseFuncNode::type_index);
  CHECK(element_of(type_info_v<TensorTypeNode>, "shape") == PrimExprNode::type_index);
}

TEST_CASE("dispatch over a family calls the function with the node's exact type") {
  const Var v = Var::make("v", DataType::int32());
  std::vector<std::string> seen;
  const auto record = [&](const auto& node) {
    seen.emplace_back(std::remove_cvref_t<decltype(node)>::type_key);
  };
  const auto fallback = [&](const Object& node) {
    seen.push_back("fallback:" + std::string(node.dynamic_type_key()));
  };
  const PrimExpr sum = Add::make(v, 1);
  const Stmt loop = For::make(v, 0, 2, {});
  const BaseFunc prim = PrimFunc::make("p", {}, {});
  dispatch<PrimExprNode>(*v, record, fallback);
  dispatch<PrimExprNode>(*sum, record, fallback);
  dispatch<PrimExprNode>(*loop, record, fallback); // not a PrimExpr
  dispatch<ExprNode>(*prim, record, fallback);
  dispatch<StmtNode>(*loop, record, fallback);
  dispatch<Object>(*IRModule().node(), record, fallback);
  CHECK(seen == std::vector<std::string>{"ir.Var", "ir.Add", "fallback:ir.For", "ir.PrimFunc",
                                         "ir.For", "ir.IRModule"});
}
