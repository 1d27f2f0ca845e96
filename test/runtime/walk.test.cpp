// Tests of include/ctir/runtime/walk.hpp: the type-erased walk gives the static walk's results.
#include <ctir/core/child_visitor.hpp>
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/runtime/walk.hpp>
#include <ctir/traverse/walk.hpp>

#include "deep_nesting.hpp"
#include "traverse_testing.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

using strings = std::vector<std::string>;

strings runtime_statements(const ObjectRef& root, WalkOrder order) {
  strings seen;
  runtime::Callbacks cbs;
  cbs.on("ir.Stmt", [&](const ObjectRef& s) { seen.push_back(short_key(*s)); });
  runtime::walk(root, cbs, order);
  return seen;
}

/// The number of nodes of the type registered under `key` (or of its subtypes) that the
/// runtime walk calls back on.
std::size_t runtime_count(const ObjectRef& root, const char* key,
                          WalkOrder order = WalkOrder::post) {
  std::size_t count = 0;
  runtime::Callbacks cbs;
  cbs.on(key, [&](const ObjectRef&) { ++count; });
  runtime::walk(root, cbs, order);
  return count;
}

strings static_statements(const ObjectRef& root, WalkOrder order) {
  strings seen;
  walk(root, on<StmtNode>([&](const Stmt& s) { seen.push_back(short_key(*s)); }), order);
  return seen;
}

} // namespace

TEST_CASE("the runtime walk finds the tensors add_one writes") {
  AddOne add_one;
  strings written;
  runtime::Callbacks cbs;
  cbs.on("ir.TensorStore",
         [&](const ObjectRef& node) { written.push_back(node.as<TensorStoreNode>()->dest->name); });
  runtime::walk(add_one.func, cbs);
  CHECK(written == strings{"B"});
}

TEST_CASE("the runtime walk orders statements as the static walk does") {
  AddOne add_one;
  CHECK(runtime_statements(add_one.func, WalkOrder::pre) ==
        strings{"SeqStmt", "For", "SeqStmt", "TensorStore"});
  CHECK(runtime_statements(add_one.func, WalkOrder::post) ==
        strings{"TensorStore", "SeqStmt", "For", "SeqStmt"});
  CHECK(runtime_statements(add_one.func, WalkOrder::pre) ==
        static_statements(add_one.func, WalkOrder::pre));
  CHECK(runtime_statements(add_one.func, WalkOrder::post) ==
        static_statements(add_one.func, WalkOrder::post));
}

TEST_CASE("the runtime walk visits every node in the static walk's order") {
  AddOne add_one;
  for (WalkOrder order : {WalkOrder::pre, WalkOrder::post}) {
    std::vector<const Object*> by_static;
    std::vector<const Object*> by_runtime;
    walk(
        add_one.func, [&](const Object& node) { by_static.push_back(&node); }, order);
    runtime::Callbacks cbs;
    cbs.on("Object", [&](const ObjectRef& node) { by_runtime.push_back(node.get()); });
    runtime::walk(add_one.func, cbs, order);
    CHECK(by_runtime == by_static);
    CHECK(by_runtime.size() == 24);
  }
}

TEST_CASE("a runtime skip keeps the walk out of the node's children in pre-order") {
  AddOne add_one;
  strings seen;
  runtime::Callbacks cbs;
  cbs.on("ir.Stmt", [&](const ObjectRef& s) -> runtime::WalkResult {
    seen.push_back(short_key(*s));
    return s.is<ForNode>() ? skip : advance;
  });
  runtime::walk(add_one.func, cbs, WalkOrder::pre);
  CHECK(seen == strings{"SeqStmt", "For"});
}

