// Tests of include/ctir/hooks/hooks.hpp: declaring fields and introspecting them.
#include <ctir/hooks/hooks_all.hpp>
#include <ctir/ir/ir.hpp>

#include <boost/hana/define_struct.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace hooks_test {
using namespace ctir;

struct ShapeNode : Object {
  CTIR_ABSTRACT_NODE(ShapeNode, Object, "hooks_test.Shape");
  Span span;
  CTIR_FIELDS(CTIR_FIELD(span).ignore());
};

struct BoxNode final : ShapeNode {
  CTIR_NODE(BoxNode, ShapeNode, "hooks_test.Box");
  std::int64_t width = 0;
  std::vector<Ref<ShapeNode>> children;
  Ref<VarNode> anchor;
  CTIR_FIELDS(CTIR_FIELD(width), CTIR_FIELD(children), CTIR_FIELD(anchor).def_simple());
};

/// No CTIR_FIELDS: the fields come from Boost.Hana reflection.
struct PointNode final : ShapeNode {
  CTIR_NODE(PointNode, ShapeNode, "hooks_test.Point");
  BOOST_HANA_DEFINE_STRUCT(PointNode, (double, x), (double, y), (Ref<ShapeNode>, parent));
};

/// A plain Hana struct used as a value field.
struct Color {
  BOOST_HANA_DEFINE_STRUCT(Color, (int, r), (int, g), (int, b));
};

struct PaintNode final : ShapeNode {
  CTIR_NODE(PaintNode, ShapeNode, "hooks_test.Paint");
  Color color;
  CTIR_FIELDS(CTIR_FIELD(color));
};

} // namespace hooks_test

using hooks_test::BoxNode;
using hooks_test::PaintNode;
using hooks_test::PointNode;

// Hook introspection happens at compile time.
static_assert(ctir::field_count_v<BoxNode> == 4, "inherited span + width, children, anchor");
static_assert(ctir::field_at_v<BoxNode, 0>.name == "span");
static_assert(decltype(ctir::field_at_v<BoxNode, 0>)::ignored);
static_assert(ctir::field_at_v<BoxNode, 1>.name == "width");
static_assert(decltype(ctir::field_at_v<BoxNode, 1>)::kind == ctir::FieldKind::value);
static_assert(decltype(ctir::field_at_v<BoxNode, 2>)::kind == ctir::FieldKind::node_array);
static_assert(
    std::is_same_v<decltype(ctir::field_at_v<BoxNode, 2>)::element_type, hooks_test::ShapeNode>);
static_assert(decltype(ctir::field_at_v<BoxNode, 3>)::kind == ctir::FieldKind::node);
static_assert(decltype(ctir::field_at_v<BoxNode, 3>)::def_kind == ctir::DefRegionKind::def_simple);
static_assert(ctir::field_index<BoxNode>("anchor") == 3);
static_assert(ctir::field_index<BoxNode>("nothing") == ctir::field_count_v<BoxNode>);
static_assert(ctir::hooked_node<BoxNode>);

// Reflection fallback: a Boost.Hana Struct node without CTIR_FIELDS.
static_assert(ctir::field_count_v<PointNode> == 4);
static_assert(ctir::field_at_v<PointNode, 1>.name == "x");
static_assert(decltype(ctir::field_at_v<PointNode, 3>)::kind == ctir::FieldKind::node);
static_assert(decltype(ctir::field_at_v<PointNode, 1>)::def_kind == ctir::DefRegionKind::none);

// The IR's own declarations.
static_assert(ctir::field_index<ctir::ForNode>("body") == 4);
static_assert(decltype(ctir::field_at_v<ctir::ForNode, 1>)::def_kind ==
              ctir::DefRegionKind::def_simple);
static_assert(decltype(ctir::field_at_v<ctir::PrimFuncNode, ctir::field_index<ctir::PrimFuncNode>(
                                                                "params")>)::def_kind ==
              ctir::DefRegionKind::def_pattern);
static_assert(decltype(ctir::field_at_v<ctir::VarNode, 1>)::ignored, "a Var's name is a hint");

// Scopes and blocks: declared on the fields, carried in their descriptors' types and names.
static_assert(decltype(ctir::field_at_v<ctir::ForNode, 1>)::scope == ctir::DefScope::field);
static_assert(ctir::field_at_v<ctir::ForNode, 1>.scope_field == "body");
static_assert(decltype(ctir::field_at_v<ctir::BindNode, 1>)::scope == ctir::DefScope::block_end);
static_assert(decltype(ctir::field_at_v<ctir::AllocateNode, 1>)::scope ==
              ctir::DefScope::block_end);
