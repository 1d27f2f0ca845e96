// Tests of include/ctir/runtime/map.hpp: the type-erased map gives the static map's results.
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/map.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/map.hpp>
#include <ctir/traverse/structural_equal.hpp>

#include "counting_new.hpp"
#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <unordered_map>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

runtime::Callbacks specialize(const Var& n, std::int64_t value) {
  runtime::Callbacks cbs;
  cbs.on("ir.Var", [n, value](const ObjectRef& v) -> ObjectRef {
    return v.same_as(n) ? ObjectRef(IntImm::make(value)) : v;
  });
  return cbs;
}

} // namespace

TEST_CASE("the runtime map specializes n to 128 like the static map") {
  AddOne add_one;
  PrimFunc out = downcast<PrimFuncNode>(runtime::map(add_one.func, specialize(add_one.n, 128)));
  PrimFunc expected = map(add_one.func, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(128)) : PrimExpr(v);
  });
  const Var& A = out->params[0];
  const Var& B = out->params[1];
  CHECK_FALSE(A.same_as(add_one.A));
  CHECK(dim_of(A).as<IntImmNode>()->value == 128);
  CHECK(dim_of(B).as<IntImmNode>()->value == 128);
  CHECK(loop_of(out).end.as<IntImmNode>()->value == 128);
  CHECK(store_of(out).dest.same_as(B));
  CHECK(load_of(out).source.same_as(A));
  CHECK(loop_of(out).var.same_as(add_one.i));
  // The same shape as the static result, node for node.
  std::vector<std::string> runtime_keys;
  std::vector<std::string> static_keys;
  runtime::Callbacks keys;
  keys.on("Object", [&](const ObjectRef& node) { runtime_keys.push_back(short_key(*node)); });
  runtime::walk(out, keys);
  runtime::Callbacks expected_keys;
  expected_keys.on("Object",
                   [&](const ObjectRef& node) { static_keys.push_back(short_key(*node)); });
  runtime::walk(expected, expected_keys);
  CHECK(runtime_keys == static_keys);
  // The input is unchanged.
  CHECK(loop_of(add_one.func).end.same_as(add_one.n));
}

TEST_CASE("a shape variable whose definition changes is one new variable in every parameter") {
  // n is defined by A's type and met again in B's: both must get the same new n.
  AddOne add_one;
  runtime::Callbacks widen;
  widen.on("ir.PrimType",
           [](const ObjectRef&) -> ObjectRef { return PrimType::make(DataType::int64()); });
  PrimFunc out = downcast<PrimFuncNode>(runtime::map(add_one.func, widen));
  PrimFunc expected =
      map(add_one.func, [](const PrimType&) -> Type { return PrimType::make(DataType::int64()); });
  const Var& A = out->params[0];
  const Var& B = out->params[1];
  REQUIRE(dim_of(A).as<VarNode>() != nullptr);
  CHECK_FALSE(dim_of(A).same_as(add_one.n));
  CHECK(dim_of(A).same_as(dim_of(B)));
  CHECK(loop_of(out).end.same_as(dim_of(A)));
  CHECK(structural_equal(out, expected));
  CHECK(dim_of(expected->params[0]).same_as(dim_of(expected->params[1])));
}

TEST_CASE("uses of a variable whose definition changes stand for the new one beside changed "
          "siblings") {
  // n and i become int64 variables (k stays int16); uses of them sit next to each other and
  // next to literals the map also changes, before and after definitions are rebuilt.
  Var n = Var::make("n", DataType::int32());
  Var k = Var::make("k", DataType::int16());
  Var A = Var::make("A", TensorType::make({n}, DataType::int32()));
  Var i = Var::make("i", DataType::int32());
  Stmt body = SeqStmt::make({
      TensorStore::make(A, {i}, Select::make(i + 1, n + n, n * 1)),
      TensorStore::make(A, {n}, Cast::make(DataType::int32(), i + n + 1)),
      TensorStore::make(A, {i}, Cast::make(DataType::int32(), Select::make(k, k + n, n + k))),
  });
  PrimFunc func = PrimFunc::make("f", {k, A}, For::make(i, 0, n + 1, body));
  const auto widen = [](const PrimTypeNode& type) { return type.dtype == DataType::int32(); };
  runtime::Callbacks cbs;
  cbs.on("ir.PrimType", [&](const ObjectRef& type) -> MapResult<Object> {
    if (widen(*type.as<PrimTypeNode>())) {
      return PrimType::make(DataType::int64());
    }
    return unchanged;
  });
  cbs.on("ir.IntImm", [](const ObjectRef& imm) -> MapResult<Object> {
    if (imm.as<IntImmNode>()->value == 1) {
      return IntImm::make(2);
    }
    return unchanged;
  });
  ObjectRef out = runtime::map(func, cbs);
  ObjectRef expected = map(func, [&](const PrimType& type) -> MapResult<Type> {
    if (widen(*type)) {
      return PrimType::make(DataType::int64());
    }
    return unchanged;
  });
  expected = map(expected, [](const IntImm& imm) -> MapResult<PrimExpr> {
    if (imm->value == 1) {
      return IntImm::make(2);
    }
    return unchanged;
  });
  CHECK(structural_equal(out, expected));
  // No use of the old n and i is left, every use of n is the one new n, and k is kept.
  std::size_t old_uses = 0;
  std::size_t k_uses = 0;
  std::vector<const Object*> new_ns;
  runtime::Callbacks vars;
  vars.on("ir.Var", [&](const ObjectRef& v) {
    old_uses += v.same_as(n) || v.same_as(i) ? 1U : 0U;
    k_uses += v.same_as(k) ? 1U : 0U;
    if (v.as<VarNode>()->name == "n") {
      new_ns.push_back(v.get());
    }
  });
  runtime::walk(out, vars);
  CHECK(old_uses == 0);
  CHECK(k_uses == 4); // its parameter and three uses
  REQUIRE(new_ns.size() >= 9);
  for (const Object* use : new_ns) {
    CHECK(use == new_ns.front());
  }
}