TEST_CASE("a runtime interrupt stops the walk and returns its payload") {
  AddOne add_one;
  runtime::Callbacks cbs;
  cbs.on("ir.TensorStore", [&](const ObjectRef& store) -> runtime::WalkResult {
    return interrupt(ObjectRef(store.as<TensorStoreNode>()->dest));
  });
  std::optional<ObjectRef> found = runtime::walk(add_one.func, cbs);
  REQUIRE(found.has_value());
  CHECK(found->same_as(add_one.B));
  runtime::Callbacks none;
  none.on("ir.TensorStore", [](const ObjectRef&) { return interrupt(); });
  std::optional<ObjectRef> bare = runtime::walk(add_one.func, none);
  REQUIRE(bare.has_value());
  CHECK_FALSE(bare->defined()); // interrupted, without a payload
  runtime::Callbacks never;
  never.on("ir.Bind", [](const ObjectRef&) { return interrupt(); });
  CHECK_FALSE(runtime::walk(add_one.func, never).has_value());
}

TEST_CASE("runtime with_def_region_kind reports add_one's definition sites") {
  AddOne add_one;
  strings sites;
  runtime::Callbacks cbs;
  cbs.with_def_region_kind([&](const ObjectRef& var, DefRegionKind kind) {
    if (kind != DefRegionKind::none) {
      sites.push_back(var.as<VarNode>()->name + " " + std::string(to_string(kind)));
    }
  });
  runtime::walk(add_one.func, cbs, WalkOrder::pre);
  CHECK(sites == strings{"A DEF_PATTERN", "n DEF_PATTERN", "B DEF_PATTERN", "n DEF_PATTERN",
                         "i DEF_SIMPLE"});
}

TEST_CASE("runtime callbacks match by ancestry and the first registered one wins") {
  AddOne add_one;
  strings seen;
  runtime::Callbacks cbs;
  cbs.on<ForNode>([&](const ObjectRef&) { seen.push_back("loop"); });
  cbs.on(type_info_v<StmtNode>, [&](const ObjectRef& s) { seen.push_back(short_key(*s)); });
  cbs.on("ir.TensorStore", [&](const ObjectRef&) { seen.push_back("never"); });
  runtime::walk(add_one.func, cbs);
  CHECK(seen == strings{"TensorStore", "SeqStmt", "loop", "SeqStmt"});
}

TEST_CASE("the runtime walk sees inside a node type registered at run time, by its parent") {
  AddOne add_one;
  Stmt block = plugin_block({add_one.func->body, add_one.i}, "block", add_one.func->body);
  PrimFunc f = PrimFunc::make("f", {add_one.A, add_one.B}, block);
  CHECK(runtime_statements(f, WalkOrder::pre) ==
        strings{"SeqStmt", "test.PluginBlock", "SeqStmt", "For", "SeqStmt", "TensorStore"});
  CHECK(runtime_statements(f, WalkOrder::pre) == static_statements(f, WalkOrder::pre));
  int blocks = 0;
  runtime::Callbacks cbs;
  cbs.on("test.PluginBlock", [&](const ObjectRef& b) {
    blocks += static_cast<const PluginBlockNode&>(*b).tag == "block" ? 1 : 0;
  });
  runtime::walk(f, cbs);
  CHECK(blocks == 1);
  // An interrupt inside the plug-in's children stops the walk there.
  Stmt twice = plugin_block({add_one.func->body, add_one.func->body}, "twice", add_one.func->body);
  PrimFunc g = PrimFunc::make("g", {add_one.A, add_one.B}, twice);
  std::size_t stores = 0;
  runtime::Callbacks stop;
  stop.on("ir.TensorStore", [&](const ObjectRef& store) {
    ++stores;
    return interrupt(store);
  });
  CHECK(runtime::walk(g, stop).has_value());
  CHECK(stores == 1);
  CHECK(runtime_count(g, "ir.TensorStore") == 2);
}