static_assert(std::is_same_v<decltype(ctir::field_at_v<ctir::LetNode, 1>)::recursive_type,
                             ctir::FunctionNode>);
static_assert(ctir::field_at_v<ctir::LetNode, 1>.recursive_field == "value");
static_assert(decltype(ctir::field_at_v<BoxNode, 3>)::scope == ctir::DefScope::rest_of_node,
              "no declaration: the node's later fields");
static_assert(decltype(ctir::field_at_v<ctir::SeqStmtNode, 1>)::is_block);
static_assert(decltype(ctir::field_at_v<ctir::IfNode,
                                        ctir::field_index<ctir::IfNode>("else_branch")>)::is_block);
static_assert(
    !decltype(ctir::field_at_v<ctir::IfNode, ctir::field_index<ctir::IfNode>("cond")>)::is_block);

namespace hooks_test {
/// A scope over a later field, with a recursive start, on a node with a block.
struct LoopNode final : ctir::StmtNode {
  CTIR_NODE(LoopNode, ctir::StmtNode, "hooks_test.Loop");
  ctir::Var var;
  ctir::Expr init;
  ctir::SeqStmt body;
  CTIR_FIELDS(
      CTIR_FIELD(var).def_simple().scope_over("body").recursive_in<ctir::FunctionNode>("init"),
      CTIR_FIELD(init), CTIR_FIELD(body).block());
};
} // namespace hooks_test

// Refining a descriptor further keeps its scope.
static_assert(decltype(ctir::field_at_v<hooks_test::LoopNode, 1>.ignore())::scope ==
              ctir::DefScope::field);
static_assert(ctir::field_at_v<hooks_test::LoopNode, 1>.elide_default().scope_field == "body");
static_assert(ctir::hooked_node<hooks_test::LoopNode>);

TEST_CASE("fields are read and written through their descriptors") {
  auto box = ctir::make_object<BoxNode>();
  constexpr auto width = ctir::field_at_v<BoxNode, 1>;
  width.get(*box) = 7;
  CHECK(box->width == 7);
  std::vector<std::string> names;
  ctir::for_each_field<BoxNode>([&](const auto& field) { names.emplace_back(field.name); });
  CHECK(names == std::vector<std::string>{"span", "width", "children", "anchor"});
}

TEST_CASE("a Hana struct node is described by its reflected fields at run time too") {
  const ctir::TypeInfo& info = ctir::type_info_v<PointNode>;
  REQUIRE(info.fields.size() == 4);
  CHECK(info.fields[1].name == "x");
  CHECK(info.fields[3].kind == ctir::FieldKind::node);
  auto point = ctir::make_object<PointNode>();
  point->x = 1.5;
  ctir::ObjectRef ref = std::move(point);
  std::string text;
  info.fields[1].print(*ref, info.fields[1], text);
  CHECK(text == "1.5");
}

TEST_CASE("a plain Hana struct is a value field compared member by member") {
  auto a = ctir::make_object<PaintNode>();
  a->color = {1, 2, 3};
  auto b = ctir::make_object<PaintNode>();
  b->color = {1, 2, 4};
  const ctir::FieldInfo& field = ctir::type_info_v<PaintNode>.fields[1];
  CHECK_FALSE(field.equal(*a, *b, field));
  b->color.b = 3;
  CHECK(field.equal(*a, *b, field));
  CHECK(field.hash(*a, field) == field.hash(*b, field));
  std::string text;
  field.print(*a, field, text);
  CHECK(text == "{r=1, g=2, b=3}");
}

TEST_CASE("a field's scope and block reach the runtime field table as field indices") {
  const ctir::TypeInfo& info = ctir::type_info_v<hooks_test::LoopNode>;
  REQUIRE(info.fields.size() == 4); // span, var, init, body
  const ctir::FieldInfo& var = info.fields[1];
  CHECK(var.scope == ctir::DefScope::field);
  CHECK(var.scope_begin == 3);
  CHECK(var.recursive_field == 2);
  CHECK(var.recursive_type_index == ctir::FunctionNode::type_index);
  CHECK(var.recursive_type_depth == ctir::FunctionNode::type_depth);
  CHECK(info.fields[3].is_block());
  CHECK_FALSE(info.fields[2].is_block());
  CHECK(info.fields[2].scope_begin == ctir::FieldInfo::no_field);
  CHECK(info.fields[2].recursive_field == ctir::FieldInfo::no_field);
}