TEST_CASE("the runtime map returns the same object when nothing changed") {
  AddOne add_one;
  runtime::Callbacks keep;
  keep.on("ir.Var", [](const ObjectRef& v) { return v; });
  CHECK(runtime::map(add_one.func, keep).same_as(add_one.func));
  runtime::Callbacks unchanged_cbs;
  unchanged_cbs.on("ir.Add", [](const ObjectRef&) { return unchanged; });
  CHECK(runtime::map(add_one.func, unchanged_cbs).same_as(add_one.func));
}

TEST_CASE("the runtime map rebuilds only the path to a replacement") {
  Var x = Var::make("x", DataType::int32());
  Var y = Var::make("y", DataType::int32());
  PrimExpr right = y * 3;
  PrimExpr root = (x + 1) - right;
  runtime::Callbacks cbs;
  cbs.on("ir.IntImm", [](const ObjectRef& imm) -> MapResult<PrimExpr> {
    if (imm.as<IntImmNode>()->value == 1) {
      return IntImm::make(10);
    }
    return unchanged;
  });
  ObjectRef out = runtime::map(root, cbs);
  const auto* sub = out.as<SubNode>();
  REQUIRE(sub != nullptr);
  CHECK(sub->b.same_as(right));
  CHECK(sub->a.as<AddNode>()->b.as<IntImmNode>()->value == 10);
}

TEST_CASE("the runtime map renames in pre-order like the static map") {
  AddOne add_one;
  std::unordered_map<const Object*, ObjectRef> new_vars;
  runtime::Callbacks cbs;
  cbs.with_def_region_kind([&](const ObjectRef& var, DefRegionKind kind) -> ObjectRef {
    if (kind != DefRegionKind::none) {
      if (!new_vars.contains(var.get())) {
        const auto* v = var.as<VarNode>();
        new_vars[var.get()] = Var::make(v->name + "1", v->ty);
      }
      return new_vars[var.get()];
    }
    auto it = new_vars.find(var.get());
    return it == new_vars.end() ? var : it->second;
  });
  PrimFunc renamed = downcast<PrimFuncNode>(runtime::map(add_one.func, cbs, WalkOrder::pre));
  const Var& A1 = renamed->params[0];
  const Var& B1 = renamed->params[1];
  CHECK(A1->name == "A1");
  CHECK(dim_of(A1).as<VarNode>()->name == "n1");
  CHECK(dim_of(B1).same_as(dim_of(A1)));
  CHECK(loop_of(renamed).var->name == "i1");
  CHECK(loop_of(renamed).end.same_as(dim_of(A1)));
  CHECK(store_of(renamed).dest.same_as(B1));
  CHECK(load_of(renamed).source.same_as(A1));
}

TEST_CASE("the runtime map refuses callbacks that return no node") {
  AddOne add_one;
  runtime::Callbacks walks;
  walks.on("ir.Var", [](const ObjectRef&) {});
  CHECK_THROWS_AS(runtime::map(add_one.func, walks), Error);
  try {
    runtime::map(add_one.func, walks);
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK(message.find("ctir::runtime::map") != std::string::npos);
    CHECK(message.find("returns no node") != std::string::npos);
  }
  runtime::Callbacks skips;
  skips.on("ir.Var", [](const ObjectRef&) { return skip; });
  CHECK_THROWS_AS(runtime::map(add_one.func, skips), Error);
}