TEST_CASE("the runtime walk refuses unknown type keys and callbacks of another kind") {
  runtime::Callbacks cbs;
  CHECK_THROWS_AS(cbs.on("ir.NoSuchNode", [](const ObjectRef&) {}), Error);
  try {
    cbs.on("ir.NoSuchNode", [](const ObjectRef&) {});
  } catch (const Error& error) {
    CHECK(std::string(error.what()).find("ir.NoSuchNode") != std::string::npos);
  }
  runtime::Callbacks maps;
  maps.on("ir.Var", [](const ObjectRef& v) { return v; });
  AddOne add_one;
  CHECK_THROWS_AS(runtime::walk(add_one.func, maps), Error);
  try {
    runtime::walk(add_one.func, maps);
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK(message.find("ir.Var") != std::string::npos);
    CHECK(message.find("map callback") != std::string::npos);
  }
}

TEST_CASE("the runtime walk handles a chain far deeper than native recursion could go") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr chain = x;
  for (int k = 0; k < deep_nesting; ++k) {
    chain = chain + 1;
  }
  std::size_t adds = 0;
  runtime::Callbacks cbs;
  cbs.on("ir.Add", [&](const ObjectRef&) { ++adds; });
  runtime::walk(chain, cbs);
  CHECK(adds == deep_nesting);
  adds = 0;
  runtime::walk(chain, cbs, WalkOrder::pre);
  CHECK(adds == deep_nesting);
  runtime::Callbacks first;
  first.on("ir.Add", [](const ObjectRef& add) { return interrupt(add); });
  std::optional<ObjectRef> innermost = runtime::walk(chain, first);
  REQUIRE(innermost.has_value());
  CHECK(innermost->as<AddNode>()->a.same_as(x));
  // No callback on the chain's nodes: each is only a way down to its children.
  CHECK(runtime_count(chain, "ir.Var") == 1);
  CHECK(runtime_count(chain, "ir.Var", WalkOrder::pre) == 1);
}

namespace {

/// A run-time expression type whose type index shares a slot of the runtime walk's type
/// cache with IntImm (the cache and its filter are direct-mapped).
const TypeInfo& slot_mate_type() {
  static const TypeInfo& type = []() -> const TypeInfo& {
    const std::uint32_t slot = IntImmNode::type_index % ChildVisitor::filter_slots;
    for (int n = 0;; ++n) {
      const std::string key = "test.SlotMate" + std::to_string(n);
      if (type_index_of_key(key) % ChildVisitor::filter_slots == slot) {
        return register_dynamic_type<PrimExprNode>(
            key, {{"operands", FieldKind::node_array, DefRegionKind::none, 0, "ir.PrimExpr"}});
      }
    }
  }();
  return type;
}

PrimExpr slot_mate(std::vector<ObjectRef> operands) {
  auto node = make_dynamic<PrimExprNode>(slot_mate_type());
  node->arrays[0] = std::move(operands);
  return PrimExpr(std::move(node));
}

} // namespace

TEST_CASE("the runtime walk stays exact when node types share a slot of its type cache") {
  Var x = Var::make("x", DataType::int32());
  PrimExpr tree =
      Add::make(slot_mate({IntImm::make(1), slot_mate({IntImm::make(2), x}), IntImm::make(3)}),
                IntImm::make(4));
  const std::string mate_key(slot_mate_type().key);
  for (const char* counted : {"ir.IntImm", "ir.Var", "ir.Add"}) {
    CAPTURE(counted);
    std::size_t runtime_count = 0;
    std::size_t mates = 0;
    runtime::Callbacks cbs;
    cbs.on(counted, [&](const ObjectRef&) { ++runtime_count; });
    cbs.on(mate_key, [&](const ObjectRef&) { ++mates; });
    runtime::walk(tree, cbs);
    std::size_t static_count = 0;
    walk(tree, on<Object>([&](const ObjectRef& node) {
           static_count += node->dynamic_type_key() == counted ? 1U : 0U;
         }));
    CHECK(runtime_count == static_count);
    CHECK(mates == 2);
  }
  // With no callback on either, IntImm leaves are passed over and the mates still walked.
  CHECK(runtime_count(tree, "ir.Var") == 1);
}

