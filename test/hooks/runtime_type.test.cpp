// Tests of include/ctir/hooks/runtime_type.hpp: node types whose hooks are given at run time.
#include <ctir/hooks/runtime_type.hpp>
#include <ctir/ir/ir.hpp>
#include <ctir/traverse/format_tree.hpp>

#include <doctest/doctest.h>

namespace {

const ctir::TypeInfo& loop_hint_type() {
  ctir::register_ir_types(); // its fields name IR types by key
  static const ctir::TypeInfo& type = ctir::register_dynamic_type<ctir::StmtNode>(
      "plugin.LoopHint",
      {{.name = "target", .kind = ctir::FieldKind::node, .element_type_key = "ir.Stmt"},
       {.name = "factor", .kind = ctir::FieldKind::value},
       {.name = "vars",
        .kind = ctir::FieldKind::node_array,
        .def_kind = ctir::DefRegionKind::def_simple,
        .element_type_key = "ir.Var"}});
  return type;
}

} // namespace

TEST_CASE("a node type registered at run time has the parent's fields then its own") {
  const ctir::TypeInfo& type = loop_hint_type();
  CHECK(type.key == "plugin.LoopHint");
  CHECK(type.parent == &ctir::type_info_v<ctir::StmtNode>);
  REQUIRE(type.fields.size() == 4);
  CHECK(type.fields[0].name == "span");
  CHECK(type.fields[0].ignored());
  CHECK(type.fields[1].name == "target");
  CHECK(type.fields[3].def_kind == ctir::DefRegionKind::def_simple);
  CHECK(ctir::TypeRegistry::global().find("plugin.LoopHint") == &type);
}

TEST_CASE("objects of a run-time type hold nodes and values in their slots") {
  const ctir::TypeInfo& type = loop_hint_type();
  ctir::Var i = ctir::Var::make("i", ctir::DataType::int32());
  auto hint = ctir::make_dynamic<ctir::StmtNode>(type);
  hint->nodes[0] = ctir::SeqStmt::make({});
  hint->values[0] = std::int64_t{4};
  hint->arrays[0] = {i};
  ctir::Stmt stmt = std::move(hint);
  CHECK(stmt->dynamic_type_key() == "plugin.LoopHint");
  CHECK(stmt.is<ctir::StmtNode>());
  const ctir::FieldInfo& target = type.fields[1];
  CHECK(target.get(*stmt, target)->dynamic_type_key() == "ir.SeqStmt");
  const ctir::FieldInfo& vars = type.fields[3];
  REQUIRE(vars.size(*stmt, vars) == 1);
  CHECK(vars.at(*stmt, vars, 0) == i.get());
  const ctir::FieldInfo& factor = type.fields[2];
  CHECK(factor.value_type == &ctir::value_type_id_v<ctir::DynamicValue>);
  CHECK(std::get<std::int64_t>(
            *static_cast<const ctir::DynamicValue*>(factor.value_address(*stmt, factor))) == 4);
  CHECK(ctir::format_tree(stmt) == "LoopHint(factor=4)\n"
                                   "├── target: SeqStmt(seq=[])\n"
                                   "└── vars[0]: i = Var(ty=int32)\n");
}

TEST_CASE("cloning a run-time type copies its slots and the setters check element types") {
  const ctir::TypeInfo& type = loop_hint_type();
  ctir::Stmt stmt = ctir::make_dynamic<ctir::StmtNode>(type);
  ctir::Owned<ctir::Object> copy = ctir::clone_object(*stmt);
  CHECK(copy->dynamic_type_index() == type.index);
  const ctir::FieldInfo& target = type.fields[1];
  CHECK_THROWS_AS(target.set(*copy, target, ctir::PrimExpr(1)), ctir::bad_node_cast);
  target.set(*copy, target, ctir::SeqStmt::make({}));
  ctir::ObjectRef published = std::move(copy);
  CHECK(target.get(*published, target) != nullptr);
  CHECK(target.get(*stmt, target) == nullptr);
}

TEST_CASE("make_dynamic refuses types it did not register") {
  CHECK_THROWS_AS(ctir::make_dynamic<ctir::StmtNode>(ctir::type_info_v<ctir::ForNode>),
                  ctir::Error);
  CHECK_THROWS_AS((ctir::register_dynamic_type<ctir::StmtNode>(
                      "plugin.Bad", {{.name = "x", .element_type_key = "no.Such"}})),
                  ctir::type_registration_error);
}

TEST_CASE("a run-time type's scope names its fields, and a wrong one is refused by name") {
  ctir::register_ir_types();
  using ctir::DefRegionKind;
  using ctir::DefScope;
  using ctir::FieldKind;
  const ctir::TypeInfo& type = ctir::register_dynamic_type<ctir::ExprNode>(
      "plugin.LetRec", {{.name = "var",
                         .kind = FieldKind::node,
                         .def_kind = DefRegionKind::def_simple,
                         .element_type_key = "ir.Var",
                         .scope = DefScope::field,
                         .scope_field = "body",
                         .recursive_field = "value",
                         .recursive_type_key = "ir.Function"},
                        {.name = "value", .kind = FieldKind::node, .element_type_key = "ir.Expr"},
                        {.name = "body",
                         .kind = FieldKind::node,
                         .flags = ctir::field_flags::block,
                         .element_type_key = "ir.Expr"}});
  REQUIRE(type.fields.size() == 4);
  CHECK(type.fields[1].scope_begin == 3);
  CHECK(type.fields[1].recursive_field == 2);
  CHECK(type.fields[1].recursive_type_index == ctir::FunctionNode::type_index);
  CHECK(type.fields[3].is_block());

  const auto refused = [](std::vector<ctir::RuntimeFieldSpec> fields) {
    try {
      ctir::register_dynamic_type<ctir::ExprNode>("plugin.Bad", fields);
    } catch (const ctir::type_registration_error& error) {
      return std::string(error.what());
    }
    return std::string("registered");
  };
  const ctir::RuntimeFieldSpec body{.name = "body", .element_type_key = "ir.Expr"};
  CHECK(refused({{.name = "var",
                  .def_kind = DefRegionKind::def_simple,
                  .element_type_key = "ir.Var",
                  .scope = DefScope::field,
                  .scope_field = "bdy"},
                 body}) == "ctir: field 'var' of 'plugin.Bad': its scope_field 'bdy' is not a "
                           "field declared after it");
  CHECK(refused({{.name = "var", .element_type_key = "ir.Var", .scope = DefScope::block_end},
                 body}) == "ctir: field 'var' of 'plugin.Bad': a scope is declared, but the "
                           "field defines nothing (give it a def_kind)");
  CHECK(refused({{.name = "var",
                  .def_kind = DefRegionKind::def_simple,
                  .element_type_key = "ir.Var",
                  .scope = DefScope::field,
                  .scope_field = "body",
                  .recursive_field = "body",
                  .recursive_type_key = "ir.Function"},
                 body}) == "ctir: field 'var' of 'plugin.Bad': its recursive_field 'body' is not "
                           "a field declared between it and its scope_field");
  CHECK(ctir::TypeRegistry::global().find("plugin.Bad") == nullptr);
}