TEST_CASE("a runtime replacement that cannot stand where its node was is an error") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.TensorStore", [&](const ObjectRef&) -> ObjectRef { return add_one.n; });
  CHECK_THROWS_AS(runtime::map(add_one.func, cbs), NodeError);
}

TEST_CASE("the runtime map rewrites inside a node type registered at run time") {
  AddOne add_one;
  Stmt block = plugin_block({add_one.func->body, add_one.n}, "tag", add_one.n);
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, block);
  PrimFunc g = downcast<PrimFuncNode>(runtime::map(f, specialize(add_one.n, 32)));
  const ObjectRef new_block = g->body->seq[0];
  CHECK_FALSE(new_block.same_as(block));
  const auto& node = static_cast<const PluginBlockNode&>(*new_block);
  CHECK(node.tag == "tag");
  CHECK(node.children[1].as<IntImmNode>()->value == 32);
  CHECK(node.hidden.same_as(add_one.n)); // ignored: not mapped
  CHECK(node.children[0].as<SeqStmtNode>()->seq[0].as<ForNode>()->end.as<IntImmNode>()->value ==
        32);
  // Same as the static map.
  PrimFunc expected = map(f, [&](const Var& v) -> PrimExpr {
    return v.same_as(add_one.n) ? PrimExpr(IntImm::make(32)) : PrimExpr(v);
  });
  const auto& static_block = static_cast<const PluginBlockNode&>(*expected->body->seq[0]);
  CHECK(static_block.children[1].as<IntImmNode>()->value == 32);
  CHECK(static_block.hidden.same_as(add_one.n));
}

TEST_CASE("the runtime map handles a chain far deeper than native recursion could go") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  runtime::Callbacks cbs;
  cbs.on("ir.IntImm", [](const ObjectRef&) -> ObjectRef { return IntImm::make(2); });
  ObjectRef out = runtime::map(chain, cbs);
  std::size_t twos = 0;
  runtime::Callbacks count;
  count.on("ir.IntImm",
           [&](const ObjectRef& imm) { twos += imm.as<IntImmNode>()->value == 2 ? 1U : 0U; });
  runtime::walk(out, count);
  CHECK(twos == deep_nesting);
}

TEST_CASE("a runtime map that changes nothing returns its input and allocates nothing" *
          doctest::skip(!counts_allocations)) {
  AddOne add_one;
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B},
                              plugin_block({add_one.func->body, add_one.n + 1}, "tag"));
  runtime::Callbacks cbs;
  std::size_t adds = 0;
  cbs.on("ir.Add", [&](const ObjectRef&) {
    ++adds;
    return unchanged;
  });
  for (const WalkOrder order : {WalkOrder::post, WalkOrder::pre}) {
    CAPTURE(static_cast<int>(order));
    // The first map computes the callbacks' reach table, which they keep.
    CHECK(runtime::map(f, cbs, order).same_as(f));
    adds = 0;
    const long before = allocation_count.load();
    const ObjectRef out = runtime::map(f, cbs, order);
    const long after = allocation_count.load();
    CHECK(out.same_as(f));
    CHECK(after - before == 0);
    CHECK(adds == 2); // inside the plug-in block too
  }
}

namespace {

// Node types registered at run time for the pruning tests: a crate holds crates only, a rack
// holds crates and statements. Reads of a crate's content are counted.
struct MapCrateNode : Object {
  std::vector<ObjectRef> content;
  static inline std::size_t reads = 0;
};
struct MapRackNode : Object {
  std::vector<ObjectRef> crates;
  std::vector<ObjectRef> stmts;
};
struct MapStmtCrateNode : MapCrateNode {
  std::vector<ObjectRef> stmts;
};

template <class T, std::vector<ObjectRef> T::*Member, bool Counted>
FieldInfo map_prune_field(std::string_view name, std::string_view element_key) {
  FieldInfo field;
  field.name = name;
  field.kind = FieldKind::node_array;
  field.element_type_index = type_index_of_key(element_key);
  field.size = [](const Object& o, const FieldInfo&) {
    if constexpr (Counted) {
      ++MapCrateNode::reads;
    }
    return (static_cast<const T&>(o).*Member).size();
  };
  field.at = [](const Object& o, const FieldInfo&, std::size_t i) -> const Object* {
    return (static_cast<const T&>(o).*Member)[i].get();
  };
  field.set_at = [](Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
    (static_cast<T&>(o).*Member)[i] = std::move(value);
  };
  return field;
}

template <class T>
const TypeInfo& register_map_prune_type(std::string key, std::string parent,
                                        std::vector<FieldInfo> fields) {
  RuntimeTypeSpec spec;
  spec.key = std::move(key);
  spec.parent_key = std::move(parent);
  spec.own_fields = std::move(fields);
  spec.destroy = &ctir::testing::detail::destroy_plugin<T>;
  spec.clone = &ctir::testing::detail::clone_plugin<T>;
  return TypeRegistry::global().add_runtime_type(std::move(spec));
}

template <class T>
ObjectRef make_map_prune_node(const TypeInfo& type, T* node) {
  ctir::detail::object_access::stamp(*node, &type);
  return ObjectRef::adopt_new(node);
}

} // namespace