TEST_CASE("the runtime walk of a null root calls nothing") {
  int calls = 0;
  runtime::Callbacks cbs;
  cbs.on("Object", [&](const ObjectRef&) { ++calls; });
  CHECK_FALSE(runtime::walk(ObjectRef(), cbs).has_value());
  CHECK(calls == 0);
}

namespace {

/// Node types registered by the pruning tests: a box holds boxes, and its field reads are
/// counted; a shelf holds boxes and statements.
struct PruneBoxNode : Object {
  std::vector<ObjectRef> content;
  static inline std::size_t reads = 0;
};
struct PruneShelfNode : Object {
  std::vector<ObjectRef> boxes;
  std::vector<ObjectRef> stmts;
};

std::size_t box_size(const Object& o, const FieldInfo&) {
  ++PruneBoxNode::reads;
  return static_cast<const PruneBoxNode&>(o).content.size();
}
const Object* box_at(const Object& o, const FieldInfo&, std::size_t i) {
  return static_cast<const PruneBoxNode&>(o).content[i].get();
}
void box_set_at(Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
  static_cast<PruneBoxNode&>(o).content[i] = std::move(value);
}
std::size_t shelf_boxes_size(const Object& o, const FieldInfo&) {
  return static_cast<const PruneShelfNode&>(o).boxes.size();
}
const Object* shelf_boxes_at(const Object& o, const FieldInfo&, std::size_t i) {
  return static_cast<const PruneShelfNode&>(o).boxes[i].get();
}
void shelf_boxes_set_at(Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
  static_cast<PruneShelfNode&>(o).boxes[i] = std::move(value);
}
std::size_t shelf_stmts_size(const Object& o, const FieldInfo&) {
  return static_cast<const PruneShelfNode&>(o).stmts.size();
}
const Object* shelf_stmts_at(const Object& o, const FieldInfo&, std::size_t i) {
  return static_cast<const PruneShelfNode&>(o).stmts[i].get();
}
void shelf_stmts_set_at(Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
  static_cast<PruneShelfNode&>(o).stmts[i] = std::move(value);
}

FieldInfo array_field(std::string_view name, std::string_view element_key,
                      std::size_t (*size)(const Object&, const FieldInfo&),
                      const Object* (*at)(const Object&, const FieldInfo&, std::size_t),
                      void (*set_at)(Object&, const FieldInfo&, std::size_t, ObjectRef)) {
  FieldInfo field;
  field.name = name;
  field.kind = FieldKind::node_array;
  field.element_type_index = type_index_of_key(element_key);
  field.size = size;
  field.at = at;
  field.set_at = set_at;
  return field;
}

template <class T>
const TypeInfo& register_prune_type(std::string key, std::string parent,
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
ObjectRef make_prune_node(const TypeInfo& type, T* node) {
  ctir::detail::object_access::stamp(*node, &type);
  return ObjectRef::adopt_new(node);
}

} // namespace

TEST_CASE("a runtime walk leaves out the fields that cannot lead to a matched node type") {
  register_ir_types();
  const TypeInfo& box_type = register_prune_type<PruneBoxNode>(
      "test.prune.Box", "Object",
      {array_field("content", "test.prune.Box", &box_size, &box_at, &box_set_at)});
  const TypeInfo& shelf_type = register_prune_type<PruneShelfNode>(
      "test.prune.Shelf", "Object",
      {array_field("boxes", "test.prune.Box", &shelf_boxes_size, &shelf_boxes_at,
                   &shelf_boxes_set_at),
       array_field("stmts", "ir.Stmt", &shelf_stmts_size, &shelf_stmts_at, &shelf_stmts_set_at)});
  AddOne add_one;
  auto* inner = new PruneBoxNode();
  ObjectRef inner_box = make_prune_node(box_type, inner);
  auto* outer = new PruneBoxNode();
  outer->content = {inner_box};
  ObjectRef outer_box = make_prune_node(box_type, outer);
  auto* shelf_node = new PruneShelfNode();
  shelf_node->boxes = {outer_box};
  shelf_node->stmts = {add_one.func->body};
  ObjectRef shelf = make_prune_node(shelf_type, shelf_node);

  // A box holds only boxes: a walk for loops never opens one, and finds the loop.
  runtime::Callbacks loops_cbs;
  std::size_t loops = 0;
  loops_cbs.on("ir.For", [&](const ObjectRef&) { ++loops; });
  PruneBoxNode::reads = 0;
  runtime::walk(shelf, loops_cbs);
  CHECK(loops == 1);
  CHECK(PruneBoxNode::reads == 0);
  runtime::walk(shelf, loops_cbs, WalkOrder::pre);
  CHECK(loops == 2);
  CHECK(PruneBoxNode::reads == 0);
  // A walk for boxes opens both.
  CHECK(runtime_count(shelf, "test.prune.Box") == 2);
  CHECK(PruneBoxNode::reads == 2);

  // A box type registered now may hold statements: the same callbacks open boxes from now on
  // and find the loop in one.
  struct StmtBoxNode : PruneBoxNode {
    std::vector<ObjectRef> stmts;
  };
  const TypeInfo& stmt_box_type = register_prune_type<StmtBoxNode>(
      "test.prune.StmtBox", "test.prune.Box",
      {array_field(
          "stmts", "ir.Stmt",
          [](const Object& o, const FieldInfo&) {
            return static_cast<const StmtBoxNode&>(o).stmts.size();
          },
          [](const Object& o, const FieldInfo&, std::size_t i) -> const Object* {
            return static_cast<const StmtBoxNode&>(o).stmts[i].get();
          },
          [](Object& o, const FieldInfo&, std::size_t i, ObjectRef value) {
            static_cast<StmtBoxNode&>(o).stmts[i] = std::move(value);
          })});
  auto* loop_box = new StmtBoxNode();
  loop_box->stmts = {add_one.func->body};
  inner->content = {make_prune_node(stmt_box_type, loop_box)}; // no walk runs meanwhile
  loops = 0;
  PruneBoxNode::reads = 0;
  runtime::walk(shelf, loops_cbs);
  CHECK(loops == 2);
  CHECK(PruneBoxNode::reads == 3);
}

TEST_CASE("a runtime walk's pruning keeps the static walk's results on the IR") {
  AddOne add_one;
  for (const char* key : {"ir.For", "ir.TensorStore", "ir.Add", "ir.Var", "ir.TensorType",
                          "ir.PrimType", "ir.IntImm", "ir.Stmt", "ir.PrimExpr"}) {
    CAPTURE(key);
    std::size_t static_count = 0;
    const TypeInfo& type = *TypeRegistry::global().find(std::string_view(key));
    walk(add_one.func, on<Object>([&](const ObjectRef& node) {
           static_count += node->type_info().derives_from(type) ? 1U : 0U;
         }));
    CHECK(runtime_count(add_one.func, key) == static_count);
    CHECK(runtime_count(add_one.func, key, WalkOrder::pre) == static_count);
  }
}

TEST_CASE("runtime callbacks say which fields lead to the types they match") {
  register_ir_types();
  runtime::Callbacks cbs;
  cbs.on("ir.For", [](const ObjectRef&) {});
  auto table = cbs.reach();
  REQUIRE(table != nullptr);
  CHECK(table == cbs.reach()); // cached
  const auto* loop = table->find(ForNode::type_index);
  REQUIRE(loop != nullptr);
  CHECK(loop->reaches);
  // The loop's body leads to loops, whatever else does.
  const auto& fields = type_info_v<ForNode>.fields;
  bool body = false;
  for (std::uint32_t f : loop->fields) {
    body = body || fields[f].name == "body";
  }
  CHECK(body);
  // Adding a callback forgets the table.
  cbs.on("ir.Add", [](const ObjectRef&) {});
  CHECK(table != cbs.reach());
  CHECK(cbs.reach()->find(AddNode::type_index)->reaches);
}