TEST_CASE("a runtime map leaves out node types registered at run time that cannot lead to a "
          "match") {
  register_ir_types();
  const TypeInfo& crate_type = register_map_prune_type<MapCrateNode>(
      "test.map_prune.Crate", "Object",
      {map_prune_field<MapCrateNode, &MapCrateNode::content, true>("content",
                                                                   "test.map_prune.Crate")});
  const TypeInfo& rack_type = register_map_prune_type<MapRackNode>(
      "test.map_prune.Rack", "Object",
      {map_prune_field<MapRackNode, &MapRackNode::crates, false>("crates", "test.map_prune.Crate"),
       map_prune_field<MapRackNode, &MapRackNode::stmts, false>("stmts", "ir.Stmt")});
  AddOne add_one;
  auto* inner = new MapCrateNode();
  ObjectRef inner_crate = make_map_prune_node(crate_type, inner);
  auto* outer = new MapCrateNode();
  outer->content = {inner_crate};
  ObjectRef outer_crate = make_map_prune_node(crate_type, outer);
  auto* rack_node = new MapRackNode();
  rack_node->crates = {outer_crate};
  rack_node->stmts = {add_one.func->body};
  ObjectRef rack = make_map_prune_node(rack_type, rack_node);

  // A crate holds only crates: a map of variables never opens one, and rewrites the loop.
  for (const WalkOrder order : {WalkOrder::post, WalkOrder::pre}) {
    MapCrateNode::reads = 0;
    ObjectRef out = runtime::map(rack, specialize(add_one.n, 16), order);
    const auto& new_rack = static_cast<const MapRackNode&>(*out);
    CHECK(MapCrateNode::reads == 0);
    CHECK(new_rack.crates[0].same_as(outer_crate));
    const auto* loop = new_rack.stmts[0].as<SeqStmtNode>()->seq[0].as<ForNode>();
    REQUIRE(loop != nullptr);
    CHECK(loop->end.as<IntImmNode>()->value == 16);
  }
  // A map of crates opens both.
  runtime::Callbacks crates_cbs;
  std::size_t crates = 0;
  crates_cbs.on("test.map_prune.Crate", [&](const ObjectRef& crate) {
    ++crates;
    return crate;
  });
  MapCrateNode::reads = 0;
  CHECK(runtime::map(rack, crates_cbs).same_as(rack));
  CHECK(crates == 2);
  CHECK(MapCrateNode::reads == 2);

  // A crate type registered now may hold statements: the same callbacks open crates from now
  // on, rewrite the loop in one, and rebuild the crates on its path.
  const TypeInfo& stmt_crate_type = register_map_prune_type<MapStmtCrateNode>(
      "test.map_prune.StmtCrate", "test.map_prune.Crate",
      {map_prune_field<MapStmtCrateNode, &MapStmtCrateNode::stmts, false>("stmts", "ir.Stmt")});
  auto* loop_crate = new MapStmtCrateNode();
  loop_crate->stmts = {add_one.func->body};
  inner->content = {make_map_prune_node(stmt_crate_type, loop_crate)}; // no map runs meanwhile
  const runtime::Callbacks cbs = specialize(add_one.n, 16);
  MapCrateNode::reads = 0;
  ObjectRef out = runtime::map(rack, cbs);
  CHECK(MapCrateNode::reads >= 3); // each crate once, and again to rebuild it
  const auto& new_rack = static_cast<const MapRackNode&>(*out);
  CHECK_FALSE(new_rack.crates[0].same_as(outer_crate));
  const auto& new_outer = static_cast<const MapCrateNode&>(*new_rack.crates[0]);
  const auto& new_inner = static_cast<const MapCrateNode&>(*new_outer.content[0]);
  const auto& new_loop_crate = static_cast<const MapStmtCrateNode&>(*new_inner.content[0]);
  const auto* loop = new_loop_crate.stmts[0].as<SeqStmtNode>()->seq[0].as<ForNode>();
  REQUIRE(loop != nullptr);
  CHECK(loop->end.as<IntImmNode>()->value == 16);
  // The input is unchanged.
  CHECK(static_cast<const MapStmtCrateNode&>(*inner->content[0])
            .stmts[0]
            .same_as(add_one.func->body));
}
